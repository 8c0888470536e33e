"""`solve_steiner`: the caller's networkx graph in, a re-checked tree with its
proof status out. Validation of the input and the mapping back live here."""
from __future__ import annotations

import numbers
import time
from dataclasses import dataclass, field

import networkx as nx

from solver.board.errors import InputError

from . import degrees, dp
from .paths import INF, Infeasible, prune_leaves
from .pipeline import solve_reduced
from .work import Work


@dataclass(frozen=True)
class SteinerResult:
    """Outcome of `solve_steiner`.

    status: "optimal" (lower_bound == value, proven), "feasible" (time limit
        hit; a tree is returned and lower_bound < value), "unknown" (time
        limit hit under degree bounds before any tree met them: no tree),
        "infeasible" (terminals cannot be joined, or the degree bounds
        forbid every tree; proven).
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


def _as_int(value, what: str) -> int:
    """Integers only: bounds are compared exactly, so floats would be a trap."""
    if isinstance(value, bool):
        raise InputError(f"{what} must be an integer, got {value!r}")
    if isinstance(value, int):
        return value
    try:
        if isinstance(value, numbers.Integral):
            return int(value)
        if isinstance(value, numbers.Real) and float(value).is_integer():
            return int(value)
    except (TypeError, ValueError, OverflowError):
        pass
    raise InputError(f"{what} must be an integer, got {value!r}")


def _non_negative(value, what: str) -> int:
    v = _as_int(value, what)
    if v < 0:
        raise InputError(f"{what} must be non-negative, got {v}")
    return v


class Instance:
    """The caller's graph read once: integer weights and costs on node
    indices, lightest of parallel edges, degree bounds, and (`component`)
    the terminals' component on local ids 0..m-1 for the working graph."""

    def __init__(self, graph: nx.Graph, terminals, weight: str, node_cost: str, max_degree):
        if graph.is_directed():
            raise InputError("the Steiner solver needs an undirected graph")
        try:
            self.terms = list(dict.fromkeys(terminals))
        except TypeError:
            raise InputError("terminals must be an iterable of node ids") from None
        for t in self.terms:
            if t not in graph:
                raise InputError(f"terminal {t!r} is not a node of the graph")
        self.graph = graph
        self.nodes = list(graph.nodes)
        self.index = {v: i for i, v in enumerate(self.nodes)}
        self.cost = [_non_negative(graph.nodes[v].get(node_cost, 0), f"cost of node {v!r}") for v in self.nodes]
        self.best_edge: dict[tuple[int, int], int] = {}
        edge_iter = (graph.edges(keys=True, data=True) if graph.is_multigraph()
                     else ((u, v, None, d) for u, v, d in graph.edges(data=True)))
        for u, v, _key, data in edge_iter:
            w = _non_negative(data.get(weight, 0), f"weight of edge {u!r}-{v!r}")
            if u == v:
                continue
            a, b = sorted((self.index[u], self.index[v]))
            if (a, b) not in self.best_edge or w < self.best_edge[(a, b)]:
                self.best_edge[(a, b)] = w
        total = sum(self.best_edge.values()) + sum(self.cost)
        if total >= dp.EXACT_TOTAL:
            raise InputError(
                f"edge weights and node costs total {total}, at least 2^61 = {dp.EXACT_TOTAL}: "
                "beyond what the solver's int64 tables hold exactly"
            )
        self.bounds = None
        if max_degree:
            self.bounds = {}
            for v, d in max_degree.items():
                if v not in graph:
                    raise InputError(f"max_degree names {v!r}, which is not a node of the graph")
                self.bounds[self.index[v]] = _non_negative(d, f"degree bound of node {v!r}")

    def weight_of(self, u, v) -> int:
        return self.best_edge[tuple(sorted((self.index[u], self.index[v])))]

    def cost_of(self, v) -> int:
        return self.cost[self.index[v]]

    def component(self) -> bool:
        """Restrict to the terminals' component; False if it misses a terminal
        (only that component matters: elsewhere there is no proof to give)."""
        comp = nx.node_connected_component(self.graph, self.terms[0])
        if any(t not in comp for t in self.terms):
            return False
        self.local = [self.index[v] for v in self.nodes if v in comp]
        self.loc = {g: i for i, g in enumerate(self.local)}
        self.e_list = [(self.loc[a], self.loc[b]) for (a, b) in self.best_edge if a in self.loc]
        self.w_list = [self.best_edge[(self.local[a], self.local[b])] for a, b in self.e_list]
        self.c_list = [self.cost[g] for g in self.local]
        self.t_list = [self.loc[self.index[t]] for t in self.terms]
        return True

    def work(self, max_deg=None) -> Work:
        return Work(len(self.local), self.e_list, self.w_list, self.c_list, self.t_list, max_deg)

    def caller(self, x: int):
        """The caller's node id of local id x."""
        return self.nodes[self.local[x]]

    def to_caller(self, orig: set[int], span: bool = True):
        """Original edge indices -> (weight, edges, nodes) of a tree on the
        caller's node ids, re-checked. With `span` the edges are first
        reduced to a minimum spanning forest and non-terminal leaves pruned
        (non-negative weights and costs: never worse); without, they must
        already be a tree (node order: terminals first, as the flow MIP's
        answers have always been listed)."""
        g = nx.Graph()
        if not span:
            g.add_nodes_from(self.t_list)
        for i in orig:
            a, b = self.e_list[i]
            g.add_edge(a, b, weight=self.w_list[i])  # exact integers, also above 2^53
        g.add_nodes_from(self.t_list)
        pairs = list(g.edges)
        nodes = list(g.nodes)
        if span:
            forest = nx.minimum_spanning_tree(g)
            pairs = list(forest.edges)
            pairs = [pairs[i] for i in prune_leaves(list(range(len(pairs))), pairs.__getitem__, set(self.t_list))]
            ends = set(self.t_list).union(*pairs)
            nodes = [x for x in forest.nodes if x in ends]
        tree_nodes = [self.caller(x) for x in nodes]
        tree_edges = [(self.caller(a), self.caller(b)) for a, b in pairs]
        return self.check_tree(tree_nodes, tree_edges), tree_edges, tree_nodes

    def check_tree(self, tree_nodes, tree_edges) -> int:
        """Re-check a returned tree on the caller's graph and recompute its weight."""
        g = nx.Graph()
        g.add_nodes_from(tree_nodes)
        g.add_edges_from(tree_edges)
        if self.terms and not nx.is_tree(g):
            raise RuntimeError("internal error: the Steiner solution is not a tree")
        missing = [t for t in self.terms if t not in g]
        if missing:
            raise RuntimeError(f"internal error: the Steiner tree misses terminals {missing}")
        return sum(self.weight_of(u, v) for u, v in tree_edges) + sum(self.cost_of(v) for v in g.nodes)


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
    nodes' `node_cost` attributes (both non-negative integers, 0 if absent,
    totalling below 2^61 so that every sum is exact). `max_degree` maps
    nodes to the most tree edges they may have. `time_limit` (seconds)
    turns an unfinished search into status "feasible" with the best tree
    found and the best proven lower bound.

    Raises `InputError` for a directed graph, a terminal that is not a node,
    a negative or non-integer weight, cost or degree bound, or a total too
    large to be handled exactly.
    """
    start = time.perf_counter()
    # the phases stop at 90% of the limit: the steps that cannot be cut
    # short (one heuristic tree, one dual ascent, the check of the answer)
    # finish in the rest, so the limit holds for the whole call
    deadline = None if time_limit is None else start + 0.9 * float(time_limit)
    if time_limit is not None and not time_limit > 0:
        raise InputError(f"time limit must be positive, got {time_limit!r}")
    inst = Instance(graph, terminals, weight, node_cost, max_degree)
    stats: dict = {"nodes": len(inst.nodes), "edges": len(inst.best_edge), "terminals": len(inst.terms)}

    def result(status, value=None, lb=None, tree_edges=(), tree_nodes=(), method="trivial"):
        return SteinerResult(status=status, value=value, lower_bound=lb, edges=list(tree_edges),
                             nodes=list(tree_nodes), seconds=time.perf_counter() - start,
                             method=method, stats=stats)

    terms = inst.terms
    if not terms:
        return result("optimal", 0, 0)
    if len(terms) == 1:
        c = inst.cost_of(terms[0])
        return result("optimal", c, c, [], [terms[0]])
    if not inst.component():
        return result("infeasible")
    try:
        status, value, lb, orig, method = solve_reduced(inst.work(), deadline, stats)
    except Infeasible:
        return result("infeasible")
    tree_value, tree_edges, tree_nodes = inst.to_caller(orig)
    if tree_value > value:
        raise RuntimeError(f"internal error: tree re-checked at {tree_value}, solver said {value}")
    if lb is not None and tree_value < lb:
        raise RuntimeError(f"internal error: tree of weight {tree_value} below proven bound {lb}")
    value = tree_value
    status = "optimal" if lb is not None and lb >= value else "feasible"

    if inst.bounds:
        bounds, index = inst.bounds, inst.index
        over = [v for v in tree_nodes if sum(1 for e in tree_edges if v in e) > bounds.get(index[v], INF)]
        if over:
            stats["degree_violations_unconstrained"] = len(over)
            return result(*degrees.solve_with_degrees(inst, lb, deadline, stats))
    return result(status, value, lb, tree_edges, tree_nodes, method)
