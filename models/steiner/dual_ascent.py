"""Lower bounds by Wong's dual ascent, the heuristic it guides, and the
reduced-cost tests it enables."""
from __future__ import annotations

import heapq
from typing import Iterable

from .paths import INF, Infeasible, dijkstra, past, reach
from .subgraph import Sub
from .work import Work


class Digraph:
    """The bidirected version of a `Sub` on local indices 0..n-1.

    Arc u->v costs w(uv) + cost(v): every node of a tree rooted at a
    terminal, except the root, has exactly one entering arc, so this charges
    node costs exactly once (terminals cost 0 in the working graph). Edge i
    gives arcs 2i (u->v) and 2i+1 (v->u).
    """

    def __init__(self, sub: Sub):
        self.index = {v: i for i, v in enumerate(sub.nodes)}
        self.n = len(sub.nodes)
        self.tail: list[int] = []
        self.head: list[int] = []
        self.cost: list[int] = []
        self.into: list[list[int]] = [[] for _ in range(self.n)]
        self.out: list[list[int]] = [[] for _ in range(self.n)]
        for i, (u, v, w) in enumerate(sub.edges):
            a, b = self.index[u], self.index[v]
            for s, h, node in ((a, b, v), (b, a, u)):
                arc = len(self.tail)
                self.tail.append(s)
                self.head.append(h)
                self.cost.append(w + sub.cost[node])
                self.out[s].append(arc)
                self.into[h].append(arc)
        self.terms = [self.index[t] for t in sub.terminals]

    def dual_ascent(self, root: int, cuts: list | None = None) -> tuple[int, list[int]]:
        """Wong's dual ascent for the directed cut relaxation.

        Repeatedly takes the terminal whose zero-reduced-cost component (the
        nodes that reach it through saturated arcs) is smallest and does not
        contain the root yet, and raises the dual of that cut by the least
        reduced cost of its entering arcs. All costs are integers, so the
        bound is exact integer arithmetic. Returns (lower bound, reduced
        costs); every tree costs at least bound + its arcs' reduced costs.
        Components only grow, so each is kept and extended in place.
        If `cuts` is a list, the node sets of the raised cuts are appended
        (they make a good starting set of rows for the cut LP).
        """
        rc = list(self.cost)
        tail, into = self.tail, self.into
        lb = 0
        comps: dict[int, set[int]] = {}
        # arcs that entered the component when last looked at; arcs whose tail
        # has joined since are filtered out lazily
        ent: dict[int, list[int]] = {}
        heap: list[tuple[int, int]] = []

        def grow(t: int, start: Iterable[int]) -> None:
            comp, arcs = comps[t], ent[t]

            def saturated_tails(x):
                found = []
                for a in into[x]:
                    y = tail[a]
                    if y in comp:
                        continue
                    if rc[a] == 0:
                        found.append(y)
                    else:
                        arcs.append(a)
                return found

            reach(start, saturated_tails, seen=comp)

        for t in self.terms:
            if t == root:
                continue
            comps[t] = set()
            ent[t] = []
            grow(t, [t])
            heapq.heappush(heap, (len(comps[t]), t))
        while heap:
            size, t = heapq.heappop(heap)
            comp = comps[t]
            while True:
                # raises for other terminals may have saturated arcs into comp
                entering = [a for a in ent[t] if tail[a] not in comp]
                ent[t] = entering
                zero = [tail[a] for a in entering if rc[a] == 0]
                if not zero:
                    break
                grow(t, zero)
            if root in comp:
                continue
            if len(comp) != size:
                heapq.heappush(heap, (len(comp), t))
                continue
            if not entering:
                raise Infeasible()
            delta = min(rc[a] for a in entering)
            lb += delta
            if cuts is not None and delta > 0:
                cuts.append(frozenset(comp))
            newly = []
            for a in entering:
                rc[a] -= delta
                if rc[a] == 0:
                    newly.append(tail[a])
            grow(t, newly)
            heapq.heappush(heap, (len(comp), t))
        return lb, rc

    def distances(self, weights: list, sources: list[int], reverse: bool = False) -> list[float]:
        """Shortest distances from `sources` along arcs (against them with
        `reverse`) priced by `weights`."""
        heap = [(0, s) for s in sources]
        heapq.heapify(heap)
        nbr = self.into if reverse else self.out
        ends = self.tail if reverse else self.head
        dist = {s: 0 for s in sources}
        dijkstra(heap, dist, lambda x, d: ((ends[a], d + weights[a], None) for a in nbr[x]))
        return [dist.get(v, INF) for v in range(self.n)]

    def saturated_reach(self, rc: list[int], root: int) -> set[int]:
        """Nodes reachable from the root through arcs of zero reduced cost; they
        hold a tree of the dual-ascent's support, a good place for a heuristic."""
        return reach([root], lambda x: (self.head[a] for a in self.out[x] if rc[a] == 0))


def eliminate(wk: Work, sub: Sub, eids: list[int], dg: Digraph, runs, threshold: float,
              deadline: float | None = None) -> int:
    """Reduced-cost tests: drop what only trees of weight > threshold could use.

    For a dual-ascent run with bound L and reduced costs rc, a tree using arc
    u->v costs at least L + dist_rc(root, u) + rc(u->v) + dist_rc(v, terminal)
    (the three parts are arc-disjoint in a tree rooted at the root whose
    leaves are terminals). A node statement holds for any tree; an arc
    statement only for trees rooted at that run's root. A non-terminal is
    dropped alike with L + dist(root, v) + dist(v, terminal). The caller sets
    threshold = incumbent - 1 (plus a float margin for LP duals): with integer
    data such trees are no better than the incumbent, which we already hold.
    Past the deadline the remaining runs are skipped (removing less is safe).
    """
    if threshold == INF:
        return 0
    node_gone = [False] * dg.n
    edge_gone = [False] * len(eids)
    for root, lb, rc in runs:
        if past(deadline):
            break
        dr = dg.distances(rc, [root])
        dt = dg.distances(rc, [t for t in dg.terms if t != root], reverse=True)
        for v in range(dg.n):
            if lb + dr[v] + dt[v] > threshold:
                node_gone[v] = True
        # An arc statement holds for trees rooted at this run's root only, so
        # an edge goes when both of its arcs fail in the same run.
        tail, head = dg.tail, dg.head
        for i in range(len(eids)):
            a, b = 2 * i, 2 * i + 1
            if (lb + dr[tail[a]] + rc[a] + dt[head[a]] > threshold
                    and lb + dr[tail[b]] + rc[b] + dt[head[b]] > threshold):
                edge_gone[i] = True
    removed = 0
    terms = set(dg.terms)
    for v in range(dg.n):
        if node_gone[v] and v not in terms:
            wk.remove_node(sub.nodes[v])
            removed += 1
    for i, e in enumerate(eids):
        if edge_gone[i] and e in wk.w:
            wk.remove_edge(e)
            removed += 1
    return removed
