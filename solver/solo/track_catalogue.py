"""The catalogue of candidate tracks the plan optimizer lays (solver/solo/economy_search.py).

Made from the board file alone (no map-specific list): for each pair of stops a few real tracks of up to
`max_hexes` hexes (the shortest and their alternatives, chosen to overlap little) and the links of a given
network (the proven cheapest one joining every ruin). A track is stop, hexes..., stop; the search never lays
two tracks on one hex, so each of its plans decodes into build paths the engine accepts.
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.board.hexgrid import Hex
from solver.engine.moves import BuildPath
from solver.engine.placement import track_hexes
from solver.engine.state import GameState


@dataclass(frozen=True)
class Track:
    """A real track between two stops: stop, hexes..., stop."""

    ends: tuple[Hex, Hex]
    hexes: tuple[Hex, ...]
    cost: int          # terrain cost of its tiles (town fees are added when it is laid)
    mask: int          # its hexes as bits of the catalogue's hex index

    def path(self) -> BuildPath:
        """The track as one build step, laid from its first stop."""
        return BuildPath((self.ends[0], *self.hexes, self.ends[1]))


class Catalogue:
    """Candidate tracks from the board: a few per nearby stop pair, and the given network's links."""

    def __init__(self, state: GameState, extra_links=(), max_hexes: int = 3, per_pair: int = 3):
        board, s = state.board, state.scenario
        self.stops = self.stop_hexes(state)
        self.stop_set = set(self.stops)
        occupied = set(state.track)
        usable = {h for h in track_hexes(board, s) if h not in occupied}
        self.index = {h: i for i, h in enumerate(sorted(usable))}
        found: dict[tuple[Hex, Hex], list[tuple[Hex, ...]]] = {}
        for a in self.stops:
            for path in _walks(board, a, usable, max_hexes):
                b = path[-1]
                if b == a or b not in self.stop_set or not self.joins(state, a, b):
                    continue
                key = (a, b) if a < b else (b, a)
                hexes = path[1:-1] if key[0] == a else tuple(reversed(path[1:-1]))
                found.setdefault(key, []).append(hexes)
        tracks: list[Track] = []
        seen = set()
        for key in sorted(found):
            paths = sorted(set(found[key]), key=lambda p: (self._cost(state, p), len(p), p))
            shortest = len(paths[0])
            chosen: list[tuple[Hex, ...]] = []
            for p in paths:
                if len(p) > shortest + 1:
                    continue
                if len(chosen) >= per_pair:
                    break
                if any(len(set(p) & set(c)) > len(p) // 2 for c in chosen):
                    continue  # alternatives that overlap little: they are what a conflict needs
                chosen.append(p)
            for p in chosen:
                tracks.append(self._track(state, key, p))
                seen.add((key, p))
        for link in extra_links:
            a, b = link[0], link[-1]
            if a == b or not all(h in self.index for h in link[1:-1]) or not link[1:-1]:
                continue
            key = (a, b) if a < b else (b, a)
            hexes = tuple(link[1:-1]) if key[0] == a else tuple(reversed(link[1:-1]))
            if (key, hexes) not in seen:
                seen.add((key, hexes))
                tracks.append(self._track(state, key, hexes))
        self.tracks = tracks
        self.by_pair: dict[tuple[Hex, Hex], list[int]] = {}
        self.adjacent: dict[Hex, list[Hex]] = {h: [] for h in self.stops}
        for i, t in enumerate(tracks):
            self.by_pair.setdefault(t.ends, []).append(i)
        for a, b in self.by_pair:
            self.adjacent[a].append(b)
            self.adjacent[b].append(a)

    def stop_hexes(self, state: GameState) -> list[Hex]:
        """The stops tracks join (a hook: the Zoo adds its exits)."""
        return sorted(set(state.board.cities) | set(state.board.towns))

    def joins(self, state: GameState, a: Hex, b: Hex) -> bool:
        """Is a track between these two stops a complete link (a hook)?"""
        return True

    def _cost(self, state: GameState, hexes) -> int:
        return sum(state.ruleset.tile_cost(state, h) for h in hexes)

    def _track(self, state: GameState, key, hexes) -> Track:
        mask = 0
        for h in hexes:
            mask |= 1 << self.index[h]
        return Track(key, tuple(hexes), self._cost(state, hexes), mask)


def _walks(board, start: Hex, usable: set[Hex], max_hexes: int):
    """Every simple hex path from a stop through usable hexes to another stop, with at most max_hexes tiles."""
    out = []

    def go(path: list[Hex]) -> None:
        here = path[-1]
        for nxt in here.neighbours():
            if nxt in path or not board.passable(here, nxt):
                continue
            if board.is_stop(nxt):
                if len(path) > 1:
                    out.append(tuple(path) + (nxt,))
                continue
            if nxt in usable and len(path) <= max_hexes:
                path.append(nxt)
                go(path)
                path.pop()

    go([start])
    return out
