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
    help="Solve and analyse solo Age of Steam maps (Easter Island, Zoo), Railroad Tiles Desert challenges and "
         "five multiplayer Age of Steam maps. Every answer says what proves it, the readings of the rule sheets "
         "it was made under and the assumptions it used. `aos-solve COMMAND --help` shows a command with an "
         "example.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _register_commands() -> None:
    # Imported here so that `solver.cli` stays importable while a command's
    # heavy dependencies (OR-Tools) load only when the CLI starts.
    from solver.cli import batch as cli_batch, map as cli_map, multi as cli_multi, network as cli_network
    from solver.cli import desert as desert_cli, solo as cli_solo, steiner as cli_steiner, zoo as cli_zoo

    for module in (cli_map, cli_solo, cli_zoo, cli_network, cli_steiner, desert_cli, cli_batch, cli_multi):
        module.register(app)
    from solver.cli import desert_advise, serve; serve.register(app); desert_advise.register(app)  # noqa: E702
    from solver.cli import help as cli_help
    cli_help.polish(app)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version
        try:
            number = version("aos-solve")
        except PackageNotFoundError:
            number = "unknown (not installed; run pip install -e .)"
        typer.echo(f"aos-solve {number}")
        raise typer.Exit(0)


@app.callback()
def _main(version: bool = typer.Option(False, "--version", is_eager=True, callback=_version,
                                       help="Print the version and exit.")) -> None:
    """The options before any command (the help text is the app's)."""


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code (used by tests) and exits with it."""
    from solver import interrupt
    interrupt.install()
    code = run(argv)
    sys.exit(code)


_registered = False


def run(argv: list[str] | None = None) -> int:
    global _registered
    from typer._click import exceptions as click_errors  # Typer's own copy of click raises these
    try:
        if not _registered:  # inside the try: Ctrl-C while the solvers load is an interruption too
            _register_commands()
            _registered = True
        code = app(args=argv, prog_name="aos-solve", standalone_mode=False)
        return code if isinstance(code, int) else 0
    except click_errors.NoArgsIsHelpError as err:  # a bare group: its help
        err.show()
        return err.exit_code
    except click_errors.UsageError as err:  # a mistyped command line: the same one-line style as every other error
        from solver.report.words import readable
        where = err.ctx.command_path if err.ctx is not None else "aos-solve"
        print(f"aos-solve: error: {readable(err.format_message())} (see: {where} --help)", file=sys.stderr)
        return 2
    except click_errors.ClickException as err:  # any other complaint of the parser: one line too
        from solver.report.words import readable
        print(f"aos-solve: error: {readable(err.format_message())}", file=sys.stderr)
        return 2
    except SystemExit as done:
        return int(done.code or 0) if not isinstance(done.code, str) else 1
    except InputError as err:
        from solver.report.words import readable
        print(f"aos-solve: error: {readable(str(err))}", file=sys.stderr)
        return 2
    except Interrupted:
        print("aos-solve: interrupted", file=sys.stderr)
        return 130
    return 0
