"""The moves of a solo Age of Steam turn, as plain values with a text notation.

A turn is: issue shares, select an action, build, two shipment steps, then the
automatic income, expenses and round-marker steps. Notation (one move each):

    shares 2            issue two shares
    action engineer     select an action (pay its cost); `action rapa-nui D2` flips the moai on D2
    action none         select no action (where the map allows it)
    tile E4 D3 F4       lay a track tile on E4 joining its sides toward D3 and F4
    tile E4 D3 F4 bonus the same, from the hand of bonus tiles (Zoo)
    tile E4 D3 G4 + C4 F5   a complex tile on the empty hex E4: a second track C4-F5 (a crossing
                        when both tracks are straight and cross, else a non-crossing pair)
    upgrade E4 C4 F5    upgrade the simple straight on E4 to a crossing: add the straight C4-F5
    upgrade E4 C4 F5 bonus  the same, from the hand of bonus tiles (Zoo)
    town C2 C1          a town tile on the town C2 whose track runs straight into the next stop C1
                        (base rules: "town tiles join one to four tracks at the town"; no other tile)
    town C2 C1 bonus    the same, from the hand of bonus tiles (Zoo, reading zoo-bonus-town-track=allowed)
    redirect E4 D3 F5   turn the tile at the open end of an incomplete track on E4: it keeps its side toward
                        D3 (the track it extends) and now faces F5 (base rules: "Redirecting an incomplete
                        track: $2"; the price is the board file's map_rules.redirect_cost)
    urbanize F5 black   place a new city tile on the town F5
    D2-E3-F3-G3         (plans only: a BuildPath) new tiles on each inner hex, E3 and F3: from the anchor D2,
                        the last one facing G3; `bonus D2-E3-F3-G3` lays them from the hand of bonus tiles (Zoo)
    build done          end the build phase
    ship D2 red D2-F4-H4        move the red cube from D2 along the stops D2, F4, H4
    ship B2 food B2-A5~M5-K6 discount C4   (Zoo: ~ is a teleport between exits)
    locomotive          raise the locomotive instead of a shipment (once a turn)
    pass                skip a shipment step
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.board.hexgrid import Hex


@dataclass(frozen=True)
class IssueShares:
    count: int

    def __str__(self) -> str:
        return f"shares {self.count}"


@dataclass(frozen=True)
class SelectAction:
    name: str | None          # None: no action this round
    target: Hex | None = None  # Rapa Nui: the moai to flip

    def __str__(self) -> str:
        if self.name is None:
            return "action none"
        return f"action {self.name}" + (f" {self.target}" if self.target else "")


@dataclass(frozen=True)
class LayTile:
    """A new tile on an empty hex: simple (one track) or, with `second`, complex (two tracks)."""

    hex: Hex
    side_a: Hex   # the neighbour one end of the track faces
    side_b: Hex   # the neighbour the other end faces
    bonus: bool = False
    second: tuple[Hex, Hex] | None = None  # complex tile: the sides its second track faces

    def __str__(self) -> str:
        text = f"tile {self.hex} {self.side_a} {self.side_b}"
        if self.second is not None:
            text += f" + {self.second[0]} {self.second[1]}"
        return text + (" bonus" if self.bonus else "")


@dataclass(frozen=True)
class UpgradeTile:
    """Replace the simple tile on a hex by a complex one that adds the track side_a-side_b."""

    hex: Hex
    side_a: Hex
    side_b: Hex
    bonus: bool = False

    def __str__(self) -> str:
        return f"upgrade {self.hex} {self.side_a} {self.side_b}" + (" bonus" if self.bonus else "")


@dataclass(frozen=True)
class TownTrack:
    """A track of the town tile itself, from the town into the stop on the next hex: a link of no other tile."""

    town: Hex
    stop: Hex
    bonus: bool = False  # from the hand of bonus tiles (Zoo, reading zoo-bonus-town-track=allowed only)

    def __str__(self) -> str:
        return f"town {self.town} {self.stop}" + (" bonus" if self.bonus else "")


@dataclass(frozen=True)
class RedirectTile:
    """Base rules: "Redirecting an incomplete track": the simple tile at the open end of an incomplete track
    is turned to face another side; `back` is the side it keeps (toward the track it extends), `side` the new one."""

    hex: Hex
    back: Hex
    side: Hex

    def __str__(self) -> str:
        return f"redirect {self.hex} {self.back} {self.side}"


@dataclass(frozen=True)
class Urbanize:
    town: Hex
    colour: str

    def __str__(self) -> str:
        return f"urbanize {self.town} {self.colour}"


@dataclass(frozen=True)
class EndBuild:
    def __str__(self) -> str:
        return "build done"


@dataclass(frozen=True)
class Ship:
    origin: Hex
    colour: str
    route: tuple[Hex, ...]          # every stop from origin to destination
    teleports: tuple[int, ...] = ()  # hops i (route[i] -> route[i+1]) made by teleport between exits (Zoo)
    discount: Hex | None = None     # Zoo Feeding: the area whose danger is lowered in this shipment

    def __str__(self) -> str:
        text = f"ship {self.origin} {self.colour} {route_text(self.route, self.teleports)}"
        return text + (f" discount {self.discount}" if self.discount else "")


@dataclass(frozen=True)
class UpgradeLocomotive:
    def __str__(self) -> str:
        return "locomotive"


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class BuildPath:
    """A plan's build step of new simple tiles along a path: the anchor, each new tile's hex, and the hex the
    last tile points to. Not an engine move: the referee lays it as one LayTile per interior hex (`tiles`)."""

    hexes: tuple[Hex, ...]
    bonus: bool = False  # every tile from the hand of bonus tiles (Zoo)

    def tiles(self) -> list[LayTile]:
        return path_to_tiles(list(self.hexes), len(self.hexes) if self.bonus else 0)

    def __str__(self) -> str:
        return ("bonus " if self.bonus else "") + "-".join(str(h) for h in self.hexes)


Move = IssueShares | SelectAction | LayTile | UpgradeTile | TownTrack | RedirectTile | Urbanize | EndBuild | Ship | UpgradeLocomotive | Pass
BuildStep = BuildPath | LayTile | UpgradeTile | TownTrack | RedirectTile | Urbanize   # a plan round's build list
ShipStep = Ship | UpgradeLocomotive | Pass                                              # a plan round's ship list


def route_text(route: tuple[Hex, ...], teleports: tuple[int, ...] = ()) -> str:
    out = str(route[0])
    for i, h in enumerate(route[1:]):
        out += ("~" if i in teleports else "-") + str(h)
    return out


def parse_route(text: str) -> tuple[tuple[Hex, ...], tuple[int, ...]]:
    """'D2-F4~H4' -> ((D2, F4, H4), (1,)): hops written with ~ are teleports."""
    hexes, teleports, token = [], [], ""
    for ch in text.strip() + "-":
        if ch in "-~":
            hexes.append(Hex.parse(token))
            if ch == "~":
                teleports.append(len(hexes) - 1)
            token = ""
        else:
            token += ch
    return tuple(hexes), tuple(teleports)


def parse_path(text: str) -> list[Hex]:
    """A build path 'D3-E4-F4-G5': anchor, new tiles, and what the last tile points to."""
    return [Hex.parse(t) for t in text.strip().split("-")]


def path_to_tiles(path: list[Hex], bonus: int = 0) -> list[LayTile]:
    """Each interior hex of the path gets a tile joining its two path neighbours.

    The first `bonus` tiles are laid from the hand of bonus tiles (Zoo).
    """
    return [LayTile(path[i], path[i - 1], path[i + 1], bonus=(i - 1) < bonus) for i in range(1, len(path) - 1)]


def parse_tile(text: str) -> LayTile | UpgradeTile | TownTrack | RedirectTile:
    """'tile E4 D3 F4 [+ C4 G4] [bonus]', 'upgrade E4 C4 G4 [bonus]', 'town C2 C1' or 'redirect E4 D3 F5'
    (ValueError names what is wrong)."""
    words = text.split()
    if words and words[0] == "redirect" and len(words) == 4:
        h, back, side = (Hex.parse(w) for w in words[1:])
        return RedirectTile(h, back, side)
    bonus = bool(words) and words[-1] == "bonus"
    if bonus:
        words = words[:-1]
    if words and words[0] == "town" and len(words) == 3:
        return TownTrack(Hex.parse(words[1]), Hex.parse(words[2]), bonus)
    if words and words[0] == "upgrade" and len(words) == 4:
        h, a, b = (Hex.parse(w) for w in words[1:])
        return UpgradeTile(h, a, b, bonus)
    if words and words[0] == "tile" and len(words) == 4:
        h, a, b = (Hex.parse(w) for w in words[1:])
        return LayTile(h, a, b, bonus)
    if words and words[0] == "tile" and len(words) == 7 and words[4] == "+":
        h, a, b, c, d = (Hex.parse(w) for w in words[1:4] + words[5:])
        return LayTile(h, a, b, bonus, (c, d))
    raise ValueError(f"expected 'tile HEX SIDE SIDE [+ SIDE SIDE] [bonus]', 'upgrade HEX SIDE SIDE [bonus]', 'town TOWN STOP' "
                     "or 'redirect HEX KEPT-SIDE NEW-SIDE', "
                     f"got {text!r}")
