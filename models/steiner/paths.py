"""Graph walks shared by every phase: one Dijkstra, one reachability search,
tree orientation and leaf pruning.

Each phase used to carry its own copy; they differ only in how a step is
priced and where the search may stop, which the callers now pass in.
"""
from __future__ import annotations

import heapq
import time
from typing import Callable, Hashable, Iterable

INF = float("inf")


class Infeasible(Exception):
    """The terminals cannot be joined (raised inside the algorithms)."""


def past(deadline: float | None) -> bool:
    """Past a solve's own deadline, or (for a solve that has one) past the caller's wall-clock cap
    (solver.interrupt: --time-limit, the app's Cancel): the solve then reports "time-limit", never a proof."""
    from solver import interrupt
    return deadline is not None and (time.perf_counter() > deadline or interrupt.past_cap())


def dijkstra(heap: list, dist, steps: Callable, *, pred: dict | None = None,
             max_pops: int | None = None, goal: Callable | None = None):
    """Settle nodes in order of distance; returns the first settled node that
    meets `goal` (None when the search ends without one).

    `heap` holds the starting (distance, node) pairs and is used as the heap
    as given, so callers keep their order of ties. `dist` (node -> distance,
    read with .get) is updated in place, so a search can continue from an
    earlier one. `steps(x, d)` yields (y, new distance, label) for the steps
    out of x settled at d; `pred[y]` records the label of the step that
    reached y. After `max_pops` settled nodes the search stops: an
    incomplete search only overestimates distances.
    """
    pop, push, get = heapq.heappop, heapq.heappush, dist.get  # hot loop: local names
    pops = 0
    while heap:
        d, x = pop(heap)
        if d > get(x, INF):
            continue  # a stale entry: x was reached more cheaply since
        if max_pops is not None:
            pops += 1
            if pops > max_pops:
                break
        if goal is not None and goal(x, d):
            return x
        for y, nd, label in steps(x, d):
            if nd < get(y, INF):
                dist[y] = nd
                if pred is not None:
                    pred[y] = label
                push(heap, (nd, y))
    return None


def reach(starts: Iterable[Hashable], neighbours: Callable, parent: dict | None = None,
          seen: set | None = None) -> set:
    """Nodes reachable from `starts` by depth-first search; `neighbours(x)`
    yields the next nodes. With `parent`, records the node each was found
    from (a tree oriented away from the starts). A given `seen` set is
    extended in place (its nodes are not entered again)."""
    seen = set() if seen is None else seen
    stack = []
    for s in starts:
        if s not in seen:
            seen.add(s)
            stack.append(s)
    while stack:
        x = stack.pop()
        for y in neighbours(x):
            if y not in seen:
                seen.add(y)
                if parent is not None:
                    parent[y] = x
                stack.append(y)
    return seen


def adjacency(pairs: Iterable[tuple]) -> dict:
    """Undirected adjacency lists of (u, v, ...) pairs."""
    adj: dict = {}
    for u, v, *_rest in pairs:
        adj.setdefault(u, []).append(v)
        adj.setdefault(v, []).append(u)
    return adj


def orient(pairs: Iterable[tuple], root) -> dict:
    """Parent of every node of the tree `pairs` reachable from `root`, the
    tree directed away from the root (the root is its own parent)."""
    adj = adjacency(pairs)
    parent = {root: root}
    reach([root], lambda x: adj.get(x, ()), parent)
    return parent


def prune_leaves(tree: list[int], ends: Callable, keep: set) -> list[int]:
    """Drop edges that end in a leaf outside `keep`, repeatedly (a leaf that
    is not a terminal never helps: weights and costs are non-negative).
    `ends(i)` gives the two ends of edge i."""
    deg: dict = {}
    inc: dict = {}
    for i in tree:
        for x in ends(i):
            deg[x] = deg.get(x, 0) + 1
            inc.setdefault(x, []).append(i)
    alive = set(tree)
    stack = [x for x, d in deg.items() if d == 1 and x not in keep]
    while stack:
        x = stack.pop()
        if deg[x] != 1 or x in keep:
            continue
        for i in inc[x]:
            if i in alive:
                alive.discard(i)
                deg[x] -= 1
                u, v = ends(i)
                y = u if v == x else v
                deg[y] -= 1
                if deg[y] == 1 and y not in keep:
                    stack.append(y)
    return [i for i in tree if i in alive]
