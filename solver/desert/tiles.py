"""Route tiles: four sides, the routes drawn inside, pinpoints, landmarks, city icons.

A tile is stored in its catalogue orientation (rotation 0).  Sides are indexed
by direction: 0 = north, 1 = east, 2 = south, 3 = west.  A rotation is a number
of quarter turns clockwise: what was on side ``d`` ends on side ``(d + r) % 4``.
Coordinates of the play area are (x, y) with x growing east and y growing south.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

RAILROAD = "railroad"
HIGHWAY = "highway"
TRAIL = "desert-trail"
EMPTY = "empty"
SIDE_KINDS = (RAILROAD, HIGHWAY, TRAIL, EMPTY)
ROUTE_KINDS = (RAILROAD, HIGHWAY, TRAIL)
SHORT = {RAILROAD: "R", HIGHWAY: "H", TRAIL: "T", EMPTY: "."}

CORE = "core"
DESERT = "desert"
TILE_KINDS = (CORE, DESERT)

PAWN_KINDS = ("car", "train", "traveler", "camel")
STAR = "star"

DIRS = (0, 1, 2, 3)
DIR_NAMES = ("N", "E", "S", "W")
DIR_WORDS = ("north", "east", "south", "west")
DELTA = ((0, -1), (1, 0), (0, 1), (-1, 0))


def opposite(d: int) -> int:
    return (d + 2) % 4


def neighbour(cell: tuple[int, int], d: int) -> tuple[int, int]:
    return (cell[0] + DELTA[d][0], cell[1] + DELTA[d][1])


def orthogonal_groups(cells: set[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Split cells into groups joined side to side (city groups, the Lost World's landmarks)."""
    groups, seen = [], set()
    for c in sorted(cells):
        if c in seen:
            continue
        todo, group = [c], []
        seen.add(c)
        while todo:
            cur = todo.pop()
            group.append(cur)
            for d in DIRS:
                nb = neighbour(cur, d)
                if nb in cells and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        groups.append(sorted(group))
    return groups


@dataclass(frozen=True)
class Route:
    """One connected drawing inside a tile: the sides it reaches, and whether a
    station joins railroad and highway on it."""

    sides: frozenset[int]
    station: bool = False

    def rotated(self, r: int) -> "Route":
        return Route(frozenset((d + r) % 4 for d in self.sides), self.station)

    @property
    def rep(self) -> int:
        """The side that stands for this route in networks (its lowest side)."""
        return min(self.sides)


@dataclass(frozen=True)
class Pinpoint:
    pawn: str
    route: int  # index into the tile's routes


@dataclass(frozen=True)
class Landmark:
    type: str
    route: int


@dataclass(frozen=True)
class Tile:
    """A tile type in one orientation; ``rotation`` says which."""

    id: str
    kind: str
    sides: tuple[str, str, str, str]
    routes: tuple[Route, ...]
    pinpoints: tuple[Pinpoint, ...] = ()
    landmarks: tuple[Landmark, ...] = ()
    cities: int = 0
    count: int = 1
    rotation: int = 0
    name: str = ""
    objective: str = ""  # a Desert Objective tile: desert-temple, desert-market or great-oasis

    def rotated(self, r: int) -> "Tile":
        """This tile type turned to absolute rotation ``r`` (0..3)."""
        turn = (r - self.rotation) % 4
        sides = tuple(self.sides[(d - turn) % 4] for d in DIRS)
        return Tile(
            id=self.id,
            kind=self.kind,
            sides=sides,  # type: ignore[arg-type]
            routes=tuple(rt.rotated(turn) for rt in self.routes),
            pinpoints=self.pinpoints,
            landmarks=self.landmarks,
            cities=self.cities,
            count=self.count,
            rotation=r % 4,
            name=self.name,
            objective=self.objective,
        )

    @cached_property
    def route_of_side(self) -> tuple[int | None, ...]:
        out: list[int | None] = [None] * 4
        for i, rt in enumerate(self.routes):
            for d in rt.sides:
                out[d] = i
        return tuple(out)

    @cached_property
    def route_side_lists(self) -> tuple[tuple[int, ...], ...]:
        """Each route's sides, sorted (the networks join them)."""
        return tuple(tuple(sorted(rt.sides)) for rt in self.routes)

    @cached_property
    def trail_route_sides(self) -> tuple[tuple[int, ...], ...]:
        """The sides of each route drawn only with Desert Trails (the camels' networks)."""
        return tuple(tuple(sorted(rt.sides)) for rt in self.routes if all(self.sides[d] == TRAIL for d in rt.sides))

    def route_kinds(self, i: int) -> frozenset[str]:
        return frozenset(self.sides[d] for d in self.routes[i].sides)

    def signature(self) -> tuple:
        """Everything a placement depends on, for spotting equal rotations."""
        return (
            self.sides,
            tuple(sorted((tuple(sorted(rt.sides)), rt.station) for rt in self.routes)),
            tuple(sorted((p.pawn, tuple(sorted(self.routes[p.route].sides))) for p in self.pinpoints)),
            tuple(sorted((lm.type, tuple(sorted(self.routes[lm.route].sides))) for lm in self.landmarks)),
        )

    @cached_property
    def distinct_rotations(self) -> tuple["Tile", ...]:
        """One tile per distinct orientation (a straight track has two)."""
        seen: dict[tuple, Tile] = {}
        for r in DIRS:
            t = self.rotated(r)
            seen.setdefault(t.signature(), t)
        return tuple(seen.values())

    def short(self) -> str:
        return "".join(SHORT[s] for s in self.sides)


@dataclass
class TileSet:
    """All tiles of the loaded catalogues, by id, plus the start tile."""

    tiles: dict[str, Tile]
    start: Tile
    sources: dict[str, str] = field(default_factory=dict)  # tile id -> catalogue file
    stand_in: dict[str, bool] = field(default_factory=dict)  # catalogue file -> is a stand-in
    objectives: dict[str, Tile] = field(default_factory=dict)  # the Desert Objective tiles (never in a bag)

    def get(self, tile_id: str) -> Tile | None:
        if tile_id == self.start.id:
            return self.start
        return self.tiles.get(tile_id) or self.objectives.get(tile_id)

    def bag(self, kind: str) -> list[str]:
        """Every physical tile of a kind, as ids (a type with count 3 appears 3 times)."""
        out: list[str] = []
        for t in sorted(self.tiles.values(), key=lambda t: t.id):
            if t.kind == kind:
                out.extend([t.id] * t.count)
        return out
