"""Track tile geometry: which pairs of tracks make a real complex tile, and what they cost.

The base rules (../shared/rules/age-of-steam-base.md) say: "Simple tiles carry
one track (straight, gentle curve, sharp curve); complex tiles carry two
(crossing, or two non-crossing tracks)" and "Complex tile: +$1 (non-crossing
pair) or +$2 (crossing) ... Upgrading a simple tile to a crossing: $3".
They do not list the physical tile set, so this module assumes:

* a track joins two of the six sides; the sides' distance around the hex
  names its shape (1 sharp curve, 2 gentle curve, 3 straight);
* the two tracks of a complex tile use four different sides (no tile has two
  tracks sharing a side: that would be a junction, which only town tiles are);
* a **crossing** is two straight tracks crossing (the "X" tile); two tracks
  whose ends interleave but are not both straight are refused as "not a tile";
* a **non-crossing pair** is any two tracks whose ends do not interleave
  (two sharp curves, a straight and a sharp curve, a gentle and a sharp curve,
  two gentle curves), all assumed to exist in the tile set;
* an upgrade turns a simple straight into a crossing (the only upgrade the
  base rules price); adding a non-crossing second track to a laid tile is refused.

The dollar amounts and whether an upgrade counts toward the tiles a turn are
read from the board file's `[map_rules]` (with provenance), keys in `COST_KEYS`.
"""
from __future__ import annotations

from solver.board.hexgrid import Hex

SHAPES = {1: "sharp curve", 2: "gentle curve", 3: "straight"}
COST_KEYS = ("complex_crossing_extra", "complex_noncrossing_extra", "upgrade_to_crossing_cost",
             "upgrade_counts_as_tile")
BASE_RULE = "age-of-steam-base.md: 'Complex tile: +$1 (non-crossing pair) or +$2 (crossing) ... Upgrading a simple tile to a crossing: $3'"


def side_index(h: Hex, side: Hex) -> int:
    """0..5 around the hex (E, NE, NW, W, SW, SE); the neighbour must be next to h."""
    return h.neighbours().index(side)


def shape(h: Hex, a: Hex, b: Hex) -> str:
    """The simple track joining sides a and b of h: sharp curve, gentle curve or straight."""
    d = abs(side_index(h, a) - side_index(h, b))
    return SHAPES[min(d, 6 - d)]


def crosses(h: Hex, first: tuple[Hex, Hex], second: tuple[Hex, Hex]) -> bool:
    """Do the two tracks' ends interleave around the hex (so the tracks cross)?"""
    a, b = sorted(side_index(h, s) for s in first)
    c, d = (side_index(h, s) for s in second)
    return (a < c < b) != (a < d < b)


def complex_kind(h: Hex, first: tuple[Hex, Hex], second: tuple[Hex, Hex],
                 tile_set: str = "assumed") -> tuple[str | None, str]:
    """('crossing' | 'non-crossing', '') for a real complex tile, else (None, the rule it breaks).

    `tile_set` (reading complex-tile-set): "assumed", the set above (a crossing is two straights), or "any":
    any two tracks on four different sides are a tile, a crossing when their ends interleave."""
    if set(first) & set(second):
        return None, ("the two tracks of a complex tile use four different sides "
                      f"(both use the side toward {', '.join(str(s) for s in sorted(set(first) & set(second)))})")
    if crosses(h, first, second):
        if tile_set == "any" or shape(h, *first) == shape(h, *second) == "straight":
            return "crossing", ""
        return None, (f"not a tile: a {shape(h, *first)} crossing a {shape(h, *second)}; a crossing is two straight "
                      "tracks crossing (assumed tile set, solver/engine/track_tiles.py)")
    return "non-crossing", ""


def complex_rules(state) -> dict | None:
    """The board file's complex-tile numbers, or None when it gives none."""
    rules = state.instance.map_rules
    if not all(k in rules for k in COST_KEYS):
        return None
    return {k: rules[k] for k in COST_KEYS}


def tile_set_of(state) -> str:
    """The reading complex-tile-set of a game state ("assumed" unless the rules say otherwise)."""
    return getattr(state.rules, "complex_tile_set", "assumed")
