"""The working graph: the instance on node ids 0..n-1, shrunk in place by the
reductions, remembering for every edge the input edges it stands for."""
from __future__ import annotations

from .paths import INF, dijkstra
from .subgraph import Sub


class Work:
    """The instance on integer node ids 0..n-1, shrunk in place by reductions.

    Every working edge remembers the original edges it stands for (`orig`), so
    a tree on the reduced graph maps back to a tree on the input: contracting
    a path u-v-w yields one edge u-w standing for both original edges, and
    merging a degree-1 terminal into its neighbour moves that edge to
    `fixed_edges`, which every tree returned contains. Terminal node costs are
    paid in every tree, so they are moved into `fixed_cost` at the start and
    the working costs of terminals are zero.

    `max_deg` (tree degree bounds) restricts the reductions to those that
    keep every bound meaningful.
    """

    def __init__(self, n: int, edges, weights, cost, terminals, max_deg=None):
        self.n = n
        self.adj: list[dict[int, int]] = [dict() for _ in range(n)]
        self.ends: dict[int, tuple[int, int]] = {}
        self.w: dict[int, int] = {}
        self.orig: dict[int, tuple[int, ...]] = {}
        self.cost = list(cost)
        self.term = [False] * n
        self.alive = [True] * n
        self.fixed_edges: list[int] = []
        self.fixed_cost = 0
        self._next = 0
        self.max_deg = list(max_deg) if max_deg is not None else None
        for i, (u, v) in enumerate(edges):
            self.add_edge(u, v, weights[i], (i,))
        self.nterm = 0
        for t in terminals:
            self.make_terminal(t)

    def make_terminal(self, t: int) -> None:
        if not self.term[t]:
            self.term[t] = True
            self.nterm += 1
            self.fixed_cost += self.cost[t]
            self.cost[t] = 0

    def add_edge(self, u: int, v: int, w: int, orig: tuple[int, ...]) -> None:
        """Add edge u-v, keeping only the lighter of parallel edges."""
        if u == v:
            return
        old = self.adj[u].get(v)
        if old is not None:
            if self.w[old] <= w:
                return
            self.remove_edge(old)
        e = self._next
        self._next += 1
        self.adj[u][v] = e
        self.adj[v][u] = e
        self.ends[e] = (u, v)
        self.w[e] = w
        self.orig[e] = orig

    def remove_edge(self, e: int) -> None:
        u, v = self.ends.pop(e)
        del self.adj[u][v]
        del self.adj[v][u]
        del self.w[e]
        del self.orig[e]

    def remove_node(self, v: int) -> None:
        for e in list(self.adj[v].values()):
            self.remove_edge(e)
        self.alive[v] = False
        if self.term[v]:
            self.term[v] = False
            self.nterm -= 1

    def contract_into(self, t: int, u: int) -> None:
        """Put edge t-u in every tree and merge terminal t into u.

        u becomes a terminal (paying its cost once, as a fixed cost); the other
        edges of t are re-attached to u with their original edges unchanged.
        """
        e = self.adj[t][u]
        self.fixed_edges.extend(self.orig[e])
        self.fixed_cost += self.w[e]
        self.remove_edge(e)
        for x, f in list(self.adj[t].items()):
            w, orig = self.w[f], self.orig[f]
            self.remove_edge(f)
            self.add_edge(u, x, w, orig)
        self.remove_node(t)  # drops t from the terminal count
        self.make_terminal(u)

    def nodes(self) -> list[int]:
        return [v for v in range(self.n) if self.alive[v]]

    def terminals(self) -> list[int]:
        return [v for v in range(self.n) if self.alive[v] and self.term[v]]

    def num_edges(self) -> int:
        return len(self.w)

    def sub(self) -> tuple[Sub, list[int]]:
        """The current graph as a static `Sub`, and the working edge id of
        each of its edges."""
        eids = list(self.w)
        edges = [(self.ends[e][0], self.ends[e][1], self.w[e]) for e in eids]
        return Sub(self.nodes(), edges, self.cost, self.terminals()), eids

    def dijkstra(self, src: int, limit: float = INF, max_pops: int | None = None) -> dict[int, int]:
        """Distances d(src, x): edge weights plus costs of the nodes strictly
        between src and x. Stops at `limit` or after `max_pops` settled nodes;
        an incomplete search only overestimates, which keeps tests valid."""
        cost, adj, w = self.cost, self.adj, self.w

        def steps(x, d):
            through = d + (cost[x] if x != src else 0)
            if through >= limit:
                return ()
            return [(y, through + w[e], e) for y, e in adj[x].items()]

        dist = {src: 0}
        dijkstra([(0, src)], dist, steps, max_pops=max_pops)
        return dist
