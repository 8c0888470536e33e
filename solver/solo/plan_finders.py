"""Plan finders: the searches that propose plans, behind one small interface, as the proof engines are.

A finder is given a position (a state at the start of a round) and a round budget and returns rounds of a
plan that it believes clears by then, or nothing. It never judges legality: the map solver replays every
proposal through the referee (solver.engine.plan.replay) and keeps the best by fewest rounds, then fewest
shares, then most cash; the answer names the finder whose plan it kept (`plan_source`).

To add a finder: a class with `name` and `find`, and a line in the map solver's list of stages.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Protocol

from solver.engine.plan import RoundPlan
from solver.engine.state import GameState
from solver.solo.economy_search import Catalogue, EconomySearch


@dataclass
class Proposal:
    rounds: list[RoundPlan]   # the rounds from the position on
    finder: str
    note: str = ""


class PlanFinder(Protocol):
    name: str

    def find(self, state: GameState, last_round: int, stop=None) -> Proposal | None:
        """Rounds from `state` that should clear by `last_round`, or None."""


class EconomyFinder:
    """The Pareto beam over the exact economy (solver/solo/economy_search.py); a map's own search and
    catalogue are class attributes (the Zoo's finder sets them)."""

    name = "plan optimizer (solver/solo/economy_search.py)"
    search_class = EconomySearch
    catalogue_class = Catalogue

    def __init__(self, network_links=(), width: int = 60, max_hexes: int = 3, share_weights=(6.0,)):
        self.network_links, self.width, self.max_hexes = tuple(network_links), width, max_hexes
        self.share_weights = tuple(share_weights)
        self.work = 0
        self._catalogue = None
        self._searches: dict = {}  # the search kept per state, shared by the finders made with `with_width`

    def with_width(self, width: int) -> "EconomyFinder":
        """The same finder, wider, sharing the catalogue and the search with its caches (routes, prices,
        joining plans), which a wider beam after a narrow one that missed asks again."""
        other = copy.copy(self)
        other.width, other.work = width, 0
        return other

    def catalogue(self, state: GameState) -> Catalogue:
        if self._catalogue is None:
            self._catalogue = self.catalogue_class(state, self.network_links, max_hexes=self.max_hexes)
        return self._catalogue

    def find(self, state: GameState, last_round: int, stop=None) -> Proposal | None:
        search = self._searches.get(id(state))
        if search is None or search.state0 is not state or search.cat is not self.catalogue(state):
            search = self.search_class(state, self.catalogue(state), width=self.width, stop=stop,
                                       share_weights=self.share_weights)
            self._searches.clear()  # the dict itself is shared with the finders made by with_width
            self._searches[id(state)] = search
        search.width, search.stop, search.share_weights, search.work = self.width, stop, self.share_weights, 0
        result = search.run(last_round)
        self.work += search.work
        if result is None:
            return None
        return Proposal(result.rounds, self.name,
                        f"width {self.width}, share weights {self.share_weights}, {search.work} round plans")
