"""The cash-flow shares bound: the money a clear by round R must spend, round by round, against the money a
play can have by then.

Easter Island only (the Zoo's feeding discount, exits and bonus tiles are not modelled here: "not asked"),
and only from the setup itself (no track down).

The argument that every legal play maps into it. Fix S, the shares a play holds when it clears. The
relaxed game below runs round by round from the position (cash C0, income I0, S0 shares, locomotive L0,
round r0) with states (locomotive, cubes delivered d, hexes with track h; income, cash):
- all S - S0 shares are issued at the start (their money earlier, never later), expenses are charged as
  S0 + the locomotive (shares never fall: real expenses are at least that);
- an action: any of the map's actions (blockers, Rapa Nui's moai and idle-action limits ignored), or none
  unless strict-action=on; its price needs that cash in hand, as in the rules; Locomotive raises the
  locomotive by 1, Rapa Nui gives its cash after the price, Engineer allows engineer_tile_limit tiles;
- build: b new hexes, b at most the round's tile limit (a tile laid on a fresh hex counts one tile; town
  tracks, upgrades and complex tiles add no fresh hex), each at least p, the least price of a hex track
  can go on (the engine's placement test, solver/engine/placement.py `track_hexes`; extras and town fees
  only add), paid from cash in hand; h is kept at most H (every threshold below is at most H; a play laying
  more only paid more);
- shipments (shipments_per_round): a delivery (income + the locomotive: a route's links are at most the
  locomotive), a locomotive step (at most once a round) or a pass. The (d+1)-th delivery needs h at least
  the (d+1)-th smallest of the cubes' `delivery_tiles` (counting.py: fewest hexes any network needs before
  that cube can be delivered): the d+1 cubes delivered by then include one needing at least that many, and
  its route's hexes all carry track. Cubes leave only by delivery (Rapa Nui turns a moai over), so a clear
  has delivered every cube, and its track joins the ruins: h >= T, the proven fewest hexes of any network
  joining them (`Position.tiles_net`, the counting engine's bound);
- the end of the round: cash + max(0, income - expenses), with the engine's `expenses` (solver/engine/economy.py).
  The real rule is max(0, cash + income - expenses) (the engine's `cover`: what cannot be paid lowers income
  instead), which is never more, as cash is never negative before it; so
  expenses above income are never paid here, and income is never lowered (nor by income reductions). Paying
  them from cash would be wrong: a real play may leave expenses unpaid (its income falls) and issue its shares
  later, keeping money the relaxed play, holding the shares' money from the start, would have paid out
  (the soundness fuzzer's tight board 67 found that).
Every real play with S shares is mirrored step by step (same action, hexes, shipment choices) by a relaxed
play whose income and cash are at least the real ones at every step (by induction: money earlier, expenses
lower, income never lowered, each delivery worth the most it can be), so every step the real play can pay
the relaxed one can pay, and the real clear at round t <= R is a relaxed clear at t. Hence: if no relaxed
play with S shares clears by R (the search below is exhaustive over the relaxed game, keeping per
(locomotive, d, h) only the (income, cash) pairs no other beats in both: more of either never hurts), every
clearing play holds more than S shares. Fewer shares are never better in the relaxed game, so the least S
that clears is found by bisection. Rounds below `Position.known_bound` (proved by the proof engines to clear
nothing) are not counted as clears.
"""
from __future__ import annotations

from solver.solo.proofs.base import Position, SharesBound
from solver.engine.economy import expenses
from solver.engine.placement import track_hexes
from solver.solo.proofs.counting import delivery_tiles
from solver.solo.zoo_routes import INF

CASH_FLOW = "cash-flow bound"


def relaxed_clear(state, shares: int, first: int, last: int, strict: bool, tiles: int, price: int,
                  need: list[int]) -> int | None:
    """The first round in first..last at which a relaxed play (module text) holding `shares` shares clears, or None."""
    s = state.scenario
    top, cubes = s.max_locomotive, len(need)
    cap = max([tiles] + need)
    options = set() if strict else {(0, 0, 0, s.tile_limit)}
    for name in s.actions:
        options.add((state.ruleset.action_cost(state, name), s.rapa_nui_cash if name == "rapa-nui" else 0,
                     1 if name == "locomotive" else 0,
                     s.engineer_tile_limit if name == "engineer" else s.tile_limit))
    seqs = [()]
    for _ in range(s.shipments_per_round):
        seqs = [q + (x,) for q in seqs for x in "drp" if not (x == "r" and "r" in q)]
    cash0 = state.cash + s.share_price * (shares - state.shares)
    front = {(state.locomotive, 0, 0): [(state.income, cash0)]}
    for t in range(state.round, last + 1):
        nxt: dict[tuple[int, int, int], list[tuple[int, int]]] = {}
        for (loco, done, h), pairs in front.items():
            for cost, gift, up, limit in options:
                lo = min(top, loco + up)
                for b in range(0, min(limit, cap - h) + 1):
                    h2 = h + b
                    for seq in seqs:
                        l3, d3, gain, ok = lo, done, 0, True
                        for x in seq:
                            if x == "r":
                                l3 = min(top, l3 + 1)
                            elif x == "d":
                                if d3 >= cubes or h2 < need[d3]:
                                    ok = False
                                    break
                                d3, gain = d3 + 1, gain + l3
                        if not ok:
                            continue
                        out = nxt.setdefault((l3, d3, h2), [])
                        for inc, cash in pairs:
                            c2 = cash - cost
                            if c2 < 0:
                                continue
                            c2 += gift - price * b
                            if c2 < 0:
                                continue
                            if t >= first and d3 == cubes and h2 >= tiles:
                                return t
                            out.append((inc + gain, c2 + max(0, inc + gain - expenses(state.shares, l3))))
        front = {k: _pareto(v) for k, v in nxt.items() if v}
    return None


def _pareto(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The (income, cash) pairs no other pair beats in both."""
    out, most = [], None
    for inc, f in sorted(set(pairs), reverse=True):
        if most is None or f > most:
            out.append((inc, f))
            most = f
    return out


class CashFlowShares:
    """Money for track, actions and expenses round by round against the most money a play can have by then."""

    name = CASH_FLOW

    def bound(self, position: Position, rounds: int, params):
        state = position.state
        if position.ruleset != "easter-island":
            return SharesBound(self.name, rounds, None, "not asked", ("Easter Island only",))
        if position.start is not None or position.tiles_net is None or state.track or rounds < state.round:
            return SharesBound(self.name, rounds, None, "not asked", ("asked from the setup itself only",))
        s, board = state.scenario, state.board
        tiles = position.tiles_net.lower_bound or 0
        prices = [s.track_cost[board.terrain[h]] for h in track_hexes(board, s)]
        price, share = (min(prices) if prices else 0), s.share_price
        if share <= 0:
            return SharesBound(self.name, rounds, None, "not asked", ("shares bring no money",))
        strict = bool(getattr(position.rules, "strict_action", False))
        need = sorted(delivery_tiles(position.instance, position.goods))
        first = max(state.round, position.known_bound)
        if any(n >= INF for n in need):
            return SharesBound(self.name, rounds, None, "not asked", ("a cube no network can deliver",))

        def clears(n: int) -> bool:
            return relaxed_clear(state, n, first, rounds, strict, tiles, price, need) is not None

        if clears(state.shares):  # the usual case where money is not tight: one search
            return SharesBound(self.name, rounds, state.shares, "proved",
                               ("a play with no share issued passes the round-by-round money test",))
        low, high = state.shares + 1, s.max_shares
        if not clears(high):
            return SharesBound(self.name, rounds, high + 1, "no clear",
                               (f"even with all {high} shares the money for track, actions and expenses round by round "
                                f"does not reach a clear by round {rounds}",))
        while low < high:  # the least share count whose relaxed game clears (more shares never hurt)
            mid = (low + high) // 2
            if clears(mid):
                high = mid
            else:
                low = mid + 1
        lower = low
        hexes = f"{tiles} hex" + ("" if tiles == 1 else "es")
        reason = (f"round by round to round {rounds}, the track joining the ruins ({hexes} at ${price} or more, "
                  f"laid at most a round's tiles at a time, ahead of the deliveries that need it), the actions"
                  f"{' (one paid every round: strict-action=on)' if strict else ''} and the expenses cannot be paid "
                  f"from ${state.cash} at hand and the most income the locomotive allows with fewer than {lower} "
                  f"shares at ${share}: at least {lower} shares")
        return SharesBound(self.name, rounds, lower, "proved", (reason,))
