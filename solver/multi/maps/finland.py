"""Finland: what the sheet changes (../shared/seeds/finland-and-portugal.txt, section Finland).

Russia and Sweden are zones: stops that take goods of every colour while they
hold goods, lose one good per delivery, and from which no track may be built.
Sweden opens when the first player reaches the '4 links' box. The public
Espoo-Helsinki and Helsinki-Vantaa track costs a link and earns no income (the
shared engine does this: public links have no owner).
"""
from __future__ import annotations

from solver.multi.ruleset import MultiplayerRuleset
from solver.engine.moves import Ship


class Finland(MultiplayerRuleset):
    name = "finland"
    required_rules = ("player_count", "russia_zone", "sweden_zone", "russia_goods", "four_links_cubes",
                      "four_links_level", "city_goods", "zone_reading")
    #: the two readings of a zone (map_rules.zone_reading); docs/multiplayer.md names them
    ZONE_READINGS = ("end-only", "city")
    marker_keys = ("sweden_open", "four_links_box")
    goods_place_words = "cities and the Russia and Sweden zones"

    def check_instance(self, instance, fail) -> None:
        super().check_instance(instance, fail)
        for key in ("russia_zone", "sweden_zone"):
            name = instance.map_rules.get(key)
            area = instance.board.area_by_name(str(name))
            if area is None or area.kind != "zone":
                fail(f"{name!r} is not a [[zones]] entry of the board", f"map_rules.{key}")
        if instance.map_rules.get("zone_reading") not in self.ZONE_READINGS:
            fail(f"expected one of {', '.join(self.ZONE_READINGS)}", "map_rules.zone_reading")

    def end_only(self, instance) -> bool:
        """Reading "end-only": a zone is where track ends, never a junction: "Track may not be built from a
        zone. Track built to a zone comprises a Completed Railroad Link." Goods move to it or from it,
        never through it (held goods or not), and a build never joins two stops through it.
        Reading "city": a zone is a city of every colour while it holds goods (passed through when empty)."""
        return self.rule(instance, "zone_reading") == "end-only"

    def is_zone(self, state, stop) -> bool:
        return stop in state.area_stops and state.area_stops[stop].kind == "zone"

    def shipment_problem(self, state, move: Ship) -> str | None:
        if self.end_only(state.instance):
            for stop in move.route[1:-1]:
                if self.is_zone(state, stop):
                    return (f"a good never passes through a zone ({state.area_stops[stop].name}): track ends "
                            "there and is never built from it (zone_reading end-only)")
        return super().shipment_problem(state, move)

    def build_search_space(self, instance, state=None) -> str:
        return super().build_search_space(instance, state) + (
            "; a zone is an end of track, never a junction (zone_reading end-only)" if self.end_only(instance)
            else "")

    def restrict_build(self, instance, g, max_degree, terminals) -> list[str]:
        if not self.end_only(instance):
            return []
        out = []
        for zone in (self.zone(instance, "russia_zone"), self.zone(instance, "sweden_zone")):
            if zone not in g:
                continue
            if zone in terminals:
                max_degree[zone] = 1  # one link ends there; the zone joins nothing else
            else:
                g.remove_node(zone)
            out.append(f"{instance.board.area_of(zone).name} is an end of track, never a junction "
                       "(zone_reading end-only)")
        return out

    def zone(self, state_or_inst, key: str):
        inst = getattr(state_or_inst, "instance", state_or_inst)
        return inst.board.area_by_name(self.rule(inst, key)).hexes[0]

    def setup_counts(self, instance) -> dict[str, int]:
        counts = super().setup_counts(instance)
        counts[self.rule(instance, "russia_zone")] = self.rule(instance, "russia_goods")
        return counts

    def sweden_open(self, state) -> bool:
        return bool(state.markers.get("sweden_open", False))

    def zone_open(self, state, stop) -> bool:
        if stop == self.zone(state, "russia_zone"):
            return True
        return self.sweden_open(state)

    def accepts(self, state, stop, colour: str) -> bool:
        # "At the start of the game, the Russia zone accepts all color Goods ... If the Russia zone has no
        # Goods, the Russia zone no longer accepts Goods." (Sweden likewise, once opened.)
        if stop in state.area_stops and state.area_stops[stop].kind == "zone":
            return self.zone_open(state, stop) and bool(state.goods.get(stop))
        return super().accepts(state, stop, colour)

    def check_link(self, state, owner, path, complete, fail) -> None:
        # "Track may not be built from a zone. Track built to a zone comprises a Completed Railroad Link."
        start = path[0]
        if not complete and start in state.area_stops and state.area_stops[start].kind == "zone":
            fail(f"track may not be built from a zone ({state.area_stops[start].name})")

    def check_state(self, state, fail) -> None:
        box = state.markers.get("four_links_box", [])
        if not isinstance(box, list) or any(c not in ("red", "blue", "yellow", "purple", "black") for c in box):
            fail("expected a list of cube colours", "markers.four_links_box")
        if len(box) > self.rule(state.instance, "four_links_cubes"):
            fail(f"the '4 links' box holds {self.rule(state.instance, 'four_links_cubes')} cubes at most",
                 "markers.four_links_box")
        sweden = self.zone(state, "sweden_zone")
        level = self.rule(state.instance, "four_links_level")
        russia = self.zone(state, "russia_zone")
        if len(state.goods.get(russia, [])) > self.rule(state.instance, "russia_goods"):
            fail(f"Russia holds {len(state.goods[russia])} goods, but setup puts "
                 f"{self.rule(state.instance, 'russia_goods')} there and a zone never gains goods (the sheet: "
                 "'When a Good is moved to the Russia zone, remove one of the Goods'; goods growth places cubes "
                 "on cities)", "goods")
        if len(state.goods.get(sweden, [])) > self.rule(state.instance, "four_links_cubes"):
            fail(f"Sweden holds {len(state.goods[sweden])} goods, but it opens with the "
                 f"{self.rule(state.instance, 'four_links_cubes')} cubes of the '4 links' box and never gains goods",
                 "goods")
        if not self.sweden_open(state):
            if state.goods.get(sweden):
                fail("Sweden holds goods only after it opens (markers.sweden_open = true)", "goods")
            reached = [n for n, p in state.players.items() if p.locomotive >= level]
            if reached:
                fail(f"{reached[0]} has reached the '4 links' box, so Sweden is open: set sweden_open = true "
                     "and move the box's cubes to Sweden", "markers.sweden_open")
            if "four_links_box" not in state.markers:
                fail(f"Sweden is closed, so the '4 links' box still holds its "
                     f"{self.rule(state.instance, 'four_links_cubes')} cubes: give their colours (they go to "
                     "Sweden when it opens)", "markers.four_links_box")
        elif box:
            fail("Sweden is open, so the '4 links' box is empty", "markers.four_links_box")
        else:
            # "The first player whose token moves into the '4 Links' box ... places the 5 cubes on the Sweden
            # zone": locomotives never go down, so an open Sweden means someone has reached the box.
            if not any(p.locomotive >= level for p in state.players.values()):
                fail(f"Sweden opens when the first player's locomotive reaches the '4 links' box (level {level}); "
                     f"every locomotive here is below {level}", "markers.sweden_open")
        if not self.sweden_open(state) and "four_links_box" in state.markers \
                and len(box) != self.rule(state.instance, "four_links_cubes"):
            fail(f"Sweden is closed, so the '4 links' box still holds its "
                 f"{self.rule(state.instance, 'four_links_cubes')} "
                 f"cubes (the sheet: 'Place 5 cubes in the 4 links box'; they leave it only when Sweden opens), "
                 f"not {len(box)}", "markers.four_links_box")

    def effects(self, state, move: Ship) -> list[str]:
        dest = move.route[-1]
        if dest in state.area_stops:
            left = len(state.goods.get(dest, [])) - 1
            name = state.area_stops[dest].name
            more = f"{left} left" if left else "none left: it accepts no more goods"
            return [f"one good is removed from {name} ({more})"]
        return []

    def after_shipment(self, state, move: Ship) -> None:
        dest = move.route[-1]
        if dest in state.area_stops and state.goods.get(dest):
            # "When a Good is moved to the Russia zone, remove one of the Goods": which one is the player's
            # choice (solver/multi/choices.py); a move that names none removes the bottom one
            removes = getattr(move, "removes", None)
            cubes = state.goods[dest]
            cubes.pop(cubes.index(removes) if removes in cubes else 0)

    def removal_choices(self, state, move) -> list[str]:
        dest = move.route[-1]
        if dest in state.area_stops and state.goods.get(dest):
            return sorted(set(state.goods[dest]))
        return []

    def _apply_UpgradeLocomotive(self, state, move) -> None:
        super()._apply_UpgradeLocomotive(state, move)
        # "The first player whose token moves into the '4 Links' box ... immediately places the 5 cubes in
        # that box on the Sweden zone."
        if state.me.locomotive >= self.rule(state.instance, "four_links_level") and not self.sweden_open(state):
            sweden = self.zone(state, "sweden_zone")
            state.goods.setdefault(sweden, []).extend(state.markers.get("four_links_box", []))
            state.markers["four_links_box"] = []
            state.markers["sweden_open"] = True

    def round_one_goods_limit(self, state, name, setup, before_actions) -> int:
        # Sweden starts empty and receives the 5 cubes of the '4 links' box when it opens.
        if name == self.rule(state.instance, "sweden_zone"):
            return self.rule(state.instance, "four_links_cubes")
        return setup

    def turn_effects(self, state) -> list[str]:
        out = []
        for key in ("russia_zone", "sweden_zone"):
            zone = self.zone(state, key)
            name = self.rule(state.instance, key)
            left = len(state.goods.get(zone, []))
            if key == "sweden_zone" and not self.sweden_open(state):
                out.append(f"{name} is closed ('4 links' box: {len(state.markers.get('four_links_box', []))} "
                           "cubes)")
            else:
                out.append(f"{name} holds {left} goods" + ("" if left else ": it accepts no more goods"))
        return out

    def header(self, state) -> list[str]:
        russia, sweden = self.zone(state, "russia_zone"), self.zone(state, "sweden_zone")
        return [f"Russia holds {len(state.goods.get(russia, []))} goods; Sweden is "
                + (f"open with {len(state.goods.get(sweden, []))} goods" if self.sweden_open(state)
                   else f"closed ('4 links' box: {len(state.markers.get('four_links_box', []))} cubes)")]
