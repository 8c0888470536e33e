"""Readings that were hard-wired, now named (issue 27, item 2): each changes what it should, both values.

Each test plays the same tiny position under the reading's default and its alternative through the
engine (the referee), and where a bound depends on the reading, asks the relaxation under both.
"""
from __future__ import annotations


import pytest

from solver.engine.moves import EndBuild, IssueShares, LayTile, Pass, SelectAction
from solver.engine.readings import BY_NAME, make_rules
from solver.engine.state import Rules
from tests.helpers import H, instance, lay, new_state, ship, to_build, to_ship

SETUP = {"A1": ["red", "blue"], "C1": ["red"]}


def _rules(ruleset, *items):
    return make_rules(ruleset, list(items))


def test_every_new_reading_is_in_the_registry_with_its_quote_and_default():
    for name in ("idle-actions", "clear-and-under", "zoo-bonus-cost", "zoo-town-cost", "zoo-upgrade-cost",
                 "exit-use", "incomplete-track", "track-into-side", "complex-tile-set",
                 "zoo-bonus-town-track", "end-of-game"):
        r = BY_NAME[name]
        assert r.quote and r.why_default and r.values[0].name == r.default and len(r.values) == 2
        assert getattr(Rules(), r.field) == r.values[0].value  # the engine's default is the registry's


@pytest.mark.parametrize("value", ["refused", "allowed"])
def test_idle_actions_locomotive_at_its_maximum(value):
    s = new_state(instance("tiny/tiny-island.toml"), SETUP, _rules("easter-island", f"idle-actions={value}"), cash=100)
    s.locomotive = s.scenario.max_locomotive
    s.apply(IssueShares(0))
    move = SelectAction("locomotive")
    if value == "refused":
        assert "already at its maximum" in s.why_illegal(move)
    else:
        s.apply(move)
        assert s.locomotive == s.scenario.max_locomotive and s.cash == 100 - 8


@pytest.mark.parametrize("value", ["refused", "allowed"])
def test_idle_actions_decide_whether_the_blocker_cycle_locks(value):
    s = new_state(instance("tiny/tiny-island.toml"), SETUP, _rules("easter-island", f"idle-actions={value}"), cash=100)
    s.locomotive = s.scenario.max_locomotive
    s.apply(IssueShares(0))
    s.apply(SelectAction("engineer"))
    s.apply(EndBuild())
    s.apply(Pass())
    s.apply(Pass())
    assert (s.ruleset.blocker_lock(s) is not None) == (value == "refused")


@pytest.mark.parametrize("value", ["refused", "allowed"])
def test_idle_actions_rapa_nui_with_no_moai_and_urbanization_with_no_tile(value):
    s = new_state(instance("tiny/tiny-island.toml"), {}, _rules("easter-island", f"idle-actions={value}"), cash=100)
    s.new_city_supply = []
    s.apply(IssueShares(0))
    for move in (SelectAction("rapa-nui"), SelectAction("urbanization")):
        assert (s.why_illegal(move) is None) == (value == "allowed"), move
    if value == "allowed":
        s.apply(SelectAction("rapa-nui"))
        assert s.cash == 100 - 8  # nothing turned, no $5 stunt


def test_idle_actions_reach_the_relaxation():
    from solver.solo.relaxation import game_spec
    from solver.engine.state import GameState
    inst = instance("tiny/tiny-island.toml")
    on = game_spec(GameState.new(inst, {H(k): v for k, v in SETUP.items()}, _rules("easter-island", "idle-actions=allowed")))
    off = game_spec(GameState.new(inst, {H(k): v for k, v in SETUP.items()}, Rules()))
    assert on.idle_actions and not off.idle_actions


@pytest.mark.parametrize("value", ["lost", "cleared"])
def test_clearing_and_going_under_in_the_same_round(value):
    # tiny-row: the one red cube leaves in round 1; income forced to the floor so the expenses sink it
    from solver.engine.moves import path_to_tiles
    inst = instance("tiny/tiny-row.toml")
    s = new_state(inst, {"A1": ["red"]}, _rules("easter-island", f"clear-and-under={value}"))
    s.income = s.scenario.income_floor - 1 - 1  # +1 for the shipment's link: still below the floor after it
    s.apply(IssueShares(0))
    s.apply(SelectAction(None))
    for tile in path_to_tiles([H("A1"), H("B1"), H("C1")]):
        s.apply(tile)
    s.apply(EndBuild())
    s.apply(ship("A1", "red", "A1-C1"))
    s.apply(Pass())
    assert s.is_terminal()
    if value == "lost":
        assert s.lost and s.cleared_round is None
    else:
        assert s.lost is None and s.cleared_round == 1


def test_clear_and_under_reaches_the_relaxation():
    from solver.solo.relaxation import feasible_by, game_spec
    from solver.solo.settings import SolveParams
    from solver.engine.state import GameState
    inst = instance("tiny/tiny-row.toml")
    params = SolveParams(workers=1, deterministic_time=5.0)
    verdicts = {}
    for value in ("lost", "cleared"):
        state = GameState.new(inst, {H("A1"): ["red"]}, _rules("easter-island", f"clear-and-under={value}"))
        state.income = state.scenario.income_floor - 2
        state.cash = 3  # exactly the tile: nothing left to pay the expenses
        verdicts[value] = feasible_by(game_spec(state), 1, params)
    # under "lost" the one round that could clear ends below the floor; under "cleared" it clears
    assert verdicts == {"lost": "infeasible", "cleared": "feasible"}


def _zoo():
    return instance("tiny/tiny-zoo.toml")


@pytest.mark.parametrize("value", ["pays", "free"])
def test_zoo_bonus_tile_cost(value):
    s = to_build(new_state(_zoo(), {"A1": ["red"]}, _rules("zoo", f"zoo-bonus-cost={value}"), cash=50), "feeding")
    s.bonus_tiles = 1
    s.apply(LayTile(H("A2"), H("A1"), H("A3"), bonus=True))
    assert 50 - s.cash == (4 if value == "pays" else 0)


@pytest.mark.parametrize("value", ["base", "per-tile"])
def test_zoo_town_tile_cost(value):
    s = to_build(new_state(_zoo(), {"A1": ["red"]}, _rules("zoo", f"zoo-town-cost={value}"), cash=50), "feeding")
    s.tiles_laid = -10  # the limit is not what this test is about
    lay(s, "E1-E2-E3")  # the track tile on E2 reaches the town E3
    # base: $4 tile + town tile $1 a track + $1; per-tile: $4 tile + the town tile at $4
    assert 50 - s.cash == (4 + 2 if value == "base" else 4 + 4)


@pytest.mark.parametrize("value", ["base", "per-tile"])
def test_zoo_upgrade_cost(value):
    s = to_build(new_state(_zoo(), {"A1": ["red"]}, _rules("zoo", f"zoo-upgrade-cost={value}"), cash=50), "feeding")
    lay(s, "A1-A2-B2", "C1-B2-B3")  # a straight on B2 from Two; A2's track from Three faces B2
    cash = s.cash
    s.apply(_first_upgrade(s, H("B2")))  # the crossing straight A2-C2
    assert cash - s.cash == (3 if value == "base" else 4)


def _first_upgrade(state, h):
    from solver.engine.moves import UpgradeTile
    legal = [m for m in state.legal_actions() if isinstance(m, UpgradeTile) and m.hex == h and not m.bonus]
    assert legal, "no legal upgrade on the test hex"
    return legal[0]


@pytest.mark.parametrize("value", ["pass", "teleport"])
def test_exit_use_for_the_bonus_tile(value):
    # Two (C1) -> West exit (A3) -> Three (A1): the food passes the exit without teleporting
    s = to_build(new_state(_zoo(), {"C1": ["red"]}, _rules("zoo", f"exit-use={value}"), cash=80), "engineer")
    s.tiles_laid = -10
    lay(s, "A1-A2-A3", "C1-B2-B3-A3")
    s.locomotive = 3
    to_ship(s)
    s.apply(ship("C1", "red", "C1-A3-A1"))
    s.apply(Pass())
    assert s.bonus_tiles == (1 if value == "pass" else 0)


@pytest.mark.parametrize("value", ["kept", "owner-lost"])
def test_incomplete_track_not_extended_next_round(value):
    s = to_build(new_state(_zoo(), {"A1": ["red"]}, _rules("zoo", f"incomplete-track={value}"), cash=80), "feeding")
    s.apply(LayTile(H("A2"), H("A1"), H("B3")))  # track from Three, open toward B3
    s.apply(EndBuild())
    s.apply(Pass())
    s.apply(Pass())
    for _ in range(2):  # round 2 lays nothing (the link is not extended), round 3 tries to extend it
        s.apply(IssueShares(0))
        s.apply(SelectAction("feeding"))
        if s.round == 3:
            break
        s.apply(EndBuild())
        s.apply(Pass())
        s.apply(Pass())
    extend = LayTile(H("B3"), H("A2"), H("C3"))
    assert (s.why_illegal(extend) is None) == (value == "kept")


def test_zoo_bonus_town_track_lets_a_bonus_tile_be_a_town_tiles_own_track_only_when_allowed():
    import dataclasses
    from solver.engine.moves import TownTrack, parse_tile
    from solver.solo.soundness import random_board
    for seed in range(1, 2000):   # a random Zoo board with a town next to an animal area
        board = random_board(seed)
        if board.ruleset != "zoo":
            continue
        inst, rules, _, state = board.start()
        pairs = [(t, n) for t in sorted(inst.board.towns) for n in t.neighbours() if n in inst.board.cities
                 and inst.board.passable(t, n)]
        if pairs:
            break
    town, stop = pairs[0]
    move = parse_tile(f"town {town} {stop} bonus")
    assert move == TownTrack(town, stop, bonus=True) and str(move) == f"town {town} {stop} bonus"
    verdicts = {}
    for value in ("refused", "allowed"):
        s = state.clone()
        s.rules = dataclasses.replace(Rules(), zoo_bonus_town_track=value)
        s.cash, s.bonus_tiles = 100, 1
        s = to_build(s, "engineer")
        verdicts[value] = s.why_illegal(move)
        if verdicts[value] is None:
            laid = s.tiles_laid
            s.apply(move)
            assert s.bonus_tiles == 0 and s.tiles_laid == laid  # outside the tile count
    assert "zoo-bonus-town-track=refused" in verdicts["refused"]
    assert verdicts["allowed"] is None


def _row_cleared_in_round_1(rules, last_round):
    """tiny-row: build B1, ship the one red cube A1-C1: cleared in round 1 with income 1 and $4 left, while
    the expenses are $4 a round and no share can be issued (income falls below -10 in round 5)."""
    from solver.engine.state import GameState
    s = GameState.new(instance("tiny/tiny-row.toml"), {H("A1"): ["red"]}, rules, round_limit=last_round)
    to_build(s)
    lay(s, "A1-B1-C1")
    to_ship(s)
    s.apply(ship("A1", "red", "A1-C1"))
    s.apply(Pass())
    return s


@pytest.mark.parametrize("value", ["at-clear", "round-track"])
def test_end_of_game_a_clear_the_rest_of_the_round_track_loses_stands_only_at_the_clear(value):
    """Reading end-of-game: under round-track the game plays on to the end of the round track, so a clear
    whose later rounds take income below the floor loses; under at-clear the game ended at the clear."""
    s = _row_cleared_in_round_1(_rules("easter-island", f"end-of-game={value}"), 5)
    assert s.is_terminal()
    if value == "at-clear":
        assert s.cleared_round == 1 and s.lost is None and not s.after_clear
    else:
        assert s.cleared_round is None and "end-of-game=round-track" in s.lost
    # a round track one round shorter: the play-out keeps income at -6, so the clear stands under both
    s = _row_cleared_in_round_1(_rules("easter-island", f"end-of-game={value}"), 4)
    assert s.cleared_round == 1 and s.lost is None
    assert len(s.after_clear) == (3 if value == "round-track" else 0)


def test_end_of_game_round_track_changes_the_truth_and_plans_replay_under_it():
    """The exhaustive truth on tiny-row with 5 rounds: round 1 at the clear, nothing under round-track; the
    answer under round-track prints no plan the referee refuses, and its plan (4 rounds) replays under it."""
    from solver.engine.plan import replay
    from solver.engine.state import GameState
    from solver.solo.easter_island import analyse
    from solver.solo.exhaustive import earliest_clear
    from solver.solo.settings import SolveParams
    row = instance("tiny/tiny-row.toml")
    truth = {v: earliest_clear(GameState.new(row, {H("A1"): ["red"]}, _rules("easter-island", f"end-of-game={v}"),
                                             round_limit=5)).earliest for v in ("at-clear", "round-track")}
    assert truth == {"at-clear": 1, "round-track": None}
    params = SolveParams(workers=1, deterministic_time=2.0, plan_time=2.0)
    rules = _rules("easter-island", "end-of-game=round-track")
    five = analyse(row, "easy", {H("A1"): ["red"]}, rules, rounds=5, time_limit=30, budget=200, params=params)
    assert five.plan is None and five.verdict != "clearable"
    four = analyse(row, "easy", {H("A1"): ["red"]}, rules, rounds=4, time_limit=30, budget=200, params=params)
    assert four.plan is not None and four.plan.rules.end_of_game == "round-track"
    check = replay(row, four.plan)
    assert check.error is None and check.state.cleared_round == 1 and check.state.after_clear


def test_clear_and_under_cleared_does_not_save_a_game_that_plays_on():
    """clear-and-under=cleared lets a clear stand although income falls below the floor where the game ends
    at the clear; under end-of-game=round-track the game plays on, so it is lost."""
    for end, cleared in (("at-clear", 1), ("round-track", None)):
        rules = _rules("easter-island", "clear-and-under=cleared", f"end-of-game={end}")
        from solver.engine.state import GameState
        s = GameState.new(instance("tiny/tiny-row.toml"), {H("A1"): ["red"]}, rules, round_limit=3)
        s.income = s.scenario.income_floor - 2
        to_build(s)
        lay(s, "A1-B1-C1")
        to_ship(s)
        s.apply(ship("A1", "red", "A1-C1"))
        s.apply(Pass())
        assert s.cleared_round == cleared, end


def test_end_of_game_check_plan_says_a_clear_the_round_track_loses_is_no_clear(run_cli, tmp_path):
    """check-plan replays a plan under the reading it is given: on tiny-row with 5 rounds the clear in round 1
    is lost under round-track (and the text says so), and stands at the clear."""
    import json
    from solver.engine.plan import Plan, parse_round
    from tests.conftest import INSTANCES
    inst = instance("tiny/tiny-row.toml")
    plan = Plan(inst.board.name, "easy", Rules(), {H("A1"): ["red"]},
                [parse_round(0, None, None, ["A1-B1-C1"], [{"from": "A1", "cube": "red", "route": "A1-C1"}, "pass"], 1,
                             inst)],
                round_limit=5)
    path = tmp_path / "row.json"
    path.write_text(json.dumps(plan.to_json(inst)))
    board = INSTANCES / "tiny/tiny-row.toml"
    assert "legal plan: cleared in round 1" in run_cli("check-plan", board, path).out
    r = run_cli("check-plan", board, path, "--reading", "end-of-game=round-track")
    assert "not cleared (the game is lost)" in r.out and "end-of-game=round-track" in r.out
    data = json.loads(run_cli("check-plan", board, path, "--reading", "end-of-game=round-track", "--json").out)
    assert data["cleared_round"] is None and "end-of-game=round-track" in data["end"]["lost"]


def test_end_of_game_play_out_pruning_agrees_with_the_full_search():
    """The referee's play-out after a clear (end-of-game=round-track) skips actions and extra shares below the
    income-reduction brackets; on random positions of the Easter Island board it must agree with trying every
    share count and action."""
    import random
    from solver.engine.state import GameState
    inst = instance("easter-island.toml")
    rng = random.Random(11)
    for _ in range(150):
        rules = Rules(end_of_game="round-track", strict_action=rng.random() < 0.3, idle_actions=rng.random() < 0.3)
        s = GameState.new(inst, {}, rules, round_limit=rng.randint(4, 6))
        s.cash, s.income, s.round = rng.randint(0, 25), rng.randint(-9, 14), rng.randint(2, 4)
        s.locomotive, s.shares = rng.randint(2, 6), rng.randint(2, 12)
        s.blockers = frozenset(rng.sample(list(s.scenario.actions), rng.randint(0, 2)))
        s.phase, s.playing_out = "shares", True
        fast = s.ruleset._play_out(s.clone(), {}) is not None
        assert fast == (s.ruleset._play_out(s.clone(), {}, prune=False) is not None), vars(s)
