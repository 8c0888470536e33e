"""`aos-solve serve`: the local web app (solver/app/), on 127.0.0.1 until Ctrl-C."""
from __future__ import annotations

from typing import Optional

import typer


def serve(
    port: Optional[int] = typer.Option(None, "--port", min=0, max=65535,
                                       help="Port on 127.0.0.1 (default: a free one, printed at start)."),
    open_browser: bool = typer.Option(False, "--open", help="Open the app in the default web browser."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Do not log every request."),
) -> None:
    """A local web app: set up Easter Island and Zoo boards by clicking, watch the solve, play along from a round,
    ask the Desert advice, edit and save board files. Listens on 127.0.0.1 only; Ctrl-C stops it."""
    from solver.app.server import serve as run_server
    run_server(port or 0, open_browser, quiet)


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
