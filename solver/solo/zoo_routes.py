"""Zoo shipment search: which animals can be fed now, and how big a locomotive each feeding needs.

For a built network (the complete links of a game state), a locomotive level
and the food left, this module answers two questions the Zoo sheet makes hard:

* every feasible feeding: origin, destination, route (with the teleport, if
  any), links, the locomotive it needs and whether it needs the Feeding discount
  (`feedings`);
* for each origin-destination pair, the least locomotive that makes a feeding
  possible, without and with the Feeding discount (`least_locomotive`).

The rules followed (../shared/seeds/easter-island-and-zoo.txt, section Zoo,
as the ruleset in solver/engine/maps/zoo.py encodes them):

* a route is a simple path over stops; a hop is a complete link (track joining
  an exit to an animal area is one) or a teleport between two exits, at most
  one teleport ("one pair of exits per shipment"); a teleport is no link;
* the locomotive needed is max(links, highest danger among the stops the food
  departs from): the origin counts, every stop passed counts, the destination
  does not; a new city counts as danger `new_city_danger`, towns and exits 0;
* the Feeding discount lowers one danger level of the shipment by
  `feeding_discount` (only the highest matters);
* exits may be passed without teleporting, unless `Rules.strict_exits`: then
  an exit inside a route must be one end of its teleport.

Least-locomotive algorithm (`least_locomotive`): for each origin, a breadth-
first search layered by links over states (stop, teleport used, discount used,
must-teleport) that keeps, per state, only the lowest danger seen so far
(a label reached with more links and no lower danger is dominated) and drops
every label whose locomotive need exceeds the largest locomotive. A walk that
revisits a stop can always be shortened into a simple route that needs no
bigger locomotive (links and dangers only shrink, flags are monotone), so the
walk search answers the simple-route question. `plain_bfs_least_locomotive`
is the same search without the domination test and without the cap: the
baseline it is tested and benchmarked against.

The ruleset stays the referee: tests check that every route listed here passes
`state.why_illegal(Ship(...))` and that the table matches the plain search.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from solver.board.hexgrid import Hex
from solver.engine.moves import Ship, route_text
from solver.engine.placement import can_lay_track

INF = 1 << 30


@dataclass
class Needs:
    """Least locomotive over every possible network (a relaxation: lower than any real one); solver.solo.zoo's
    relaxed_needs builds it, the counting bound (solver/solo/proofs/counting.py) reads it."""

    into: dict[Hex, tuple[int, int]]     # area -> (plain, with discount) to feed it from some area with food
    out_of: dict[Hex, tuple[int, int]]   # area with food -> (plain, with discount) to feed anything from it
    near: dict[Hex, int]                 # area -> fewest tiles of any link at it
    diagnostics: dict[Hex, tuple[int, int]]  # area -> the same as `into` without the locomotive cap


# -- the network as small integer arrays ----------------------------------------------

@dataclass(frozen=True)
class StopGraph:
    """Stops joined by complete links (parallel links collapse), with dangers and exits."""

    stops: tuple[Hex, ...]
    index: dict[Hex, int]
    adj: tuple[tuple[int, ...], ...]     # link neighbours
    danger: tuple[int, ...]
    is_exit: tuple[bool, ...]
    is_city: tuple[bool, ...]            # may be a destination (animal area or new city)
    exits: tuple[int, ...]               # exits with at least one complete link
    strict_exits: bool
    discount: int                        # how much the Feeding action lowers one danger
    max_locomotive: int


_CACHE: dict[tuple, tuple[object, StopGraph]] = {}


def stop_graph(state) -> StopGraph:
    """The state's network as a StopGraph (cached per instance, network, new cities and exit reading)."""
    key = (id(state.instance), frozenset(state.track.items()), frozenset(state.second_track.items()),
           frozenset(state.new_cities.items()), state.rules.strict_exits, state.rules.exits_as_stops)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is state.instance:  # the entry keeps its instance alive, so ids are not reused
        return hit[1]
    if len(_CACHE) > 4096:
        _CACHE.clear()
    g = _build_graph(state)
    _CACHE[key] = (state.instance, g)
    return g


def _build_graph(state) -> StopGraph:
    rs, board, s = state.ruleset, state.board, state.scenario
    pairs = set()
    link_problem = getattr(rs, "exit_link_problem", None)
    for link in state.links():
        if link.complete:
            a, b = link.ends
            # zoo-exits=literal: exit-town and exit-exit track carries no food
            if a != b and (link_problem is None or link_problem(state, a, b) is None):
                pairs.add((a, b))
    stops = sorted({h for p in pairs for h in p})
    index = {h: i for i, h in enumerate(stops)}
    adj: list[set[int]] = [set() for _ in stops]
    for a, b in pairs:
        adj[index[a]].add(index[b])
        adj[index[b]].add(index[a])
    danger = tuple(rs.danger(state, h) if state.is_city(h) else 0 for h in stops)
    is_exit = tuple(h in board.exits for h in stops)
    is_city = tuple(state.is_city(h) for h in stops)
    return StopGraph(tuple(stops), index, tuple(tuple(sorted(a)) for a in adj), danger, is_exit, is_city,
                     tuple(i for i, e in enumerate(is_exit) if e), state.rules.strict_exits,
                     s.feeding_discount, s.max_locomotive)


# -- least locomotive per origin-destination pair ------------------------------------------

def least_from(g: StopGraph, o: int, use_discount: bool) -> list[int]:
    """Least locomotive to feed each stop from origin o (INF: impossible within the maximum)."""
    n = len(g.stops)
    cap = g.max_locomotive
    best = [INF] * n
    # state id: ((node * 2 + teleport_used) * 2 + discount_used) * 2 + must_teleport
    seen = {}
    layer = [(o, 0, 0, 0, 0)]  # node, teleport used, discount used, must teleport, max danger departed
    seen[((o * 2) * 2) * 2] = 0
    adj, danger, is_exit, is_city, exits = g.adj, g.danger, g.is_exit, g.is_city, g.exits
    strict, disc = g.strict_exits, g.discount
    links = 0
    while layer and links < cap:
        links += 1
        nxt = []
        for v, t, u, must, m in layer:
            if must:
                continue  # only a teleport leaves here, and teleports were expanded in the layer before
            dv = danger[v]
            departs = [(max(m, dv), u)]
            if use_discount and not u and dv > 0:
                departs.append((max(m, dv - disc), 1))
            for m2, u2 in departs:
                if m2 > cap:
                    continue
                for w in adj[v]:
                    if w == o:
                        continue
                    must2 = 1 if (strict and is_exit[w] and not t) else 0
                    if strict and is_exit[w] and t:
                        continue  # (strict) an exit entered after the teleport can be neither passed nor fed
                    key = (((w * 2 + t) * 2 + u2) * 2 + must2)
                    if seen.get(key, INF) <= m2:
                        continue
                    seen[key] = m2
                    nxt.append((w, t, u2, must2, m2))
                    if is_city[w]:
                        need = m2 if m2 > links else links
                        if need < best[w]:
                            best[w] = need
        # teleports: 0 links, from an exit reached without one to every other exit
        for v, t, u, must, m in list(nxt):
            if t or not is_exit[v]:
                continue
            for w in exits:
                if w == v:
                    continue
                key = (((w * 2 + 1) * 2 + u) * 2)
                if seen.get(key, INF) <= m:
                    continue
                seen[key] = m
                nxt.append((w, 1, u, 0, m))
        layer = nxt
    return best


def least_locomotive(state, origins: list[Hex] | None = None) -> dict[tuple[Hex, Hex], tuple[int | None, int | None]]:
    """(origin, destination) -> (least locomotive without, with the Feeding discount); None: never.

    Origins default to the animal areas with food left. Only pairs that some
    route joins within the largest locomotive are listed.
    """
    g = stop_graph(state)
    out = {}
    for h, o in _origins(g, state, origins):
        plain = least_from(g, o, False)
        disc = least_from(g, o, True) if g.discount else plain
        for w, (a, b) in enumerate(zip(plain, disc)):
            if a < INF or b < INF:
                out[(h, g.stops[w])] = (a if a < INF else None, b if b < INF else None)
    return out


def _origins(g, state, origins: list[Hex] | None):
    """(hex, stop index) of each origin on the stop graph; by default the animal areas with food left."""
    if origins is None:
        origins = [h for h, c in state.goods.items() if c]
    for h in sorted(origins):
        if h in g.index:
            yield h, g.index[h]


def plain_bfs_least_locomotive(state, origins: list[Hex] | None = None
                               ) -> dict[tuple[Hex, Hex], tuple[int | None, int | None]]:
    """The baseline: breadth-first search over (stop, locomotive used, exit used, discount used).

    No domination test and no cap: every state is visited once, at its fewest
    links. 'Locomotive used' is the highest danger departed so far (the links
    are the search depth); the need of a feeding is max(links, that danger).
    """
    g = stop_graph(state)
    out = {}
    for h, o in _origins(g, state, origins):
        res = {}
        for use_discount in (False, True):
            best: dict[int, int] = {}
            start = (o, 0, 0, 0, 0)  # stop, danger so far, exit used, discount used, must teleport
            dist = {start: 0}
            queue = deque([start])
            while queue:
                st = queue.popleft()
                v, m, t, u, must = st
                d = dist[st]
                if v != o and g.is_city[v]:
                    need = max(d, m)
                    if need < best.get(v, INF):
                        best[v] = need
                if not must:
                    dv = g.danger[v]
                    options = [(max(m, dv), u)]
                    if use_discount and not u and dv > 0:
                        options.append((max(m, dv - g.discount), 1))
                    for m2, u2 in options:
                        for w in g.adj[v]:
                            if g.strict_exits and g.is_exit[w] and t:
                                continue
                            must2 = 1 if (g.strict_exits and g.is_exit[w]) else 0
                            nst = (w, m2, t, u2, must2)
                            if nst not in dist:
                                dist[nst] = d + 1
                                queue.append(nst)
                if g.is_exit[v] and not t:
                    for w in g.exits:
                        if w != v:
                            nst = (w, m, 1, u, 0)
                            if nst not in dist or dist[nst] > d:
                                dist[nst] = d
                                queue.appendleft(nst)
            res[use_discount] = best
        for w in range(len(g.stops)):
            if w == o:
                continue
            a, b = res[False].get(w, INF), res[True].get(w, INF)
            a = a if a <= g.max_locomotive else INF
            b = b if b <= g.max_locomotive else INF
            if g.discount == 0:
                b = a
            if a < INF or b < INF:
                out[(h, g.stops[w])] = (a if a < INF else None, b if b < INF else None)
    return out


# -- every feasible feeding --------------------------------------------------------------

@dataclass(frozen=True)
class Feeding:
    origin: Hex
    destination: Hex
    route: tuple[Hex, ...]
    teleports: tuple[int, ...]
    links: int
    need: int                  # locomotive this route needs (after the discount, when one is used)
    discount: Hex | None       # the area whose danger the Feeding discount lowers, if needed
    exit_used: bool = False    # the route touches an exit (the round earns a bonus tile)

    def ship(self, colour: str) -> Ship:
        return Ship(self.origin, colour, self.route, self.teleports, self.discount)

    def text(self) -> str:
        return route_text(self.route, self.teleports)


def feedings(state, locomotive: int | None = None, discount: bool | None = None,
             origins: list[Hex] | None = None) -> list[Feeding]:
    """Every simple route a piece of food can be shipped along now, one entry per route.

    `locomotive` defaults to the state's; `discount` to whether the Feeding
    discount is still available this round. A route that needs the discount is
    listed with it (on the stop with the highest danger); a route that does not
    is listed without it.
    """
    g = stop_graph(state)
    loco = state.locomotive if locomotive is None else locomotive
    if discount is None:
        discount = state.action == "feeding" and not state.discount_used
    if origins is None:
        origins = [h for h, c in state.goods.items() if c]
    d = g.discount if discount else 0
    out: list[Feeding] = []
    adj, danger, is_exit, is_city, exits = g.adj, g.danger, g.is_exit, g.is_city, g.exits
    strict = g.strict_exits

    def top_after(top1: int, top2: int, x: int) -> tuple[int, int]:
        if x >= top1:
            return x, top1
        return top1, max(top2, x)

    for h in sorted(origins):
        o = g.index.get(h)
        if o is None:
            continue
        path = [o]
        on_path = {o}

        def dfs(v: int, links: int, top1: int, top2: int, tele: int | None):
            # depart v: its danger counts from here on
            t1, t2 = top_after(top1, top2, danger[v])
            if max(t1 - d, t2) > loco:
                return
            entered_by_link = len(path) == 1 or tele != len(path) - 2
            hops = []
            if not (strict and is_exit[v] and v != o and entered_by_link):
                if links < loco:
                    hops.extend((w, False) for w in adj[v])
            if is_exit[v] and tele is None:
                hops.extend((w, True) for w in exits if w != v)
            for w, is_tele in hops:
                if w in on_path:
                    continue
                n_links = links + (0 if is_tele else 1)
                n_tele = len(path) - 1 if is_tele else tele
                if strict and is_exit[w] and not is_tele and n_tele is not None:
                    continue  # (strict) an exit after the teleport
                path.append(w)
                on_path.add(w)
                if is_city[w]:
                    plain = max(n_links, t1)
                    if plain <= loco:
                        out.append(_feeding(g, path, n_tele, n_links, plain, None))
                    elif d and t1 > 0 and max(n_links, t1 - d, t2) <= loco:
                        where = next(x for x in path[:-1] if danger[x] == t1)
                        out.append(_feeding(g, path, n_tele, n_links, max(n_links, t1 - d, t2), where))
                dfs(w, n_links, t1, t2, n_tele)
                path.pop()
                on_path.discard(w)

        dfs(o, 0, 0, 0, None)
    return out


def _feeding(g: StopGraph, path: list[int], tele: int | None, links: int, need: int, disc: int | None) -> Feeding:
    route = tuple(g.stops[i] for i in path)
    return Feeding(route[0], route[-1], route, () if tele is None else (tele,), links, need,
                   None if disc is None else g.stops[disc], any(g.is_exit[i] for i in path))


def feeding_moves(state, fresh_only: bool = False) -> list[Ship]:
    """The feasible feedings now as engine moves (food colour: the origin's top cube)."""
    out = []
    for f in feedings(state):
        if fresh_only and f.destination in state.fed:
            continue
        out.append(f.ship(state.goods[f.origin][-1]))
    return out


def uses_exit(state, route: tuple[Hex, ...]) -> bool:
    """Does a route touch an exit hex (which earns the round's bonus tile)?"""
    return any(h in state.board.exits for h in route)


# -- random networks (tests and the benchmark) -------------------------------------------

def random_network(state, rng, n_links: int, max_tiles: int = 6) -> None:
    """Lay up to `n_links` random links between stops on the state's board, for free.

    Each link is a shortest free hex path between two random stops (at most
    `max_tiles` tiles) laid tile by tile through the engine, so every tile is
    legal; cash and the tile limit are lifted first, which is fine for testing
    shipments but not a game a player could reach.
    """
    import networkx as nx

    from solver.engine.moves import LayTile
    board = state.board
    stops = sorted(board.stops)
    for _ in range(n_links * 4):
        if n_links <= 0:
            break
        a, b = rng.sample(stops, 2)
        free = nx.Graph()
        for h in board.terrain:
            if can_lay_track(board, state.scenario, h) and h not in state.track:
                for x in h.neighbours():
                    if board.passable(h, x) and (x in (a, b) or (can_lay_track(board, state.scenario, x)
                                                                 and x not in state.track)):
                        free.add_edge(h, x)
        if a not in free or b not in free:
            continue
        try:
            path = nx.shortest_path(free, a, b)
        except nx.NetworkXNoPath:
            continue
        inner = path[1:-1]
        if not inner or len(inner) > max_tiles or any(x in (a, b) for x in inner):
            continue
        if any(board.is_stop(x) for x in inner):
            continue
        saved = (state.cash, state.tiles_laid)
        ok = True
        for i in range(1, len(path) - 1):
            state.cash, state.tiles_laid = 10 ** 6, -10 ** 6
            move = LayTile(path[i], path[i - 1], path[i + 1])
            if state.why_illegal(move) is not None:
                ok = False
                break
            state.apply(move)
        state.cash, state.tiles_laid = saved
        if ok:
            n_links -= 1
