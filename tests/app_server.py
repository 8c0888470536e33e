"""The app's server on 127.0.0.1 in a thread of the test process, for the API and browser tests."""
from __future__ import annotations

import contextlib
import threading
from typing import Iterator


@contextlib.contextmanager
def running_app() -> Iterator[tuple[str, object]]:
    """(base URL, Flask app) of a server on 127.0.0.1 and a free port; stopped and cleaned up afterwards."""
    from solver.app.server import HOST, close_app, make_server
    server, app = make_server(0)
    assert server.server_address[0] == HOST == "127.0.0.1"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        yield f"http://{HOST}:{server.server_port}", app
    finally:
        server.shutdown()
        server.server_close()
        close_app(app)
        thread.join(timeout=5)
