"""Exact Steiner trees: answers, proofs and the `aos-solve steiner` command.

Every solved tree is re-checked here independently of the solver: it must be
a tree, contain every terminal, and its weight is recomputed from the input.
"""
from tests.helpers import says
import csv
import itertools
import json
import pathlib
import random

import networkx as nx
import pytest

import models.steiner as steiner
from models.steiner import cut, dual_ascent, pipeline, reductions
from models.steiner import solve_steiner
from solver.board.errors import InputError
from solver.board.pace import read_gr

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACE = ROOT.parent / "shared" / "data" / "pace2018-track1"
needs_pace = pytest.mark.skipif(not PACE.is_dir(), reason="shared PACE data not beside the clone")


def known_optima() -> dict[str, int]:
    with open(PACE / "optimal.csv", newline="") as fh:
        return {row["instance"]: int(row["optimal_weight"]) for row in csv.DictReader(fh)}


def recheck(graph: nx.Graph, terminals, result) -> int:
    """Independent check of a returned tree; returns its recomputed weight."""
    tree = nx.Graph()
    tree.add_nodes_from(result.nodes)
    tree.add_edges_from(result.edges)
    assert set(terminals) <= set(tree.nodes), "tree misses a terminal"
    if len(terminals) > 1:
        assert nx.is_tree(tree), "not a tree"
    for u, v in tree.edges:
        assert graph.has_edge(u, v), f"edge {u}-{v} is not in the graph"
    weight = sum(graph[u][v].get("weight", 0) for u, v in tree.edges)
    return weight + sum(graph.nodes[v].get("cost", 0) for v in tree.nodes)


def brute_force(graph: nx.Graph, terminals, max_degree=None):
    """Optimum by enumeration (tiny graphs only); None if no tree exists."""
    terminals = set(terminals)
    best = None
    if max_degree is None:
        # an optimal tree is a minimum spanning tree of its own node set
        others = [v for v in graph if v not in terminals]
        for r in range(len(others) + 1):
            for extra in itertools.combinations(others, r):
                nodes = terminals | set(extra)
                sub = graph.subgraph(nodes)
                if not nx.is_connected(sub):
                    continue
                mst = nx.minimum_spanning_tree(sub)
                w = mst.size(weight="weight") + sum(graph.nodes[v].get("cost", 0) for v in nodes)
                best = w if best is None or w < best else best
        return best
    edges = list(graph.edges)
    for r in range(len(terminals) - 1, len(edges) + 1):
        for chosen in itertools.combinations(edges, r):
            t = nx.Graph(chosen)
            t.add_nodes_from(terminals)
            if not nx.is_tree(t) or any(t.degree(v) > max_degree.get(v, 99) for v in t):
                continue
            w = sum(graph[u][v]["weight"] for u, v in chosen) + sum(graph.nodes[v].get("cost", 0) for v in t)
            best = w if best is None or w < best else best
    return best


def star(center_cost=0):
    """Terminals a, b, c; hub s at distance 1 from each; direct links cost 3."""
    g = nx.Graph()
    for t in "abc":
        g.add_edge(t, "s", weight=1)
    g.add_edge("a", "b", weight=3)
    g.add_edge("b", "c", weight=3)
    g.add_edge("a", "c", weight=3)
    g.nodes["s"]["cost"] = center_cost
    return g


# -- tiny hand-checkable graphs ---------------------------------------------------


def test_steiner_hub_is_used_when_it_saves_weight():
    g = star()
    res = solve_steiner(g, "abc")
    assert (res.status, res.value, res.lower_bound) == ("optimal", 3, 3)
    assert "s" in res.nodes
    assert recheck(g, "abc", res) == 3


def test_node_cost_is_paid_once_and_can_make_the_hub_too_dear():
    res = solve_steiner(star(center_cost=2), "abc")
    assert (res.status, res.value) == ("optimal", 5)  # 3 edges of 1 + hub cost 2
    res = solve_steiner(star(center_cost=4), "abc")
    assert (res.status, res.value) == ("optimal", 6)  # two direct links, no hub
    assert "s" not in res.nodes


def test_terminal_costs_are_counted():
    g = star()
    g.nodes["a"]["cost"] = 10
    res = solve_steiner(g, "abc")
    assert res.value == 13 and res.status == "optimal"
    assert recheck(g, "abc", res) == 13


def test_degree_bound_forbids_branching_at_a_plain_track_hex():
    # without bounds the optimum branches at s (weight 3); with degree <= 2
    # at s the best tree is a path through s plus one direct link: 1+1+3
    g = star()
    free = solve_steiner(g, "abc")
    assert free.value == 3
    res = solve_steiner(g, "abc", max_degree={"s": 2})
    assert (res.status, res.value, res.lower_bound) == ("optimal", 5, 5)
    tree = nx.Graph(res.edges)
    assert tree.degree("s") <= 2
    assert recheck(g, "abc", res) == 5
    assert res.method == "mip-flow-degree"


def test_degree_bound_that_the_free_optimum_meets_costs_nothing_extra():
    res = solve_steiner(star(), "abc", max_degree={"s": 3, "a": 1})
    assert (res.status, res.value) == ("optimal", 3)


def test_terminals_in_different_components_are_infeasible():
    g = nx.Graph()
    g.add_edge(1, 2, weight=1)
    g.add_edge(3, 4, weight=1)
    res = solve_steiner(g, [1, 3])
    assert res.status == "infeasible" and res.value is None and res.edges == []


def test_degree_zero_terminal_makes_the_problem_infeasible():
    res = solve_steiner(star(), "abc", max_degree={"a": 0})
    assert res.status == "infeasible"


def test_degree_bounds_that_block_every_tree_are_infeasible():
    g = nx.path_graph(4)  # 0-1-2-3, terminals at both ends, 1 may not carry track
    nx.set_edge_attributes(g, 1, "weight")
    res = solve_steiner(g, [0, 3], max_degree={1: 1})
    assert res.status == "infeasible"


def test_one_or_no_terminal_is_trivial():
    g = star()
    g.nodes["a"]["cost"] = 7
    assert solve_steiner(g, ["a"]).value == 7
    res = solve_steiner(g, [])
    assert (res.status, res.value, res.edges) == ("optimal", 0, [])


def test_zero_weight_edges_and_missing_weights_default_to_zero():
    g = nx.Graph()
    g.add_edge(1, 2)
    g.add_edge(2, 3, weight=0)
    g.add_edge(1, 3, weight=5)
    res = solve_steiner(g, [1, 3])
    assert (res.status, res.value) == ("optimal", 0)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda g: g.add_edge("a", "b", weight=-1), "non-negative"),
        (lambda g: g.add_edge("a", "b", weight=1.5), "integer"),
        (lambda g: g.nodes["s"].update(cost=-2), "non-negative"),
    ],
)
def test_bad_weights_are_input_errors(make, message):
    g = star()
    make(g)
    with pytest.raises(InputError, match=message):
        solve_steiner(g, "abc")


def test_unknown_terminal_and_directed_graph_are_input_errors():
    with pytest.raises(InputError, match="not a node"):
        solve_steiner(star(), ["a", "zz"])
    with pytest.raises(InputError, match="undirected"):
        solve_steiner(nx.DiGraph(star()), "abc")
    with pytest.raises(InputError, match="not a node"):
        solve_steiner(star(), "abc", max_degree={"zz": 2})


# -- random graphs against enumeration, through every exact path ---------------------


def random_instance(rng: random.Random, n: int, p: float, with_costs: bool):
    while True:
        g = nx.gnp_random_graph(n, p, seed=rng.randrange(10**9))
        if nx.is_connected(g):
            break
    for u, v in g.edges:
        g[u][v]["weight"] = rng.choice([0, 1, 2, 3, 5, 8])
    if with_costs:
        for v in g:
            g.nodes[v]["cost"] = rng.choice([0, 0, 1, 2, 4])
    k = rng.randint(2, min(5, n))
    return g, rng.sample(sorted(g.nodes), k)


@pytest.fixture(params=["dp", "dual-ascent", "lp+cut-mip"])
def exact_path(request, monkeypatch):
    """Force the solver down one exact path. The DP is normally preferred on
    graphs this small, so the others are forced by zero DP budgets; for the
    LP and cut-MIP path, dual ascent is replaced by the zero dual and the
    distance tests are switched off (both are valid, just weaker), so that
    the easy instances are not closed before the LP."""
    if request.param != "dp":
        monkeypatch.setattr(pipeline, "DP_FIRST_LIMIT", -1)
        monkeypatch.setattr(pipeline, "DP_FINAL_LIMIT", -1)
    if request.param == "lp+cut-mip":
        monkeypatch.setattr(dual_ascent.Digraph, "dual_ascent", lambda self, root, cuts=None: (0, list(self.cost)))
        monkeypatch.setattr(reductions, "sd_test", lambda wk, deadline=None: 0)
        monkeypatch.setattr(reductions, "nearest_terminal_test", lambda wk: False)
        monkeypatch.setattr(cut.CutLP, "run", _one_lp_round)
    return request.param


def _one_lp_round(self, deadline, stop_at=None):
    """A deliberately weak LP phase (one solve, no cuts) so the cut MIP has work."""
    self.solve()
    self.rounds += 1
    return self.value


def test_random_graphs_match_enumeration(exact_path):
    rng = random.Random(20260301)
    for _ in range(30):
        g, terms = random_instance(rng, rng.randint(4, 11), 0.4, with_costs=rng.random() < 0.5)
        res = solve_steiner(g, terms)
        expected = brute_force(g, terms)
        assert res.status == "optimal", (exact_path, res)
        assert res.value == expected == res.lower_bound, (exact_path, sorted(g.edges(data=True)), terms)
        assert recheck(g, terms, res) == res.value


def test_random_degree_bounded_graphs_match_enumeration():
    rng = random.Random(7)
    checked = 0
    while checked < 12:
        g, terms = random_instance(rng, rng.randint(4, 7), 0.5, with_costs=True)
        if g.number_of_edges() > 12:
            continue
        bounds = {v: rng.choice([1, 2, 2, 3]) for v in g if rng.random() < 0.6}
        res = solve_steiner(g, terms, max_degree=bounds)
        expected = brute_force(g, terms, bounds)
        if expected is None:
            assert res.status == "infeasible"
        else:
            assert (res.status, res.value) == ("optimal", expected)
            assert recheck(g, terms, res) == expected
            tree = nx.Graph(res.edges)
            assert all(tree.degree(v) <= b for v, b in bounds.items() if v in tree)
        checked += 1


# issue 14: weights that floats cannot tell apart, exact on every path

def big_weight_graph():
    """Terminals a, b, c and hubs s, t joined by an edge of weight 1, every
    other edge 2^58 plus 0..2: the star at s and the tree a-t-s-b,c both
    weigh 3 * 2^58 + 3, the star at t one more, a difference no float
    (53-bit mantissa) can see. No reduction applies, so the exact paths
    themselves must get it right."""
    g = nx.Graph()
    for x, w in zip("abc", [1, 1, 1]):
        g.add_edge("s", x, weight=2 ** 58 + w)
    for x, w in zip("abc", [0, 2, 2]):
        g.add_edge("t", x, weight=2 ** 58 + w)
    g.add_edge("s", "t", weight=1)
    return g, ["a", "b", "c"], 3 * 2 ** 58 + 3


def test_weights_of_2_to_58_are_solved_exactly_never_infeasible(exact_path):
    g, terms, optimum = big_weight_graph()
    res = solve_steiner(g, terms)
    assert res.status != "infeasible"
    assert res.value == optimum == recheck(g, terms, res)
    assert res.lower_bound <= optimum
    assert res.stats["reduced_edges"] == 7  # the reductions left it to the exact path
    if exact_path != "lp+cut-mip":  # integer paths prove it; float bounds keep a relative margin
        assert res.status == "optimal" and res.lower_bound == optimum


@pytest.mark.parametrize("strengthen", [False, True])
def test_flow_mip_alone_agrees_with_enumeration(strengthen):
    # the baseline of the benchmark must be a correct solver too
    rng = random.Random(11)
    for _ in range(8):
        g, terms = random_instance(rng, 7, 0.5, with_costs=True)
        edges = [(u, v, d["weight"]) for u, v, d in g.edges(data=True)]
        cost = {v: g.nodes[v]["cost"] for v in g}
        out = steiner.flow_mip(list(g.nodes), edges, cost, terms, time_limit=30, strengthen=strengthen)
        assert out.status == "optimal" and out.value == brute_force(g, terms)


# -- PACE 2018 instances with known optima ---------------------------------------------

SMALL = ["instance001.gr", "instance009.gr", "instance011.gr", "instance053.gr", "instance069.gr",
         "instance041.gr", "instance095.gr"]


def file_weight(inst, tree_edges) -> int:
    return sum(inst.edge_weight(u, v) for u, v in tree_edges)


def assert_spanning_tree(inst, tree_edges):
    tree = nx.Graph()
    tree.add_edges_from(tree_edges)
    assert set(inst.terminals) <= set(tree.nodes)
    assert nx.is_tree(tree)


@needs_pace
@pytest.mark.parametrize("name", SMALL)
def test_pace_instance_solved_to_its_known_optimum(name):
    inst = read_gr(PACE / name)
    res = solve_steiner(inst.graph(), inst.terminals)
    optimum = known_optima()[name]
    assert (res.status, res.value, res.lower_bound) == ("optimal", optimum, optimum)
    assert_spanning_tree(inst, res.edges)
    assert file_weight(inst, res.edges) == optimum


@needs_pace
def test_pace_instance_through_lp_and_cut_mip(monkeypatch):
    # the path the largest instances take, on a small one
    monkeypatch.setattr(pipeline, "DP_FIRST_LIMIT", -1)
    monkeypatch.setattr(pipeline, "DP_FINAL_LIMIT", -1)
    inst = read_gr(PACE / "instance027.gr")
    res = solve_steiner(inst.graph(), inst.terminals)
    assert (res.status, res.value) == ("optimal", known_optima()["instance027.gr"])
    assert_spanning_tree(inst, res.edges)
    assert file_weight(inst, res.edges) == res.value


@needs_pace
def test_time_limit_gives_a_valid_tree_and_bound_never_a_wrong_optimum():
    inst = read_gr(PACE / "instance107.gr")
    res = solve_steiner(inst.graph(), inst.terminals, time_limit=0.3)
    optimum = known_optima()["instance107.gr"]
    assert res.status in ("feasible", "optimal")
    if res.value is not None:
        assert res.lower_bound <= optimum <= res.value
        assert_spanning_tree(inst, res.edges)
        assert file_weight(inst, res.edges) == res.value
    if res.status == "optimal":
        assert res.value == optimum


# -- the command line -------------------------------------------------------------------


@needs_pace
def test_cli_json_tree_spans_the_terminals_with_the_printed_weight(run_cli):
    path = PACE / "instance009.gr"
    res = run_cli("steiner", path, "--json")
    assert res.code == 0, res.err
    out = json.loads(res.out)
    inst = read_gr(path)
    assert out["status"] == "optimal"
    assert out["value"] == out["lower_bound"] == known_optima()["instance009.gr"]
    assert isinstance(out["seconds"], float)
    edges = [tuple(e) for e in out["edges"]]
    assert_spanning_tree(inst, edges)
    assert file_weight(inst, edges) == out["value"]


@needs_pace
def test_cli_text_output_reports_value_status_bound_and_edges(run_cli):
    res = run_cli("steiner", PACE / "instance001.gr")
    assert res.code == 0
    assert "value:       503" in res.out
    assert "status:      optimal" in res.out
    assert "lower bound: 503" in res.out
    assert "tree edges:" in res.out


def write(tmp_path, text, name="bad.gr"):
    path = tmp_path / name
    path.write_text(text)
    return path


GOOD = "SECTION Graph\nNodes 3\nEdges 2\nE 1 2 4\nE 2 3 5\nEND\nSECTION Terminals\nTerminals 2\nT 1\nT 3\nEND\nEOF\n"


def test_cli_solves_a_small_file(run_cli, tmp_path):
    res = run_cli("steiner", write(tmp_path, GOOD, "ok.gr"), "--json")
    out = json.loads(res.out)
    assert (res.code, out["value"], out["status"], out["edges"]) == (0, 9, "optimal", [[1, 2], [2, 3]])


@pytest.mark.parametrize(
    "text, message",
    [
        (GOOD.split("SECTION Terminals")[0] + "EOF\n", "missing 'SECTION Terminals'"),
        (GOOD.replace("E 1 2 4", "E 0 2 4"), "edge end 0 is not a node"),
        (GOOD.replace("E 1 2 4", "E 1 2 -4"), "must be non-negative"),
        (GOOD.replace("T 3", "T 4"), "terminal 4 is not a node"),
        (GOOD.replace("E 1 2 4", "E 1 2 four"), "must be an integer"),
        (GOOD.replace("Edges 2", "Edges 3"), "declared but 2"),
        ("", "missing 'SECTION Graph'"),
    ],
)
def test_cli_malformed_file_exits_2_with_a_clear_message(run_cli, tmp_path, text, message):
    path = write(tmp_path, text)
    res = run_cli("steiner", path, "--json")
    assert res.code == 2
    assert says(res.err, message)
    assert str(path) in res.err
    assert "Traceback" not in res.err + res.out
    assert len(res.err.strip().splitlines()) == 1


def test_cli_missing_file_exits_2(run_cli, tmp_path):
    res = run_cli("steiner", tmp_path / "nope.gr")
    assert res.code == 2 and "cannot read" in res.err and "Traceback" not in res.err


def test_cli_disconnected_terminals_report_infeasible(run_cli, tmp_path):
    text = GOOD.replace("Edges 2", "Edges 1").replace("E 2 3 5\n", "")
    res = run_cli("steiner", write(tmp_path, text, "split.gr"), "--json")
    out = json.loads(res.out)
    assert res.code == 0 and out["status"] == "infeasible" and out["value"] is None


def test_cli_help_explains_the_command(run_cli):
    res = run_cli("steiner", "--help")
    assert res.code == 0
    for word in ("--time-limit", "--json", "optimal", "lower bound"):
        assert word in res.out
