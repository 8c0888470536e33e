"""The counting bound: rounds counted from cubes (or food), tiles, the locomotive and the actions.

Easter Island (`island_rounds_bound`): every cube needs one of the round's shipment steps, and the
tiles of any network joining the ruins (a proven Steiner bound) and of each cube's nearest destination
must be laid at the tiles a round allows. Zoo (`zoo_rounds_bound`): a small exact search over a game
that keeps the counts (shipments, locomotive, Feeding discounts, tiles) and drops the geometry.
Both are relaxations of the game, so no legal play clears before their bound. The engine
`CountingBound` puts them behind the proof-engine interface (solver/solo/proofs/base.py); it is cheap,
so it is asked before the plan search.
"""
from __future__ import annotations

import math

from solver.board.hexgrid import Hex
from solver.board.instance import Instance
from solver.engine.setup import Setup
from solver.engine.state import Rules
from solver.solo.proofs.base import NO_CLEAR, OPEN, Position, Verdict
from solver.solo.zoo_routes import INF

COUNTING = "counting bound"  # the engine's name: the proof source of an answer it settles


class CountingBound:
    """The counting bound of the position's map; at a position reached by a plan prefix, its round."""

    name = COUNTING
    cheap = True

    def prove(self, position: Position, last_round: int, params) -> Verdict:
        lower, reasons = self.bound(position, last_round)
        status = NO_CLEAR if lower is None or lower > last_round else OPEN
        return Verdict(status, self.name, "; ".join(reasons), bound=lower, reasons=tuple(reasons))

    def bound(self, position: Position, last_round: int) -> tuple[int | None, list[str]]:
        """(least rounds, why); None: no number of rounds suffices. Kept per position (the Zoo's per horizon)."""
        state = position.state
        if position.start is not None:
            return state.round, [f"the position is at the start of round {state.round}"]
        key = ("counting", last_round if position.ruleset == "zoo" else None)
        if key not in position.cache:
            inst, goods = position.instance, position.goods
            if position.ruleset == "zoo":
                # the search runs to one round past the question: enough to say "not by last_round"
                position.cache[key] = zoo_rounds_bound(inst, goods, position.rules, position.needs,
                                                       horizon=last_round + 1)
            else:
                # Still a bound with complex tiles: every tile laid covers at most one new hex, and
                # tiles_net counts the hexes of any branching network.
                tiles = (position.tiles_net.lower_bound or 0) if position.tiles_net is not None else 0
                position.cache[key] = island_rounds_bound(inst, goods, tiles)
        lower, reasons = position.cache[key]
        return lower, list(reasons)


# -- Easter Island ----------------------------------------------------------------

def _rounds(n: int) -> str:
    return f"{n} round" + ("" if n == 1 else "s")


def round_capacity(instance: Instance, rounds: int) -> int:
    """Most tiles that can be laid in `rounds` rounds (Engineer at most once per action cycle)."""
    s = instance.scenario
    engineer_rounds = 0
    if "engineer" in s.actions:
        engineer_rounds = math.ceil(rounds / max(1, len(s.actions)))
    return rounds * s.tile_limit + engineer_rounds * (s.engineer_tile_limit - s.tile_limit)


def tile_distances(instance: Instance, source: Hex) -> dict[Hex, int]:
    """Fewest track tiles on any route of links from `source` to each stop (terrain ignored)."""
    from models.network import board_graph
    g, _ = board_graph(instance, unit_cost=True)
    dist = {source: 0}
    heap = [(0, source)]
    import heapq
    while heap:
        d, h = heapq.heappop(heap)
        if d > dist.get(h, 1 << 30):
            continue
        for n in g.neighbors(h):
            nd = d + g.nodes[n]["cost"]
            if nd < dist.get(n, 1 << 30):
                dist[n] = nd
                heapq.heappush(heap, (nd, n))
    return {h: d for h, d in dist.items() if instance.board.is_stop(h)}


def delivery_tiles(instance: Instance, setup: Setup) -> list[int]:
    """For every cube, the fewest tiles any network needs before it can be delivered."""
    board, s = instance.board, instance.scenario
    out = []
    for stop, cubes in setup.items():
        dist = tile_distances(instance, stop)
        for colour in cubes:
            targets = [h for h, c in board.cities.items() if c.colour == colour and h != stop]
            if colour in s.new_cities:
                targets += list(board.towns)  # a new city of that colour could be placed there
            out.append(min((dist[h] for h in targets if h in dist), default=1 << 30))
    return out


def island_rounds_bound(instance: Instance, setup: Setup, tiles_bound: int) -> tuple[int, list[str]]:
    """A proven lower bound on the rounds needed to clear, and why.

    By the end of round r at most cap(r) tiles are down, so only cubes whose
    nearest possible destination is at most cap(r) tiles away can have been
    delivered, and at most 2 per round: D(r) = min(2r, that count). The other
    N - D(r) cubes need ceil((N - D(r)) / 2) more rounds.
    """
    s = instance.scenario
    per_round = s.shipments_per_round
    cubes = sum(len(c) for c in setup.values())
    need = delivery_tiles(instance, setup)
    by_ships, worst_r = math.ceil(cubes / per_round), 0
    for r in range(1, cubes + 1):
        cap = round_capacity(instance, r)
        done = min(per_round * r, sum(1 for t in need if t <= cap))
        bound = r + math.ceil((cubes - done) / per_round)
        if bound > by_ships:
            by_ships, worst_r = bound, r
        if done == cubes:
            break
    by_tiles = next(r for r in range(1, 10_000) if round_capacity(instance, r) >= tiles_bound)
    reasons = [f"{cubes} cubes at {per_round} shipments a round need {_rounds(math.ceil(cubes / per_round))}",
               f"joining all ruins needs at least {tiles_bound} tiles (proven), which takes {_rounds(by_tiles)}"]
    if worst_r:
        cap = round_capacity(instance, worst_r)
        reachable = sum(1 for t in need if t <= cap)
        reasons.append(f"by the end of round {worst_r} at most {cap} tiles are down, so at most "
                       f"{min(per_round * worst_r, reachable)} cubes can be delivered; the rest need "
                       f"{_rounds(by_ships - worst_r)} more: {by_ships} in all")
    return max(1, by_ships, by_tiles), reasons


# -- the Zoo ----------------------------------------------------------------------

def areas_to_feed(instance: Instance) -> list[Hex]:
    """The printed animal areas: every plan must feed them (urbanized areas only add to this)."""
    return sorted(instance.board.cities)


def zoo_rounds_bound(instance: Instance, setup: Setup, rules: Rules, needs,
                     horizon: int = 60) -> tuple[int | None, list[str]]:
    """A proven lower bound on the rounds to feed every animal area (None: never), and why.

    `needs`: solver.solo.zoo.Needs, the least locomotive and tiles over every network the board allows."""
    s = instance.scenario
    areas = areas_to_feed(instance)
    n = len(areas)
    per_round = s.shipments_per_round
    units = sorted(needs.out_of[y] for y, food in setup.items() if y in needs.out_of for _ in food)
    dests = sorted(needs.into[h] for h in areas)

    def count(pairs, level: int, which: int) -> int:
        return sum(1 for p in pairs if p[which] <= level)

    tiles_each = sorted(needs.near[h] for h in areas)

    # Each fed area needs a link of at least near[area] track pieces (one hex each) at it, and a link
    # serves its two ends, so the links hold >= sum(near) / 2 pieces. A simple tile is one piece; a
    # complex tile (Rules.complex_tiles) is two pieces for one tile, so then tiles >= sum(near) / 4.
    ends_per_tile = 2 * (2 if rules.complex_tiles else 1)

    def max_fed_by_tiles(capacity: int) -> int:
        k, total = 0, 0
        for t in tiles_each:
            if t >= INF or math.ceil((total + t) / ends_per_tile) > capacity:
                break
            total += t
            k += 1
        return k

    actions = list(s.actions) + [None]
    has_exits = bool(instance.board.exits)
    simple = math.ceil(n / per_round)
    reasons = [f"{n} animal areas, each fed by its own shipment, at {per_round} shipments a round: "
               f"{simple} round" + ("" if simple == 1 else "s")]
    states: dict[tuple[int, int, int], int] = {(s.start_locomotive, 0, 0): 0}
    for r in range(1, horizon + 1):
        new: dict[tuple[int, int, int], int] = {}
        for (loco, feeding_rounds, cap), fed in states.items():
            for action in actions:
                l1 = loco + 1 if action == "locomotive" and loco < s.max_locomotive else loco
                if action == "locomotive" and loco >= s.max_locomotive:
                    continue
                d1 = feeding_rounds + (1 if action == "feeding" else 0)
                c1 = cap + (s.engineer_tile_limit if action == "engineer" else s.tile_limit) + (
                    1 if (r > 1 and has_exits) else 0)
                for step in (0, 1):
                    l2 = l1 + step
                    if l2 > s.max_locomotive:
                        continue
                    k = fed + per_round - step
                    k = min(k, count(units, l2, 0) + d1, count(units, l2, 1),
                            count(dests, l2, 0) + d1, count(dests, l2, 1), max_fed_by_tiles(c1))
                    k = max(k, fed)
                    key = (l2, d1, c1)
                    if new.get(key, -1) < k:
                        new[key] = k
        # Keep only states no other state beats in every way.
        states = _pareto(new)
        if any(k >= n for k in states.values()):
            if r > simple:
                reasons.append(
                    f"counting food, danger and tiles (each feeding needs a piece of food and an area whose cheapest "
                    f"feeding over any network fits the locomotive, or fits with the Feeding discount once per "
                    f"Feeding round; the locomotive rises by at most 1 by the Locomotive action and 1 by a shipment "
                    f"step; tiles at most {s.engineer_tile_limit} a round with Engineer, {s.tile_limit} otherwise, "
                    f"plus 1 bonus tile a round): at least {r} round" + ("" if r == 1 else "s"))
            return max(r, simple), reasons
    top = s.max_locomotive
    if count(units, top, 1) < n:
        reasons.append(f"only {count(units, top, 1)} piece(s) of food can ever be shipped to an animal area with the "
                       f"largest locomotive {top} (even with the Feeding discount), and {n} areas need feeding")
        return None, reasons
    reasons.append(f"counting food, danger and tiles as above, {horizon} round"
                   + (" is" if horizon == 1 else "s are") + f" not enough: at least {horizon + 1} rounds")
    return horizon + 1, reasons


def _pareto(states: dict[tuple[int, int, int], int]) -> dict[tuple[int, int, int], int]:
    items = sorted(states.items(), key=lambda kv: (-kv[1], -kv[0][0], -kv[0][1], -kv[0][2]))
    kept: list[tuple[tuple[int, int, int], int]] = []
    for key, k in items:
        if any(k2 >= k and all(a >= b for a, b in zip(key2, key)) for key2, k2 in kept):
            continue
        kept.append((key, k))
    return dict(kept)
