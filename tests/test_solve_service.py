"""One solve service (issue 43): the command line, the app and batch ask a solo question the same way."""
from __future__ import annotations

import json

import pytest

from solver.batch.scenarios import SCENARIOS, Mode
from solver.board.errors import InputError
from solver.cli import run
from solver.solo import service
from tests.helpers import instance

BOARDS = {"easter-island": ("tiny/tiny-island.toml", "easy"), "zoo": ("tiny/tiny-zoo.toml", "standard")}


def _strip(value):
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if "seconds" not in k and k != "time_cap"}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


@pytest.mark.parametrize("name", ["easter-island", "zoo"])
def test_the_command_line_the_app_and_batch_all_reach_the_solve_service(monkeypatch, capsys, name):
    from solver.app import work
    real, asked = service.solve, []

    def spy(scenario, settings, start=None, capped=True):
        answer = real(scenario, settings, start, capped)
        asked.append((scenario, settings, answer))
        return answer

    monkeypatch.setattr(service, "solve", spy)
    board, difficulty = BOARDS[name]
    path = str(instance(board).path)
    capsys.readouterr()
    assert run([name, "--instance", path, "-d", difficulty, "--seed", "3", "--json", "--quiet"]) == 0
    cli = json.loads(capsys.readouterr().out)
    app, _, _ = work.solve({"board_path": path, "difficulty": difficulty, "seed": 3})
    record = SCENARIOS[name].solve(difficulty, 3, Mode(), {"instance": path})
    assert len(asked) == 3
    questions = [(q.name, q.difficulty, q.setup, q.rules, q.seed, q.round_limit) for q, _, _ in asked]
    assert questions[0] == questions[1] == questions[2]
    assert asked[0][1] == asked[1][1]  # the app's form at its defaults is the command's defaults
    assert _strip(app) == _strip(cli)
    assert record["verdict"] == cli["verdict"] and record["rounds_upper_bound"] == cli["rounds_upper_bound"]
    assert asked[0][2].time_cap is not None and asked[2][2].time_cap is None  # batch: the runner's own cap


def test_a_map_with_no_solo_solver_is_one_error():
    with pytest.raises(InputError, match="solo maps: easter-island, zoo"):
        service.solver_for("desert")
