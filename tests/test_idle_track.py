"""Rule protected: a printed plan lays no track that no shipment and no clear condition uses (issue 34).

The two plans of the issue: the tiny island's worked-out setup (round 1 laid a dead-end A1-A2-B2 and
issued a share to pay for it) and Easter Island easy seed 1 (round 8 laid a dead-end D2-E3-D4). Each
is solved with the CLI's reproducible settings, and the plan printed is checked with the referee alone:
dropping any build step, or cutting a build path shorter, leaves a plan the referee refuses or that
clears later; and the plan is still legal and clears.
"""
from __future__ import annotations

import dataclasses

from solver.engine.plan import replay
from solver.engine.setup import draw_setup, load_setup
from solver.engine.state import Rules
from solver.solo import easter_island
from solver.solo.settings import Settings
from solver.solo.prune import _cuts, prune_idle_track
from tests.conftest import ROOT
from tests.helpers import instance


def _solve(inst, difficulty, setup):
    settings = Settings()  # the command's defaults
    return easter_island.analyse(inst, difficulty, setup, Rules(), time_limit=60, budget=settings.budget,
                                 params=settings.params())


def _every_cut_is_refused(inst, plan) -> None:
    base = replay(inst, plan)
    assert base.error is None and base.state.cleared_round is not None
    for r, rnd in enumerate(plan.rounds):
        for i, entry in enumerate(rnd.build):
            for cut in _cuts(entry):
                build = list(rnd.build)
                if cut is None:
                    del build[i]
                else:
                    build[i] = cut
                rounds = list(plan.rounds)
                rounds[r] = dataclasses.replace(rnd, build=build)
                check = replay(inst, dataclasses.replace(plan, rounds=rounds))
                still = check.error is None and check.state.cleared_round == base.state.cleared_round
                assert not still, f"round {r + 1}: {entry!r} -> {cut!r} is idle track the referee accepts"


def _builds(plan) -> list[tuple[int, str]]:
    return [(r, str(entry)) for r, rnd in enumerate(plan.rounds, 1) for entry in rnd.build]


def test_tiny_island_plan_has_no_dead_end_and_no_share_for_it():
    inst = instance("tiny/tiny-island.toml")
    setup = load_setup(str(ROOT / "tests" / "data" / "tiny-island-setup.toml"), inst, "easy", Rules())
    answer = _solve(inst, "easy", setup)
    assert answer.verdict == "clearable"
    assert (1, "A1-A2-B2") not in _builds(answer.plan)
    assert not any("A2" in entry.split("-") for _, entry in _builds(answer.plan))
    _every_cut_is_refused(inst, answer.plan)
    # the share issued for the dead end is given back: only the two shares of the start remain
    assert answer.end_state["shares"] == inst.scenario.start_shares


def test_easter_island_easy_seed_1_plan_has_no_dead_end():
    inst = instance("easter-island.toml")
    setup = draw_setup(inst, "easy", 1, rules=Rules())
    answer = _solve(inst, "easy", setup)
    assert answer.verdict == "clearable"
    assert all("D2-E3-D4" not in entry for _, entry in _builds(answer.plan))
    _every_cut_is_refused(inst, answer.plan)


def test_pruning_keeps_a_plan_the_referee_refuses_as_it_is():
    inst = instance("tiny/tiny-island.toml")
    setup = load_setup(str(ROOT / "tests" / "data" / "tiny-island-setup.toml"), inst, "easy", Rules())
    from solver.engine.plan import Plan, parse_round
    bad = Plan(inst.board.name, "easy", Rules(), setup, [parse_round(0, None, None, ["A1-B1-C1", "A1-A2-B2"],
                                                                     [{"from": "C1", "cube": "red",
                                                                       "route": "C1-E1"}], 1, inst)])
    pruned = prune_idle_track(inst, bad)
    assert pruned.plan is bad and pruned.removed == []

def test_the_rounds_already_played_are_never_pruned():
    """`--from`: the prefix is the game as played; pruning may change only the rounds after it."""
    from solver.engine.plan import load_plan, replay
    from solver.solo.prune import prune_idle_track
    from tests.conftest import INSTANCES, ROOT
    from tests.helpers import instance
    inst = instance("tiny/tiny-island.toml")
    plan = load_plan(str(ROOT / "tests" / "plans" / "tiny-island-cleared.json"), inst)
    plan.rounds[0].shares += 1  # a share more than needed, issued in the played round
    check = replay(inst, plan)
    assert check.error is None and check.state.cleared_round is not None
    kept = prune_idle_track(inst, plan, check, fixed=1)
    assert kept.plan.rounds[0] == plan.rounds[0]
    assert prune_idle_track(inst, plan, check).plan.rounds[0].shares == plan.rounds[0].shares - 1
