"""The plan optimizer for Easter Island: a round-by-round search over the exact economy.

Why this search: income is the currency of the game. A delivery of k links earns k income in every later
round, so the best plans build a small loop of neighbouring ruins first and ship over long routes from
round 1; the cheapest network comes later, link by link. A search that keeps one best value per position
prunes exactly those early investments, so this one keeps, for each abstract position, the Pareto front of
(cash, income, shares issued): more cash, more income and fewer shares are each better for the rest of the
game (income is not quite monotone under the income reduction, which is one reason this is a plan search,
not a proof: every plan it returns is replayed by the referee before anyone sees it).

An abstract position is what the rest of the game depends on besides money: the cubes left on each ruin
(stack order included, only the top cube ships), the track built (a set of tracks from a catalogue), the
locomotive, the action blockers and the towns urbanized. A round is: shares issued just in time (the fewest
that pay for the round's action and track, or also for its expenses), an action (none, Engineer,
Locomotive, Urbanization of a town, Rapa Nui on a moai), the tracks the two shipment steps need (and
optionally tracks toward joining every ruin, with the tiles left), the two shipment steps (a cube over a
route of the most links the locomotive allows, a locomotive step, or a pass), then income, expenses with
their shortfall, the income reduction and the round marker, as the engine does them (the engine's own
`settle`, solver/engine/economy.py).

The catalogue (solver/solo/track_catalogue.py) is made from the board file alone: for each pair of stops a few real
tracks of up to `max_hexes` hexes (the shortest and their alternatives, chosen to overlap little) and the
links of the proven cheapest network joining every ruin. Tracks in a position never share a hex, so every
abstract plan decodes into build paths the engine accepts: each path starts at a stop, every tile faces its
path neighbours, nothing else faces it.

The search is a beam over rounds: `width` positions survive each round, ranked by money and the cubes and
tiles still to go, with a quota per track set so the beam does not collapse onto one network. It asks for a
clear by round R, starting at the proven lower bound; positions that can no longer deliver their cubes or
join the ruins by R are dropped.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass

from solver.board.hexgrid import Hex
from solver.engine.economy import expenses, settle
from solver.engine.moves import Pass, Ship, UpgradeLocomotive, Urbanize
from solver.engine.plan import RoundPlan
from solver.engine.state import GameState
from solver.solo.track_catalogue import Catalogue

MAX_OPTIONS = 6      # routes kept per cube and action (the longest, then the fewest new tiles)
MAX_PAIRS = 40       # shipment pairs kept per position and action, best first
MAX_FILLED = 15      # of those, the ones also tried with spare tiles spent toward joining the ruins
PER_TRACKS = 4       # positions kept per track set in the beam (diversity)


# -- the search ---------------------------------------------------------------------------------------

@dataclass
class Entry:
    """One point of a position's Pareto front, with the way it was reached."""

    cash: int
    income: int
    shares: int
    parent: "Entry | None" = None
    decision: tuple | None = None   # (shares, action, target, town, tracks, shipments)


@dataclass
class Result:
    rounds: list[RoundPlan]
    cleared_round: int
    shares: int
    cash: int
    work: int


class EconomySearch:
    """Round by round from a state at the start of a round; see the module text."""

    def __init__(self, state: GameState, catalogue: Catalogue, width: int = 200, work_limit: int | None = None,
                 stop=None, share_weights: tuple[float, ...] = (6.0,)):
        self.state0, self.cat, self.width, self.share_weights = state, catalogue, width, tuple(share_weights)
        self.work, self.work_limit, self.stop = 0, work_limit, stop
        inst, s, rules = state.instance, state.scenario, state.rules
        self.board, self.s, self.rules, self.ruleset = inst.board, s, rules, state.ruleset
        self.ruins = sorted(inst.board.cities)
        self.towns = sorted(inst.board.towns)
        self.town_bit = {t: 1 << i for i, t in enumerate(self.towns)}
        self.actions = list(s.actions)
        self.action_bit = {a: 1 << i for i, a in enumerate(self.actions)}
        self.all_actions = (1 << len(self.actions)) - 1
        self.colour = {h: c.colour for h, c in inst.board.cities.items()}
        self.base_pairs = {tuple(sorted(p)) for p in state.linked_pairs() if len(p) == 2}
        self.towns_with_track0 = {t for t, n in state.town_tracks.items() if n > 0}
        for pair in self.base_pairs:
            self.towns_with_track0 |= {h for h in pair if h in inst.board.towns and h not in state.new_cities}
        self._occ_cache: dict[int, int] = {}
        self._connect_cache: dict[int, tuple[int, tuple[int, ...]]] = {}
        self._price_cache: dict[tuple, dict] = {}
        # for connect_need: catalogue options per pair, and every stop's place in name order (its tie-break)
        self._pair_options = [(a, b, [(i, catalogue.tracks[i].mask, len(catalogue.tracks[i].hexes)) for i in ids])
                              for (a, b), ids in catalogue.by_pair.items()]
        self._masks = [t.mask for t in catalogue.tracks]
        self._step_options: dict[tuple[Hex, Hex], list[tuple[int, int, int]]] = {}  # both directions of a pair
        for a, b, opts in self._pair_options:
            self._step_options[(a, b)] = self._step_options[(b, a)] = opts
        named = set(catalogue.stops) | {h for pair in self.base_pairs for h in pair}
        self._rank = {h: n for n, h in enumerate(sorted(named, key=str))}
        self._route_cache: dict[tuple, list] = {}
        self._town_ends = [tuple(h for h in t.ends if h in self.town_bit) for t in catalogue.tracks]
        self._raw_cache: dict[tuple, tuple] = {}
        self._adj_cache: dict[int, dict] = {}
        self.least_moai = 1 if rules.rapa_nui_remnant else 2

    # -- abstract position helpers ---------------------------------------------------------------
    def start_key(self) -> tuple:
        st = self.state0
        cubes = tuple(tuple(st.goods.get(h, ())) for h in self.ruins)
        blockers = sum(self.action_bit[a] for a in st.blockers if a in self.action_bit)
        urban = sum(self.town_bit[t] for t in st.new_cities if t in self.town_bit)
        return (cubes, 0, st.locomotive, blockers, urban)

    def occupied(self, built: int) -> int:
        occ = self._occ_cache.get(built)
        if occ is None:
            occ = 0
            for i in _bits(built):
                occ |= self.cat.tracks[i].mask
            self._occ_cache[built] = occ
        return occ

    def built_pairs(self, built: int) -> set:
        return self.base_pairs | {self.cat.tracks[i].ends for i in _bits(built)}

    def is_city_of(self, h: Hex, colour: str, urban: int) -> bool:
        if h in self.colour:
            return self.colour[h] == colour
        return colour == "black" and bool(urban & self.town_bit.get(h, 0))

    def connect_need(self, built: int) -> tuple[int, tuple[int, ...]]:
        """Tiles (approximately fewest) still needed to join every ruin, and the tracks of that plan in order.

        Prim over the ruins' components: repeatedly the cheapest path (in tiles, over built pairs at 0 and
        catalogue tracks that fit) from the component of the first ruin to a ruin outside it."""
        got = self._connect_cache.get(built)
        if got is not None:
            return got
        occ = self.occupied(built)
        pairs = self.built_pairs(built)
        adj: dict[Hex, list[tuple[Hex, int, int | None]]] = {h: [] for h in self.cat.stops}
        for a, b in pairs:
            adj.setdefault(a, []).append((b, 0, None))
            adj.setdefault(b, []).append((a, 0, None))
        for a, b, options in self._pair_options:
            if (a, b) in pairs:
                continue
            for i, mask, tiles in options:
                if not mask & occ:
                    adj[a].append((b, tiles, i))
                    adj[b].append((a, tiles, i))
                    break
        rank = self._rank
        masks = self._masks
        joined = {self.ruins[0]}
        order: list[int] = []
        total = 0
        used_mask = occ
        while True:
            # spread the joined set over 0-cost edges
            stack = list(joined)
            while stack:
                u = stack.pop()
                for v, w, i in adj.get(u, ()):
                    if w == 0 and v not in joined:
                        joined.add(v)
                        stack.append(v)
            if all(r in joined for r in self.ruins):
                break
            dist = {u: 0 for u in joined}
            back: dict[Hex, tuple[Hex, int | None]] = {}
            heap = [(0, rank[u], u) for u in joined]
            heapq.heapify(heap)
            target = None
            while heap:
                d, _, u = heapq.heappop(heap)
                if d > dist.get(u, 1 << 30):
                    continue
                if u in self.colour and u not in joined:
                    target = u
                    break
                for v, w, i in adj.get(u, ()):
                    if i is not None and masks[i] & used_mask:
                        continue
                    nd = d + w
                    if nd < dist.get(v, 1 << 30):
                        dist[v] = nd
                        back[v] = (u, i)
                        heapq.heappush(heap, (nd, rank[v], v))
            if target is None:
                total = 1 << 20  # some ruin cannot be joined with this catalogue
                break
            v = target
            while v not in joined:
                u, i = back[v]
                if i is not None:
                    order.append(i)
                    used_mask |= self.cat.tracks[i].mask
                    total += len(self.cat.tracks[i].hexes)
                joined.add(v)
                v = u
        got = (total, tuple(order))
        self._connect_cache[built] = got
        return got

    # -- one round ----------------------------------------------------------------------------------
    def action_options(self, key: tuple) -> list[tuple[str | None, Hex | None, Hex | None]]:
        """(action, Rapa Nui target, town to urbanize) for every action worth telling apart."""
        cubes, built, loco, blockers, urban = key
        out: list[tuple[str | None, Hex | None, Hex | None]] = []
        if not self.rules.strict_action:
            out.append((None, None, None))
        idle = self.rules.idle_actions
        supply = len(self.state0.new_city_supply) - bin(urban).count("1") + sum(
            1 for t in self.state0.new_cities if t in self.town_bit)
        for name in self.actions:
            if blockers & self.action_bit[name]:
                continue
            if name == "engineer":
                out.append((name, None, None))
            elif name == "locomotive":
                if loco < self.s.max_locomotive or idle:
                    out.append((name, None, None))
            elif name == "urbanization":
                if supply <= 0:
                    if idle:
                        out.append((name, None, None))
                    continue
                for t in self.towns:
                    if not urban & self.town_bit[t]:
                        out.append((name, None, t))
                if self.rules.strict_action:
                    out.append((name, None, None))
            elif name == "rapa-nui":
                seen_noop = False
                for i, h in enumerate(self.ruins):
                    stack = cubes[i]
                    if len(stack) < self.least_moai:
                        continue
                    if len(stack) >= 2 and stack[-1] != stack[-2]:
                        out.append((name, h, None))
                    elif not seen_noop:  # a turn that changes nothing still earns the stunt's cash
                        seen_noop = True
                        out.append((name, h, None))
                if idle and not seen_noop:
                    out.append((name, None, None))
        return out

    def routes(self, origin: Hex, colour: str, built: int, urban: int, max_links: int,
               tile_limit: int) -> list[tuple[int, frozenset, tuple[Hex, ...]]]:
        """(links, new tracks, stops) of the routes a cube can take over built pairs and tracks that fit:
        the longest first, none as long as another with a subset of its new track."""
        relevant = urban if colour == "black" else 0
        key = (origin, colour, built, relevant, max_links, tile_limit)
        kept = self._route_cache.get(key)
        if kept is not None:
            return kept
        found = self._walk_routes(origin, colour, built, relevant, max_links)
        options = sorted(((k, new, route, tiles) for (k, new), (route, tiles) in found.items()
                          if k <= max_links and tiles <= tile_limit),
                         key=lambda o: (-o[0], len(o[1]), sorted(o[1])))
        kept = []
        for k, new, route, _ in options:
            if any(k2 >= k and n2 <= new for k2, n2, _ in kept):
                continue  # as long a route with a subset of its new track
            kept.append((k, new, route))
            if len(kept) >= MAX_OPTIONS:
                break
        self._route_cache[key] = kept
        return kept

    def _walk_routes(self, origin: Hex, colour: str, built: int, urban: int, max_links: int) -> dict:
        """Every (links, new tracks) -> (a route, new tiles), up to max_links links and the Engineer's tiles."""
        raw_key = (origin, colour, built, urban)
        cached = self._raw_cache.get(raw_key)
        if cached is not None and cached[0] >= max_links:
            return cached[1]
        found: dict[tuple[int, frozenset], tuple[tuple[Hex, ...], int]] = {}
        occ = self.occupied(built)
        pairs = self.built_pairs(built)
        built_adj = self._built_adj(built)
        options = self._step_options
        tile_cap = self.s.engineer_tile_limit
        dests = {h for h in built_adj if self.is_city_of(h, colour, urban)}

        def go(path: list[Hex], new: list[int], mask: int, tiles: int) -> None:
            here = path[-1]
            if len(path) - 1 >= max_links:
                return
            for nxt in built_adj.get(here, ()):
                if nxt in path:
                    continue
                add = None
                t_tiles = t_mask = 0
                if ((here, nxt) if here < nxt else (nxt, here)) not in pairs:
                    # a simple route uses a pair once, so its track is never among the route's new ones yet
                    blocked = occ | mask
                    for i, t_mask, t_tiles in options.get((here, nxt), ()):
                        if not t_mask & blocked and tiles + t_tiles <= tile_cap:
                            add = i
                            break
                    if add is None:
                        continue
                path.append(nxt)
                if add is not None:
                    new.append(add)
                else:
                    t_tiles = t_mask = 0
                if nxt in dests:
                    k = (len(path) - 1, frozenset(new))
                    if k not in found:
                        found[k] = (tuple(path), tiles + t_tiles)
                else:
                    go(path, new, mask | t_mask, tiles + t_tiles)
                if add is not None:
                    new.pop()
                path.pop()

        go([origin], [], 0, 0)
        self._raw_cache[raw_key] = (max_links, found)
        return found

    def _built_adj(self, built: int) -> dict:
        """stop -> every stop a route may step to next (catalogue pairs and built ones), in a fixed order."""
        adj = self._adj_cache.get(built)
        if adj is None:
            extra: dict[Hex, set] = {}
            for a, b in self.built_pairs(built):
                extra.setdefault(a, set()).add(b)
                extra.setdefault(b, set()).add(a)
            adj = {}
            for h in set(self.cat.adjacent) | set(extra):
                adj[h] = tuple(sorted(set(self.cat.adjacent.get(h, ())) | extra.get(h, set())))
            self._adj_cache[built] = adj
        return adj

    def round_plans(self, key: tuple, action: tuple, rounds_left: int) -> list[tuple]:
        """The round's builds and shipment steps after `action`, independent of money:
        (new tracks, shipment steps, cubes after, locomotive after, links shipped, track cost, town fee towns)."""
        cubes, built, loco, blockers, urban = key
        name, target, town = action
        s = self.s
        loco_a = min(loco + 1, s.max_locomotive) if name == "locomotive" else loco
        limit = s.engineer_tile_limit if name == "engineer" else s.tile_limit
        urban_a = urban | (self.town_bit[town] if town is not None else 0)
        stacks = [list(c) for c in cubes]
        if target is not None:
            stacks[self.ruins.index(target)].reverse()
        stacks_t = [tuple(c) for c in stacks]
        can_raise = loco_a < s.max_locomotive
        reach = loco_a + (1 if can_raise else 0)
        top, second = {}, {}
        for i, stack in enumerate(stacks):
            if not stack:
                continue
            top[i] = self.routes(self.ruins[i], stack[-1], built, urban_a, loco_a, limit)
            if can_raise:
                top[i] = top[i] + [o for o in self.routes(self.ruins[i], stack[-1], built, urban_a, reach, limit)
                                   if o[0] == reach]
            if len(stack) >= 2:
                second[i] = self.routes(self.ruins[i], stack[-2], built, urban_a, loco_a, limit)
        need_cubes = sum(len(c) for c in stacks)
        least = need_cubes - 2 * rounds_left  # shipments this round must make to deliver the rest in time
        # (first step, second step, locomotive raised by the steps): a shipment step is (ruin index, route option),
        # the others "locomotive" or "pass"; the list's order is the tie-break of equally good plans
        seqs: list[tuple] = []
        origins = sorted(top)
        for i in origins:
            for a in top[i]:
                if a[0] > loco_a:
                    continue
                sa = (i, a)
                for b in second.get(i, ()):  # the cube under it, from the same ruin
                    seqs.append((sa, (i, b), 0))
                for j in origins:
                    if j <= i:
                        continue  # two ruins: the order of the shipments changes nothing
                    for b in top[j]:
                        if b[0] <= loco_a:
                            seqs.append((sa, (j, b), 0))
                if least <= 1:
                    if can_raise:
                        seqs.append((sa, "locomotive", 1))
                    seqs.append((sa, "pass", 0))
        if can_raise and least <= 1:
            for j in origins:
                for b in top[j]:
                    seqs.append(("locomotive", (j, b), 1))
        if least <= 0:
            if can_raise:
                seqs.append(("locomotive", "pass", 1))
            seqs.append(("pass", "pass", 0))
        out: dict[tuple, tuple] = {}
        tracks = self.cat.tracks
        with_track = self.towns_with_track(built)
        # new tracks -> (tiles, cost), None: they clash; shared by positions with the same track and towns
        priced = self._price_cache.setdefault((urban_a, frozenset(with_track)), {})
        ruins = self.ruins
        trimmed: dict[tuple, tuple] = {}  # ruin indices shipped from -> the cubes after
        empty = frozenset()
        for first, second_step, raise_ in seqs:
            one = first.__class__ is tuple
            two = second_step.__class__ is tuple
            if one and two:
                new = first[1][1] | second_step[1][1]
                gain = first[1][0] + second_step[1][0]
                from_ = (first[0], second_step[0])
            elif one:
                new, gain, from_ = first[1][1], first[1][0], (first[0],)
            elif two:
                new, gain, from_ = second_step[1][1], second_step[1][0], (second_step[0],)
            else:
                new, gain, from_ = empty, 0, ()
            if new:
                price = priced.get(new, 0)
                if price == 0:
                    price, mask = None, 0
                    for t in new:
                        if tracks[t].mask & mask:
                            break
                        mask |= tracks[t].mask
                    else:
                        price = self.build_price(new, urban_a, with_track)
                    priced[new] = price
                if price is None:
                    continue
                tiles, cost = price
                if tiles > limit:
                    continue
            else:
                tiles = cost = 0
            after = trimmed.get(from_)
            if after is None:
                moved = list(stacks_t)
                for i in from_:
                    moved[i] = moved[i][:-1]
                after = trimmed[from_] = tuple(moved)
            rk = (after, new, loco_a + raise_)
            old = out.get(rk)
            if old is None or old[4] < gain:
                moving = list(stacks_t)
                ships = []
                for st in (first, second_step):
                    if st.__class__ is tuple:
                        i = st[0]
                        ships.append((ruins[i], moving[i][-1], st[1][2]))
                        moving[i] = moving[i][:-1]
                    else:
                        ships.append(st)
                out[rk] = (tuple(sorted(new)), tuple(ships), after, loco_a + raise_, gain, cost, tiles)
        order = sorted(range(len(out)), key=lambda n, v=list(out.values()): (-(v[n][4] * (rounds_left + 1) - v[n][5]), n))
        values = list(out.values())
        plans = [values[n] for n in order]
        plans = plans[:MAX_PAIRS]
        # the same shipments with spare tiles spent toward joining every ruin
        filled = []
        for p in plans[:MAX_FILLED]:
            extra = self.fill(built, p[0], urban_a, with_track, limit)
            if extra:
                ids = tuple(sorted(p[0] + extra))
                tiles, cost = self.build_price(set(ids), urban_a, with_track)
                filled.append((ids, p[1], p[2], p[3], p[4], cost, tiles))
        return plans + filled

    def towns_with_track(self, built: int) -> set:
        out = set(self.towns_with_track0)
        for i in _bits(built):
            out |= {h for h in self.cat.tracks[i].ends if h in self.town_bit}
        return out

    def build_price(self, new, urban: int, with_track: set) -> tuple[int, int]:
        """Tiles (a town tile counts once a round) and cost (terrain and town fees) of laying `new`."""
        if not new:
            return 0, 0
        s = self.s
        tiles = cost = 0
        touched = set()
        tracks, ends = self.cat.tracks, self._town_ends
        for t in new:
            track = tracks[t]
            tiles += len(track.hexes)
            cost += track.cost
            for e in ends[t]:
                if not urban & self.town_bit[e]:
                    cost += s.town_cost_per_track + (s.town_cost_base if e not in with_track and e not in touched else 0)
                    touched.add(e)
        return tiles + len(touched), cost

    def fill(self, built: int, new: tuple, urban: int, with_track: set, limit: int) -> tuple:
        """Tracks toward joining every ruin that fit the round's spare tiles, in the order of the position's
        joining plan (tracks the shipments' new track clashes with are skipped)."""
        _, order = self.connect_need(built)
        chosen = list(new)
        mask = self.occupied(built)
        for t in new:
            mask |= self.cat.tracks[t].mask
        for t in order:
            track = self.cat.tracks[t]
            if t in new or track.mask & mask:
                continue
            tiles, _ = self.build_price(set(chosen) | {t}, urban, with_track)
            if tiles <= limit:
                chosen.append(t)
                mask |= track.mask
        return tuple(chosen[len(new):])

    # -- the beam over rounds -------------------------------------------------------------------------
    def run(self, last_round: int) -> Result | None:
        """The best plan found that clears by `last_round`: fewest rounds, then fewest shares, then most cash."""
        st = self.state0
        layer = {self.start_key(): [Entry(st.cash, st.income, st.shares)]}
        self._need0, _ = self.connect_need(0)
        for rnd in range(st.round, last_round + 1):
            rounds_left = last_round - rnd
            nxt: dict[tuple, list[Entry]] = {}
            cleared: list[Entry] = []
            for key, entries in layer.items():
                for action in self.action_options(key):
                    plans = self.round_plans(key, action, rounds_left)
                    self.work += len(plans) * len(entries)
                    for plan in plans:
                        step = self.step(key, action, plan, rounds_left)
                        if step is None:
                            continue
                        new_key, done = step
                        ids, ships, gain, cost, loco_after = plan[0], plan[1], plan[4], plan[5], plan[3]
                        for e in entries:
                            for child in self.settle(e, action, ids, ships, gain, cost, loco_after):
                                if done:
                                    cleared.append(child)
                                elif rounds_left > 0:
                                    _insert(nxt.setdefault(new_key, []), child)
                if self.work_limit is not None and self.work > self.work_limit:
                    return None
                if self.stop is not None and self.stop():
                    return None
            if cleared:
                best = min(cleared, key=lambda e: (e.shares, -e.cash))
                return Result(self.decode(best), rnd, best.shares, best.cash, self.work)
            layer = self.select(nxt, rounds_left)
            if not layer:
                return None
        return None

    def step(self, key: tuple, action: tuple, plan: tuple, rounds_left: int) -> tuple[tuple, bool] | None:
        """The position after a round plan and whether it clears; None when it can no longer clear in time."""
        cubes, built, loco, blockers, urban = key
        name, target, town = action
        ids, after, loco_after = plan[0], plan[2], plan[3]
        sel = blockers | self.action_bit[name] if name else blockers
        if sel == self.all_actions:
            sel = 0
        urban_a = urban | (self.town_bit[town] if town is not None else 0)
        new_built = built
        for t in ids:
            new_built |= 1 << t
        cap = rounds_left * self.s.engineer_tile_limit
        if any(after) and cap >= self._need0:
            return (after, new_built, loco_after, sel, urban_a), False  # joining the ruins cannot run late yet
        need, _ = self.connect_need(new_built)
        if need > cap:
            return None
        return (after, new_built, loco_after, sel, urban_a), need == 0 and not any(after)

    def togo(self, key: tuple) -> float:
        """How far a position is from the clear, in the beam's money units (a hook)."""
        need, _ = self.connect_need(key[1])
        return 3.5 * need + 2.0 * sum(len(c) for c in key[0])

    def togo_floor(self, key: tuple) -> float:
        """A cheap lower bound on `togo` (a hook): the cubes left, as if the ruins were joined."""
        return 2.0 * sum(len(c) for c in key[0])

    def settle(self, e: Entry, action: tuple, ids: tuple, ships: tuple, gain: int, cost: int,
               loco_after: int) -> list[Entry]:
        """The round's money as the engine counts it (solver/engine/economy.py `settle`), with shares issued
        just in time: the fewest that pay for the action and track, and the fewest that also avoid a shortfall
        at the expenses."""
        s = self.s
        name, target, town = action
        pay = s.action_cost if name else 0
        stunt = s.rapa_nui_cash if name == "rapa-nui" and target is not None else 0
        need = max(pay, pay - stunt + cost)
        k = max(0, -(-(need - e.cash) // s.share_price))
        out = []
        for shares in (k, None):
            if shares is None:  # the shortfall avoided: each share adds its price and costs $1 this round
                end = (e.cash + k * s.share_price - pay + stunt - cost + e.income + gain
                       - expenses(e.shares + k, loco_after))
                if end >= 0 or s.share_price <= 1:
                    break
                shares = k + -(-(-end) // (s.share_price - 1))
            if e.shares + shares > s.max_shares:
                break
            cash = e.cash + shares * s.share_price - pay + stunt - cost
            money = settle(cash, e.income + gain, e.shares + shares, loco_after, s.income_reduction)
            if money.lost(s.income_floor):
                continue
            out.append(Entry(money.cash, money.income, e.shares + shares, e, (shares, name, target, town, ids, ships)))
        return out

    def select(self, nxt: dict[tuple, list[Entry]], rounds_left: int) -> dict[tuple, list[Entry]]:
        """The `width` most promising positions, at most PER_TRACKS of them on the same track: for each
        share weight in turn its share of the width (money first, then shares weighed more).

        A position's score is its money less `togo`; `togo` (a joining plan) is asked only of positions
        that may still make the cut: in the order of money less `togo_floor`, a cheap lower bound, a
        position is taken once no position not yet scored can beat it (ties by arrival order, as a sort)."""
        items = list(nxt.items())
        floor = [self.togo_floor(key) for key, _ in items]
        togo: dict[int, float] = {}
        out: dict[tuple, list[Entry]] = {}
        share = -(-self.width // len(self.share_weights))
        for weight in self.share_weights:
            money = [max(e.cash + (e.income - e.shares - key[2]) * rounds_left - weight * e.shares for e in entries)
                     for key, entries in items]
            order = sorted(range(len(items)), key=lambda n: (floor[n] - money[n], n))
            heap: list[tuple[float, int]] = []
            i, per, taken = 0, {}, 0
            while taken < share and len(out) < self.width:
                while i < len(order) and (not heap or money[order[i]] - floor[order[i]] >= -heap[0][0]):
                    n = order[i]
                    i += 1
                    if n not in togo:
                        togo[n] = self.togo(items[n][0])
                    heapq.heappush(heap, (togo[n] - money[n], n))
                if not heap:
                    break
                n = heapq.heappop(heap)[1]
                key = items[n][0]
                built = key[1]
                if key in out or per.get(built, 0) >= PER_TRACKS:
                    continue
                per[built] = per.get(built, 0) + 1
                out[key] = items[n][1]
                taken += 1
        return out

    def decode(self, e: Entry) -> list[RoundPlan]:
        out = []
        while e.decision is not None:
            k, name, target, town, ids, ships = e.decision
            build = [Urbanize(town, "black")] if town is not None else []
            build += [self.cat.tracks[t].path() for t in ids]
            ship = []
            for st in ships:
                if isinstance(st, tuple):
                    origin, colour, route = st
                    ship.append(Ship(origin, colour, tuple(route)))
                else:
                    ship.append(UpgradeLocomotive() if st == "locomotive" else Pass())
            out.append(RoundPlan(k, name, target, build, ship))
            e = e.parent
        return out[::-1]


def _insert(front: list[Entry], e: Entry, cap: int = 6) -> None:
    """Add to a Pareto front of (cash up, income up, shares down)."""
    for f in front:
        if f.cash >= e.cash and f.income >= e.income and f.shares <= e.shares:
            return
    front[:] = [f for f in front if not (e.cash >= f.cash and e.income >= f.income and e.shares <= f.shares)]
    front.append(e)
    if len(front) > cap:
        front.sort(key=lambda f: -(f.cash + 4 * f.income - 8 * f.shares))
        del front[cap:]


def _bits(mask: int):
    i = 0
    while mask:
        if mask & 1:
            yield i
        mask >>= 1
        i += 1
