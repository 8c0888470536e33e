"""Link search: a second proof engine for Easter Island, an exhaustive search over an abstract game of links.

The CP-SAT relaxation (models/solo_game) counts hexes; this engine knows which stops each link joins,
the order in which cubes leave a moai, each round's money, the locomotive and the action blockers, and
it asks a hex-level packing model (models/link_packing.py: hexsides used once, two tracks a hex) what the
links cost. `prove_by(state, R)` answers "no clear by round R" (proved), "may clear" (an abstract play
that clears, handed to the plan side), or "open" (the work budget ran out).

THE ABSTRACT GAME, and why every legal play maps into it (so that exhausting it is a proof):
a position is (round, the cubes on each ruin, the set L of stop pairs joined by complete links,
the towns turned into cities, locomotive, blockers, cash, income, shares, tiles the rounds so far
allowed). A round is: issue k shares; select an action (or none, where the readings allow) and pay
it; add the links this round's shipments use to L, paying C(L') - C(L) and needing T(L') tiles in all;
two shipment steps (a delivery over L' along a route the engine's rules allow, a locomotive step, or
nothing); then income, expenses, shortfall, floor and income reduction. Take a legal play that clears
by round R and map it round by round, with L_r = the pairs its shipments have used up to round r
(plus, in its clearing round, every pair of its final network). Then:
1. Shares, actions, blockers, locomotive, urbanizing, Rapa Nui, shipments and their links: the same
   moves, checked with the engine's rules (solver/engine/ruleset.py, maps/easter_island.py); a route
   uses only complete links, which are in L_r by construction.
2. Track: T(L) and C(L) are lower bounds on the new hexes and the money of ANY track joining every
   pair of L (models/link_packing.py gives the argument; `LinkBounds` takes the larger of a per-link
   bound and the packing optimum, both valid; the packing knows the engine's tile set, so two links
   share a hex only as a complex tile that exists: solver/engine/track_tiles.py, an assumption). The play has laid at least T(L_r) tiles by round r,
   within the limits of its rounds (3, or 4 with Engineer), and paid at least C(L_r) in all. The
   abstract play pays exactly C(L_r) by round r (lazily: never earlier than the play), so its cash is
   always at least the play's, except where the play ends a round short of cash: there the shortfall
   turns the play's early track money into income it lost, and the abstract play, which still owes that
   track, would have its cash and not the track. So (2b) the abstract play may pay AHEAD: in a round that
   is not its clear, any amount of its cash after the build that ends the round in a shortfall goes to a
   credit (`Money.credit`) that pays for track first in later rounds; it pays ahead what the play paid for
   track beyond C(L_r), and its cash, income and credit then cover the play's.
   Each link leaves each of its stops over a hexside of its own (a side
   carries one track), so a stop has at most as many links as usable sides (`degrees_fit`).
   Shares: the abstract play issues, each round, between the fewest that pay for the round and the
   fewest that also leave no shortfall (inclusive). It keeps income >= the play's, shares <= the
   play's, and cash + 5 x (the play's shares - its own) >= the play's cash: it issues
   min(the covering number, the play's issue + the shares it is behind), which pays whatever the play
   pays, and a share the play issued earlier than needed only cost it $1 of expenses.
3. Money is monotone: the abstract income reduction is the smallest nondecreasing function above the
   real one (`_envelope`, over the engine's `income_reduction`), so an abstract position with at least the
   play's cash and income keeps at least its cash and income after every step (collect, expenses,
   shortfall, reduction: the engine's own `expenses`, `cover` and `below_floor`, solver/engine/economy.py,
   which the referee's end_round applies; each is nondecreasing in cash and income). Every
   check that needs money (an action's $8 before any cash it gives, the build, the income floor)
   passes for the abstract play when it passes for the real one.
4. Clear: the play's final network joins every ruin; the abstract clearing round adds those pairs
   (the cheapest such completion is found by an exact Steiner tree over the stop graph with each new
   pair weighted by its per-link bound, `_completion`), within the tiles and cash that round has.
5. Rounds after the clear do not exist; the search stops at the clear. (Under end-of-game=round-track the
   game plays on, but only clears the default also counts, in the same round, count: the argument holds.)
6. Pruning: a position is dropped only when another with the same discrete part has at least its
   income and tile allowance, at most its shares, and cash + 5 x (shares fewer) at least its cash
   (`Money.covers`: the same relation as in point 2, kept by every abstract step, point 3), or when
   its cubes outnumber the shipment steps left.
7. Round-by-round track (nogoods): a history is also judged by when each pair was first used and the
   tiles its rounds allowed. When an abstract clear survives pricing but no track can follow it round
   by round (`fits`, link_nogoods.py: one packing where the pairs first used by round r take at most the tiles of
   rounds 1..r; a complete link is never removed, so the real play's first link for each pair is in
   its final track and was laid by the pair's first use), `refute` keeps a Nogood: pairs with rounds,
   cumulative budgets (and the network, for a whole clear) that no track meets. A history that needs
   each of those pairs no later, with no more tiles by any of those rounds, has the same dead end
   (`Nogood.refutes`), so it is dropped; point 6's dominance then also asks that the kept history be
   no tighter (`looser`), so no nogood drops it where it would not drop the other. A nogood learnt from
   a whole clear (with the network) refutes only clears no later than its own: a later clear may finish
   the network with its later rounds' tiles. The packing also
   knows the laying order (its point 8: a hex two links share was laid by the earlier link's round,
   with the later link's track to one of its ends), town tiles (its point 9: a town a link reaches while
   it is a town costs a tile more by then, so a history also records when it urbanized each town, and
   a town kept a town no shorter is tighter) and, for a whole clear, the rest of the network within the
   clearing round's tiles; each holds of the real play for any history at least as tight (and, for
   a whole clear, clearing no later).
So if the search exhausts the abstract game without a clear by R, no legal play clears by R.
Bounds that were first the per-link ones are raised by the packing model when an abstract clear is
found (counterexample-guided: the clear's link sets are priced exactly and the search restarts with
the raised bounds, which are still lower bounds); a clear that survives exact pricing is "may clear".
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, NamedTuple

import networkx as nx

from models.link_packing import PackingBoard, solve_packing
from solver import interrupt
from solver.board.hexgrid import Hex
from solver.engine.economy import below_floor, cover, expenses, income_reduction
from solver.engine.placement import track_hexes
from solver.engine.track_tiles import complex_kind, complex_rules, tile_set_of
# point 7 (round-by-round track) lives in link_nogoods.py
from solver.solo.link_nogoods import Fit, Nogood, fits, looser, refute

if TYPE_CHECKING:
    from solver.engine.state import GameState

NAME = "link search"


class Status(StrEnum):
    """What the search settles about round R (the proof engines' words: proofs/base.py)."""

    NO_CLEAR = "no clear"     # proved: no play clears by round R
    MAY_CLEAR = "may clear"   # an abstract clear survives exact pricing (handed to the plan side)
    OPEN = "open"             # out of work, or a clear whose link sets the packing model could not price


class Refined(Enum):
    """What pricing a link set with the packing model (`LinkBounds.refine`) changed."""

    ROSE = "a bound rose"     # search again: the raised bounds may exclude clears found so far
    SAME = "no bound rose"
    UNDECIDED = "no proven bound in the model's time"   # nothing learnt


@dataclass(frozen=True)
class SearchResult:
    """The answer of `prove_by` (proofs/links.py turns it into the engine's Verdict)."""

    status: Status
    detail: str
    nodes: int                    # abstract positions searched
    pattern: list | None = None   # the abstract rounds of a clear (MAY_CLEAR)
    refuted: int = 0              # abstract clears refuted round by round (point 7's nogoods)


class LinkBounds:
    """T(L) and C(L): lower bounds on the new hexes and money of any track joining every pair of L."""

    def __init__(self, state, packing_time: float = 5.0):
        board, s = state.board, state.scenario
        self.stops = board.stops
        old = frozenset(state.track)
        cost = {h: (0 if h in old else s.track_cost[board.terrain[h]]) for h in track_hexes(board, s)}
        self.complex, self.second = second_track_price(state)
        self.tile_exists, self.is_crossing = tile_tests(state)   # the referee's tile set (complex-tile-set)
        self.board = PackingBoard(cost, old, self.stops, frozenset(board.towns), board.passable, self.complex,
                                  self.second)
        self.packing_time = packing_time
        self.single: dict = {}   # pair -> (new hexes, money) of the cheapest single link (per-link bound)
        self.exact: dict = {}    # (frozenset of pairs, objective) -> packing bound
        self._per_link()
        # Each link leaves each of its stops over a side of its own (one track a hexside): a stop has
        # at most as many links as sides a link can use (to a hex that takes track, or a town tile's track).
        self.sides = {a: sum(1 for h in a.neighbours()
                             if board.passable(a, h) and (h in cost or frozenset((a, h)) in self.single))
                      for a in self.stops}

    def _per_link(self) -> None:
        """Cheapest chain for each pair alone: Dijkstra from each stop over free hexes, entering no other stop.

        With complex tiles a hex may carry two links, so a link alone is charged what its share of a
        double hex costs at least: tiles 1/2, money min(terrain, (terrain + the board's least second-track
        price) / 2) (kept doubled, as integers; a hex one link has alone costs its terrain)."""
        b = self.board
        for a in sorted(self.stops):
            for key in ("tiles", "money"):
                dist = {}
                heap = []
                for h in a.neighbours():
                    if h in b.cost and b.passable(a, h):
                        dist[h] = self._weight(h, key)
                        heapq.heappush(heap, (dist[h], h))
                    elif h in self.stops and h != a and b.passable(a, h) and (a in b.towns or h in b.towns):
                        self._keep(a, h, key, 0)
                while heap:
                    d, h = heapq.heappop(heap)
                    if d > dist[h]:
                        continue
                    for n in h.neighbours():
                        if not b.passable(h, n):
                            continue
                        if n in self.stops:
                            if n != a:
                                self._keep(a, n, key, d)
                        elif n in b.cost and d + self._weight(n, key) < dist.get(n, 1 << 30):
                            dist[n] = d + self._weight(n, key)
                            heapq.heappush(heap, (dist[n], n))

    def _weight(self, h: Hex, key: str) -> int:
        """Doubled per-link charge of a hex (see _per_link)."""
        if h in self.board.old:
            return 0
        if key == "tiles":
            return 1 if self.complex else 2
        c = self.board.cost[h]
        return c + min(c, self.second) if self.complex else 2 * c

    def _keep(self, a: Hex, b: Hex, key: str, d: int) -> None:
        pair = frozenset((a, b))
        t, m = self.single.get(pair, (1 << 30, 1 << 30))
        self.single[pair] = (min(t, d), m) if key == "tiles" else (t, min(m, d))

    def degrees_fit(self, links: frozenset) -> bool:
        deg: dict = {}
        for p in links:
            for a in p:
                deg[a] = deg.get(a, 0) + 1
                if deg[a] > self.sides[a]:
                    return False
        return True

    def pairs(self) -> list[frozenset]:
        return sorted(self.single, key=lambda p: sorted(p))

    def tiles(self, links: frozenset) -> int:
        return max(math.ceil(sum(self.single[p][0] for p in links) / 2), self.exact.get((links, "tiles"), 0))

    def money(self, links: frozenset) -> int:
        return max(math.ceil(sum(self.single[p][1] for p in links) / 2), self.exact.get((links, "cost"), 0))

    def refine(self, links: frozenset, now: tuple[int, int], connect: tuple = ()) -> Refined:
        """Price `links` with the packing model (with `connect`: in a network that also joins those stops,
        keyed apart): ROSE (a bound rose above `now`, (tiles, money): search again), SAME, or UNDECIDED
        (the model found no proven bound in its time: nothing learnt)."""
        out = Refined.SAME
        tag = "connect-" if connect else ""
        for objective, before in (("tiles", now[0]), ("cost", now[1])):
            if (links, tag + objective) in self.exact:
                continue
            status, value = solve_packing(self.board, [tuple(sorted(p)) for p in links], objective,
                                          self.packing_time, connect, tile_exists=self.tile_exists)
            if status == "infeasible":
                value = 1 << 20  # no track joins them all: no play has these links
            elif value is None:
                out = Refined.UNDECIDED if out == Refined.SAME else out
                continue
            self.exact[links, tag + objective] = value
            if value > before:
                out = Refined.ROSE
        return out


def second_track_price(state) -> tuple[bool, int]:
    """(may a hex carry two tracks, the least a second track on a hex adds to its first tile's price), from
    the board file's own prices: a complex tile costs its terrain plus the crossing or non-crossing extra, a
    straight upgraded to a crossing its terrain plus the upgrade price. No complex-tile prices in the board
    file: the referee lays no complex tile (ruleset `_complex_problem`)."""
    rules = complex_rules(state)
    if not state.rules.complex_tiles or rules is None:
        return False, 0
    return True, max(0, min(rules["complex_crossing_extra"], rules["complex_noncrossing_extra"],
                            rules["upgrade_to_crossing_cost"]))


def tile_exists(h: Hex, first: tuple, second: tuple, tile_set: str = "assumed") -> bool:
    """Two tracks on one hex make a complex tile of the engine's tile set (reading complex-tile-set)."""
    return complex_kind(h, first, second, tile_set)[0] is not None


def is_crossing(h: Hex, first: tuple, second: tuple, tile_set: str = "assumed") -> bool:
    """Two tracks on one hex make a crossing (the one complex tile a simple tile can be upgraded to)."""
    return complex_kind(h, first, second, tile_set)[0] == "crossing"


def tile_tests(state) -> tuple:
    """(tile_exists, is_crossing) under the game's reading complex-tile-set, as the packing calls them."""
    tile_set = tile_set_of(state)
    return (lambda h, a, b: tile_exists(h, a, b, tile_set)), (lambda h, a, b: is_crossing(h, a, b, tile_set))


# -- the abstract game ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Pos:
    """The discrete part of an abstract position at the start of a round."""

    round: int
    goods: tuple        # ((ruin, (bottom, ..., top)), ...), ruins with cubes only
    links: frozenset    # pairs of stops joined by links (frozensets)
    cities: tuple       # ((town, colour), ...): towns turned into cities
    supply: tuple       # new city colours left
    loco: int
    blockers: frozenset


@dataclass(frozen=True)
class Money:
    cash: int
    income: int
    shares: int
    allowance: int      # tiles the rounds played so far allowed (from the position on)
    credit: int = 0     # point 2b: money paid ahead for track not yet priced (spent only on track)

    def covers(self, other: "Money", price: int) -> bool:
        """Point 6: this position can do whatever `other` can (see the module text; `price`: the board's
        share price); cash can stand in for credit, never the other way round."""
        spare = self.cash + price * (other.shares - self.shares)
        return (self.income >= other.income and self.shares <= other.shares and self.allowance >= other.allowance
                and spare >= other.cash and spare + self.credit >= other.cash + other.credit)


def _envelope(scenario) -> callable:
    """The smallest nondecreasing function at or above income - reduction(income) (point 3)."""
    def real(i: int) -> int:
        return i - income_reduction(scenario.income_reduction, i)
    top = max(high for _, high, _ in scenario.income_reduction) + 2

    def g(i: int) -> int:
        if i > top:
            return real(i)
        return max(real(j) for j in range(min(i, 0), i + 1))
    return g


def _actions(s, rules, pos: Pos) -> list:
    """(name, target) of each action the engine would allow, cash aside."""
    out = []
    if not rules.strict_action:
        out.append((None, None))
    for name in s.actions:
        if name in pos.blockers:
            continue  # "You cannot select an action that has an action blocker on it."
        if name == "locomotive" and pos.loco >= s.max_locomotive and not rules.idle_actions:
            continue
        if name == "urbanization" and not pos.supply and not rules.idle_actions:
            continue
        if name == "rapa-nui":
            least = 1 if rules.rapa_nui_remnant else 2
            out.extend((name, h) for h, cubes in pos.goods if len(cubes) >= least)
            if rules.idle_actions:
                out.append((name, None))
            continue
        out.append((name, None))
    return out


def _completion(b: LinkBounds, ruins: list, links: frozenset, allowance: int) -> tuple[int, frozenset] | None:
    """Point 4: the least money of a network joining every ruin that contains `links`, if the tiles fit,
    and the pairs of one such network (the money tree's, for the plan side)."""
    from models.steiner.api import solve_steiner
    out, tree = [], frozenset()
    for idx, key in ((0, "tiles"), (1, "money")):
        g = nx.Graph()
        g.add_nodes_from(ruins)
        for p in b.single:
            x, y = sorted(p)
            g.add_edge(x, y, weight=0 if p in links else b.single[p][idx])
        res = solve_steiner(g, ruins)
        if res.status == "infeasible":
            return None
        have = sum(b.single[p][idx] for p in links)
        own = b.tiles(links) if key == "tiles" else b.money(links)
        joined = b.exact.get((links, "connect-" + ("tiles" if key == "tiles" else "cost")), 0)
        out.append(max(own, joined, math.ceil((have + res.lower_bound) / 2)))
        tree = frozenset(frozenset(e) for e in res.edges) - links
    tiles, money = out
    return (money, tree) if tiles <= allowance else None


@dataclass(frozen=True)
class _Action:
    """A round's action as the abstract game plays it (point 1), before its shipments."""

    name: str | None      # None: no action (where the readings allow it)
    target: Hex | None    # Rapa Nui's moai
    cost: int             # the action's price
    gain: int             # the cash it gives after paying (Rapa Nui)
    loco: int             # the locomotive after it
    limit: int            # the tiles the round allows (more with Engineer)
    goods: dict           # the cubes after it (Rapa Nui swaps a moai's top and bottom cubes)
    blockers: frozenset
    cities: tuple         # towns turned into cities, ((town, colour), ...): urbanization adds one
    supply: tuple         # new city colours left


class _Shipped(NamedTuple):
    """The round's shipment steps after an action (point 1)."""

    goods: dict           # the cubes left
    links: frozenset      # L': the links used so far
    loco: int
    carried: int          # links the deliveries used (each raises income by 1)
    record: list          # the steps: ("ship", colour, route), ("locomotive",) or ("pass",)


@dataclass
class _Rounds:
    """One round of the abstract game (points 1 to 5): its actions, shipments, money and clear."""

    state: GameState
    bounds: LinkBounds
    last_round: int
    share_cap: int | None = None  # at most this many shares in all (the fewest-shares question)

    def __post_init__(self):
        st = self.state
        s, self.rules = st.scenario, st.rules
        self.s = s
        self.g = _envelope(s)
        self.ruins = sorted(st.board.cities)
        self.colour = {h: c.colour for h, c in st.board.cities.items()}
        self.towns = sorted(st.board.towns)
        self.adj: dict = {}
        for p in self.bounds.pairs():
            a, b = sorted(p)
            self.adj.setdefault(a, []).append(b)
            self.adj.setdefault(b, []).append(a)

    def play_round(self, pos: Pos, money: Money):
        """Every abstract round from (pos, money): yields (next pos, next money, cleared, round record)."""
        for act in self.choices(pos):
            for ship in self.ship_steps(pos, act, money):
                yield from self.settle(pos, money, act, ship)

    def choices(self, pos: Pos):
        """Each action with what it does before the shipments (urbanization: each town and colour)."""
        s = self.s
        for name, target in _actions(self.s, self.rules, pos):
            cost = s.action_cost if name else 0
            gain = s.rapa_nui_cash if (name == "rapa-nui" and target is not None) else 0
            loco = min(s.max_locomotive, pos.loco + 1) if name == "locomotive" else pos.loco
            limit = s.engineer_tile_limit if name == "engineer" else s.tile_limit
            goods = dict(pos.goods)
            if target is not None:
                goods[target] = tuple(reversed(goods[target]))  # "swap the top and bottom cubes"
            blockers = pos.blockers
            if name:
                sel = blockers | {name}
                blockers = frozenset() if sel >= set(s.actions) else frozenset(sel)
            cities_opts = [(pos.cities, pos.supply)]
            if name == "urbanization":
                taken = {t for t, _ in pos.cities}
                for town in self.towns:
                    if town in taken:
                        continue
                    for colour in sorted(set(pos.supply)):
                        left = list(pos.supply)
                        left.remove(colour)
                        cities_opts.append((tuple(sorted(pos.cities + ((town, colour),))), tuple(left)))
            for cities, supply in cities_opts:
                yield _Action(name, target, cost, gain, loco, limit, goods, blockers, cities, supply)

    def ship_steps(self, pos: Pos, act: _Action, money: Money):
        """The two shipment steps: a delivery, the locomotive step (once a round) or nothing."""
        steps = self.s.shipments_per_round
        cost, gain = act.cost, act.gain
        allowance = money.allowance + act.limit
        cash_cap = money.cash + money.credit + self.s.share_price * (self.s.max_shares - money.shares) - cost + gain
        base = self.bounds.money(pos.links)
        city_colour = dict(act.cities)

        def accepts(stop, colour):
            return self.colour.get(stop) == colour or city_colour.get(stop) == colour

        def rec(k, goods_now, links, loco_now, carried, raised, record):
            left = sum(len(c) for c in goods_now.values())
            steps_left = (steps - k) + steps * (self.last_round - pos.round)
            if left > steps_left:
                return  # point 6: more cubes than shipment steps left
            if k == steps:
                yield _Shipped(goods_now, links, loco_now, carried, record)
                return
            for origin, cubes in sorted(goods_now.items()):
                if not cubes:
                    continue
                colour = cubes[-1]  # "You may transport only the top cube of any moai"
                for route in self.routes(origin, colour, links, loco_now, accepts):
                    new = links | {frozenset(h) for h in zip(route, route[1:])}
                    if new != links and (not self.bounds.degrees_fit(new) or self.bounds.tiles(new) > allowance
                                         or self.bounds.money(new) - base > cash_cap):
                        continue
                    g2 = dict(goods_now)
                    g2[origin] = cubes[:-1]
                    yield from rec(k + 1, g2, new, loco_now, carried + len(route) - 1, raised,
                                   record + [("ship", colour, route)])
            if not raised and loco_now < self.s.max_locomotive:
                yield from rec(k + 1, goods_now, links, loco_now + 1, carried, True, record + [("locomotive",)])
            yield from rec(k + 1, goods_now, links, loco_now, carried, raised, record + [("pass",)])

        yield from rec(0, act.goods, pos.links, act.loco, 0, False, [])

    def routes(self, origin, colour, links, loco, accepts):
        """Simple paths over built or possible links that end at the first stop taking the colour."""
        def dfs(path):
            cur = path[-1]
            for nxt in self.adj.get(cur, ()):
                if nxt in path:
                    continue
                if accepts(nxt, colour):
                    yield tuple(path + [nxt])
                    continue  # it must stop at the first city of its colour
                if len(path) < loco:
                    yield from dfs(path + [nxt])
        if loco >= 1:
            yield from dfs([origin])

    def settle(self, pos: Pos, money: Money, act: _Action, ship: _Shipped):
        """Pay for the round (shares as needed), collect, pay expenses, reduce income; check the clear."""
        b = self.bounds
        allowance = money.allowance + act.limit
        left = {h: c for h, c in ship.goods.items() if c}
        options = [(False, b.money(ship.links) - b.money(pos.links), ship.links)]
        if not left:
            done = _completion(b, self.ruins, ship.links, allowance)
            if done is not None:
                # clear now (with the completing pairs), or build on and clear later
                options.insert(0, (True, done[0] - b.money(pos.links), ship.links | done[1]))
        for cleared, pay, final in options:
            yield from self._pay(pos, money, act, ship, cleared, pay, final if cleared else ship.links)

    def _pay(self, pos: Pos, money: Money, act: _Action, ship: _Shipped, cleared: bool, pay: int,
             links: frozenset):
        """The round's money (points 1 to 3) with `pay` for track; `links`: L' (with a clear, its network)."""
        name, target, cost, gain, cities, supply, blockers = (act.name, act.target, act.cost, act.gain, act.cities,
                                                               act.supply, act.blockers)
        loco, carried, record = ship.loco, ship.carried, (ship.record, ship.links)
        allowance = money.allowance + act.limit
        left = {h: c for h, c in ship.goods.items() if c}
        s = self.s
        price = s.share_price
        # point 2b: the track money paid ahead in earlier rounds pays first
        from_credit = min(money.credit, max(pay, 0))
        pay -= from_credit
        # shares: the fewest that pay the action before its gain and the build after it (point 1) ...
        k_min = max(0, math.ceil((cost - money.cash) / price), math.ceil((cost + pay - gain - money.cash) / price))
        room = min(s.max_shares, self.share_cap if self.share_cap is not None else s.max_shares) - money.shares
        if k_min > room:
            return
        # ... up to the fewest that also leave no shortfall (more are better issued later: module text)
        for k in range(k_min, room + 1):
            built = money.cash + price * k - cost + gain - pay   # cash after the build
            income = money.income + carried  # each link used raises income by 1
            shares = money.shares + k
            after = built + income - expenses(shares, loco)
            # point 2b: pay `ahead` of the cash after the build for track priced in later rounds; only
            # amounts that end the round in a shortfall differ from paying later (none in a clearing round)
            aheads = [0] if cleared else [0] + list(range(max(0, after) + 1, built + 1))
            for ahead in aheads:
                cash, inc, _ = cover(after - ahead, income)
                lost = below_floor(inc, s.income_floor) and not (cleared and self.rules.clear_when_under)
                if not lost:
                    nxt = Pos(pos.round + 1, tuple(sorted(left.items())), links, cities, supply, loco, blockers)
                    yield (nxt, Money(cash, self.g(inc), shares, allowance, money.credit - from_credit + ahead),
                           cleared, (name, target, k, *record))
            if after >= 0:
                break


@dataclass
class _Game:
    """The search over abstract rounds (`_Rounds`): depth first, dominance (point 6) and nogoods (point 7)."""

    state: GameState
    bounds: LinkBounds
    last_round: int
    work: int
    share_cap: int | None = None  # at most this many shares in all (the fewest-shares question)
    nodes: int = 0
    seen: dict = field(default_factory=dict)
    nogoods: list = field(default_factory=list)   # point 7: Nogood, shared by the restarts of prove_by
    checked: dict = field(default_factory=dict)   # point 7: (dues, allowances) of a prefix -> no track for it

    def __post_init__(self):
        self.rounds = _Rounds(self.state, self.bounds, self.last_round, self.share_cap)
        self.s, self.ruins = self.rounds.s, self.rounds.ruins

    # -- the search -----------------------------------------------------------------------------------------
    def search(self, pos: Pos, money: Money, path: list, due: dict | None = None, allow: tuple = (),
               towns: dict | None = None):
        """Depth first over rounds; yields the rounds of each abstract clear it reaches (the caller may add
        nogoods between two: the search goes on under them).

        `due`: each pair the shipments have used -> the round it was first used (1 = the search's first);
        `allow`: the tiles the rounds so far allowed, cumulative; `towns`: each town urbanized so far -> its
        last round as a town (town tiles, point 7). Point 7 needs them (the nogoods), so point 6's
        dominance also asks that the surviving position's history be no tighter."""
        due = due if due is not None else {}
        towns = towns if towns is not None else {}
        if pos.round > self.last_round:
            return
        for nxt, m2, cleared, record in self.rounds.play_round(pos, money):
            self.nodes += 1
            if self.nodes > self.work or interrupt.past_cap():
                raise _OutOfWork
            r = len(path) + 1
            due2 = dict(due)
            for p in record[-1]:
                due2.setdefault(tuple(sorted(p)), r)
            limit = self.s.engineer_tile_limit if record[0] == "engineer" else self.s.tile_limit
            allow2 = allow + ((allow[-1] if allow else 0) + limit,)
            towns2 = _urbanized(pos, nxt, r, towns)
            if any(ng.refutes(due2, allow2, cleared, towns2) for ng in self.nogoods):
                continue  # point 7
            if len(due2) > len(due) and self._dead(due2, allow2, towns2):
                continue  # point 7: no track lays this history's links by the rounds that use them
            if cleared:
                yield path + [(record, nxt)]
                continue
            key = nxt
            front = self.seen.setdefault(key, [])
            if any(om.covers(m2, self.s.share_price) and looser(od, oa, due2, allow2, ot, towns2) for om, od, oa, ot in front):
                continue  # point 6
            front[:] = [(om, od, oa, ot) for om, od, oa, ot in front
                        if not (m2.covers(om, self.s.share_price) and looser(due2, allow2, od, oa, towns2, ot))] + [
                (m2, due2, allow2, towns2)]
            yield from self.search(nxt, m2, path + [(record, nxt)], due2, allow2, towns2)

    def _dead(self, due: dict, allow: tuple, towns: dict) -> bool:
        """Point 7 on a prefix: can no track lay the links this history has used by the rounds it used them
        in? If so, that exact history becomes a nogood (it then also refutes every tighter one)."""
        key = (tuple(sorted(due.items())), allow, tuple(sorted(towns.items())))
        if key not in self.checked:
            self.checked[key] = fits(self.state, self.bounds, due, allow, False, towns) == Fit.INFEASIBLE
            if self.checked[key]:
                self.nogoods.append(Nogood(key[0], allow, False, key[2]))
        return self.checked[key]


def _urbanized(pos: Pos, nxt: Pos, r: int, towns: dict) -> dict:
    """The history's towns urbanized so far -> last round as a town, after round r (pos -> nxt)."""
    new = {t for t, _ in nxt.cities} - {t for t, _ in pos.cities}
    return {**towns, **{t: r - 1 for t in new}} if new else towns


class _OutOfWork(Exception):
    pass


def start_of(state) -> tuple[Pos, Money]:
    """The abstract position of a game state at the start of a round."""
    goods = tuple(sorted((h, tuple(c)) for h, c in state.goods.items() if c))
    links = frozenset(frozenset(p) for p in state.linked_pairs())
    cities = tuple(sorted(state.new_cities.items()))
    return (Pos(state.round, goods, links, cities, tuple(sorted(state.new_city_supply)), state.locomotive,
                frozenset(state.blockers)),
            Money(state.cash, state.income, state.shares, 0))


def prove_by(state, last_round: int, work: int = 200_000, packing_time: float = 5.0,
             bounds: LinkBounds | None = None, share_cap: int | None = None) -> SearchResult:
    """Can any legal play from `state` (start of a round) clear by the end of `last_round`?

    `share_cap`: with at most that many shares issued in all (start included). The abstract game with the
    cap is the game with the cap (shares are only ever issued, point 1), so "no clear" then proves that
    every play clearing by `last_round` issues more shares."""
    if state.scenario.ruleset != "easter-island":
        return SearchResult(Status.OPEN, "the link search knows the Easter Island rules only", 0)
    bounds = bounds or LinkBounds(state, packing_time)
    nodes = 0
    nogoods: list = []
    checked: dict = {}
    while True:
        game = _Game(state, bounds, last_round, work - nodes, share_cap, nogoods=nogoods, checked=checked)
        pos, money = start_of(state)
        rose = False
        try:
            for found in game.search(pos, money, []):
                outcomes = {bounds.refine(record[-1], (bounds.tiles(record[-1]), bounds.money(record[-1])))
                            for record, _ in found}  # each round's links (completion aside)
                last = found[-1][0][-1]
                final = found[-1][1].links
                # the clearing round: its links in a network joining every ruin
                outcomes.add(bounds.refine(last, (bounds.tiles(final), bounds.money(final)), tuple(game.ruins)))
                if Refined.ROSE in outcomes:
                    rose = True   # a bound rose: search again from the start (this clear may still stand)
                    break
                nogood = refute(state, found, bounds)
                if nogood is not None:
                    nogoods.append(nogood)  # point 7: it refutes this clear; the search goes on past it
                    continue
                cleared = state.round + len(found) - 1
                spent = nodes + game.nodes
                if Refined.UNDECIDED in outcomes:
                    return SearchResult(Status.OPEN, f"an abstract play clears in round {cleared}, and the hex "
                                        "packing model could not price all its link sets in its time", spent,
                                        found, len(nogoods))
                return SearchResult(Status.MAY_CLEAR, f"an abstract play clears in round {cleared}; every round's "
                                    "link set is priced by the hex packing model and no bound excludes it", spent,
                                    found, len(nogoods))
        except _OutOfWork:
            why = "the wall-clock cap stopped it" if interrupt.cap_hit() else f"it ran out of work ({work} positions)"
            return SearchResult(Status.OPEN, f"the link search did not decide round {last_round}: {why}", work,
                                refuted=len(nogoods))
        nodes += game.nodes
        if not rose:
            refuted = (f"; {len(nogoods)} abstract clear{'' if len(nogoods) == 1 else 's'} refuted round by round"
                       if nogoods else "")
            return SearchResult(Status.NO_CLEAR, f"no abstract play clears by round {last_round} (link search, "
                                f"{nodes} positions; link sets priced by per-link and hex packing bounds{refuted})",
                                nodes, refuted=len(nogoods))
