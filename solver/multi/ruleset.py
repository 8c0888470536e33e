"""What the five multiplayer maps share: links with owners, income for own links only.

A multiplayer map module subclasses `MultiplayerRuleset` and overrides only
what its sheet changes. Its numbers come from the board file's `[map_rules]`
(each with provenance), never from this code.
"""
from __future__ import annotations

from typing import Any

import networkx as nx

from solver.board.errors import InputError
from solver.engine.ruleset import Ruleset
from solver.engine.moves import Ship


class MultiplayerRuleset(Ruleset):
    name = "multiplayer"
    multiplayer = True
    #: `[map_rules]` keys the map's board file must give
    required_rules: tuple[str, ...] = ("player_count",)
    #: extra keys of a [players.NAME] table and of [markers] in a STATE file
    player_keys: tuple[str, ...] = ()
    marker_keys: tuple[str, ...] = ()
    goods_place_words = "cities"

    # -- the board file ----------------------------------------------------
    def check_instance(self, instance, fail) -> None:
        for key in self.required_rules:
            if key not in instance.map_rules:
                fail(f"the {self.name} rules need the value '{key}' (with its provenance)", f"map_rules.{key}")
        low, high = self.player_range(instance)
        if not 1 <= low <= high:
            fail(f"expected [LOW, HIGH] players, got {[low, high]}", "map_rules.player_count")

    @staticmethod
    def rule(instance, key: str) -> Any:
        try:
            return instance.map_rules[key]
        except KeyError:
            raise InputError(f"missing the value '{key}'", f"{instance.path}, key 'map_rules.{key}'") from None

    def player_range(self, instance) -> tuple[int, int]:
        low, high = self.rule(instance, "player_count")
        return int(low), int(high)

    def setup_counts(self, instance) -> dict[str, int]:
        """Cubes on each stop at setup, by name (from the sheet's setup sentences)."""
        return {c.name: self.rule(instance, "city_goods") for c in instance.board.cities.values()}

    def blocked_actions(self, instance, players: int, round_: int) -> set[str]:
        return set()

    # -- the STATE file ----------------------------------------------------
    def goods_places(self, instance) -> set:
        board = instance.board
        return set(board.cities) | {a.hexes[0] for a in board.areas}

    def read_player_extras(self, state, r) -> None:
        pass

    def check_link(self, state, owner: str, path: tuple, complete: bool, fail) -> None:
        pass

    def check_state(self, state, fail) -> None:
        pass

    def build_links(self, state) -> list:
        from solver.multi.state import OwnedLink
        out = [OwnedLink(tuple(path), True, None) for path in state.board.public_track]
        for pname, p in state.players.items():
            for path, complete in p.links:
                out.append(OwnedLink(tuple(path), complete, pname))
        return out

    # -- deliveries ---------------------------------------------------------
    def link_capacity(self, state) -> int:
        return state.me.locomotive

    def max_route_links(self, state) -> int:
        return max(state.scenario.max_locomotive, state.locomotive)

    def usable_links(self, state, a, b) -> list:
        """Complete links joining a and b that the active player may move goods over (base: any)."""
        return [link for link in state.links() if link.complete and set(link.ends) == {a, b}]

    def hop_problem(self, state, a, b, teleport: bool) -> str | None:
        if teleport:
            return "this map has no teleports"
        if not self.usable_links(state, a, b):
            return f"no complete link joins {state.board.label(a)} and {state.board.label(b)}"
        return None

    def hop_owner(self, state, a, b) -> str | None:
        """Whose link carries the good on this hop: the active player's own if there is one, else public
        track (None), else another player's."""
        owners = {link.owner for link in self.usable_links(state, a, b)}
        if state.active in owners:
            return state.active
        if None in owners:
            return None
        return sorted(owners)[0]

    def income_split(self, state, move: Ship) -> dict:
        """owner -> links used (None: public track, which earns nobody income)."""
        out: dict = {}
        for i, (a, b) in enumerate(zip(move.route, move.route[1:])):
            if i in move.teleports:
                continue
            owner = self.hop_owner(state, a, b)
            out[owner] = out.get(owner, 0) + 1
        return out

    def limit_text(self, state, move: Ship) -> str:
        need, _ = self.locomotive_need(state, move)
        return f"needs {need} link(s); locomotive {state.locomotive}"

    def delivery_cost(self, state, move: Ship) -> int:
        return 0

    def effects(self, state, move: Ship) -> list[str]:
        return []

    def options(self, state) -> list[str]:
        """Things the active player may do instead of a delivery (beyond raising the locomotive)."""
        return []

    def header(self, state) -> list[str]:
        return []

    def _apply_Ship(self, state, move: Ship) -> None:
        self.remove_cube(state, move.origin, move.colour)
        for owner, n in self.income_split(state, move).items():
            if owner is not None:
                state.players[owner].income += n
        state.income = state.me.income
        state.cash -= self.delivery_cost(state, move)
        state.me.cash = state.cash
        self.after_shipment(state, move)
        state.shipments_done += 1

    def _apply_UpgradeLocomotive(self, state, move) -> None:
        state.me.locomotive += 1
        state.locomotive = self.link_capacity(state)
        state.locomotive_raised = True
        state.shipments_done += 1

    # -- build cost ------------------------------------------------------------
    def tile_cost_at(self, instance, h) -> int:
        return instance.scenario.track_cost[instance.board.terrain[h]]

    def build_graph(self, instance, state=None) -> tuple[nx.Graph, dict, list[str]]:
        """The board as a Steiner graph under this map's costs: zones and organs merged into one stop node,
        public track and built track taken out, the active player's complete links free."""
        from models.network import board_graph
        board = instance.board
        g, max_degree = board_graph(instance)
        notes: list[str] = []
        for h in list(g.nodes):
            if h in max_degree:
                g.nodes[h]["cost"] = self.tile_cost_at(instance, h)
        for area in board.areas:
            stop = area.hexes[0]
            touching = set()
            for h in area.hexes:
                for n in h.neighbours():
                    if n in max_degree and board.passable(h, n) and board.area_of(n) is None:
                        touching.add(n)
                if h in g:
                    g.remove_node(h)
                max_degree.pop(h, None)
            if self.area_is_stop(instance, area):
                g.add_node(stop, cost=0)
                for n in touching:
                    g.add_edge(stop, n, weight=0)
        for path in board.public_track:
            for h in path[1:-1]:
                if h in g:
                    g.remove_node(h)
                max_degree.pop(h, None)
        if state is not None:
            for link in state.links():
                if link.owner is None:
                    continue
                for h in link.tiles:
                    if h in g:
                        g.remove_node(h)
                    max_degree.pop(h, None)
                if link.owner == state.active and link.complete:
                    g.add_edge(*link.ends, weight=0, own=True)
            notes.append(f"{state.active}'s complete links are free; hexes with anyone's track are taken")
        return g, max_degree, notes

    def area_is_stop(self, instance, area) -> bool:
        return True

    def is_build_stop(self, instance):
        areas = {a.hexes[0] for a in instance.board.areas if self.area_is_stop(instance, a)}
        return lambda h: instance.board.is_stop(h) or h in areas

    def build_terminals(self, instance, stops: list, state=None) -> tuple[list, list[str]]:
        """Extra stops the network must join (Kansas City: Kansas City itself)."""
        return list(stops), []

    def adjust_build_cost(self, instance, net, state=None) -> tuple[int | None, int | None, list[str]]:
        """(cost, lower bound, notes) after map rules that change the price of a found network."""
        return net.cost, net.lower_bound, []
