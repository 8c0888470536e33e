"""Hex geometry for printed boards.

Boards are pointy-top hexes in "odd-r" offset rows: every odd row (2nd, 4th,
... counting from 1 at the top) is shifted half a hex to the right, which is
how a text picture of a board is naturally typed. A hex is named like a chess
square: column letter(s) then row number, "C4" = third column, fourth row.
"""
from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import NamedTuple

_NAME = re.compile(r"^([A-Z]{1,2})([1-9][0-9]*)$")


class Hex(NamedTuple):
    col: int  # 0-based
    row: int  # 0-based

    @classmethod
    def parse(cls, name: str) -> "Hex":
        return _parse(cls, name) if isinstance(name, str) else _parse_uncached(cls, name)

    @classmethod
    def _parse_text(cls, name) -> "Hex":
        m = _NAME.match(name.strip().upper()) if isinstance(name, str) else None
        if not m:
            raise ValueError(f"{name!r} is not a hex name (expected a column letter and a row number, like 'C4')")
        letters, number = m.groups()
        col = 0
        for ch in letters:
            col = col * 26 + (ord(ch) - ord("A") + 1)
        return cls(col - 1, int(number) - 1)

    @property
    def name(self) -> str:
        return _name(self)

    def _name_uncached(self) -> str:
        n, letters = self.col + 1, ""
        while n:
            n, rem = divmod(n - 1, 26)
            letters = chr(ord("A") + rem) + letters
        return f"{letters}{self.row + 1}"

    def __str__(self) -> str:  # noqa: D105
        return self.name

    def neighbours(self) -> list["Hex"]:
        """The six hexes sharing a side, in the order E, NE, NW, W, SW, SE."""
        return list(_neighbours(self))

    def is_neighbour(self, other: "Hex") -> bool:
        return other in self.neighbours()

    def centre(self, size: float = 1.0) -> tuple[float, float]:
        """Pixel centre of the hex (y grows downwards), for drawing."""
        x = size * math.sqrt(3) * (self.col + 0.5 * (self.row % 2))
        y = size * 1.5 * self.row
        return x, y

    def distance(self, other: "Hex") -> int:
        a, b = self._cube(), other._cube()
        return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))

    def _cube(self) -> tuple[int, int, int]:
        q = self.col - (self.row - (self.row & 1)) // 2
        r = self.row
        return q, r, -q - r


@lru_cache(maxsize=None)
def _parse(cls, name: str) -> Hex:
    return cls._parse_text(name)


def _parse_uncached(cls, name) -> Hex:
    return cls._parse_text(name)


@lru_cache(maxsize=None)
def _name(h: Hex) -> str:
    return h._name_uncached()


@lru_cache(maxsize=None)
def _neighbours(h: Hex) -> tuple[Hex, ...]:
    return tuple(Hex(h.col + dc, h.row + dr) for dc, dr in _OFFSETS[h.row % 2])


_OFFSETS = {
    0: [(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)],
    1: [(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)],
}


def hexside(a: Hex, b: Hex) -> frozenset[Hex]:
    """A hexside is named by the two hexes it separates."""
    return frozenset((a, b))


def corners(h: Hex, size: float = 1.0, shrink: float = 1.0) -> list[tuple[float, float]]:
    """Corner points of the hex; `shrink` < 1 draws a smaller hex on the same centre."""
    cx, cy = h.centre(size)
    r = size * shrink
    return [(cx + r * math.cos(math.radians(60 * i - 30)), cy + r * math.sin(math.radians(60 * i - 30)))
            for i in range(6)]


def side_segment(a: Hex, b: Hex, size: float = 1.0) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corner points of the side between neighbours a and b."""
    ax, ay = a.centre(size)
    bx, by = b.centre(size)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    # The side is perpendicular to the centre line, half a hex edge each way.
    px, py = -dy / length * size / 2, dx / length * size / 2
    return (mx + px, my + py), (mx - px, my - py)
