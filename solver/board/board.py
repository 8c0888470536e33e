"""The printed board: terrain, stops and other named features, as plain types."""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.board.hexgrid import Hex

TERRAINS = ("plain", "river", "mountain", "water", "off-map")
BUILDABLE = ("plain", "river", "mountain")
COLOURS = ("red", "blue", "yellow", "purple", "black")


@dataclass(frozen=True)
class City:
    """A city hex. Easter Island's ruins and Zoo's animal areas are cities."""

    hex: Hex
    name: str
    colour: str | None       # None: a stop that accepts any good (Zoo animal areas)
    number: str = ""
    danger: int | None = None  # Zoo: danger level printed in the centre
    region: str = ""           # Easter Island: western / central-eastern / eastern


@dataclass(frozen=True)
class Town:
    hex: Hex
    name: str


@dataclass(frozen=True)
class Exit:
    """Zoo exit hex: a stop on the board edge, virtually joined to the other exits."""

    hex: Hex
    name: str


@dataclass(frozen=True)
class Area:
    """A named group of hexes: an off-board zone (Finland) or a multi-hex organ (Human Body)."""

    kind: str  # "zone" or "organ"
    name: str
    hexes: tuple[Hex, ...]
    colour: str | None = None
    numbers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Board:
    name: str
    terrain: dict[Hex, str]
    cities: dict[Hex, City] = field(default_factory=dict)
    towns: dict[Hex, Town] = field(default_factory=dict)
    exits: dict[Hex, Exit] = field(default_factory=dict)
    areas: tuple[Area, ...] = ()
    impassable: frozenset[frozenset[Hex]] = frozenset()
    public_track: tuple[tuple[Hex, ...], ...] = ()
    # Maps without hexes (Synapses): named nodes and edges.
    nodes: tuple[str, ...] = ()
    edges: tuple[tuple[str, str], ...] = ()

    def on_map(self, h: Hex) -> bool:
        return self.terrain.get(h, "off-map") != "off-map"

    def is_stop(self, h: Hex) -> bool:
        return h in self.cities or h in self.towns or h in self.exits

    @property
    def stops(self) -> frozenset[Hex]:
        """Every stop: the hexes `is_stop` accepts (cities, towns and exits), the one stop set."""
        return frozenset(self.cities) | frozenset(self.towns) | frozenset(self.exits)

    def buildable(self, h: Hex) -> bool:
        """Can a plain track tile go here? Never on a stop, water or off the map."""
        return self.terrain.get(h) in BUILDABLE and not self.is_stop(h)

    def passable(self, a: Hex, b: Hex) -> bool:
        return frozenset((a, b)) not in self.impassable

    def city_by_name(self, name: str) -> City | None:
        for c in self.cities.values():
            if c.name.lower() == name.lower():
                return c
        return None

    def stop_by_name(self, name: str) -> Hex | None:
        """Resolve a stop given by name or by hex id."""
        for table in (self.cities, self.towns, self.exits):
            for h, feature in table.items():
                if feature.name.lower() == name.lower():
                    return h
        try:
            h = Hex.parse(name)
        except ValueError:
            return None
        return h if self.is_stop(h) else None

    def label(self, h: Hex) -> str:
        if self.nodes:  # a graph map: nodes are named, not hexes
            return str(h)
        for table in (self.cities, self.towns, self.exits):
            if h in table:
                return f"{table[h].name} ({h})"
        for area in self.areas:  # a zone or organ is one stop, named by its first hex
            if h == area.hexes[0]:
                return f"{area.name} ({h})"
        return str(h)

    def area_of(self, h: Hex) -> "Area | None":
        for area in self.areas:
            if h in area.hexes:
                return area
        return None

    def area_by_name(self, name: str) -> "Area | None":
        for area in self.areas:
            if area.name.lower() == name.lower():
                return area
        return None
