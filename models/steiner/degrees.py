"""Degree bounds (a plain track hex cannot branch): the unconstrained optimum
is a lower bound; when its tree breaks a bound, the flow MIP with degree rows
solves the graph reduced only by the degree-safe reductions."""
from __future__ import annotations

import time

from . import reductions
from .flow import flow_mip
from .paths import INF, past


def solve_with_degrees(inst, lb_free: int | None, deadline: float | None, stats: dict):
    """(status, value, lower bound, edges, nodes, method) under `inst.bounds`.

    Status "unknown" (no tree) when the time limit ends the MIP before it
    finds a tree that meets the bounds.
    """
    bounds = inst.bounds
    md = [bounds.get(inst.local[i], len(inst.local)) for i in range(len(inst.local))]
    wk = inst.work(max_deg=md)
    if any(md[t] < 1 for t in inst.t_list):
        return "infeasible", None, None, [], [], "degree-bounds"
    reductions.degree_tests(wk)
    lb_free = lb_free or 0
    if wk.nterm <= 1:
        value, lb, orig, method = wk.fixed_cost, wk.fixed_cost, set(wk.fixed_edges), "reduction"
    else:
        method = "mip-flow-degree"
        sub, eids = wk.sub()
        if not sub.connected():
            return "infeasible", None, None, [], [], "degree-bounds"
        if past(deadline):
            return "unknown", None, lb_free, [], [], "time-limit"
        out = flow_mip(
            sub.nodes, sub.edges, sub.cost, sub.terminals,
            time_limit=None if deadline is None else deadline - time.perf_counter(),
            max_deg={v: wk.max_deg[v] for v in sub.nodes if wk.max_deg[v] < len(sub.adj[v])},
        )
        stats["exact_seconds"] = out.seconds
        if out.status == "infeasible":
            return "infeasible", None, None, [], [], method
        if out.value is None:
            bound = max(lb_free, (out.bound or 0) + wk.fixed_cost)
            return "unknown", None, bound, [], [], "time-limit"
        value = out.value + wk.fixed_cost
        orig = set(wk.fixed_edges)
        for i in out.edges:
            orig.update(wk.orig[eids[i]])
        lb = lb_free if out.bound is None else max(lb_free, out.bound + wk.fixed_cost)
    value_chk, tree_edges, tree_nodes = inst.to_caller(orig, span=False)
    degree = {v: 0 for v in tree_nodes}
    for u, v in tree_edges:
        degree[u] += 1
        degree[v] += 1
    if any(degree[v] > bounds.get(inst.index[v], INF) for v in tree_nodes):
        raise RuntimeError("internal error: degree bound violated by the constrained model")
    if value_chk != value:
        raise RuntimeError(f"internal error: tree re-checked at {value_chk}, solver said {value}")
    lb = min(max(lb, lb_free), value)
    return ("optimal" if lb >= value else "feasible"), value, lb, tree_edges, tree_nodes, method
