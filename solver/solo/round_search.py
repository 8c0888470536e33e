"""Beam search over whole rounds on the rules engine, shared by the solo solvers.

A node is a game state at the start of a round plus the rounds that led
there. A map's planner says which rounds to try (`successors`), how promising
a state is (`score`) and when two states are the same (`signature`); this
module plays the rounds on the engine, keeps the best states, and stops at
the first round in which some state is cleared. Plans it returns are still
replayed by the referee before anyone reports them.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

from solver import interrupt
from solver.board.errors import InputError
from solver.board.hexgrid import Hex
from solver.engine.moves import Pass
from solver.engine.plan import RoundPlan, round_moves
from solver.engine.state import GameState, IllegalMove


@dataclass
class Node:
    state: GameState
    rounds: list[RoundPlan]


def widths(largest: int) -> list[int]:
    """Beam widths to try in turn: 2, 6, 18, ... up to `largest`."""
    out, w = [], 2
    while w < largest:
        out.append(w)
        w *= 3
    return out + [largest]


class RoundPlanner:
    def __init__(self, instance, setup, rules, links: list[tuple[Hex, ...]], required: int, beam_width: int,
                 deadline: float):
        self.instance, self.setup, self.rules = instance, setup, rules
        self.s = instance.scenario
        self.links = list(links)      # the target network's links, then optional shortcuts
        self.required = required      # how many of them the clear condition needs
        self.beam_width = beam_width
        self.deadline = deadline
        self.limit = instance.scenario.rounds
        self.explored = 0
        self.partial: Node | None = None  # the best kept node of the deepest round reached (when none clears)
        self.work_limit: int | None = None  # deterministic mode: stop after this many round plans, not at a clock
        self._moves: dict[tuple, list] = {}

    def out_of_time(self) -> bool:
        """The clock (default) or, in deterministic mode, the number of round plans tried; and the wall-clock cap."""
        if interrupt.past_cap():
            return True
        if self.work_limit is not None:
            return self.explored >= self.work_limit
        return time.monotonic() > self.deadline

    # -- what a map's planner provides -----------------------------------------------
    def successors(self, node: Node) -> list[Node]:
        raise NotImplementedError

    def score(self, state: GameState) -> float:
        raise NotImplementedError

    def signature(self, state: GameState) -> tuple:
        raise NotImplementedError

    def keep(self, node: Node, max_rounds: int) -> bool:
        """May this state still clear in time? (default: yes)"""
        return True

    # -- building along the target network -------------------------------------------
    def progress(self, state: GameState) -> list[int]:
        """Track hexes of each target link built so far, counted from its first end."""
        out = []
        for link in self.links:
            n = 0
            for prev, h in zip(link, link[1:-1]):
                # The link's own track must run through h (a hex may carry a second track: complex tiles).
                if state.track_from(h, prev) is not None:
                    n += 1
                else:
                    break
            out.append(n)
        return out

    def tiles_left(self, state: GameState) -> int:
        """Tiles still missing from the links the clear condition needs."""
        return sum(len(link) - 2 - p for link, p in zip(self.links[:self.required], self.progress(state)))

    # -- playing rounds on the engine ------------------------------------------------
    def play(self, state: GameState, rnd: RoundPlan, until_ship: bool = False) -> GameState | None:
        """Play one round on a copy; None if the engine refuses any step."""
        probe = state.clone()
        key = (probe.round, rnd.shares, rnd.action, rnd.target, tuple(rnd.build), tuple(rnd.ship))
        try:
            moves = self._moves.get(key)
            if moves is None:
                moves = self._moves[key] = [step.move for step in round_moves(rnd, probe.round)]
            for move in moves:
                probe.apply(move)
                if until_ship and probe.phase == "ship":
                    return probe
            while probe.phase == "ship":
                probe.apply(Pass())
        except (IllegalMove, ValueError, InputError):
            return None
        return probe

    def with_shares(self, state: GameState, rnd: RoundPlan) -> tuple[RoundPlan, GameState] | None:
        """The round with the fewest shares that pay for its action and tiles, and the state when shipping starts.

        The round is played once with unlimited cash. Shares are issued first and
        cash then only falls, except an action's own gain (Rapa Nui), which comes
        after its cost is paid: so the shares must cover the action's cost, and
        the whole spend net of that gain.
        """
        rich = state.clone()
        rich.cash = 10 ** 6
        probe = self.play(rich, rnd, until_ship=True)
        if probe is None:
            return None
        spent = 10 ** 6 - probe.cash
        action_cost = self.s.action_cost if rnd.action else 0
        need = max(action_cost, spent)
        shares = max(0, math.ceil((need - state.cash) / self.s.share_price))
        if state.shares + shares > self.s.max_shares:
            return None
        probe.cash = state.cash + shares * self.s.share_price - spent
        probe.shares = state.shares + shares
        return RoundPlan(shares, rnd.action, rnd.target, rnd.build, []), probe

    def ship_variants(self, node: Node, rnd: RoundPlan, base: GameState, firsts: int, seconds: int) -> list[Node]:
        """The round's build followed by the best pairs of shipment steps.

        A round that cannot pay its expenses is played with enough extra shares
        issued up front instead (each adds $1 to the expenses): losing income
        to a shortfall is never the better choice for clearing.
        """
        results = []
        for first in self.ship_choices(base)[:firsts]:
            s1 = base.clone()
            s1.apply(first)
            second_moves = self.ship_choices(s1)[:seconds] if s1.phase == "ship" else [None]
            for second in second_moves:
                done = s1.clone()
                if second is not None:
                    done.apply(second)
                while done.phase == "ship":
                    done.apply(Pass())
                entries = [first] + ([second] if second is not None else [])
                full = RoundPlan(rnd.shares, rnd.action, rnd.target, rnd.build, entries)
                self.explored += 1
                if done.accounts.get("shortfall"):
                    extra = math.ceil(done.accounts["shortfall"] / (self.s.share_price - 1))
                    if node.state.shares + full.shares + extra <= self.s.max_shares:
                        richer = RoundPlan(full.shares + extra, full.action, full.target, full.build, entries)
                        replayed = self.play(node.state, richer)
                        if replayed is not None:
                            full, done = richer, replayed
                results.append(Node(done, node.rounds + [full]))
        return results

    def ship_choices(self, state: GameState) -> list:
        raise NotImplementedError

    # -- the beam --------------------------------------------------------------------
    def run(self, max_rounds: int, start: Node | None = None) -> Node | None:
        """The first round in which some kept state clears: the cleared state with fewest shares, most cash.

        `start`: play on from this state (at the start of a round) and the rounds that led to it.
        """
        self.limit = max_rounds
        # The state's own round track must not end the game before max_rounds (--rounds above the board's).
        if start is None:
            start = Node(GameState.new(self.instance, self.setup, self.rules,
                                       round_limit=max(max_rounds, self.instance.scenario.rounds)), [])
        beam = [Node(start.state.clone(), list(start.rounds))]
        for _ in range(max(0, max_rounds - start.state.round + 1)):
            children: dict[tuple, Node] = {}
            for node in beam:
                for child in self.successors(node):
                    if child.state.lost:
                        continue
                    children.setdefault(self.signature(child.state), child)
                if self.out_of_time():
                    break
            cleared = [c for c in children.values() if c.state.cleared_round is not None]
            if cleared:
                return min(cleared, key=lambda c: (c.state.shares, -c.state.cash))
            live = [c for c in children.values() if not c.state.is_terminal() and self.keep(c, max_rounds)]
            if not live or self.out_of_time():
                return None
            live.sort(key=lambda c: self.score(c.state))
            beam = live[: self.beam_width]
            self.partial = beam[0]
        return None
