"""The CP-SAT restriction (models/solo_game/restriction.py) makes plans; the referee judges them.

Truth comes from the exhaustive search of tests/test_solo_relaxation.py over the rules
engine; the restriction's plan must replay legally and clear no later than the truth
where its candidate links hold an optimal plan, and it must never print a plan where
none exists.
"""
from __future__ import annotations

from solver.engine.moves import Pass
from solver.engine.plan import Plan, RoundPlan, replay
from solver.engine.state import GameState, Rules
from solver.solo.easter_island import analyse
from models.solo_game.restriction import pair
from solver.solo.island_plans import candidate_links, hint_links, plan_spec, restricted_plan
from solver.solo.settings import SolveParams
from tests.helpers import H, instance
from tests.test_solo_relaxation import RED, earliest_clear

PARAMS = SolveParams(workers=1, deterministic_time=5.0, plan_time=5.0)
QUICK = SolveParams(workers=1, deterministic_time=1.0, plan_time=3.0)


def _plan(inst, setup, rounds):
    return Plan(inst.board.name, "easy", Rules(), setup, rounds, round_limit=inst.scenario.rounds)


def _slow_plan():
    """The tiny locomotive board and a plan that idles its first round, then plays the restriction's best."""
    inst = instance("tiny/tiny-island-locomotive.toml")
    state = GameState.new(inst, RED, Rules())
    fast, _ = restricted_plan(plan_spec(state), 3, PARAMS)
    slow = [RoundPlan(shares=0, ship=[Pass(), Pass()])] + fast
    assert replay(inst, _plan(inst, RED, slow)).state.cleared_round == 3
    return inst, state, slow


def test_restriction_plan_replays_and_clears_at_the_true_minimum():
    inst = instance("tiny/tiny-island-locomotive.toml")
    state = GameState.new(inst, RED, Rules())
    truth = earliest_clear(state, 3)
    rounds, status = restricted_plan(plan_spec(state), 3, PARAMS)
    assert rounds is not None, status
    result = replay(inst, _plan(inst, RED, rounds))
    assert result.error is None
    assert result.state.cleared_round == truth == 2


def test_squeeze_repairs_a_slow_plan_cut_one_round_shorter():
    # the squeeze of solver/solo/easter_island.analyse: asked for one round fewer than a plan that idles a
    # round, started from that plan cut short, the restriction finds the true minimum (exhaustive search)
    inst, state, slow = _slow_plan()
    rounds, status = restricted_plan(plan_spec(state, hint=slow), 2, PARAMS, hint=slow)
    assert rounds is not None, status
    result = replay(inst, _plan(inst, RED, rounds))
    assert result.error is None
    assert result.state.cleared_round == earliest_clear(state, 3) == 2


def test_focused_squeeze_repairs_a_slow_plan_over_its_own_stop_pairs():
    # the focused squeeze keeps only candidate links between stops the slow plan's links join, and still
    # finds the true minimum (exhaustive search) on that network
    inst, state, slow = _slow_plan()
    spec = plan_spec(state, hint=slow, focus=True)
    joined = {pair(a, b) for a, _, b, _ in hint_links(state, slow)}
    assert joined and {pair(link.a, link.b) for link in spec.links} == joined
    assert [link.key for link in spec.links] == list(range(len(spec.links)))
    rounds, status = restricted_plan(spec, 2, PARAMS, hint=slow)
    assert rounds is not None, status
    result = replay(inst, _plan(inst, RED, rounds))
    assert result.error is None
    assert result.state.cleared_round == earliest_clear(state, 3) == 2


def test_focus_keeps_every_candidate_path_of_the_plans_stop_pairs_only():
    inst = instance("easter-island.toml")
    setup = {H("B5"): ["blue", "yellow"], H("G3"): ["yellow"], H("C3"): ["red"], H("D2"): ["red"]}
    beam = analyse(inst, "easy", setup, Rules(), budget=3000, params=SolveParams(plan_time=0), relax=False)
    state = GameState.new(inst, setup, Rules())
    whole = plan_spec(state, hint=beam.plan.rounds)
    focused = plan_spec(state, hint=beam.plan.rounds, focus=True)
    joined = {pair(a, b) for a, _, b, _ in hint_links(state, beam.plan.rounds)}
    assert len(focused.links) < len(whole.links)
    assert {(x.a, x.b, x.hexes) for x in focused.links} == {
        (x.a, x.b, x.hexes) for x in whole.links if pair(x.a, x.b) in joined}


def test_squeeze_completes_a_partial_plan_the_beam_left():
    # without a plan, analyse hands the beam's furthest partial plan to the restriction: from a plan that
    # stops after its first round, the restriction finds a whole plan, as early as the truth allows
    inst = instance("tiny/tiny-island-locomotive.toml")
    state = GameState.new(inst, RED, Rules())
    fast, _ = restricted_plan(plan_spec(state), 3, PARAMS)
    partial = fast[:1]
    assert replay(inst, _plan(inst, RED, partial)).state.cleared_round is None
    rounds, status = restricted_plan(plan_spec(state, hint=partial), inst.scenario.rounds, PARAMS, hint=partial)
    assert rounds is not None, status
    result = replay(inst, _plan(inst, RED, rounds))
    assert result.error is None and result.state.cleared_round == earliest_clear(state, 3)


def test_restriction_prints_no_plan_where_none_exists():
    # cash binds on this board: exhaustive search finds no clearing play at all
    inst = instance("tiny/tiny-island-cash.toml")
    state = GameState.new(inst, RED, Rules())
    assert earliest_clear(state, inst.scenario.rounds) is None
    rounds, status = restricted_plan(plan_spec(state), inst.scenario.rounds, PARAMS)
    assert rounds is None and status != "optimal"


def test_candidate_links_fit_one_round_and_avoid_other_stops():
    inst = instance("easter-island.toml")
    state = GameState.new(inst, {}, Rules())
    links = candidate_links(state)
    stops = set(inst.board.cities) | set(inst.board.towns)
    assert links
    for link in links:
        assert 1 <= len(link.hexes) <= inst.scenario.engineer_tile_limit
        assert not stops & set(link.hexes)
        assert link.a.is_neighbour(link.hexes[0]) and link.b.is_neighbour(link.hexes[-1])
        assert link.cost == sum(state.ruleset.tile_cost(state, h) for h in link.hexes)


def test_restriction_plan_on_the_real_island_passes_the_referee_and_repeats():
    inst = instance("easter-island.toml")
    setup = {H("B5"): ["blue", "yellow"], H("G3"): ["yellow"], H("C3"): ["red"], H("D2"): ["red"]}
    beam = analyse(inst, "easy", setup, Rules(), budget=3000, params=SolveParams(plan_time=0), relax=False)
    assert beam.plan is not None
    state = GameState.new(inst, setup, Rules())
    spec = plan_spec(state, hint=beam.plan.rounds)
    rounds, status = restricted_plan(spec, beam.upper_bound, QUICK, hint=beam.plan.rounds)
    assert rounds is not None, status
    result = replay(inst, _plan(inst, setup, rounds))
    assert result.error is None and result.state.cleared_round is not None
    # started from the beam's plan (its links are candidates, laid as it laid them), it does no worse
    assert (result.state.cleared_round, result.state.shares) <= (beam.upper_bound, beam.end_state["shares"])
    # reproducible: the interleaved search gives the same plan again
    again, _ = restricted_plan(spec, beam.upper_bound, QUICK, hint=beam.plan.rounds)
    assert [r.to_json() for r in again] == [r.to_json() for r in rounds]


def test_plan_model_time_must_be_finite_and_not_negative(run_cli):
    for bad in ("-1", "nan", "inf"):
        res = run_cli("easter-island", "--plan-cp-time", bad)
        assert res.code == 2 and "--plan-cp-time" in res.err
        res = run_cli("easter-island", "--shares-cp-time", bad)
        assert res.code == 2 and "--shares-cp-time" in res.err


def test_shares_time_applies_only_to_the_fewest_shares_runs():
    # the squeeze looks for fewer rounds and keeps twice --plan-cp-time; only the shares runs take the shares time
    params = SolveParams(plan_time=10.0, shares_time=2.0)
    assert params.for_shares().plan_time == 2.0 and params.plan_time == 10.0
    assert SolveParams(plan_time=10.0).for_shares().plan_time == 0.0  # by default the shares run is skipped
