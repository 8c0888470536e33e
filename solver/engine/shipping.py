"""Shipment search: every shipment the rules allow from a state.

Routes are simple paths over the stop graph (stops joined by complete links,
plus Zoo's teleports between exits). The search only proposes; the ruleset's
`shipment_problem` decides, so legality is defined once.
"""
from __future__ import annotations

from collections import defaultdict

from solver.board.hexgrid import Hex
from solver.engine.moves import Ship


def stop_graph(state) -> dict[Hex, set[tuple[Hex, bool]]]:
    """stop -> {(next stop, is_teleport)}; parallel links collapse (any one will do)."""
    adj: dict[Hex, set[tuple[Hex, bool]]] = defaultdict(set)
    for link in state.links():
        if link.complete:
            a, b = link.ends
            adj[a].add((b, False))
            adj[b].add((a, False))
    for a, b in state.ruleset.virtual_hops(state):  # hops that are no link: the map's own (Zoo's teleports)
        adj[a].add((b, True))
        adj[b].add((a, True))
    return adj


def candidate_routes(state, origin: Hex, colour: str, max_links: int, adj=None):
    """Yield (route, teleports) for simple paths that end where the good is accepted."""
    rs = state.ruleset
    adj = stop_graph(state) if adj is None else adj

    def dfs(path: list[Hex], teleports: tuple[int, ...], links: int):
        cur = path[-1]
        for nxt, tele in sorted(adj.get(cur, ())):
            if nxt in path or (tele and teleports):
                continue
            n_links = links + (0 if tele else 1)
            if n_links > max_links:
                continue
            new_tele = teleports + ((len(path) - 1,) if tele else ())
            new_path = path + [nxt]
            if rs.accepts(state, nxt, colour):
                yield tuple(new_path), new_tele
                if not rs.pass_own_colour:
                    continue  # it must stop at the first city of its colour
            yield from dfs(new_path, new_tele, n_links)

    yield from dfs([origin], (), 0)


def shipments(state) -> list[Ship]:
    """Every legal shipment now (without the Zoo discount, and with each possible discount)."""
    rs = state.ruleset
    adj = stop_graph(state)
    out = []
    for origin, cubes in sorted(state.goods.items()):
        if not cubes:
            continue
        colours = [cubes[-1]] if rs.top_cube_only else sorted(set(cubes))
        for colour in colours:
            # Every ruleset needs at least one locomotive level per link, so longer routes cannot pass.
            for route, teleports in candidate_routes(state, origin, colour, state.locomotive, adj):
                variants = [None]
                if state.action == "feeding" and not state.discount_used:
                    variants += [h for h in route if rs.danger(state, h) > 0]
                for discount in variants:
                    move = Ship(origin, colour, route, teleports, discount)
                    if rs.shipment_problem(state, move) is None:
                        out.append(move)
    return out
