"""Small pieces of English every report shares: plurals, money, cube lists, readable error text."""
from __future__ import annotations

import re


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 link', '2 links' ('many': an irregular plural)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def ordinal(index: int) -> str:
    """0 -> 'first', 1 -> 'second', ... (a 0-based index said as a player counts)."""
    words = ("first", "second", "third", "fourth", "fifth", "sixth")
    return words[index] if 0 <= index < len(words) else f"no. {index + 1}"


def money(amount: int | None) -> str:
    if amount is None:
        return "$?"
    return f"-${-amount}" if amount < 0 else f"${amount}"


def cubes_left(board, goods: dict) -> str:
    """{"A1": ["red", "blue"]} -> 'Red 1 (A1): red/blue (bottom first); ...' or 'none'."""
    from solver.board.hexgrid import Hex
    parts = [f"{board.label(Hex.parse(h))}: {'/'.join(c)}" for h, c in goods.items() if c]
    return "; ".join(parts) if parts else "none"


_LIST = re.compile(r"\[((?:'[^'\n]*'(?:, )?)+)\]")
_QUOTED = re.compile(r"(?<![\w])'([^'\n]*)'(?![\w])")


def readable(message: str) -> str:
    """An error message as a person reads it: Python lists and quotes of values become plain quotes.

    "unknown cube colour(s) ['green']" -> 'unknown cube colour(s) "green"'; "no player 'engineer'"
    -> 'no player "engineer"'. Apostrophes inside words (Lee's Summit) are left alone."""
    def items(m) -> str:
        return ", ".join(f'"{x}"' for x in re.findall(r"'([^'\n]*)'", m.group(1)))
    message = re.sub(r"\bgot " + _LIST.pattern, lambda m: "got a list: " + items(m), message)
    message = _LIST.sub(items, message)
    return _QUOTED.sub(r'"\1"', message)
