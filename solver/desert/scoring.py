"""Points: pawn placements (when placed) and the end-of-game score, line by line.

Every value comes from the ruleset; see its file for which are assumed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from solver.desert import network, objectives
from solver.desert.tiles import DESERT, DIRS, EMPTY, HIGHWAY, RAILROAD, TRAIL, neighbour, opposite, orthogonal_groups

if TYPE_CHECKING:
    from solver.desert.area import Pawn, PlayArea

Cell = tuple[int, int]


def pawn_node(area: "PlayArea", pawn: "Pawn") -> network.Node:
    tile = area.grid[pawn.cell].tile
    route = tile.routes[tile.pinpoints[pawn.pinpoint].route]
    return (pawn.cell, route.rep)


def pawn_points(area: "PlayArea", pawn: "Pawn") -> int:
    """Points of ``pawn`` placed now (it is not yet in ``area.pawns``)."""
    rs = area.ruleset
    node = pawn_node(area, pawn)
    if pawn.kind == "camel":
        # "1 point for each Desert Station connected to that Camel only through Desert Trails"
        uf = network.build(area, trail_only=True)
        root = uf.find(node)
        stations = [s for s in network.desert_stations(area) if s in uf.parent and uf.find(s) == root]
        return min(rs["camel_points_cap"], rs["camel_points_per_station"] * len(stations))
    # car / train / traveler: pawns of its kind in its network, itself included (assumed)
    uf = network.build(area, trail_only=False)
    root = uf.find(node)
    same = 1 + sum(1 for p in area.pawns if p.kind == pawn.kind and uf.find(pawn_node(area, p)) == root)
    return min(rs["pawn_points_cap"], rs["pawn_points_per_connected"] * same)


def largest_rectangle(cells: set[Cell]) -> tuple[int, tuple[int, int, int, int] | None]:
    """Area and (x0, y0, x1, y1) of the largest rectangle of occupied cells."""
    if not cells:
        return 0, None
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    heights = {x: 0 for x in range(x0, x1 + 1)}
    best, rect = 0, None
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            heights[x] = heights[x] + 1 if (x, y) in cells else 0
        stack: list[int] = []  # x positions with increasing heights
        for x in range(x0, x1 + 2):
            h = heights[x] if x <= x1 else 0
            while stack and heights[stack[-1]] >= h:
                top = stack.pop()
                left = stack[-1] + 1 if stack else x0
                area = heights[top] * (x - left)
                if area > best:
                    best, rect = area, (left, y - heights[top] + 1, x - 1, y)
            if x <= x1:
                stack.append(x)
    return best, rect


def landmark_sets(counts: dict[str, int], set_points: list[int]) -> tuple[int, list[list[str]]]:
    """Best split of active landmarks into sets of different types.

    Sets are formed greedily, each as large as possible; with points growing by
    non-decreasing steps (1, 3, 6, 10) this is optimal (the ruleset loader checks
    the steps)."""
    left = {k: v for k, v in counts.items() if v > 0}
    sets: list[list[str]] = []
    while left:
        s = sorted(left)
        sets.append(s)
        for k in s:
            left[k] -= 1
            if left[k] == 0:
                del left[k]
    return sum(set_points[len(s) - 1] for s in sets), sets


@dataclass
class Line:
    key: str
    label: str
    points: int
    detail: str


@dataclass
class ScoreReport:
    lines: list[Line] = field(default_factory=list)
    facts: dict = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(line.points for line in self.lines)

    def to_json(self) -> dict:
        return {
            "total": self.total,
            "lines": [{"key": l.key, "label": l.label, "points": l.points, "detail": l.detail} for l in self.lines],
            "facts": self.facts,
        }


def active_landmarks(area: "PlayArea") -> tuple[list[tuple[Cell, str, bool]], int]:
    """Every landmark (cell, type, active) and the number of Desert Stations."""
    uf = network.build(area, trail_only=True)
    stations = network.desert_stations(area)
    roots = {uf.find(s) for s in stations}
    out = []
    for cell, placed in sorted(area.grid.items()):
        t = placed.tile
        for lm in t.landmarks:
            node = (cell, t.routes[lm.route].rep)
            out.append((cell, lm.type, node in uf.parent and uf.find(node) in roots))
    return out, len(stations)


def openings(area: "PlayArea") -> list[tuple[Cell, int]]:
    """Railroad/highway ends that lead nowhere (and trails too if the ruleset says so)."""
    rs = area.ruleset
    counted = {RAILROAD, HIGHWAY} | ({TRAIL} if rs["trails_are_openings"] else set())
    out = []
    for cell, placed in area.grid.items():
        for d in DIRS:
            s = placed.tile.sides[d]
            if s not in counted:
                continue
            other = area.grid.get(neighbour(cell, d))
            if other is None or other.tile.sides[opposite(d)] == EMPTY:
                out.append((cell, d))
    return sorted(out)


def city_groups(area: "PlayArea") -> list[list[Cell]]:
    return orthogonal_groups({c for c, p in area.grid.items() if p.tile.cities > 0})


def score_total(area: "PlayArea") -> int:
    """``final_score(area).total`` without the report (the policies value thousands of
    trial areas a game); a test holds the two equal."""
    rs = area.ruleset
    total = sum(p.points for p in area.pawns)
    total += largest_rectangle(set(area.grid))[0] * rs["rectangle_points_per_tile"]
    for g in city_groups(area):
        if len(g) >= rs["city_min_group"]:
            total += sum(area.grid[c].tile.cities for c in g) * rs["city_points_per_icon"]
    if any(p.tile.landmarks for p in area.grid.values()):
        counts: dict[str, int] = {}
        for _, typ, act in active_landmarks(area)[0]:
            if act:
                counts[typ] = counts.get(typ, 0) + 1
        total += landmark_sets(counts, rs["landmark_set_points"])[0]
    total -= rs["openings_penalty"] * len(openings(area))
    total += objectives.points(area)
    return total


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _and(vals) -> str:
    vals = [str(v) for v in vals]
    return vals[0] if len(vals) == 1 else ", ".join(vals[:-1]) + " and " + vals[-1]


def final_score(area: "PlayArea") -> ScoreReport:
    rs = area.ruleset
    rep = ScoreReport()
    # pawn placements, as scored when placed
    by_kind: dict[str, list[int]] = {}
    for p in area.pawns:
        by_kind.setdefault(p.kind, []).append(p.points)
    for kind in ("car", "train", "traveler", "camel"):
        if kind in by_kind:
            pts = by_kind[kind]
            rep.lines.append(
                Line(f"pawns.{kind}", f"{kind} placements", sum(pts), f"{len(pts)} placed: " + " + ".join(map(str, pts)))
            )
    if not by_kind:
        rep.lines.append(Line("pawns", "pawn placements", 0, "no pawn placed"))
    # largest rectangle
    size, rect = largest_rectangle(set(area.grid))
    detail = "no tile"
    if rect:
        w, h = rect[2] - rect[0] + 1, rect[3] - rect[1] + 1
        detail = f"{w}x{h} = {size} tiles, x {rect[0]}..{rect[2]}, y {rect[1]}..{rect[3]}; {rs['rectangle_points_per_tile']} per tile"
    rep.lines.append(Line("rectangle", "largest rectangle", size * rs["rectangle_points_per_tile"], detail))
    rep.facts["rectangle"] = {"tiles": size, "box": list(rect) if rect else None}
    # city groups
    pts, scoring_groups = 0, []
    for g in city_groups(area):
        if len(g) >= rs["city_min_group"]:
            icons = sum(area.grid[c].tile.cities for c in g)
            pts += icons * rs["city_points_per_icon"]
            scoring_groups.append(len(g))
    rep.lines.append(
        Line(
            "cities",
            "city groups",
            pts,
            f"{_count(len(scoring_groups), 'group')} of "
            + _and(sorted(scoring_groups, reverse=True)) + f" tiles score (at least {rs['city_min_group']} tiles, "
            f"{rs['city_points_per_icon']} per icon)"
            if scoring_groups
            else f"no group of at least {rs['city_min_group']} city tiles",
        )
    )
    # landmarks
    lms, n_stations = active_landmarks(area)
    counts: dict[str, int] = {}
    for _, typ, act in lms:
        if act:
            counts[typ] = counts.get(typ, 0) + 1
    lm_pts, sets = landmark_sets(counts, rs["landmark_set_points"])
    n_active = sum(counts.values())
    rep.lines.append(
        Line(
            "landmarks",
            "landmarks",
            lm_pts,
            f"{_count(len(lms), 'landmark')}, {n_active} active; sets "
            + (", ".join(f"{'+'.join(s)} -> {rs['landmark_set_points'][len(s) - 1]}" for s in sets) if sets else "none"),
        )
    )
    rep.facts["landmarks"] = {"total": len(lms), "active": counts, "sets": sets, "desert_stations": n_stations}
    # openings
    ops = openings(area)
    rep.lines.append(
        Line(
            "openings",
            "openings",
            -rs["openings_penalty"] * len(ops),
            f"{len(ops)} open railroad/highway end{'' if len(ops) == 1 else 's'}, -{rs['openings_penalty']} each "
            "(desert trails not counted)",
        )
    )
    rep.facts["openings"] = len(ops)
    # objectives (only when objective tiles are placed; never in the solo challenges)
    judged = objectives.judge(area)
    if judged:
        met = [o for o in judged if o["met"]]
        rep.lines.append(Line("objectives", "objectives", sum(o["points"] for o in judged),
                              "; ".join(f"{o['objective']} at ({o['at'][0]}, {o['at'][1]}) "
                                        f"{'met' if o['met'] else 'NOT met'}: {o['reason']}" for o in judged)
                              + f" ({len(met)} met, {rs['objective_points']} each)"))
        rep.facts["objectives"] = judged
    rep.facts["tiles"] = len(area.grid)
    rep.facts["desert_tiles"] = sum(1 for p in area.grid.values() if p.tile.kind == DESERT)
    return rep
