"""The plan side of the link search: turn an abstract clear into a real plan, which the referee judges.

An abstract clear (solver/solo/link_search.py) says, round by round, the action, the shares, the
shipments and their routes, and which pairs of stops must be joined by then. This module proposes
real track for it: one chain of hexes per pair from the packing model (models/link_packing.pack_paths,
one track a hex, so no complex tile is needed), tiles laid as late as each round's tile limit allows
(a pair's chain is finished by the round its first shipment needs it), and the fewest shares that
keep each round legal, more only to avoid a shortfall. Nothing here decides legality: every round is
replayed by the referee (solver.engine.plan.replay), and a plan is returned only if the referee
says it clears.
"""
from __future__ import annotations

from solver.engine.plan import Plan, RoundPlan, replay
from solver.solo.link_search import LinkBounds, Pos
from models.link_packing import PackingBoard, pack_paths


def decode(state0, instance, difficulty: str, setup, pattern: list, bounds: LinkBounds,
           deterministic_time: float = 10.0) -> tuple[Plan | None, str]:
    """(a referee-checked plan that follows the abstract clear `pattern` from the game's start, or None;
    what stopped it)."""
    if state0.round != 1 or state0.track:
        return None, "decoding starts from the first round only"
    final: Pos = pattern[-1][1]
    pairs = sorted(tuple(sorted(p)) for p in final.links)
    one_track = PackingBoard(bounds.board.cost, bounds.board.old, bounds.board.stops, bounds.board.towns,
                             bounds.board.passable, two_tracks=False)
    chains = pack_paths(one_track, pairs, deterministic_time)
    if chains is None:
        return None, "no track with one track a hex joins the pairs of the final network"
    s = state0.scenario
    rounds = len(pattern)
    due = {}
    for r, (record, _) in enumerate(pattern, start=1):
        for p in record[-1]:
            due.setdefault(tuple(sorted(p)), r)
    for p in pairs:
        due.setdefault(p, rounds)  # completion pairs: by the clearing round
    limits = [s.engineer_tile_limit if rec[0] == "engineer" else s.tile_limit for rec, _ in pattern]
    # tiles laid as late as possible: fill rounds from the last, each with the last unlaid tiles of pairs due
    # no earlier than it (a chain is laid from its first stop on, so later rounds take its far end)
    laid = {p: len(chains[p]) - 2 for p in pairs}   # tiles of each chain not yet given a round
    plan_tiles: dict = {}                           # (round, pair) -> (first, last) tile index laid
    for r in range(rounds, 0, -1):
        room = limits[r - 1]
        for p in sorted(pairs, key=lambda q: (-due[q], q)):
            if due[p] < r or laid[p] == 0 or room == 0:
                continue
            k = min(room, laid[p])
            plan_tiles[r, p] = (laid[p] - k + 1, laid[p])
            laid[p] -= k
            room -= k
    if any(laid.values()):
        return None, "the tile limits cannot lay the chains by the rounds that need them"
    new_cities = {}
    for r, (record, pos) in enumerate(pattern, start=1):
        for town, colour in pos.cities:
            new_cities.setdefault(town, (r, colour))
    plan_rounds = []
    for r, (record, pos) in enumerate(pattern, start=1):
        name, target, k, steps, _ = record
        build = [f"urbanize {town} {colour}" for town, (q, colour) in new_cities.items() if q == r]
        for p in pairs:
            span = plan_tiles.get((r, p))
            chain = chains[p]
            if span is None:
                if len(chain) == 2 and due[p] == r:  # a town tile's own track
                    town, stop = (p if p[0] in state0.board.towns else (p[1], p[0]))
                    build.append(f"town {town} {stop}")
                continue
            first, last = span
            build.append("-".join(str(h) for h in chain[first - 1:last + 2]))
        ship = []
        for step in steps:
            if step[0] == "ship":
                route = step[2]
                ship.append({"from": str(route[0]), "cube": step[1], "route": "-".join(str(h) for h in route)})
            else:
                ship.append(step[0])
        plan_rounds.append(RoundPlan(0, name, str(target) if target is not None else None, build, ship))
    return _with_shares(instance, difficulty, setup, state0, plan_rounds)


def _with_shares(instance, difficulty, setup, state0, plan_rounds: list[RoundPlan]) -> tuple[Plan | None, str]:
    """Each round with the fewest shares the referee accepts, more while a shortfall would follow."""
    done: list[RoundPlan] = []
    for rp in plan_rounds:
        chosen = None
        for k in range(0, state0.scenario.max_shares + 1):
            rp.shares = k
            result = replay(instance, _plan(instance, difficulty, setup, state0, done + [rp]))
            if result.error is not None:
                continue
            if chosen is None:
                chosen = k
            if not result.state.accounts.get("shortfall"):
                chosen = k
                break
        if chosen is None:
            rp.shares = state0.scenario.max_shares - sum(r.shares for r in done) - state0.shares
            error = replay(instance, _plan(instance, difficulty, setup, state0, done + [rp])).error
            return None, f"round {len(done) + 1} is refused by the referee: {error}"
        rp.shares = chosen
        done.append(rp)
    plan = _plan(instance, difficulty, setup, state0, done)
    result = replay(instance, plan)
    if result.error is None and result.state.cleared_round is not None:
        return plan, "the referee replays it: it clears"
    return None, f"the referee: {result.error or 'it does not clear'}"


def _plan(instance, difficulty, setup, state0, rounds) -> Plan:
    return Plan(instance.board.name, difficulty, state0.rules, setup, [RoundPlan(**vars(r)) for r in rounds],
                state0.round_limit)
