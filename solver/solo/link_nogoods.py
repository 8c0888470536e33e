"""Point 7 of the link search (solver/solo/link_search.py, its argument in that module text): round-by-round
track. A history of the abstract game is also judged by when each pair of stops was first used and the tiles
its rounds allowed; where no track can follow it (`fits`: one hex packing, models/link_packing.build_packing),
a `Nogood` remembers the dead end and refutes every history at least as tight (`looser` orders them).
The plan side (solver/solo/link_plans.py) reads an abstract clear's first uses and tile limits from here too.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Callable, Protocol

from ortools.sat.python import cp_model

from models.link_packing import PackingBoard, build_packing
from solver import interrupt
from solver.engine.track_tiles import complex_rules


class Fit(StrEnum):
    """Can real track follow a history round by round (point 7's model)?"""

    INFEASIBLE = "infeasible"   # proved: no track does (a nogood)
    FEASIBLE = "feasible"       # the model found track
    UNKNOWN = "unknown"         # no answer within the model's time


class PackingBounds(Protocol):
    """What point 7's model reads of the link bounds (link_search.LinkBounds)."""

    board: PackingBoard
    packing_time: float
    tile_exists: Callable
    is_crossing: Callable


def tile_rules(state, towns: dict) -> dict:
    """The packing's points 8 and 9 for this game (build_packing keywords): whether an upgrade counts as
    a tile, and each town's last round as a town (`towns`: the history's urbanized ones; urbanized
    before the search: never a town; the rest: all game)."""
    rules = complex_rules(state)
    return {"upgrade_counts": bool(rules and rules["upgrade_counts_as_tile"]),
            "town_tiles": {t: 0 if t in state.new_cities else towns.get(t, 1 << 30) for t in state.board.towns}}


def looser(due_a: dict, allow_a: tuple, due_b: dict, allow_b: tuple, towns_a: dict | None = None,
           towns_b: dict | None = None) -> bool:
    """Is history a no tighter than b: every pair b needed by round d needed by a no earlier than d (or
    never), at least b's tiles allowed by every round, and every town b urbanized urbanized by a no later
    (a town counts a tile while it is a town)? Then every nogood that refutes a refutes b."""
    towns_a, towns_b = towns_a or {}, towns_b or {}
    return (all(d >= due_b.get(p, 1 << 30) for p, d in due_a.items())
            and all(x >= y for x, y in zip(allow_a, allow_b))
            and all(towns_a.get(t, 1 << 30) <= last for t, last in towns_b.items()))


@dataclass(frozen=True)
class Nogood:
    """Point 7: pairs that must be joined by given rounds, within given cumulative tile budgets, that no
    track can meet (a packing model said INFEASIBLE); with `connect`, also in a network joining every ruin."""

    due: tuple        # ((pair, round), ...)
    budgets: tuple    # cumulative tiles allowed by rounds 1, 2, ... (None: no limit needed that round)
    connect: bool
    towns: tuple = () # ((town, last round as a town), ...): the towns this history urbanized

    def refutes(self, due: dict, allow: tuple, cleared: bool, towns: dict | None = None) -> bool:
        """Does a history with these pairs' first uses and these allowances (`allow`: one per round played,
        so its length is the history's round count) meet the same dead end? It does when it needs every pair
        no later and has no more tiles by any round, and keeps every town a town no shorter within the
        nogood's rounds (its town tiles count no less); with `connect`, when it also clears NO LATER than
        the clear the nogood was learnt from (len(allow) <= len(budgets)): its track then joins every ruin
        by the nogood's clearing round within no more tiles. A history that clears later may finish the
        network with the tiles of its later rounds, which the nogood never priced, so it is not refuted."""
        if self.connect and (not cleared or len(allow) > len(self.budgets)):
            return False
        if not self.connect and len(allow) < len(self.budgets):
            return False
        if any(due.get(p, 1 << 30) > d for p, d in self.due):
            return False
        if towns:   # a history that urbanized nothing keeps every town a town: nothing to compare
            mine = dict(self.towns)
            if any(last < min(mine.get(t, 1 << 30), len(self.budgets)) for t, last in towns.items()):
                return False
        return all(b is None or allow[min(q, len(allow)) - 1] <= b for q, b in enumerate(self.budgets, start=1))


def town_lasts(pattern: list) -> dict:
    """Each town an abstract clear urbanizes -> its last round as a town (1 = the clear's first)."""
    out: dict = {}
    for r, (_, pos) in enumerate(pattern, start=1):
        for t, _ in pos.cities:
            out.setdefault(t, r - 1)
    return out


def first_use(pattern: list) -> dict:
    """Each pair an abstract clear's shipments use -> the round (1 = the clear's first) it is first used."""
    due: dict = {}
    for r, (record, _) in enumerate(pattern, start=1):
        for p in record[-1]:
            due.setdefault(tuple(sorted(p)), r)
    return due


def round_limits(state, pattern: list) -> list[int]:
    """The tile limit of each round of an abstract clear (4 with Engineer, else 3 on Easter Island)."""
    s = state.scenario
    return [s.engineer_tile_limit if record[0] == "engineer" else s.tile_limit for record, _ in pattern]


def pattern_fits(state, pattern: list, bounds: PackingBounds) -> Fit:
    """Can real track follow this one abstract clear round by round? Fit.INFEASIBLE, FEASIBLE or UNKNOWN."""
    due = first_use(pattern)
    return fits(state, bounds, due, _allowances(state, pattern), True, town_lasts(pattern))


def _allowances(state, pattern: list) -> tuple:
    out, total = [], 0
    for limit in round_limits(state, pattern):
        total += limit
        out.append(total)
    return tuple(out)


def fits(state, bounds: PackingBounds, due: dict, budgets: tuple, connect: bool, towns: dict,
         share: float = 1.0) -> Fit:
    """Point 7's model: one packing (models/link_packing.build_packing) over the pairs of `due`, where the
    pairs due by round r together take at most budgets[r - 1] new hexes, and with `connect` the network
    joins every ruin by the last round, its new hexes within that round's budget. Any real play whose
    pairs are first used by those rounds and whose rounds allow at most those tiles has such track: a
    complete link is never removed, so the link that first joined a pair is still there at the end; its
    new hexes were laid by the round of the pair's first use (a hex holds a tile laid by the player); no
    round places more tiles than its limit. A town tile counts as a
    tile more in a turn track reaches the town (the engine's _town_tile_count), so each town still a town
    (`towns`: the history's urbanized ones -> last round as a town; urbanized before the search: never)
    that a link due by then reaches counts one tile, once (a lower bound on its turns). The laying order
    (packing point 8) is asked of whole clears only: its labels (one per link, round and hex) make the
    model much larger, too slow to ask of every prefix the search checks."""
    required = sorted(due)
    groups = tuple(([i for i, p in enumerate(required) if due[p] <= r], b, r) for r, b in enumerate(budgets, start=1)
                   if b is not None)
    m, _ = build_packing(bounds.board, required, "tiles", tuple(sorted(state.board.cities)) if connect else (),
                         tile_exists=bounds.tile_exists if bounds.board.two_tracks else None, budgets=groups,
                         order=tuple(due[p] for p in required) if connect else (), crossing=bounds.is_crossing,
                         connect_by=len(budgets) if connect else None, **tile_rules(state, towns))
    solver = interrupt.cp_solver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = bounds.packing_time * share
    solver.parameters.random_seed = 0
    status = interrupt.solve_cp(solver, m)
    if status == cp_model.INFEASIBLE:
        return Fit.INFEASIBLE
    return Fit.FEASIBLE if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else Fit.UNKNOWN


MINIMISE = 0.25  # share of the packing time for each model that loosens a nogood (unknown: kept as it is)


def refute(state, pattern: list, bounds: PackingBounds) -> Nogood | None:
    """Point 7's counterexample step: if no track follows this abstract clear with its network joining every
    ruin, a nogood that also refutes every history at least as tight: each pair dropped, then each round's
    budget dropped or raised, while the rest still fails. (Its prefixes without the network were already
    checked by the search, link_search's `_Game._dead`, when each added a link.)"""
    due = first_use(pattern)
    budgets = _allowances(state, pattern)
    towns = town_lasts(pattern)
    if fits(state, bounds, due, budgets, True, towns) != Fit.INFEASIBLE:
        return None
    pairs, upto, connect = due, budgets, True
    for p in sorted(pairs, key=lambda q: (-pairs[q], q)):   # the latest pairs first: drop what is not needed
        smaller = {q: d for q, d in pairs.items() if q != p}
        if (smaller or connect) and fits(state, bounds, smaller, upto, connect, towns, MINIMISE) == Fit.INFEASIBLE:
            pairs = smaller
    # then the budgets: drop a round's budget, or raise it (an Engineer round allows one tile more), while
    # the rest still fails; a looser nogood refutes more histories (Engineer rounds included)
    upto = list(upto)

    def fails(q, value):
        return fits(state, bounds, pairs, tuple(upto[:q] + [value] + upto[q + 1:]), connect, towns,
                     MINIMISE) == Fit.INFEASIBLE

    for q in range(len(upto)):
        if fails(q, None):
            upto[q] = None
            continue
        lo, hi = 0, q + 1          # a raise of lo tiles still fails; round q + 1 allows at most q + 1 more
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if fails(q, upto[q] + mid):
                lo = mid
            else:
                hi = mid - 1
        upto[q] += lo
    return Nogood(tuple(sorted(pairs.items())), tuple(upto), connect, tuple(sorted(towns.items())))
