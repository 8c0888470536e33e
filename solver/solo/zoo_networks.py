"""Target networks for the Zoo planner: heuristic trees grown from an area, proven cheapest ones, shortcuts.

Split from solver/solo/zoo.py. None of these is a bound: the planner builds along them, and
every plan is replayed by the referee.
"""
from __future__ import annotations

import itertools

import networkx as nx

from solver.board.hexgrid import Hex
from solver.board.instance import Instance
from models.network import Network, board_graph, cheapest_network
from solver.engine.state import Rules
from solver.engine.placement import can_lay_track


# -- target networks for the planner -------------------------------------------------------

def _free_graph(instance: Instance, used: set[Hex]) -> nx.Graph:
    board, s = instance.board, instance.scenario
    g = nx.Graph()
    for h in board.terrain:
        if can_lay_track(board, s, h) and h not in used:
            g.add_node(h)
    for h in list(g.nodes):
        for x in h.neighbours():
            if x in g and board.passable(h, x):
                g.add_edge(h, x)
    return g


def _link_between(instance: Instance, free: nx.Graph, a: Hex, b: Hex) -> tuple[Hex, ...] | None:
    """The shortest link a-...-b over free hexes (at least one tile), or None."""
    board = instance.board
    starts = [h for h in a.neighbours() if h in free and board.passable(a, h)]
    ends = {h for h in b.neighbours() if h in free and board.passable(b, h)}
    if not starts or not ends:
        return None
    prev = {h: None for h in starts}
    queue = list(starts)
    while queue:
        h = queue.pop(0)
        if h in ends:
            path = [h]
            while prev[path[-1]] is not None:
                path.append(prev[path[-1]])
            return (a, *reversed(path), b)
        for x in free.neighbors(h):
            if x not in prev:
                prev[x] = h
                queue.append(x)
    return None


def heuristic_network(instance: Instance, rules: Rules, root: Hex, danger_weight: float,
                      exit_hub: bool = True) -> list[tuple[Hex, ...]]:
    """A network joining all animal areas, grown from `root` by the cheapest next link.

    Links attach only at stops (a track hex cannot branch). The cost of a link is
    its tiles plus `danger_weight` times the danger of the stop it attaches to
    (routes through dangerous areas need bigger locomotives). With `exit_hub`,
    every exit counts as joined once one is (teleports). A heuristic: plans built
    on it are checked by the referee, and no bound depends on it.
    """
    board = instance.board
    areas = set(board.cities)
    stops = set(board.stops)
    danger = {h: (board.cities[h].danger or 0) if h in board.cities else 0 for h in stops}
    joined = {root}
    used: set[Hex] = set()
    links: list[tuple[Hex, ...]] = []
    while not areas <= joined:
        free = _free_graph(instance, used)
        in_net = set(joined)
        if exit_hub and in_net & set(board.exits):
            in_net |= set(board.exits)  # teleports join every exit to the one reached
        best = None
        for x in sorted(stops - in_net):
            for y in sorted(in_net):
                link = _link_between(instance, free, x, y)
                if link is None:
                    continue
                gain = 0 if x in areas else 0.5  # a stop that is not an area is only worth it as a bridge
                cost = len(link) - 2 + danger_weight * danger[y] + gain
                if best is None or cost < best[0]:
                    best = (cost, link, x)
        if best is None:
            break
        _, link, x = best
        links.append(link)
        used |= set(link[1:-1])
        joined |= {link[0], link[-1]}
        if x in board.exits:
            joined.add(x)
    return _prune_bridges(instance, links)


def _prune_bridges(instance: Instance, links: list[tuple[Hex, ...]]) -> list[tuple[Hex, ...]]:
    """Drop links that end at a non-area stop used by no other link (dead ends)."""
    board = instance.board
    changed = True
    while changed:
        changed = False
        degree: dict[Hex, int] = {}
        for link in links:
            for e in (link[0], link[-1]):
                degree[e] = degree.get(e, 0) + 1
        for link in list(links):
            for e in (link[0], link[-1]):
                if e not in board.cities and degree.get(e, 0) == 1 and not (e in board.exits and sum(
                        1 for x in degree if x in board.exits) >= 2):
                    links.remove(link)
                    changed = True
                    break
            if changed:
                break
    return links


_PROVEN: dict[tuple, Network] = {}


def _proven(instance: Instance, stops: list[Hex], kind: str, time_limit: float) -> Network:
    """A cheapest network, remembered per board geometry once proven (the same input has the same optimum)."""
    board, s = instance.board, instance.scenario
    key = (kind, tuple(sorted(board.terrain.items())), tuple(stops), tuple(sorted(board.cities)),
           tuple(sorted(board.towns)), tuple(sorted(board.exits)), board.impassable, board.public_track,
           tuple(sorted(s.track_cost.items())), s.town_cost_base, s.town_cost_per_track)
    if key in _PROVEN:
        return _PROVEN[key]
    net = (cheapest_network(instance, stops, time_limit=time_limit) if kind == "track"
           else teleport_network(instance, stops, time_limit=time_limit))
    if net.status in ("optimal", "infeasible"):
        _PROVEN[key] = net
    return net


HUB = "exits"  # the node standing for all exits at once in the teleport-aware network


def teleport_network(instance: Instance, stops: list[Hex], time_limit: float = 60.0) -> Network:
    """The cheapest track joining `stops` when every exit counts as joined to every other (teleports).

    The exits are merged into one node of cost 0. In the sheet's reading (exits
    may be passed) this is exactly "every area can ship to every other"; in the
    strict reading it is a relaxation (a lower bound), since two links into the
    same exit cannot pass food to each other there.
    """
    from models.steiner import solve_steiner

    from models.network import split_links
    board = instance.board
    g, max_degree = board_graph(instance)
    if board.exits:
        g.add_node(HUB, cost=0)
        for e in board.exits:
            if e in g:
                g.add_edge(e, HUB, weight=0)
    result = solve_steiner(g, stops, max_degree=max_degree, time_limit=time_limit)
    if result.status == "infeasible":
        return Network(tuple(stops), None, result.lower_bound, "infeasible", (), (), result.seconds, result.method)
    tree = nx.Graph()
    tree.add_nodes_from(n for n in result.nodes if n != HUB)
    tree.add_edges_from(e for e in result.edges if HUB not in e)
    hexes = tuple(sorted(h for h in tree.nodes if not board.is_stop(h)))
    return Network(tuple(stops), result.value, result.lower_bound, result.status, hexes,
                   tuple(split_links(instance, tree)), result.seconds, result.method)


def network_links(instance: Instance, network: Network | None) -> list[tuple[Hex, ...]]:
    return [tuple(link) for link in network.links] if network is not None and network.links else []


def shortcuts(instance: Instance, links: list[tuple[Hex, ...]], max_tiles: int = 2) -> list[tuple[Hex, ...]]:
    """Short direct links between animal areas (or an area and an exit) not joined directly yet.

    Direct links make 1-link feedings that avoid passing dangerous areas; they
    avoid the target network's hexes and each other, so each can be built alone.
    """
    board = instance.board
    used = {h for link in links for h in link[1:-1]}
    joined = {frozenset((link[0], link[-1])) for link in links}
    free = _free_graph(instance, used)
    options = []
    stops = sorted(set(board.cities) | set(board.exits))
    for a, b in itertools.combinations(stops, 2):
        if a in board.exits and b in board.exits:
            continue
        if frozenset((a, b)) in joined or a.distance(b) > max_tiles + 1:
            continue
        link = _link_between(instance, free, a, b)
        if link is not None and len(link) - 2 <= max_tiles:
            options.append((len(link) - 2, link))
    out, taken = [], set()
    for _, link in sorted(options):
        if not taken & set(link[1:-1]):
            taken |= set(link[1:-1])
            out.append(link)
    return out


def target_networks(instance: Instance, rules: Rules, proven: Network | None) -> list[tuple[str, list]]:
    """Candidate networks for the planner: heuristic trees from the safest areas (and a proven one, if given)."""
    board = instance.board
    by_danger = sorted(board.cities, key=lambda h: ((board.cities[h].danger or 0), h))
    out: list[tuple[str, list]] = []
    seen = set()
    for root in by_danger[:2]:
        for weight in (0.5, 0.0, 1.0):
            links = heuristic_network(instance, rules, root, weight)
            key = frozenset(links)
            if links and key not in seen:
                seen.add(key)
                out.append((f"grown from {board.label(root)}, danger weight {weight}", links))
    links = network_links(instance, proven)
    if links and frozenset(links) not in seen:
        out.append(("proven cheapest network joining all animal areas", links))
    return out


