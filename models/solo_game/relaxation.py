"""A time-expanded CP-SAT RELAXATION of a solo Age of Steam game (Easter Island, Zoo).

`build_relaxation(spec, last_round)` models rounds spec.first_round..last_round:
shares issued, the action (with Easter Island's blocker cycle), the build
(counted as new track hexes), the two shipment steps, income, expenses,
shortfall and income reduction, exactly as solver/engine/ruleset.py plays them
(the money of solver/engine/economy.py: `expenses`, `cover`, `below_floor`, and
the engine's own `income_reduction`, which the spec carries);
what it cannot follow exactly (the geometry of track and routes) it replaces
by lower bounds that hold for every network. So:

    INFEASIBLE for last_round = R  =>  no plan clears by the end of round R.

Why every real plan maps into the model (the argument, step by step). Take a
legal play from the spec's state that clears by round R (any reading of
solver/state.Rules, complex tiles on or off). Set every variable to what the
play does:

1. Shares, action, cash, income, locomotive, blockers: the model's equations
   are the engine's own (base.end_round, i.e. solver/engine/economy.py `settle`, whose
   `income_reduction` the spec carries; EasterIsland.advance_round_marker,
   the checks of _check_SelectAction / _check_UpgradeLocomotive), so the
   play's numbers satisfy them, given that its track spend and its links per
   shipment are put into the model as they are (points 2 and 3).
2. Track. Let T[r] be the number of hexes that hold track at the end of round
   r's build but held none in the spec's state. Each such hex got its first
   tile placement in some round, and a placement is one tile toward that
   round's limit (a crossing laid on an empty hex is ONE placement; an
   upgrade or a second track on a hex adds a placement and no new hex; a Zoo
   bonus tile is a placement outside the limit). So T[r] - T[r-1] <= tiles
   counted toward the limit + bonus tiles used, as the model says. The first
   placement on a hex costs at least `spec.tile_cost` (complex tiles cost
   more, never less; in the Zoo, `engineer_tile_cost` in Engineer rounds;
   bonus tiles are free when the scenario says so), town fees are >= 0, and
   upgrades cost >= 0: so the round's track spend is >= the model's `spend`.
   The play pays its real spend, which is at least that; the model only needs
   cash after the build >= 0 with the smaller spend, which then holds too
   (the model is given the play's spend: `spend` is a free variable bounded
   below, so set it to the real spend).
3. A shipment from `origin` to stop d in round r uses a route of L links; L <=
   the locomotive (plus dangers in the Zoo). Its stops are joined by track at
   that moment, so the track hexes it crosses, minus those already in the
   spec's state, are >= Dest.tiles (a shortest path on the board where old
   track is free: any route contains a hex path from origin to d); these are
   hexes with track, so T[r] >= Dest.tiles. L >= Dest.links (fewest links of
   any route on the graph of every link any network could have; colour rules
   dropped). Zoo: the locomotive is >= the need of that route, which is >=
   Dest.need (least over every network, solver/zoo_routes.least_from), or
   Dest.need_discount with the Feeding discount (one shipment of a Feeding
   round). A town as destination was urbanized by then (one per Urbanization
   action, within the supply of new city tiles). Income rises by L.
4. Goods: a cube leaves once (Easter Island: every cube must leave to clear;
   Zoo: each piece of food at most once, and every area in must_feed receives
   a shipment). Top cube only: on a moai the top cube leaves first unless a
   Rapa Nui turned that moai at or before the round the bottom one leaves
   (then the model allows any order); Rapa Nui's target holds a cube then.
5. Clear: Easter Island: a network joining every ruin has >= spec.network_tiles
   new hexes (a node-weighted Steiner bound with old track free, branching
   allowed), so T[R] >= network_tiles.
6. Network layer (`_network_layer`, its own argument in its docstring): links between stops by round,
   each shipment's route over them, and the ruins joined by links.
7. Rounds after the clear. The model has every round up to R, but a play that clears in round c < R
   ends there: rounds c+1..R do not exist in the game. (Under the reading end-of-game=round-track the
   game plays on, but a play it counts as clearing in round c is, up to c, a play the default counts as
   clearing in round c: map that prefix as here and ignore the rounds the referee plays out after it.) Set playing[r] = (r <= c). In a round with
   playing false the model asks only what "nothing happens" satisfies: no shares, no action (even
   where an action is mandatory), no new hex, no shipment or locomotive step, hence no urbanizing, no
   Rapa Nui, no bonus tile gained; the income floor is not asked (add_money), and cash and income
   follow the model's own equations with wide domains, which always have a solution. Cubes delivered,
   links built and hexes laid are unchanged from round c, so the clear condition stated at R holds
   because it held at c. In the clearing round itself the floor binds, as the engine's end_round
   (income below the floor loses the game before the clear is checked), except under
   clear-and-under=cleared, where it binds only in rounds followed by a played one.
8. Readings that allow more (idle-actions=allowed: Locomotive at the maximum raises nothing, Urbanization
   with no tile left, Rapa Nui with no moai; zoo-bonus-cost=free: bonus tiles pay nothing) are modelled
   on their permissive side when they are on; the others only forbid plays (incomplete-track=owner-lost,
   exit-use=teleport) or change costs the model does not count (zoo-town-cost, zoo-upgrade-cost: town
   fees are dropped; an upgrade priced per tile is counted at the least tile price). Every price is the board
   file's own (`spec.tile_cost`, `spec.double_cost`, the actions, shares), never the base rule's. So every play that clears
   by R maps into the model at R, and, since an idle round can always be appended, feasibility is
   monotone in R: INFEASIBLE at R proves no clear by any R' <= R.
Dropping constraints keeps a relaxation a relaxation: the solvers first ask the model without the
network layer (fast), and the fewest-shares bound is computed without it.

The other side, plans: they come from the round-level beam search (solver/solo/round_search.py), a
restricted search that builds along chosen target networks, and from the CP-SAT RESTRICTION
(models/solo_game/restriction.py: candidate links, exact costs, started from the beam's plan);
every plan is replayed by the referee (solver/engine/plan.replay) before it is printed. A minimum is
"proved" only when a replayed plan's round count equals a bound proved here or by the counting bounds.
The economy (shares, actions and blockers, locomotive, urbanizing, money) is written once, in
models/solo_game/economy.py, for both models.

Readings the model does not follow exactly take the permissive side: the
first-city-of-its-colour rule and strict exits (dropped), the Zoo's literal
exits (exits treated as stops), Rapa Nui on a single-cube remnant (allowed),
urbanized Zoo areas (not required to be fed), town fees and complex-tile
surcharges (dropped). Each only removes constraints, so the mapping above
still lands inside the model.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from models.solo_game.economy import (add_idle_rounds, add_locomotive, add_money, add_shares_and_actions,
                                      add_urbanization)
from models.solo_game.spec import SoloSpec



@dataclass
class SoloModel:
    model: cp_model.CpModel
    spec: SoloSpec
    rounds: list[int]
    shares: dict = field(default_factory=dict)      # round -> shares issued
    action: dict = field(default_factory=dict)      # (round, action or 'none') -> bool
    cash: dict = field(default_factory=dict)        # round -> cash at the start of the round (round R+1: at the end)
    income: dict = field(default_factory=dict)
    loco: dict = field(default_factory=dict)        # round -> locomotive at the start of the round
    ship: dict = field(default_factory=dict)        # (round, step) -> a shipment is made
    links: dict = field(default_factory=dict)       # (round, step) -> links of that shipment
    upgrade: dict = field(default_factory=dict)     # (round, step) -> the locomotive step
    deliver: dict = field(default_factory=dict)     # (item key, dest stop, round, step) -> bool (or count)
    tiles: dict = field(default_factory=dict)       # round -> new track hexes by the end of its build
    double: dict = field(default_factory=dict)      # round -> of those, hexes with two tracks
    built: dict = field(default_factory=dict)       # (a, b, round) -> a link joins stops a and b by that round
    route: dict = field(default_factory=dict)       # (item key, a, b) -> the item's route uses the hop a -> b
    spend: dict = field(default_factory=dict)       # round -> track spend (lower bound)
    playing: dict = field(default_factory=dict)     # round -> the round is played (false after the clear)
    total_shares: cp_model.IntVar | None = None
    total_spend: cp_model.IntVar | None = None


def build_relaxation(spec: SoloSpec, last_round: int) -> SoloModel:
    """The relaxed game from spec.first_round to last_round, with the clear condition by last_round.

    One function per part of the game, called in this order (the order fixes the CP-SAT model).
    """
    m = cp_model.CpModel()
    rounds = list(range(spec.first_round, last_round + 1))
    steps = list(range(spec.shipments_per_round))
    sm = SoloModel(m, spec, rounds)
    _add_playing(m, sm, rounds)
    act = add_shares_and_actions(m, sm, spec, rounds, playing=sm.playing)
    loco_at = add_locomotive(m, sm, spec, rounds, steps, act)
    urb = add_urbanization(m, sm, spec, rounds, act)
    add_idle_rounds(m, sm, rounds, steps, sm.playing)  # (an idle round's build: _add_track)
    items, per_step, order = _add_deliveries(m, sm, spec, rounds, steps, urb)
    _add_shipment_steps(m, sm, spec, rounds, steps, act, loco_at, per_step)
    _add_feeding(m, sm, spec)
    _add_moai(m, sm, spec, rounds, items, order)
    _add_track(m, sm, spec, rounds, steps, act, per_step)
    _network_layer(m, sm, spec, rounds, steps, items)
    sm.total_spend = m.NewIntVar(0, 10 ** 6, "total_spend")
    m.Add(sm.total_spend == sum(sm.spend.values()))

    floor_binds = None
    if spec.clear_when_under:
        # clear-and-under=cleared: the floor binds in a round only if a later round is played (the
        # clearing round, the last one played, may fall below it)
        floor_binds = {r: sm.playing[r + 1] for r in rounds if r + 1 in sm.playing}
    add_money(m, sm, spec, rounds, steps, act, playing=sm.playing, floor_binds=floor_binds)
    return sm


def _add_playing(m, sm: SoloModel, rounds: list[int]) -> None:
    """The rounds that are played: a prefix (point 7 of the module text: nothing exists after the clear)."""
    for r in rounds:
        sm.playing[r] = m.NewBoolVar(f"playing_{r}")
        if r > rounds[0]:
            # the game does not resume once it is over
            m.AddImplication(sm.playing[r], sm.playing[r - 1])


def _add_deliveries(m, sm: SoloModel, spec: SoloSpec, rounds: list[int], steps: list[int], urb: dict):
    """Each good's deliveries by destination, round and step; returns (items by key, the goods of each
    step, the step index each delivered good leaves in)."""
    items = {it.key: it for it in spec.items}
    per_step: dict = {(r, k): [] for r in rounds for k in steps}
    order = {}  # item key -> expression: index of the step it leaves in (spe*r + k), for delivered cubes
    for it in spec.items:
        mine = []
        for d in it.dests:
            for r in rounds:
                for k in steps:
                    z = m.NewBoolVar(f"z_{it.key}_{d.stop}_{r}_{k}")  # one good per step
                    sm.deliver[it.key, d.stop, r, k] = z
                    mine.append((z, d, r, k))
                    per_step[r, k].append((z, d))
                    if d.town and d.stop not in spec.urbanized:
                        # a good ends at a town only once it is a new city (urbanized in this or an earlier round)
                        m.Add(sum(urb[q, d.stop] for q in rounds if q <= r) >= z)
        total = sum(z for z, *_ in mine)
        if it.must_ship:
            # Easter Island: "Remove all of the statues (cubes) from the map."
            m.Add(total == it.count)
        else:
            m.Add(total <= it.count)
        order[it.key] = sum(z * (spec.shipments_per_round * r + k) for z, _, r, k in mine)
    return items, per_step, order


def _add_shipment_steps(m, sm: SoloModel, spec: SoloSpec, rounds: list[int], steps: list[int], act, loco_at: dict,
                        per_step: dict) -> None:
    """One good per shipment step, its links at least the fewest of any route, and (Zoo) the danger."""
    disc = {}
    for r in rounds:
        for k in steps:
            zs = per_step[r, k]
            # one good per shipment step
            m.Add(sum(z for z, _ in zs) == sm.ship[r, k])
            # links >= the fewest links of any route to that destination
            m.Add(sm.links[r, k] >= sum(z * d.links for z, d in zs))
            if spec.danger_rules:
                # Zoo: "you need a locomotive level at least ... the highest danger level up to the square
                # before the final destination"; Feeding lowers one danger in one shipment of the round.
                disc[r, k] = m.NewBoolVar(f"discount_{r}_{k}")
                m.Add(disc[r, k] <= act(r, "feeding"))
                m.Add(loco_at[r, k] >= sum(z * d.need_discount for z, d in zs))
                m.Add(loco_at[r, k] >= sum(z * d.need for z, d in zs)).OnlyEnforceIf(disc[r, k].Not())
        if spec.danger_rules:
            m.Add(sum(disc[r, k] for k in steps) <= 1)


def _add_feeding(m, sm: SoloModel, spec: SoloSpec) -> None:
    """Zoo: every animal area fed."""
    for area in spec.must_feed:
        # "The game is cleared once every animal area has received at least one piece of food."
        m.Add(sum(z for (key, stop, r, k), z in sm.deliver.items() if stop == area) >= 1)


def _add_moai(m, sm: SoloModel, spec: SoloSpec, rounds: list[int], items: dict, order: dict) -> None:
    """Top cube only, and Rapa Nui."""
    rapa = {}
    if "rapa-nui" in spec.action_costs:
        stops = sorted({s.stop for s in spec.stacks} | {it.origin for it in spec.items if it.must_ship}, key=str)
        for r in rounds:
            for h in stops:
                rapa[r, h] = m.NewBoolVar(f"rapa_{r}_{h}")
                # the moai turned still holds a cube in round r (a cube on it leaves in round r or later)
                mine = [z for (key, stop, q, k), z in sm.deliver.items()
                        if items[key].origin == h and q >= r]
                m.Add(sum(mine) >= rapa[r, h])
            # Rapa Nui turns one moai
            if spec.idle_actions:
                # idle-actions=allowed: Rapa Nui may be selected with no moai to turn
                m.Add(sum(rapa[r, h] for h in stops) <= sm.action[r, "rapa-nui"])
            else:
                m.Add(sum(rapa[r, h] for h in stops) == sm.action[r, "rapa-nui"])
    for st in spec.stacks:
        # "You may transport only the top cube of any moai": the top cube leaves first, unless a Rapa Nui
        # turned this moai no later than the round the bottom cube leaves.
        turned = m.NewBoolVar(f"turned_{st.stop}")
        m.Add(order[st.top] + 1 <= order[st.bottom]).OnlyEnforceIf(turned.Not())
        if rapa:
            # turned => Rapa Nui picked this moai in some round q with q <= the round the bottom cube leaves
            bottom_round = sum(z * r for (key, stop, r, k), z in sm.deliver.items() if key == st.bottom)
            pick = {r: m.NewBoolVar(f"turn_pick_{st.stop}_{r}") for r in rounds}
            m.Add(sum(pick.values()) == turned)
            for r in rounds:
                m.AddImplication(pick[r], rapa[r, st.stop])
                m.Add(bottom_round >= r).OnlyEnforceIf(pick[r])
        else:
            m.Add(turned == 0)


def _add_track(m, sm: SoloModel, spec: SoloSpec, rounds: list[int], steps: list[int], act, per_step: dict) -> None:
    """New hexes by round, the tile limit, Engineer, bonus tiles, complex tiles and the track spend."""
    hand = spec.bonus_tiles
    prev, prev_dbl = 0, 0
    for r in rounds:
        t = m.NewIntVar(0, 10_000, f"new_hexes_{r}")
        sm.tiles[r] = t
        placed = m.NewIntVar(0, spec.engineer_tile_limit + 10_000, f"new_hexes_in_{r}")
        m.Add(placed == t - prev)
        # nothing is built after the clear
        m.Add(placed == 0).OnlyEnforceIf(sm.playing[r].Not())
        bonus_used = m.NewIntVar(0, 10_000, f"bonus_used_{r}")
        if spec.bonus_from_exits:
            m.Add(bonus_used <= hand)
        else:
            m.Add(bonus_used == 0)
        # "Up to 3 tiles a turn; 4 with the Engineer action" (+ bonus tiles, outside the limit)
        limit = spec.tile_limit + (spec.engineer_tile_limit - spec.tile_limit) * act(r, "engineer")
        m.Add(placed <= limit + bonus_used)
        paying = m.NewIntVar(0, 10_000, f"paid_new_hexes_{r}")
        if spec.bonus_tiles_pay:
            m.Add(paying == placed)
        else:
            m.Add(paying >= placed - bonus_used)
        # new hexes that carry two tracks (complex tiles): the second track costs at least
        # spec.double_cost more (the least of the board file's complex extras and upgrade price), except in
        # a Zoo Engineer round ($2 a tile, read as any tile)
        dbl = m.NewIntVar(0, 10_000, f"double_hexes_{r}")
        sm.double[r] = dbl
        m.Add(dbl <= t)
        m.Add(dbl >= prev_dbl)
        if not spec.complex_tiles:
            m.Add(dbl == 0)
        surcharge = m.NewIntVar(0, 10_000, f"surcharge_{r}")
        m.Add(surcharge >= spec.double_cost * (dbl - prev_dbl - (0 if spec.bonus_tiles_pay else bonus_used)))
        spend = m.NewIntVar(0, 100_000, f"spend_{r}")
        sm.spend[r] = spend
        if spec.engineer_tile_cost is not None and "engineer" in spec.action_costs:
            m.Add(spend >= spec.tile_cost * paying + surcharge).OnlyEnforceIf(sm.action[r, "engineer"].Not())
            m.Add(spend >= spec.engineer_tile_cost * paying).OnlyEnforceIf(sm.action[r, "engineer"])
        else:
            m.Add(spend >= spec.tile_cost * paying + surcharge)
        if spec.bonus_from_exits:
            # "If you use an exit hex even once in your two shipments, you gain any one track tile."
            gain = m.NewBoolVar(f"bonus_gain_{r}")
            m.Add(gain <= sum(sm.ship[r, k] for k in steps))
            new_hand = m.NewIntVar(0, 10_000, f"hand_{r + 1}")
            m.Add(new_hand == hand - bonus_used + gain)
            hand = new_hand
        for k in steps:
            for z, d in per_step[r, k]:
                if d.tiles:
                    # the route's track is down by this round's shipping
                    m.Add(t >= d.tiles).OnlyEnforceIf(z)
        prev, prev_dbl = t, dbl
    if spec.network_tiles:
        # Easter Island: "Connect all of the ruins (cities) on Rapa Nui into a single network."
        m.Add(sm.tiles[rounds[-1]] >= spec.network_tiles)


def _network_layer(m, sm: SoloModel, spec: SoloSpec, rounds: list[int], steps: list[int], items: dict) -> None:
    """Links between stops by round, each shipment's route over them, and (Easter Island) the ruins joined.

    Argument (continuing point 2-3 of the module text): give built[a, b, r] = 1 when some complete link
    joins a and b at the end of round r's build. That link's track has at least w(a, b) hexes without
    track in the spec's state (a link never passes another stop, so its hexes contain a path from a to b
    through free hexes that enters no other stop; old track is free). A new hex carries at most two
    tracks, and only hexes counted in `double` carry two, so the sum of w over built pairs is at most
    new hexes + double hexes. A shipment's route is a simple path of hops over built links (or one
    teleport between exits in the Zoo), so a flow of one unit along it, with an increasing order on its
    stops, fits the constraints below; its link count is the shipment's L; a good never passes a city
    where it must stop (Easter Island: "the first city of its colour"). Joining all ruins is a connected
    set of built links, so a flow from one ruin reaches every other ruin over them.

    What it cannot see (measured, results/bound-probe-2workers.csv): it counts hexes, not hexsides, so two
    links may be counted over the same cheapest hexes as "double" hexes ($1 more, no extra tile), although
    two tracks never share a hexside. On normal seed 14 its play at the counting bound makes every one of
    22 new hexes double, so the relaxation cannot prove that setup's minimum above the bound; a network layer
    that knows which hexsides each link uses is the next step for such "zero slack" setups.
    """
    if not spec.link_pairs:
        return
    last = rounds[-1]
    pairs = [(a, b) for a, b, _ in spec.link_pairs]
    weight = {(a, b): w for a, b, w in spec.link_pairs}
    for a, b in pairs:
        for r in rounds:
            sm.built[a, b, r] = m.NewBoolVar(f"built_{a}_{b}_{r}")
            if r > rounds[0]:
                # track is never removed
                m.AddImplication(sm.built[a, b, r - 1], sm.built[a, b, r])
    for r in rounds:
        # every built link's new hexes fit in the new hexes, two tracks on a double hex
        m.Add(sum(weight[p] * sm.built[p[0], p[1], r] for p in pairs if weight[p]) <= sm.tiles[r] + sm.double[r])
    arcs = [(a, b) for a, b in pairs] + [(b, a) for a, b in pairs]
    tele = [(a, b) for a in spec.teleport_exits for b in spec.teleport_exits if a != b]
    undirected = {(a, b): (a, b) for a, b in pairs}
    undirected.update({(b, a): (a, b) for a, b in pairs})
    n = len(spec.stops)
    for it in spec.items:
        key = it.key
        arrive = {d.stop: [] for d in it.dests}
        in_round = {r: [] for r in rounds}
        at_step = {(r, k): [] for r in rounds for k in steps}
        for (ikey, stop, r, k), z in sm.deliver.items():
            if ikey == key:
                arrive[stop].append(z)
                in_round[r].append(z)
                at_step[r, k].append(z)
        sent = sum(z for zs in arrive.values() for z in zs)
        u = {}
        for a, b in arcs + tele:
            if b == it.origin or (a != it.origin and a in it.stop_at):
                continue  # never back into its origin; never on from a city where it must stop
            u[a, b] = m.NewBoolVar(f"route_{key}_{a}_{b}")
            sm.route[key, a, b] = u[a, b]
        if tele:
            # "You may use only one pair of exits per shipment."
            m.Add(sum(u[a, b] for a, b in tele if (a, b) in u) <= 1)
        order = {v: m.NewIntVar(0, n, f"order_{key}_{v}") for v in spec.stops}
        for v in spec.stops:
            out_v = [x for (a, b), x in u.items() if a == v]
            in_v = [x for (a, b), x in u.items() if b == v]
            if v == it.origin:
                # the route leaves its origin once
                m.Add(sum(out_v) == sent)
                m.Add(order[v] == 0)
            else:
                # flow conservation: what arrives at v and is not delivered there goes on; a stop once
                m.Add(sum(in_v) - sum(out_v) == sum(arrive.get(v, [])))
                m.Add(sum(in_v) <= 1)
        if spec.route_order:
            for (a, b), x in u.items():
                # stops of a route in increasing order: no detached cycles
                m.Add(order[b] >= order[a] + 1).OnlyEnforceIf(x)
        route_links = sum(x for (a, b), x in u.items() if (a, b) not in tele)
        for (r, k), zs in at_step.items():
            if zs:
                here = m.NewBoolVar(f"ships_{key}_{r}_{k}")
                m.Add(here == sum(zs))
                # the shipment's links are its route's links (income +L)
                m.Add(sm.links[r, k] == route_links).OnlyEnforceIf(here)
        for r, zs in in_round.items():
            if not zs:
                continue
            now = m.NewBoolVar(f"ships_{key}_in_{r}")
            m.Add(now == sum(zs))
            for (a, b), x in u.items():
                if (a, b) in tele:
                    continue
                # a hop is a complete link at shipping time
                p = undirected[a, b]
                m.AddBoolOr([x.Not(), now.Not(), sm.built[p[0], p[1], r]])
    if spec.join:
        # Easter Island: every ruin in one network: a flow from the first ruin to each other ruin over links
        root, others = spec.join[0], spec.join[1:]
        cap = len(others)
        f = {}
        for a, b in arcs:
            f[a, b] = m.NewIntVar(0, cap, f"join_{a}_{b}")
            p = undirected[a, b]
            m.Add(f[a, b] <= cap * sm.built[p[0], p[1], last])
        for v in spec.stops:
            net = sum(x for (a, b), x in f.items() if b == v) - sum(x for (a, b), x in f.items() if a == v)
            m.Add(net == (-cap if v == root else 1 if v in others else 0))
