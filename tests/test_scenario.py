"""The question travels with its answer (issue 43): a report of an answer needs the answer alone.

Truth here is the command line's own `--json`: the answer JSON made from an answer's `scenario` must be
what `aos-solve easter-island`/`zoo` print for the same question, so the Scenario loses nothing on the way.
"""
from __future__ import annotations

import json

import pytest

from solver.cli import run
from solver.engine.scenario import Scenario, as_scenario
from solver.engine.setup import draw_setup
from solver.engine.state import Rules
from solver.report.solo_report import answer_json
from solver.report.zoo_report import zoo_answer_json
from solver.solo import easter_island, zoo
from solver.solo.position import solo_extras
from solver.solo.settings import Settings
from tests.helpers import instance

TIMED = ("seconds", "time_cap")


def _strip(value):
    """Drop what the clock decides (the same fields tests/test_app_api.py drops)."""
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if not any(t in k for t in TIMED)}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def _cli(capsys, *args) -> dict:
    capsys.readouterr()
    assert run(list(args)) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("module,to_json,board,difficulty,seed", [
    (easter_island, answer_json, "tiny/tiny-island.toml", "easy", 3),
    (zoo, zoo_answer_json, "tiny/tiny-zoo.toml", "standard", 4),
])
def test_the_answer_json_from_the_answer_alone_is_the_cli_json(capsys, module, to_json, board, difficulty, seed):
    inst = instance(board)
    rules = Rules()
    question = Scenario(inst, difficulty, draw_setup(inst, difficulty, seed, rules=rules), rules, seed=seed)
    settings = Settings()  # the command's defaults
    answer = module.analyse(question, time_limit=settings.time_limit, budget=settings.budget,
                            params=settings.params())
    assert answer.scenario is question
    data = to_json(answer)
    data.update(solo_extras(answer, None)[0])
    command = "easter-island" if module is easter_island else "zoo"
    expected = _cli(capsys, command, "--instance", str(inst.path), "-d", difficulty, "--seed", str(seed),
                    "--json", "--quiet")
    assert data["seed"] == seed and data["difficulty"] == difficulty and data["scenario"] == command
    assert _strip(data) == _strip(expected)


def test_the_loose_arguments_make_the_same_question():
    inst = instance("tiny/tiny-island.toml")
    setup = draw_setup(inst, "easy", 1, rules=Rules())
    loose = as_scenario(inst, "easy", setup, None, 2)
    assert (loose.instance, loose.difficulty, loose.setup, loose.rules, loose.round_limit) == (
        inst, "easy", setup, Rules(), 2)
    assert loose.seed is None and loose.name == "easter-island"
    assert Scenario(inst, "easy", setup).round_limit == inst.scenario.rounds  # None: the board's round track
    with pytest.raises(TypeError):
        as_scenario(loose, "easy")


def test_a_plan_of_the_question_is_stamped_with_its_difficulty_and_limit():
    inst = instance("tiny/tiny-island.toml")
    setup = draw_setup(inst, "easy", 1, rules=Rules())
    plan = Scenario(inst, "easy", setup, rounds=3).plan([])
    assert (plan.difficulty, plan.round_limit, plan.setup, plan.map) == ("easy", 3, setup, inst.board.name)


def test_the_app_form_and_a_batch_mode_are_the_command_lines_settings():
    """One settings type: the app's form and a batch's Mode build the command's Settings, defaults included."""
    from solver.app import checks
    from solver.batch.scenarios import Mode
    assert checks.solve_settings(checks.settings({}), "easter-island") == Settings()
    assert checks.solve_settings(checks.settings({"plan_cp_time": 3}), "zoo") == Settings()  # not a Zoo option
    assert checks.solve_settings(checks.settings({"work": 7, "cp_time": 2}), "zoo") == Settings(work=7, cp_time=2.0)
    assert Mode().settings() == Settings()
    assert Mode(work=5, cp_time=3.0, prove=True).solver_params() == (5, Settings(work=5, cp_time=3.0,
                                                                                prove=True).params())
    assert Settings(deterministic=False).budget is None  # the wall-clock mode: the clock stops the beam


@pytest.mark.parametrize("field,value,flag", [("work", 0, "--work"), ("cp_time", 0.0, "--cp-time"),
                                              ("cp_workers", 0, "--cp-workers"), ("plan_cp_time", -1.0, "--plan-cp-time"),
                                              ("shares_cp_time", float("inf"), "--shares-cp-time"),
                                              ("prove_time", 0.0, "--prove-time")])
def test_a_bad_setting_is_one_error_naming_its_option(field, value, flag):
    from solver.board.errors import InputError
    with pytest.raises(InputError) as err:
        Settings(**{field: value}).check()
    assert flag in str(err.value)
