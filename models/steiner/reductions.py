"""Reductions that keep at least one optimal tree: degree tests, the
nearest-terminal contraction and the bottleneck Steiner distance test."""
from __future__ import annotations

from .paths import INF, past
from .work import Work


def degree_tests(wk: Work) -> None:
    """Non-terminals of degree <= 1 go; degree 2 ones become one edge;
    a terminal of degree 1 takes its only edge into the tree.

    With degree bounds, a non-terminal whose bound is below 2 can only be
    a leaf, and a non-terminal leaf never helps (costs are >= 0).
    """
    todo = list(range(wk.n))
    md = wk.max_deg
    while todo:
        v = todo.pop()
        if not wk.alive[v]:
            continue
        d = len(wk.adj[v])
        if not wk.term[v]:
            if d <= 1 or (md is not None and md[v] < 2):
                todo.extend(wk.adj[v])
                wk.remove_node(v)
            elif d == 2:
                (a, e1), (b, e2) = wk.adj[v].items()
                w = wk.w[e1] + wk.w[e2] + wk.cost[v]
                orig = wk.orig[e1] + wk.orig[e2]
                wk.remove_node(v)
                wk.add_edge(a, b, w, orig)
                todo.extend((a, b))
        elif d == 1 and wk.nterm > 1:
            (u,) = wk.adj[v]
            if md is not None:
                if md[u] < 1 or md[v] < 1:
                    continue  # leave the infeasibility to the exact model
                md[u] -= 1  # u's tree edge to v is already spent
            todo.append(u)
            todo.extend(wk.adj[u])
            wk.contract_into(v, u)


def nearest_terminal_test(wk: Work) -> bool:
    """Contract terminal t with u when t's lightest edge leads to a terminal u.

    In an optimal tree the path from t to u starts with some edge t-x no
    lighter than t-u; swapping it for t-u keeps a tree that is no heavier,
    and adds no node (so node costs do not change).
    """
    changed = False
    for t in range(wk.n):
        if not (wk.alive[t] and wk.term[t]) or wk.nterm <= 1 or not wk.adj[t]:
            continue
        u, e = min(wk.adj[t].items(), key=lambda it: wk.w[it[1]])
        if wk.term[u]:
            wk.contract_into(t, u)
            changed = True
    return changed


def sd_test(wk: Work, deadline: float | None = None) -> int:
    """Delete edges that are in no optimal tree (bottleneck Steiner distance).

    Edge u-v of weight w is deleted when some u-v walk other than the edge
    itself splits, at terminals, into pieces each strictly lighter than w:
    removing u-v from a tree and adding the piece that rejoins the two
    halves would give a strictly lighter tree. Pieces are measured with
    the costs of their inner nodes. Bounds used: plain shortest paths
    (bounded search from u) and paths u ~> z1 ==> z2 ~> v through terminals,
    where ==> is the bottleneck (minimax) distance between terminals.
    Past the deadline it stops early: deleting fewer edges is always safe.
    """
    terms = wk.terminals()
    k = len(terms)
    dist_t = []
    for z in terms:
        if past(deadline):
            return 0
        dist_t.append(wk.dijkstra(z))
    # minimax distances between terminals (Floyd-Warshall on k <= few dozen)
    b = [[dist_t[i].get(terms[j], INF) for j in range(k)] for i in range(k)]
    for i in range(k):
        b[i][i] = 0
    for m in range(k):
        bm = b[m]
        for i in range(k):
            bi = b[i]
            bim = bi[m]
            for j in range(k):
                c = bm[j] if bm[j] > bim else bim
                if c < bi[j]:
                    bi[j] = c
    removed = 0
    for count, e in enumerate(list(wk.w)):
        if count % 256 == 0 and past(deadline):
            return removed
        if e not in wk.w:
            continue
        u, v = wk.ends[e]
        w = wk.w[e]
        du = [dt.get(u, INF) for dt in dist_t]
        dv = [dt.get(v, INF) for dt in dist_t]
        best = INF
        for i in range(k):
            if du[i] >= w:
                continue
            bi = b[i]
            for j in range(k):
                c = max(du[i], bi[j], dv[j])
                if c < best:
                    best = c
        if best < w:
            wk.remove_edge(e)
            removed += 1
    # plain shortest path between the ends, by a bounded search from each node
    for u in range(wk.n):
        if not wk.alive[u] or not wk.adj[u]:
            continue
        if u % 64 == 0 and past(deadline):
            break
        wmax = max(wk.w[e] for e in wk.adj[u].values())
        dist = wk.dijkstra(u, limit=wmax, max_pops=400)
        for v, e in list(wk.adj[u].items()):
            if dist.get(v, INF) < wk.w[e]:
                wk.remove_edge(e)
                removed += 1
    return removed


def reduce(wk: Work, deadline: float | None) -> None:
    """Apply the cheap reductions until they stop changing the graph.

    With degree bounds only the degree tests are safe (a contraction or a
    deleted edge could move a branching onto a bounded node).
    """
    degree_tests(wk)
    if wk.max_deg is not None:
        return
    for _ in range(10):
        if wk.nterm <= 1 or past(deadline):
            return
        changed = nearest_terminal_test(wk)
        degree_tests(wk)
        if wk.nterm <= 1:
            return
        removed = sd_test(wk, deadline)
        degree_tests(wk)
        if not changed and not removed:
            return
