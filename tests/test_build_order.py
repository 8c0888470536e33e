"""A round's builds are judged the same in every order (issue 27: one judgement per plan).

The Zoo's bonus tile is "a free bonus placement (one that does not count toward the number of tiles
laid)"; laid into a town it must not let later regular tiles into that town skip the town tile's count.
A track end facing the side of another track (reading track-into-side) is judged on the round's result.
And every plan in tests/plans and results/plans, and random builds on random boards, replay to the same
verdict with the round's builds permuted.
"""
from __future__ import annotations

import itertools
import json
import random

import pytest

from solver.engine.moves import path_to_tiles
from solver.engine.plan import plan_from_json, replay
from solver.engine.state import IllegalMove
from tests.conftest import INSTANCES, ROOT
from tests.helpers import H, instance, new_state, to_build


def _lay_all(state, paths):
    """Lay (bonus, path) pairs in order; the first refusal's reason, or None."""
    try:
        for bonus, path in paths:
            for tile in path_to_tiles([H(x) for x in path.split("-")], bonus=10 if bonus else 0):
                state.apply(tile)
    except IllegalMove as err:
        return str(err)
    return None


@pytest.mark.parametrize("regular", ["E3-F3-G3-H3-I3", "E3-F3-G3-H3"])
def test_bonus_tile_into_a_town_counts_the_same_before_or_after_the_regular_tiles(regular):
    inst = instance("tiny/tiny-zoo.toml")
    verdicts = set()
    for order in ([(True, "E1-E2-E3"), (False, regular)], [(False, regular), (True, "E1-E2-E3")]):
        state = to_build(new_state(inst, {"A1": ["red"]}, cash=200), "feeding")
        state.bonus_tiles = 1
        verdicts.add(_lay_all(state, order) is None)
    assert len(verdicts) == 1
    # three regular tiles and the town tile are four: over the limit of 3 in either order
    assert verdicts == {regular == "E3-F3-G3-H3"}


def _plans():
    files = sorted((ROOT / "tests" / "plans").rglob("*.json")) + sorted((ROOT / "results" / "plans").glob("*.json"))
    for path in files:
        try:
            data = json.loads(path.read_text())
        except ValueError:
            continue  # tests/plans/malformed: not a plan at all
        if not isinstance(data, dict) or data.get("format") != "aos-solve-plan/1":
            continue
        yield path


def _board_for(data):
    """The board a plan names (its `map` is the board's meta name)."""
    import tomllib
    from solver.games import load_instance
    for path in sorted(INSTANCES.glob("*.toml")) + sorted(INSTANCES.glob("tiny/*.toml")):
        if tomllib.loads(path.read_text()).get("meta", {}).get("name") == data["map"]:
            return load_instance(path)
    raise AssertionError(f"no board named {data['map']!r}")


def _verdict(inst, data):
    try:
        plan = plan_from_json(data, inst)
    except Exception as err:  # noqa: BLE001 - a plan the reader refuses is refused in every order
        return ("unreadable", type(err).__name__)
    result = replay(inst, plan)
    s = result.state
    return (result.error is None, s.cleared_round, s.lost, s.cash if result.error is None else None)


def _orders(builds, rng, most=24):
    """Every order of the round's track builds (urbanizing keeps its place), or `most` sampled ones."""
    fixed = {i for i, b in enumerate(builds) if b.split()[0] == "urbanize"}
    free = [b for i, b in enumerate(builds) if i not in fixed]
    perms = list(itertools.permutations(free)) if len(free) <= 4 else [rng.sample(free, len(free)) for _ in range(most)]
    for perm in perms:
        it = iter(perm)
        yield [builds[i] if i in fixed else next(it) for i in range(len(builds))]


def test_every_plan_gets_the_same_verdict_in_every_build_order():
    rng = random.Random(27)
    checked = 0
    for path in _plans():
        data = json.loads(path.read_text())
        if not isinstance(data.get("map"), str):
            continue
        inst = _board_for(data)
        truth = _verdict(inst, data)
        for index, rnd in enumerate(data.get("rounds", [])):
            builds = rnd.get("build") if isinstance(rnd, dict) else None
            if not isinstance(builds, list) or len(builds) < 2:
                continue
            for order in _orders(builds, rng):
                if order == builds:
                    continue
                other = json.loads(json.dumps(data))
                other["rounds"][index]["build"] = order
                assert _verdict(inst, other) == truth, (path.name, index + 1, order)
                checked += 1
    assert checked > 0


def _round_verdict(state, moves):
    """Apply the round's build moves in order, then end the build: (accepted, the track laid) or the refusal."""
    from solver.engine.moves import EndBuild
    state = state.clone()
    try:
        for move in moves:
            state.apply(move)
        state.apply(EndBuild())
    except IllegalMove:
        return "refused"
    return ("accepted", tuple(sorted((h, state.tracks_at(h)) for h in state.track)), state.cash, state.tiles_laid)


@pytest.mark.parametrize("reading", ["refused", "allowed"])
def test_a_track_end_facing_the_side_of_a_track_is_judged_the_same_in_either_order(reading):
    # tiny-island: B1 joins Red 1 (A1) to Blue 1 (C1); B2 runs from the town C2 into B1's side
    import dataclasses
    from solver.engine.moves import LayTile
    from solver.engine.state import Rules
    state = to_build(new_state(instance("tiny/tiny-island.toml"), {"A1": ["red"]},
                               dataclasses.replace(Rules(), track_into_side=reading), cash=50))
    link = LayTile(H("B1"), H("A1"), H("C1"))
    into_side = LayTile(H("B2"), H("C2"), H("B1"))
    first = _round_verdict(state, [link, into_side])
    assert first == _round_verdict(state, [into_side, link])
    assert (first == "refused") == (reading == "refused")


def _random_builds(state, rng, count):
    """`count` random build steps: each a path of track from a stop (or a town's own track)."""
    board = state.board
    free = [h for h in board.terrain if board.buildable(h) and not board.is_stop(h)
            and board.terrain[h] in state.scenario.track_cost]
    steps = []
    for _ in range(count):
        start = rng.choice(sorted(board.cities) + sorted(board.towns))
        path, cur = [start], start
        for _ in range(rng.randint(1, 3)):
            nxt = [n for n in cur.neighbours() if (n in free or board.is_stop(n)) and n not in path
                   and board.passable(cur, n)]
            if not nxt:
                break
            cur = rng.choice(sorted(nxt))
            path.append(cur)
            if board.is_stop(cur):
                break
        if len(path) < 2:
            continue
        if not board.is_stop(path[-1]):
            ahead = [n for n in path[-1].neighbours() if board.on_map(n) and n not in path]
            if not ahead:
                continue
            path.append(rng.choice(sorted(ahead)))
        steps.append(path_to_tiles(path))
    return [s for s in steps if s]


def test_random_builds_on_random_boards_get_the_same_verdict_in_every_order():
    from solver.solo.soundness import random_board
    rng = random.Random(39)
    compared = accepted = 0
    for seed in range(400):
        board = random_board(seed, wide=seed % 2 == 1)
        try:
            *_, state = board.start()
        except Exception:  # noqa: BLE001 - a board the generator makes and the loader refuses: no round to judge
            continue
        state.cash = 1000
        state.apply(next(m for m in state.legal_actions()))          # no shares
        actions = state.legal_actions()                               # Engineer where it is legal: more tiles
        state.apply(next((m for m in actions if m.name == "engineer"), actions[0]))
        steps = _random_builds(state, rng, rng.randint(2, 3))
        if len(steps) < 2:
            continue
        verdicts = {_round_verdict(state, [m for step in order for m in step])
                    for order in itertools.permutations(steps)}
        assert len(verdicts) == 1, (seed, [[str(m) for m in step] for step in steps], verdicts)
        compared += 1
        accepted += verdicts != {"refused"}
    assert compared >= 100 and accepted >= 20
