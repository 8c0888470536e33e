"""The plan optimizer for the Zoo: the Pareto beam of economy_search.py under the Zoo's rules.

The search is EconomySearch's (round by round, a Pareto front of (cash, income, shares) per abstract
position, shares issued just in time, a beam with a quota per track set); what the Zoo changes is written
here, after the referee (solver/engine/maps/zoo.py):

* The position: food left per animal area (colours do not matter: every area takes any food, so only the
  counts are kept and the colours are picked again when the plan is decoded), the catalogue tracks built,
  the locomotive, the towns urbanized, the areas fed (a bitmask) and the bonus tiles in hand. No blockers.
* The clear: every animal area fed (with feed-new-cities=on the urbanized towns too). The network need not
  be connected: three separate pieces are a fine network.
* A shipment: one piece of food from an area along links to another animal area (fed or not: a fed area
  still pays the links as income). The locomotive needed is the larger of the links and the highest danger
  among the stops the food leaves or passes (the destination does not count; new cities are danger 1,
  towns and exits 0); with the Feeding action, one shipment a round may lower one of those dangers by the
  discount. A route may teleport once between two exits (the hop is no link, needs no locomotive); under
  exit-pairs=strict food entering an exit must teleport. A round in which a route uses an exit (passes
  one, or under exit-use=teleport teleports) earns a bonus tile at its end.
* Track: catalogue tracks between stops, the exits among them (under zoo-exits=literal only an exit joined
  to an animal area is a link, and the track is laid from the area's end). $4 a tile up to 3 tiles, or with
  Engineer $2 a tile up to 4; bonus tiles from the hand go beyond the limit and pay the same price unless
  zoo-bonus-cost=free. Bonus tiles are laid only on tracks that touch no town (a town tile's count would
  depend on them).
* Actions: Engineer, Locomotive and Feeding (the action is mandatory on this map and free). Urbanization is
  never chosen: it only adds a danger-1 area to feed (or, under feed-new-cities=off, a destination nobody
  needs), as docs/zoo.md argues for the beam.

Every plan is decoded into a RoundPlan and replayed by the referee before anyone sees it.
"""
from __future__ import annotations

from solver.board.hexgrid import Hex
from solver.engine.moves import BuildPath, Pass, Ship, UpgradeLocomotive
from solver.engine.plan import RoundPlan
from solver.engine.state import GameState
from solver.solo.economy_search import Catalogue, EconomySearch, _bits
from solver.solo.plan_finders import EconomyFinder
from solver.solo.zoo_routes import INF, StopGraph, least_from

MAX_ROUTES = 4      # routes kept per origin and destination
MAX_SINGLES = 28    # shipments paired with each other per action, best first
MAX_PLANS = 40      # round plans kept per position and action
FILL = 10           # of those, the ones also tried with spare tiles spent on a track to an unfed area


class ZooCatalogue(Catalogue):
    """Candidate tracks between the Zoo's stops: animal areas, towns and exits."""

    def stop_hexes(self, state: GameState) -> list[Hex]:
        b = state.board
        return sorted(b.stops)

    def joins(self, state: GameState, a: Hex, b: Hex) -> bool:
        if state.rules.exits_as_stops:
            return True
        exits, cities = state.board.exits, state.board.cities
        # zoo-exits=literal: "When you connect an exit hex with an animal area, it counts as a completed link."
        return not ((a in exits and b not in cities) or (b in exits and a not in cities))


class ZooSearch(EconomySearch):
    """EconomySearch with the Zoo's position, shipments, track prices and clear; see the module text."""

    def __init__(self, state: GameState, catalogue: Catalogue, **kw):
        super().__init__(state, catalogue, **kw)
        board = state.board
        self.exits = set(board.exits)
        self.area_bit = {h: 1 << i for i, h in enumerate(self.ruins)}
        for j, t in enumerate(self.towns):
            self.area_bit[t] = 1 << (len(self.ruins) + j)
        self.ruin_index = {h: i for i, h in enumerate(self.ruins)}
        self.danger0 = {h: (c.danger or 0) for h, c in board.cities.items()}
        self.need_all = sum(self.area_bit[h] for h in self.ruins)
        s = self.s
        self.engineer_price = s.engineer_track_cost
        self.bonus_pays = state.ruleset.bonus_tiles_pay(state)
        self._zroute_cache: dict[tuple, dict] = {}
        self._track_towns = [tuple(h for h in t.ends if h in self.town_bit) for t in catalogue.tracks]
        self.relaxed = self._relaxed_needs()
        self._worst_cache: dict[tuple, int] = {}

    def _relaxed_needs(self) -> dict[Hex, dict[Hex, int]]:
        """Least locomotive (with the Feeding discount) to feed each area from each area over every catalogue
        track at once: no real network of the search needs less."""
        stops = list(self.cat.stops)
        index = {h: i for i, h in enumerate(stops)}
        adj = [set() for _ in stops]
        for a, b in list(self.cat.by_pair) + [p for p in self.base_pairs if all(h in index for h in p)]:
            adj[index[a]].add(index[b])
            adj[index[b]].add(index[a])
        urban0 = sum(self.town_bit[t] for t in self.state0.new_cities if t in self.town_bit)
        is_exit = tuple(h in self.exits for h in stops)
        g = StopGraph(tuple(stops), index, tuple(tuple(sorted(a)) for a in adj),
                      tuple(self.danger(h, urban0) for h in stops), is_exit,
                      tuple(self.is_area(h, urban0) for h in stops),
                      tuple(i for i, e in enumerate(is_exit) if e and adj[i]), self.rules.strict_exits,
                      self.s.feeding_discount, self.s.max_locomotive)
        out = {}
        for o in self.ruins:
            least = least_from(g, index[o], True)
            out[o] = {x: least[index[x]] for x in self.ruins if x != o}
        return out

    def worst_need(self, food: tuple, fed: int, urban: int) -> int:
        """The largest, over the areas still to feed, of the least locomotive that feeds it from an area with food."""
        ck = (food, fed, urban)
        got = self._worst_cache.get(ck)
        if got is None:
            todo = self.required(urban) & ~fed
            got = 0
            for x in self.ruins:
                if todo & self.area_bit[x]:
                    got = max(got, min((self.relaxed[o][x] for i, o in enumerate(self.ruins) if food[i] and o != x),
                                       default=INF))
            self._worst_cache[ck] = got
        return got

    # -- the position ------------------------------------------------------------------------------
    def start_key(self) -> tuple:
        st = self.state0
        food = tuple(len(st.goods.get(h, ())) for h in self.ruins)
        urban = sum(self.town_bit[t] for t in st.new_cities if t in self.town_bit)
        fed = sum(self.area_bit[h] for h in st.fed if h in self.area_bit)
        return (food, 0, st.locomotive, 0, urban, fed, st.bonus_tiles)

    def required(self, urban: int) -> int:
        extra = 0
        if self.rules.feed_new_cities:
            extra = sum(self.area_bit[t] for t in self.towns if urban & self.town_bit[t])
        return self.need_all | extra

    def danger(self, h: Hex, urban: int) -> int:
        if h in self.town_bit:
            return self.s.new_city_danger if urban & self.town_bit[h] else 0
        return self.danger0.get(h, 0)

    def is_area(self, h: Hex, urban: int) -> bool:
        return h in self.danger0 or bool(urban & self.town_bit.get(h, 0))

    def step(self, key: tuple, action: tuple, plan: tuple, rounds_left: int):
        food, built, loco, blockers, urban, fed, bonus = key
        ids, after, loco_after = plan[0], plan[2], plan[3]
        food_after, fed_after, bonus_after = after
        new_built = built
        for t in ids:
            new_built |= 1 << t
        unfed = bin(self.required(urban) & ~fed_after).count("1")
        if unfed > self.s.shipments_per_round * rounds_left:
            return None
        if unfed and self.worst_need(food_after, fed_after, urban) > loco_after + 2 * rounds_left:
            return None  # the locomotive rises at most twice a round (the action and a shipment step)
        return (food_after, new_built, loco_after, 0, urban, fed_after, bonus_after), unfed == 0

    def togo(self, key: tuple) -> float:
        food, built, loco, blockers, urban, fed, bonus = key
        deficit = max(0, self.worst_need(food, fed, urban) - loco)
        return 14.0 * bin(self.required(urban) & ~fed).count("1") - 2.0 * bonus + 8.0 * min(deficit, 6)

    def togo_floor(self, key: tuple) -> float:
        return self.togo(key)  # cheap here: no joining plan to compute

    def action_options(self, key: tuple) -> list[tuple]:
        loco = key[2]
        out = []
        for name in self.actions:
            if name == "engineer" or name == "feeding":
                out.append((name, None, None))
            elif name == "locomotive" and (loco < self.s.max_locomotive or self.rules.idle_actions):
                out.append((name, None, None))
        if not out:
            out.append((None, None, None))
        return out

    # -- shipments ------------------------------------------------------------------------------------
    def zoo_routes(self, origin: Hex, built: int, urban: int, reach: int, cap: int) -> dict:
        """(destination, new tracks) -> routes [(links, need, need with discount, stops, teleport hop,
        exit used, discount stop)], none dominated by another of the same key."""
        ck = (origin, built, urban, reach, cap)
        got = self._zroute_cache.get(ck)
        if got is not None:
            return got
        occ = self.occupied(built)
        built_adj = self._built_adj(built)
        by_pair, tracks = self.cat.by_pair, self.cat.tracks
        pairs = self.built_pairs(built)
        disc = self.s.feeding_discount
        strict = self.rules.strict_exits
        teleport_use = self.rules.exit_use == "teleport"
        exits = self.exits
        found: dict[tuple, list] = {}

        def record(path, tele, new, links, d):
            # d: the dangers of the stops left or passed (path[:-1])
            top = max(d) if d else 0
            need = max(links, top)
            if top > 0:
                rest = sorted(d, reverse=True)
                lowered = max(top - disc, rest[1] if len(rest) > 1 else 0)
                need_d = max(links, lowered)
                where = path[[self.danger(h, urban) for h in path[:-1]].index(top)]
            else:
                need_d, where = need, None
            used = tele is not None if teleport_use else any(h in exits for h in path)
            opt = (links, need, need_d, tuple(path), tele, used, where if need_d < need else None)
            k = (path[-1], frozenset(new))
            lst = found.setdefault(k, [])
            for o in lst:
                if o[0] >= links and o[1] <= need and o[2] <= need_d and o[5] >= used:
                    return
            lst[:] = [o for o in lst if not (links >= o[0] and need <= o[1] and need_d <= o[2] and used >= o[5])]
            lst.append(opt)

        def go(path, dangers, tele, new, mask, tiles, by_tele):
            here = path[-1]
            links = len(path) - 1 - (1 if tele is not None else 0)
            passing = dangers + [self.danger(here, urban)]
            top = max(passing)
            low = max(top - disc, sorted(passing)[-2] if len(passing) > 1 else 0)
            if max(links + 1, low) > reach:
                return
            must_tele = strict and here in exits and not by_tele and len(path) > 1
            if here in exits and tele is None and not by_tele and len(path) > 1:
                for x in sorted(exits):
                    if x != here and x not in path:
                        path.append(x)
                        go(path, passing, len(path) - 2, new, mask, tiles, True)
                        path.pop()
            if must_tele:
                return
            for nxt in built_adj.get(here, ()):  # catalogue and built pairs, in a fixed order
                if nxt in path:
                    continue
                pair = (here, nxt) if here < nxt else (nxt, here)
                add = None
                if pair not in pairs:
                    for i in by_pair.get(pair, ()):
                        t = tracks[i]
                        if not t.mask & (occ | mask) and tiles + len(t.hexes) <= cap:
                            add = i
                            break
                    if add is None:
                        continue
                path.append(nxt)
                new2 = new + [add] if add is not None else new
                mask2 = mask | (tracks[add].mask if add is not None else 0)
                tiles2 = tiles + (len(tracks[add].hexes) if add is not None else 0)
                if self.is_area(nxt, urban):
                    record(path, tele, new2, links + 1, passing)
                go(path, passing, tele, new2, mask2, tiles2, False)
                path.pop()

        go([origin], [], None, [], 0, 0, False)
        self._zroute_cache[ck] = found
        return found

    def build(self, new, urban: int, engineer: bool, hand: int, limit: int, built: int = 0):
        """(tiles counted, bonus tiles per track, cost) of laying `new` this round, or None if it does not fit."""
        if not new:
            return 0, (), 0
        s, tracks = self.s, self.cat.tracks
        price = self.engineer_price if engineer and self.engineer_price is not None else None
        hexes = 0
        cost = 0
        touched, free_hexes = set(), []
        with_track = self.towns_with_track(built)
        for t in sorted(new):
            track = tracks[t]
            n = len(track.hexes)
            hexes += n
            cost += price * n if price is not None else track.cost
            ends = self._track_towns[t]
            for e in ends:
                if not urban & self.town_bit[e]:
                    if self.rules.zoo_town_cost == "per-tile":
                        cost += price if price is not None else s.track_cost.get("plain", 0)
                    else:
                        cost += s.town_cost_per_track + (s.town_cost_base if e not in with_track and e not in touched
                                                         else 0)
                    touched.add(e)
            if not ends:
                free_hexes.append((t, n))
        counted = hexes + len(touched)
        use = max(0, counted - limit)
        if not self.bonus_pays:
            use = max(use, min(hand, sum(n for _, n in free_hexes)))
        if use > hand or use > sum(n for _, n in free_hexes):
            return None
        alloc, left = [], use
        for t, n in free_hexes:
            k = min(n, left)
            if k:
                alloc.append((t, k))
                left -= k
        if not self.bonus_pays:
            unit = price if price is not None else None
            for t, k in alloc:
                cost -= unit * k if unit is not None else sum(
                    self.ruleset.tile_cost(self.state0, h) for h in tracks[t].hexes[:k])
        return counted - use, tuple(alloc), cost

    def round_plans(self, key: tuple, action: tuple, rounds_left: int) -> list[tuple]:
        food, built, loco, blockers, urban, fed, hand = key
        name = action[0]
        s = self.s
        loco_a = min(loco + 1, s.max_locomotive) if name == "locomotive" else loco
        limit = s.engineer_tile_limit if name == "engineer" else s.tile_limit
        engineer = name == "engineer"
        feeding = name == "feeding"
        can_raise = loco_a < s.max_locomotive
        reach = loco_a + (1 if can_raise else 0)
        cap = limit + hand
        price = self.engineer_price if engineer and self.engineer_price is not None else 4
        required = self.required(urban)
        singles = []
        for i, h in enumerate(self.ruins):
            if not food[i]:
                continue
            for (dest, new), opts in self.zoo_routes(h, built, urban, reach, cap).items():
                new_fed = bool(required & self.area_bit.get(dest, 0) & ~fed)
                tiles = sum(len(self.cat.tracks[t].hexes) for t in new)
                for o in opts:
                    value = o[0] * (rounds_left + 1) + 30 * new_fed - price * tiles + 3 * o[5]
                    singles.append((value, i, dest, new, o))
        singles.sort(key=lambda x: -x[0])
        best_need = (lambda sg: sg[4][2]) if feeding else (lambda sg: sg[4][1])  # noqa: E731
        chosen = _diverse([sg for sg in singles if best_need(sg) <= loco_a], required & ~fed, self.area_bit)
        raised = _diverse([sg for sg in singles if best_need(sg) > loco_a], required & ~fed, self.area_bit) \
            if can_raise else []
        seqs = []  # (steps, raise): a step is ("ship", single, discounted) or "locomotive" or "pass"

        def fits(sg, lv, disc):
            return sg[4][2 if disc else 1] <= lv

        for a in chosen:
            for da in ((False, True) if feeding else (False,)):
                if not fits(a, loco_a, da) or (da and a[4][2] == a[4][1]):
                    continue
                for b in chosen:
                    if b is a:
                        continue
                    if b[1] == a[1] and food[a[1]] < 2:
                        continue
                    for db in ((False, True) if feeding and not da else (False,)):
                        if fits(b, loco_a, db) and not (db and b[4][2] == b[4][1]):
                            seqs.append(((("ship", a, da), ("ship", b, db)), 0))
                if can_raise:
                    seqs.append(((("ship", a, da), "locomotive"), 1))
                seqs.append(((("ship", a, da), "pass"), 0))
        if can_raise:
            for b in chosen + raised:
                for db in ((False, True) if feeding else (False,)):
                    if fits(b, loco_a + 1, db) and not (db and b[4][2] == b[4][1]):
                        seqs.append((("locomotive", ("ship", b, db)), 1))
            seqs.append((("locomotive", "pass"), 1))
        seqs.append((("pass", "pass"), 0))
        out: dict[tuple, tuple] = {}
        tracks = self.cat.tracks
        for steps, raise_ in seqs:
            shipped = [st for st in steps if isinstance(st, tuple)]
            new = set()
            for st in shipped:
                new |= st[1][3]
            mask, ok = 0, True
            for t in new:
                if tracks[t].mask & mask:
                    ok = False
                    break
                mask |= tracks[t].mask
            if not ok:
                continue
            priced = self.build(new, urban, engineer, hand, limit, built)
            if priced is None:
                continue
            tiles, alloc, cost = priced
            left = list(food)
            fed_after = fed
            used = False
            gain = 0
            for st in shipped:
                sg = st[1]
                left[sg[1]] -= 1
                fed_after |= self.area_bit.get(sg[2], 0)
                used = used or sg[4][5]
                gain += sg[4][0]
            if min(left) < 0:
                continue
            bonus_after = hand - sum(k for _, k in alloc) + (1 if used else 0)
            after = (tuple(left), fed_after, bonus_after)
            rk = (after, frozenset(new), loco_a + raise_)
            old = out.get(rk)
            if old is None or old[4] < gain or (old[4] == gain and old[5] > cost):
                ships = tuple(st if not isinstance(st, tuple) else (self.ruins[st[1][1]], st[1][4], st[2])
                              for st in steps)
                out[rk] = (tuple(sorted(new)), (ships, alloc), after, loco_a + raise_, gain, cost, tiles)
        values = list(out.values())

        def worth(p):
            newly = bin(required & p[2][1] & ~fed).count("1")
            return p[4] * (rounds_left + 1) - p[5] + 30 * newly + 3 * (p[2][2] - hand)

        values.sort(key=lambda p: -worth(p))
        plans = values[:MAX_PLANS]
        filled = []
        for p in plans[:FILL]:
            extra = self.fill(built, p, urban, engineer, hand, limit, fed | p[2][1], required)
            if extra is not None:
                filled.append(extra)
        return plans + filled

    def fill(self, built, p, urban, engineer, hand, limit, fed, required):
        """The plan with its spare tiles spent on the cheapest catalogue track into an unfed area from a stop
        the network (or the plan) already reaches."""
        ids = set(p[0])
        now = built
        for t in ids:
            now |= 1 << t
        occ = self.occupied(now)
        reached = {h for pair in self.built_pairs(now) for h in pair}
        best = None
        for i, t in enumerate(self.cat.tracks):
            if t.mask & occ or (now >> i) & 1:
                continue
            a, b = t.ends
            target = [h for h in (a, b) if self.is_area(h, urban) and required & self.area_bit.get(h, 0) & ~fed]
            if not target:
                continue
            other = b if a in target else a
            if other not in reached and not other in self.exits and not self.is_area(other, urban):
                continue
            priced = self.build(ids | {i}, urban, engineer, hand, limit, built)
            if priced is None or priced[0] > limit:
                continue
            if priced[1] != p[1][1]:
                continue  # the fill would take a bonus tile the plan keeps
            score = (len(t.hexes), i)
            if best is None or score < best[0]:
                best = (score, i, priced)
        if best is None:
            return None
        _, i, (tiles, alloc, cost) = best
        return (tuple(sorted(ids | {i})), (p[1][0], alloc), p[2], p[3], p[4], cost, tiles)

    # -- decoding -----------------------------------------------------------------------------------
    def decode(self, e) -> list[RoundPlan]:
        chain = []
        while e.decision is not None:
            chain.append(e.decision)
            e = e.parent
        chain.reverse()
        goods = {h: list(c) for h, c in self.state0.goods.items()}
        out = []
        for k, name, target, town, ids, (ships, alloc) in chain:
            bonus = dict(alloc)
            build_bonus, build = [], []
            for t in ids:
                track = self.cat.tracks[t]
                a, b = track.ends
                hexes = list(track.hexes)
                if a in self.exits:  # laid from the area's end: an exit is no place to start
                    a, b, hexes = b, a, hexes[::-1]
                stops = [a, *hexes, b]
                n = bonus.get(t, 0)
                if n == 0:
                    build.append(BuildPath(tuple(stops)))
                elif n >= len(hexes):
                    build_bonus.append(BuildPath(tuple(stops), bonus=True))
                else:
                    build_bonus.append(BuildPath(tuple(stops[:n + 2]), bonus=True))
                    build.append(BuildPath(tuple(stops[n:])))
            ship = []
            for st in ships:
                if isinstance(st, tuple):
                    origin, opt, disc = st
                    route, tele = opt[3], opt[4]
                    colour = goods[origin].pop()
                    ship.append(Ship(origin, colour, tuple(route), (tele,) if tele is not None else (),
                                     opt[6] if disc and opt[6] is not None else None))
                else:
                    ship.append(UpgradeLocomotive() if st == "locomotive" else Pass())
            out.append(RoundPlan(k, name, None, build_bonus + build, ship))
        return out


def _diverse(singles: list, todo: int, area_bit: dict) -> list:
    """The best shipments for the pairing: the best three into each area still to feed, then the best of the rest."""
    per: dict = {}
    chosen, rest = [], []
    for sg in singles:
        if todo & area_bit.get(sg[2], 0) and per.get(sg[2], 0) < 3:
            per[sg[2]] = per.get(sg[2], 0) + 1
            chosen.append(sg)
        else:
            rest.append(sg)
    return (chosen + rest)[:MAX_SINGLES]


__all__ = ["ZooCatalogue", "ZooSearch", "_bits"]


class ZooEconomyFinder(EconomyFinder):
    """The plan finder (solver/solo/plan_finders.py's interface) over ZooSearch, with one share weight."""

    name = "plan optimizer (solver/solo/zoo_economy.py)"
    search_class = ZooSearch
    catalogue_class = ZooCatalogue

    def __init__(self, width: int = 60, max_hexes: int = 3, share_weight: float = 6.0):
        super().__init__(width=width, max_hexes=max_hexes, share_weights=(share_weight,))
        self.share_weight = share_weight


def optimize(state: GameState, lower: int, limit: int, width: int, accept, best_rounds, record: list,
             stop=None) -> int:
    """The Zoo optimizer from the lower bound up: `accept(rounds, source)` replays a proposal and says whether it
    was kept, `best_rounds()` is the best plan's round count so far (None: no plan). Money first, then a setting
    that weighs shares more at the round count found. Returns the round plans tried."""
    finders = [ZooEconomyFinder(width), ZooEconomyFinder(width, share_weight=30)]
    finders[1]._catalogue = finders[0].catalogue(state)

    def ask(finder: ZooEconomyFinder, last: int) -> bool:
        found = finder.find(state, last, stop=stop)
        record.append({"rounds": last, "share_weight": finder.share_weight, "found": found is not None})
        return found is not None and accept(found.rounds, found.finder)

    for last in range(max(lower, state.round), limit + 1):
        best = best_rounds()
        if best is not None and best <= last:
            break
        if ask(finders[0], last) or ask(finders[1], last):
            break
        if stop is not None and stop():
            break
    best = best_rounds()
    if best is not None and not (stop is not None and stop()) and not any(
            r["share_weight"] == finders[1].share_weight and r["rounds"] == best for r in record):
        ask(finders[1], best)
    return sum(f.work for f in finders)
