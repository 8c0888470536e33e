"""Human Body: what the sheet changes (../shared/seeds/human-body-and-synapses.txt, Human Body Map).

Organs are groups of hexes that count as one city; track ends at their edge and
several players may join one organ. Every hex costs $3 (bone too). The lungs
are joined by a disc link ($3). Odd rounds inhale (blue organs count as red),
even rounds exhale (red organs count as blue); the kidney takes yellow plus
the colour the face-down tile leaves visible. In 3-player games a grey disc
covers Urbanization in odd rounds (so never in round 1) and Engineer in even ones.
"""
from __future__ import annotations

from solver.multi.ruleset import MultiplayerRuleset
from solver.engine.moves import Ship


class HumanBody(MultiplayerRuleset):
    name = "human-body"
    required_rules = ("player_count", "goods_one_number", "goods_two_numbers", "lungs", "lung_disc_cost",
                      "kidney", "kidney_colour", "inhale_colour", "exhale_colour", "grey_disc_players",
                      "grey_disc_odd_rounds", "grey_disc_even_rounds", "bone_reading")
    player_keys = ("lung_disc",)
    marker_keys = ("tile_covers",)
    goods_place_words = "organs"

    def check_instance(self, instance, fail) -> None:
        super().check_instance(instance, fail)
        names = list(self.rule(instance, "lungs")) + [self.rule(instance, "kidney")]
        for name in names:
            area = instance.board.area_by_name(str(name))
            if area is None or area.kind != "organ":
                fail(f"{name!r} is not an [[organs]] entry of the board", "map_rules")
        if self.rule(instance, "bone_reading") != "town":
            fail("only the reading 'town' is modelled (bones are the board's [[towns]]); for the terrain reading "
                 "give the bones as mountain hexes and no towns", "map_rules.bone_reading")
        a, b = (instance.board.area_by_name(n) for n in self.rule(instance, "lungs"))
        if not any(x.is_neighbour(y) for x in a.hexes for y in b.hexes):
            fail("the lung disc sits on the boundary between the two lungs, so they must touch", "map_rules.lungs")

    def setup_counts(self, instance) -> dict[str, int]:
        # "Place 2 goods on each organ with one number, and 4 goods on each organ with two numbers."
        per = {1: self.rule(instance, "goods_one_number"), 2: self.rule(instance, "goods_two_numbers")}
        return {a.name: per.get(len(a.numbers), 0) for a in instance.board.areas if a.kind == "organ"}

    def goods_places(self, instance) -> set:
        return {a.hexes[0] for a in instance.board.areas if a.kind == "organ"} | set(instance.board.cities)

    def blocked_actions(self, instance, players: int, round_: int) -> set[str]:
        # "In a 3-player game, place 1 grey disc on the Urbanization action. This action cannot be chosen in
        # round 1." At each round end the disc moves between Urbanization and Engineer.
        if players != self.rule(instance, "grey_disc_players"):
            return set()
        key = "grey_disc_odd_rounds" if round_ % 2 == 1 else "grey_disc_even_rounds"
        return {self.rule(instance, key)}

    # -- breathing ---------------------------------------------------------------
    def breathing(self, state) -> str:
        """'inhale' in odd rounds, 'exhale' in even ones."""
        return "inhale" if state.round % 2 == 1 else "exhale"

    def visible_colour(self, state) -> str:
        """The colour the face-down tile leaves visible: red while inhaling, blue while exhaling."""
        return self.rule(state.instance, f"{self.breathing(state)}_colour")

    def organ_colours(self, state, stop) -> set[str]:
        area = state.area_stops.get(stop)
        if area is None:
            # "the shipping rules above also apply to new cities (new organs)": a new blue or red organ
            # breathes like the printed ones
            colour = state.city_colour(stop)
            inst = state.instance
            breathing = (self.rule(inst, "inhale_colour"), self.rule(inst, "exhale_colour"))
            if stop in state.new_cities and colour in breathing:
                return {self.visible_colour(state)}
            return {colour} if colour else set()
        inst = state.instance
        if area.name == self.rule(inst, "kidney"):
            # "The KIDNEY always accepts goods of two colours: yellow plus red, or yellow plus blue"
            return {self.rule(inst, "kidney_colour"), self.visible_colour(state)}
        if area.colour in (self.rule(inst, "inhale_colour"), self.rule(inst, "exhale_colour")):
            return {self.visible_colour(state)}
        return {area.colour} if area.colour else set()

    def accepts(self, state, stop, colour: str) -> bool:
        return state.is_city(stop) and colour in self.organ_colours(state, stop)

    # -- state --------------------------------------------------------------------
    def read_player_extras(self, state, r) -> None:
        owners = []
        for name, p in state.players.items():
            disc = p.extra.get("lung_disc", False)
            if not isinstance(disc, bool):
                r.fail(f"expected true or false, got {disc!r}", f"players.{name}.lung_disc")
            if disc:
                owners.append(name)
        if len(owners) > 1:
            r.fail(f"the lungs have one disc symbol; {', '.join(owners)} cannot all hold it", "players")
        covers = state.markers.get("tile_covers")
        want = "blue" if self.breathing(state) == "inhale" else "red"
        if covers is not None and covers != want:
            r.fail(f"in round {state.round} ({self.breathing(state)}) the face-down tile covers the {want} hex, "
                   f"not {covers!r}", "markers.tile_covers")

    def build_links(self, state) -> list:
        from solver.multi.state import OwnedLink
        out = super().build_links(state)
        a, b = (state.board.area_by_name(n).hexes[0] for n in self.rule(state.instance, "lungs"))
        for name, p in state.players.items():
            if p.extra.get("lung_disc"):
                out.append(OwnedLink((a, b), True, name))  # "a link can be connected by placing 1 disc"
        return out

    def header(self, state) -> list[str]:
        blocked = self.blocked_actions(state.instance, state.player_count, state.round)
        return [f"round {state.round}: {self.breathing(state)} (blue and red organs take "
                f"{self.visible_colour(state)}; the kidney takes {self.rule(state.instance, 'kidney_colour')} and "
                f"{self.visible_colour(state)})"
                + (f"; grey disc covers {', '.join(sorted(blocked))}" if blocked else "")]

    def effects(self, state, move: Ship) -> list[str]:
        return []

    def turn_effects(self, state) -> list[str]:
        nxt = state.clone()
        nxt.round = state.round + 1
        colour = self.visible_colour(nxt)
        return [f"next round ({nxt.round}) is {self.breathing(nxt)}: blue and red organs take {colour}; the "
                f"kidney takes {self.rule(state.instance, 'kidney_colour')} and {colour}"]

    # -- build cost ------------------------------------------------------------------
    FLAGS = ("own", "other", "public", "lung_disc")

    def build_graph(self, instance, state=None):
        g, max_degree, notes = super().build_graph(instance, state)
        board = instance.board
        bone_cost = instance.scenario.town_cost_base
        tracked = self.tracked_bones(state)
        # Bones are towns (map_rules.bone_reading): a bone tile is track, so an organ or another bone next to
        # it is joined by the bone tile alone; "the laying cost for BONE is also $3 in every case". A bone
        # without track costs $3 once, however many of its tracks a build lays (one tile); a bone that
        # already holds track costs nothing to pass over its existing links, and $3 for each new track laid
        # to it (each is track laid on it again).
        for bone in board.towns:
            if bone not in g:
                continue
            g.nodes[bone]["cost"] = 0 if bone in tracked else bone_cost
            for n in bone.neighbours():
                if not board.passable(bone, n):
                    continue
                area = board.area_of(n)
                other = area.hexes[0] if area is not None else (n if n in g else None)
                if other is None or other not in g or other == bone:
                    continue
                if g.has_edge(bone, other) and any(g.edges[bone, other].get(k) for k in self.FLAGS):
                    continue
                fee = bone_cost * ((bone in tracked) + (other in tracked and other in board.towns))
                g.add_edge(bone, other, weight=fee, new_track=True)
        if board.towns:
            notes.append(f"a bone is a town: links end there; ${bone_cost} for a bone tile laid on a bare bone "
                         f"(one tile, however many tracks), ${bone_cost} for each new track laid to a bone that "
                         "already holds track, nothing to pass over existing links (map_rules.bone_reading)")
        a, b = (instance.board.area_by_name(n).hexes[0] for n in self.rule(instance, "lungs"))
        held = state is not None and any(p.extra.get("lung_disc") for p in state.players.values())
        mine = state is not None and state.me.extra.get("lung_disc")
        if mine:
            g.add_edge(a, b, weight=0)
        elif not held:
            g.add_edge(a, b, weight=self.rule(instance, "lung_disc_cost"), lung_disc=True)
            notes.append(f"the lung disc joins the two lungs for ${self.rule(instance, 'lung_disc_cost')}")
        return g, max_degree, notes

    def build_search_space(self, instance, state=None) -> str:
        return super().build_search_space(instance, state) + (
            "; organs joined at their edge, bone tiles as towns ($3 on a bare bone, $3 for each new track to a "
            "bone with track), the lung disc ($3) between the lungs")

    def tile_counted_at(self, state, town) -> bool:
        # reading bone-track-tile (solver/multi/readings.py): "counted" (default) lays a new bone tile
        return (state.instance.map_rules.get("bone_track_tile", "counted") == "counted"
                and town in self.tracked_bones(state))

    def lung_disc_counts(self, state) -> bool:
        # reading lung-disc-tile: "free" (default), the limit is on track tiles
        return state.instance.map_rules.get("lung_disc_tile", "free") == "counted"

    @staticmethod
    def tracked_bones(state) -> set:
        if state is None:
            return set()
        towns = state.board.towns
        return {end for link in state.links() if link.owner is not None for end in link.ends if end in towns}

    def network_pieces(self, instance, state, g, net) -> tuple[list, list]:
        """The tiles and links of a found network, bone tiles included: a bone is a stop, so the Steiner
        tree reaches it by stop-to-stop edges that `split_links` does not list."""
        board = instance.board
        bones, extra, is_stop = set(), [], self.is_build_stop(instance)
        for a, b in net.edges:
            data = g.edges[a, b] if g.has_edge(a, b) else {}
            if not data.get("new_track") or not (is_stop(a) and is_stop(b)):
                continue
            for h in (a, b):
                if h in board.towns:
                    bones.add(h)
            extra.append(tuple(sorted((a, b))))
        for a, b in net.edges:
            for h in (a, b):
                if h in board.towns and g.nodes[h].get("cost", 0) > 0:
                    bones.add(h)
        hexes = sorted(set(net.hexes) | bones)
        return hexes, list(net.links) + sorted(set(extra))
