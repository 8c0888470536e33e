"""Easter Island plans from the CP-SAT restriction (models/solo_game/restriction.py).

`plan_spec(state)` picks the candidate links (a few cheapest hex paths for
every pair of stops, short enough to lay in one round) and every cube's
candidate routes over them; `restricted_plan(state, last_round, params)`
solves the model and decodes its solution into plan rounds. Nothing here says
a plan is legal: the caller replays it with the referee (solver/engine/plan.replay)
and keeps it only if the referee agrees. The model is a restriction, so its
INFEASIBLE is never reported as a proof.
"""
from __future__ import annotations


import networkx as nx
from ortools.sat.python import cp_model

from models.solo_game.restriction import (CandidateLink, Cube, PlanSpec, Route, build_restriction,
                                         minimize_rounds_then_shares, pair)
from solver import interrupt
from solver.board.hexgrid import Hex
from solver.engine.moves import route_text
from solver.engine.plan import RoundPlan
from solver.solo.relaxation import SolveParams, _solver, game_spec


def _hex_graph(state) -> nx.Graph:
    """Hexes a new simple tile may go on (no stop, no track yet), joined where track may cross the side."""
    board, s = state.board, state.scenario
    g = nx.Graph()
    free = [h for h in board.terrain if board.on_map(h) and board.buildable(h) and not board.is_stop(h)
            and board.terrain[h] in s.track_cost and h not in state.track]
    for h in free:
        g.add_node(h, cost=state.ruleset.tile_cost(state, h))
    for h in free:
        for x in h.neighbours():
            if x in g and board.passable(h, x):
                g.add_edge(h, x)
    return g


def candidate_links(state, per_pair: int = 3, slack: int = 4) -> list[CandidateLink]:
    """For every two stops: up to `per_pair` cheapest hex paths (within `slack` dollars of the cheapest).

    A path passes no other stop and has at most as many hexes as one Engineer round lays, so the
    restriction can lay it whole in one round. Found by a depth-first walk from each stop.
    """
    board = state.board
    longest = state.scenario.engineer_tile_limit
    g = _hex_graph(state)
    stops = set(board.cities) | set(board.towns)
    found: dict = {}
    for a in sorted(stops, key=str):
        stack = [(x,) for x in a.neighbours() if x in g and board.passable(a, x)]
        while stack:
            path = stack.pop()
            last = path[-1]
            for x in last.neighbours():
                if not board.on_map(x) or not board.passable(last, x):
                    continue
                if x in stops and x != a and str(a) < str(x):
                    cost = sum(g.nodes[h]["cost"] for h in path)
                    found.setdefault((a, x), []).append((cost, len(path), [str(h) for h in path], path))
                elif x in g and x not in path and len(path) < longest:
                    stack.append(path + (x,))
    out: list[CandidateLink] = []
    for (a, b), paths in sorted(found.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))):
        paths.sort(key=lambda p: p[:3])
        best = paths[0][0]
        for cost, _, _, path in paths[:per_pair]:
            if cost <= best + slack:
                out.append(CandidateLink(len(out), a, b, path, cost))
    return out


def cube_routes(state, pairs: set, towns: tuple, max_links: int, per_cube: int) -> dict:
    """origin, colour -> the simple stop paths a cube may take (fewest links first).

    A route never passes a city of its colour (it would have to stop there); a black cube passes no
    town (an urbanized town is a black city) and ends at a black city or a town still to urbanize.
    """
    adj: dict = {}
    for a, b in pairs:
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    for v in adj:
        adj[v] = sorted(adj[v], key=str)
    out = {}
    for origin, cubes in sorted(state.goods.items()):
        for colour in sorted(set(cubes)):
            def ends_here(v):
                if v == origin:
                    return False
                if state.is_city(v) and state.city_colour(v) == colour:
                    return True
                return colour == "black" and v in towns

            def blocked(v):
                return ends_here(v) or (colour == "black" and (v in state.board.towns))

            found = []
            stack = [(origin,)]
            while stack:
                path = stack.pop()
                for w in adj.get(path[-1], ()):
                    if w in path:
                        continue
                    if ends_here(w):
                        found.append(path + (w,))
                    elif not blocked(w) and len(path) < max_links:
                        stack.append(path + (w,))
            found.sort(key=lambda p: (len(p), [str(x) for x in p]))
            out[origin, colour] = [Route(p) for p in found[:per_cube]]
    return out


def plan_spec(state, per_pair: int = 2, max_links: int = 4, per_cube: int = 15,
              hint: list[RoundPlan] | None = None) -> PlanSpec:
    """The restriction's numbers for a state at the start of a round.

    `hint`: plan rounds from this state (the beam's plan): its whole links and its routes are added to
    the candidates, so the model can hold that plan and start from it.
    """
    base = game_spec(state, network_tiles=0)
    links = candidate_links(state, per_pair=per_pair)
    board = state.board
    stops = set(board.cities) | set(board.towns)
    have = {(link.a, link.b, link.hexes) for link in links}
    extra_routes: dict = {}
    for rnd in hint or ():
        for text in rnd.build:
            path = [Hex.parse(t) for t in text.split("-")] if not text.startswith("urbanize") else []
            if len(path) >= 3 and path[0] in stops and path[-1] in stops and not stops & set(path[1:-1]):
                a, hexes, b = path[0], tuple(path[1:-1]), path[-1]
                if str(b) < str(a):
                    a, b, hexes = b, a, hexes[::-1]
                if (a, b, hexes) not in have:
                    have.add((a, b, hexes))
                    cost = sum(state.ruleset.tile_cost(state, h) for h in hexes)
                    links.append(CandidateLink(len(links), a, b, hexes, cost))
        for entry in rnd.ship:
            if isinstance(entry, dict):
                stops_of = tuple(Hex.parse(t) for t in entry["route"].split("-"))
                extra_routes.setdefault((stops_of[0], entry["cube"]), []).append(Route(stops_of))
    prebuilt = frozenset(pair(*tuple(p)) for p in state.linked_pairs())
    pairs = {pair(link.a, link.b) for link in links} | set(prebuilt)
    routes = cube_routes(state, pairs, base.towns, max_links, per_cube)
    for key, extra in extra_routes.items():
        routes[key] = list(dict.fromkeys(list(routes.get(key, [])) + extra))
    cubes = []
    for origin, goods in sorted(state.goods.items()):
        for pos, colour in enumerate(goods):
            cubes.append(Cube(f"{origin}#{pos}", origin, colour, tuple(routes.get((origin, colour), ()))))
    return PlanSpec(base, links, cubes, prebuilt, join=tuple(sorted(board.cities, key=str)),
                    stops=tuple(sorted(set(board.cities) | set(board.towns), key=str)),
                    rapa_nui_remnant=bool(getattr(state.rules, "rapa_nui_remnant", True)))


def restricted_plan(spec: PlanSpec, last_round: int, params: SolveParams,
                    hint: list[RoundPlan] | None = None) -> tuple[list[RoundPlan] | None, str]:
    """The plan of fewest rounds (then shares, then track cost) the restriction finds up to last_round.

    Returns plan rounds from spec.base.first_round to its clear, or None; and the model's status.
    """
    if any(not c.routes for c in spec.cubes):
        return None, "no route"
    # Soft clear condition: any partial plan is a solution, so the search always has one to improve.
    pm = build_restriction(spec, last_round, soft=True)
    minimize_rounds_then_shares(pm)
    if hint:
        add_hint(pm, spec, hint)
    solver = _solver(params)
    # Several strategies (large-neighbourhood search included) interleaved in a fixed order: still
    # deterministic for a given deterministic time limit, whatever the machine's load.
    solver.parameters.num_workers = max(4, params.workers)
    solver.parameters.interleave_search = True
    status = interrupt.solve_cp(solver, pm.model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, "unknown"
    if any(solver.Value(x) for x in pm.missing):
        return None, "no clearing plan found"
    return decode(spec, pm, solver), ("optimal" if status == cp_model.OPTIMAL else "feasible")


def add_hint(pm, spec: PlanSpec, rounds: list[RoundPlan]) -> None:
    """Start the search from a known plan (the beam's): every decision of it, as CP-SAT hints."""
    first = pm.rounds[0]
    by_path = {}
    for link in spec.links:
        by_path[(link.a, link.hexes, link.b)] = link.key
        by_path[(link.b, link.hexes[::-1], link.a)] = link.key
    laid, shipped, upgrades = {}, {}, set()
    for i, rnd in enumerate(rounds):
        r = first + i
        if r not in pm.rounds:
            break
        pm.model.AddHint(pm.shares[r], rnd.shares)
        for (q, a), v in pm.action.items():
            if q == r:
                pm.model.AddHint(v, int(a == (rnd.action or "none")))
        for text in rnd.build:
            if text.startswith("urbanize"):
                continue
            path = [Hex.parse(t) for t in text.split("-")]
            key = by_path.get((path[0], tuple(path[1:-1]), path[-1]))
            if key is not None:
                laid[key] = r
        for k, entry in enumerate(rnd.ship):
            if isinstance(entry, dict):
                shipped.setdefault((Hex.parse(entry["from"]), entry["cube"]), []).append(
                    (r, k, tuple(Hex.parse(t) for t in entry["route"].split("-"))))
            elif entry == "locomotive":
                upgrades.add((r, k))
    for (key, r), v in pm.lay.items():
        pm.model.AddHint(v, int(laid.get(key) == r))
    for (r, k), v in pm.upgrade.items():
        pm.model.AddHint(v, int((r, k) in upgrades))
    # cubes of one moai leave top first: match them to the plan's shipments from that ruin in order
    for cube in sorted(spec.cubes, key=lambda c: (str(c.origin), -int(c.key.split("#")[1]))):
        queue = shipped.get((cube.origin, cube.colour))
        if not queue:
            continue
        r, k, stops = queue.pop(0)
        for (key, q, s), v in pm.when.items():
            if key == cube.key:
                pm.model.AddHint(v, int((q, s) == (r, k)))
        for i, route in enumerate(cube.routes):
            pm.model.AddHint(pm.take[cube.key, i], int(route.stops == stops))


def decode(spec: PlanSpec, pm, solver) -> list[RoundPlan]:
    """The model's solution as plan rounds (the format check-plan reads)."""
    val = solver.Value
    links = {link.key: link for link in spec.links}
    cube_of = {c.key: c for c in spec.cubes}
    out = []
    for r in pm.rounds:
        if r > val(pm.clear):
            break  # the game is over: the model's later rounds are idle
        rp = RoundPlan(shares=val(pm.shares[r]))
        for (q, a), v in pm.action.items():
            if q == r and val(v) and a != "none":
                rp.action = a
        if rp.action == "rapa-nui":
            rp.target = next(str(h) for (q, h), v in pm.rapa.items() if q == r and val(v))
        for (q, t), v in pm.urb.items():
            if q == r and val(v):
                rp.build.append(f"urbanize {t} black")
        for (key, q), v in sorted(pm.lay.items(), key=lambda kv: kv[0][0]):
            if q == r and val(v):
                link = links[key]
                rp.build.append("-".join(str(h) for h in (link.a, *link.hexes, link.b)))
        for k in range(spec.base.shipments_per_round):
            entry = "pass"
            if val(pm.upgrade[r, k]):
                entry = "locomotive"
            for (key, q, s), v in pm.when.items():
                if q == r and s == k and val(v):
                    cube = cube_of[key]
                    i = next(i for i in range(len(cube.routes)) if val(pm.take[key, i]))
                    entry = {"from": str(cube.origin), "cube": cube.colour, "route": route_text(cube.routes[i].stops)}
            rp.ship.append(entry)
        out.append(rp)
    return out


