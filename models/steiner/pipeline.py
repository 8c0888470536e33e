"""The solve of one connected instance on the working graph: reductions,
the subset DP when it is cheap, else heuristics and dual ascent, the cut LP
and the cut MIP (see the package docstring for the order and the numbers)."""
from __future__ import annotations

import time

from . import dp, reductions
from .arcs import safe_bound
from .cut import CutLP, cut_mip
from .dual_ascent import Digraph, eliminate
from .heuristics import Incumbent, best_sph, sph
from .paths import INF, Infeasible, past
from .subgraph import Sub
from .work import Work

DP_FIRST_LIMIT = 4e8  # numpy operations (about a second) for the DP before anything else
DP_FINAL_LIMIT = 2e9  # after the dual-ascent reductions, the DP vs the MIP


def solve_reduced(wk: Work, deadline: float | None, stats: dict):
    """Solve the instance held by `wk` (after construction; terminals connected).

    Returns (status, value, lower bound, original edge indices, method);
    values are totals including the fixed part. A tree is always returned:
    the time limit stops the proof, never the search for a first tree.
    """
    inc = Incumbent()
    lb_total = 0
    # the first reductions get half of the time, so that a time limit still
    # leaves time for a tree and a bound
    now = time.perf_counter()
    reductions.reduce(wk, None if deadline is None else now + 0.5 * max(0.0, deadline - now))
    stats["reduced_nodes"] = len(wk.nodes())
    stats["reduced_edges"] = wk.num_edges()
    stats["reduced_terminals"] = wk.nterm

    for _outer in range(4):
        done, sub, eids = _settled(wk, inc, "reduction")
        if done:
            return done
        n, k = len(sub.nodes), len(sub.terminals)
        if dp.cost_estimate(n, k) <= DP_FIRST_LIMIT:
            return _finish_dp(wk, sub, eids, inc, deadline, stats, lb_total)
        # primal: shortest-path heuristic from a few terminals, then local search
        t_heur = time.perf_counter()
        found = best_sph(sub, sub.terminals[: max(4, min(k, 8))], deadline)
        if found is None:
            raise Infeasible()
        seen: set[frozenset[int]] = set()
        inc.polish(wk, sub, eids, found[1], seen, deadline)
        # dual ascent from every terminal: bound, guided heuristic, reduced costs
        dg = Digraph(sub)
        runs = []
        for root in dg.terms:
            if past(deadline):
                break
            lb, rc = dg.dual_ascent(root)
            lb_total = max(lb_total, min(inc.value, lb + wk.fixed_cost))
            runs.append((root, lb, [float(x) for x in rc]))
            allowed = dg.saturated_reach(rc, root)
            tree = sph(sub, sub.nodes[root], allowed={sub.nodes[i] for i in allowed})
            inc.polish(wk, sub, eids, tree, seen, deadline)
            if lb_total >= inc.value:
                break
        stats["heuristic_seconds"] = stats.get("heuristic_seconds", 0) + time.perf_counter() - t_heur
        stats["dual_ascent_bound"] = lb_total
        if lb_total >= inc.value:
            return "optimal", inc.value, inc.value, inc.orig, "dual-ascent"
        if past(deadline):
            return "feasible", inc.value, lb_total, inc.orig, "time-limit"
        removed = eliminate(wk, sub, eids, dg, runs, inc.sub_bound(wk) - 1, deadline)
        stats["da_eliminated"] = stats.get("da_eliminated", 0) + removed
        reductions.reduce(wk, deadline)
        if removed == 0:
            break

    # exact phase on what is left
    done, sub, eids = _settled(wk, inc, "dual-ascent")
    if done:
        return done
    if dp.cost_estimate(len(sub.nodes), len(sub.terminals)) <= DP_FINAL_LIMIT:
        _final_stats(stats, sub)
        return _finish_dp(wk, sub, eids, inc, deadline, stats, lb_total)
    # still too big for the DP: the LP bound is tighter than dual ascent's and
    # its reduced costs usually remove most of what is left
    lp_bound, root, cuts = _lp_phase(wk, sub, eids, inc, deadline, stats)
    if lp_bound is not None:
        lb_total = max(lb_total, min(inc.value, lp_bound + wk.fixed_cost))
    if lb_total >= inc.value:
        return "optimal", inc.value, inc.value, inc.orig, "lp-cut"
    if past(deadline):
        return "feasible", inc.value, lb_total, inc.orig, "time-limit"
    reductions.reduce(wk, deadline)
    done, sub, eids = _settled(wk, inc, "lp-cut")
    if done:
        return done
    _final_stats(stats, sub)
    if dp.cost_estimate(len(sub.nodes), len(sub.terminals)) <= DP_FINAL_LIMIT:
        return _finish_dp(wk, sub, eids, inc, deadline, stats, lb_total)
    return _finish_cut_mip(wk, sub, eids, inc, deadline, stats, lb_total, root, cuts)


def _settled(wk: Work, inc: Incumbent, method: str):
    """(answer, None, None) when the reductions have finished the instance,
    else (None, the graph left, its working edge ids).

    Finished: one terminal left (the fixed edges are a tree, unless the
    incumbent is no heavier), or no tree left in the graph: reductions only
    remove what cannot beat the incumbent, so the incumbent is optimal.
    """
    if wk.nterm <= 1:
        if inc.value is not None and inc.value <= wk.fixed_cost:
            return ("optimal", inc.value, inc.value, inc.orig, method), None, None
        return ("optimal", wk.fixed_cost, wk.fixed_cost, set(wk.fixed_edges), "reduction"), None, None
    sub, eids = wk.sub()
    if not sub.connected():
        if inc.value is None:
            raise Infeasible()
        return ("optimal", inc.value, inc.value, inc.orig, method), None, None
    return None, sub, eids


def _final_stats(stats: dict, sub: Sub) -> None:
    stats["final_nodes"] = len(sub.nodes)
    stats["final_edges"] = len(sub.edges)
    stats["final_terminals"] = len(sub.terminals)


def _finish_dp(wk: Work, sub: Sub, eids, inc: Incumbent, deadline, stats, lb_total):
    """Exact phase by the subset DP; past the deadline, the best tree held
    (the instant shortest-path heuristic when there is none yet)."""
    index = {v: i for i, v in enumerate(sub.nodes)}
    edges = [(index[u], index[v], w) for u, v, w in sub.edges]
    cost = [sub.cost[v] for v in sub.nodes]
    t0 = time.perf_counter()
    out = dp.dreyfus_wagner(len(sub.nodes), edges, cost, [index[t] for t in sub.terminals], deadline)
    stats["exact_seconds"] = time.perf_counter() - t0
    if out is None:
        if inc.value is None:
            inc.offer(wk, sub, eids, sph(sub, sub.terminals[0]))
            if inc.value is None:
                raise Infeasible()
            return "feasible", inc.value, min(lb_total, inc.value), inc.orig, "time-limit"
        status = "feasible" if past(deadline) else "optimal"
        return status, inc.value, (lb_total if status == "feasible" else inc.value), inc.orig, "dreyfus-wagner"
    value, pairs = out
    lookup = {}
    for i, (u, v, w) in enumerate(edges):
        key = (min(u, v), max(u, v))
        if key not in lookup or w < edges[lookup[key]][2]:
            lookup[key] = i
    inc.offer(wk, sub, eids, sub.prune([lookup[p] for p in pairs]))
    # the DP value is the optimum of the reduced instance
    bound = min(inc.value, value + wk.fixed_cost)
    return "optimal" if bound >= inc.value else "feasible", inc.value, bound, inc.orig, "dreyfus-wagner"


def _finish_cut_mip(wk: Work, sub: Sub, eids, inc: Incumbent, deadline, stats, lb_total, root, cuts):
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
    hint = inc.hint(wk, eids)
    if not sub.spans(hint):
        hint = None
    out = cut_mip(sub, root, kept, hint, deadline, stats=stats)
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


def _lp_phase(wk: Work, sub: Sub, eids, inc: Incumbent, deadline, stats):
    """Directed cut LP seeded with dual-ascent cuts; LP-guided heuristic;
    reduced-cost elimination. Returns (LP bound in working-graph terms or
    None, root, cuts) so that the exact phase can start from the same cuts.

    Seeding matters: started from the cuts that dual ascent raised, the cut
    loop needs about a dozen rounds instead of hundreds (measured on PACE
    instance 107: 4 s instead of minutes).
    """
    t0 = time.perf_counter()
    dg = Digraph(sub)
    runs = []
    for r in dg.terms:
        cuts: list[frozenset[int]] = []
        lb, _rc = dg.dual_ascent(r, cuts)
        runs.append((lb, r, cuts))
        if past(deadline):
            break
    _lb, root, _ = max(runs, key=lambda x: x[0])
    lp = CutLP(sub, sub.nodes[root])
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
    bound = safe_bound(value)
    stats["lp_bound"] = bound + wk.fixed_cost
    # LP-guided shortest-path heuristic: edges the LP uses are cheap
    use = [0.0] * len(sub.edges)
    for a, (_s, _h, i) in enumerate(lp.arcs):
        use[i] += lp.values[a]
    weights = [w * max(0.0, 1.0 - u) for (_u, _v, w), u in zip(sub.edges, use)]
    seen: set[frozenset[int]] = set()
    for r in sub.terminals[:8]:
        if past(deadline):
            break
        inc.polish(wk, sub, eids, sph(sub, r, weights), seen, deadline)
    ub = inc.sub_bound(wk)
    if bound >= ub or not lp.fresh or past(deadline):
        stats["lp_seconds"] = time.perf_counter() - t0
        return bound, root_node, lp.cuts
    # reduced-cost elimination. For any tree x satisfying the LP's rows,
    # cost(x) >= LP + sum of positive reduced costs of its arcs; float duals,
    # so keep a relative margin before calling an integer value ">= ub".
    rcs = lp.reduced_costs()
    rc_arc = [0.0] * len(dg.tail)
    for a, (s_, _h, i) in enumerate(lp.arcs):
        da = 2 * i if dg.tail[2 * i] == dg.index[s_] else 2 * i + 1
        rc_arc[da] = max(0.0, rcs[a])
    for a in range(len(dg.tail)):  # arcs into the root are not in the LP
        if dg.head[a] == root:
            rc_arc[a] = INF
    margin = 1e-3 + 1e-7 * abs(value)
    removed = eliminate(wk, sub, eids, dg, [(root, value, rc_arc)], ub - 1 + margin, deadline)
    stats["lp_eliminated"] = removed
    stats["lp_seconds"] = time.perf_counter() - t0
    return bound, root_node, lp.cuts
