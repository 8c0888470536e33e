"""A time-expanded CP-SAT RESTRICTION of the Easter Island solo game: its solutions are plans.

`build_restriction(spec, last_round)` models the game from spec.base.first_round
to last_round, like the relaxation (models/solo_game/relaxation.py), with the
same economy written once (models/solo_game/economy.py: shares, the action and
its blocker cycle, the locomotive, urbanizing, cash and income exactly as the
engine plays them). What the relaxation bounds, this model fixes:

* Track: only the candidate links of the spec, each a fixed hex path between
  two stops, its tiles laid in order from its first stop (so every tile starts
  at a stop or extends the tile before it), any number a round within the
  tile limit, at their exact terrain cost. Two candidate links that share a hex
  never both put a tile on it (simple tiles only: no crossing, no second
  track). A link touches a town only once that town is a new city, so no town
  fee is ever paid.
* Shipments: each cube takes one of its candidate routes (a stop path that
  never passes a city where its colour must stop; a black cube passes no
  town), every hop of which is a laid link by the round it ships.

So every solution is a plan the engine can play; a plan is printed only after
the referee (solver/engine/plan.replay) has replayed it, never because this
model said so. INFEASIBLE here proves nothing about the game (it is a
restriction): the solver uses it for plans and upper bounds only.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from models.solo_game.economy import (add_idle_rounds, add_locomotive, add_money, add_shares_and_actions,
                                      add_urbanization)
from models.solo_game.relaxation import SoloModel
from models.solo_game.spec import SoloSpec


@dataclass(frozen=True)
class CandidateLink:
    """A link the plan may lay: the track hexes from stop `a` to stop `b`, laid in this order."""

    key: int
    a: object
    b: object
    hexes: tuple
    cost: int                    # the tiles' exact laying cost (terrain)
    tile_costs: tuple = ()       # each tile's cost, in laying order (default: cost spread evenly)

    def prefix_costs(self) -> list[int]:
        """Cost of the first k tiles, k = 0..len(hexes)."""
        each = self.tile_costs or (self.cost // max(1, len(self.hexes)),) * len(self.hexes)
        out = [0]
        for c in each:
            out.append(out[-1] + c)
        return out


@dataclass(frozen=True)
class Route:
    """A route a cube may take: its stops from origin to destination (hops need a laid link)."""

    stops: tuple

    @property
    def links(self) -> int:
        return len(self.stops) - 1

    def hops(self) -> list[tuple]:
        return [pair(a, b) for a, b in zip(self.stops, self.stops[1:])]


@dataclass(frozen=True)
class Cube:
    key: str                     # the relaxation's item key, "HEX#position" (0 = bottom)
    origin: object
    colour: str
    routes: tuple                # Route, ...


@dataclass
class PlanSpec:
    """The restriction's numbers: the economy (a SoloSpec), candidate links and each cube's routes."""

    base: SoloSpec
    links: list = field(default_factory=list)        # CandidateLink
    cubes: list = field(default_factory=list)        # Cube
    prebuilt: frozenset = frozenset()                # stop pairs already joined by a complete link
    join: tuple = ()                                 # ruins to join into one network by the last round
    rapa_nui_remnant: bool = True                    # may Rapa Nui turn a single-cube remnant?
    hint_laid: dict = field(default_factory=dict)    # link key -> the round each of its tiles went down in a hint
    stops: tuple = ()


@dataclass
class PlanModel(SoloModel):
    laid: dict = field(default_factory=dict)         # (link key, round) -> tiles of the link down by its end
    joined: dict = field(default_factory=dict)       # (stop pair, round) -> a link joins the pair by then
    take: dict = field(default_factory=dict)         # (cube key, route index) -> the cube's route
    when: dict = field(default_factory=dict)         # (cube key, round, step) -> the cube ships then
    urb: dict = field(default_factory=dict)          # (round, town) -> urbanized in that round
    rapa: dict = field(default_factory=dict)         # (round, ruin) -> Rapa Nui turns that moai
    clear: cp_model.IntVar | None = None             # the round the game is cleared in
    missing: list = field(default_factory=list)      # soft model: literals of cubes left / ruins not joined
    playing: dict = field(default_factory=dict)      # round -> the round is played (not after the clear)


def pair(a, b) -> tuple:
    return (a, b) if str(a) < str(b) else (b, a)


def build_restriction(spec: PlanSpec, last_round: int, soft: bool = False) -> PlanModel:
    """The restricted game up to last_round with the clear condition by then (a plan when feasible).

    soft: the clear condition becomes a count to minimize (`pm.missing`: cubes left plus ruins not
    joined), so every partial plan is a solution and the search can improve one step at a time; only a
    solution with nothing missing is a plan that clears.
    """
    base = spec.base
    m = cp_model.CpModel()
    rounds = list(range(base.first_round, last_round + 1))
    steps = list(range(base.shipments_per_round))
    pm = PlanModel(m, base, rounds)
    _add_clear_round(m, pm, rounds)
    act = add_shares_and_actions(m, pm, base, rounds, playing=pm.playing)
    loco_at = add_locomotive(m, pm, base, rounds, steps, act)
    pm.urb = add_urbanization(m, pm, base, rounds, act)
    add_idle_rounds(m, pm, rounds, steps, pm.playing)
    urbanized_by = {}
    for t in base.towns:
        for r in rounds:
            urbanized_by[t, r] = sum(pm.urb[q, t] for q in rounds if q <= r)
    pairs = _add_track(m, pm, spec, rounds, act, urbanized_by)
    ship_round = _add_shipments(m, pm, spec, rounds, steps, loco_at, urbanized_by, soft)
    # -- top cube only, and Rapa Nui ----------------------------------------------------------------------
    _moai(m, pm, spec, rounds, steps, act, ship_round)
    _add_join(m, pm, spec, rounds, pairs, soft)
    add_money(m, pm, base, rounds, steps, act, playing=pm.playing)
    pm.total_spend = m.NewIntVar(0, 10 ** 6, "total_spend")
    m.Add(pm.total_spend == sum(pm.spend.values()))
    return pm


def _add_clear_round(m, pm: PlanModel, rounds: list[int]) -> None:
    """The round of the clear: nothing is done after it (the game is over), so the model may clear early."""
    pm.clear = m.NewIntVar(rounds[0], rounds[-1], "clear_round")
    for r in rounds:
        pm.playing[r] = m.NewBoolVar(f"playing_{r}")
        m.Add(pm.clear >= r).OnlyEnforceIf(pm.playing[r])
        m.Add(pm.clear <= r - 1).OnlyEnforceIf(pm.playing[r].Not())


def _add_track(m, pm: PlanModel, spec: PlanSpec, rounds: list[int], act, urbanized_by: dict) -> dict:
    """Candidate links, laid tile by tile from their first stop, never two on one hex; the tile limit and
    the spend by round; returns pair -> the keys of its candidate links (pm.joined by pair and round)."""
    base = spec.base
    on_hex: dict = {}
    paid: dict = {}
    done: dict = {}
    last = rounds[-1]
    for link in spec.links:
        n, prefix = len(link.hexes), link.prefix_costs()
        before = 0
        for r in rounds:
            c = pm.laid[link.key, r] = m.NewIntVar(0, n, f"laid_{link.key}_{r}")
            # track is never removed; nothing is laid once the game is over
            m.Add(c >= before)
            m.Add(c == before).OnlyEnforceIf(pm.playing[r].Not())
            paid[link.key, r] = m.NewIntVar(0, prefix[-1], f"paid_{link.key}_{r}")
            # the tiles down so far cost their terrain prices, laid in order
            m.AddElement(c, prefix, paid[link.key, r])
            done[link.key, r] = m.NewBoolVar(f"done_{link.key}_{r}")
            m.Add(c == n).OnlyEnforceIf(done[link.key, r])
            m.Add(c <= n - 1).OnlyEnforceIf(done[link.key, r].Not())
            if link.a in base.towns:
                started = m.NewBoolVar(f"started_{link.key}_{r}")
                m.Add(c >= 1).OnlyEnforceIf(started)
                m.Add(c == 0).OnlyEnforceIf(started.Not())
                # a tile touches a town only once it is a new city (no town fee: a restriction)
                m.Add(urbanized_by[link.a, r] >= 1).OnlyEnforceIf(started)
            if link.b in base.towns:
                m.Add(urbanized_by[link.b, r] >= 1).OnlyEnforceIf(done[link.key, r])
            before = c
        for i, h in enumerate(link.hexes):
            used = m.NewBoolVar(f"uses_{link.key}_{i}")
            m.Add(pm.laid[link.key, last] >= i + 1).OnlyEnforceIf(used)
            m.Add(pm.laid[link.key, last] <= i).OnlyEnforceIf(used.Not())
            on_hex.setdefault(h, []).append(used)
    for h, users in on_hex.items():
        # simple tiles: a hex carries one track
        m.Add(sum(users) <= 1)
    for r in rounds:
        prev = r - 1 if r > rounds[0] else None
        placed = sum(pm.laid[link.key, r] - (pm.laid[link.key, prev] if prev is not None else 0) for link in spec.links)
        # "Up to 3 tiles a turn; 4 with the Engineer action"
        m.Add(placed <= base.tile_limit + (base.engineer_tile_limit - base.tile_limit) * act(r, "engineer"))
        pm.spend[r] = m.NewIntVar(0, 100_000, f"spend_{r}")
        # every tile is paid at its terrain cost when laid
        m.Add(pm.spend[r] == sum(paid[link.key, r] - (paid[link.key, prev] if prev is not None else 0) for link in spec.links))
    pairs: dict = {}
    for link in spec.links:
        pairs.setdefault(pair(link.a, link.b), []).append(link.key)
    for p in set(pairs) | set(spec.prebuilt):
        for r in rounds:
            v = m.NewBoolVar(f"joined_{p[0]}_{p[1]}_{r}")
            if p in spec.prebuilt:
                m.Add(v == 1)
            else:
                # a pair is joined once one of its links is complete
                m.Add(v <= sum(done[k, r] for k in pairs[p]))
            pm.joined[p, r] = v
    return pairs


def _add_shipments(m, pm: PlanModel, spec: PlanSpec, rounds: list[int], steps: list[int], loco_at: dict,
                   urbanized_by: dict, soft: bool) -> dict:
    """Each cube on one of its routes, in one step, with the links laid by then; returns
    (cube key, round) -> the cube ships in that round."""
    base = spec.base
    step_links: dict = {(r, k): [] for r in rounds for k in steps}
    ship_round: dict = {}
    for cube in spec.cubes:
        take = [m.NewBoolVar(f"take_{cube.key}_{i}") for i in range(len(cube.routes))]
        for i, t in enumerate(take):
            pm.take[cube.key, i] = t
        # "Remove all of the statues (cubes) from the map": every cube ships once, on one route
        m.AddExactlyOne(take)
        when = {}
        for r in rounds:
            for k in steps:
                when[r, k] = pm.when[cube.key, r, k] = m.NewBoolVar(f"when_{cube.key}_{r}_{k}")
        if soft:
            left = m.NewBoolVar(f"left_{cube.key}")
            pm.missing.append(left)
            m.Add(sum(when.values()) == 1 - left)
        else:
            m.AddExactlyOne(when.values())
        n_links = m.NewIntVar(1, base.max_locomotive, f"links_{cube.key}")
        m.Add(n_links == sum(route.links * t for route, t in zip(cube.routes, take)))
        uses: dict = {}
        for route, t in zip(cube.routes, take):
            for hop in route.hops():
                uses.setdefault(hop, []).append(t)
            if route.stops[-1] in base.towns:
                uses.setdefault(("town", route.stops[-1]), []).append(t)
        for r in rounds:
            ship_round[cube.key, r] = now = m.NewBoolVar(f"ships_{cube.key}_in_{r}")
            m.Add(now == sum(when[r, k] for k in steps))
            for hop, ts in uses.items():
                if hop[0] == "town":
                    for t in ts:
                        # a black cube ends at a town only once it is a new city
                        m.Add(urbanized_by[hop[1], r] >= 1).OnlyEnforceIf([t, now])
                    continue
                for t in ts:
                    # every hop of the route is a complete link when the cube ships
                    m.AddBoolOr([t.Not(), now.Not(), pm.joined[hop, r]])
        for r in rounds:
            for k in steps:
                # a shipment of L links needs locomotive >= L; income rises by L
                m.Add(n_links <= loco_at[r, k]).OnlyEnforceIf(when[r, k])
                step_links[r, k].append((when[r, k], n_links))
    for r in rounds:
        for k in steps:
            ws = [w for w, _ in step_links[r, k]]
            # one cube per shipment step (or the locomotive step, or nothing)
            m.Add(sum(ws) == pm.ship[r, k])
            for w, n in step_links[r, k]:
                m.Add(pm.links[r, k] == n).OnlyEnforceIf(w)
            m.Add(pm.links[r, k] == 0).OnlyEnforceIf(pm.ship[r, k].Not())
    return ship_round


def _add_join(m, pm: PlanModel, spec: PlanSpec, rounds: list[int], pairs: dict, soft: bool) -> None:
    """The clear condition: every ruin in one network by the last round (a flow from the first ruin)."""
    if spec.join:
        root, others = spec.join[0], spec.join[1:]
        cap = len(others)
        flow = {}
        for p in pairs.keys() | spec.prebuilt:
            for a, b in (p, p[::-1]):
                flow[a, b] = m.NewIntVar(0, cap, f"join_{a}_{b}")
                # flow runs only over links laid by the last round
                m.Add(flow[a, b] <= cap * pm.joined[p, rounds[-1]])
        reach = {}
        for v in others:
            reach[v] = 1
            if soft:
                reach[v] = m.NewBoolVar(f"reached_{v}")
                pm.missing.append(reach[v].Not())
        for v in spec.stops:
            net = sum(x for (a, b), x in flow.items() if b == v) - sum(x for (a, b), x in flow.items() if a == v)
            # "Connect all of the ruins (cities) on Rapa Nui into a single network."
            m.Add(net == (-sum(reach.values()) if v == root else reach[v] if v in others else 0))


def minimize_rounds_then_shares(pm: PlanModel) -> None:
    """Fewest rounds; among those the fewest shares issued; then the cheapest track (lexicographic)."""
    spend_cap = 10 ** 4   # far above any track spend a game can afford
    round_weight = 100 * spend_cap
    missing_weight = round_weight * (len(pm.rounds) + pm.rounds[0] + 1)
    pm.model.Minimize(missing_weight * sum(pm.missing) + pm.clear * round_weight
                      + sum(pm.shares.values()) * spend_cap + pm.total_spend)


def _moai(m, pm: PlanModel, spec: PlanSpec, rounds, steps, act, ship_round) -> None:
    """Top cube first, unless Rapa Nui turned the moai an odd number of times before (exact)."""
    base = spec.base
    if "rapa-nui" not in base.action_costs:
        return
    origins = sorted({c.origin for c in spec.cubes}, key=str)
    cubes_at = {h: [c.key for c in spec.cubes if c.origin == h] for h in origins}
    least = 1 if spec.rapa_nui_remnant else 2
    for r in rounds:
        for h in origins:
            pm.rapa[r, h] = m.NewBoolVar(f"rapa_{r}_{h}")
            still = [ship_round[key, q] for key in cubes_at[h] for q in rounds if q >= r]
            # Rapa Nui turns a moai that is still there (a remnant counts under rapa-nui-remnant=allowed)
            m.Add(sum(still) >= least * pm.rapa[r, h])
        # the action names one moai
        m.Add(sum(pm.rapa[r, h] for h in origins) == act(r, "rapa-nui"))
    when_index = {c.key: sum((len(steps) * r + k) * pm.when[c.key, r, k] for r in rounds for k in steps)
                  for c in spec.cubes}
    if pm.missing:
        # soft model: a cube left on the map counts as leaving after every step (the bottom one last)
        never = len(steps) * (rounds[-1] + 1)
        left = {str(x).removeprefix("left_"): x for x in pm.missing if str(x).startswith("left_")}
        for c in spec.cubes:
            when_index[c.key] += (never + int(c.key.endswith("#0"))) * left[c.key]
    for st in base.stacks:
        # parity of the turns so far: odd means the original bottom cube is on top
        par, prev = {}, 0
        for r in rounds:
            par[r] = m.NewBoolVar(f"turned_{st.stop}_{r}")
            w = m.NewIntVar(0, 1, f"turn_carry_{st.stop}_{r}")
            # par[r] = prev XOR rapa[r]
            m.Add(prev + pm.rapa[r, st.stop] == par[r] + 2 * w)
            prev = par[r]
        top_first = m.NewBoolVar(f"top_first_{st.stop}")
        m.Add(when_index[st.top] < when_index[st.bottom]).OnlyEnforceIf(top_first)
        m.Add(when_index[st.top] > when_index[st.bottom]).OnlyEnforceIf(top_first.Not())
        for r in rounds:
            # "You may transport only the top cube of any moai"
            m.Add(par[r] == 0).OnlyEnforceIf([top_first, ship_round[st.top, r]])
            m.Add(par[r] == 1).OnlyEnforceIf([top_first.Not(), ship_round[st.bottom, r]])
