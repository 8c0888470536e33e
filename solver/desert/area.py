"""The play area: the tiles and pawns placed so far, and where a tile may go next.

Shared by the referee (:mod:`solver.desert.layout`), the networks
(:mod:`solver.desert.network`) and the scorer (:mod:`solver.desert.scoring`); it
imports none of them, so they import it without a cycle.
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.desert.ruleset import Ruleset
from solver.desert.tiles import DESERT, DIR_WORDS, EMPTY, DIRS, STAR, Tile, TileSet, neighbour, opposite

Cell = tuple[int, int]


# ----------------------------------------------------------------------------- the play area
@dataclass
class Placed:
    tile: Tile  # oriented
    round: int
    seq: int  # 0 for the start tile, then 1, 2, ... in placement order


@dataclass
class Pawn:
    cell: Cell
    pinpoint: int
    kind: str
    token: str
    round: int
    points: int = 0


class PlayArea:
    def __init__(self, tileset: TileSet, ruleset: Ruleset):
        self.tileset = tileset
        self.ruleset = ruleset
        self.grid: dict[Cell, Placed] = {}
        self.pawns: list[Pawn] = []
        self.used_pins: set[tuple[Cell, int]] = set()
        self.has_desert = False
        self.seq = 0

    def copy(self) -> "PlayArea":
        new = PlayArea(self.tileset, self.ruleset)
        new.grid = dict(self.grid)
        new.pawns = list(self.pawns)
        new.used_pins = set(self.used_pins)
        new.has_desert = self.has_desert
        new.seq = self.seq
        return new

    # -- tiles -------------------------------------------------------------
    def placement_problem(self, tile: Tile, cell: Cell) -> str | None:
        """Why ``tile`` (oriented) may not go on ``cell`` now; None when it may."""
        if cell in self.grid:
            return f"cell {cell} already holds {self.grid[cell].tile.id}"
        if not self.grid:
            return None
        touching = []
        for d in DIRS:
            other = self.grid.get(neighbour(cell, d))
            if other is None:
                continue
            touching.append((d, other))
            mine, theirs = tile.sides[d], other.tile.sides[opposite(d)]
            if not self.ruleset.matches(mine, theirs):
                return (
                    f"its {DIR_WORDS[d]} side ({mine}) touches the {DIR_WORDS[opposite(d)]} side ({theirs}) "
                    f"of {other.tile.id} at {neighbour(cell, d)}; touching sides must match "
                    f"[ruleset side_matches, empty_may_touch_route {'yes' if self.ruleset['empty_may_touch_route'] else 'no'}]"
                )
        if not touching and self.ruleset["must_touch_play_area"]:
            return "it touches no tile of the play area [ruleset must_touch_play_area]"
        first_desert = tile.kind == DESERT and not self.has_desert
        if not first_desert and self.has_desert:
            route_side = self.ruleset["same_kind_contact"] == "route-side"  # reading same-kind-contact
            if not any(o.tile.kind == tile.kind and (not route_side or (tile.sides[d] != EMPTY and
                                                                          o.tile.sides[opposite(d)] != EMPTY))
                       for d, o in touching):
                if route_side:
                    return (f"it is a {tile.kind} tile with no route side touching a route side of a {tile.kind} "
                            "tile; after the first Desert tile, 'All following tiles (Core Game tile or Desert "
                            "tile) must have at least 1 side connected to a tile of the same kind.' [reading "
                            "same-kind-contact = route-side]")
                return (
                    f"it is a {tile.kind} tile with no side touching a {tile.kind} tile; after the first "
                    "Desert tile, 'All following tiles (Core Game tile or Desert tile) must have at least 1 "
                    "side connected to a tile of the same kind.' [ruleset same_kind_rule]"
                )
        return None

    def place(self, tile: Tile, cell: Cell, round_no: int) -> None:
        self.grid[cell] = Placed(tile, round_no, self.seq)
        self.seq += 1
        if tile.kind == DESERT:
            self.has_desert = True

    def legal_spots(self, tile_type: Tile) -> list[tuple[Cell, Tile]]:
        """Every (cell, oriented tile) where the tile type may go now."""
        out = []
        for cell in self.frontier():
            for ot in tile_type.distinct_rotations:
                if self.placement_problem(ot, cell) is None:
                    out.append((cell, ot))
        return out

    def frontier(self) -> list[Cell]:
        cells = set()
        for c in self.grid:
            for d in DIRS:
                nb = neighbour(c, d)
                if nb not in self.grid:
                    cells.add(nb)
        return sorted(cells)

    # -- pawns -------------------------------------------------------------
    def free_pinpoints(self, kind: str) -> list[tuple[Cell, int]]:
        out = []
        for cell, placed in self.grid.items():
            for i, p in enumerate(placed.tile.pinpoints):
                if p.pawn == kind and (cell, i) not in self.used_pins:
                    out.append((cell, i))
        return out

    def camels(self) -> int:
        return sum(1 for p in self.pawns if p.kind == "camel")

    def bounds(self) -> tuple[int, int, int, int]:
        xs = [c[0] for c in self.grid]
        ys = [c[1] for c in self.grid]
        return min(xs), min(ys), max(xs), max(ys)


def token_allows(token: str, kind: str, ruleset: Ruleset) -> bool:
    if token == kind:
        return True
    if token == STAR:
        if kind == "camel":
            return ruleset["star_any_pawn"]
        if kind == "train":
            return ruleset["star_places_train"]
        return True
    return False
