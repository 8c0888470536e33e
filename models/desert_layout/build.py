"""`build_model`: the CP-SAT model of a Desert solo game's layout (see the package docstring for the encoding).

One builder object holds the model and the variables every part shares (what stands on each cell, its sides,
when it was placed); each part of the model is one method, in the order the variables are made, so a part can
be read (and changed) alone while the model stays the same, variable for variable.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import NamedTuple

from ortools.sat.python import cp_model

from solver.desert.layout import Layout, PawnPlay, RoundPlay, TilePlay, token_allows
from solver.desert.missions import Challenge
from solver.desert.ruleset import Ruleset
from solver.desert.tiles import (
    DESERT,
    DIRS,
    EMPTY,
    HIGHWAY,
    PAWN_KINDS,
    RAILROAD,
    TRAIL,
    Tile,
    TileSet,
    neighbour,
    opposite,
)

from models.desert_layout.bounds import column_summary, camel_reach, line_bounds
from models.desert_layout.problem import PAIRS, Border, Cell, Item, LayoutModel, LayoutProblem, Opp, _kinds_for, _opportunities, border




def build_model(problem: LayoutProblem) -> LayoutModel:
    """The layout model of `problem`; its objective is the final score (the referee's, see the package text)."""
    b = _Builder(problem)
    b.tiles_and_columns()
    b.cells_and_sides()
    b.placement_order()
    b.inside_tile_features()
    b.pawns()
    b.pawn_points()
    b.pawn_total_bound()
    b.landmarks()
    b.stations_supply()
    b.openings()
    b.largest_rectangle()
    b.city_groups()
    b.mission()
    b.objective()
    return b.lm


class _Builder:
    """The model under construction and the variables its parts share."""

    def __init__(self, problem: LayoutProblem):
        self.problem = problem
        self.rs: Ruleset = problem.ruleset
        self.ts: TileSet = problem.tileset
        self.m = cp_model.CpModel()
        self.lm = LayoutModel(self.m, problem)
        self.cells = problem.cells
        self.cellset = set(self.cells)
        self.W, self.H = problem.width, problem.height
        rounds = sorted(o.round for o in problem.offers)
        self.last_round = max(rounds, default=0)
        # per cell: (var, oriented tile, round) of everything that may stand there
        self.at: dict[Cell, list[tuple[cp_model.IntVar, Tile, int]]] = {c: [] for c in self.cells}
        self.items: dict[Item, int] = {}
        self.placed_by: dict[tuple[Cell, int], cp_model.IntVar] = {}

    # ------------------------------------------------------------------ shared helpers
    def expr(self, c: Cell, weight, by_round: int | None = None):
        """The sum over what may stand on c of weight(tile) (placed by by_round): an int when nothing counts."""
        terms = [(weight(t), v) for v, t, r in self.at[c] if by_round is None or r <= by_round]
        return sum(w * v for w, v in terms if w)

    def boolvar(self, name: str, e) -> cp_model.IntVar:
        v = self.m.NewBoolVar(name)
        self.m.Add(v == e)
        return v

    def pb(self, c: Cell, r: int) -> cp_model.IntVar:
        """Cell c holds a tile by the end of round r."""
        if (c, r) not in self.placed_by:
            self.placed_by[(c, r)] = self.boolvar(f"placed_{c}_by{r}", self.expr(c, lambda t: 1, by_round=r))
        return self.placed_by[(c, r)]

    def per_round_max(self, f) -> int:
        """The most of f over the offered tiles, one column per round at most (an upper bound)."""
        return sum(max((sum(f(self.ts.get(t)) for t in col) for col in off.columns), default=0)
                   for off in self.problem.offers)

    def pins_offered(self, kind: str, by_round: int) -> int:
        ts = self.ts
        return sum(
            max((sum(sum(1 for p in ts.get(t).pinpoints if p.pawn == kind) for t in col) for col in off.columns), default=0)
            for off in self.problem.offers
            if off.round <= by_round
        ) + sum(1 for p in ts.start.pinpoints if p.pawn == kind)

    # ------------------------------------------------------------------ tiles offered, columns taken
    def tiles_and_columns(self) -> None:
        m, lm, problem, ts, rs = self.m, self.lm, self.problem, self.ts, self.rs
        items, at = self.items, self.at
        for off in problem.offers:
            for k, col in enumerate(off.columns):
                for tid in col:
                    it = Item(off.round, k, tid)
                    items[it] = items.get(it, 0) + 1
        for off in problem.offers:
            for k in range(len(off.columns)):
                lm.take[(off.round, k)] = m.NewBoolVar(f"take_r{off.round}_c{k}") if problem.choose_columns else m.NewConstant(1)
            # Rule: the solo player takes exactly one column each round.
            m.AddExactlyOne(lm.take[(off.round, k)] for k in range(len(off.columns)))

        # The start tile's orientation is free only if the box is not square (turning the
        # whole play area by a quarter turn changes nothing else).
        self.start_rots = [ts.start] if self.W == self.H else list(ts.start.distinct_rotations)
        for c in self.cells:
            for st in self.start_rots:
                v = m.NewBoolVar(f"start_{c}_{st.rotation}")
                lm.start[(c, st.rotation)] = v
                at[c].append((v, st, 0))
        # Rule: each player starts from one start tile.
        m.AddExactlyOne(lm.start.values())
        for it, copies in items.items():
            tt = ts.get(it.tile)
            vs = []
            for c in self.cells:
                for ot in tt.distinct_rotations:
                    v = m.NewBoolVar(f"x_{it.tile}_r{it.round}c{it.column}_{c[0]}_{c[1]}_{ot.rotation}")
                    lm.place[(it, c, ot.rotation)] = v
                    at[c].append((v, ot, it.round))
                    vs.append(v)
            # Rule: a tile is placed only from the column taken, at most once per copy
            # (taken_tiles_optional: a taken tile may be left out; else all are placed).
            if rs["taken_tiles_optional"]:
                m.Add(sum(vs) <= copies * lm.take[(it.round, it.column)])
            else:
                m.Add(sum(vs) == copies * lm.take[(it.round, it.column)])

    # ------------------------------------------------------------------ cells and sides
    def cells_and_sides(self) -> None:
        m, lm, rs, cells, cellset = self.m, self.lm, self.rs, self.cells, self.cellset
        expr, boolvar = self.expr, self.boolvar
        for c in cells:
            # Rule: one tile per cell (a tile is never placed on another).
            lm.occupied[c] = boolvar(f"occ_{c}", sum(v for v, _, _ in self.at[c]))
            lm.desert[c] = boolvar(f"desert_{c}", expr(c, lambda t: t.kind == DESERT))
            for d in DIRS:
                for kind in (RAILROAD, HIGHWAY, TRAIL, EMPTY):
                    lm.side[(c, d, kind)] = boolvar(f"side_{c}_{d}_{kind}", expr(c, lambda t, d=d, kind=kind: t.sides[d] == kind))
        self.core = {c: lm.occupied[c] - lm.desert[c] for c in cells}
        self.route_side = {(c, d): lm.side[(c, d, RAILROAD)] + lm.side[(c, d, HIGHWAY)] + lm.side[(c, d, TRAIL)]
                           for c in cells for d in DIRS}
        self.rh_side = {(c, d): lm.side[(c, d, RAILROAD)] + lm.side[(c, d, HIGHWAY)] for c in cells for d in DIRS}

        # Symmetry: the play area touches the first row and the first column of the box.
        m.Add(sum(lm.occupied[(x, 0)] for x in range(self.W)) >= 1)
        m.Add(sum(lm.occupied[(0, y)] for y in range(self.H)) >= 1)

        # Rule: touching sides must match (ruleset side_matches / empty_may_touch_route).
        kinds = (RAILROAD, HIGHWAY, TRAIL, EMPTY)
        for c in cells:
            for d in (1, 2):
                nb = neighbour(c, d)
                if nb not in cellset:
                    continue
                for a in kinds:
                    for b in kinds:
                        if not rs.matches(a, b):
                            m.AddBoolOr([lm.side[(c, d, a)].Not(), lm.side[(nb, opposite(d), b)].Not()])

    # ------------------------------------------------------------------ placement order
    def placement_order(self) -> None:
        m, lm, problem, cells, cellset = self.m, self.lm, self.problem, self.cells, self.cellset
        band = max([max(len(col) for col in off.columns) for off in problem.offers] + [1])
        for c in cells:
            rd = sum(r * v for v, _, r in self.at[c] if r)
            o = m.NewIntVar(0, band * (self.last_round + 1), f"order_{c}")
            lm.order[c] = o
            # Tiles of round r are placed after every tile of earlier rounds.
            m.Add(o >= band * rd)
            m.Add(o <= band * rd + band - 1)
            lm.first_desert[c] = m.NewBoolVar(f"first_desert_{c}")
            # Rule (Desert): only a Desert tile can be the first Desert tile.
            m.AddImplication(lm.first_desert[c], lm.desert[c])
        # Rule (Desert): there is one first Desert tile.
        m.AddAtMostOne(lm.first_desert.values())
        for c in cells:
            pars = []
            for d in DIRS:
                nb = neighbour(c, d)
                if nb not in cellset:
                    continue
                p = m.NewBoolVar(f"parent_{c}_{d}")
                lm.parent[(c, d)] = p
                pars.append(p)
                # Rule: a new tile touches the play area: its parent was there before it.
                m.AddImplication(p, lm.occupied[nb])
                m.AddImplication(p, lm.occupied[c])
                m.Add(lm.order[nb] + 1 <= lm.order[c]).OnlyEnforceIf(p)
                # Rule (Desert): "All following tiles (Core Game tile or Desert tile) must have
                # at least 1 side connected to a tile of the same kind" -- the first Desert
                # tile "can be placed freely".
                m.Add(lm.desert[c] == lm.desert[nb]).OnlyEnforceIf([p, lm.first_desert[c].Not()])
            start_here = sum(lm.start[(c, st.rotation)] for st in self.start_rots)
            m.Add(sum(pars) >= lm.occupied[c] - start_here)

    # ------------------------------------------------------------------ inside-tile features
    def inside_tile_features(self) -> None:
        """conn / tconn: the two sides of a pair are joined by one route (one trail) inside the cell's tile."""
        self.conn: dict[tuple[Cell, tuple[int, int]], cp_model.IntVar] = {}
        self.tconn: dict[tuple[Cell, tuple[int, int]], cp_model.IntVar] = {}
        for c in self.cells:
            for pair in PAIRS:
                def joined(t: Tile, pair=pair, trail=False):
                    r1, r2 = t.route_of_side[pair[0]], t.route_of_side[pair[1]]
                    if r1 is None or r1 != r2:
                        return 0
                    return int(not trail or t.sides[pair[0]] == TRAIL)
                e = self.expr(c, joined)
                if not isinstance(e, int):
                    self.conn[(c, pair)] = self.boolvar(f"conn_{c}_{pair}", e)
                e = self.expr(c, lambda t, pair=pair: joined(t, pair, True))
                if not isinstance(e, int):
                    self.tconn[(c, pair)] = self.boolvar(f"tconn_{c}_{pair}", e)

    # ------------------------------------------------------------------ pawns
    def pawns(self) -> None:
        m, lm, rs = self.m, self.lm, self.rs

        def pins_of(t: Tile, d: int, kind: str) -> int:
            return sum(1 for p in t.pinpoints if p.pawn == kind and t.routes[p.route].rep == d)

        lm.opps = _opportunities(self.problem)
        pin_cap: dict[tuple[Cell, int, str], cp_model.LinearExpr] = {}
        for c in self.cells:
            for d in DIRS:
                for kind in PAWN_KINDS:
                    e = self.expr(c, lambda t, d=d, kind=kind: pins_of(t, d, kind))
                    if not isinstance(e, int):
                        pin_cap[(c, d, kind)] = e
        # indices of the pawn variables
        by_pin: dict[tuple[Cell, int, str], list] = {}
        self.by_opp_border: dict[tuple[Opp, Border, str], list] = {}
        by_opp_kind: dict[tuple[Opp, str], list] = {}
        for o in lm.opps:
            allowed = _kinds_for(o.token, rs)
            vs = []
            for (c, d, kind) in pin_cap:
                if kind in allowed:
                    v = m.NewBoolVar(f"pawn_r{o.round}s{o.slot}_{c}_{d}_{kind}")
                    lm.pawn[(o, c, d, kind)] = v
                    vs.append(v)
                    by_pin.setdefault((c, d, kind), []).append(v)
                    self.by_opp_border.setdefault((o, border(c, d), kind), []).append(v)
                    by_opp_kind.setdefault((o, kind), []).append(v)
                    # Rule: a pawn goes on a pinpoint of a tile already in the play area
                    # (pawns are placed after the round's tiles).
                    m.AddImplication(v, self.pb(c, o.round))
            # Rule: each active token allows (at most) one pawn placement.
            if vs:
                m.AddAtMostOne(vs)
        self.placed_kind = {key: sum(vs) for key, vs in by_opp_kind.items()}
        # Rule: a pinpoint holds one pawn.
        for key, on in by_pin.items():
            m.Add(sum(on) <= pin_cap[key])
        # Rule (Desert): 13 Camel pawns.
        camels = [v for (o, c, d, k), v in lm.pawn.items() if k == "camel"]
        if len(camels) > rs["camel_pawns"]:
            m.Add(sum(camels) <= rs["camel_pawns"])

    # ------------------------------------------------------------------ flows
    def station_limits(self, b: Border, r: int | None):
        """Bounds whose minimum is 1 exactly when a Desert Station sits on border b (by round r)."""
        lm = self.lm
        (c, d) = b
        nb = neighbour(c, d)
        if c not in self.cellset or nb not in self.cellset:
            return None
        # Rule (Desert): a Desert Trail side touching a Railroad or Highway side gets a Desert Station.
        lims = [
            lm.side[(c, d, TRAIL)] + lm.side[(nb, opposite(d), TRAIL)],
            self.rh_side[(c, d)] + self.rh_side[(nb, opposite(d))],
        ]
        if r is not None:
            lims += [self.pb(c, r), self.pb(nb, r)]
        return lims

    def add_flow(self, name: str, r: int | None, trail: bool, cap: int):
        """Arc flows of one commodity over routes present by round r; returns inflow-outflow terms per border."""
        m = self.m
        net: dict[Border, list] = {b: [] for b in self.borders}
        arcs = self.tconn if trail else self.conn
        for (c, (d1, d2)), joined in arcs.items():
            for a, b in ((d1, d2), (d2, d1)):
                f = m.NewIntVar(0, cap, f"{name}_{c}_{a}{b}")
                # Flow runs only along a route drawn inside the tile (trails only for camels
                # and landmarks) ...
                m.Add(f <= cap * joined)
                # ... of a tile placed by the round of the pawn.
                if r is not None:
                    m.Add(f <= cap * self.pb(c, r))
                net[border(c, a)].append(-f)
                net[border(c, b)].append(f)
        return net

    def static_pawn_bound(self, o: Opp) -> int:
        """Most points the placement of token o can score, from the offered tiles alone."""
        rs, ts = self.rs, self.ts
        best = 0
        for k in _kinds_for(o.token, rs):
            if self.pins_offered(k, o.round) == 0:
                continue
            if k == "camel":
                # A camel's trail network holds at most camel_reach(excess) Desert Stations
                # (the trail-degree argument in bounds.py), excess summed over the tiles
                # that can be placed by then (the largest column each round).
                excess = sum(
                    max((sum(column_summary([ts.get(t)], []).trail_excess for t in col) for col in off.columns), default=0)
                    for off in self.problem.offers
                    if off.round <= o.round
                )
                best = max(best, min(rs["camel_points_cap"], rs["camel_points_per_station"] * camel_reach(excess)))
                continue
            before = sum(1 for q in self.lm.opps if (q.round, q.slot) < (o.round, o.slot) and k in _kinds_for(q.token, rs))
            same = min(1 + before, self.pins_offered(k, o.round))
            best = max(best, min(self.cap, rs["pawn_points_per_connected"] * same))
        return best

    def pawn_points(self) -> None:
        """Each pawn placement's points, by flows from the pawn to what it counts."""
        m, lm, rs = self.m, self.lm, self.rs
        self.borders: set[Border] = {border(c, d) for c in self.cells for d in DIRS}
        self.cap = cap = rs["pawn_points_cap"]
        by_opp_border, placed_kind = self.by_opp_border, self.placed_kind
        earlier_pawns: dict[tuple[Border, str], list] = {}  # pawns of opportunities before the current one
        for o in lm.opps:
            allowed = _kinds_for(o.token, rs)
            pts_terms = []
            # -- camel: "1 point for each Desert Station connected to that Camel only through Desert Trails"
            if (o, "camel") in placed_kind:
                F = max(1, rs["camel_points_cap"] // max(1, rs["camel_points_per_station"]))
                net = self.add_flow(f"camel_r{o.round}s{o.slot}", o.round, True, F)
                sinks = []
                for b in self.borders:
                    lims = self.station_limits(b, o.round)
                    inj = by_opp_border.get((o, b, "camel"), [])
                    if lims is None and not inj and not net[b]:
                        continue
                    s = 0
                    if lims is not None:
                        s = m.NewIntVar(0, 1, f"camel_station_r{o.round}s{o.slot}_{b}")
                        for lim in lims:
                            m.Add(s <= lim)
                        sinks.append(s)
                    src = 0
                    if inj:
                        src = m.NewIntVar(0, F, f"camel_src_r{o.round}s{o.slot}_{b}")
                        m.Add(src <= F * sum(inj))
                    # Conservation: what the camel sends out arrives at Desert Stations.
                    m.Add(sum(net[b]) + src == s)
                p = m.NewIntVar(0, rs["camel_points_cap"], f"pts_camel_r{o.round}s{o.slot}")
                m.Add(p <= rs["camel_points_cap"] * placed_kind[(o, "camel")])
                m.Add(p <= rs["camel_points_per_station"] * sum(sinks))
                pts_terms.append(p)
            # -- car / train / traveler: pawns of its kind in its network, itself included (assumed)
            core_kinds = [k for k in allowed if k != "camel" and (o, k) in placed_kind]
            F = max(0, cap // max(1, rs["pawn_points_per_connected"]) - 1)
            flowing = [k for k in core_kinds if F and any(key[1] == k for key in earlier_pawns)]
            sinks_by_kind: dict[str, list] = {k: [] for k in flowing}
            if flowing:
                net = self.add_flow(f"net_r{o.round}s{o.slot}", o.round, False, F)
                for b in self.borders:
                    inj = [v for k in flowing for v in by_opp_border.get((o, b, k), [])]
                    src = 0
                    if inj:
                        src = m.NewIntVar(0, F, f"src_r{o.round}s{o.slot}_{b}")
                        m.Add(src <= F * sum(inj))
                    sink_total = []
                    for k in flowing:
                        prev = earlier_pawns.get((b, k), [])
                        if prev:
                            s = m.NewIntVar(0, min(F, len(prev)), f"sink_r{o.round}s{o.slot}_{k}_{b}")
                            # A unit of flow ends at an earlier pawn of the same kind.
                            m.Add(s <= sum(prev))
                            sinks_by_kind[k].append(s)
                            sink_total.append(s)
                    if not net[b] and not inj and not sink_total:
                        continue
                    m.Add(sum(net[b]) + src == sum(sink_total))
            for k in core_kinds:
                p = m.NewIntVar(0, cap, f"pts_{k}_r{o.round}s{o.slot}")
                m.Add(p <= cap * placed_kind[(o, k)])
                reached = sum(sinks_by_kind.get(k, []))
                if k in flowing:
                    # Only the kind placed may collect flow.
                    m.Add(reached <= F * placed_kind[(o, k)])
                m.Add(p <= rs["pawn_points_per_connected"] * (placed_kind[(o, k)] + reached))
                # Redundant: never more than the pawns of its kind placed so far.
                m.Add(
                    p
                    <= rs["pawn_points_per_connected"]
                    * sum(placed_kind[(q, k)] for q in lm.opps if (q.round, q.slot) <= (o.round, o.slot) and (q, k) in placed_kind)
                )
                pts_terms.append(p)
            pt = m.NewIntVar(0, self.static_pawn_bound(o), f"pts_r{o.round}s{o.slot}")
            m.Add(pt == sum(pts_terms))
            lm.points[o] = pt
            for (oo, b, k), vs in by_opp_border.items():
                if oo == o and k != "camel":
                    earlier_pawns.setdefault((b, k), []).extend(vs)

    # ------------------------------------------------------------------ static bounds
    def pawn_total_bound(self) -> None:
        """Upper bounds from the offered tiles alone (one column per round at most); they become variable
        domains, which CP-SAT uses for the objective bound directly."""
        m, lm, rs = self.m, self.lm, self.rs
        # All placements of a kind together: no more than the tokens allowing it and the
        # pinpoints offered (a star counted for every kind it allows: still an upper bound).
        last = max([o.round for o in self.problem.offers] + [0])
        by_kind = 0
        for k in PAWN_KINDS:
            n = min(sum(1 for o in lm.opps if k in _kinds_for(o.token, rs)), self.pins_offered(k, last))
            if k == "camel":
                by_kind += n * rs["camel_points_cap"]
            else:
                by_kind += sum(min(self.cap, rs["pawn_points_per_connected"] * j) for j in range(1, n + 1))
        self.pawn_total = m.NewIntVar(0, min(by_kind, sum(self.static_pawn_bound(o) for o in lm.opps)), "pawn_points")
        m.Add(self.pawn_total == sum(lm.points.values()))

    # ------------------------------------------------------------------ landmarks
    def landmarks(self) -> None:
        m, lm, rs, ts, items = self.m, self.lm, self.rs, self.ts, self.items

        def marks_of(t: Tile, d: int, typ: str) -> int:
            return sum(1 for lmk in t.landmarks if lmk.type == typ and t.routes[lmk.route].rep == d)

        types = rs["landmark_types"]
        n_marks = sum(len(ts.get(it.tile).landmarks) * n for it, n in items.items())
        active_count = {typ: [] for typ in types}
        if n_marks:
            net = self.add_flow("landmarks", None, True, n_marks)
            for b in self.borders:
                srcs = []
                for (c, d) in ((b[0], b[1]), (neighbour(b[0], b[1]), opposite(b[1]))):
                    if c not in self.cellset:
                        continue
                    for typ in types:
                        e = self.expr(c, lambda t, d=d, typ=typ: marks_of(t, d, typ))
                        if isinstance(e, int):
                            continue
                        a = m.NewIntVar(0, n_marks, f"active_{typ}_{c}_{d}")
                        # Rule (Desert): a Landmark is Active when connected to a Desert Station.
                        m.Add(a <= e)
                        active_count[typ].append(a)
                        srcs.append(a)
                lims = self.station_limits(b, None)
                s = 0
                if lims is not None:
                    s = m.NewIntVar(0, n_marks, f"lm_station_{b}")
                    for lim in lims:
                        m.Add(s <= n_marks * lim)
                if not srcs and lims is None and not net[b]:
                    continue
                m.Add(sum(net[b]) + sum(srcs) == s)
        counts = [sum(active_count[typ]) for typ in types]
        for typ, n in zip(types, counts):
            # Redundant (for the LP bound): no more active landmarks of a type than placed.
            placed_marks = sum(
                sum(1 for lmk in ts.get(it.tile).landmarks if lmk.type == typ) * v
                for (it, c, rot), v in lm.place.items()
                if any(lmk.type == typ for lmk in ts.get(it.tile).landmarks)
            )
            if not isinstance(n, int):
                m.Add(n <= placed_marks)
        pts = rs["landmark_set_points"]
        steps = [pts[0]] + [pts[i] - pts[i - 1] for i in range(1, len(pts))]
        most = [self.per_round_max(lambda t, typ=typ: sum(1 for x in t.landmarks if x.type == typ)) for typ in types]
        best_sets = min(sum(w * n for w, n in zip(perm, most)) for perm in itertools.permutations(steps))
        self.lm_points = lm_points = m.NewIntVar(0, best_sets, "landmark_points")
        # Rule (Desert): sets of different Active Landmarks score 1/3/6/10; best split.
        for perm in itertools.permutations(steps):
            m.Add(lm_points <= sum(w * n for w, n in zip(perm, counts)))
        # Redundant (for the LP bound): a landmark is worth at most the best points per
        # landmark, those of a full set (set points grow by non-decreasing steps).
        m.Add(len(pts) * lm_points <= pts[-1] * sum(counts))

    # ------------------------------------------------------------------ stations supply
    def stations_supply(self) -> None:
        m, lm = self.m, self.lm
        st_vars = []
        for c in self.cells:
            for d in (1, 2):
                nb = neighbour(c, d)
                if nb not in self.cellset:
                    continue
                s = m.NewBoolVar(f"station_{c}_{d}")
                m.Add(s >= lm.side[(c, d, TRAIL)] + self.rh_side[(nb, opposite(d))] - 1)
                m.Add(s >= lm.side[(nb, opposite(d), TRAIL)] + self.rh_side[(c, d)] - 1)
                st_vars.append(s)
        # Rule (Desert): 40 Desert Station tokens.
        if len(st_vars) > self.rs["desert_station_tokens"]:
            m.Add(sum(st_vars) <= self.rs["desert_station_tokens"])

    # ------------------------------------------------------------------ openings
    def openings(self) -> None:
        m, lm = self.m, self.lm
        self.open_ends = []
        counted = [RAILROAD, HIGHWAY] + ([TRAIL] if self.rs["trails_are_openings"] else [])
        for c in self.cells:
            for d in DIRS:
                mine = sum(lm.side[(c, d, k)] for k in counted)
                nb = neighbour(c, d)
                op = m.NewBoolVar(f"open_{c}_{d}")
                # Rule: a railroad/highway end with no route beside it is an Opening
                # ("Desert Trails with open ends do not count").
                m.Add(op <= mine)
                if nb in self.cellset:
                    m.Add(op >= mine - self.route_side[(nb, opposite(d))])
                    m.Add(op <= 1 - self.route_side[(nb, opposite(d))])
                else:
                    m.Add(op >= mine)
                self.open_ends.append(op)

    # ------------------------------------------------------------------ largest rectangle
    def largest_rectangle(self) -> None:
        m, lm, W, H = self.m, self.lm, self.W, self.H
        in_col = [m.NewBoolVar(f"rect_col_{x}") for x in range(W)]
        in_row = [m.NewBoolVar(f"rect_row_{y}") for y in range(H)]
        for line in (in_col, in_row):
            m.AddBoolOr(line)
            # The rectangle's columns (rows) are consecutive.
            for i, j, k in itertools.combinations(range(len(line)), 3):
                m.AddBoolOr([line[i].Not(), line[k].Not(), line[j]])
        in_rect = {}
        for (x, y) in self.cells:
            v = m.NewBoolVar(f"rect_{x}_{y}")
            in_rect[(x, y)] = v
            # The rectangle is every cell of its columns x rows ...
            m.AddBoolOr([in_col[x].Not(), in_row[y].Not(), v])
            m.AddImplication(v, in_col[x])
            m.AddImplication(v, in_row[y])
            # Rule: ... and it has no gaps.
            m.AddImplication(v, lm.occupied[(x, y)])
        for x in range(W):
            for y in range(H):
                if (x, y) not in self.cellset:
                    # A cell outside the model's region holds no tile: no rectangle covers it.
                    m.AddBoolOr([in_col[x].Not(), in_row[y].Not()])
        self.rect_area = m.NewIntVar(1, min(W * H, 1 + self.per_round_max(lambda t: 1)), "rect_area")
        m.Add(self.rect_area == sum(in_rect.values()))
        # Redundant (for the LP bound): the rectangle holds at most the tiles placed.
        m.Add(self.rect_area <= sum(lm.start.values()) + sum(lm.place.values()))

    # ------------------------------------------------------------------ city groups
    def city_groups(self) -> None:
        m, rs, ts, expr = self.m, self.rs, self.ts, self.expr
        icons = {c: expr(c, lambda t: t.cities) for c in self.cells}
        icons = {c: e for c, e in icons.items() if not isinstance(e, int)}
        max_icons = max([t.cities for t in ts.tiles.values()] + [ts.start.cities, 0])
        self.city_terms = []
        if rs["city_min_group"] <= 1:
            self.city_terms = list(icons.values())
            return
        flag = {c: self.boolvar(f"city_{c}", expr(c, lambda t: int(t.cities > 0))) for c in icons}
        for c in icons:
            grouped = m.NewBoolVar(f"city_grouped_{c}")
            nbs = [neighbour(c, d) for d in DIRS if neighbour(c, d) in flag]
            # Rule (assumed): a city tile scores only in a group of at least 2 adjacent city tiles.
            m.AddImplication(grouped, flag[c])
            m.Add(grouped <= sum(flag[nb] for nb in nbs))
            g = m.NewIntVar(0, max_icons, f"city_icons_{c}")
            m.Add(g <= icons[c])
            m.Add(g <= max_icons * grouped)
            self.city_terms.append(g)

    # ------------------------------------------------------------------ the mission
    def mission(self) -> None:
        ch = self.problem.challenge
        if ch is not None and ch.mission == "boundary-in-one-line":
            self._sharp_boundary()
        elif ch is not None and ch.mission == "landmarks-one-group":
            self._lost_world(ch)
        elif ch is not None and ch.mission == "desert-pawns-touch-core":
            self._desert_of_death(ch)

    def _sharp_boundary(self) -> None:
        m, lm, cellset = self.m, self.lm, self.cellset
        sel_col = [m.NewBoolVar(f"boundary_col_{x}") for x in range(self.W)]
        sel_row = [m.NewBoolVar(f"boundary_row_{y}") for y in range(self.H)]
        m.AddExactlyOne(sel_col + sel_row)
        for c in self.cells:
            bnd = m.NewBoolVar(f"boundary_{c}")
            for d in DIRS:
                nb = neighbour(c, d)
                if nb in cellset:
                    m.Add(bnd >= lm.desert[c] + self.core[nb] - 1)
            # Mission (Sharp Boundary): "All Desert tiles that are adjacent to regular Route
            # tiles are in a single row (or column)".
            m.AddBoolOr([bnd.Not(), sel_col[c[0]], sel_row[c[1]]])

    def _lost_world(self, ch: Challenge) -> None:
        m, lm, cells = self.m, self.lm, self.cells
        marked = {c: self.expr(c, lambda t: int(bool(t.landmarks))) for c in cells}
        marked = {c: self.boolvar(f"marked_{c}", e) for c, e in marked.items() if not isinstance(e, int)}
        # reading lost_world_group: the group runs through Landmark tiles only (default), or
        # through any Desert tiles ("desert-tiles"; Landmarks sit on Desert tiles only)
        via = marked if ch.group != "desert-tiles" else {c: lm.desert[c] for c in cells
                                                          if not (isinstance(lm.desert[c], int) and not lm.desert[c])}
        if not marked:
            return
        M = len(marked)
        root = {c: m.NewBoolVar(f"lw_root_{c}") for c in marked}
        m.AddAtMostOne(root.values())
        bal: dict[Cell, list] = {c: [] for c in via}
        for c in marked:
            m.AddImplication(root[c], marked[c])
            # A root exists when any Landmark tile does.
            m.Add(sum(root.values()) >= marked[c])
        for c in via:
            for d in DIRS:
                nb = neighbour(c, d)
                if nb in via:
                    f = m.NewIntVar(0, M, f"lw_flow_{c}_{d}")
                    m.Add(f <= M * via[c])
                    m.Add(f <= M * via[nb])
                    bal[c].append(-f)
                    bal[nb].append(f)
        for c in via:
            src = m.NewIntVar(0, M, f"lw_src_{c}") if c in marked else 0
            if c in marked:
                m.Add(src <= M * root[c])
            # Mission (The Lost World): "Every Landmark in your play area is part of a
            # single orthogonally adjacent group": one unit reaches every Landmark tile
            # from the root through Landmark tiles only (or Desert tiles, by the reading);
            # a tile on the way without a Landmark passes on what it receives.
            m.Add(sum(bal[c]) + src == (marked[c] if c in marked else 0))

    def _desert_of_death(self, ch: Challenge) -> None:
        m, lm = self.m, self.lm
        for c in self.cells:
            holds = [v for (o, cc, d, k), v in lm.pawn.items() if cc == c and k in ch.pawn_kinds]
            if not holds:
                continue
            nbs = [neighbour(c, d) for d in DIRS if neighbour(c, d) in self.cellset]
            for v in holds:
                # Mission (Desert of Death): "Each Desert tile containing a pawn (Car, Traveler,
                # or Camel) must be orthogonally adjacent to at least 1 regular Route tile."
                m.Add(sum(self.core[nb] for nb in nbs) >= 1).OnlyEnforceIf([v, lm.desert[c]])

    # ------------------------------------------------------------------ objective
    def objective(self) -> None:
        m, lm, rs, ts, problem = self.m, self.lm, self.rs, self.ts, self.problem
        city_terms = self.city_terms
        city_points = m.NewIntVar(0, self.per_round_max(lambda t: t.cities) + ts.start.cities, "city_icons_scoring")
        m.Add(city_points == sum(city_terms))
        if city_terms:
            # Redundant (for the LP bound): no more city icons score than are placed.
            m.Add(city_points <= sum(ts.get(it.tile).cities * v for (it, c, rot), v in lm.place.items() if ts.get(it.tile).cities))
        lm.terms = {
            "pawns": self.pawn_total,
            "rectangle": rs["rectangle_points_per_tile"] * self.rect_area,
            "cities": rs["city_points_per_icon"] * city_points,
            "landmarks": self.lm_points,
            "openings": -rs["openings_penalty"] * sum(self.open_ends),
        }
        lm.objective = sum(lm.terms.values())
        # Redundant (for the bound): the combinatorial per-line bounds of bounds.py, which hold
        # for every legal layout of every column choice inside the box (argument there); the
        # model's lines never exceed the referee's, so these cut off no solution.
        lb = line_bounds(ts, rs, [off.columns for off in problem.offers], [off.tokens for off in problem.offers],
                         (self.W, self.H))
        lm.line_bounds = lb
        m.Add(lm.objective <= lb.total)
        for key, term in lm.terms.items():
            if key in lb.lines and not isinstance(term, int):
                m.Add(term <= lb.lines[key])
        m.Maximize(lm.objective)
