"""Rule protected: every command's --help shows an example that runs, with placeholders a person reads
(issue 34, item 3). The examples run from a scratch folder that sees the repository's instances/ and
tests/, in the order of solver/cli/help.py (the report example reads the batch example's folder).
"""
from __future__ import annotations

import os
import re
import shlex

import pytest

from solver import cli
from solver.cli import help as cli_help
from tests.conftest import ROOT


def _commands() -> list[str]:
    cli.run(["--version"])  # registers the commands
    out = []

    def walk(app, prefix=""):
        for c in app.registered_commands:
            out.append((prefix + " " + (c.name or c.callback.__name__)).strip())
        for g in app.registered_groups:
            name = (prefix + " " + g.name).strip()
            if g.typer_instance.registered_callback is not None:
                out.append(name)
            walk(g.typer_instance, name)
    walk(cli.app)
    return out


COMMANDS = _commands()


def test_every_command_has_an_example():
    assert set(COMMANDS) <= set(cli_help.EXAMPLES), set(COMMANDS) - set(cli_help.EXAMPLES)
    assert set(cli_help.EXAMPLES) <= set(COMMANDS), set(cli_help.EXAMPLES) - set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_help_shows_the_example_and_readable_placeholders(run_cli, name):
    r = run_cli(*name.split(), "--help")
    assert r.code == 0
    text = " ".join(r.out.split())
    assert "Example: " + cli_help.EXAMPLES[name] in text
    # no Python types as placeholders, no markup eaten (Typer's `<str>`, `{instance}`)
    assert not re.search(r"<(str|int|float|bool|path|list\[[^]]*\]|Path)[^>]*>", r.out), r.out
    assert not re.search(r"\{[a-z_]+\}", r.out), r.out


def test_help_keeps_brackets_as_written(run_cli):
    assert "ruin = [bottom, top]" in " ".join(run_cli("easter-island", "--help").out.split())


def test_version(run_cli):
    r = run_cli("--version")
    assert r.code == 0 and re.fullmatch(r"aos-solve \S+.*\n", r.out)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    folder = tmp_path_factory.mktemp("examples")
    for name in ("instances", "tests"):
        os.symlink(ROOT / name, folder / name)
    return folder


@pytest.mark.parametrize("name", list(cli_help.EXAMPLES))
def test_the_example_runs(run_cli, scratch, monkeypatch, name):
    if name == "serve":
        pytest.skip("the server runs until Ctrl-C; tests/test_app_serve.py starts it and stops it")
    monkeypatch.chdir(scratch)
    args = shlex.split(cli_help.EXAMPLES[name])
    assert args[0] == "aos-solve"
    if "--json" not in args and name not in ("batch", "map render"):
        args.append("--json")  # the same run, read as data
    r = run_cli(*args[1:])
    assert r.code == 0, (name, r.out[-2000:], r.err[-2000:])
    assert "Traceback" not in r.err


def test_the_top_level_help_lists_whole_phrases_and_an_example(capsys):
    """`aos-solve --help` (issue 42): each command's line is a whole phrase, never cut with "...", and the
    page ends with examples that run."""
    capsys.readouterr()
    assert cli.run(["--help"]) == 0
    out = capsys.readouterr().out
    commands = out[out.index("Commands:"):out.index("Examples:")]
    assert "..." not in commands and commands.count("(") == commands.count(")")
    assert "aos-solve easter-island --difficulty easy --seed 1" in out[out.index("Examples:"):]
