"""The placement-token stack as a game record shows it: is there an order of the stack
that explains every round's active tokens and pawns?

The rules (ruleset ``placement_tokens`` with the sheet's ``desert_token_swap``,
``tokens_revealed_per_round``, ``active_area_size``): the 12 tokens are shuffled into a
stack; each round reveals the next one and the revealed ones slide along the active
area, which keeps the last ``active_area_size``.  So round r's active area is the
window ``s[max(0, r - w):r]`` of ONE reveal order ``s`` of the stack, the window of
round r + 1 is the same window slid on by one token, and a round's pawns use distinct
tokens of its window.

:func:`first_inconsistent_round` searches for such an order (exactly: a depth-first
search over the reveal order, memoised on the window's tail and the tokens left), round
by round, and names the first round whose record no order explains.  A record with 17
star placements fails at once: only 3 star tokens exist, each active for at most 3
rounds, so at most 9 star placements fit any order.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache


def first_inconsistent_round(
    stack: list[str], window: int, listed: list[list[str] | None], used: list[list[str]]
) -> int | None:
    """The first round (1-based) whose listed active tokens (``listed[r]``, None when the
    record does not list them) and pawn tokens (``used[r]``) no reveal order of ``stack``
    explains together with the rounds before it; None when an order explains them all."""
    for r in range(1, len(listed) + 1):
        if not explained(stack, window, listed[:r], used[:r]):
            return r
    return None


def explained(stack: list[str], window: int, listed: list[list[str] | None], used: list[list[str]]) -> bool:
    """Is there a reveal order of ``stack`` whose windows hold every listed round's tokens
    (exactly when the list is as long as the window, else as a part of it: a tiles file may
    name only the tokens it means to use, or none) and every round's pawn tokens (a
    multiset inside the window)?"""
    kinds = tuple(sorted(set(stack)))
    counts = Counter(stack)
    want = [None if t is None else Counter(t) for t in listed]
    need = [Counter(u) for u in used]
    n = len(listed)
    if n > len(stack):
        return False

    @lru_cache(maxsize=None)
    def go(r: int, tail: tuple[str, ...], left: tuple[int, ...]) -> bool:
        # rounds 0..r-1 are explained; ``tail`` holds the last window - 1 revealed tokens
        if r == n:
            return True
        for i, k in enumerate(kinds):
            if left[i] == 0:
                continue
            win = tail + (k,)
            have = Counter(win)
            if want[r] is not None:
                # a full list is the window itself; a shorter one, the tokens the record names (a part of it)
                if sum(want[r].values()) >= len(win) and have != want[r]:
                    continue
                if any(have[t] < c for t, c in want[r].items()):
                    continue
            if any(have[t] < c for t, c in need[r].items()):
                continue
            nxt = win[len(win) - (window - 1):] if window > 1 else ()
            if go(r + 1, nxt, left[:i] + (left[i] - 1,) + left[i + 1:]):
                return True
        return False

    return go(0, (), tuple(counts[k] for k in kinds))


def why(stack: list[str], window: int, listed: list[list[str] | None], used: list[list[str]], r: int) -> str:
    """A short reason why round ``r`` (1-based) cannot follow the rounds before it."""
    counts = Counter(stack)
    stack_text = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    tokens, pawns = listed[r - 1], Counter(used[r - 1])
    for k, c in pawns.items():
        if c > counts.get(k, 0):
            return f"{c} pawns placed with {k} tokens, but the stack holds {counts.get(k, 0)} {k} tokens ({stack_text})"
    total = Counter(t for u in used[:r] for t in u)
    for k, c in total.items():
        most = counts.get(k, 0) * window
        if c > most:
            return (f"{c} pawns placed with {k} tokens by round {r}, but the stack holds {counts.get(k, 0)} {k} "
                    f"tokens, each active for at most {window} rounds (at most {most} placements)")
    prev = listed[r - 2] if r >= 2 else None
    if tokens is not None and prev is not None and len(tokens) == min(r, window) and len(prev) == min(r - 1, window):
        added = Counter(tokens) - Counter(prev)
        dropped = Counter(prev) - Counter(tokens)
        if sum(added.values()) > 1 or sum(dropped.values()) > (1 if len(prev) >= window else 0):
            return (f"active tokens {', '.join(tokens)} do not slide on from round {r - 1}'s {', '.join(prev)}: one token is revealed a "
                    f"round{' and the oldest leaves' if len(prev) >= window else ''}")
    return (f"no order of the {len(stack)} tokens ({stack_text}) reveals, one a round into a {window}-slot active "
            f"area, tokens that hold rounds 1..{r}'s listed tokens and pawns")
