"""Lower bounds from the CP-SAT relaxation of the solo game (models/solo_game), for Easter Island and the Zoo.

`game_spec(state)` turns a game state at the start of a round into the plain
numbers the model needs, computing the geometric lower bounds the model's
argument relies on (models/solo_game/relaxation.py, points 3 and 5):

* `links`: fewest links of any route from a stop to another, over the graph of
  every link ANY network could have (two stops are joined when a path of free
  hexes runs between them; Zoo exits are joined to each other by teleports);
* `tiles`: fewest hexes without track on any hex path between the two stops
  (old track and stops cost nothing; Zoo: or via any two exits);
* Zoo `need`: least locomotive over that any-network graph (solver/zoo_routes).

`rounds_relaxation` then asks the model round count by round count (the proof engine
solver/solo/proofs/relaxation.py puts it behind the engines' interface), and
`min_shares_bound` asks it for the fewest shares at a round count. Every
answer says what it rests on; only INFEASIBLE and OPTIMAL (or the model's
proven objective bound) count, and integers are compared exactly.
"""
from __future__ import annotations

import dataclasses
import heapq
from collections import deque
from functools import partial

from ortools.sat.python import cp_model

from models.solo_game import Dest, Item, SoloSpec, Stack, build_relaxation
from solver import interrupt
from solver.board.hexgrid import Hex
from solver.engine.economy import income_reduction
from solver.engine.placement import can_lay_track, track_hexes
from solver.engine.track_tiles import complex_rules
from solver.solo.settings import SolveParams

INF = 1 << 30


def _town_neighbours(board, a: Hex, stops) -> list[Hex]:
    """Stops next to `a` that a town tile's own track can join it to, with no other tile (one is a town)."""
    return [x for x in a.neighbours() if x in stops and x != a and board.passable(a, x)
            and (a in board.towns or x in board.towns)]


def potential_links(instance) -> dict[Hex, set[Hex]]:
    """stop -> stops that some link over free hexes could join it to (any network)."""
    board, s = instance.board, instance.scenario
    stops = board.stops
    out: dict[Hex, set[Hex]] = {h: set() for h in stops}
    for a in stops:
        for x in _town_neighbours(board, a, stops):
            out[a].add(x)
        seen = set()
        queue = deque(h for h in a.neighbours() if can_lay_track(board, s, h) and board.passable(a, h))
        seen.update(queue)
        while queue:
            h = queue.popleft()
            for x in h.neighbours():
                if not board.on_map(x) or not board.passable(h, x):
                    continue
                if x in stops:
                    if x != a:
                        out[a].add(x)
                elif x not in seen and can_lay_track(board, s, x):
                    seen.add(x)
                    queue.append(x)
    return out


def link_weights(state) -> dict[tuple[Hex, Hex], int]:
    """(a, b) -> fewest hexes without track on a link from a to b that passes no other stop (any network)."""
    board, s = state.board, state.scenario
    stops = board.stops
    out: dict[tuple[Hex, Hex], int] = {}
    for a in stops:
        for x in _town_neighbours(board, a, stops):
            out[a, x] = 0  # a town tile's own track: no hex
        dist: dict[Hex, int] = {}
        dq = deque()
        for h in a.neighbours():
            if can_lay_track(board, s, h) and board.passable(a, h):
                dist[h] = 0 if h in state.track else 1
                (dq.appendleft if dist[h] == 0 else dq.append)(h)
        done = set()
        while dq:
            h = dq.popleft()
            if h in done:
                continue
            done.add(h)
            for x in h.neighbours():
                if not board.on_map(x) or not board.passable(h, x):
                    continue
                if x in stops:
                    if x != a and dist[h] < out.get((a, x), INF):
                        out[a, x] = dist[h]
                elif can_lay_track(board, s, x):
                    nd = dist[h] + (0 if x in state.track else 1)
                    if nd < dist.get(x, INF):
                        dist[x] = nd
                        (dq.appendleft if nd == dist[h] else dq.append)(x)
    return out


def fewest_links(instance, teleports: bool) -> dict[tuple[Hex, Hex], int]:
    """(a, b) -> fewest links of any route (0-1 BFS: a teleport between exits is no link)."""
    adj = potential_links(instance)
    exits = set(instance.board.exits) if teleports else set()
    out = {}
    for a in adj:
        dist = {a: 0}
        dq = deque([a])
        while dq:
            v = dq.popleft()
            hops = [(w, 1) for w in adj[v]] + ([(w, 0) for w in exits if w != v] if v in exits else [])
            for w, c in hops:
                if dist[v] + c < dist.get(w, INF):
                    dist[w] = dist[v] + c
                    (dq.appendleft if c == 0 else dq.append)(w)
        for b, d in dist.items():
            if b != a:
                out[a, b] = d
    return out


def fewest_new_tiles(state, teleports: bool) -> dict[tuple[Hex, Hex], int]:
    """(a, b) -> fewest hexes without track on a hex path from stop a to stop b (stops and old track free)."""
    board, s = state.board, state.scenario
    stops = board.stops
    exits = set(board.exits) if teleports else set()

    def cost(h: Hex) -> int:
        return 0 if (h in stops or h in state.track) else 1

    out = {}
    for a in stops:
        dist = {a: 0}
        heap = [(0, a)]
        while heap:
            d, v = heapq.heappop(heap)
            if d > dist[v]:
                continue
            nbrs = []
            for x in v.neighbours():
                if not board.on_map(x) or not board.passable(v, x):
                    continue
                if v in stops and x in stops and not (v in board.towns or x in board.towns):
                    continue  # two stops side by side are joined without a tile only by a town tile
                if x in stops or can_lay_track(board, s, x):
                    nbrs.append(x)
            if v in exits:
                nbrs += [w for w in exits if w != v]
            for x in nbrs:
                nd = d + cost(x)
                if nd < dist.get(x, INF):
                    dist[x] = nd
                    heapq.heappush(heap, (nd, x))
        for b in stops:
            if b != a and b in dist:
                out[a, b] = dist[b]
    return out


def network_tiles_bound(state, time_limit: float) -> int:
    """New track hexes any network joining every ruin needs (node-weighted Steiner bound, old track free)."""
    from models.network import board_graph, cheapest_network
    inst = state.instance
    g, deg = board_graph(inst, unit_cost=True)
    g = g.copy()
    for h in state.track:
        if h in g:
            g.nodes[h]["cost"] = 0
    net = cheapest_network(inst, sorted(inst.board.cities), unit_cost=True, time_limit=time_limit,
                           degree_limited=False, graph=(g, deg), graph_key=("old-track-free", frozenset(state.track)))
    return int(net.lower_bound or 0)


def double_price(state, least_tile: int) -> tuple[bool, int]:
    """(may a hex carry two tracks, the least its second track adds to the first tile's price) from the board
    file's prices: a complex tile is its terrain plus the crossing or non-crossing extra; an upgrade is the
    upgrade price (reading zoo-upgrade-cost=per-tile: a tile's price, at least `least_tile`). No complex-tile
    prices in the board file: the referee lays no complex tile."""
    rules = complex_rules(state)
    if not getattr(state.rules, "complex_tiles", True) or rules is None:
        return False, 0
    upgrade = rules["upgrade_to_crossing_cost"]
    if getattr(state.rules, "zoo_upgrade_cost", "base") == "per-tile":
        upgrade = least_tile
    return True, max(0, min(rules["complex_crossing_extra"], rules["complex_noncrossing_extra"], upgrade))


def game_spec(state, network_tiles: int | None = None, time_limit: float = 10.0, zoo_graph=None) -> SoloSpec:
    """The relaxation's numbers for a state at the start of a round (phase 'shares').

    Zoo: `zoo_graph` is the any-network StopGraph (solver.solo.zoo.potential_graph) the danger needs come from.
    """
    if state.phase != "shares":
        raise ValueError("the relaxation starts from the beginning of a round")
    inst, board, s, rs, rules = state.instance, state.board, state.scenario, state.ruleset, state.rules
    zoo = s.ruleset == "zoo"
    links = fewest_links(inst, teleports=zoo)
    tiles = fewest_new_tiles(state, teleports=zoo)
    costs = [c for t, c in s.track_cost.items() if any(board.terrain[h] == t for h in track_hexes(board, s))]
    spec = SoloSpec(
        first_round=state.round, cash=state.cash, income=state.income, shares=state.shares,
        locomotive=state.locomotive, blockers=frozenset(state.blockers), bonus_tiles=state.bonus_tiles,
        new_city_tiles=len(state.new_city_supply), urbanized=frozenset(state.new_cities),
        share_price=s.share_price, max_shares=s.max_shares, max_locomotive=s.max_locomotive,
        action_costs={a: rs.action_cost(state, a) for a in s.actions},
        action_optional=rs.action_optional and not getattr(rules, "strict_action", False),
        blocker_cycle=s.ruleset == "easter-island", rapa_nui_cash=s.rapa_nui_cash,
        income_floor=s.income_floor, income_reduction=partial(income_reduction, tuple(s.income_reduction)),
        tile_limit=s.tile_limit, engineer_tile_limit=s.engineer_tile_limit,
        tile_cost=min(costs) if costs else 0,
        engineer_tile_cost=s.engineer_track_cost if zoo else None,
        bonus_from_exits=zoo and bool(board.exits),
        bonus_tiles_pay=bool(s.bonus_tiles_pay_cost) and not getattr(rules, "zoo_bonus_free", False),
        feeding_discount=s.feeding_discount, shipments_per_round=s.shipments_per_round,
        towns=tuple(sorted(t for t in board.towns if t not in state.new_cities)) if "urbanization" in s.actions
        else (),
        danger_rules=zoo)
    weights = link_weights(state)
    spec.stops = tuple(sorted(board.stops))
    spec.link_pairs = tuple((a, b, w) for (a, b), w in sorted(weights.items()) if a < b)
    spec.teleport_exits = tuple(sorted(board.exits)) if zoo else ()
    spec.complex_tiles, spec.double_cost = double_price(state, min(costs) if costs else 0)
    spec.idle_actions = bool(getattr(rules, "idle_actions", False))
    spec.clear_when_under = bool(getattr(rules, "clear_when_under", False))
    if zoo:
        _zoo_goods(state, spec, links, tiles, zoo_graph)
    else:
        _island_goods(state, spec, links, tiles)
        spec.network_tiles = network_tiles if network_tiles is not None else network_tiles_bound(state, time_limit)
        spec.join = tuple(sorted(board.cities))
    return spec


def _island_goods(state, spec: SoloSpec, links, tiles) -> None:
    """Every cube must leave; it may end at a city of its colour (or a town urbanized as a black new city)."""
    board = state.board
    colours_of_new = set(state.new_city_supply)
    for h, cubes in sorted(state.goods.items()):
        keys = []
        for pos, colour in enumerate(cubes):
            key = f"{h}#{pos}"
            dests = []
            for d in sorted(set(board.cities) | set(state.new_cities)):
                if d != h and state.city_colour(d) == colour and (h, d) in links:
                    dests.append(Dest(d, links[h, d], tiles.get((h, d), INF)))
            if colour in colours_of_new:
                for t in spec.towns:
                    if (h, t) in links:
                        dests.append(Dest(t, links[h, t], tiles.get((h, t), INF), town=True))
            dests = [d for d in dests if d.tiles < INF]
            # "the first city of its colour" it reaches: the good must end there
            stop_at = frozenset(d for d in set(board.cities) | set(state.new_cities)
                                if state.city_colour(d) == colour and d != h)
            spec.items.append(Item(key, h, 1, True, tuple(dests), stop_at))
            keys.append(key)
        if len(keys) == 2:
            spec.stacks.append(Stack(h, keys[0], keys[1]))


def _zoo_goods(state, spec: SoloSpec, links, tiles, g) -> None:
    """Food may go to any animal area (or a town urbanized into one); every unfed printed area must be fed."""
    from solver.solo.zoo_routes import least_from
    if g is None:
        raise ValueError("the Zoo relaxation needs the any-network stop graph (solver.solo.zoo.potential_graph)")
    board = state.board
    cities = sorted(set(board.cities) | set(state.new_cities))
    for h, food in sorted(state.goods.items()):
        if not food or h not in g.index:
            continue
        o = g.index[h]
        plain, disc = least_from(g, o, False), least_from(g, o, True)
        dests = []
        for d in cities + list(spec.towns):
            if d == h or (h, d) not in links or d not in g.index:
                continue
            w = g.index[d]
            if min(plain[w], disc[w]) >= INF or tiles.get((h, d), INF) >= INF:
                continue
            dests.append(Dest(d, links[h, d], tiles[h, d], need=min(plain[w], INF),
                              need_discount=disc[w], town=d in spec.towns))
        # plain need INF (only reachable with the discount): keep it above any locomotive
        dests = [Dest(d.stop, d.links, d.tiles, min(d.need, spec.max_locomotive + 1), d.need_discount, d.town)
                 for d in dests if d.need_discount <= spec.max_locomotive]
        for pos in range(len(food)):  # one item a piece: each piece has its own route
            spec.items.append(Item(f"{h}#{pos}", h, 1, False, tuple(dests)))
    spec.must_feed = tuple(sorted(h for h in board.cities if h not in state.fed))


# -- asking the model -----------------------------------------------------------------------------------

def feasible_by(spec: SoloSpec, last_round: int, params: SolveParams) -> str:
    """'infeasible' (proof: no plan clears by last_round), 'feasible' (the relaxation can), or 'unknown'."""
    if last_round < spec.first_round:
        return "infeasible"
    if spec.link_pairs:
        # first without the network layer (a weaker relaxation, fast): its INFEASIBLE is a proof too
        weak = build_relaxation(dataclasses.replace(spec, link_pairs=(), join=()), last_round)
        if interrupt.solve_cp(params.cp_solver(), weak.model) == cp_model.INFEASIBLE:
            return "infeasible"
    sm = build_relaxation(spec, last_round)
    status = interrupt.solve_cp(params.cp_solver(), sm.model)
    return verdict_of(status)


def verdict_of(status) -> str:
    """A relaxation's CP-SAT status in words: only INFEASIBLE is a proof; no answer is 'unknown'."""
    return {cp_model.INFEASIBLE: "infeasible", cp_model.FEASIBLE: "feasible",
            cp_model.OPTIMAL: "feasible"}.get(status, "unknown")


def rounds_relaxation(spec: SoloSpec, lower: int, upper: int, params: SolveParams,
                      no_plan: bool = False, walk_up: bool = False) -> tuple[int, list[dict]]:
    """Raise the proven lower bound on the clearing round: R = lower, lower+1, ... while INFEASIBLE, up to `upper`.

    Returns the new lower bound (<= upper; == upper + 1 means no plan clears by `upper`) and the log.
    `walk_up`: when the top is not infeasible, also try lower, lower + 1, ... (costs one model each).
    """
    log = []
    if upper > lower:
        # The relaxation is monotone in R (models/solo_game/relaxation.py, point 7: the rounds after a clear
        # are modelled as not played, so a relaxed play by R is one by R+1, and a real play that clears by
        # R' <= R maps into the model at R), so INFEASIBLE at the top settles every round below it at once:
        # ask there first (with a plan known, top = plan's rounds - 1; without one, the round limit).
        verdict = feasible_by(spec, upper, params)
        log.append({"rounds": upper, "relaxation": verdict, "cp_time": params.deterministic_time})
        if verdict == "infeasible":
            return upper + 1, log
        if not walk_up:
            return lower, log
    r = lower
    while r <= upper:
        verdict = feasible_by(spec, r, params)
        log.append({"rounds": r, "relaxation": verdict, "cp_time": params.deterministic_time})
        if verdict != "infeasible":
            break
        r += 1
    return r, log


def min_shares_bound(spec: SoloSpec, last_round: int, params: SolveParams) -> tuple[int | None, str]:
    """A proven lower bound on the shares issued in the whole game by a plan that clears by last_round.

    Counts the shares already issued in the state. None when the model finished nothing useful.
    """
    # The stop-level network layer makes this model too slow to finish on the full maps; without it the
    # model is a weaker relaxation (fewer constraints), so its minimum is still a valid lower bound.
    sm = build_relaxation(dataclasses.replace(spec, link_pairs=(), join=()), last_round)
    sm.model.Minimize(sm.total_shares)
    solver = params.cp_solver()
    status = interrupt.solve_cp(solver, sm.model)
    if status == cp_model.OPTIMAL:
        return spec.shares + int(round(solver.ObjectiveValue())), "optimal"
    if status == cp_model.FEASIBLE:
        import math
        return spec.shares + math.ceil(solver.BestObjectiveBound() - 1e-9), "bound"
    if status == cp_model.INFEASIBLE:
        return None, "infeasible"
    return None, "unknown"


def proof_record(answer) -> dict:
    """Batch-record fields: how the answer was proved, and the fewest-shares bounds at the minimum rounds."""
    shares = answer.search.shares or {}
    return {"proof_source": answer.search.proof_source, "plan_source": answer.search.plan_source,
            "shares_lower_bound": shares.get("lower_bound"), "shares_upper_bound": shares.get("upper_bound"),
            "shares_proved": bool(shares.get("proved")), "shares_bound_source": shares.get("lower_bound_source"),
            "relaxation_log": answer.search.engine_logs.get("relaxation")}
