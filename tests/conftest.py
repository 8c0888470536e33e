import pathlib

import pytest

from solver import cli

ROOT = pathlib.Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"


class CliResult:
    def __init__(self, code: int, out: str, err: str):
        self.code, self.out, self.err = code, out, err


@pytest.fixture
def run_cli(capsys):
    """Run `aos-solve ARGS...` in-process; returns exit code and captured output."""

    def _run(*args: str) -> CliResult:
        capsys.readouterr()
        code = cli.run([str(a) for a in args])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return _run
