"""Upper bounds: the shortest-path heuristic, its polish by minimum spanning
trees and key-path exchange, and the incumbent that keeps the best tree."""
from __future__ import annotations

from typing import Iterable

from .paths import INF, adjacency, dijkstra, past, reach
from .subgraph import Sub
from .work import Work


def sph(sub: Sub, root: int, weights: list[float] | None = None, allowed: set | None = None) -> list[int] | None:
    """Shortest-path heuristic (Takahashi-Matsuyama) with node costs.

    Grows a tree from `root`, each time adding the cheapest path to the
    nearest unconnected terminal. Distances are kept between rounds and
    only lowered from the newly added nodes, so one round costs a partial
    Dijkstra instead of a full one. `weights` may replace edge weights
    (used to steer the heuristic with LP values); `allowed` restricts
    the tree to a node set (e.g. the saturated arcs of a dual ascent).
    """
    w = [e[2] for e in sub.edges] if weights is None else weights
    cost, adj = sub.cost, sub.adj
    dist: dict[int, float] = {root: 0}
    pred: dict[int, int] = {}
    in_tree = {root}
    tree: list[int] = []
    remaining = set(sub.terminals) - {root}

    def steps(x, d):  # a list, not a generator: this is the hot loop
        return [(y, d + w[i] + (0 if y in in_tree else cost[y]), i)
                for y, i in adj[x] if allowed is None or y in allowed]

    dijkstra([(0, root)], dist, steps, pred=pred)
    while remaining:
        t = min(remaining, key=lambda z: dist.get(z, INF))
        if dist.get(t, INF) == INF:
            return None
        new = []
        x = t
        while x not in in_tree:
            i = pred[x]
            tree.append(i)
            in_tree.add(x)
            dist[x] = 0
            new.append(x)
            x = sub.other(i, x)
        remaining -= in_tree
        dijkstra([(0, s) for s in new], dist, steps, pred=pred)
    return improve(sub, tree)


def improve(sub: Sub, tree: list[int]) -> list[int]:
    """Re-span the tree's nodes by a minimum spanning tree of the induced
    subgraph and prune non-terminal leaves, until nothing changes."""
    terms = set(sub.terminals)
    best = list(tree)
    best_val = sub.value(best)
    while True:
        nodes = set(terms)
        for i in best:
            nodes.add(sub.edges[i][0])
            nodes.add(sub.edges[i][1])
        cand = sorted(
            (i for v in nodes for (y, i) in sub.adj[v] if y in nodes and sub.edges[i][0] == v),
            key=lambda i: sub.edges[i][2],
        )
        parent = {v: v for v in nodes}

        def find(a):
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        mst = []
        for i in cand:
            a, b = find(sub.edges[i][0]), find(sub.edges[i][1])
            if a != b:
                parent[a] = b
                mst.append(i)
        mst = sub.prune(mst)
        val = sub.value(mst)
        if val < best_val:
            best, best_val = mst, val
        else:
            return best


def key_path_exchange(sub: Sub, tree: list[int], rounds: int = 3) -> list[int]:
    """Local search: replace a key path by a cheaper connection.

    A key path is a path of the tree between key nodes (terminals and
    nodes of tree degree >= 3) whose inner nodes are plain degree-2
    Steiner nodes. Removing it splits the tree in two; if the cheapest
    path joining the two parts (node costs of new nodes included) is
    lighter than the key path, swap them. Repeats while it helps.
    """
    terms = set(sub.terminals)
    tree = list(tree)
    for _ in range(rounds):
        improved = False
        inc: dict[int, list[int]] = {}
        for i in tree:
            for x in sub.edges[i][:2]:
                inc.setdefault(x, []).append(i)
        key = [x for x in inc if x in terms or len(inc[x]) >= 3]
        seen_edges: set[int] = set()
        paths = []
        for x in key:
            for i in inc[x]:
                if i in seen_edges:
                    continue
                path_edges, inner = [i], []
                seen_edges.add(i)
                cur = sub.other(i, x)
                while cur not in terms and len(inc[cur]) == 2:
                    inner.append(cur)
                    nxt_e = inc[cur][0] if inc[cur][0] != path_edges[-1] else inc[cur][1]
                    path_edges.append(nxt_e)
                    seen_edges.add(nxt_e)
                    cur = sub.other(nxt_e, cur)
                paths.append((path_edges, inner))
        tree_set = set(tree)
        touched: set[int] = set()  # ends of swapped-in paths gained edges
        for path_edges, inner in paths:
            if not tree_set.issuperset(path_edges) or not touched.isdisjoint(inner):
                continue
            weight = sum(sub.edges[i][2] for i in path_edges) + sum(sub.cost[v] for v in inner)
            if weight == 0:
                continue
            rest = tree_set.difference(path_edges)
            swap = _reconnect(sub, rest, set(inner), weight)
            if swap is not None:
                # a later path is still a key path of the new tree unless
                # the new path hangs off one of its inner nodes
                tree_set = rest | set(swap)
                for i in swap:
                    touched.update(sub.edges[i][:2])
                improved = True
        tree = sub.prune(list(tree_set))
        if not improved:
            break
    return tree


def _reconnect(sub: Sub, rest: set[int], freed: set[int], limit: int) -> list[int] | None:
    """Cheapest path joining the two components of `rest`, if below `limit`."""
    adj_t = adjacency(sub.edges[i] for i in rest)
    nodes = set(adj_t) | (set(sub.terminals) - freed)
    if not nodes:
        return None
    comp = reach([next(iter(nodes))], lambda x: adj_t.get(x, ()))
    other = nodes - comp
    if not other:
        return None
    if len(other) < len(comp):  # search from the smaller side: fewer nodes in range
        comp, other = other, comp

    def steps(x, d):
        if d >= limit:
            return
        for y, i in sub.adj[x]:
            yield y, d + sub.edges[i][2] + (0 if y in nodes else sub.cost[y]), i

    pred: dict[int, int] = {}
    x = dijkstra([(0, x) for x in comp], {x: 0 for x in comp}, steps, pred=pred,
                 goal=lambda x, d: d < limit and x in other)
    if x is None:
        return None
    path = []
    while x not in comp:
        i = pred[x]
        path.append(i)
        x = sub.other(i, x)
    return path


def best_sph(sub: Sub, roots: Iterable[int], deadline: float | None = None) -> tuple[int, list[int]] | None:
    """The lightest shortest-path heuristic tree over several roots (past
    the deadline, the first tree found)."""
    best = None
    for r in roots:
        if best is not None and past(deadline):
            break
        tree = sph(sub, r)
        if tree is None:
            return None
        val = sub.value(tree)
        if best is None or val < best[0]:
            best = (val, tree)
    return best


class Incumbent:
    """Best tree found so far, kept as original edge indices with its total."""

    def __init__(self):
        self.value: int | None = None
        self.orig: set[int] = set()

    def offer(self, wk: Work, sub: Sub, eids: list[int], tree: list[int] | None) -> bool:
        if tree is None or not sub.spans(tree):
            return False
        total = wk.fixed_cost + sub.value(tree)
        if self.value is None or total < self.value:
            self.value = total
            self.orig = set(wk.fixed_edges)
            for i in tree:
                self.orig.update(wk.orig[eids[i]])
            return True
        return False

    def sub_bound(self, wk: Work) -> float:
        return INF if self.value is None else self.value - wk.fixed_cost

    def hint(self, wk: Work, eids: list[int]) -> list[int]:
        return [i for i, e in enumerate(eids) if set(wk.orig[e]) <= self.orig]

    def polish(self, wk: Work, sub: Sub, eids: list[int], tree, seen: set, deadline: float | None = None) -> None:
        """Offer a heuristic tree, and its local-search improvement when it is
        new, within 2% of the incumbent (local search is the expensive part
        and rarely closes a larger gap) and there is time left."""
        if tree is None:
            return
        key = frozenset(tree)
        if key in seen:
            return
        seen.add(key)
        self.offer(wk, sub, eids, tree)
        total = wk.fixed_cost + sub.value(tree)
        if total <= self.value * 1.02 + 1 and not past(deadline):
            self.offer(wk, sub, eids, key_path_exchange(sub, tree))
