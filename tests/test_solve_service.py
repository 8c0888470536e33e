"""One solve service (issue 43): the command line, the app and batch ask a solo question the same way."""
from __future__ import annotations

import json
import threading
import time

import pytest

from solver.batch.scenarios import SCENARIOS, Mode
from solver import interrupt
from solver.board.errors import InputError
from solver.cli import run
from solver.solo import service
from solver.solo.settings import Settings
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

    def spy(scenario, settings, start=None, capped=True, **handles):
        answer = real(scenario, settings, start, capped, **handles)
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


# -- progress and cancel of the service itself ------------------------------------------------------------

def _question(board="tiny/tiny-island.toml", difficulty="easy", seed=2):
    from solver.engine.readings import make_rules
    from solver.engine.scenario import Scenario
    from solver.engine.setup import draw_setup
    inst = instance(board)
    rules = make_rules(inst.scenario.ruleset, [])
    return Scenario(inst, difficulty, draw_setup(inst, difficulty, seed, rules=rules), rules, seed=seed)


def test_the_service_hands_every_progress_note_of_its_solve_to_the_callback_and_then_stops():
    from solver import progress
    seen = []
    answer = service.solve(_question(), Settings(), progress=lambda phase, bounds: seen.append((phase, bounds)))
    assert answer.verdict == "clearable"
    assert seen and all(isinstance(phase, str) and isinstance(bounds, dict) for phase, bounds in seen)
    assert progress._listener is None  # the callback was for this solve only
    progress.note("after the solve")
    assert seen[-1][0] != "after the solve"


def test_a_cancel_handle_set_before_the_solve_answers_at_once_with_the_cap_bitten():
    """The app's Cancel: the answer is what was found and proved (here nothing searched), never an exception."""
    cancel = threading.Event()
    cancel.set()
    answer = service.solve(_question(), Settings(), cancel=cancel)
    assert answer.time_cap["hit"] is True
    again = service.solve(_question(), Settings())  # the cut ended with that solve
    assert again.time_cap["hit"] is False and again.verdict == "clearable"
    assert not interrupt.past_cap()


class _Handle:
    """A cancel handle that is not an Event: anything with cancelled()."""
    def __init__(self):
        self.asked = 0

    def cancelled(self) -> bool:
        self.asked += 1
        return True


def test_a_cancel_during_a_long_solve_stops_it_and_returns_what_was_found():
    """Easter Island hard seed 1 takes far longer than this test's few seconds uncancelled (test_app_api's
    Cancel test uses it the same way)."""
    question = _question("easter-island.toml", "hard", 1)
    cancel = threading.Event()
    timer = threading.Timer(1.0, cancel.set)
    timer.start()
    t0 = time.monotonic()
    answer = service.solve(question, Settings(), cancel=cancel)
    timer.cancel()
    assert time.monotonic() - t0 < 15  # uncancelled, a 20 s cap bites and it answers after about 23 s
    assert answer.time_cap["hit"] is True and answer.verdict in ("clearable", "unknown")
    assert not interrupt.past_cap()


def test_an_uncapped_solve_takes_a_cancel_handle_with_cancelled_and_leaves_no_cut_behind():
    handle = _Handle()
    answer = service.solve(_question(), Settings(), capped=False, cancel=handle)
    assert handle.asked >= 1 and answer.time_cap is None  # a batch's record keeps no cap of the service's
    assert not interrupt.past_cap() and not interrupt.cap_hit()


def test_a_cancel_handle_of_no_known_kind_is_refused():
    with pytest.raises(TypeError, match="threading.Event or has cancelled"):
        service.solve(_question(), Settings(), cancel=object())
