"""Cheapest track networks on a board: the board as a graph for the Steiner optimizer.

Nodes are buildable hexes (cost: the scenario's laying cost) and stops (cost 0;
a town costs its town-tile base). Edges join neighbours across passable
hexsides, never two stops directly unless one is a town (a town tile's own track reaches the next hex).
A plain track hex carries one track, so it may not branch: degree <= 2.
That limit makes the tree exactly the networks of simple tiles. With complex
tiles (Rules.complex_tiles) a hex may carry two tracks, up to four track ends,
so the degree-limited optimum is then a restriction (a buildable network and an
upper bound), not a relaxation: a proof that something cannot be joined, or a
lower bound, must use `degree_limited=False`, where any hex may branch, which
relaxes every tile geometry (a real network's hexes, crossings included,
always contain a tree joining the same stops).
Edges into a town cost the per-track town fee. Pre-printed public track is a
free edge between its two end stops.
"""
from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from solver.board.errors import InputError
from solver.board.hexgrid import Hex
from solver.board.instance import Instance


@dataclass(frozen=True)
class Network:
    """A proven (or bounded) cheapest network and the links it is made of."""

    stops: tuple[Hex, ...]          # the stops it had to join
    cost: int | None
    lower_bound: int | None
    status: str                     # optimal / feasible / infeasible
    hexes: tuple[Hex, ...]          # track hexes
    links: tuple[tuple[Hex, ...], ...]  # each link: stop, track hexes..., stop
    seconds: float
    method: str
    edges: tuple = ()               # the tree's edges (a map may price or show stop-to-stop pieces)

    @property
    def tiles(self) -> int:
        return len(self.hexes)


def board_graph(instance: Instance, unit_cost: bool = False) -> tuple[nx.Graph, dict[Hex, int]]:
    """The board as a Steiner graph; `unit_cost` counts tiles instead of dollars."""
    board, s = instance.board, instance.scenario
    g = nx.Graph()
    max_degree: dict[Hex, int] = {}
    for h, terrain in board.terrain.items():
        if board.is_stop(h):
            base = s.town_cost_base if h in board.towns else 0
            g.add_node(h, cost=0 if unit_cost else base)
        elif board.buildable(h) and terrain in s.track_cost:
            g.add_node(h, cost=1 if unit_cost else s.track_cost[terrain])
            max_degree[h] = 2
    for h in list(g.nodes):
        for n in h.neighbours():
            # two stops side by side are joined only by a town tile's own track (base rules: "town tiles join
            # one to four tracks at the town"), never city to city
            joined_stops = board.is_stop(h) and board.is_stop(n) and not (h in board.towns or n in board.towns)
            if n in g and board.passable(h, n) and not joined_stops:
                town_fee = 0 if unit_cost else s.town_cost_per_track * ((h in board.towns) + (n in board.towns))
                g.add_edge(h, n, weight=town_fee)
    for path in board.public_track:
        a, b = path[0], path[-1]
        if a in g and b in g:
            g.add_edge(a, b, weight=0, public=True)
    return g, max_degree


def cheapest_network(instance: Instance, stops: list[Hex], unit_cost: bool = False,
                     time_limit: float | None = 60.0, degree_limited: bool = True,
                     graph: tuple[nx.Graph, dict] | None = None, graph_key=None, is_stop=None) -> Network:
    """The cheapest set of track joining `stops`, with the optimizer's proof status.

    `degree_limited=False` lets track hexes branch: not a buildable network, but
    its lower bound is a valid (and much faster) bound for the real one.
    Results are kept for the life of the process: batches ask the same question
    for every seed.

    A map with its own costs (the multiplayer maps, solver/engine/maps/ and solver/multi/maps/) passes its
    `graph` (as `board_graph` returns it, adjusted), a hashable `graph_key`
    naming what it depends on, and `is_stop` for the stops it added (zones, organs).
    """
    if graph is not None and graph_key is None:
        raise ValueError("a custom graph needs a graph_key for the cache")
    key = (instance.path, len(instance.board.terrain), tuple(sorted(instance.board.impassable, key=sorted)),
           tuple(sorted(instance.scenario.track_cost.items())), tuple(sorted(stops)), unit_cost, degree_limited,
           graph_key)
    cached = _CACHE.get(key)
    if cached is not None and (cached.status != "feasible" or (time_limit or 0) <= _CACHE_LIMIT.get(key, 0)):
        return cached
    result = _cheapest_network(instance, stops, unit_cost, time_limit, degree_limited, graph, is_stop)
    _CACHE[key], _CACHE_LIMIT[key] = result, time_limit or float("inf")
    return result


_CACHE: dict = {}
_CACHE_LIMIT: dict = {}


def clear_cache() -> None:
    """Forget every network proved so far (a benchmark timing single commands, not a batch)."""
    _CACHE.clear()
    _CACHE_LIMIT.clear()


def _cheapest_network(instance: Instance, stops: list[Hex], unit_cost: bool, time_limit: float | None,
                      degree_limited: bool, graph=None, is_stop=None) -> Network:
    is_stop = is_stop or instance.board.is_stop
    for h in stops:
        if not is_stop(h):
            raise InputError(f"{h} is not a stop on {instance.board.name}", "--connect")
    from models.steiner import solve_steiner

    g, max_degree = graph if graph is not None else board_graph(instance, unit_cost)
    result = solve_steiner(g, stops, max_degree=max_degree if degree_limited else None, time_limit=time_limit)
    if result.status == "infeasible":
        return Network(tuple(stops), None, result.lower_bound, "infeasible", (), (), result.seconds, result.method)
    tree = nx.Graph()
    tree.add_nodes_from(result.nodes)
    tree.add_edges_from(result.edges)
    hexes = tuple(sorted(h for h in tree.nodes if not is_stop(h)))
    return Network(tuple(stops), result.value, result.lower_bound, result.status, hexes,
                   tuple(split_links(instance, tree, is_stop)), result.seconds, result.method,
                   tuple(tuple(e) for e in tree.edges))


def split_links(instance: Instance, tree: nx.Graph, is_stop=None) -> list[tuple[Hex, ...]]:
    """Cut a tree at its stops into stop-to-stop links."""
    stop_test = is_stop or instance.board.is_stop  # zones and organs may count as stops
    links, seen = [], set()
    for stop in sorted(n for n in tree.nodes if stop_test(n)):
        for first in sorted(tree.neighbors(stop)):
            if stop_test(first):
                if (first in instance.board.towns or stop in instance.board.towns) and not tree.edges[stop, first].get(
                        "public") and frozenset((stop, first)) not in seen:
                    seen.add(frozenset((stop, first)))
                    links.append((stop, first))  # a town tile's own track into the next stop
                continue  # public track drawn as a direct edge
            path, prev, cur = [stop, first], stop, first
            while not stop_test(cur):
                nxt = [n for n in tree.neighbors(cur) if n != prev]
                if not nxt:
                    break  # a dead end cannot be part of an optimal tree, but be safe
                prev, cur = cur, nxt[0]
                path.append(cur)
            key = frozenset(path)
            if stop_test(path[-1]) and key not in seen:
                seen.add(key)
                links.append(tuple(path))
    return links
