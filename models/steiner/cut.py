"""The directed cut relaxation: its LP grown by max-flow separation, and the
cut MIP solved by SCIP with cuts added between solves."""
from __future__ import annotations

import time
from typing import Iterable

from ortools.linear_solver import pywraplp

from .arcs import ArcModel, run, safe_bound, scip
from .flow import MipOutcome
from .paths import adjacency, orient, reach
from .subgraph import Sub


def max_flow_cuts(support: dict[int, dict[int, float]], s: int, t: int, tails_of, nested: int):
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
        side = reach([s], lambda x: (y for y, c in res[x].items() if c > eps))
        sink = reach([t], lambda x: (y for y in res[x] if res[y].get(x, 0.0) > eps))
        found.append(("back", frozenset(sink)))
        found.append(("front", frozenset(side)))
        for y in sink:
            for x in tails_of.get(y, ()):
                if x not in sink:
                    res.setdefault(x, {})
                    res[x][y] = res[x].get(y, 0.0) + 1.0
                    res[y].setdefault(x, 0.0)
    return found


class CutLP:
    """Directed cut model (with the Koch-Martin rows), grown by separating
    violated cuts with max flows from the root to each terminal: an LP in
    GLOP, or with `mip` a MIP in SCIP.

    The LP optimum (once no cut is violated) equals the multi-commodity flow
    LP bound but the LP has only 2|E| columns, so it solves in a fraction of
    the time. Any intermediate optimum is already a valid lower bound.
    """

    def __init__(self, sub: Sub, root: int, mip: bool = False):
        self.sub = sub
        self.root = root
        self.lp = scip(1) if mip else pywraplp.Solver.CreateSolver("GLOP")
        self.model = ArcModel(self.lp, sub.nodes, sub.edges, sub.cost, root, binary=mip)
        self.arcs, self.y = self.model.arcs, self.model.y
        self.into = self.model.into
        self.tails_of: dict[int, list[int]] = {v: [] for v in sub.nodes}
        for s, h, _i in self.arcs:
            self.tails_of[h].append(s)
        self.model.koch_martin_rows(sub.terminals)
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
        status = run(self.lp)
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
            for kind, W in max_flow_cuts(support, self.root, t, self.tails_of, nested):
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
            if stop_at is not None and safe_bound(self.value) >= stop_at:
                return best
            if deadline is not None and time.perf_counter() > deadline:
                return best
            if self.separate() == 0:
                return best


def cut_mip(sub: Sub, root: int, cuts: Iterable[frozenset[int]], hint: list[int] | None,
            deadline: float | None, stats: dict | None = None) -> MipOutcome:
    """Directed cut MIP solved by SCIP, with cuts added between solves.

    pywraplp has no lazy-constraint callback, so this is "solve, check,
    add cuts, solve again": the model is a relaxation as long as cuts are
    missing, so its dual bound is a lower bound, and once its tree reaches
    every terminal from the root that tree is a solution. The status is
    "optimal" only when the safe integer bound from SCIP's dual bound
    reaches the tree's recomputed value (SCIP's OPTIMAL alone is not
    trusted). Started with the cuts of the LP phase, one or two solves are
    usually enough.
    """
    t0 = time.perf_counter()
    lp = CutLP(sub, root, mip=True)
    solver, model = lp.lp, lp.model
    for c in cuts:
        lp.add_cut(c)
    best_bound = None
    used = None if hint is None else model.hint_arcs(orient([sub.edges[i] for i in hint], root))
    iterations = 0

    def outcome(status, value=None, bound=None, edges=()):
        if stats is not None:
            stats["cut_mip_solves"] = iterations
        return MipOutcome(status, value, bound, list(edges), time.perf_counter() - t0)

    while True:
        iterations += 1
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            solver.SetTimeLimit(max(1, int(left * 1000)))
        if used is not None:
            solver.SetHint(lp.y, [1.0 if a in used else 0.0 for a in range(len(lp.arcs))])
        status = run(solver)
        if status == pywraplp.Solver.INFEASIBLE:
            return outcome("infeasible")
        bound = model.bound()
        if bound is not None:
            best_bound = bound if best_bound is None else max(best_bound, bound)
        if status not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
            break
        chosen = model.chosen()
        reached, tree_edges = model.reach_tree(chosen)
        missing = [t for t in sub.terminals if t not in reached]
        if not missing:
            edges = sub.prune(tree_edges)
            value = sub.value(edges)
            st = "optimal" if best_bound is not None and best_bound >= value else "feasible"
            return outcome(st, value, None if best_bound is None else min(best_bound, value), edges)
        # cut off this solution: every chosen component away from the root
        undirected = adjacency(lp.arcs[a] for a in chosen)
        comp_of: dict[int, int] = {}
        added = 0
        for t in missing:
            if t in comp_of:
                continue
            comp = reach([t], lambda x: undirected.get(x, ()))
            for x in comp:
                comp_of[x] = t
            added += lp.add_cut(frozenset(comp))
        added += lp.add_cut(frozenset(v for v in sub.nodes if v not in reached))
        if not added:  # cannot happen with a correct model; do not loop forever
            break
    return outcome("unknown", bound=best_bound)
