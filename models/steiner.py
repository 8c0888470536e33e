"""Exact minimum Steiner trees with a proof of optimality.

Problem: given an undirected graph with non-negative integer edge weights and
node costs, and a set of terminals, find a tree that contains every terminal
and minimises (sum of its edge weights) + (sum of the costs of its nodes).
Optionally a node may have a degree bound in the tree (a plain track hex on a
board cannot branch: degree <= 2).

The answer is only worth printing with a certificate, so `solve_steiner`
returns a `SteinerResult` whose status is `optimal` only when a proven lower
bound equals the value of the returned tree (both integers). Hitting the time
limit gives `feasible` with the best bound known, never a silent guess.

How:

1. Reductions that keep at least one optimal tree: non-terminals of degree
   1 and 2, terminals of degree 1, a terminal's lightest edge to another
   terminal, and shortest-path / bottleneck Steiner distance edge tests.
2. If the reduced instance is small for its number of terminals k, the
   Dreyfus-Wagner dynamic program over terminal subsets (numpy-vectorised,
   about 3^(k-1)/2 * n + 2^(k-1) * n^2 operations) solves it exactly.
3. Otherwise: shortest-path heuristics with key-path exchange for an upper
   bound; Wong's dual ascent from every terminal for lower bounds, guided
   heuristics and reduced-cost elimination of nodes and edges that only
   trees no better than the incumbent could use; repeat while it shrinks.
4. Then the DP again if it became cheap enough, else the directed cut LP
   (seeded with the dual-ascent cuts, separated by max flows) whose
   reduced costs eliminate more, and finally a directed cut MIP in SCIP
   with a zero gap, re-solved with new cuts until its tree is connected.
5. The tree is mapped back to the caller's graph, re-checked (a tree that
   spans the terminals) and its weight recomputed from the input.

Degree bounds are handled by solving without them first (a lower bound);
if the tree breaks a bound, a multi-commodity flow MIP with degree rows is
solved on the graph reduced only by degree-safe reductions.

Measured on the 41 shared PACE 2018 instances (2 cores, shared machine):
the multi-commodity flow MIP in SCIP (with the valid inequalities of
`_flow_mip(strengthen=True)`, after the cheap reductions) proved 34
optimal within 60 s each, median 6 s, up to 46 s; it did not finish the
root LP in 60 s on two k=16 instances and a dense one (4135 edges), and
the four hypercube-like ones (weak LP) stayed open. The plain model on the
unreduced graph (the benchmark baseline) proves 33-34 within 30 s each,
depending on machine load. A cut LP grown from scratch
needed hundreds of rounds on grid-like instances (590 s on instance075);
seeded with the dual-ascent cuts about a dozen (instance107: 4 s). The DP
took under 1 s on the hypercube-like instances (n <= 125, k <= 13). This
pipeline proves all 41; per-instance numbers with both baselines are in
results/steiner-pace2018.csv.
"""
from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass, field
from typing import Hashable, Iterable

import networkx as nx

from solver.board.errors import InputError

INF = float("inf")


@dataclass(frozen=True)
class SteinerResult:
    """Outcome of `solve_steiner`.

    status: "optimal" (lower_bound == value, proven), "feasible" (time limit
        hit; lower_bound < value), "infeasible" (terminals cannot be joined,
        or the degree bounds forbid every tree; proven).
    value: weight of the returned tree (edge weights + costs of its nodes).
    lower_bound: proven lower bound on the optimum (== value when optimal).
    edges: tree edges with the caller's node ids.
    nodes: tree nodes with the caller's node ids.
    seconds: wall time of the call.
    method: which step closed the proof: "trivial" (0 or 1 terminal, or
        disconnected terminals), "reduction" (the reductions alone left one
        terminal), "dreyfus-wagner" (subset DP), "dual-ascent" (its bound met
        the heuristic tree), "lp-cut" (cut LP bound met it), "mip-cut"
        (directed cut MIP), "mip-flow-degree" (flow MIP with degree
        bounds), "degree-bounds" (a bound of 0 at a terminal), or
        "time-limit" when the limit stopped the proof.
    stats: sizes before/after reductions, bounds and times of the phases
        (for benchmarks and curiosity; not part of the answer).
    """

    status: str
    value: int | None
    lower_bound: int | None
    edges: list[tuple]
    nodes: list
    seconds: float
    method: str
    stats: dict = field(default_factory=dict, compare=False)

    @property
    def optimal(self) -> bool:
        return self.status == "optimal"


# ---------------------------------------------------------------------------
# Working graph and reductions
# ---------------------------------------------------------------------------


class _Work:
    """The instance on integer node ids 0..n-1, shrunk in place by reductions.

    Every working edge remembers the original edges it stands for (`orig`), so
    a tree on the reduced graph maps back to a tree on the input: contracting
    a path u-v-w yields one edge u-w standing for both original edges, and
    merging a degree-1 terminal into its neighbour moves that edge to
    `fixed_edges`, which every tree returned contains. Terminal node costs are
    paid in every tree, so they are moved into `fixed_cost` at the start and
    the working costs of terminals are zero.

    `degree_safe` restricts the reductions to those that keep every tree
    degree bound meaningful (used when the caller gives `max_degree`).
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
        self.log: dict[str, int] = {}

    # -- primitive edits -----------------------------------------------------

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

    def count(self, what: str, k: int = 1) -> None:
        self.log[what] = self.log.get(what, 0) + k

    def nodes(self) -> list[int]:
        return [v for v in range(self.n) if self.alive[v]]

    def terminals(self) -> list[int]:
        return [v for v in range(self.n) if self.alive[v] and self.term[v]]

    def num_edges(self) -> int:
        return len(self.w)

    # -- degree tests ----------------------------------------------------------

    def degree_tests(self, stack: Iterable[int] | None = None) -> None:
        """Non-terminals of degree <= 1 go; degree 2 ones become one edge;
        a terminal of degree 1 takes its only edge into the tree.

        With degree bounds, a non-terminal whose bound is below 2 can only be
        a leaf, and a non-terminal leaf never helps (costs are >= 0).
        """
        todo = list(range(self.n)) if stack is None else list(stack)
        md = self.max_deg
        while todo:
            v = todo.pop()
            if not self.alive[v]:
                continue
            d = len(self.adj[v])
            if not self.term[v]:
                if d <= 1 or (md is not None and md[v] < 2):
                    todo.extend(self.adj[v])
                    self.remove_node(v)
                    self.count("degree-1")
                elif d == 2:
                    (a, e1), (b, e2) = self.adj[v].items()
                    w = self.w[e1] + self.w[e2] + self.cost[v]
                    orig = self.orig[e1] + self.orig[e2]
                    self.remove_node(v)
                    self.add_edge(a, b, w, orig)
                    todo.extend((a, b))
                    self.count("degree-2")
            elif d == 1 and self.nterm > 1:
                (u,) = self.adj[v]
                if md is not None:
                    if md[u] < 1 or md[v] < 1:
                        continue  # leave the infeasibility to the exact model
                    md[u] -= 1  # u's tree edge to v is already spent
                todo.append(u)
                todo.extend(self.adj[u])
                self.contract_into(v, u)
                self.count("terminal-degree-1")

    def nearest_terminal_test(self) -> bool:
        """Contract terminal t with u when t's lightest edge leads to a terminal u.

        In an optimal tree the path from t to u starts with some edge t-x no
        lighter than t-u; swapping it for t-u keeps a tree that is no heavier,
        and adds no node (so node costs do not change).
        """
        changed = False
        for t in range(self.n):
            if not (self.alive[t] and self.term[t]) or self.nterm <= 1 or not self.adj[t]:
                continue
            u, e = min(self.adj[t].items(), key=lambda it: self.w[it[1]])
            if self.term[u]:
                self.contract_into(t, u)
                self.count("terminal-nearest")
                changed = True
        return changed

    # -- distance tests ------------------------------------------------------------

    def dijkstra(self, src: int, limit: float = INF, max_pops: int | None = None) -> dict[int, int]:
        """Distances d(src, x): edge weights plus costs of the nodes strictly
        between src and x. Stops at `limit` or after `max_pops` settled nodes;
        an incomplete search only overestimates, which keeps tests valid."""
        cost, adj, w = self.cost, self.adj, self.w
        dist = {src: 0}
        heap = [(0, src)]
        done = set()
        pops = 0
        while heap:
            d, x = heapq.heappop(heap)
            if x in done:
                continue
            done.add(x)
            pops += 1
            if max_pops is not None and pops > max_pops:
                break
            through = d + (cost[x] if x != src else 0)
            if through >= limit:
                continue
            for y, e in adj[x].items():
                nd = through + w[e]
                if nd < dist.get(y, INF):
                    dist[y] = nd
                    heapq.heappush(heap, (nd, y))
        return dist

    def sd_test(self) -> int:
        """Delete edges that are in no optimal tree (bottleneck Steiner distance).

        Edge u-v of weight w is deleted when some u-v walk other than the edge
        itself splits, at terminals, into pieces each strictly lighter than w:
        removing u-v from a tree and adding the piece that rejoins the two
        halves would give a strictly lighter tree. Pieces are measured with
        the costs of their inner nodes. Bounds used: plain shortest paths
        (bounded search from u) and paths u ~> z1 ==> z2 ~> v through terminals,
        where ==> is the bottleneck (minimax) distance between terminals.
        """
        terms = self.terminals()
        k = len(terms)
        dist_t = [self.dijkstra(z) for z in terms]
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
        for e in list(self.w):
            if e not in self.w:
                continue
            u, v = self.ends[e]
            w = self.w[e]
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
                self.remove_edge(e)
                removed += 1
        # plain shortest path between the ends, by a bounded search from each node
        for u in range(self.n):
            if not self.alive[u] or not self.adj[u]:
                continue
            wmax = max(self.w[e] for e in self.adj[u].values())
            dist = self.dijkstra(u, limit=wmax, max_pops=400)
            for v, e in list(self.adj[u].items()):
                if dist.get(v, INF) < self.w[e]:
                    self.remove_edge(e)
                    removed += 1
        self.count("sd-edges", removed)
        return removed


# ---------------------------------------------------------------------------
# Exact model: multi-commodity flow MIP
# ---------------------------------------------------------------------------


@dataclass
class _MipOutcome:
    status: str  # "optimal", "feasible", "infeasible", "unknown"
    value: int | None
    bound: int | None
    edges: list[int]  # indices into the edge list given to the model
    seconds: float


def _flow_mip(
    nodes: list[int],
    edges: list[tuple[int, int, int]],
    cost: dict[int, int] | list[int],
    terminals: list[int],
    *,
    time_limit: float | None,
    strengthen: bool = False,
    max_deg: dict[int, int] | None = None,
    hint_edges: Iterable[int] | None = None,
    threads: int = 1,
) -> _MipOutcome:
    """Minimum Steiner tree by the multi-commodity flow MIP, solved with SCIP.

    Rooted at a terminal r, each edge gives two arc variables y (binary); each
    other terminal t gets a continuous flow f_t of one unit from r to t with
    f_t <= y on every arc. Its LP relaxation equals the directed cut
    relaxation, which is very tight on Steiner instances. Node costs go on
    the arcs entering the node (every tree node but the root has exactly one
    entering arc), so the objective stays linear and exact.

    `strengthen` adds the usual valid inequalities: in-degree 1 at terminals
    and <= 1 at other nodes, y_uv + y_vu <= 1, and flow balance (a
    non-terminal that is entered must be left and vice versa). Off by
    default: measured, SCIP is faster without them (six random 273-hex
    boards with degree bounds: 5 s instead of 17 s in all; PACE instance101:
    5 s instead of 46 s). The plain model is also the benchmark baseline.
    Degree bounds (`max_deg`) always add their rows, see `_degree_rows`.

    The gap is zero and the answer is re-checked: the status is "optimal"
    only if ceil(SCIP's dual bound) >= the integer value of the tree.
    """
    from ortools.linear_solver import pywraplp

    t0 = time.perf_counter()
    root = terminals[0]
    others = terminals[1:]
    solver = pywraplp.Solver.CreateSolver("SCIP")
    if solver is None:  # pragma: no cover - SCIP ships with OR-Tools
        raise RuntimeError("OR-Tools was built without SCIP")
    solver.SetNumThreads(threads)
    params = ["limits/gap = 0", "limits/absgap = 0"]
    solver.SetSolverSpecificParametersAsString("\n".join(params) + "\n")
    if time_limit is not None:
        solver.SetTimeLimit(max(1, int(time_limit * 1000)))
    is_term = set(terminals)

    arcs: list[tuple[int, int, int]] = []  # (tail, head, edge index)
    for i, (u, v, _w) in enumerate(edges):
        if v != root:
            arcs.append((u, v, i))
        if u != root:
            arcs.append((v, u, i))
    y = [solver.BoolVar(f"y{a}") for a in range(len(arcs))]
    into: dict[int, list[int]] = {v: [] for v in nodes}
    out: dict[int, list[int]] = {v: [] for v in nodes}
    for a, (s, h, _i) in enumerate(arcs):
        out[s].append(a)
        into[h].append(a)

    objective = solver.Objective()
    for a, (s, h, i) in enumerate(arcs):
        objective.SetCoefficient(y[a], edges[i][2] + cost[h])
    objective.SetMinimization()

    flows: dict[int, list] = {}
    for t in others:
        f = [solver.NumVar(0.0, 1.0, "") for _ in arcs]
        flows[t] = f
        for a in range(len(arcs)):
            solver.Add(f[a] <= y[a])
        for v in nodes:
            net_in = sum(f[a] for a in into[v]) - sum(f[a] for a in out[v])
            if v == root:
                solver.Add(net_in == -1)
            elif v == t:
                solver.Add(net_in == 1)
            else:
                solver.Add(net_in == 0)
    if strengthen:
        for v in nodes:
            if v == root:
                continue
            indeg = sum(y[a] for a in into[v])
            if v in is_term:
                solver.Add(indeg == 1)
            else:
                solver.Add(indeg <= 1)
                # a Steiner node that is entered must be left (no useless leaves)
                solver.Add(indeg <= sum(y[a] for a in out[v]))
                for a in out[v]:
                    solver.Add(y[a] <= indeg)
        pair: dict[int, list[int]] = {}
        for a, (_s, _h, i) in enumerate(arcs):
            pair.setdefault(i, []).append(a)
        for arcs_of in pair.values():
            if len(arcs_of) == 2:
                solver.Add(y[arcs_of[0]] + y[arcs_of[1]] <= 1)
    if max_deg:
        for v, bound in max_deg.items():
            if v in into:
                _degree_rows(solver, v == root, bound, [y[a] for a in into[v]], [y[a] for a in out[v]])
    if hint_edges is not None:
        _hint_arcs(solver, y, flows, arcs, edges, root, set(hint_edges))

    status = solver.Solve()
    seconds = time.perf_counter() - t0
    if status == pywraplp.Solver.INFEASIBLE:
        return _MipOutcome("infeasible", None, None, [], seconds)
    if status not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
        bound = _safe_bound(objective.BestBound() + cost[root])
        return _MipOutcome("unknown", None, bound, [], seconds)
    # The tree is what the root reaches through chosen arcs (free arcs off
    # the flow paths may be switched on too), without non-terminal leaves.
    sub = _Sub(nodes, edges, cost, terminals)
    out_chosen: dict[int, list[int]] = {}
    for a in range(len(arcs)):
        if y[a].solution_value() > 0.5:
            out_chosen.setdefault(arcs[a][0], []).append(a)
    reach = {root}
    stack = [root]
    tree_edges = []
    while stack:
        x = stack.pop()
        for a in out_chosen.get(x, ()):
            h = arcs[a][1]
            if h not in reach:
                reach.add(h)
                tree_edges.append(arcs[a][2])
                stack.append(h)
    if any(t not in reach for t in terminals):  # pragma: no cover - flows forbid it
        raise RuntimeError("internal error: flow MIP solution does not reach every terminal")
    chosen = sorted(sub.prune(tree_edges))
    value = sub.value(chosen)
    # the root has no entering arc, so its cost is a constant outside the objective
    bound = _safe_bound(objective.BestBound() + cost[root])
    if bound is not None and bound > value:
        bound = value  # SCIP's bound is a float; never claim more than we have
    st = "optimal" if bound is not None and bound >= value else "feasible"
    return _MipOutcome(st, value, bound, chosen, seconds)


def _degree_rows(solver, is_root: bool, bound: int, y_in: list, y_out: list) -> None:
    """Tree degree <= bound, written for the rooted model.

    A non-root node has one entering arc when it is in the tree, so its
    leaving arcs number at most (bound - 1) times its in-degree. This is
    much tighter in the LP than in + out <= bound: with bound 2 (a plain
    track hex) the flow cannot fan out at the node even fractionally
    (measured on a random 104-hex board: 31 s -> 1 s).
    """
    if is_root:
        solver.Add(solver.Sum(y_out) <= bound)
        return
    indeg = solver.Sum(y_in)
    solver.Add(indeg + solver.Sum(y_out) <= bound)
    solver.Add(solver.Sum(y_out) <= (bound - 1) * indeg)


def _safe_bound(b: float) -> int | None:
    """Integer lower bound from SCIP's float dual bound (all data is integral)."""
    if b is None or math.isnan(b) or b == -INF or abs(b) > 1e15:
        return None
    return math.ceil(b - 1e-6)


def _hint_arcs(solver, y, flows, arcs, edges, root, hint: set[int]) -> None:
    """Orient the hinted tree away from the root and pass it, with its flows,
    as a MIP start (SCIP ignores a start that leaves most variables open)."""
    adj: dict[int, list[int]] = {}
    for i in hint:
        u, v, _ = edges[i]
        adj.setdefault(u, []).append(v)
        adj.setdefault(v, []).append(u)
    parent: dict[int, int] = {root: root}
    stack = [root]
    while stack:
        x = stack.pop()
        for z in adj.get(x, []):
            if z not in parent:
                parent[z] = x
                stack.append(z)
    if any(t not in parent for t in flows):
        return  # not a tree on these terminals: no start
    arc_of = {(s, h): a for a, (s, h, _i) in enumerate(arcs)}
    used = {arc_of[(p, z)] for z, p in parent.items() if z != root and (p, z) in arc_of}
    variables = list(y)
    values = [1.0 if a in used else 0.0 for a in range(len(arcs))]
    for t, f in flows.items():
        on_path = set()
        z = t
        while z != root:
            on_path.add(arc_of[(parent[z], z)])
            z = parent[z]
        variables.extend(f)
        values.extend(1.0 if a in on_path else 0.0 for a in range(len(arcs)))
    solver.SetHint(variables, values)


# ---------------------------------------------------------------------------
# Exact model: dynamic programming over terminal subsets
# ---------------------------------------------------------------------------

_BIG = 1 << 60  # "unreachable" in int64 tables; three of them still fit


def _dp_cost_estimate(n: int, k: int) -> float:
    """Rough count of elementary numpy operations of `_dreyfus_wagner`."""
    q = max(k - 1, 0)
    return n ** 3 + (3 ** q / 2) * n + (2 ** q) * n * n


def _all_pairs(n: int, edges: list[tuple[int, int, int]], cost: list[int]):
    """Floyd-Warshall on node indices 0..n-1, vectorised by numpy.

    Returns (dist, nxt): dist[u, v] = edge weights plus the costs of the nodes
    strictly between u and v; nxt[u, v] = the node after u on that path.
    """
    import numpy as np

    dist = np.full((n, n), _BIG, dtype=np.int64)
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
        via = dist[:, k : k + 1] + c[k] + dist[k : k + 1, :]
        better = via < dist
        if better.any():
            dist = np.where(better, via, dist)
            nxt = np.where(better, nxt[:, k : k + 1], nxt)
    dist[dist >= _BIG] = _BIG
    return dist, nxt


def _dreyfus_wagner(
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

    Returns (value, tree edges as node-index pairs), or None past `deadline`.
    """
    import numpy as np

    dist, nxt = _all_pairs(n, edges, cost)
    c = np.asarray(cost, dtype=np.int64)
    # dd[u, v]: cost to extend a tree at u by the path to v (v's cost included)
    dd = dist + c[None, :]
    np.fill_diagonal(dd, 0)
    dd = np.minimum(dd, _BIG)
    root = terminals[-1]
    base = terminals[:-1]
    q = len(base)
    full = (1 << q) - 1
    D = np.full((1 << q, n), _BIG, dtype=np.int64)
    M = np.full((1 << q, n), _BIG, dtype=np.int64)
    for i, t in enumerate(base):
        D[1 << i] = dd[t]
        M[1 << i] = dd[t]
    popcount = np.array([bin(s).count("1") for s in range(1 << q)], dtype=np.int64)
    chunk_elems = 1 << 22
    for s in range(2, q + 1):
        if deadline is not None and time.perf_counter() > deadline:
            return None
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
            mk = masks[g0 : g0 + group]
            s1 = low[g0 : g0 + group, None] + high[g0 : g0 + group] @ sel.T  # (G, X)
            s2 = mk[:, None] - s1
            vals = D[s1.ravel()] + D[s2.ravel()] - c[None, :]
            vals = vals.reshape(len(mk), per, n).min(axis=1)
            M[mk] = vals
        # path step: D[S][v] = min_u M[S][u] + dd[u, v]
        group = max(1, chunk_elems // (n * n))
        for g0 in range(0, len(masks), group):
            mk = masks[g0 : g0 + group]
            D[mk] = (M[mk][:, :, None] + dd[None, :, :]).min(axis=1)
        np.minimum(D, _BIG, out=D)
    if q == 0:
        return 0, set()
    value = int(D[full, root])
    if value >= _BIG:
        return None

    tree: set[tuple[int, int]] = set()

    def add_path(u: int, v: int) -> None:
        while u != v:
            x = int(nxt[u, v])
            tree.add((min(u, x), max(u, x)))
            u = x

    # Walk the tables back; an explicit stack avoids deep recursion.
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
    return value, tree


# ---------------------------------------------------------------------------
# Primal heuristic
# ---------------------------------------------------------------------------


class _Sub:
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

    def sph(self, root: int, weights: list[float] | None = None, allowed: set | None = None) -> list[int] | None:
        """Shortest-path heuristic (Takahashi-Matsuyama) with node costs.

        Grows a tree from `root`, each time adding the cheapest path to the
        nearest unconnected terminal. Distances are kept between rounds and
        only lowered from the newly added nodes, so one round costs a partial
        Dijkstra instead of a full one. `weights` may replace edge weights
        (used to steer the heuristic with LP values); `allowed` restricts
        the tree to a node set (e.g. the saturated arcs of a dual ascent).
        """
        w = [e[2] for e in self.edges] if weights is None else weights
        cost, adj = self.cost, self.adj
        dist: dict[int, float] = {root: 0}
        pred: dict[int, int] = {}
        in_tree = {root}
        tree: list[int] = []
        remaining = set(self.terminals) - {root}

        def relax_from(sources):
            heap = [(0, s) for s in sources]
            while heap:
                d, x = heapq.heappop(heap)
                if d > dist.get(x, INF):
                    continue
                for y, i in adj[x]:
                    if allowed is not None and y not in allowed:
                        continue
                    nd = d + w[i] + (0 if y in in_tree else cost[y])
                    if nd < dist.get(y, INF):
                        dist[y] = nd
                        pred[y] = i
                        heapq.heappush(heap, (nd, y))

        relax_from([root])
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
                u, v, _ = self.edges[i]
                x = u if v == x else v
            remaining -= in_tree
            relax_from(new)
        return self.improve(tree)

    def improve(self, tree: list[int]) -> list[int]:
        """Re-span the tree's nodes by a minimum spanning tree of the induced
        subgraph and prune non-terminal leaves, until nothing changes."""
        terms = set(self.terminals)
        best = list(tree)
        best_val = self.value(best)
        while True:
            nodes = set(terms)
            for i in best:
                nodes.add(self.edges[i][0])
                nodes.add(self.edges[i][1])
            cand = sorted(
                (i for v in nodes for (y, i) in self.adj[v] if y in nodes and self.edges[i][0] == v),
                key=lambda i: self.edges[i][2],
            )
            parent = {v: v for v in nodes}

            def find(a):
                while parent[a] != a:
                    parent[a] = parent[parent[a]]
                    a = parent[a]
                return a

            mst = []
            for i in cand:
                a, b = find(self.edges[i][0]), find(self.edges[i][1])
                if a != b:
                    parent[a] = b
                    mst.append(i)
            mst = self.prune(mst)
            val = self.value(mst)
            if val < best_val:
                best, best_val = mst, val
            else:
                return best

    def prune(self, tree: list[int]) -> list[int]:
        """Drop non-terminal leaves repeatedly (their cost is never negative)."""
        terms = set(self.terminals)
        deg: dict[int, int] = {}
        inc: dict[int, list[int]] = {}
        for i in tree:
            for x in self.edges[i][:2]:
                deg[x] = deg.get(x, 0) + 1
                inc.setdefault(x, []).append(i)
        alive = set(tree)
        stack = [x for x, d in deg.items() if d == 1 and x not in terms]
        while stack:
            x = stack.pop()
            if deg[x] != 1 or x in terms:
                continue
            for i in inc[x]:
                if i in alive:
                    alive.discard(i)
                    deg[x] -= 1
                    u, v, _ = self.edges[i]
                    y = u if v == x else v
                    deg[y] -= 1
                    if deg[y] == 1 and y not in terms:
                        stack.append(y)
        return [i for i in tree if i in alive]

    def key_path_exchange(self, tree: list[int], rounds: int = 3) -> list[int]:
        """Local search: replace a key path by a cheaper connection.

        A key path is a path of the tree between key nodes (terminals and
        nodes of tree degree >= 3) whose inner nodes are plain degree-2
        Steiner nodes. Removing it splits the tree in two; if the cheapest
        path joining the two parts (node costs of new nodes included) is
        lighter than the key path, swap them. Repeats while it helps.
        """
        terms = set(self.terminals)
        tree = list(tree)
        for _ in range(rounds):
            improved = False
            inc: dict[int, list[int]] = {}
            for i in tree:
                for x in self.edges[i][:2]:
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
                    prev, cur = x, self._other(i, x)
                    while cur not in terms and len(inc[cur]) == 2:
                        inner.append(cur)
                        nxt_e = inc[cur][0] if inc[cur][0] != path_edges[-1] else inc[cur][1]
                        path_edges.append(nxt_e)
                        seen_edges.add(nxt_e)
                        prev, cur = cur, self._other(nxt_e, cur)
                    paths.append((path_edges, inner))
            tree_set = set(tree)
            touched: set[int] = set()  # ends of swapped-in paths gained edges
            for path_edges, inner in paths:
                if not tree_set.issuperset(path_edges) or not touched.isdisjoint(inner):
                    continue
                weight = sum(self.edges[i][2] for i in path_edges) + sum(self.cost[v] for v in inner)
                if weight == 0:
                    continue
                rest = tree_set.difference(path_edges)
                swap = self._reconnect(rest, set(inner), weight)
                if swap is not None:
                    # a later path is still a key path of the new tree unless
                    # the new path hangs off one of its inner nodes
                    tree_set = rest | set(swap)
                    for i in swap:
                        touched.update(self.edges[i][:2])
                    improved = True
            tree = self.prune(list(tree_set))
            if not improved:
                break
        return tree

    def _other(self, i: int, x: int) -> int:
        u, v, _ = self.edges[i]
        return v if u == x else u

    def _reconnect(self, rest: set[int], freed: set[int], limit: int) -> list[int] | None:
        """Cheapest path joining the two components of `rest`, if below `limit`."""
        adj_t: dict[int, list[int]] = {}
        for i in rest:
            u, v, _ = self.edges[i]
            adj_t.setdefault(u, []).append(v)
            adj_t.setdefault(v, []).append(u)
        nodes = set(adj_t) | (set(self.terminals) - freed)
        if not nodes:
            return None
        start = next(iter(nodes))
        comp = {start}
        stack = [start]
        while stack:
            x = stack.pop()
            for y in adj_t.get(x, ()):
                if y not in comp:
                    comp.add(y)
                    stack.append(y)
        other = nodes - comp
        if not other:
            return None
        if len(other) < len(comp):  # search from the smaller side: fewer nodes in range
            comp, other = other, comp
        dist = {x: 0 for x in comp}
        pred: dict[int, int] = {}
        heap = [(0, x) for x in comp]
        while heap:
            d, x = heapq.heappop(heap)
            if d > dist.get(x, INF) or d >= limit:
                continue
            if x in other:
                path = []
                while x not in comp:
                    i = pred[x]
                    path.append(i)
                    x = self._other(i, x)
                return path
            for y, i in self.adj[x]:
                nd = d + self.edges[i][2] + (0 if y in nodes else self.cost[y])
                if nd < dist.get(y, INF):
                    dist[y] = nd
                    pred[y] = i
                    heapq.heappush(heap, (nd, y))
        return None

    def best_sph(self, roots: Iterable[int], weights=None, allowed=None) -> tuple[int, list[int]] | None:
        best = None
        for r in roots:
            tree = self.sph(r, weights, allowed)
            if tree is None:
                return None
            val = self.value(tree)
            if best is None or val < best[0]:
                best = (val, tree)
        return best


# ---------------------------------------------------------------------------
# Lower bound: directed cut relaxation by row generation
# ---------------------------------------------------------------------------


def _max_flow_cuts(support: dict[int, dict[int, float]], s: int, t: int, tails_of, nested: int):
    """Max flow s->t on `support` capacities (Edmonds-Karp on the small support
    graph of an LP solution); returns the violated cuts it finds.

    Each time the flow stays below 1, the sink side of the minimum cut (nodes
    that can still reach t) is a violated directed cut ("back cut"), and so is
    the complement of the source side ("front cut"). Opening the back cut's
    arcs to capacity 1 and pushing on gives further, disjoint "nested" cuts.
    Returns ("back", W) and ("front", S) pairs: W is the inside of the cut,
    S the source side (the caller takes its complement).
    """
    res: dict[int, dict[int, float]] = {}
    for u, nbrs in support.items():
        ru = res.setdefault(u, {})
        for v, c in nbrs.items():
            ru[v] = ru.get(v, 0.0) + c
            res.setdefault(v, {}).setdefault(u, 0.0)
    res.setdefault(s, {})
    res.setdefault(t, {})
    flow = 0.0
    eps = 1e-9
    need = 1 - 1e-4
    found: list[tuple[str, frozenset[int]]] = []
    for _round in range(nested):
        while flow < need:  # augment along shortest residual paths
            pred = {s: None}
            queue = [s]
            qi = 0
            while qi < len(queue) and t not in pred:
                x = queue[qi]
                qi += 1
                for y, c in res[x].items():
                    if c > eps and y not in pred:
                        pred[y] = x
                        queue.append(y)
            if t not in pred:
                break
            path = []
            y = t
            while pred[y] is not None:
                path.append((pred[y], y))
                y = pred[y]
            delta = min(min(res[x][y] for x, y in path), 1 - flow)
            for x, y in path:
                res[x][y] -= delta
                res[y][x] += delta
            flow += delta
        if flow >= need:
            break
        side = {s}
        stack = [s]
        while stack:
            x = stack.pop()
            for y, c in res[x].items():
                if c > eps and y not in side:
                    side.add(y)
                    stack.append(y)
        sink = {t}
        stack = [t]
        while stack:
            x = stack.pop()
            for y in res[x]:
                if y not in sink and res[y].get(x, 0.0) > eps:
                    sink.add(y)
                    stack.append(y)
        found.append(("back", frozenset(sink)))
        found.append(("front", frozenset(side)))
        for y in sink:
            for x in tails_of.get(y, ()):
                if x not in sink:
                    res.setdefault(x, {})
                    res[x][y] = res[x].get(y, 0.0) + 1.0
                    res[y].setdefault(x, 0.0)
    return found


class _CutLP:
    """Directed cut LP (with in-degree and flow-balance rows), grown by
    separating violated cuts with max flows from the root to each terminal.

    Its optimum (once no cut is violated) equals the multi-commodity flow LP
    bound but the LP has only 2|E| columns, so it solves in a fraction of the
    time. Any intermediate optimum is already a valid lower bound.
    """

    def __init__(self, sub: _Sub, root: int, max_deg: dict[int, int] | None = None, mip: bool = False):
        from ortools.linear_solver import pywraplp

        self.sub = sub
        self.root = root
        self.mip = mip
        self.lp = pywraplp.Solver.CreateSolver("SCIP" if mip else "GLOP")
        lp = self.lp
        self.arcs: list[tuple[int, int, int]] = []
        for i, (u, v, _w) in enumerate(sub.edges):
            if v != root:
                self.arcs.append((u, v, i))
            if u != root:
                self.arcs.append((v, u, i))
        if mip:
            self.y = [lp.BoolVar("") for _ in self.arcs]
        else:
            self.y = [lp.NumVar(0.0, 1.0, "") for _ in self.arcs]
        self.into: dict[int, list[int]] = {v: [] for v in sub.nodes}
        self.out: dict[int, list[int]] = {v: [] for v in sub.nodes}
        self.tails_of: dict[int, list[int]] = {v: [] for v in sub.nodes}
        for a, (s, h, _i) in enumerate(self.arcs):
            self.out[s].append(a)
            self.into[h].append(a)
            self.tails_of[h].append(s)
        obj = lp.Objective()
        for a, (s, h, i) in enumerate(self.arcs):
            obj.SetCoefficient(self.y[a], sub.edges[i][2] + sub.cost[h])
        obj.SetMinimization()
        terms = set(sub.terminals)
        for v in sub.nodes:
            if v == root:
                continue
            indeg = lp.Sum([self.y[a] for a in self.into[v]])
            if v in terms:
                lp.Add(indeg == 1)
            else:
                lp.Add(indeg <= 1)
                lp.Add(indeg <= lp.Sum([self.y[a] for a in self.out[v]]))
                for a in self.out[v]:
                    lp.Add(self.y[a] <= indeg)
        pair: dict[int, list[int]] = {}
        for a, (_s, _h, i) in enumerate(self.arcs):
            pair.setdefault(i, []).append(a)
        for arcs_of in pair.values():
            if len(arcs_of) == 2:
                lp.Add(self.y[arcs_of[0]] + self.y[arcs_of[1]] <= 1)
        if max_deg:
            for v, bound in max_deg.items():
                if v in self.into:
                    _degree_rows(lp, v == root, bound, [self.y[a] for a in self.into[v]],
                                 [self.y[a] for a in self.out[v]])
        self.cuts: list[frozenset[int]] = []
        self._cut_keys: set[frozenset[int]] = set()
        self.value: float | None = None
        self.values: list[float] = []
        self.rounds = 0
        self.fresh = False

    def add_cut(self, inside: frozenset[int]) -> bool:
        """Add y(arcs entering `inside`) >= 1; False if already present."""
        if inside in self._cut_keys:
            return False
        self._cut_keys.add(inside)
        self.cuts.append(inside)
        arcs = [a for v in inside for a in self.into[v] if self.arcs[a][0] not in inside]
        self.lp.Add(self.lp.Sum([self.y[a] for a in arcs]) >= 1)
        return True

    def solve(self) -> bool:
        from ortools.linear_solver import pywraplp

        status = self.lp.Solve()
        if status != pywraplp.Solver.OPTIMAL:
            return False
        # the root has no entering arc: its cost is a constant outside the objective
        self.value = self.lp.Objective().Value() + self.sub.cost[self.root]
        self.values = [v.solution_value() for v in self.y]
        return True

    def separate(self, nested: int = 4) -> int:
        """Add violated cuts for every terminal; returns how many were added."""
        support: dict[int, dict[int, float]] = {}
        for a, val in enumerate(self.values):
            if val > 1e-9:
                s, h, _ = self.arcs[a]
                support.setdefault(s, {})[h] = val
        added = 0
        for t in self.sub.terminals:
            if t == self.root:
                continue
            for kind, W in _max_flow_cuts(support, self.root, t, self.tails_of, nested):
                if kind == "front":
                    W = frozenset(v for v in self.sub.nodes if v not in W)
                if self.root in W or t not in W:
                    continue
                if self.add_cut(W):
                    added += 1
        return added

    def reduced_costs(self) -> list[float]:
        return [v.reduced_cost() for v in self.y]

    def run(self, deadline: float | None, stop_at: int | None = None) -> float | None:
        """Cut loop until no violated cut, the bound reaches `stop_at`, or time.

        Returns the last LP optimum (a valid lower bound even when cuts are
        still missing), or None if no LP was solved to optimality. `fresh`
        tells whether the solver still holds that optimum (for reduced costs).
        """
        best = None
        while True:
            if deadline is not None:
                left = deadline - time.perf_counter()
                if left <= 0:
                    return best
                self.lp.SetTimeLimit(max(1, int(left * 1000)))
            if not self.solve():
                self.fresh = False
                return best
            self.fresh = True
            best = self.value
            self.rounds += 1
            if stop_at is not None and math.ceil(self.value - 1e-6) >= stop_at:
                return best
            if deadline is not None and time.perf_counter() > deadline:
                return best
            if self.separate() == 0:
                return best


# ---------------------------------------------------------------------------
# Lower bound: dual ascent, and the reductions it enables
# ---------------------------------------------------------------------------


class _Digraph:
    """The bidirected version of a `_Sub` on local indices 0..n-1.

    Arc u->v costs w(uv) + cost(v): every node of a tree rooted at a
    terminal, except the root, has exactly one entering arc, so this charges
    node costs exactly once (terminals cost 0 in the working graph).
    """

    def __init__(self, sub: _Sub):
        self.sub = sub
        self.index = {v: i for i, v in enumerate(sub.nodes)}
        self.n = len(sub.nodes)
        self.tail: list[int] = []
        self.head: list[int] = []
        self.cost: list[int] = []
        self.edge: list[int] = []
        self.into: list[list[int]] = [[] for _ in range(self.n)]
        self.out: list[list[int]] = [[] for _ in range(self.n)]
        for i, (u, v, w) in enumerate(sub.edges):
            a, b = self.index[u], self.index[v]
            for s, h, node in ((a, b, v), (b, a, u)):
                arc = len(self.tail)
                self.tail.append(s)
                self.head.append(h)
                self.cost.append(w + sub.cost[node])
                self.edge.append(i)
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
            stack = []
            for y in start:
                if y not in comp:
                    comp.add(y)
                    stack.append(y)
            while stack:
                x = stack.pop()
                for a in into[x]:
                    y = tail[a]
                    if y in comp:
                        continue
                    if rc[a] == 0:
                        comp.add(y)
                        stack.append(y)
                    else:
                        arcs.append(a)

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
                raise _Infeasible()
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

    def dijkstra(self, weights: list[int], sources: Iterable[int], reverse: bool = False) -> list[float]:
        dist = [INF] * self.n
        heap = []
        for s in sources:
            dist[s] = 0
            heap.append((0, s))
        heapq.heapify(heap)
        nbr = self.into if reverse else self.out
        ends = self.tail if reverse else self.head
        while heap:
            d, x = heapq.heappop(heap)
            if d > dist[x]:
                continue
            for a in nbr[x]:
                y = ends[a]
                nd = d + weights[a]
                if nd < dist[y]:
                    dist[y] = nd
                    heapq.heappush(heap, (nd, y))
        return dist


class _Infeasible(Exception):
    """The terminals cannot be joined (raised inside the algorithms)."""


# ---------------------------------------------------------------------------
# Orchestration
# ---------------------------------------------------------------------------

DP_FIRST_LIMIT = 4e8  # numpy operations (about a second) for the DP before anything else
DP_FINAL_LIMIT = 2e9  # after the dual-ascent reductions, the DP vs the MIP


def _reduce(wk: _Work, deadline: float | None) -> None:
    """Apply the cheap reductions until they stop changing the graph."""
    wk.degree_tests()
    if wk.max_deg is not None:
        return
    for _ in range(10):
        if wk.nterm <= 1 or _past(deadline):
            return
        changed = wk.nearest_terminal_test()
        wk.degree_tests()
        if wk.nterm <= 1:
            return
        removed = wk.sd_test()
        wk.degree_tests()
        if not changed and not removed:
            return


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() > deadline


def _sub_of(wk: _Work) -> tuple[_Sub, list[int]]:
    eids = list(wk.w)
    edges = [(wk.ends[e][0], wk.ends[e][1], wk.w[e]) for e in eids]
    return _Sub(wk.nodes(), edges, wk.cost, wk.terminals()), eids


def _connected(sub: _Sub) -> bool:
    if not sub.terminals:
        return True
    seen = {sub.terminals[0]}
    stack = [sub.terminals[0]]
    while stack:
        x = stack.pop()
        for y, _ in sub.adj[x]:
            if y not in seen:
                seen.add(y)
                stack.append(y)
    return all(t in seen for t in sub.terminals)


class _Incumbent:
    """Best tree found so far, kept as original edge indices with its total."""

    def __init__(self):
        self.value: int | None = None
        self.orig: set[int] = set()

    def offer(self, wk: _Work, sub: _Sub, eids: list[int], tree: list[int] | None) -> bool:
        if tree is None or not _spans(sub, tree):
            return False
        total = wk.fixed_cost + sub.value(tree)
        if self.value is None or total < self.value:
            self.value = total
            self.orig = set(wk.fixed_edges)
            for i in tree:
                self.orig.update(wk.orig[eids[i]])
            return True
        return False

    def sub_bound(self, wk: _Work) -> float:
        return INF if self.value is None else self.value - wk.fixed_cost

    def hint(self, wk: _Work, eids: list[int]) -> list[int]:
        return [i for i, e in enumerate(eids) if set(wk.orig[e]) <= self.orig]


def _solve_reduced(wk: _Work, deadline: float | None, stats: dict):
    """Solve the instance held by `wk` (after construction).

    Returns (status, value, lower bound, original edge indices, method);
    values are totals including the fixed part.
    """
    inc = _Incumbent()
    lb_total = 0
    method = "reduction"
    _reduce(wk, deadline)
    stats["reduced_nodes"] = len(wk.nodes())
    stats["reduced_edges"] = wk.num_edges()
    stats["reduced_terminals"] = wk.nterm

    def trivial_tree():
        return "optimal", wk.fixed_cost, wk.fixed_cost, set(wk.fixed_edges), method

    for outer in range(4):
        if wk.nterm <= 1:
            if inc.value is not None and inc.value <= wk.fixed_cost:
                return "optimal", inc.value, inc.value, inc.orig, method
            return trivial_tree()
        sub, eids = _sub_of(wk)
        if not _connected(sub):
            if inc.value is None:
                raise _Infeasible()
            return "optimal", inc.value, inc.value, inc.orig, method
        n, k = len(sub.nodes), len(sub.terminals)
        if _dp_cost_estimate(n, k) <= DP_FIRST_LIMIT:
            return _finish_dp(wk, sub, eids, inc, deadline, stats, lb_total)
        # primal: shortest-path heuristic from a few terminals, then local search
        t_heur = time.perf_counter()
        roots = sub.terminals[: max(4, min(k, 8))]
        found = sub.best_sph(roots)
        if found is None:
            raise _Infeasible()
        seen: set[frozenset[int]] = set()
        _offer_polished(inc, wk, sub, eids, found[1], seen)
        # dual ascent from every terminal: bound, guided heuristic, reduced costs
        dg = _Digraph(sub)
        runs = []
        for root in dg.terms:
            if _past(deadline):
                break
            lb, rc = dg.dual_ascent(root)
            lb_total = max(lb_total, min(inc.value, lb + wk.fixed_cost))
            runs.append((root, lb, [float(x) for x in rc]))
            allowed = _saturated_reach(dg, rc, root)
            tree = sub.sph(sub.nodes[root], allowed={sub.nodes[i] for i in allowed})
            _offer_polished(inc, wk, sub, eids, tree, seen)
            if lb_total >= inc.value:
                break
        stats["heuristic_seconds"] = stats.get("heuristic_seconds", 0) + time.perf_counter() - t_heur
        stats["dual_ascent_bound"] = lb_total
        if lb_total >= inc.value:
            return "optimal", inc.value, inc.value, inc.orig, "dual-ascent"
        if _past(deadline):
            return "feasible", inc.value, lb_total, inc.orig, "time-limit"
        removed = _eliminate(wk, sub, eids, dg, runs, inc.sub_bound(wk) - 1)
        stats["da_eliminated"] = stats.get("da_eliminated", 0) + removed
        _reduce(wk, deadline)
        if removed == 0:
            break

    # exact phase on what is left
    if wk.nterm <= 1:
        if inc.value is not None and inc.value <= wk.fixed_cost:
            return "optimal", inc.value, inc.value, inc.orig, "dual-ascent"
        return trivial_tree()
    sub, eids = _sub_of(wk)
    if not _connected(sub):
        if inc.value is None:
            raise _Infeasible()
        return "optimal", inc.value, inc.value, inc.orig, "dual-ascent"
    if _dp_cost_estimate(len(sub.nodes), len(sub.terminals)) <= DP_FINAL_LIMIT:
        _final_stats(stats, sub)
        return _finish_dp(wk, sub, eids, inc, deadline, stats, lb_total)
    # still too big for the DP: the LP bound is tighter than dual ascent's and
    # its reduced costs usually remove most of what is left
    lp_bound, root, cuts = _lp_phase(wk, sub, eids, inc, deadline, stats)
    if lp_bound is not None:
        lb_total = max(lb_total, min(inc.value, lp_bound + wk.fixed_cost))
    if lb_total >= inc.value:
        return "optimal", inc.value, inc.value, inc.orig, "lp-cut"
    if _past(deadline):
        return "feasible", inc.value, lb_total, inc.orig, "time-limit"
    _reduce(wk, deadline)
    if wk.nterm <= 1:
        if inc.value <= wk.fixed_cost:
            return "optimal", inc.value, inc.value, inc.orig, "lp-cut"
        return trivial_tree()
    sub, eids = _sub_of(wk)
    if not _connected(sub):
        return "optimal", inc.value, inc.value, inc.orig, "lp-cut"
    _final_stats(stats, sub)
    if _dp_cost_estimate(len(sub.nodes), len(sub.terminals)) <= DP_FINAL_LIMIT:
        return _finish_dp(wk, sub, eids, inc, deadline, stats, lb_total)
    return _finish_cut_mip(wk, sub, eids, inc, deadline, stats, lb_total, root, cuts)


def _finish_cut_mip(wk, sub, eids, inc, deadline, stats, lb_total, root, cuts):
    """Exact phase by the cut MIP, reusing the LP phase's cuts.

    Reductions since the LP may have removed or merged nodes; a cut stays
    valid for the smaller graph as long as it still holds a terminal and not
    the root, so the cuts are intersected with the surviving nodes and kept
    when they pass that test.
    """
    alive = set(sub.nodes)
    terms = set(sub.terminals)
    if root not in terms:
        root = sub.terminals[0]
    kept = []
    for c in cuts:
        w = frozenset(v for v in c if v in alive)
        if root not in w and not terms.isdisjoint(w):
            kept.append(w)
    hint = inc.hint(wk, eids) if inc.value is not None else None
    if hint is not None and not _spans(sub, hint):
        hint = None
    out = _cut_mip(sub, root, kept, hint, deadline, stats=stats)
    stats["exact_seconds"] = out.seconds
    if out.status == "infeasible":
        return "optimal", inc.value, inc.value, inc.orig, "mip-cut"
    if out.value is not None:
        inc.offer(wk, sub, eids, out.edges)
    bound = lb_total
    if out.bound is not None:
        bound = max(bound, min(inc.value, out.bound + wk.fixed_cost))
    bound = min(bound, inc.value)
    return ("optimal" if bound >= inc.value else "feasible"), inc.value, bound, inc.orig, "mip-cut"


def _spans(sub: _Sub, tree: list[int]) -> bool:
    """True if the edges `tree` connect all terminals of `sub`."""
    adj: dict[int, list[int]] = {}
    for i in tree:
        u, v, _ = sub.edges[i]
        adj.setdefault(u, []).append(v)
        adj.setdefault(v, []).append(u)
    start = sub.terminals[0]
    seen = {start}
    stack = [start]
    while stack:
        x = stack.pop()
        for z in adj.get(x, ()):
            if z not in seen:
                seen.add(z)
                stack.append(z)
    return all(t in seen for t in sub.terminals)


def _final_stats(stats: dict, sub: _Sub) -> None:
    stats["final_nodes"] = len(sub.nodes)
    stats["final_edges"] = len(sub.edges)
    stats["final_terminals"] = len(sub.terminals)


def _lp_phase(wk: _Work, sub: _Sub, eids: list[int], inc: _Incumbent, deadline, stats):
    """Directed cut LP seeded with dual-ascent cuts; LP-guided heuristic;
    reduced-cost elimination. Returns (LP bound in working-graph terms or
    None, root, cuts) so that the exact phase can start from the same cuts.

    Seeding matters: started from the cuts that dual ascent raised, the cut
    loop needs about a dozen rounds instead of hundreds (measured on PACE
    instance 107: 4 s instead of minutes).
    """
    t0 = time.perf_counter()
    dg = _Digraph(sub)
    runs = []
    for r in dg.terms:
        cuts: list[frozenset[int]] = []
        lb, rc = dg.dual_ascent(r, cuts)
        runs.append((lb, r, cuts))
        if _past(deadline):
            break
    lb, root, _ = max(runs, key=lambda x: x[0])
    lp = _CutLP(sub, sub.nodes[root])
    lp.lp.SetSolverSpecificParametersAsString("use_preprocessing: false, use_dual_simplex: true")
    for _lb, _r, cuts in runs:
        for c in cuts:
            if root not in c:
                lp.add_cut(frozenset(sub.nodes[i] for i in c))
    value = lp.run(deadline, stop_at=inc.sub_bound(wk))
    stats["lp_rounds"] = lp.rounds
    stats["lp_cuts"] = len(lp.cuts)
    root_node = sub.nodes[root]
    if value is None:
        return None, root_node, lp.cuts
    bound = math.ceil(value - 1e-6 * max(1.0, abs(value)))
    stats["lp_bound"] = bound + wk.fixed_cost
    # LP-guided shortest-path heuristic: edges the LP uses are cheap
    use = [0.0] * len(sub.edges)
    for a, (_s, _h, i) in enumerate(lp.arcs):
        use[i] += lp.values[a]
    weights = [w * max(0.0, 1.0 - u) for (_u, _v, w), u in zip(sub.edges, use)]
    seen: set[frozenset[int]] = set()
    for r in sub.terminals[:8]:
        _offer_polished(inc, wk, sub, eids, sub.sph(r, weights), seen)
    ub = inc.sub_bound(wk)
    if bound >= ub or not lp.fresh or _past(deadline):
        stats["lp_seconds"] = time.perf_counter() - t0
        return bound, root_node, lp.cuts
    # reduced-cost elimination. For any tree x satisfying the LP's rows,
    # cost(x) >= LP + sum of positive reduced costs of its arcs; float duals,
    # so keep a margin before calling an integer value ">= ub".
    rcs = lp.reduced_costs()
    rc_arc = [0.0] * len(dg.tail)
    for a, (s_, h_, i) in enumerate(lp.arcs):
        da = 2 * i if dg.tail[2 * i] == dg.index[s_] else 2 * i + 1
        rc_arc[da] = max(0.0, rcs[a])
    for a in range(len(dg.tail)):  # arcs into the root are not in the LP
        if dg.head[a] == root:
            rc_arc[a] = INF
    margin = 1e-3 + 1e-7 * abs(value)
    removed = _eliminate(wk, sub, eids, dg, [(root, value, rc_arc)], ub - 1 + margin)
    stats["lp_eliminated"] = removed
    stats["lp_seconds"] = time.perf_counter() - t0
    return bound, root_node, lp.cuts


def _offer_polished(inc: _Incumbent, wk: _Work, sub: _Sub, eids: list[int], tree, seen: set) -> None:
    """Offer a heuristic tree, and its local-search improvement when it is
    new and within 2% of the incumbent (local search is the expensive part
    and rarely closes a larger gap)."""
    if tree is None:
        return
    key = frozenset(tree)
    if key in seen:
        return
    seen.add(key)
    inc.offer(wk, sub, eids, tree)
    total = wk.fixed_cost + sub.value(tree)
    if total <= inc.value * 1.02 + 1:
        inc.offer(wk, sub, eids, sub.key_path_exchange(tree))


def _saturated_reach(dg: _Digraph, rc: list[int], root: int) -> set[int]:
    """Nodes reachable from the root through arcs of zero reduced cost; they
    hold a tree of the dual-ascent's support, a good place for a heuristic."""
    seen = {root}
    stack = [root]
    while stack:
        x = stack.pop()
        for a in dg.out[x]:
            y = dg.head[a]
            if rc[a] == 0 and y not in seen:
                seen.add(y)
                stack.append(y)
    return seen


def _eliminate(wk: _Work, sub: _Sub, eids: list[int], dg: _Digraph, runs, threshold: float) -> int:
    """Reduced-cost tests: drop what only trees of weight > threshold could use.

    For a dual-ascent run with bound L and reduced costs rc, a tree using arc
    u->v costs at least L + dist_rc(root, u) + rc(u->v) + dist_rc(v, terminal)
    (the three parts are arc-disjoint in a tree rooted at the root whose
    leaves are terminals). A node statement holds for any tree; an arc
    statement only for trees rooted at that run's root. A non-terminal is
    dropped alike with L + dist(root, v) + dist(v, terminal). The caller sets
    threshold = incumbent - 1 (plus a float margin for LP duals): with integer
    data such trees are no better than the incumbent, which we already hold.
    """
    if threshold == INF:
        return 0
    node_gone = [False] * dg.n
    edge_gone = [False] * len(eids)
    for root, lb, rc in runs:
        dr = dg.dijkstra(rc, [root])
        dt = dg.dijkstra(rc, [t for t in dg.terms if t != root], reverse=True)
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


def _finish_dp(wk, sub, eids, inc, deadline, stats, lb_total):
    index = {v: i for i, v in enumerate(sub.nodes)}
    edges = [(index[u], index[v], w) for u, v, w in sub.edges]
    cost = [sub.cost[v] for v in sub.nodes]
    t0 = time.perf_counter()
    out = _dreyfus_wagner(len(sub.nodes), edges, cost, [index[t] for t in sub.terminals], deadline)
    stats["exact_seconds"] = time.perf_counter() - t0
    if out is None:
        if inc.value is None:
            if _past(deadline):
                raise _TimeUp(lb_total)
            raise _Infeasible()
        status = "feasible" if _past(deadline) else "optimal"
        return status, inc.value, (lb_total if status == "feasible" else inc.value), inc.orig, "dreyfus-wagner"
    value, pairs = out
    lookup = {}
    for i, (u, v, w) in enumerate(edges):
        key = (min(u, v), max(u, v))
        if key not in lookup or w < edges[lookup[key]][2]:
            lookup[key] = i
    tree = [lookup[p] for p in pairs]
    inc.offer(wk, sub, eids, sub.prune(tree))
    # the DP value is the optimum of the reduced instance
    bound = min(inc.value, value + wk.fixed_cost)
    return "optimal" if bound >= inc.value else "feasible", inc.value, bound, inc.orig, "dreyfus-wagner"


def _finish_mip(wk, sub, eids, inc, deadline, stats, lb_total, max_deg=None):
    remaining = None if deadline is None else max(0.5, deadline - time.perf_counter())
    hint = inc.hint(wk, eids) if inc.value is not None else None
    out = _flow_mip(
        sub.nodes, sub.edges, sub.cost, sub.terminals,
        time_limit=remaining, max_deg=max_deg, hint_edges=hint,
    )
    stats["exact_seconds"] = out.seconds
    method = "mip-flow" if max_deg is None else "mip-flow-degree"
    if out.status == "infeasible":
        if inc.value is None:
            raise _Infeasible()
        return "optimal", inc.value, inc.value, inc.orig, method
    if out.value is not None:
        inc.offer(wk, sub, eids, out.edges)
    if inc.value is None:
        raise _TimeUp(max(lb_total, (out.bound or 0) + wk.fixed_cost))
    bound = lb_total
    if out.bound is not None:
        bound = max(bound, min(inc.value, out.bound + wk.fixed_cost))
    if out.status == "optimal" and out.value is not None:
        bound = max(bound, min(inc.value, out.value + wk.fixed_cost))
    bound = min(bound, inc.value)
    return ("optimal" if bound >= inc.value else "feasible"), inc.value, bound, inc.orig, method


def _cut_mip(sub: _Sub, root: int, cuts: Iterable[frozenset[int]], hint: list[int] | None,
             deadline: float | None, max_deg: dict[int, int] | None = None, stats: dict | None = None) -> _MipOutcome:
    """Directed cut MIP solved by SCIP, with cuts added between solves.

    pywraplp has no lazy-constraint callback, so this is "solve, check,
    add cuts, solve again": the model is a relaxation as long as cuts are
    missing, so its optimum is a lower bound, and once its tree reaches every
    terminal from the root it is optimal. Started with the cuts of the LP
    phase, one or two solves are usually enough.
    """
    from ortools.linear_solver import pywraplp

    t0 = time.perf_counter()
    model = _CutLP(sub, root, max_deg=max_deg, mip=True)
    solver = model.lp
    solver.SetNumThreads(1)
    solver.SetSolverSpecificParametersAsString("limits/gap = 0\nlimits/absgap = 0\n")
    for c in cuts:
        model.add_cut(c)
    best_bound = None
    hint_arcs = None
    if hint is not None:
        hint_arcs = _orient(sub, hint, root)
    iterations = 0
    while True:
        iterations += 1
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            solver.SetTimeLimit(max(1, int(left * 1000)))
        if hint_arcs is not None:
            arc_index = {(s_, h_): a for a, (s_, h_, _i) in enumerate(model.arcs)}
            used = {arc_index[p] for p in hint_arcs if p in arc_index}
            solver.SetHint(model.y, [1.0 if a in used else 0.0 for a in range(len(model.arcs))])
        status = solver.Solve()
        if status == pywraplp.Solver.INFEASIBLE:
            if stats is not None:
                stats["cut_mip_solves"] = iterations
            return _MipOutcome("infeasible", None, None, [], time.perf_counter() - t0)
        bound = _safe_bound(solver.Objective().BestBound() + sub.cost[root])
        if bound is not None:
            best_bound = bound if best_bound is None else max(best_bound, bound)
        if status not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
            break
        chosen = [a for a in range(len(model.arcs)) if model.y[a].solution_value() > 0.5]
        out: dict[int, list[int]] = {}
        for a in chosen:
            out.setdefault(model.arcs[a][0], []).append(a)
        reach = {root}
        stack = [root]
        tree_arcs = []
        while stack:
            x = stack.pop()
            for a in out.get(x, ()):
                h = model.arcs[a][1]
                if h not in reach:
                    reach.add(h)
                    tree_arcs.append(a)
                    stack.append(h)
        missing = [t for t in sub.terminals if t not in reach]
        if not missing:
            edges = sub.prune(sorted({model.arcs[a][2] for a in tree_arcs}))
            value = sub.value(edges)
            if status == pywraplp.Solver.OPTIMAL:
                bound = value if best_bound is None else max(best_bound, value)
            else:
                bound = best_bound
            if stats is not None:
                stats["cut_mip_solves"] = iterations
            st = "optimal" if bound is not None and bound >= value else "feasible"
            return _MipOutcome(st, value, min(bound, value) if bound is not None else None, edges,
                               time.perf_counter() - t0)
        # cut off this solution: every chosen component away from the root
        comp_of: dict[int, int] = {}
        undirected: dict[int, list[int]] = {}
        for a in chosen:
            s_, h_, _i = model.arcs[a]
            undirected.setdefault(s_, []).append(h_)
            undirected.setdefault(h_, []).append(s_)
        added = 0
        for t in missing:
            if t in comp_of:
                continue
            comp = {t}
            stack = [t]
            while stack:
                x = stack.pop()
                for z in undirected.get(x, ()):
                    if z not in comp:
                        comp.add(z)
                        stack.append(z)
            for x in comp:
                comp_of[x] = t
            added += model.add_cut(frozenset(comp))
        added += model.add_cut(frozenset(v for v in sub.nodes if v not in reach))
        if not added:  # cannot happen with a correct model; do not loop forever
            break
    if stats is not None:
        stats["cut_mip_solves"] = iterations
    return _MipOutcome("unknown", None, best_bound, [], time.perf_counter() - t0)


def _orient(sub: _Sub, tree: list[int], root: int) -> set[tuple[int, int]]:
    """Arcs of `tree` (edge indices of `sub`) directed away from `root`."""
    adj: dict[int, list[int]] = {}
    for i in tree:
        u, v, _ = sub.edges[i]
        adj.setdefault(u, []).append(v)
        adj.setdefault(v, []).append(u)
    arcs = set()
    seen = {root}
    stack = [root]
    while stack:
        x = stack.pop()
        for z in adj.get(x, ()):
            if z not in seen:
                seen.add(z)
                arcs.add((x, z))
                stack.append(z)
    return arcs


class _TimeUp(Exception):
    """No tree was found before the time limit; carries the best bound."""

    def __init__(self, bound):
        super().__init__("time limit")
        self.bound = bound


# ---------------------------------------------------------------------------
# Public entry point
# ---------------------------------------------------------------------------


def _as_int(value, what: str) -> int:
    """Integers only: bounds are compared exactly, so floats would be a trap."""
    if isinstance(value, bool):
        raise InputError(f"{what} must be an integer, got {value!r}")
    if isinstance(value, int):
        return value
    try:
        import numbers

        if isinstance(value, numbers.Integral):
            return int(value)
        if isinstance(value, numbers.Real) and float(value).is_integer():
            return int(value)
    except (TypeError, ValueError, OverflowError):
        pass
    raise InputError(f"{what} must be an integer, got {value!r}")


def _check_tree(nodes_of_tree, tree_edges, terminals, weight_of, cost_of) -> int:
    """Re-check a returned tree on the caller's graph and recompute its weight."""
    g = nx.Graph()
    g.add_nodes_from(nodes_of_tree)
    g.add_edges_from(tree_edges)
    if terminals and not nx.is_tree(g):
        raise RuntimeError("internal error: the Steiner solution is not a tree")
    missing = [t for t in terminals if t not in g]
    if missing:
        raise RuntimeError(f"internal error: the Steiner tree misses terminals {missing}")
    return sum(weight_of(u, v) for u, v in tree_edges) + sum(cost_of(v) for v in g.nodes)


def solve_steiner(
    graph: nx.Graph,
    terminals,
    *,
    weight: str = "weight",
    node_cost: str = "cost",
    max_degree: dict | None = None,
    time_limit: float | None = None,
) -> SteinerResult:
    """Minimum-weight tree of `graph` containing all `terminals`, with proof.

    Weight of a tree = sum of its edges' `weight` attributes + sum of its
    nodes' `node_cost` attributes (both non-negative integers, 0 if absent).
    `max_degree` maps nodes to the most tree edges they may have.
    `time_limit` (seconds) turns an unfinished search into status
    "feasible" with the best proven lower bound.

    Raises `InputError` for a directed graph, a terminal that is not a node,
    or a negative or non-integer weight, cost or degree bound.
    """
    start = time.perf_counter()
    deadline = None if time_limit is None else start + float(time_limit)
    if graph.is_directed():
        raise InputError("the Steiner solver needs an undirected graph")
    if time_limit is not None and not time_limit > 0:
        raise InputError(f"time limit must be positive, got {time_limit!r}")
    try:
        terms = list(dict.fromkeys(terminals))
    except TypeError:
        raise InputError("terminals must be an iterable of node ids") from None
    for t in terms:
        if t not in graph:
            raise InputError(f"terminal {t!r} is not a node of the graph")

    nodes = list(graph.nodes)
    index = {v: i for i, v in enumerate(nodes)}
    cost = []
    for v in nodes:
        c = _as_int(graph.nodes[v].get(node_cost, 0), f"cost of node {v!r}")
        if c < 0:
            raise InputError(f"cost of node {v!r} must be non-negative, got {c}")
        cost.append(c)
    best_edge: dict[tuple[int, int], int] = {}
    multi = graph.is_multigraph()
    edge_iter = graph.edges(keys=True, data=True) if multi else ((u, v, None, d) for u, v, d in graph.edges(data=True))
    for u, v, _key, data in edge_iter:
        w = _as_int(data.get(weight, 0), f"weight of edge {u!r}-{v!r}")
        if w < 0:
            raise InputError(f"weight of edge {u!r}-{v!r} must be non-negative, got {w}")
        if u == v:
            continue
        a, b = sorted((index[u], index[v]))
        if (a, b) not in best_edge or w < best_edge[(a, b)]:
            best_edge[(a, b)] = w
    bounds = None
    if max_degree:
        bounds = {}
        for v, d in max_degree.items():
            if v not in graph:
                raise InputError(f"max_degree names {v!r}, which is not a node of the graph")
            d = _as_int(d, f"degree bound of node {v!r}")
            if d < 0:
                raise InputError(f"degree bound of node {v!r} must be non-negative, got {d}")
            bounds[index[v]] = d

    def weight_of(u, v):
        return best_edge[tuple(sorted((index[u], index[v])))]

    def cost_of(v):
        return cost[index[v]]

    def result(status, value, lb, tree_edges, tree_nodes, method, stats):
        return SteinerResult(
            status=status,
            value=value,
            lower_bound=lb,
            edges=tree_edges,
            nodes=tree_nodes,
            seconds=time.perf_counter() - start,
            method=method,
            stats=stats,
        )

    stats: dict = {"nodes": len(nodes), "edges": len(best_edge), "terminals": len(terms)}
    if not terms:
        return result("optimal", 0, 0, [], [], "trivial", stats)
    if len(terms) == 1:
        t = terms[0]
        return result("optimal", cost_of(t), cost_of(t), [], [t], "trivial", stats)

    # only the terminals' component matters; elsewhere there is no proof to give
    comp = nx.node_connected_component(graph, terms[0])
    if any(t not in comp for t in terms):
        return result("infeasible", None, None, [], [], "trivial", stats)
    local = [index[v] for v in nodes if v in comp]
    loc = {g: i for i, g in enumerate(local)}
    e_list = [(loc[a], loc[b]) for (a, b) in best_edge if a in loc]
    w_list = [best_edge[(local[a], local[b])] for a, b in e_list]
    c_list = [cost[g] for g in local]
    t_list = [loc[index[t]] for t in terms]

    def to_caller(orig: set[int]):
        """Original edge indices -> a clean tree on the caller's node ids."""
        g = nx.Graph()
        for i in orig:
            a, b = e_list[i]
            g.add_edge(a, b, weight=w_list[i] + 0.0)
        g.add_nodes_from(t_list)
        forest = nx.minimum_spanning_tree(g)
        # prune non-terminal leaves (non-negative costs: never worse)
        tset = set(t_list)
        leaves = [x for x in forest if forest.degree(x) <= 1 and x not in tset]
        while leaves:
            x = leaves.pop()
            if x not in forest or x in tset:
                continue
            nbrs = list(forest.neighbors(x))
            forest.remove_node(x)
            leaves.extend(y for y in nbrs if forest.degree(y) <= 1 and y not in tset)
        tree_nodes = [nodes[local[x]] for x in forest.nodes]
        tree_edges = [(nodes[local[a]], nodes[local[b]]) for a, b in forest.edges]
        value = _check_tree(tree_nodes, tree_edges, terms, weight_of, cost_of)
        return value, tree_edges, tree_nodes

    try:
        wk = _Work(len(local), e_list, w_list, c_list, t_list)
        status, value, lb, orig, method = _solve_reduced(wk, deadline, stats)
    except _Infeasible:
        return result("infeasible", None, None, [], [], "trivial", stats)
    except _TimeUp as up:
        return result("feasible", None, int(up.bound), [], [], "time-limit", stats)
    tree_value, tree_edges, tree_nodes = to_caller(orig)
    if tree_value > value:
        raise RuntimeError(f"internal error: tree re-checked at {tree_value}, solver said {value}")
    if lb is not None and tree_value < lb:
        raise RuntimeError(f"internal error: tree of weight {tree_value} below proven bound {lb}")
    value = tree_value
    status = "optimal" if lb is not None and lb >= value else "feasible"

    if bounds:
        over = [v for v in tree_nodes if sum(1 for e in tree_edges if v in e) > bounds.get(index[v], INF)]
        if over:
            stats["degree_violations_unconstrained"] = len(over)
            return _solve_with_degrees(
                graph, terms, local, loc, e_list, w_list, c_list, t_list, bounds, index, nodes,
                lb, deadline, stats, weight_of, cost_of, result,
            )
    return result(status, value, lb, tree_edges, tree_nodes, method, stats)


def _solve_with_degrees(graph, terms, local, loc, e_list, w_list, c_list, t_list, bounds, index, nodes,
                        lb_free, deadline, stats, weight_of, cost_of, result):
    """Re-solve with degree bounds by the flow MIP (plus degree-safe reductions).

    The unconstrained optimum `lb_free` is a valid lower bound here.
    """
    md = [bounds.get(local[i], len(local)) for i in range(len(local))]
    wk = _Work(len(local), e_list, w_list, c_list, t_list, max_deg=md)
    for t in t_list:
        if md[t] < 1:
            return result("infeasible", None, None, [], [], "degree-bounds", stats)
    wk.degree_tests()
    inc = _Incumbent()
    if wk.nterm <= 1:
        status, value, lb, orig = "optimal", wk.fixed_cost, wk.fixed_cost, set(wk.fixed_edges)
        method = "reduction"
    else:
        sub, eids = _sub_of(wk)
        if not _connected(sub):
            return result("infeasible", None, None, [], [], "degree-bounds", stats)
        try:
            status, value, lb, orig, method = _finish_mip(
                wk, sub, eids, inc, deadline, stats, lb_free or 0,
                max_deg={v: wk.max_deg[v] for v in sub.nodes if wk.max_deg[v] < len(sub.adj[v])},
            )
        except _Infeasible:
            return result("infeasible", None, None, [], [], "mip-flow-degree", stats)
        except _TimeUp as up:
            return result("feasible", None, int(up.bound), [], [], "time-limit", stats)
    g = nx.Graph()
    g.add_nodes_from(t_list)
    for i in orig:
        g.add_edge(*e_list[i])
    tree_nodes = [nodes[local[x]] for x in g.nodes]
    tree_edges = [(nodes[local[a]], nodes[local[b]]) for a, b in g.edges]
    value_chk = _check_tree(tree_nodes, tree_edges, terms, weight_of, cost_of)
    for v in tree_nodes:
        if g.degree(loc[index[v]]) > bounds.get(index[v], INF):
            raise RuntimeError("internal error: degree bound violated by the constrained model")
    if value_chk != value:
        raise RuntimeError(f"internal error: tree re-checked at {value_chk}, solver said {value}")
    lb = max(lb or 0, lb_free or 0)
    lb = min(lb, value)
    status = "optimal" if lb >= value else "feasible"
    return result(status, value, lb, tree_edges, tree_nodes, method, stats)
