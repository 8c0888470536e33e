"""The Steiner solver at the edges of its input (issue 14): large weights are
exact or refused, a time-out still answers with a tree and keeps the limit,
float bounds from LP/SCIP become integers safely, SCIP's OPTIMAL is
re-checked, and Ctrl-C reaches Python with nothing on stdout."""
from __future__ import annotations

import json
import pathlib
import random
import signal
import subprocess
import sys
import time

import networkx as nx
import pytest

from models.steiner import arcs, cut, dp, flow_mip, solve_steiner
from models.steiner.subgraph import Sub
from solver.board import pace
from solver.board.errors import InputError

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACE = ROOT.parent / "shared" / "data" / "pace2018-track1"
needs_pace = pytest.mark.skipif(not PACE.is_dir(), reason="shared PACE data not beside the clone")

BIG = 2 ** 58
def spanning_weight(graph, res) -> int:
    tree = nx.Graph()
    tree.add_nodes_from(res.nodes)
    tree.add_edges_from(res.edges)
    assert nx.is_tree(tree)
    return sum(graph[u][v]["weight"] for u, v in tree.edges) + sum(graph.nodes[v].get("cost", 0) for v in tree)


def test_weights_that_no_int64_table_holds_exactly_are_refused():
    g = nx.Graph()
    g.add_edge(1, 2, weight=2 ** 60)
    g.add_edge(2, 3, weight=2 ** 60)
    with pytest.raises(InputError, match="2\\^61"):
        solve_steiner(g, [1, 3])


def test_the_reader_refuses_what_the_solver_would_refuse():
    assert pace.MAX_TOTAL_WEIGHT == dp.EXACT_TOTAL


def gr(edges, terminals, n=None) -> str:
    n = n or max(max(u, v) for u, v, _ in edges)
    return pace.format_gr(n, edges, terminals)


def test_cli_refuses_a_weight_total_beyond_2_to_61_naming_file_and_line(run_cli, tmp_path):
    path = tmp_path / "huge.gr"
    path.write_text(gr([(1, 2, 2 ** 60), (2, 3, 2 ** 60)], [1, 3]))
    res = run_cli("steiner", path, "--json")
    assert res.code == 2 and res.out == ""
    assert f"{path}:5" in res.err and "2^61" in res.err and "Traceback" not in res.err


def test_cli_solves_2_to_58_weights_exactly(run_cli, tmp_path):
    path = tmp_path / "big.gr"
    path.write_text(gr([(1, 2, BIG + 1), (2, 3, BIG + 2), (1, 3, BIG + 5)], [1, 3]))
    out = json.loads(run_cli("steiner", path, "--json").out)
    assert (out["status"], out["value"], out["lower_bound"]) == ("optimal", BIG + 5, BIG + 5)


def dense_instance(n=640, m=6000, k=40, seed=5):
    rng = random.Random(seed)
    g = nx.gnm_random_graph(n, m, seed=3)
    for u, v in g.edges:
        g[u][v]["weight"] = rng.randint(1, 100)
    return g, rng.sample(sorted(g.nodes), k)


@pytest.mark.parametrize("k", [9, 40])  # 9 terminals: the DP goes first; 40: heuristics and dual ascent
def test_a_time_out_still_returns_a_checked_tree(k):
    g, terms = dense_instance(k=k)
    res = solve_steiner(g, terms, time_limit=0.05)
    assert res.status == "feasible" and res.edges
    assert res.value == spanning_weight(g, res)
    assert set(terms) <= set(res.nodes)
    assert res.lower_bound is not None and res.lower_bound <= res.value


def test_the_time_limit_is_kept_within_a_few_percent():
    # the issue: 42 s under a 30 s limit on a dense 640-node instance
    g, terms = dense_instance(m=6000, k=40)
    limit = 3.0
    t0 = time.perf_counter()
    res = solve_steiner(g, terms, time_limit=limit)
    elapsed = time.perf_counter() - t0
    assert res.status in ("feasible", "optimal") and res.edges
    assert elapsed <= 1.05 * limit, elapsed


def test_float_bounds_become_integer_bounds_with_a_relative_margin():
    # an LP/MIP bound near 1e6 is only accurate to about 1e-9 relative: a
    # reported 1000000.0002 does not prove 1000001
    assert arcs.safe_bound(1_000_000.0002) == 1_000_000
    assert arcs.safe_bound(847.9999999) == 848
    assert arcs.safe_bound(848.4) == 849
    assert arcs.safe_bound(23.0) == 23
    assert arcs.safe_bound(float("nan")) is None and arcs.safe_bound(-1e20) is None


def small_instance():
    g = nx.Graph()
    for t in "abc":
        g.add_edge(t, "s", weight=1)
    g.add_edge("a", "b", weight=3)
    g.add_edge("b", "c", weight=3)
    nodes = list(g)
    edges = [(u, v, d["weight"]) for u, v, d in g.edges(data=True)]
    return nodes, edges, {v: 0 for v in nodes}, ["a", "b", "c"]


def test_scip_optimal_is_not_trusted_without_a_bound_reaching_the_tree(monkeypatch):
    monkeypatch.setattr(arcs.ArcModel, "bound", lambda self: 2)  # a dual bound below the tree
    nodes, edges, cost, terms = small_instance()
    out = flow_mip(nodes, edges, cost, terms, time_limit=10)
    assert (out.status, out.value, out.bound) == ("feasible", 3, 2)
    sub = Sub(nodes, edges, cost, terms)
    out = cut.cut_mip(sub, "a", [], None, None)
    assert (out.status, out.value, out.bound) == ("feasible", 3, 2)


def test_scip_optimal_with_its_bound_is_optimal():
    nodes, edges, cost, terms = small_instance()
    out = cut.cut_mip(Sub(nodes, edges, cost, terms), "a", [], None, None)
    assert (out.status, out.value, out.bound) == ("optimal", 3, 3)


SIGINT_CHILD = """
import sys
from models.steiner import flow_mip
from solver.board.pace import read_gr
inst = read_gr(sys.argv[1])
g = inst.graph()
edges = [(u, v, d["weight"]) for u, v, d in g.edges(data=True)]
print("solving", file=sys.stderr, flush=True)
out = flow_mip(list(g.nodes), edges, {v: 0 for v in g}, list(inst.terminals), time_limit=25)
print("finished", out.status, file=sys.stderr, flush=True)
"""


@needs_pace
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_during_a_scip_solve_reaches_python_and_nothing_reaches_stdout():
    # instance011: the plain flow MIP runs into any cap under 30 s
    proc = subprocess.Popen(
        [sys.executable, "-c", SIGINT_CHILD, str(PACE / "instance011.gr")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert proc.stderr.readline().strip() == "solving"
    time.sleep(1.5)  # inside SCIP by now
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert time.perf_counter() - sent < 5
    assert "KeyboardInterrupt" in err and "finished" not in err
    assert out == ""  # SCIP's "pressed CTRL-C" notice would land here
    assert proc.returncode != 0
