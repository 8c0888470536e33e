"""Zoo: what the sheet changes (../shared/seeds/easter-island-and-zoo.txt, section Zoo)."""
from __future__ import annotations

from solver.board.hexgrid import Hex
from solver.engine.ruleset import Ruleset
from solver.engine.moves import Ship


class Zoo(Ruleset):
    name = "zoo"
    # Food goes to any animal area (the danger numbers' colours "have no particular
    # meaning"), so a piece of food may pass animal areas on its way.
    pass_own_colour = True

    def tile_cost(self, state, h: Hex) -> int:
        # "Laying cost is $4 per tile" / Engineer: "Laying cost is $2 per tile, up to 4 tiles."
        s = state.scenario
        if state.action == "engineer" and s.engineer_track_cost is not None:
            return s.engineer_track_cost
        return super().tile_cost(state, h)

    def _track_problem(self, state, h: Hex, track: tuple[Hex, Hex]) -> str | None:
        problem = super()._track_problem(state, h, track)
        if problem or state.rules.exits_as_stops:
            return problem
        # Base rules: "New track must start at a city or town, or extend the player's own incomplete
        # track." The sheet makes an exit the end of a complete link, not a place to start from. Checked
        # per track, so the second track of a complex tile and an upgrade's track obey it too.
        board = state.board
        if not any(state.is_city(s) or s in board.towns or state.track_from(s, h) is not None for s in track):
            return (f"new track on {h} ({track[0]}-{track[1]}) must start at a city or town or extend track; "
                    "an exit is not a place to start (reading zoo-exits=literal)")
        return None

    def exit_link_problem(self, state, a: Hex, b: Hex) -> str | None:
        """Under zoo-exits=literal only an exit joined to an animal area is a complete link.

        "When you connect an exit hex with an animal area, it counts as a completed link."
        """
        if state.rules.exits_as_stops:
            return None
        exits = state.board.exits
        if (a in exits and not state.is_city(b)) or (b in exits and not state.is_city(a)):
            return (f"track between {state.board.label(a)} and {state.board.label(b)} is no complete link: only an "
                    "exit joined to an animal area is (reading zoo-exits=literal)")
        return None

    def bonus_tiles_pay(self, state) -> bool:
        # reading zoo-bonus-cost: "a free bonus placement" read as free of the limit (pays) or of the cost too
        return state.scenario.bonus_tiles_pay_cost and not state.rules.zoo_bonus_free

    def _tile_part(self, state, move) -> tuple[int, str]:
        from solver.engine.moves import UpgradeTile
        if isinstance(move, UpgradeTile) and state.rules.zoo_upgrade_cost == "per-tile" and not (
                move.bonus and not self.bonus_tiles_pay(state)):
            # reading zoo-upgrade-cost=per-tile: "Laying cost is $4 per tile" prices the crossing laid too
            cost = self.tile_cost(state, move.hex)
            return cost, f"upgrade priced as a tile ${cost} (reading zoo-upgrade-cost=per-tile)"
        return super()._tile_part(state, move)

    def lay_cost(self, state, move) -> int:
        if state.rules.zoo_town_cost != "per-tile":
            return super().lay_cost(state, move)
        # reading zoo-town-cost=per-tile: the town tile is a tile, laid (or replaced) at the sheet's tile cost
        # for each track it gains, in place of the base town fee
        cost, _ = self._tile_part(state, move)
        for side in self._new_sides(move):
            if side in state.board.towns and side not in state.new_cities:
                cost += self.tile_cost(state, side)
        return cost

    def accepts(self, state, stop: Hex, colour: str) -> bool:
        return state.is_city(stop)

    def virtual_hops(self, state) -> list:
        """Teleports: between any two exits that complete links reach (the exits are joined to each
        other; whether a route may use one is `hop_problem`'s, and "one pair of exits per shipment"
        `shipment_problem`'s)."""
        reached = {end for link in state.links() if link.complete for end in link.ends}
        exits = [h for h in state.board.exits if h in reached]
        return [(a, b) for i, a in enumerate(exits) for b in exits[i + 1:]]

    def danger(self, state, stop: Hex) -> int:
        if stop in state.new_cities:
            # "A new city tile placed by the Urbanization action counts as danger level 1."
            return state.scenario.new_city_danger
        city = state.board.cities.get(stop)
        return city.danger or 0 if city else 0

    def hop_problem(self, state, a: Hex, b: Hex, teleport: bool) -> str | None:
        if teleport:
            exits = state.board.exits
            if a not in exits or b not in exits:
                return f"a teleport joins two exit hexes ({a} to {b} is not one)"
            return None
        return super().hop_problem(state, a, b, False) or self.exit_link_problem(state, a, b)

    def locomotive_need(self, state, move: Ship) -> tuple[int, str]:
        links, _ = super().locomotive_need(state, move)
        # The origin's danger counts, so does every area passed; the destination's does not.
        dangers = {h: self.danger(state, h) for h in move.route[:-1]}
        if move.discount in dangers:
            dangers[move.discount] = max(0, dangers[move.discount] - state.scenario.feeding_discount)
        worst = max(dangers.values(), default=0)
        if worst > links:
            where = max(dangers, key=dangers.get)
            return worst, f"danger {worst} at {state.board.label(where)}"
        return links, f"{links} link" + ("" if links == 1 else "s")

    def shipment_problem(self, state, move: Ship) -> str | None:
        problem = self.teleport_index_problem(move)
        if problem:
            return problem
        # "You may use only one pair of exits per shipment."
        if len(move.teleports) > 1:
            return "only one pair of exits may be used per shipment"
        if state.rules.strict_exits:
            for i, h in enumerate(move.route[1:-1], start=1):
                if h in state.board.exits and i not in move.teleports and (i - 1) not in move.teleports:
                    return f"(strict exits) food entering the exit {h} must teleport"
        return super().shipment_problem(state, move)

    def discount_problem(self, state, move: Ship) -> str | None:
        # Feeding: "In one of your two shipments only, you may reduce any one danger level ... by 1."
        if state.action != "feeding":
            return "the danger discount needs the Feeding action this round"
        if state.discount_used:
            return "the Feeding discount applies in one shipment of the round only"
        if move.discount not in move.route or self.danger(state, move.discount) == 0:
            return f"the discount must lower a danger level in this shipment ({move.discount} is not one)"
        return None

    def after_shipment(self, state, move: Ship) -> None:
        # "Place one disc that is not a player color on each animal area you have fed."
        state.fed.add(move.route[-1])
        # "If you use an exit hex even once": a route through an exit (exit-use=pass) or a teleport only
        used = bool(move.teleports) if state.rules.exit_use == "teleport" else any(
            h in state.board.exits for h in move.route)
        if used:
            state.exit_used = True
        if move.discount is not None:
            state.discount_used = True

    def end_round(self, state) -> None:
        # "If you use an exit hex even once in your two shipments, you gain any one track tile."
        if state.exit_used:
            state.bonus_tiles += 1
        super().end_round(state)

    def animal_areas(self, state) -> list[Hex]:
        areas = list(state.board.cities)
        if state.rules.feed_new_cities:
            areas += list(state.new_cities)
        return areas

    def is_cleared(self, state) -> bool:
        # "The game is cleared once every animal area has received at least one piece of food."
        return all(h in state.fed for h in self.animal_areas(state))
