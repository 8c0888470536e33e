"""Easter Island: the blocker cycle locks when an unblocked action can never be selected again (issue 11, item 4)."""
import json
import pathlib

from solver.engine.moves import EndBuild, IssueShares, Pass, SelectAction
from solver.engine.plan import load_plan, replay
from tests.helpers import instance, new_state

ROOT = pathlib.Path(__file__).resolve().parent.parent
LOCK_BOARD = ROOT / "instances" / "tiny" / "tiny-island-lock.toml"
LOCK_PLAN = pathlib.Path(__file__).parent / "plans" / "tiny-island-lock.json"
SETUP = {"A1": ["red", "blue"], "C1": ["red"]}


def _play_round(state, action, target=None):
    state.apply(IssueShares(0))
    state.apply(SelectAction(action, target))
    state.apply(EndBuild())
    state.apply(Pass())
    state.apply(Pass())


def test_locomotive_at_its_maximum_locks_the_blocker_cycle():
    s = new_state(instance("tiny/tiny-island.toml"), SETUP, cash=100)
    s.locomotive = s.scenario.max_locomotive
    assert s.ruleset.blocker_lock(s) is None  # nothing blocked yet
    _play_round(s, "engineer")
    why = s.ruleset.blocker_lock(s)
    assert why is not None
    assert "locomotive is already at its maximum 6" in why and "engineer can never be selected again" in why


def test_no_new_city_tile_left_locks_the_blocker_cycle():
    s = new_state(instance("easter-island.toml"), {k: v for k, v in []}, cash=100)
    s.new_city_supply = []
    _play_round(s, "engineer")
    why = s.ruleset.blocker_lock(s)
    assert "no new city tiles are left" in why


def test_no_lock_while_every_unblocked_action_can_still_be_selected():
    s = new_state(instance("tiny/tiny-island.toml"), SETUP, cash=100)
    _play_round(s, "engineer")
    assert s.blockers == {"engineer"}
    assert s.ruleset.blocker_lock(s) is None
    s.cash = 0  # cash can be earned again: not a lock
    assert s.ruleset.blocker_lock(s) is None


def test_check_plan_names_the_lock_round_and_reason_in_text_and_json(run_cli):
    text = run_cli("check-plan", LOCK_BOARD, LOCK_PLAN)
    assert text.code == 0, text.out
    line = next(x for x in text.out.splitlines() if x.startswith("blocker lock"))
    assert line.startswith("blocker lock from round 2: the blocker cycle can never complete")
    assert "locomotive is already at its maximum 6" in line
    data = json.loads(run_cli("check-plan", LOCK_BOARD, LOCK_PLAN, "--json").out)
    assert data["blocker_lock"]["round"] == 2
    assert data["blocker_lock"]["reason"] in line


def test_check_plan_reports_no_lock_on_a_plan_without_one(run_cli):
    data = json.loads(run_cli("check-plan", ROOT / "instances" / "tiny" / "tiny-island.toml",
                              pathlib.Path(__file__).parent / "plans" / "tiny-island-cleared.json", "--json").out)
    assert data["blocker_lock"] is None


def test_solo_report_states_the_lock_of_its_plan():
    from solver.report.solo_report import answer_json, answer_text
    from solver.engine.scenario import Scenario
    from solver.solo.answer import Answer
    inst = instance("tiny/tiny-island-lock.toml")
    plan = load_plan(str(LOCK_PLAN), inst)
    end = replay(inst, plan).state.summary()
    answer = Answer("unknown", "test", 12, 1, None, False, plan=plan, end_state=end,
                    scenario=Scenario(inst, "easy", plan.setup, plan.rules))
    data = answer_json(answer)
    assert data["blocker_lock"]["round"] == 2
    assert "Blocker lock from round 2 of the plan: the blocker cycle can never complete" in answer_text(
        data, inst, plan.rules)
