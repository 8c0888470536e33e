"""The exact dynamic program over terminal subsets (Dreyfus-Wagner /
Erickson-Monma-Veinott), vectorised with numpy int64 tables."""
from __future__ import annotations


import numpy as np

from .paths import past

BIG = 1 << 61  # "unreachable" in the int64 tables; three of them still fit in 2^63
# Exactness: every distance and tree weight is at most the total of all
# weights and costs, so a total below BIG keeps every table entry exact;
# `solve_steiner` refuses larger totals instead of letting int64 overflow.
EXACT_TOTAL = BIG


def cost_estimate(n: int, k: int) -> float:
    """Rough count of elementary numpy operations of `dreyfus_wagner`."""
    q = max(k - 1, 0)
    return n ** 3 + (3 ** q / 2) * n + (2 ** q) * n * n


def all_pairs(n: int, edges: list[tuple[int, int, int]], cost: list[int], deadline: float | None = None):
    """Floyd-Warshall on node indices 0..n-1, vectorised by numpy.

    Returns (dist, nxt): dist[u, v] = edge weights plus the costs of the nodes
    strictly between u and v; nxt[u, v] = the node after u on that path.
    None past `deadline`.
    """
    dist = np.full((n, n), BIG, dtype=np.int64)
    nxt = np.full((n, n), -1, dtype=np.int64)
    np.fill_diagonal(dist, 0)
    idx = np.arange(n)
    nxt[idx, idx] = idx
    for u, v, w in edges:
        if w < dist[u, v]:
            dist[u, v] = dist[v, u] = w
            nxt[u, v] = v
            nxt[v, u] = u
    c = np.asarray(cost, dtype=np.int64)
    for k in range(n):
        if k % 4 == 0 and past(deadline):
            return None
        via = dist[:, k : k + 1] + c[k] + dist[k : k + 1, :]
        better = via < dist
        if better.any():
            dist = np.where(better, via, dist)
            nxt = np.where(better, nxt[:, k : k + 1], nxt)
    dist[dist >= BIG] = BIG
    return dist, nxt


def dreyfus_wagner(
    n: int,
    edges: list[tuple[int, int, int]],
    cost: list[int],
    terminals: list[int],
    deadline: float | None = None,
) -> tuple[int, set[tuple[int, int]]] | None:
    """Optimal Steiner tree by the Dreyfus-Wagner / Erickson-Monma-Veinott DP.

    D[S][v] is the weight of the cheapest tree joining the terminal set S and
    node v (node costs included, v's once). With root r = last terminal and
    the others numbered 0..q-1, subsets are bit masks; each level (|S| = s)
    is computed at once with numpy: the merge step over all splits S = S1 + S2
    (S1 holding S's lowest bit) and then one min-plus product with the
    all-pairs distances. Exact, so it proves its answer; costs about
    3^(k-1)/2 * n + 2^(k-1) * n^2 operations, which is what picks it for few
    terminals or small reduced graphs (the "hypercube"-like instances whose
    LP relaxation is weak).

    Returns (value, tree edges as node-index pairs), or None past `deadline`
    (checked between blocks of at most 2^22 table entries).
    """
    pairs = all_pairs(n, edges, cost, deadline)
    if pairs is None:
        return None
    dist, nxt = pairs
    c = np.asarray(cost, dtype=np.int64)
    # dd[u, v]: cost to extend a tree at u by the path to v (v's cost included)
    dd = dist + c[None, :]
    np.fill_diagonal(dd, 0)
    dd = np.minimum(dd, BIG)
    root = terminals[-1]
    base = terminals[:-1]
    q = len(base)
    full = (1 << q) - 1
    D = np.full((1 << q, n), BIG, dtype=np.int64)
    M = np.full((1 << q, n), BIG, dtype=np.int64)
    for i, t in enumerate(base):
        D[1 << i] = dd[t]
        M[1 << i] = dd[t]
    popcount = np.array([bin(s).count("1") for s in range(1 << q)], dtype=np.int64)
    chunk_elems = 1 << 22
    for s in range(2, q + 1):
        masks = np.nonzero(popcount == s)[0]
        if s == q:
            masks = np.array([full], dtype=np.int64)
        # bit values of each mask, lowest first: shape (len(masks), s)
        bits = np.array([[1 << b for b in range(q) if (m >> b) & 1] for m in masks], dtype=np.int64)
        low, high = bits[:, 0], bits[:, 1:]
        xs = np.arange((1 << (s - 1)) - 1, dtype=np.int64)  # all-ones would give S itself
        sel = (xs[:, None] >> np.arange(s - 1)[None, :]) & 1  # (X, s-1)
        per = len(xs)
        group = max(1, chunk_elems // max(1, per * n))
        for g0 in range(0, len(masks), group):
            if past(deadline):
                return None
            mk = masks[g0 : g0 + group]
            s1 = low[g0 : g0 + group, None] + high[g0 : g0 + group] @ sel.T  # (G, X)
            s2 = mk[:, None] - s1
            vals = D[s1.ravel()] + D[s2.ravel()] - c[None, :]
            vals = vals.reshape(len(mk), per, n).min(axis=1)
            M[mk] = vals
        # path step: D[S][v] = min_u M[S][u] + dd[u, v]
        group = max(1, chunk_elems // (n * n))
        for g0 in range(0, len(masks), group):
            if past(deadline):
                return None
            mk = masks[g0 : g0 + group]
            D[mk] = (M[mk][:, :, None] + dd[None, :, :]).min(axis=1)
        np.minimum(D, BIG, out=D)
    if q == 0:
        return 0, set()
    value = int(D[full, root])
    if value >= BIG:
        return None
    return value, _walk_back(D, M, dd, nxt, c, base, full, root)


def _walk_back(D, M, dd, nxt, c, base, full, root) -> set[tuple[int, int]]:
    """The tree behind D[full][root], read back from the tables."""
    tree: set[tuple[int, int]] = set()

    def add_path(u: int, v: int) -> None:
        while u != v:
            x = int(nxt[u, v])
            tree.add((min(u, x), max(u, x)))
            u = x

    # an explicit stack avoids deep recursion
    stack = [("D", full, root)]
    while stack:
        kind, S, v = stack.pop()
        if kind == "D":
            if S & (S - 1) == 0:  # single terminal: a shortest path
                add_path(base[S.bit_length() - 1], v)
                continue
            target = D[S, v]
            us = np.nonzero(M[S] + dd[:, v] == target)[0]
            u = int(v) if M[S, v] == target else int(us[0])
            add_path(u, v)
            stack.append(("M", S, u))
        else:
            lowbit = S & -S
            rest = S ^ lowbit
            sub = rest
            found = False
            while True:
                s1 = lowbit | sub
                if s1 != S and D[s1, v] + D[S ^ s1, v] - c[v] == M[S, v]:
                    stack.append(("D", s1, v))
                    stack.append(("D", S ^ s1, v))
                    found = True
                    break
                if sub == 0:
                    break
                sub = (sub - 1) & rest
            assert found, "DP table walk-back failed"
    return tree
