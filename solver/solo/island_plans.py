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


import dataclasses

import networkx as nx
from ortools.sat.python import cp_model

from models.solo_game.restriction import (CandidateLink, Cube, PlanSpec, Route, build_restriction,
                                         minimize_rounds_then_shares, pair)
from solver import interrupt
from solver.engine.moves import BuildPath, Pass, Ship, ShipStep, UpgradeLocomotive, Urbanize
from solver.engine.plan import round_moves
from solver.engine.placement import track_hexes
from solver.engine.state import IllegalMove
from solver.engine.plan import RoundPlan
from solver.solo.relaxation import game_spec
from solver.solo.settings import SolveParams


def _hex_graph(state) -> nx.Graph:
    """Hexes a new simple tile may go on (no stop, no track yet), joined where track may cross the side."""
    board, s = state.board, state.scenario
    g = nx.Graph()
    free = [h for h in track_hexes(board, s) if h not in state.track]
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
                out.append(CandidateLink(len(out), a, b, path, cost, tuple(g.nodes[h]["cost"] for h in path)))
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
              hint: list[RoundPlan] | None = None, focus: bool = False) -> PlanSpec:
    """The restriction's numbers for a state at the start of a round.

    `hint`: plan rounds from this state (the beam's plan): the links it completes and its routes are
    added to the candidates, so the model can hold that plan and start from it.
    `focus`: only links between the stops the hint's links join (every candidate path of those
    pairs): a much smaller model, for re-timing the hint's network rather than replacing it.
    """
    base = game_spec(state, network_tiles=0)
    links = candidate_links(state, per_pair=per_pair)
    board = state.board
    extra_routes: dict = {}
    hint_laid = {}
    laid = hint_links(state, hint or [])
    if focus and laid:
        joined = {pair(a, b) for a, _, b, _ in laid}
        links = [CandidateLink(i, link.a, link.b, link.hexes, link.cost, link.tile_costs)
                 for i, link in enumerate(x for x in links if pair(x.a, x.b) in joined)]
    for a, hexes, b, when in laid:
        key = next((link.key for link in links if (link.a, link.b, link.hexes) == (a, b, hexes)), None)
        if key is None:
            costs = tuple(state.ruleset.tile_cost(state, h) for h in hexes)
            key = len(links)
            links.append(CandidateLink(key, a, b, hexes, sum(costs), costs))
        hint_laid[key] = when
    for rnd in hint or ():
        for entry in rnd.ship:
            if isinstance(entry, Ship):
                extra_routes.setdefault((entry.route[0], entry.colour), []).append(Route(entry.route))
    prebuilt = frozenset(pair(*tuple(p)) for p in state.linked_pairs())
    pairs = {pair(link.a, link.b) for link in links} | set(prebuilt)
    routes = cube_routes(state, pairs, base.towns, max_links, per_cube)
    for key, extra in extra_routes.items():
        # a hinted route counts only where every hop is a candidate (or existing) link
        usable = [route for route in extra if all(hop in pairs for hop in route.hops())]
        routes[key] = list(dict.fromkeys(list(routes.get(key, [])) + usable))
    cubes = []
    for origin, goods in sorted(state.goods.items()):
        for pos, colour in enumerate(goods):
            cubes.append(Cube(f"{origin}#{pos}", origin, colour, tuple(routes.get((origin, colour), ()))))
    return PlanSpec(base, links, cubes, prebuilt, join=tuple(sorted(board.cities, key=str)),
                    stops=tuple(sorted(set(board.cities) | set(board.towns), key=str)),
                    rapa_nui_remnant=bool(getattr(state.rules, "rapa_nui_remnant", True)), hint_laid=hint_laid)


def hint_links(state, hint: list[RoundPlan]) -> list[tuple]:
    """The complete links a plan lays from `state`: (first stop, hexes in laying order, last stop, round of each).

    The plan is played on a copy of the state (moves as check-plan reads them); a link is kept only
    when its tiles went down in order from one end, which is how the restriction lays track.
    """
    board = state.board
    probe, laid_in = state.clone(), {}
    try:
        for i, rnd in enumerate(hint):
            for step in round_moves(rnd, probe.round):
                probe.apply(step.move)
            while probe.phase == "ship":
                probe.apply(Pass())
            for h in probe.track:
                laid_in.setdefault(h, state.round + i)
            if probe.is_terminal():
                break
    except IllegalMove:
        return []
    out = []
    for link in probe.links():
        path = link.path
        if not link.complete or len(path) < 3 or any(h in state.track for h in path[1:-1]):
            continue
        hexes = tuple(path[1:-1])
        when = [laid_in[h] for h in hexes]
        if when != sorted(when):
            hexes, when, path = hexes[::-1], when[::-1], path[::-1]
        if when == sorted(when) and board.is_stop(path[0]) and board.is_stop(path[-1]):
            out.append((path[0], hexes, path[-1], tuple(when)))
    return out


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
        _complete_hint(pm.model, params)
    solver = params.cp_solver()
    # Several strategies (large-neighbourhood search included) interleaved in a fixed order: still
    # deterministic for a given deterministic time limit, whatever the machine's load.
    solver.parameters.num_workers = max(4, params.workers)
    solver.parameters.interleave_search = True
    status = interrupt.solve_cp(solver, pm.model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, "unknown"
    if any(solver.BooleanValue(x) for x in pm.missing):
        return None, "no clearing plan found"
    return decode(spec, pm, solver), ("optimal" if status == cp_model.OPTIMAL else "feasible")


def _complete_hint(model: cp_model.CpModel, params: SolveParams) -> None:
    """Turn a partial hint into a whole solution (every variable), which CP-SAT starts from at once.

    The hinted decisions are fixed and the rest (cash, income, flows, ...) solved for; when that has no
    solution (the hinted plan does not fit the restriction) the partial hint stays as it is.
    """
    probe = dataclasses.replace(params, deterministic_time=min(2.0, params.deterministic_time)).cp_solver()
    probe.parameters.fix_variables_to_their_hinted_value = True
    if interrupt.solve_cp(probe, model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return
    model.ClearHints()
    for i in range(len(model.Proto().variables)):
        var = model.GetIntVarFromProtoIndex(i)
        model.AddHint(var, probe.Value(var))


def add_hint(pm, spec: PlanSpec, rounds: list[RoundPlan]) -> None:
    """Start the search from a known plan (the beam's): every decision of it, as CP-SAT hints."""
    first = pm.rounds[0]
    shipped, upgrades = {}, set()
    for i, rnd in enumerate(rounds):
        r = first + i
        if r not in pm.rounds:
            break
        pm.model.AddHint(pm.shares[r], rnd.shares)
        for (q, a), v in pm.action.items():
            if q == r:
                pm.model.AddHint(v, int(a == (rnd.action or "none")))
        for k, entry in enumerate(rnd.ship):
            if isinstance(entry, Ship):
                shipped.setdefault((entry.origin, entry.colour), []).append((r, k, entry.route))
            elif isinstance(entry, UpgradeLocomotive):
                upgrades.add((r, k))
    for (key, r), v in pm.laid.items():
        pm.model.AddHint(v, sum(1 for q in spec.hint_laid.get(key, ()) if q <= r))
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
            rp.target = next(h for (q, h), v in pm.rapa.items() if q == r and val(v))
        for (q, t), v in pm.urb.items():
            if q == r and val(v):
                rp.build.append(Urbanize(t, "black"))
        for link in spec.links:
            now = val(pm.laid[link.key, r])
            before = val(pm.laid[link.key, r - 1]) if r > pm.rounds[0] else 0
            if now > before:
                # anchor (its stop or the open end), the tiles of this round, what the last one points to
                anchor = link.a if before == 0 else link.hexes[before - 1]
                ahead = link.b if now == len(link.hexes) else link.hexes[now]
                rp.build.append(BuildPath((anchor, *link.hexes[before:now], ahead)))
        for k in range(spec.base.shipments_per_round):
            entry: ShipStep = Pass()
            if val(pm.upgrade[r, k]):
                entry = UpgradeLocomotive()
            for (key, q, s), v in pm.when.items():
                if q == r and s == k and val(v):
                    cube = cube_of[key]
                    i = next(i for i in range(len(cube.routes)) if val(pm.take[key, i]))
                    entry = Ship(cube.origin, cube.colour, tuple(cube.routes[i].stops))
            rp.ship.append(entry)
        out.append(rp)
    return out


