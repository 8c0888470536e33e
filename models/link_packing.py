"""The fewest new hexes, or the least money, any track realising a set of links needs (CP-SAT).

`build_packing(problem, links, objective)` builds one model: every link (a pair of stops) is a unit flow
of track from one stop to the other over the hex grid; the links share the board as real track does.

Why its optimum is a LOWER BOUND on what real track costs (the argument the link search rests on):
take any track on the board in which every pair in `links` is joined by a complete link. Pick one such
link per pair; it is a chain stop, hexes..., stop that passes no other stop (a link ends at the first
stop it reaches). Set x[e, u, v] = 1 for each step of pair e's chain. Then
1. flow: each chain leaves its first stop once, enters its last stop once, and enters and leaves each
   hex it passes (a chain that passes a hex twice enters it twice: allowed, see 3);
2. a hexside carries at most one track (two tracks meeting on a side would join, which only town
   tiles do), so over all chains each side is crossed at most once, in either direction;
3. a hex holds at most two tracks (a simple or a complex tile), so at most two chain visits;
4. two stops side by side are joined without any hex only when one of them is a town (the town
   tile's own track), never city to city;
5. every new hex (no track in the position) that a chain passes holds a tile placed by the player:
   one placement at least, and the laying cost of its terrain at least; a hex with two tracks cost
   at least `board.second` more (the least of the board file's complex extras and upgrade price: a
   complex tile is its terrain plus an extra, an upgrade is the upgrade price on top of the first tile).
   Hexes that already hold track cost nothing and are not counted (permissive), and their sides
   and track counts are not limited (the old track's own use of them is not modelled).
   Without complex tiles (reading complex-tiles) a hex holds one track, and point 3 says so.
   Town-tile fees are left out (they are >= 0).
So the real track is a solution of the model and its real count or cost is >= the model's objective;
6. with `connect`: the real network joins those stops; see build_packing;
7. with `tile_exists`: two tracks on one hex form a tile of the tile set; see _tile_shapes;
8. with `order` and `budgets`: a hex two chains share was laid by the earlier chain's round, and with
   it the later chain's track to one of its ends (unless a crossing laid in two placements); see
   _laid_prefixes;
9. with `town_tiles` and `budgets`: a town still a town that a link reaches costs a tile more (the town
   tile) by that link's round; see _towns_reached.
the model's proven optimum (OPTIMAL) or its proven objective bound is a lower bound. Detached cycles
of flow only add cost and are not excluded: still a relaxation.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver import interrupt
from solver.board.hexgrid import Hex


@dataclass(frozen=True)
class PackingBoard:
    """The board as the packing sees it: hexes that can take track, their laying cost, the stops."""

    cost: dict          # Hex -> laying cost of a new simple tile there (0: already holds track)
    old: frozenset      # hexes that already hold track (free, uncounted, unlimited)
    stops: frozenset    # cities, towns, exits
    towns: frozenset
    passable: object    # (Hex, Hex) -> bool: no impassable hexside between them
    two_tracks: bool = True  # complex tiles allowed: a hex may hold two tracks (else one)
    second: int = 1          # the least a second track on a hex adds (the board's complex extras, upgrade price)

    def arcs_of(self, a: Hex, b: Hex) -> list[tuple[Hex, Hex]]:
        """Directed steps a chain from stop a to stop b may take (no other stop on the way)."""
        out = []
        if b in a.neighbours() and self.passable(a, b) and (a in self.towns or b in self.towns):
            out.append((a, b))  # a town tile's own track (point 4)
        for h in self.cost:
            for n in h.neighbours():
                if not self.passable(h, n):
                    continue
                if n in self.cost:
                    out.append((h, n))
                elif n == b:
                    out.append((h, b))
            if a in h.neighbours() and self.passable(a, h):
                out.append((a, h))
        return out


def build_packing(board: PackingBoard, links: list[tuple[Hex, Hex]], objective: str,
                  connect: tuple = (), tile_exists=None, budgets: tuple = (), once: bool = False,
                  optional: frozenset = frozenset(), join: tuple = (), due: tuple = (), crossing=None,
                  order: tuple = (), upgrade_counts: bool = True, notes: dict | None = None,
                  town_tiles: dict | None = None, connect_by: int | None = None
                  ) -> tuple[cp_model.CpModel, dict]:
    """One model: every pair in `links` joined by its own chain of track; objective 'tiles' or 'cost'.

    `connect`: stops the whole track must also join into one network (Easter Island's clear). Point 6:
    the real network's other complete links are chains too (`extra`: steps of track that enter and
    leave every hex, sharing the hexside and two-tracks limits with the chains); a flow from the first
    stop reaches every other stop only across hexsides that carry track (with two tracks in a hex it
    may pass from one track to the other: permissive).

    `tile_exists(hex, sides, sides)`: two chains share a hex only where the caller's tile set (the
    engine's, solver/engine/track_tiles.py) has such a complex tile (point 7; still a relaxation).
    `budgets`, (link indices, n, round): the chains of those links together use at most n new hexes
    (true of real track when those links were all complete after n tile placements, by that round: see
    link_search._fits); from round `connect_by` on, with the rest of the network too (it joins the
    `connect` stops by then). `order` (a round per link, with `crossing`): point 8. `town_tiles` (town -> its
    last round as a town): point 9.
    Plan side only (RESTRICTIONS, never used for a bound): `once`, each chain passes a hex at most once;
    `optional` (link indices): those links may be left out; `join`: the links built join these stops;
    `due` (a round per link) with `crossing(hex, sides, sides)`: the laying order of _laying_order, and a
    crossing of links due in different rounds counts two placements in the budgets (straight, upgrade)."""
    m = cp_model.CpModel()
    x: dict = {}
    visits: dict = {h: [] for h in board.cost}
    side_use: dict = {}
    use: dict = {}
    for i, (a, b) in enumerate(links):
        arcs = board.arcs_of(a, b)
        for u, v in arcs:
            x[i, u, v] = m.NewBoolVar(f"x_{i}_{u}_{v}")
            side_use.setdefault(frozenset((u, v)), []).append(x[i, u, v])
        out_of = {}
        into = {}
        for (j, u, v), var in ((k, var) for k, var in x.items() if k[0] == i):
            out_of.setdefault(u, []).append(var)
            into.setdefault(v, []).append(var)
        # point 1: the chain leaves a once and enters b once (plan side: an optional link maybe not at all)
        need = m.NewBoolVar(f"use_{i}") if i in optional else 1
        use[i] = need
        m.Add(sum(out_of.get(a, [])) == need)
        m.Add(sum(into.get(b, [])) == need)
        m.Add(sum(into.get(a, [])) == 0)
        m.Add(sum(out_of.get(b, [])) == 0)
        for h in board.cost:
            # point 1: what enters a hex leaves it
            m.Add(sum(into.get(h, [])) == sum(out_of.get(h, [])))
            if into.get(h):
                visits[h].extend(into[h])
    if join:
        # plan side: the links built join the stops (a flow from the first over the links' stop graph)
        cap = len(join) - 1
        flow = {}
        for i, (a, b) in enumerate(links):
            for u, v in ((a, b), (b, a)):
                flow[i, u, v] = m.NewIntVar(0, cap, f"join_{i}_{u}_{v}")
                m.Add(flow[i, u, v] <= cap * use[i])
        for node in {h for pair in links for h in pair} | set(join):
            net = (sum(f for (i, u, v), f in flow.items() if v == node)
                   - sum(f for (i, u, v), f in flow.items() if u == node))
            m.Add(net == (-cap if node == join[0] else 1 if node in join else 0))
    extra: dict = {}
    if connect:
        # point 6: the rest of the network, as directed steps of track that enter and leave each hex
        for u in board.cost:
            for n in u.neighbours():
                if board.passable(u, n) and (n in board.cost or n in board.stops):
                    for a, b in ((u, n), (n, u)):
                        extra[a, b] = m.NewBoolVar(f"extra_{a}_{b}")
                        side_use.setdefault(frozenset((a, b)), []).append(extra[a, b])
        for t in board.towns:
            for n in t.neighbours():
                if n in board.stops and board.passable(t, n):
                    for a, b in ((t, n), (n, t)):
                        if (a, b) not in extra:
                            extra[a, b] = m.NewBoolVar(f"extra_{a}_{b}")
                            side_use.setdefault(frozenset((a, b)), []).append(extra[a, b])
        for h in board.cost:
            ins = [v for (a, b), v in extra.items() if b == h]
            outs = [v for (a, b), v in extra.items() if a == h]
            m.Add(sum(ins) == sum(outs))
            visits[h].extend(ins)
    upgrades: list = []
    laid_by: list = []
    if tile_exists is not None:
        steps = dict(x)
        steps.update({("rest", u, v): var for (u, v), var in extra.items()})
        on_hex = _tile_shapes(m, board, steps, tile_exists, once)
        if due:
            for h, chains in on_hex.items():
                _laying_order(m, h, chains, due, crossing, upgrades)
        if order:
            laid_by = _laid_prefixes(m, board, x, on_hex, order, crossing, upgrade_counts, upgrades)
    for group, most, by in budgets:
        # the links due by a round fit in the tiles laid up to it
        hexes = {}
        for (i, u, v), var in x.items():
            if i in group and v in board.cost and v not in board.old:
                hexes.setdefault(v, []).append(var)
        for var, v, a, _ in laid_by:
            if a <= by:
                hexes.setdefault(v, []).append(var)   # point 8: laid by round a
        if connect_by is not None and by >= connect_by:
            for (u, v), var in extra.items():
                if v in board.cost and v not in board.old:
                    hexes.setdefault(v, []).append(var)   # point 6: the rest of the network, by connect_by
        used = []
        for h, vs in hexes.items():
            u = m.NewBoolVar(f"budget_{len(budgets)}_{h}")
            for v in vs:
                m.AddImplication(v, u)
            used.append(u)
        # an upgrade is a placement of its own (plan side; point 8 for a crossing laid in two steps)
        m.Add(sum(used) + sum(u for u, i, j, _ in upgrades if i in group and j in group)
              + sum(_towns_reached(m, board, x, laid_by, budgets, by, town_tiles or {})) <= most)
    for side, uses in side_use.items():
        if any(h in board.old for h in side):
            continue
        # point 2: one track a hexside
        m.Add(sum(uses) <= 1)
    terms = []
    for h, vs in visits.items():
        if not vs or h in board.old:
            continue
        # point 3: at most two tracks a hex (one without complex tiles)
        m.Add(sum(vs) <= (2 if board.two_tracks else 1))
        used = m.NewBoolVar(f"used_{h}")
        for v in vs:
            m.AddImplication(v, used)
        if objective == "tiles":
            terms.append(used)  # point 5: one placement at least
        else:
            two = m.NewBoolVar(f"two_{h}")
            m.Add(sum(vs) - 1 <= two)
            terms.append(board.cost[h] * used + board.second * two)  # point 5: terrain, + a second track
    if connect:
        _connected(m, board, connect, x, extra)
    if notes is not None:
        notes.update(laid_by=laid_by, upgrades=upgrades)
    m.Minimize(sum(terms))
    return m, x


def _tile_shapes(m, board: PackingBoard, steps: dict, tile_exists, once: bool) -> dict:
    """Point 7: two tracks share a hex only as a tile of the tile set.

    For the bound (once=False): if two different chains i and j pass a hex, the hex holds at most two
    tracks (point 3), so each passes it exactly once and its way in and way out are its track there;
    the two are the tile's two tracks, so the pair must exist. T[i, h, sides] is forced to 1 only by
    chain i's way in and way out, and the constraint binds only across two different chains, so the
    real track satisfies it (a chain that passes a hex twice is left free: permissive). The rest of the
    network (`connect`, chain "rest") counts as one more chain: where a chain passes a hex, the rest has
    at most one track there, entered on one side and left on the other.
    For the plan side (once=True, a restriction) each chain also passes a hex at most once.
    Returns, per hex, the chains that may pass it with their track indicators {sides: T}."""
    mine: dict = {}    # (chain, hex) -> {sides: T}
    by_chain: dict = {}
    for (i, u, v), var in steps.items():
        by_chain.setdefault(i, []).append((u, v, var))
    for i, arcs in by_chain.items():
        into: dict = {}
        out_of: dict = {}
        for u, v, var in arcs:
            into.setdefault(v, []).append((u, var))
            out_of.setdefault(u, []).append((v, var))
        for h in board.cost:
            if h in board.old or not into.get(h):
                continue
            if once and i != "rest":
                m.Add(sum(var for _, var in into[h]) <= 1)
            for a, va in into[h]:
                for b, vb in out_of.get(h, []):
                    if a == b:
                        continue
                    key = frozenset((a, b))
                    t = mine.setdefault((i, h), {}).get(key)
                    if t is None:
                        t = mine[i, h][key] = m.NewBoolVar(f"track_{i}_{h}_{a}_{b}")
                    m.Add(t >= va + vb - 1)
    on_hex: dict = {}
    for (i, h), tracks in mine.items():
        on_hex.setdefault(h, []).append((i, tracks))
    for h, chains in on_hex.items():
        if len(chains) < 2:
            continue
        total: dict = {}
        for i, tracks in chains:
            for key, t in tracks.items():
                total.setdefault(key, []).append(t)
        for i, tracks in chains:
            for s1, t in tracks.items():
                for s2, others in total.items():
                    if set(s1) & set(s2) or tile_exists(h, tuple(s1), tuple(s2)):
                        continue
                    rest = [o for o in others if o is not tracks.get(s2)]
                    if rest:
                        # point 7: chain i's track s1 and another chain's track s2 make no tile
                        m.Add(t + sum(rest) <= 1)
    return on_hex


def _laying_order(m, h, chains: list, due: tuple, crossing, upgrades: list) -> None:
    """Plan side (a restriction): chains due in different rounds share hex h only as a crossing.

    A non-crossing pair is one placement and the engine upgrades only a straight (to a crossing), so
    sharing one between links due in different rounds would lay the later link's track, and the track
    joining it, by the earlier round; a crossing can be the earlier straight and an upgrade later,
    each such upgrade an (indicator, i, j, hex) in `upgrades` for the budgets."""
    for n, (i, tracks_i) in enumerate(chains):
        for j, tracks_j in chains[n + 1:]:
            if "rest" in (i, j) or due[i] == due[j]:
                continue
            for s1, ti in tracks_i.items():
                for s2, tj in tracks_j.items():
                    if set(s1) & set(s2):
                        continue
                    if crossing(h, tuple(s1), tuple(s2)):
                        u = m.NewBoolVar(f"upgrade_{h}_{i}_{j}")
                        m.Add(u >= ti + tj - 1)
                        upgrades.append((u, i, j, h))
                    else:
                        m.Add(ti + tj <= 1)


def _laid_prefixes(m, board: PackingBoard, x: dict, on_hex: dict, order: tuple, crossing,
                   upgrade_counts: bool, upgrades: list) -> list:
    """Point 8 (a relaxation): what the laying order of a shared hex says about the budgets.

    Two chains i, j (order[i] < order[j]) pass a hex h as the two tracks of one tile. A non-crossing
    pair is placed at once (the engine upgrades only a straight, to a crossing), no later than round
    order[i] (i's link is complete by then: see link_search._fits); a crossing is placed at once too, or
    as a straight and an upgrade, two placements by round order[j] (when an upgrade counts as a tile).
    A track placed at once with the tile must be joined to a stop or to track (the engine's join rule,
    for each track of a tile): its neighbour across one of its sides holds a stop, or track on that
    side, which is j's own next track (a hexside carries one track); that track was laid earlier, and
    joined the same way on its far side, so by induction j's chain from h to one of its ends is laid by
    round order[i]. Hence the labels: back[j, a, v] (toward j's first stop) and fwd[j, a, v] (toward its
    last) on v ... h, each such hex holding a tile placed by round a; a label steps on along j's chain
    unless j passes the hex twice (then which track comes first is unknown: it stops, permissive), and
    never into track already on the board. Returned: (label, hex, a, j) for the budgets of rounds >= a."""
    into: dict = {}
    out_of: dict = {}
    for (i, u, v), var in x.items():
        into.setdefault((i, v), []).append((u, var))
        out_of.setdefault((i, u), []).append((v, var))
    free = {h for h in board.cost if h not in board.old}
    labels: dict = {}
    twice: dict = {}
    out: list = []

    def passes_twice(j, v):
        if (j, v) not in twice:
            t = twice[j, v] = m.NewBoolVar(f"twice_{j}_{v}")
            n = sum(var for _, var in into.get((j, v), []))
            m.Add(n >= 2).OnlyEnforceIf(t)
            m.Add(n <= 1).OnlyEnforceIf(t.Not())
        return twice[j, v]

    def prefix(j, a, toward) -> dict:
        """The labels of chain j laid by round a toward one end ('back' or 'fwd'), made on first use."""
        key = (j, a, toward)
        if key in labels:
            return labels[key]
        lab = labels[key] = {v: m.NewBoolVar(f"laid_{j}_{a}_{toward}_{v}") for v in free
                             if into.get((j, v))}
        for v, var in lab.items():
            out.append((var, v, a, j))
            steps = into.get((j, v), []) if toward == "back" else out_of.get((j, v), [])
            for u, arc in steps:
                if u in lab:
                    # the track next along j's chain toward that end was laid before it
                    m.AddBoolOr([lab[u], arc.Not(), var.Not(), passes_twice(j, v)])
        return lab

    for h, chains in on_hex.items():
        ints = [(i, t) for i, t in chains if i != "rest"]
        for n, (i, tracks_i) in enumerate(ints):
            for j, tracks_j in ints[n + 1:]:
                if order[i] == order[j]:
                    continue
                (e, te), (l, tl) = sorted(((i, tracks_i), (j, tracks_j)), key=lambda c: order[c[0]])
                ends = (prefix(l, order[e], "back")[h], prefix(l, order[e], "fwd")[h])
                split = None
                for s1, t1 in te.items():
                    for s2, t2 in tl.items():
                        if set(s1) & set(s2):
                            continue
                        way = [ends[0], ends[1]]
                        if crossing(h, tuple(s1), tuple(s2)):
                            if not upgrade_counts:
                                continue   # a straight and an upgrade cost no extra tile: nothing follows
                            if split is None:
                                split = m.NewBoolVar(f"split_{h}_{e}_{l}")
                                upgrades.append((split, e, l, h))
                            way.append(split)
                        # point 8: the later chain's track here, and its way to one end, laid by order[e]
                        m.AddBoolOr(way + [t1.Not(), t2.Not()])
    return out


def _towns_reached(m, board: PackingBoard, x: dict, laid_by: list, budgets: tuple, by: int, towns: dict) -> list:
    """Point 9: a town tile counts as one more tile in a turn new track reaches the town while it is a
    town (towns: town -> its last round as a town), so a town that a link due by round q <= that last
    round reaches from a new hex (or a point-8 label lays such track by q) costs a tile by q: counted
    once (a lower bound on its turns). Track from a hex already holding track, and a town tile's own
    track between two stops, are not counted (they may be on the board already: permissive)."""
    out = []
    groups = {q: group for group, _, q in budgets}
    for t, last in sorted(towns.items()):
        upto = min(by, last)
        group = groups.get(upto, ())
        reach = [var for (i, u, v), var in x.items() if i in group and t in (u, v)
                 and ({u, v} - {t}) <= set(board.cost) - board.old]
        for label, v, a, j in laid_by:
            if a <= upto:
                for arc in (x.get((j, v, t)), x.get((j, t, v))):
                    if arc is not None:
                        both = m.NewBoolVar(f"town_{t}_{v}_{j}_{a}")
                        m.Add(both >= label + arc - 1)
                        reach.append(both)
        if reach:
            hit = m.NewBoolVar(f"reached_{t}_{by}")
            for var in reach:
                m.AddImplication(var, hit)
            out.append(hit)
    return out


def _connected(m, board: PackingBoard, stops: tuple, x: dict, extra: dict) -> None:
    """Point 6: a flow from stops[0] with one unit for every other stop, only over hexsides with track."""
    cap = len(stops) - 1
    carries: dict = {}
    for (i, u, v), var in x.items():
        carries.setdefault(frozenset((u, v)), []).append(var)
    for (u, v), var in extra.items():
        carries.setdefault(frozenset((u, v)), []).append(var)
    flow: dict = {}
    for side, vars_ in carries.items():
        u, v = tuple(side)
        for a, b in ((u, v), (v, u)):
            f = m.NewIntVar(0, cap, f"conn_{a}_{b}")
            m.Add(f <= cap * sum(vars_))
            flow[a, b] = f
    cells = {c for side in carries for c in side}
    for u in cells | set(stops):
        net = sum(f for (a, b), f in flow.items() if b == u) - sum(f for (a, b), f in flow.items() if a == u)
        m.Add(net == (-cap if u == stops[0] else 1 if u in stops else 0))


def _solver(deterministic_time: float):
    """One reproducible CP-SAT solver (one worker, a work budget) that Ctrl-C and the wall-clock cap reach."""
    solver = interrupt.cp_solver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = deterministic_time
    solver.parameters.random_seed = 0
    return solver


def solve_packing(board: PackingBoard, links: list[tuple[Hex, Hex]], objective: str,
                  deterministic_time: float = 5.0, connect: tuple = (), tile_exists=None) -> tuple[str, int | None]:
    """(status, proven lower bound): 'optimal' with the optimum, 'bound' with CP-SAT's proven objective
    bound (rounded up: the objective is an integer), 'infeasible' (no track can join them all), or
    'unknown' with None."""
    if not links and not connect:
        return "optimal", 0
    m, _ = build_packing(board, links, objective, connect, tile_exists=tile_exists if board.two_tracks else None)
    solver = _solver(deterministic_time)
    status = interrupt.solve_cp(solver, m)
    if status == cp_model.OPTIMAL:
        return "optimal", int(round(solver.ObjectiveValue()))
    if status == cp_model.INFEASIBLE:
        return "infeasible", None
    if status == cp_model.FEASIBLE:
        # the floor of the proven bound: never rounded up past a value the objective might take
        return "bound", max(0, math.floor(solver.BestObjectiveBound()))
    return "unknown", None


def pack_paths(board: PackingBoard, links: list[tuple[Hex, Hex]], deterministic_time: float = 10.0,
               tile_exists=None, budgets: tuple = (), optional: frozenset = frozenset(), join: tuple = (),
               due: tuple = (), crossing=None, order: tuple = (), upgrade_counts: bool = True,
               schedule: dict | None = None, town_tiles: dict | None = None
               ) -> dict[tuple[Hex, Hex], list[Hex]] | None:
    """Cheapest track found for the links, one chain each (stop, hexes..., stop), or None.

    For the plan side only (a proposal the referee then judges): the chains of a solution, with
    any detached cycle of the flow left out. `schedule`, if given, receives the solution's laying order
    (point 8): 'early', hex -> the earliest round a label lays it by; 'split', the crossings laid as a
    straight and an upgrade."""
    if not links:
        return {}
    notes: dict = {}
    m, x = build_packing(board, links, "cost", tile_exists=tile_exists, budgets=budgets, once=True,
                         optional=optional, join=join, due=due, crossing=crossing, order=order,
                         upgrade_counts=upgrade_counts, notes=notes, town_tiles=town_tiles)
    solver = _solver(deterministic_time)
    if interrupt.solve_cp(solver, m) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    if schedule is not None:
        early: dict = {}
        for var, v, a, _ in notes["laid_by"]:
            if solver.Value(var):
                early[v] = min(early.get(v, a), a)
        schedule.update(early=early, split={h for var, _, _, h in notes["upgrades"] if solver.Value(var)})
    out = {}
    for i, (a, b) in enumerate(links):
        step = {u: v for (j, u, v), var in x.items() if j == i and solver.Value(var)}
        if i in optional and a not in step:
            continue   # an optional link left out
        chain, seen = [a], {a}
        while chain[-1] != b:
            nxt = step.get(chain[-1])
            if nxt is None or nxt in seen:
                return None
            chain.append(nxt)
            seen.add(nxt)
        out[a, b] = chain
    return out
