"""The app's web server: a Flask application bound to 127.0.0.1, and `serve()` that runs it until Ctrl-C.

Every bad input comes back as JSON `{"error": "...", "field": "..."}` with
status 400 (the page shows it at the field); an unexpected error gives one line
and status 500, never a traceback in the browser.
"""
from __future__ import annotations

import logging
import pathlib
import sys

from flask import Flask, jsonify, request, send_from_directory
from werkzeug.exceptions import HTTPException

from solver.board.errors import InputError

STATIC = pathlib.Path(__file__).parent / "static"
HOST = "127.0.0.1"
MAX_UPLOAD = 2 * 1024 * 1024  # a board file is a few kB; 2 MB leaves room and stops a runaway upload


def field_of(err: InputError) -> str | None:
    return err.where


def create_app() -> Flask:
    """The application with its job table and board store (one per server)."""
    from solver.app.boards import Boards
    from solver.app.jobs import Jobs
    from solver.app.routes_solo import solo
    from solver.app.routes_tools import tools

    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config["MAX_CONTENT_LENGTH"] = MAX_UPLOAD
    app.config["JSON_SORT_KEYS"] = False
    app.json.sort_keys = False
    app.extensions["aos_jobs"] = Jobs()
    app.extensions["aos_boards"] = Boards()
    app.register_blueprint(solo)
    app.register_blueprint(tools)

    @app.get("/")
    def index():
        return send_from_directory(STATIC, "index.html")

    @app.get("/favicon.ico")
    def favicon():
        return send_from_directory(STATIC, "favicon.svg", mimetype="image/svg+xml")

    @app.errorhandler(InputError)
    def bad_input(err: InputError):
        return jsonify({"error": str(err), "field": field_of(err)}), 400

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException):
        if err.code == 413:
            message = f"the upload is larger than {MAX_UPLOAD // (1024 * 1024)} MB"
        else:
            message = err.description or err.name
        if request.path.startswith("/api/"):
            return jsonify({"error": message, "field": None}), err.code
        return err

    @app.errorhandler(Exception)
    def internal(err: Exception):
        app.logger.exception("internal error")
        return jsonify({"error": f"internal error ({type(err).__name__}); the server log has the details",
                        "field": None}), 500

    return app


def close_app(app: Flask) -> None:
    app.extensions["aos_jobs"].shutdown()
    app.extensions["aos_boards"].close()


def make_server(port: int = 0):
    """A threaded WSGI server on 127.0.0.1 (port 0: a free one) and its app."""
    from werkzeug.serving import make_server as wz_make_server
    app = create_app()
    server = wz_make_server(HOST, port, app, threaded=True)
    return server, app


def serve(port: int = 0, open_browser: bool = False, quiet: bool = False) -> str:
    """Run until Ctrl-C; returns the address it served. Port in use: InputError naming --port."""
    from solver.interrupt import Interrupted
    if quiet:
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
    import socket
    try:  # werkzeug would print its own advice and exit 1 on a busy port: say it our way, exit 2
        with socket.socket() as probe:
            probe.bind((HOST, port))
        server, app = make_server(port)
    except (OSError, SystemExit) as err:
        why = getattr(err, "strerror", None) or "the port is in use"
        raise InputError(f"cannot listen on {HOST}:{port} ({why}); pick another port or leave --port out "
                         "for a free one", "--port") from None
    url = f"http://{HOST}:{server.server_port}/"
    print(f"aos-solve app: {url}  (Ctrl-C stops it)", flush=True)
    if open_browser:
        import webbrowser
        webbrowser.open(url)
    try:
        server.serve_forever(poll_interval=0.2)
    except (KeyboardInterrupt, Interrupted):
        print("aos-solve app: stopped", file=sys.stderr, flush=True)
    finally:
        server.server_close()
        close_app(app)
    return url
