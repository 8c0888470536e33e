"""Kansas City Interurban: what the sheet changes (../shared/seeds/kansas-city-interurban.txt).

No Engine track: a player's delivery length is set by power plants (2 links
each) and Interurban Express (+1). Boom or Bust: no delivery shorter than the
player's longest so far, except in the final turn. Goods move only over the
active player's own links, and may transfer between the two Kansas City hexes
for $1 (no link, no income). Track: $2 plain, $3 river, $4 on the 8 starting
hexes around Kansas City; every player's track is contiguous back to Kansas City.
"""
from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from solver.multi.ruleset import MultiplayerRuleset
from solver.engine.moves import Ship


@dataclass(frozen=True)
class BuildPowerPlant:
    """"Players may skip one delivery per turn to build a Power Plant for $5." (a shipping step)"""

    def __str__(self) -> str:
        return "power-plant"


class KansasCity(MultiplayerRuleset):
    name = "kansas-city"
    required_rules = ("player_count", "kc_kansas", "kc_missouri", "starting_hexes", "links_per_power_plant",
                      "power_plant_cost", "transfer_fee", "express_action", "express_bonus",
                      "express_marker_less", "start_hex_cost", "production_cubes", "share_expense",
                      "power_plant_expense", "setup_goods", "town_goods")
    player_keys = ("power_plants", "longest_delivery")
    goods_place_words = "cities and towns"
    # "Goods can only be delivered over the active player's links"
    ship_over_others = False
    # End of an Era changes the rules of the final turn, so a state must say whether it is the final turn
    # when the round count is assumed.
    final_turn_matters = True

    # -- board ---------------------------------------------------------------
    def kc(self, instance) -> tuple:
        board = instance.board
        return (board.stop_by_name(self.rule(instance, "kc_kansas")),
                board.stop_by_name(self.rule(instance, "kc_missouri")))

    def starting_hexes(self, instance) -> set:
        """The hexes next to either Kansas City hex (the sheet: 8 of them)."""
        a, b = self.kc(instance)
        board = instance.board
        return {n for h in (a, b) for n in h.neighbours() if board.on_map(n) and n not in (a, b)}

    def check_instance(self, instance, fail) -> None:
        super().check_instance(instance, fail)
        a, b = self.kc(instance)
        if a is None or b is None:
            fail("both Kansas City hexes must be cities of the board", "map_rules.kc_kansas")
        if not a.is_neighbour(b):
            fail("the two Kansas City hexes must be neighbours (8 starting hexes lie around them)", "map_rules.kc_kansas")
        starts = self.starting_hexes(instance)
        want = self.rule(instance, "starting_hexes")
        if len(starts) != want or any(not instance.board.buildable(h) for h in starts):
            fail(f"the sheet has {want} buildable starting hexes around Kansas City; this board has "
                 f"{len(starts)} ({', '.join(sorted(map(str, starts)))})", "map_rules.starting_hexes")

    def setup_counts(self, instance) -> dict[str, int]:
        named = dict(self.rule(instance, "setup_goods"))
        out = {c.name: named.get(c.name, named.get("other cities")) for c in instance.board.cities.values()}
        out.update({t.name: self.rule(instance, "town_goods") for t in instance.board.towns.values()})
        return out

    def goods_places(self, instance) -> set:
        return super().goods_places(instance) | set(instance.board.towns)

    def tile_cost_at(self, instance, h) -> int:
        # "Track costs: Plain hexes cost $2, river hexes cost $3, starting hexes cost $4."
        if h in self.starting_hexes(instance):
            return self.rule(instance, "start_hex_cost")
        return super().tile_cost_at(instance, h)

    def tile_cost(self, state, h) -> int:
        return self.tile_cost_at(state.instance, h)

    # -- state ----------------------------------------------------------------
    def read_player_extras(self, state, r) -> None:
        for name, p in state.players.items():
            for key in self.player_keys:
                value = p.extra.get(key, 0)
                if isinstance(value, bool) or not isinstance(value, int):
                    r.fail(f"expected a whole number, got {value!r}", f"players.{name}.{key}")
                if value < 0:
                    what = "power plant level" if key == "power_plants" else "longest delivery"
                    r.fail(f"a {what} cannot be below zero, got {value}", f"players.{name}.{key}")
                p.extra[key] = value

    def check_link(self, state, owner, path, complete, fail) -> None:
        a, b = self.kc(state.instance)
        # "The Kansas City, Kansas and Kansas City, Missouri hexes cannot be directly connected with track tiles."
        if complete and set(link_ends(path)) == {a, b}:
            fail("the two Kansas City hexes cannot be joined with track tiles (their interurban connection is "
                 "not claimable)")

    def check_state(self, state, fail) -> None:
        # "Each player's track must be contiguous back to Kansas City."
        a, b = self.kc(state.instance)
        for name, p in state.players.items():
            g = nx.Graph()
            g.add_edge(a, b)
            for path, complete in p.links:
                g.add_edge(path[0], path[-1] if complete else ("open", path[-1]))
            for i, (path, complete) in enumerate(p.links):
                if not nx.has_path(g, path[0], a):
                    fail(f"{name}'s track must be contiguous back to Kansas City; "
                         f"{state.board.label(path[0])} is not joined to it", f"players.{name}.links[{i}]")
        self._check_first_turn_start(state, fail)

    def _check_first_turn_start(self, state, fail) -> None:
        """"Railroads must begin at one of the 8 starting hexes adjacent to the two Kansas City hexes ... using
        a simple track tile. In later turns the remaining starting hexes may be built on without restriction."
        In round 1 (every player's first build) a player's track holds at most one starting hex. The tile there
        is simple: one track per hex is all the state and the build search allow (complex tiles are not
        modelled, a hex in two links is refused)."""
        if state.round != 1:
            return
        starts = self.starting_hexes(state.instance)
        for name, p in state.players.items():
            used = sorted({h for path, complete in p.links for h in (path[1:-1] if complete else path[1:])
                           if h in starts}, key=str)
            if len(used) > 1:
                fail(f"in round 1 a railroad begins at ONE of the 8 starting hexes with a simple track tile (the "
                     f"sheet: 'In later turns the remaining starting hexes may be built on'); {name}'s track "
                     f"uses {len(used)}: {', '.join(map(str, used))}", f"players.{name}.links")

    def round_one_goods_limit(self, state, name, setup, before_actions) -> int:
        # Production's cubes come in goods growth: "If the Production action was selected this turn, a total of
        # 4 cubes will be drawn and placed; two on the Goods Display and 1 each on the two Kansas City hexes."
        # Goods growth ends the turn, so in round 1 no stop holds more than its setup count.
        return setup

    def check_reachable(self, state, fail, before_actions) -> None:
        # "Players may skip one delivery per turn to build a Power Plant": at most one a turn.
        per = self.rule(state.instance, "links_per_power_plant")
        for name, p in state.players.items():
            # "Each Power Plant provides electricity for up to 2 links"; with Interurban Express one link more
            # but the marker "1 less space": the Delivery marker never passes 2 per power plant (power plants
            # are never lost, so the count now bounds every delivery so far).
            pp, longest = p.extra.get("power_plants", 0), p.extra.get("longest_delivery", 0)
            if longest > per * pp:
                fail(f"{name}'s longest delivery {longest} needs {-(-longest // per)} power plants "
                     f"({per} links each; Interurban Express's extra link moves the marker 1 less), but "
                     f"{name} has {pp}", f"players.{name}.longest_delivery")
            # built in shipping only: this turn's counts once the active player's first step built one
            # (another player may have shipped already this turn)
            done = state.turn_phase == "shipping-second" and state.first_step == "power-plant"
            most = state.round - 1 + (1 if done or (name != state.active and state.turn_phase != "before-actions")
                                      else 0)
            if p.extra.get("power_plants", 0) > most:
                fail(f"{name} has {p.extra['power_plants']} power plants, but at most one is built a turn "
                     f"({most} by round {state.round})", f"players.{name}.power_plants")

    # -- deliveries -------------------------------------------------------------
    def express(self, state) -> bool:
        return state.action == self.rule(state.instance, "express_action")

    def link_capacity(self, state) -> int:
        # "Each Power Plant provides electricity for up to 2 links"; Interurban Express: "a temporary +1".
        inst = state.instance
        cap = state.me.extra.get("power_plants", 0) * self.rule(inst, "links_per_power_plant")
        return cap + (self.rule(inst, "express_bonus") if self.express(state) else 0)

    def max_route_links(self, state) -> int:
        return state.locomotive

    def usable_links(self, state, a, b) -> list:
        # "Goods can only be delivered over the active player's links"
        return [link for link in super().usable_links(state, a, b) if link.owner == state.active]

    def virtual_hops(self, state) -> list:
        return [self.kc(state.instance)]

    def hop_problem(self, state, a, b, teleport: bool) -> str | None:
        if teleport:
            if {a, b} != set(self.kc(state.instance)):
                return "interurban transfers join only the two Kansas City hexes"
            return None
        if not self.usable_links(state, a, b):
            others = [link.owner for link in super().usable_links(state, a, b)]
            if others:
                return (f"goods can only be delivered over the active player's links; the link "
                        f"{state.board.label(a)}-{state.board.label(b)} is {others[0]}'s")
            return f"no complete link joins {state.board.label(a)} and {state.board.label(b)}"
        return None

    def shipment_problem(self, state, move: Ship) -> str | None:
        links, _ = self.locomotive_need(state, move)
        # "This movement does not count for links": a transfer alone moves a good over no link at all.
        if links < 1:
            return "an interurban transfer does not count for links; a delivery uses at least one link"
        if links > state.locomotive:
            return (f"the delivery uses {links} links but {self.capacity_text(state)} power only "
                    f"{state.locomotive}")
        longest = state.me.extra.get("longest_delivery", 0)
        if links < longest and not state.final_turn:
            return (f"Boom or Bust: a delivery must be at least as long as the longest so far ({longest} links); "
                    f"this one uses {links} (allowed only in the final turn)")
        fee = self.delivery_cost(state, move)
        if fee > state.cash:
            return f"the interurban transfer costs ${fee} but only ${state.cash} is in hand"
        return super().shipment_problem(state, move)

    def capacity_text(self, state) -> str:
        pp = state.me.extra.get("power_plants", 0)
        text = f"{pp} power plant{'' if pp == 1 else 's'} x {self.rule(state.instance, 'links_per_power_plant')} links"
        if self.express(state):
            text += f" + {self.rule(state.instance, 'express_bonus')} (Interurban Express)"
        return text

    def limit_text(self, state, move: Ship) -> str:
        links, _ = self.locomotive_need(state, move)
        longest = state.me.extra.get("longest_delivery", 0)
        floor = "final turn: no minimum" if state.final_turn else f"Boom or Bust minimum {longest}"
        return f"{links} of {state.locomotive} links ({self.capacity_text(state)}); {floor}"

    def marker_at_turn_end(self, instance) -> bool:
        """Reading boom-or-bust-marker (solver/multi/readings.py): end-of-turn moves the Delivery marker once,
        after both deliveries; each-delivery (default) after every delivery."""
        return instance.map_rules.get("boom_or_bust_marker", "each-delivery") == "end-of-turn"

    def new_marker(self, state, move: Ship) -> int:
        links, _ = self.locomotive_need(state, move)
        longest = max(state.me.extra.get("longest_delivery", 0), state.me.extra.get("turn_marker", 0))
        # Interurban Express: "advance the delivery marker 1 less space ... than their longest delivery"
        moved = links - (self.rule(state.instance, "express_marker_less") if self.express(state) else 0)
        return max(longest, moved)

    def delivery_cost(self, state, move: Ship) -> int:
        return len(move.teleports) * self.rule(state.instance, "transfer_fee")

    def effects(self, state, move: Ship) -> list[str]:
        out = []
        longest = state.me.extra.get("longest_delivery", 0)
        marker = self.new_marker(state, move)
        if marker != max(longest, state.me.extra.get("turn_marker", 0)):
            when = " at the end of the turn" if self.marker_at_turn_end(state.instance) else ""
            out.append(f"Delivery marker moves from {longest} to {marker}{when}")
        if move.teleports:
            out.append(f"interurban transfer: ${self.delivery_cost(state, move)} to the bank, no link, no income")
        return out

    def after_shipment(self, state, move: Ship) -> None:
        if self.marker_at_turn_end(state.instance):
            state.me.extra["turn_marker"] = self.new_marker(state, move)   # moved in the income phase
        else:
            state.me.extra["longest_delivery"] = self.new_marker(state, move)

    def income_phase(self, state) -> dict:
        # reading end-of-turn: the Delivery marker moves once, by the turn's longest delivery, when the turn ends
        pending = state.me.extra.pop("turn_marker", None)
        if pending is not None:
            state.me.extra["longest_delivery"] = max(state.me.extra.get("longest_delivery", 0), pending)
        return super().income_phase(state)

    def _check_UpgradeLocomotive(self, state, move) -> str | None:
        return "Kansas City Interurban has no Engine track (build a power plant instead)"

    def options(self, state) -> list[str]:
        cost = self.rule(state.instance, "power_plant_cost")
        pp = state.me.extra.get("power_plants", 0)
        if state.cash >= cost:
            after = state.clone()
            after.me.extra["power_plants"] = pp + 1
            extra = " with Interurban Express" if self.express(state) else ""
            return [f"skip a delivery to build a power plant for ${cost}: power plants {pp} -> {pp + 1}, "
                    f"deliveries up to {self.link_capacity(after)} links{extra}"]
        return [f"a power plant costs ${cost}; only ${state.cash} in hand"]

    def step_moves(self, state) -> list:
        return [BuildPowerPlant()]

    def why_illegal(self, state, move) -> str | None:
        if isinstance(move, BuildPowerPlant):
            if state.phase == "ship" and state.shipments_done >= state.scenario.shipments_per_round:
                return "the shipping phase has 2 steps and they are used"
            return self._check_BuildPowerPlant(state, move)
        return super().why_illegal(state, move)

    def step_text(self, state, move) -> str:
        if isinstance(move, BuildPowerPlant):
            pp = state.me.extra.get("power_plants", 0)
            return f"build a power plant (skip this delivery): power plants {pp} -> {pp + 1}"
        return super().step_text(state, move)

    def step_cost(self, state, move) -> int:
        return self.rule(state.instance, "power_plant_cost") if isinstance(move, BuildPowerPlant) else 0

    def step_effects(self, state, move) -> list[str]:
        if isinstance(move, BuildPowerPlant):
            after = state.clone()
            after.me.extra["power_plants"] = after.me.extra.get("power_plants", 0) + 1
            return [f"deliveries up to {self.link_capacity(after)} links; expenses +"
                    f"${self.rule(state.instance, 'power_plant_expense')} a turn"]
        return []

    def turn_effects(self, state) -> list[str]:
        me = state.me
        longest = me.extra.get("longest_delivery", 0)
        return [f"Boom or Bust: the Delivery marker stands at {longest}; next turn every delivery needs at least "
                f"{longest} links (except in the final turn); power plants {me.extra.get('power_plants', 0)}",
                f"goods growth: one drawn cube onto each of {self.rule(state.instance, 'kc_kansas')} and "
                f"{self.rule(state.instance, 'kc_missouri')} (with Production {self.production_cubes(state.instance)} "
                "cubes are drawn, 2 go to the Goods Display and the Production holder chooses which cube goes "
                "where), then dice as normal; the draws are random and not searched"]

    def _check_BuildPowerPlant(self, state, move) -> str | None:
        cost = self.rule(state.instance, "power_plant_cost")
        if state.locomotive_raised:
            return "a player may skip only one delivery per turn to build a power plant"
        if state.cash < cost:
            return f"a power plant costs ${cost}; only ${state.cash} in hand"
        return None

    def _apply_BuildPowerPlant(self, state, move) -> None:
        # "Move the player's marker up 1 on the Power Plant Track." (the once-a-turn flag is the Engine's)
        state.me.extra["power_plants"] = state.me.extra.get("power_plants", 0) + 1
        state.cash -= self.rule(state.instance, "power_plant_cost")
        state.me.cash = state.cash
        state.locomotive = self.link_capacity(state)
        state.locomotive_raised = True
        state.shipments_done += 1

    def expenses(self, instance, player) -> int:
        # "Expenses are $1 per share issued and $1 per Power Plant built."
        return (player.shares * self.rule(instance, "share_expense")
                + player.extra.get("power_plants", 0) * self.rule(instance, "power_plant_expense"))

    def production_cubes(self, instance) -> int:
        return self.rule(instance, "production_cubes")

    def header(self, state) -> list[str]:
        me = state.me
        return [f"power plants {me.extra.get('power_plants', 0)}, longest delivery "
                f"{me.extra.get('longest_delivery', 0)}, action {state.action or 'none'}"
                + (", final turn" if state.final_turn else "")
                + f"; expenses ${self.expenses(state.instance, me)} a turn"]

    # -- build cost ----------------------------------------------------------------
    def build_graph(self, instance, state=None):
        g, max_degree, notes = super().build_graph(instance, state)
        a, b = self.kc(instance)
        # The interurban connection: usable, never built, so the network never joins them with track.
        g.add_edge(a, b, weight=0, interurban=True)
        notes.append("the two Kansas City hexes are joined by the interurban connection (no track; $1 per "
                     "transfer in a delivery)")
        return g, max_degree, notes

    def build_search_space(self, instance, state=None) -> str:
        return super().build_search_space(instance, state).replace(
            " and other players' complete links", "") + (
            "; the network joins Kansas City (contiguity) and never joins the two Kansas City hexes with track; "
            "not searched: the round-1 limit of one starting hex per player")

    def build_terminals(self, instance, stops, state=None):
        a, _ = self.kc(instance)
        if a in stops or self.kc(instance)[1] in stops:
            return list(stops), []
        return list(stops) + [a], ["every player's track is contiguous back to Kansas City, so the network "
                                   "also joins Kansas City"]


def link_ends(path) -> tuple:
    return path[0], path[-1]
