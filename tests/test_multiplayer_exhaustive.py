"""Every map's sample state: `turn`'s proven best equals an independent exhaustive search.

The independent search does not use the shipment search (solver/engine/shipping.py): it walks the routes
of the state's links itself (each link at most once, at most the link capacity plus the Kansas City
transfer), proposes every cube on every route from its stop to the first stop taking its colour, and lets
only the referee (the ruleset's why_illegal) judge each move; every two-step sequence is played by the
ruleset and scored by its income phase."""
from __future__ import annotations

import json

import pytest

from solver.engine.moves import Pass, Ship, UpgradeLocomotive
from solver.games import load_instance
from solver.multi.choices import variants
from solver.multi.state import load_state
from tests.conftest import INSTANCES

SAMPLES = ["finland", "portugal", "synapses", "human-body", "kansas-city"]


def _routes(state, start=None, ends=None):
    """Every (route of stops, transfer hops) a good could take: each complete link used at most once, at most
    the link capacity plus a transfer hops. Parallel links (Synapses: several disc chains between two cities)
    give the same stops, and a Ship names stops only, so the walk counts, for each pair of stops, the hops made
    between them against the number of links joining them: a sequence of stops can be walked with distinct
    links exactly when no pair is crossed more often than it has links. Each (route, transfers) is yielded
    once (walking link by link gave Synapses' build-phase states 60 times as many, the same moves judged
    again and again).

    With `start` and `ends` (a test on a stop) only routes from `start` that end at the first stop after it
    passing `ends`, visiting no stop twice, are walked: see `_steps` for why nothing legal is lost."""
    rs = state.ruleset
    links = [lk for lk in state.links() if lk.complete]
    stops = sorted({e for lk in links for e in lk.ends}, key=str)
    teleports = [(a, b) for a in stops for b in stops if a != b and rs.hop_problem(state, a, b, True) is None]
    most = state.locomotive + (1 if teleports else 0)   # hops: links (the capacity) plus a transfer
    count: dict = {}                                     # pair of stops -> links joining them
    for lk in links:
        pair = frozenset(lk.ends)
        count[pair] = count.get(pair, 0) + 1
    near: dict = {s: [] for s in stops}                  # stop -> [(the stop across, the pair)], each once
    for pair in sorted(count, key=lambda p: sorted(map(str, p))):
        ends_of = sorted(pair, key=str)
        if len(ends_of) == 1:
            near[ends_of[0]].append((ends_of[0], pair))
        else:
            near[ends_of[0]].append((ends_of[1], pair))
            near[ends_of[1]].append((ends_of[0], pair))

    def walk(route, used, tele):
        if len(route) > 1:
            if ends is None:
                yield tuple(route), tuple(tele)
            elif ends(route[-1]):
                yield tuple(route), tuple(tele)
                return
        if len(route) - 1 >= most:
            return
        here = route[-1]
        nexts = [(there, pair, False) for there, pair in near[here]] + \
                [(b, None, True) for a, b in teleports if a == here and (len(route) - 1) not in tele]
        for there, pair, hop in nexts:
            if ends is not None and there in route:
                continue
            if hop:
                yield from walk(route + [there], used, tele + [len(route) - 1])
            elif used.get(pair, 0) < count[pair]:
                yield from walk(route + [there], {**used, pair: used.get(pair, 0) + 1}, tele)

    for first in ([start] if start is not None else stops):
        if first in near:
            yield from walk([first], {}, [])


def _steps(state, prune=True):
    """Every legal shipping step, each judged by the referee (why_illegal).

    prune: per cube, only routes that end at the first stop accepting its colour and visit no stop twice are
    proposed. Exact: every map's shipment_problem ends in the base one (solver/engine/ruleset.py), which
    refuses a route visiting a stop twice, a route ending where the colour is not accepted (`accepts`) and,
    the multiplayer maps having `pass_own_colour` False, a route passing a stop that accepts it. So every
    route left out is refused by the referee anyway; test_pruned_steps_equal_every_route_judged checks it
    against prune=False (every route proposed)."""
    rs = state.ruleset
    out = []
    seen = set()
    if prune:
        assert not rs.pass_own_colour, "the pruned walk assumes a good stops at the first city of its colour"
        proposals = ((route, tele, colour) for origin in sorted(state.goods, key=str)
                     for colour in sorted(set(state.goods.get(origin, [])))
                     for route, tele in _routes(state, origin, lambda stop, c=colour: rs.accepts(state, stop, c)))
    else:
        proposals = ((route, tele, colour) for route, tele in _routes(state)
                     for colour in set(state.goods.get(route[0], [])))
    for route, tele, colour in proposals:
        move = Ship(route[0], colour, route, tele)
        if str(move) in seen or rs.why_illegal(state, move) is not None:
            continue
        seen.add(str(move))
        out += [v for v in variants(state, move) if rs.why_illegal(state, v) is None]
    out += [m for m in [UpgradeLocomotive(), *rs.step_moves(state), Pass()] if rs.why_illegal(state, m) is None]
    return out


def _best(state):
    rs, best = state.ruleset, None
    for first in _steps(state):
        one = state.clone()
        rs.apply(one, first)
        for second in _steps(one):
            two = one.clone()
            rs.apply(two, second)
            acc = rs.income_phase(two)
            key = (acc["income"], acc["cash"])
            best = key if best is None or key > best else best
    return best


@pytest.mark.parametrize("name", SAMPLES)
def test_turn_best_equals_an_independent_exhaustive_search(run_cli, name):
    board, state_path = INSTANCES / f"{name}.toml", INSTANCES / "states" / f"{name}.toml"
    res = run_cli("turn", board, "--state", state_path, "--json", "--no-advice")
    assert res.code == 0, res.err
    best = json.loads(res.out)["best"]
    inst = load_instance(board)
    assert (best["income_after_turn"], best["cash_after_turn"]) == _best(load_state(inst, state_path))


def _link_by_link(state):
    """The route walk before it counted parallel links: each complete link at most once, link by link."""
    rs = state.ruleset
    links = [lk for lk in state.links() if lk.complete]
    stops = sorted({e for lk in links for e in lk.ends}, key=str)
    teleports = [(a, b) for a in stops for b in stops if a != b and rs.hop_problem(state, a, b, True) is None]
    most = state.locomotive + (1 if teleports else 0)

    def walk(route, used, tele):
        if len(route) > 1:
            yield tuple(route), tuple(tele)
        if len(route) - 1 >= most:
            return
        for i, lk in enumerate(links):
            if i not in used and route[-1] in lk.ends:
                yield from walk(route + [lk.ends[1] if lk.ends[0] == route[-1] else lk.ends[0]], used | {i}, tele)
        for a, b in teleports:
            if a == route[-1]:
                yield from walk(route + [b], used, tele + [len(route) - 1])

    for start in stops:
        yield from walk([start], frozenset(), [])


def _random_shipping_states(per_map):
    """A few random states of every map (tests/multiplayer_random.py) as shipping phases, each also after a
    locomotive raise (a longer walk) when the rules allow one."""
    import tempfile
    from pathlib import Path
    from tests.multiplayer_random import MAPS, random_states
    with tempfile.TemporaryDirectory() as tmp:
        for name in MAPS:
            inst = load_instance(INSTANCES / f"{name}.toml")
            for seed, state, _ in random_states(inst, name, per_map, 1, Path(tmp)):
                state = state.clone()
                state.turn_phase, state.shipments_done = "shipping", 0
                yield name, seed, state
                if state.ruleset.why_illegal(state, UpgradeLocomotive()) is None:
                    raised = state.clone()
                    state.ruleset.apply(raised, UpgradeLocomotive())
                    yield name, seed, raised


def test_route_walk_counting_parallel_links_finds_every_route_once():
    """_routes walks stops, counting the links of each pair: the same (route, transfers) as walking link by
    link, each once."""
    for name, seed, state in _random_shipping_states(12):
        routes = list(_routes(state))
        assert len(routes) == len(set(routes)), (name, seed)
        assert set(routes) == set(_link_by_link(state)), (name, seed)


def test_pruned_steps_equal_every_route_judged():
    """_steps proposes only routes ending at the first stop that takes the colour, no stop twice: the referee
    allows exactly the same steps as when every route is proposed."""
    for name, seed, state in _random_shipping_states(12):
        assert sorted(map(str, _steps(state))) == sorted(map(str, _steps(state, prune=False))), (name, seed)
