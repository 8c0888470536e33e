"""The typed search log (solver/solo/search_log.py) and the pipeline's one door for plans (Pipeline.offer)."""
from __future__ import annotations

import pathlib

import pytest

from solver.engine.plan import load_plan, replay
from solver.engine.scenario import Scenario
from solver.solo.answer import Answer
from solver.solo.easter_island import _Island
from solver.solo.pipeline import Pipeline
from solver.solo.search_log import SearchLog
from tests.helpers import instance

CLEARED = pathlib.Path(__file__).parent / "plans" / "tiny-island-cleared.json"


def test_the_search_log_json_lists_what_was_written_in_the_order_first_written():
    """Answer JSON's `search` stays as the dict made it: written entries only, in first-write order, a None
    written is kept (null), an entry written again keeps its place, engine logs under the engine's name."""
    log = SearchLog()
    log.round_plans_tried = 0
    log.plan_source = None
    log.beam_widths = []
    log.engine_log("relaxation", [{"rounds": 3}])
    log.add("squeeze", {"status": "unknown"})
    log.round_plans_tried += 7
    log.add("squeeze", {"status": "optimal"})
    assert list(log.to_json().items()) == [
        ("round_plans_tried", 7), ("plan_source", None), ("beam_widths", []), ("relaxation", [{"rounds": 3}]),
        ("squeeze", [{"status": "unknown"}, {"status": "optimal"}])]
    assert SearchLog().to_json() == {}


def test_an_engine_log_cannot_take_the_name_of_a_log_entry():
    with pytest.raises(ValueError):
        SearchLog().engine_log("shares", [])


def test_offer_keeps_only_a_plan_the_referee_replays_to_a_clear_that_beats_the_best():
    inst = instance("tiny/tiny-island.toml")
    plan = load_plan(str(CLEARED), inst)
    scenario = Scenario(inst, plan.difficulty, plan.setup, plan.rules)
    p = Pipeline(_Island(None), scenario, time_limit=1.0, beam_width=1, budget=0, params=None, start=None,
                 relax=False)
    p.answer = Answer("unknown", "", scenario.round_limit, 1, None, False)
    assert not p.offer(plan.rounds[:1], "a finder")  # one round does not clear
    assert p.answer.plan is None and p.answer.search.referee_rejected == "did not clear"
    assert p.offer(list(plan.rounds), "a finder")
    assert p.answer.upper_bound == replay(inst, plan).state.cleared_round
    assert p.answer.search.plan_source == "a finder" and replay(inst, p.answer.plan).error is None
    assert not p.offer(list(plan.rounds), "another finder")  # no better than the plan kept
    assert p.answer.search.plan_source == "a finder"
