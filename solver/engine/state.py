"""The solo game state and the one definition of legality.

In the spirit of OpenSpiel: an immutable scenario (`Instance` + `Rules` +
setup) and a mutable `GameState` with `legal_actions()`, `apply()`, `clone()`
and `is_terminal()`. Solvers may search however they like, but every plan they
print is replayed through `apply()`, which is the referee.

What differs from map to map lives in a `Ruleset` (solver/engine/maps/ and solver/multi/maps/); this module
holds the base game as the solo maps use it.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

import networkx as nx

from solver.board.hexgrid import Hex
from solver.board.instance import Instance
from solver.engine.moves import (EndBuild, IssueShares, LayTile, Move, Pass, SelectAction, Ship, TownTrack,
                          UpgradeLocomotive, UpgradeTile, Urbanize)

PHASES = ("shares", "action", "build", "ship", "over")


class IllegalMove(Exception):
    """A move the rules forbid; the message says which rule."""


@dataclass(frozen=True)
class Rules:
    """The readings of the sheets in force, one attribute per reading (defaults: the designer's answers).

    The registry in solver/engine/readings.py names each one, quotes the sentence it
    interprets and gives its alternatives; see it before adding a field here.
    """

    strict_action: bool = False     # Easter Island: an action must be chosen, and paid, every round
    strict_exits: bool = False      # Zoo: entering an exit means teleporting
    feed_new_cities: bool = True    # Zoo: urbanized areas must be fed too ("every animal area", literally)
    complex_tiles: bool = True      # base rules: a hex may hold two tracks (crossing, non-crossing pair)
    rapa_nui_remnant: bool = True   # Easter Island: Rapa Nui may turn a single-cube remnant
    exits_as_stops: bool = False    # Zoo: track may start at an exit; exit-town/exit-exit track is a link
    bag: str = "no-purple"          # Easter Island: the bag the ruins' cubes are drawn from (data, not a rule)
    idle_actions: bool = False      # an action with nothing to do (Locomotive at 6, no city tile, no moai) may be selected
    clear_when_under: bool = False  # the clear counts in a round whose income then falls below the floor
    zoo_bonus_free: bool = False    # Zoo: a bonus tile is laid free of its laying cost
    zoo_town_cost: str = "base"     # Zoo: a town tile costs the base town fee, or the sheet's per-tile cost
    zoo_upgrade_cost: str = "base"  # Zoo: an upgrade to a crossing costs the base $3, or the sheet's per-tile cost
    exit_use: str = "pass"          # Zoo: an exit is "used" for the bonus tile when a route passes it, or only by a teleport
    incomplete_track: str = "kept"  # base rules: an incomplete link not extended in the next build phase is kept, or lost
    zoo_bonus_town_track: str = "refused"  # Zoo: a bonus tile may (allowed) or may not lay a town tile's own track
    complex_tile_set: str = "assumed"  # base rules: the complex tiles that exist (crossing = two straights), or any pair
    track_into_side: str = "refused"  # a track end facing the side of another track: refused (judged at the round's end) or allowed
    end_of_game: str = "at-clear"   # Easter Island: the game ends at the clear, or runs to the end of the round track

    def describe(self) -> list[str]:
        return [f"{k}={'on' if v is True else 'off' if v is False else v}" for k, v in self.__dict__.items()]


@dataclass(frozen=True)
class Link:
    """Track between two stops (complete) or from a stop to an open end."""

    path: tuple[Hex, ...]  # stop, track hexes..., and the far stop when complete
    complete: bool

    @property
    def ends(self) -> tuple[Hex, Hex]:
        return self.path[0], self.path[-1]

    @property
    def tiles(self) -> tuple[Hex, ...]:
        return self.path[1:-1] if self.complete else self.path[1:]


@dataclass
class GameState:
    instance: Instance
    rules: Rules
    goods: dict[Hex, list[str]]           # cubes on each stop, bottom first
    round: int = 1
    phase: str = "shares"
    cash: int = 0
    income: int = 0
    shares: int = 0
    locomotive: int = 1
    action: str | None = None             # action selected this round
    blockers: frozenset[str] = frozenset()  # Easter Island: blocked action spaces
    track: dict[Hex, tuple[Hex, Hex]] = field(default_factory=dict)  # tile hex -> the two neighbours it faces
    # Complex tiles: the second track on a hex that also has one in `track` (crossing or non-crossing pair).
    # Code that only reads `track` sees the first track of every hex; use tracks_at / track_from for both.
    second_track: dict[Hex, tuple[Hex, Hex]] = field(default_factory=dict)
    town_tracks: dict[Hex, int] = field(default_factory=dict)       # tracks joined to each town tile
    # links made by a town tile's own track into the stop on the next hex (no other tile): {town, stop}
    town_links: set[frozenset[Hex]] = field(default_factory=set)
    new_cities: dict[Hex, str] = field(default_factory=dict)        # urbanized towns and their colour
    new_city_supply: list[str] = field(default_factory=list)
    tiles_laid: int = 0
    towns_touched: set[Hex] = field(default_factory=set)            # towns whose tile counted toward this turn's limit
    urbanized_this_round: bool = False
    shipments_done: int = 0
    locomotive_raised: bool = False
    fed: set[Hex] = field(default_factory=set)                      # Zoo: animal areas fed
    bonus_tiles: int = 0                                            # Zoo: bonus tiles in hand
    # incomplete-track=owner-lost: open track ends -> the round their link was last extended; `orphans`: open
    # ends whose link lost its owner (never to be extended again)
    open_since: dict[Hex, int] = field(default_factory=dict)
    orphans: frozenset[Hex] = frozenset()
    exit_used: bool = False                                         # Zoo: an exit was used this round
    discount_used: bool = False                                     # Zoo: Feeding discount used this round
    spent_on_track: int = 0
    lost: str | None = None                                         # why the game ended early
    cleared_round: int | None = None
    accounts: dict = field(default_factory=dict)                    # last round's income and expenses
    round_limit: int | None = None                                  # last round (None: the scenario's round track)
    # reading end-of-game=round-track: the rounds after the clear as the referee played them out (shares, action)
    after_clear: tuple[str, ...] = ()
    playing_out: bool = False                                       # a copy the referee plays past the clear
    _links: list[Link] | None = None
    _pairs: frozenset | None = None

    # -- construction ------------------------------------------------------
    @classmethod
    def new(cls, instance: Instance, setup: dict[Hex, list[str]], rules: Rules = Rules(),
            round_limit: int | None = None) -> "GameState":
        s = instance.scenario
        state = cls(instance=instance, rules=rules, goods={h: list(c) for h, c in setup.items() if c},
                    cash=s.start_cash, income=s.start_income, shares=s.start_shares,
                    locomotive=s.start_locomotive, new_city_supply=list(s.new_cities), round_limit=round_limit)
        state.ruleset.start(state)
        return state

    @property
    def last_round(self) -> int:
        """The round after which the game ends: `--rounds` if given, else the scenario's round track."""
        return self.round_limit or self.instance.scenario.rounds

    @property
    def ruleset(self):
        """The map's rules, handed to the instance by its loader (solver.games): the engine looks nothing up."""
        return self.instance.ruleset

    @property
    def board(self):
        return self.instance.board

    @property
    def scenario(self):
        return self.instance.scenario

    def clone(self) -> "GameState":
        other = copy.copy(self)
        other.goods = {h: list(c) for h, c in self.goods.items()}
        other.track = dict(self.track)
        other.second_track = dict(self.second_track)
        other.town_tracks = dict(self.town_tracks)
        other.town_links = set(self.town_links)
        other.new_cities = dict(self.new_cities)
        other.new_city_supply = list(self.new_city_supply)
        other.towns_touched = set(self.towns_touched)
        other.fed = set(self.fed)
        other.open_since = dict(self.open_since)
        return other

    # -- what is where -----------------------------------------------------
    def is_stop(self, h: Hex) -> bool:
        return self.board.is_stop(h)

    def is_city(self, h: Hex) -> bool:
        return h in self.board.cities or h in self.new_cities

    def city_colour(self, h: Hex) -> str | None:
        if h in self.new_cities:
            return self.new_cities[h]
        city = self.board.cities.get(h)
        return city.colour if city else None

    def links(self) -> list[Link]:
        if self._links is None:
            self._links = self._trace_links()
            self._pairs = None
        return self._links

    def linked_pairs(self) -> frozenset[frozenset[Hex]]:
        """Pairs of stops joined by at least one complete link."""
        links = self.links()
        if self._pairs is None:
            self._pairs = frozenset(frozenset(link.ends) for link in links if link.complete)
        return self._pairs

    def tracks_at(self, h: Hex) -> tuple[tuple[Hex, Hex], ...]:
        """Every track on the hex: none, one (a simple tile) or two (a complex tile)."""
        first = self.track.get(h)
        if first is None:
            return ()
        second = self.second_track.get(h)
        return (first,) if second is None else (first, second)

    def track_from(self, h: Hex, side: Hex) -> Hex | None:
        """Where the track on h that faces `side` leads (its other end), or None if none faces it."""
        found = self._follow(h, side)
        return None if found is None else found[0]

    def _follow(self, h: Hex, side: Hex) -> tuple[Hex, int] | None:
        """(other end, 0 for the first track or 1 for the second) of the track on h facing `side`."""
        first = self.track.get(h)
        if first is None:
            return None
        if first[0] == side:
            return first[1], 0
        if first[1] == side:
            return first[0], 0
        second = self.second_track.get(h)
        if second is not None:
            if second[0] == side:
                return second[1], 1
            if second[1] == side:
                return second[0], 1
        return None

    def all_tracks(self) -> list[tuple[Hex, tuple[Hex, Hex]]]:
        """(hex, (side, side)) for every track, both tracks of a complex tile included."""
        return list(self.track.items()) + list(self.second_track.items())

    def _trace_links(self) -> list[Link]:
        # A link is a chain of (hex, which track) pieces; two links may share a hex (a complex tile),
        # so links are told apart by the tracks they use, not by their hexes.
        seen: set[frozenset] = set()
        out = []
        is_stop = self.is_stop
        for stop in self._stops_with_track():
            for first in stop.neighbours():
                step = self._follow(first, stop)
                if step is None:
                    continue
                path, cur = [stop, first], first
                pieces = {(first, step[1])}
                while True:
                    nxt = step[0]
                    if is_stop(nxt):
                        path.append(nxt)
                        complete = True
                        break
                    step = self._follow(nxt, cur)
                    if step is not None and (nxt, step[1]) not in pieces:
                        pieces.add((nxt, step[1]))
                        path.append(nxt)
                        cur = nxt
                        continue
                    complete = False
                    break
                key = frozenset(pieces)
                if key not in seen:
                    seen.add(key)
                    out.append(Link(tuple(path), complete))
        for pair in sorted(self.town_links, key=sorted):
            out.append(Link(tuple(sorted(pair)), True))
        return out

    def _stops_with_track(self) -> list[Hex]:
        stops = set()
        for h, sides in self.all_tracks():
            for side in sides:
                if self.is_stop(side):
                    stops.add(side)
        return sorted(stops)

    def network(self) -> nx.MultiGraph:
        """Stops joined by complete links (one edge per link)."""
        g = nx.MultiGraph()
        for link in self.links():
            if link.complete:
                a, b = link.ends
                g.add_edge(a, b, link=link)
        return g

    def open_ends(self) -> list[tuple[Hex, Hex]]:
        """(tile hex, the neighbour it points to) for every incomplete track end."""
        out = []
        for link in self.links():
            if not link.complete:
                end = link.path[-1]
                prev = link.path[-2]
                out.append((end, self.track_from(end, prev)))
        return out

    def tile_limit(self) -> int:
        return self.ruleset.tile_limit(self)

    # -- the rules -------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_cleared(self) -> bool:
        return self.ruleset.is_cleared(self)

    def legal_actions(self) -> list[Move]:
        """Every legal move now. In the build phase this lists single tiles."""
        if self.phase == "over":
            return []
        candidates = self.ruleset.candidate_moves(self)
        return [m for m in candidates if self.why_illegal(m) is None]

    def why_illegal(self, move: Move) -> str | None:
        return self.ruleset.why_illegal(self, move)

    def apply(self, move: Move) -> None:
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMove(reason)
        self.ruleset.apply(self, move)

    def child(self, move: Move) -> "GameState":
        other = self.clone()
        other.apply(move)
        return other

    def summary(self) -> dict:
        return {
            "round": self.round, "phase": self.phase, "cash": self.cash, "income": self.income,
            "shares": self.shares, "locomotive": self.locomotive, "cleared": self.is_cleared(),
            "cleared_round": self.cleared_round, "lost": self.lost, "spent_on_track": self.spent_on_track,
            **({"last_round": dict(self.accounts)} if self.accounts else {}),
            **({"after_clear": list(self.after_clear)} if self.after_clear else {}),
            "goods": {str(h): list(c) for h, c in sorted(self.goods.items()) if c},
            "fed": sorted(str(h) for h in self.fed),
        }


__all__ = ["GameState", "Rules", "Link", "IllegalMove", "PHASES",
           "IssueShares", "SelectAction", "LayTile", "UpgradeTile", "TownTrack", "Urbanize", "EndBuild", "Ship", "UpgradeLocomotive", "Pass"]
