"""Route networks of a play area: which route ends are joined, where Desert Stations are.

Nodes are route sides ``(cell, direction)``.  Inside a tile, the sides of one
route are joined; between tiles, two touching route sides are joined when the
ruleset lets them touch (railroad-railroad, highway-highway, trail-trail, and
trail to railroad/highway through a Desert Station).  The trail network keeps
only trail-to-trail joins: "connected ... only through Desert Trails".
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from solver.desert.tiles import DIRS, EMPTY, ROUTE_KINDS, TRAIL, neighbour, opposite

if TYPE_CHECKING:
    from solver.desert.area import PlayArea

Node = tuple[tuple[int, int], int]


class UnionFind:
    def __init__(self) -> None:
        self.parent: dict[Node, Node] = {}

    def add(self, a: Node) -> None:
        self.parent.setdefault(a, a)

    def find(self, a: Node) -> Node:
        p = self.parent
        root = a
        while p[root] != root:
            root = p[root]
        while p[a] != root:
            p[a], a = root, p[a]
        return root

    def union(self, a: Node, b: Node) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def desert_stations(area: "PlayArea") -> list[Node]:
    """Each Desert Station, named by its trail side: a trail side touching a railroad/highway side."""
    out = []
    for cell, placed in area.grid.items():
        t = placed.tile
        for d in DIRS:
            if t.sides[d] != TRAIL:
                continue
            other = area.grid.get(neighbour(cell, d))
            if other is not None and other.tile.sides[opposite(d)] in (ROUTE_KINDS[0], ROUTE_KINDS[1]):
                out.append((cell, d))
    return out


def build(area: "PlayArea", trail_only: bool) -> UnionFind:
    uf = UnionFind()
    parent = uf.parent
    find = uf.find
    grid = area.grid
    for cell, placed in grid.items():
        t = placed.tile
        for sides in (t.trail_route_sides if trail_only else t.route_side_lists):
            first = (cell, sides[0])
            parent.setdefault(first, first)
            for d in sides[1:]:
                node = (cell, d)
                parent.setdefault(node, node)
                uf.union(first, node)
    matches = area.ruleset.matches
    for (x, y), placed in grid.items():
        t = placed.tile
        for d, nb in ((1, (x + 1, y)), (2, (x, y + 1))):  # east and south: each border once
            other = grid.get(nb)
            if other is None:
                continue
            a, b = t.sides[d], other.tile.sides[opposite(d)]
            if a == EMPTY or b == EMPTY:
                continue
            if trail_only and not (a == TRAIL and b == TRAIL):
                continue
            if not matches(a, b):
                continue
            n1, n2 = ((x, y), d), (nb, opposite(d))
            parent.setdefault(n1, n1)
            parent.setdefault(n2, n2)
            if find(n1) != find(n2):
                uf.union(n1, n2)
    return uf


def component_counts(uf: UnionFind, nodes: Iterable[Node]) -> dict[Node, int]:
    out: dict[Node, int] = {}
    for n in nodes:
        if n in uf.parent:
            r = uf.find(n)
            out[r] = out.get(r, 0) + 1
    return out
