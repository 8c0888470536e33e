"""The truth about a tiny solo game, by exhaustive search over the rules engine alone.

The soundness fuzzer (tests/test_soundness_fuzz.py, benchmarks/soundness.py) checks every claim of the
solvers against this: it uses nothing but `GameState.legal_actions`, `child` and `is_terminal`, so it
shares no bound, model or heuristic with what it checks. It imports only the engine.

The search is a breadth-first walk round by round. Its one pruning is memoisation on the whole state
(`state_key`): two states with equal keys have equal futures, because the key holds every field the
rules read (goods, track, money, action, blockers, phase counters, bonus tiles, fed areas, open-end
rounds and orphaned ends). The fields left out only describe the past (`accounts`, the money spent
on track) or are caches (`_links`, `_pairs`). Rounds are explored in order, and a state that clears
is returned as soon as it is made, so the first clear found is the earliest round anything clears in.

`fewest_shares=True` also gives the fewest shares any play clearing in that earliest round ends with:
the rest of that round is walked to the end (every state of the round's frontier and every state they
lead to within the round), the fewest shares over every clearing state kept. Shares are part of the
key, so memoisation never merges states of different shares. One pruning: shares are never bought
back, so a state holding at least the fewest shares of a clear already found is not expanded (nothing
it leads to has fewer).
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.engine.state import GameState

_SKIP = {"instance", "rules", "accounts", "spent_on_track", "_links", "_pairs", "round_limit"}


def state_key(s: GameState) -> tuple:
    """Every field of the state the rules can read, as a hashable value."""
    out = []
    for name, value in sorted(vars(s).items()):
        if name in _SKIP:
            continue
        if isinstance(value, dict):
            value = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in value.items()))
        elif isinstance(value, (set, frozenset)):
            value = tuple(sorted(value, key=repr))
        elif isinstance(value, list):
            value = tuple(value)
        out.append((name, value))
    return tuple(out)


@dataclass
class Truth:
    earliest: int | None      # the earliest round any legal play clears in (None: none by the limit)
    settled: bool             # False: the node budget ran out first (no truth)
    nodes: int
    fewest_shares: int | None = None   # fewest shares at a clear in round `earliest` (asked with fewest_shares)
    shares_settled: bool = False       # the whole earliest round was walked within the node budget


def earliest_clear(state: GameState, max_nodes: int = 200_000, fewest_shares: bool = False) -> Truth:
    """The earliest clearing round from `state` (a state at the start of a round), within its round limit;
    `fewest_shares`: and the fewest shares a play clearing in that round ends with."""
    frontier = {state_key(state): state}
    nodes = 0
    while frontier:
        seen: set = set()
        nxt: dict = {}
        stack = list(frontier.values())
        found: Truth | None = None
        while stack:
            s = stack.pop()
            if found is not None and s.shares >= found.fewest_shares:
                continue  # shares never fall: nothing from here clears with fewer
            for move in s.legal_actions():
                c = s.child(move)
                nodes += 1
                if nodes > max_nodes:
                    if found is not None:
                        found.nodes = nodes
                        return found  # the earliest round is settled, its fewest shares not
                    return Truth(None, False, nodes)
                if c.cleared_round is not None:
                    if not fewest_shares:
                        return Truth(c.cleared_round, True, nodes)
                    if found is None or c.shares < found.fewest_shares:
                        found = Truth(c.cleared_round, True, nodes, c.shares)
                    continue
                if found is not None and c.shares >= found.fewest_shares:
                    continue
                if c.is_terminal():
                    continue
                k = state_key(c)
                if c.phase == "shares":
                    nxt.setdefault(k, c)
                elif k not in seen:
                    seen.add(k)
                    stack.append(c)
        if found is not None:
            found.nodes, found.shares_settled = nodes, True
            return found
        frontier = nxt
    return Truth(None, True, nodes)
