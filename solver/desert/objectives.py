"""The sheet's three Desert objectives as scoring conditions (games that use objective tiles).

"Desert Temple: The Desert Temple must be connected to at least 4 Landmarks.
 Desert Market: The Desert Market must be part of a continuous path with at least 5
 connected Desert Trail segments; in case of looping paths, the same Desert Trail segment
 cannot be counted more than once.
 Great Oasis: The Great Oasis must have at least 2 Camels in the tiles that surround it.
 This tile counts as an Oasis Landmark."

Each objective tile placed scores ``objective_points`` when its condition holds (assumed:
the core rules' points are not available).  The Great Oasis is an Oasis Landmark through
its catalogue drawing (the loader insists on it), so the landmark sets and the Temple count
it like any other.  The solo challenges use no objective tiles (ruleset objectives_used).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from solver.desert import network
from solver.desert.tiles import DIRS, TRAIL, neighbour, opposite

if TYPE_CHECKING:
    from solver.desert.area import PlayArea

Cell = tuple[int, int]


def judge(area: "PlayArea") -> list[dict]:
    """Every objective tile placed: where, which, met or not (and why), points."""
    out = []
    for cell, placed in sorted(area.grid.items()):
        kind = placed.tile.objective
        if not kind:
            continue
        met, why = {"desert-temple": temple, "desert-market": market, "great-oasis": great_oasis}[kind](area, cell)
        out.append({"at": list(cell), "objective": kind, "met": met, "reason": why,
                    "points": area.ruleset["objective_points"] if met else 0})
    return out


def points(area: "PlayArea") -> int:
    if not any(p.tile.objective for p in area.grid.values()):
        return 0
    return sum(o["points"] for o in judge(area))


def temple(area: "PlayArea", cell: Cell) -> tuple[bool, str]:
    """Landmarks (active or not) whose route is in the network of one of the Temple's routes."""
    need = area.ruleset["temple_landmarks"]
    uf = network.build(area, trail_only=False)
    tile = area.grid[cell].tile
    roots = {uf.find((cell, rt.rep)) for rt in tile.routes if (cell, rt.rep) in uf.parent}
    n = 0
    for c, p in area.grid.items():
        for lm in p.tile.landmarks:
            node = (c, p.tile.routes[lm.route].rep)
            if node in uf.parent and uf.find(node) in roots:
                n += 1
    return n >= need, f"connected to {n} Landmark{'' if n == 1 else 's'} (needs {need})"


def _segments(area: "PlayArea") -> dict[tuple[Cell, int], set[tuple[Cell, int]]]:
    """The Desert Trail segments (one tile's trail route) and which touch which across a side."""
    graph: dict[tuple[Cell, int], set[tuple[Cell, int]]] = {}
    for cell, p in area.grid.items():
        t = p.tile
        for i, rt in enumerate(t.routes):
            if all(t.sides[d] == TRAIL for d in rt.sides):
                graph.setdefault((cell, i), set())
    for (cell, i) in list(graph):
        t = area.grid[cell].tile
        for d in t.routes[i].sides:
            nb = neighbour(cell, d)
            other = area.grid.get(nb)
            if other is None or other.tile.sides[opposite(d)] != TRAIL:
                continue
            j = other.tile.route_of_side[opposite(d)]
            if j is not None and (nb, j) in graph:
                graph[(cell, i)].add((nb, j))
    return graph


def longest_path_through(graph: dict, start, enough: int) -> int:
    """The most distinct segments on one path through ``start`` (stops counting at ``enough``):
    a simple path, so a loop counts each segment once."""
    best = 1

    def ends(node, used: frozenset, length: int, other_side: bool):
        nonlocal best
        best = max(best, length)
        if best >= enough:
            return
        for nxt in sorted(graph[node]):
            if nxt not in used:
                ends(nxt, used | {nxt}, length + 1, other_side)
                if best >= enough:
                    return
        if not other_side:
            # this arm ends here: grow the other arm from the start, past the segments used
            for nxt in sorted(graph[start]):
                if nxt not in used:
                    ends(nxt, used | {nxt}, length + 1, True)
                    if best >= enough:
                        return

    ends(start, frozenset({start}), 1, False)
    return best


def market(area: "PlayArea", cell: Cell) -> tuple[bool, str]:
    need = area.ruleset["market_trail_segments"]
    graph = _segments(area)
    mine = [s for s in graph if s[0] == cell]
    longest = max((longest_path_through(graph, s, need) for s in mine), default=0)
    return longest >= need, (f"a path of {longest} Desert Trail segment{'' if longest == 1 else 's'} through it"
                             f"{' (at least)' if longest >= need else ''}, each counted once (needs {need})")


def great_oasis(area: "PlayArea", cell: Cell) -> tuple[bool, str]:
    rs = area.ruleset
    need = rs["great_oasis_camels"]
    if rs["great_oasis_surround"] == "four":
        around = {neighbour(cell, d) for d in DIRS}
    else:
        around = {(cell[0] + dx, cell[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)}
    n = sum(1 for p in area.pawns if p.kind == "camel" and p.cell in around)
    return n >= need, (f"{n} camel{'' if n == 1 else 's'} on the {len(around)} tiles around it (needs {need}) "
                       f"[reading great-oasis-surround {rs['great_oasis_surround']}]")
