"""The cash-flow shares bound: the money a clear by round R must spend against the most money any play can have.

Easter Island only (the Zoo's feeding discount, exits and bonus tiles are not modelled here: "not asked").

The argument that every legal play maps into it. Take any legal play from the position (cash C0, income I0,
S0 shares, locomotive L0, at the start of round r0) that clears at the end of round t <= R, holding S shares
then. Cash changes only at: issuing k shares (+k * price), choosing an action (- its cost; Rapa Nui then
+ rapa_nui_cash), laying track (- its price), and the end of each round (+ income - expenses, expenses =
shares + locomotive; what cannot be paid sets cash to 0 and lowers income). An action and a tile are legal
only with their price in hand, so the cash just before each round's end, X_u, is never negative.
1. Write M_u for the cash after round u's end and m_u = max(0, income_u - expenses_u). Then M_u = max(0, X_u +
   income_u - expenses_u) <= X_u + m_u (both cases, X_u >= 0). Summing from the position: every payment of rounds
   r0..t (track, actions) is at most C0 + price * (S - S0) + (Rapa Nui cash) + m_r0 + ... + m_(t-1), because
   X_t >= 0 (the clear is met at round t's end, after its payments; income of round t comes after them).
2. Track: every clear joins all ruins, so its track covers at least T hexes that are not stops, T the proven
   fewest hexes of any network joining the ruins (`Position.tiles_net`, the bound the counting engine uses;
   only asked from the setup itself, where no track is down). Each such hex was first laid by a LayTile, which
   costs at least its terrain's price (complex extras, upgrades and town fees only add), so track costs at
   least T * p, p the least terrain price of a buildable hex.
3. Income: a shipment is a delivery (income + its links, at most the locomotive, which the shipment search
   enforces), a locomotive step (+1, at most once a round) or a pass; the Locomotive action raises it by 1;
   cubes are only removed, so deliveries are at most the cubes on the board. Income is never higher than
   I0 + the links delivered (reductions and shortfalls only lower it), and expenses are at least S0 + the
   locomotive (shares never fall). The search below takes every sequence of actions (blockers, Rapa Nui's moai
   and affordability ignored: fewer constraints) and shipments (every delivery at the full locomotive) and keeps
   the most of F_t = (net cash of the actions of rounds r0..t) + m_r0 + ... + m_(t-1) for each t.
So T * p <= C0 + price * (S - S0) + F_t, that is S >= S0 + ceil((T * p - C0 - F_t) / price), and a play
clearing by R holds at least the least of these over t = r0..R, or over t from the proven lower bound on the
rounds (`Position.known_bound`: no play clears before it) to R.
"""
from __future__ import annotations

import math

from solver.solo.proofs.base import Position, SharesBound

CASH_FLOW = "cash-flow bound"


def best_surplus(state, last_round: int, strict: bool) -> dict[int, int]:
    """t -> the most F_t (point 3 of the module text) any play from `state` can reach, for t = state.round..last_round."""
    s = state.scenario
    top = s.max_locomotive
    cubes = sum(len(c) for c in state.goods.values())
    options = set() if strict else {(0, 0)}
    for name in s.actions:
        cost = state.ruleset.action_cost(state, name)
        gift = s.rapa_nui_cash if name == "rapa-nui" else 0
        options.add((gift - cost, 1 if name == "locomotive" else 0))
    options = options or {(0, 0)}
    # every order of one round's shipments: "d" delivers, "r" raises the locomotive (once a round), "p" passes
    seqs = [()]
    for _ in range(s.shipments_per_round):
        seqs = [q + (x,) for q in seqs for x in "drp" if not (x == "r" and "r" in q)]
    front: dict[tuple[int, int], list[tuple[int, int]]] = {(state.locomotive, 0): [(state.income, 0)]}
    best: dict[int, int] = {}
    for t in range(state.round, last_round + 1):
        nxt: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for (loco, done), pairs in front.items():
            for net, up in options:
                for seq in seqs:
                    lo, d, gain = min(top, loco + up), done, 0
                    for x in seq:
                        if x == "r":
                            lo = min(top, lo + 1)
                        elif x == "d" and d < cubes:
                            d, gain = d + 1, gain + lo
                    for inc, f in pairs:
                        g = f + net
                        best[t] = max(best.get(t, g), g)
                        inc2 = inc + gain
                        nxt.setdefault((lo, d), []).append((inc2, g + max(0, inc2 - state.shares - lo)))
        front = {k: _pareto(v) for k, v in nxt.items()}
    return best


def _pareto(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The (income, F) pairs no other pair beats in both."""
    out, most = [], None
    for inc, f in sorted(set(pairs), reverse=True):
        if most is None or f > most:
            out.append((inc, f))
            most = f
    return out


class CashFlowShares:
    """Money needed by round R (the least track joining the ruins) against the most money any play can have."""

    name = CASH_FLOW

    def bound(self, position: Position, rounds: int, params):
        state = position.state
        if position.ruleset != "easter-island":
            return SharesBound(self.name, rounds, None, "not asked", ("Easter Island only",))
        if position.start is not None or position.tiles_net is None or state.track or rounds < state.round:
            return SharesBound(self.name, rounds, None, "not asked", ("asked from the setup itself only",))
        s, board = state.scenario, state.board
        tiles = position.tiles_net.lower_bound or 0
        prices = [s.track_cost[board.terrain[h]] for h in board.terrain
                  if board.buildable(h) and board.terrain[h] in s.track_cost]
        price, share = (min(prices) if prices else 0), s.share_price
        need = tiles * price
        if share <= 0 or need <= state.cash:
            return SharesBound(self.name, rounds, state.shares, "proved",
                               (f"the track joining the ruins costs at least ${need}, within the ${state.cash} at hand",))
        strict = bool(getattr(position.rules, "strict_action", False))
        best = best_surplus(state, rounds, strict)
        # rounds below the proven bound on the rounds (Position.known_bound, by the proof engines) clear nothing
        first = max(state.round, position.known_bound)
        surplus = max((f for t, f in best.items() if t >= first), default=0)
        short = need - state.cash - surplus
        lower = state.shares + max(0, math.ceil(short / share))
        reason = (f"by round {rounds} the track joining the ruins costs at least ${need} ({tiles} hexes at ${price} or "
                  f"more), and ${state.cash} at hand plus at most ${surplus} from income above expenses and the "
                  f"actions{' (one paid every round: strict-action=on)' if strict else ''} leave ${max(0, short)} "
                  f"to raise at ${share} a share: at least {lower} shares")
        return SharesBound(self.name, rounds, lower, "proved", (reason,))
