"""A round's builds are judged the same in every order (issue 27: one judgement per plan).

The Zoo's bonus tile is "a free bonus placement (one that does not count toward the number of tiles
laid)"; laid into a town it must not let later regular tiles into that town skip the town tile's count.
And every plan in tests/plans and results/plans replays to the same verdict with its builds permuted.
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
