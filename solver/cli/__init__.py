"""The `aos-solve` command line.

Each command lives in the module of its concept and registers itself here;
this file only wires them together and turns bad input into exit code 2.
"""
from __future__ import annotations

import sys

import typer

from solver.board.errors import InputError
from solver.interrupt import Interrupted

app = typer.Typer(
    name="aos-solve",
    help="Solve and analyse solo Age of Steam maps (Easter Island, Zoo) and Railroad Tiles Desert challenges.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register_commands() -> None:
    # Imported here so that `solver.cli` stays importable while a command's
    # heavy dependencies (OR-Tools) load only when the CLI starts.
    from solver.cli import batch as cli_batch, map as cli_map, multi as cli_multi, network as cli_network
    from solver.cli import desert as desert_cli, solo as cli_solo, steiner as cli_steiner, zoo as cli_zoo

    for module in (cli_map, cli_solo, cli_zoo, cli_network, cli_steiner, desert_cli, cli_batch, cli_multi):
        module.register(app)
    from solver.cli import desert_advise, serve; serve.register(app); desert_advise.register(app)  # noqa: E702


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code (used by tests) and exits with it."""
    from solver import interrupt
    interrupt.install()
    code = run(argv)
    sys.exit(code)


_registered = False


def run(argv: list[str] | None = None) -> int:
    global _registered
    if not _registered:
        _register_commands()
        _registered = True
    try:
        app(args=argv, prog_name="aos-solve", standalone_mode=True)
    except SystemExit as done:
        return int(done.code or 0) if not isinstance(done.code, str) else 1
    except InputError as err:
        print(f"aos-solve: error: {err}", file=sys.stderr)
        return 2
    except Interrupted:
        print("aos-solve: interrupted", file=sys.stderr)
        return 130
    return 0
