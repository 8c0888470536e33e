"""A static snapshot of the working graph, on which the heuristics, the
bounds and the exact models run."""
from __future__ import annotations

from typing import Iterable

from .paths import adjacency, prune_leaves, reach


class Sub:
    """A small static graph: nodes, edges (u, v, w) by index, node costs."""

    def __init__(self, nodes, edges, cost, terminals):
        self.nodes = list(nodes)
        self.edges = list(edges)
        self.cost = cost
        self.terminals = list(terminals)
        self.adj: dict[int, list[tuple[int, int]]] = {v: [] for v in self.nodes}
        for i, (u, v, _w) in enumerate(self.edges):
            self.adj[u].append((v, i))
            self.adj[v].append((u, i))

    def value(self, tree: Iterable[int]) -> int:
        tree = list(tree)
        nodes = set(self.terminals[:1])
        for i in tree:
            nodes.add(self.edges[i][0])
            nodes.add(self.edges[i][1])
        return sum(self.edges[i][2] for i in tree) + sum(self.cost[v] for v in nodes)

    def other(self, i: int, x: int) -> int:
        u, v, _ = self.edges[i]
        return v if u == x else u

    def prune(self, tree: list[int]) -> list[int]:
        """Drop non-terminal leaves repeatedly (their cost is never negative)."""
        return prune_leaves(tree, lambda i: self.edges[i][:2], set(self.terminals))

    def connected(self) -> bool:
        """True if the whole graph joins all terminals."""
        if not self.terminals:
            return True
        seen = reach(self.terminals[:1], lambda x: (y for y, _ in self.adj[x]))
        return all(t in seen for t in self.terminals)

    def spans(self, tree: list[int]) -> bool:
        """True if the edges `tree` connect all terminals."""
        adj = adjacency(self.edges[i] for i in tree)
        seen = reach(self.terminals[:1], lambda x: adj.get(x, ()))
        return all(t in seen for t in self.terminals)
