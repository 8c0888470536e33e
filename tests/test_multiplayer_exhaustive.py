"""Every map's sample state: `turn`'s proven best equals an independent exhaustive search.

The independent search does not use the shipment search (solver/engine/shipping.py): it walks every route
of the state's links itself (each link at most once, at most the link capacity plus the Kansas City
transfer), proposes every colour on every stop, and lets only the referee (the ruleset's why_illegal) judge
each move; every two-step sequence is played by the ruleset and scored by its income phase."""
from __future__ import annotations

import json

import pytest

from solver.engine.moves import Pass, Ship, UpgradeLocomotive
from solver.games import load_instance
from solver.multi.choices import variants
from solver.multi.state import load_state
from tests.conftest import INSTANCES

SAMPLES = ["finland", "portugal", "synapses", "human-body", "kansas-city"]


def _routes(state):
    rs = state.ruleset
    links = [lk for lk in state.links() if lk.complete]
    stops = sorted({e for lk in links for e in lk.ends}, key=str)
    teleports = [(a, b) for a in stops for b in stops if a != b and rs.hop_problem(state, a, b, True) is None]
    most = state.locomotive + (1 if teleports else 0)   # hops: links (the capacity) plus a transfer

    def walk(route, used, tele):
        if len(route) > 1:
            yield tuple(route), tuple(tele)
        if len(route) - 1 >= most:
            return
        here = route[-1]
        for i, lk in enumerate(links):
            if i in used or here not in lk.ends:
                continue
            there = lk.ends[1] if lk.ends[0] == here else lk.ends[0]
            yield from walk(route + [there], used | {i}, tele)
        for a, b in teleports:
            if a == here and (len(route) - 1) not in tele:
                yield from walk(route + [b], used, tele + [len(route) - 1])

    for start in stops:
        yield from walk([start], frozenset(), [])


def _steps(state):
    rs = state.ruleset
    out = []
    seen = set()
    for route, tele in _routes(state):
        for colour in set(state.goods.get(route[0], [])):
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
