"""What the five multiplayer maps share: links with owners, income for own links only.

A multiplayer map module subclasses `MultiplayerRuleset` and overrides only
what its sheet changes. Its numbers come from the board file's `[map_rules]`
(each with provenance), never from this code.
"""
from __future__ import annotations

from typing import Any

import networkx as nx

from solver.board.errors import InputError
from solver.engine import economy
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
        from solver.multi.readings import check as check_readings
        check_readings(instance, self.name, fail)
        low, high = self.player_range(instance)
        if not 1 <= low <= high:
            fail(f"expected [LOW, HIGH] players, got {[low, high]}", "map_rules.player_count")

    @staticmethod
    def rule(instance, key: str) -> Any:
        try:
            return instance.map_rules[key]
        except KeyError:
            raise InputError(f"missing the value '{key}'", f"{instance.path}, key 'map_rules.{key}'") from None

    def last_round(self, instance, players: int) -> int:
        """The last round for `players` players: map_rules.rounds_by_players (its provenance says where it
        comes from) where given, else scenario.rounds."""
        table = instance.map_rules.get("rounds_by_players")
        if isinstance(table, dict) and str(players) in table:
            return int(table[str(players)])
        return instance.scenario.rounds

    def player_range(self, instance) -> tuple[int, int]:
        low, high = self.rule(instance, "player_count")
        return int(low), int(high)

    def setup_counts(self, instance) -> dict[str, int]:
        """Cubes on each stop at setup, by name (from the sheet's setup sentences)."""
        return {c.name: self.rule(instance, "city_goods") for c in instance.board.cities.values()}

    def blocked_actions(self, instance, players: int, round_: int) -> set[str]:
        return set()

    def new_city_problem(self, state, place) -> str | None:
        """Why a new city tile cannot lie here (base rules: urbanization places it on a town)."""
        if place not in state.board.towns:
            return f"a new city goes on a town; {state.board.label(place)} is not one"
        return None

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

    def free_tiles_allowed(self, state, player) -> int:
        """Tiles a player may have placed for free so far (Portugal's first-turn simple track)."""
        return 0

    def round_one_goods_limit(self, state, name: str, setup: int, before_actions: bool) -> int:
        """Most goods a stop may hold in round 1 (before goods growth first runs)."""
        return setup

    def check_reachable(self, state, fail, before_actions: bool) -> None:
        """Map-specific limits of a reachable position (solver/multi/checks.py does the common ones)."""

    def build_links(self, state) -> list:
        """Public track and every player's track, cut at towns: "a town is a stop where links end", so
        track written through a town (Human Body: a bone) is two links."""
        from solver.multi.state import OwnedLink
        out = [OwnedLink(tuple(path), True, None) for path in state.board.public_track]
        for pname, p in state.players.items():
            for path, complete in p.links:
                for piece, done in split_at_towns(state, tuple(path), complete):
                    out.append(OwnedLink(piece, done, pname))
        return out

    #: may the player choose whose link carries a hop (solver/multi/choices.py)?
    credit_choices = True
    #: may the active player move goods over other players' links? (Kansas City: no)
    ship_over_others = True

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

    def hop_owner(self, state, a, b, move=None) -> str | None:
        """Whose link carries the good on this hop: the player's choice when the move names one
        (solver/multi/choices.py), else the active player's own if there is one, else public track (None),
        else another player's."""
        owners = {link.owner for link in self.usable_links(state, a, b)}
        for i, owner in getattr(move, "credit", ()):
            if tuple(move.route[i:i + 2]) == (a, b) and owner in owners:
                return owner
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
            owner = self.hop_owner(state, a, b, move)
            out[owner] = out.get(owner, 0) + 1
        return out

    def limit_text(self, state, move: Ship) -> str:
        need, _ = self.locomotive_need(state, move)
        return f"needs {need} link" + ("" if need == 1 else "s") + f"; locomotive {state.locomotive}"

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

    def removal_choices(self, state, move) -> list[str]:
        """Colours the player may choose to remove after this delivery (Finland's zones); [] for none."""
        return []

    def _check_Deliver(self, state, move) -> str | None:
        problem = self.shipment_problem(state, move)
        if problem is None and move.removes is not None and move.removes not in self.removal_choices(state, move):
            problem = f"no {move.removes} good can be removed at {state.board.label(move.route[-1])}"
        for i, owner in move.credit:
            if problem is None and owner not in {lk.owner for lk in self.usable_links(state, *move.route[i:i + 2])}:
                problem = f"no link of {owner or 'public track'} joins hop {i} of the route"
        return problem

    def _apply_Deliver(self, state, move) -> None:
        self._apply_Ship(state, move)

    def _apply_UpgradeLocomotive(self, state, move) -> None:
        state.me.locomotive += 1
        state.locomotive = self.link_capacity(state)
        state.locomotive_raised = True
        state.shipments_done += 1

    def _apply_Pass(self, state, move) -> None:
        state.shipments_done += 1

    def why_illegal(self, state, move) -> str | None:
        # "Move goods: two rounds." A shipping phase has two steps; the income phase is `income_phase`.
        if state.phase == "ship" and state.shipments_done >= state.scenario.shipments_per_round:
            return f"the shipping phase has {state.scenario.shipments_per_round} steps and they are used"
        return super().why_illegal(state, move)

    #: a state must say `final_turn` when the round count is assumed (Kansas City: End of an Era)
    final_turn_matters = False

    def step_moves(self, state) -> list:
        """Shipping steps other than a delivery, a locomotive raise or a pass (Kansas City: a power plant)."""
        return []

    def step_text(self, state, move) -> str:
        return str(move)

    def step_cost(self, state, move) -> int:
        return 0

    def step_effects(self, state, move) -> list[str]:
        return []

    def turn_effects(self, state) -> list[str]:
        """What the board shows after the turn that matters next turn (zones, breath, markers, growth)."""
        return []

    # -- build advice (solver/multi/advice.py) ---------------------------------
    def advice_limit(self, state) -> tuple[int, str]:
        """How much may be built next turn: the tile limit (the Engineer's 4 is not assumed)."""
        return state.scenario.tile_limit, "tile"

    def tile_counted_at(self, state, town) -> bool:
        """Does new track to `town`, which already holds a tile (its fee paid), count a tile against the limit?
        (Human Body's reading bone-track-tile; elsewhere the town tile is counted only when first laid.)"""
        return False

    def lung_disc_counts(self, state) -> bool:
        """Does the Human Body lung disc count a tile against the limit (reading lung-disc-tile)?"""
        return False

    def start_next_round(self, state) -> None:
        """Reset what counts per round (Synapses: the discs placed this round)."""

    def apply_build(self, state, paths, lung_disc: bool = False):
        """A copy of `state` with `paths` (stop, new track hexes, stop) as the active player's new complete
        links, judged by this map's track rules (raises InputError naming the rule)."""
        import copy
        hyp = state.clone()
        hyp.players = copy.deepcopy(state.players)
        used = {h for p in state.players.values() for path, complete in p.links
                for h in (path[1:-1] if complete else path[1:]) if h not in state.board.towns}
        used |= {h for path in state.board.public_track for h in path[1:-1]}
        for path in paths:
            for h in path[1:-1]:
                if h in used:
                    _raise(f"the hex {h} already holds track (complex tiles are not modelled)")
                used.add(h)
            self.check_link(hyp, state.active, tuple(path), True, _raise)
            hyp.me.links.append((tuple(path), True))
        if lung_disc:
            hyp.me.extra["lung_disc"] = True
        hyp.owned_links = self.build_links(hyp)
        self.check_state(hyp, _raise)
        return hyp

    # -- the income phase ----------------------------------------------------------
    def expenses(self, instance, player) -> int:
        """"Pay expenses: $1 per issued share + $1 per locomotive level" (base rules)."""
        return economy.expenses(player.shares, player.locomotive)

    def income_phase(self, state) -> dict:
        """The active player's income, expenses and income reduction after shipping (base turn steps 6-8),
        applied to `state`: "What cannot be paid lowers income by the shortfall"."""
        me, s = state.me, state.scenario
        collected, expenses = me.income, self.expenses(state.instance, me)
        me.cash, me.income, shortfall = economy.cover(me.cash + collected - expenses, me.income)
        reduction = economy.income_reduction(s.income_reduction, me.income)
        me.income -= reduction
        state.cash, state.income = me.cash, me.income
        out = {"income_collected": collected, "expenses": expenses, "shortfall": shortfall,
               "income_reduction": reduction, "cash": me.cash, "income": me.income,
               "out_of_game": me.income < s.income_floor}
        state.accounts = out
        return out

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
            others = False
            for link in state.links():
                if link.owner is None:
                    continue
                for h in link.tiles:
                    if h in g:
                        g.remove_node(h)
                    max_degree.pop(h, None)
                for end in link.ends:
                    # A town that already has a tile is not paid for again ("Town tile: $1 per track leaving
                    # the town plus $1": the $1 base is paid once, with the first track).
                    if end in board.towns and end in g:
                        g.nodes[end]["cost"] = 0
                if not link.complete or not all(end in g for end in link.ends):
                    continue
                if link.owner == state.active:
                    g.add_edge(*link.ends, weight=0, own=True)
                elif self.ship_over_others and not g.has_edge(*link.ends):
                    g.add_edge(*link.ends, weight=0, other=link.owner)
                    others = True
            notes.append(f"{state.active}'s complete links are free; hexes with anyone's track are taken")
            if others:
                notes.append("other players' complete links are free to use (goods may move over them; "
                             "their owners earn the income)")
        return g, max_degree, notes

    def restrict_build(self, instance, g, max_degree, terminals) -> list[str]:
        """Take out of the build graph what may not join these terminals (Finland: a zone as junction)."""
        return []

    def area_is_stop(self, instance, area) -> bool:
        return True

    def is_build_stop(self, instance):
        areas = {a.hexes[0] for a in instance.board.areas if self.area_is_stop(instance, a)}
        return lambda h: instance.board.is_stop(h) or h in areas

    def build_terminals(self, instance, stops: list, state=None) -> tuple[list, list[str]]:
        """Extra stops the network must join (Kansas City: Kansas City itself)."""
        return list(stops), []

    def build_search_space(self, instance, state=None) -> str:
        """What a "proven minimum" of build-cost is a minimum over (the map's build graph)."""
        space = ("every network of new simple track tiles on free hexes (each hex one track, entered and left by "
                 "two sides; track hexes may not branch) joining the stops, through other stops")
        if state is not None:
            space += (", over the player's own complete links" + (" and other players' complete links"
                                                                  if self.ship_over_others else ""))
        return space + ("; not searched: complex tiles (crossings and upgrades of existing track), extending "
                        "incomplete track, urbanization, the tile limit of one turn")

    def network_pieces(self, instance, state, g, net) -> tuple[list, list]:
        """The tiles (or discs) and the links of a found network, as printed."""
        return list(net.hexes), list(net.links)

    def adjust_build_cost(self, instance, net, state=None, **context) -> tuple[int | None, int | None, list[str]]:
        """(cost, lower bound, notes) after map rules that change the price of a found network (`context`:
        the build graph, terminals and time limit, for a map that must search further)."""
        return net.cost, net.lower_bound, []


def split_at_towns(state, path: tuple, complete: bool) -> list[tuple[tuple, bool]]:
    """Cut a written track path at the towns it passes: each piece is a link (a town ends a link)."""
    towns = state.board.towns
    pieces, start = [], 0
    for i in range(1, len(path) - 1):
        if path[i] in towns:
            pieces.append((path[start:i + 1], True))
            start = i
    pieces.append((path[start:], complete))
    return pieces


def _raise(message: str, key: str | None = None):
    raise InputError(message, key or "the advised build")


def _copy_player(p):
    import copy
    return copy.deepcopy(p)
