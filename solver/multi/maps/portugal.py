"""Portugal: what the sheet changes (../shared/seeds/finland-and-portugal.txt, section Portugal).

The Rada de Lisboa is an impassable hexside (board file); setup puts 4 goods on
Lisboa, 3 on Porto, 2 elsewhere; in the first turn each player may place one
simple track for free before actions are selected; goods growth refills Lisboa
to 3 goods.
"""
from __future__ import annotations

from solver.multi.ruleset import MultiplayerRuleset


class Portugal(MultiplayerRuleset):
    name = "portugal"
    required_rules = ("player_count", "lisboa", "porto", "lisboa_goods", "porto_goods", "city_goods",
                      "lisboa_refill", "free_simple_tracks", "free_track_round")
    player_keys = ("free_track_used",)

    def check_instance(self, instance, fail) -> None:
        super().check_instance(instance, fail)
        for key in ("lisboa", "porto"):
            if instance.board.city_by_name(str(instance.map_rules.get(key))) is None:
                fail(f"{instance.map_rules.get(key)!r} is not a city of the board", f"map_rules.{key}")

    def setup_counts(self, instance) -> dict[str, int]:
        counts = super().setup_counts(instance)
        counts[self.rule(instance, "lisboa")] = self.rule(instance, "lisboa_goods")
        counts[self.rule(instance, "porto")] = self.rule(instance, "porto_goods")
        return counts

    def read_player_extras(self, state, r) -> None:
        for name, p in state.players.items():
            used = p.extra.get("free_track_used", False)
            if not isinstance(used, bool):
                r.fail(f"expected true or false, got {used!r}", f"players.{name}.free_track_used")
            if state.round > self.rule(state.instance, "free_track_round") and not used:
                used = True  # the free track exists in the first turn only
            p.extra["free_track_used"] = used

    def free_tracks(self, state) -> int:
        """Free simple tracks the active player may still place (first turn, before actions are selected)."""
        if state is None or state.round != self.rule(state.instance, "free_track_round"):
            return 0
        if state.me.extra.get("free_track_used") or state.turn_phase != "before-actions":
            return 0
        return self.rule(state.instance, "free_simple_tracks")

    def free_tiles_allowed(self, state, player) -> int:
        # "In the first turn only, just before actions are selected, each player ... may place one Simple
        # track for free"
        return self.rule(state.instance, "free_simple_tracks") if player.extra.get("free_track_used") else 0

    def lisboa_refill(self, state) -> int:
        """Goods growth: 'If Lisboa has less than 3 Goods, draw and place Goods on Lisboa until it reaches 3.'"""
        lisboa = state.board.stop_by_name(self.rule(state.instance, "lisboa"))
        return max(0, self.rule(state.instance, "lisboa_refill") - len(state.goods.get(lisboa, [])))

    def turn_effects(self, state) -> list[str]:
        lisboa = self.rule(state.instance, "lisboa")
        return [f"goods growth will draw {self.lisboa_refill(state)} good(s) onto {lisboa} (refilled to "
                f"{self.rule(state.instance, 'lisboa_refill')})"]

    def header(self, state) -> list[str]:
        lines = [f"goods growth will draw {self.lisboa_refill(state)} good(s) onto Lisboa (refilled to "
                 f"{self.rule(state.instance, 'lisboa_refill')})"]
        if self.free_tracks(state):
            lines.append(f"{state.active} may still place {self.free_tracks(state)} simple track for free "
                         "before actions are selected")
        return lines

    def build_search_space(self, instance, state=None) -> str:
        out = super().build_search_space(instance, state)
        if self.free_tracks(state):
            out += ("; the first turn's free simple track on any tile of the network next to a city or town it "
                    "starts from")
        return out

    def adjust_build_cost(self, instance, net, state=None, graph=None, terminals=None, time_limit=10.0):
        """The free simple track of the first turn: one tile of the build costs nothing, but it is the
        player's first track, and "New track must start at a city or town" (base rules), so it is a tile
        next to a stop on a link that starts there. Search space: every network joining the stops in the
        map's build graph, each with its free tile on any hex next to a city or town of it.

        Found: the optimizer's network less its dearest qualifying tile. Bound: for each hex h next to a
        stop s whose tile could save more than the found network does, the Steiner optimum joining the
        stops, s and h with h free bounds every network using the free tile at h from s; with the plain
        optimum (free tile elsewhere or unused) their minimum bounds every network. A candidate whose
        optimum uses h as the first tile from s is itself a network, so it may also lower the found cost."""
        free = self.free_tracks(state) if state is not None else 0
        if not free or net.cost is None:
            return net.cost, net.lower_bound, []
        board = instance.board
        first = self.first_tiles(board, net.links, set(net.hexes))
        saved = max((self.tile_cost_at(instance, h) for h in first), default=0)
        cost = net.cost - saved
        lb0 = net.lower_bound if net.lower_bound is not None else net.cost
        cands = sorted({(h, n) for n in board.terrain if board.is_stop(n) for h in n.neighbours()
                        if board.buildable(h) and board.passable(n, h) and h in (graph[0] if graph else ())})
        bound, solved = lb0, 0
        if graph is None or terminals is None:
            bound = lb0 - max((self.tile_cost_at(instance, h) for h, _ in cands), default=0)
        else:
            from models.network import cheapest_network
            g, max_degree = graph
            for h, stop in cands:
                c = self.tile_cost_at(instance, h)
                if lb0 - c >= cost or g.nodes[h].get("cost", 0) == 0:
                    continue   # cannot beat the found cost
                g2 = g.copy()
                g2.nodes[h]["cost"] = 0
                stops = sorted(set(terminals) | {stop})
                is_stop = (lambda x, h=h: self.is_build_stop(instance)(x) or x == h)
                key = ("portugal-free-tile", str(h), str(stop), tuple(sorted(map(str, terminals))),
                       tuple(sorted((str(x), d.get("cost", 0)) for x, d in g.nodes(data=True))),
                       tuple(sorted((str(a), str(b), d.get("weight", 0)) for a, b, d in g.edges(data=True))))
                sub = cheapest_network(instance, stops + [h], time_limit=time_limit, graph=(g2, max_degree),
                                       graph_key=key, is_stop=is_stop)
                solved += 1
                if sub.status == "infeasible":
                    continue
                bound = min(bound, sub.lower_bound if sub.lower_bound is not None else sub.cost)
                if sub.cost is not None and sub.cost < cost and any({stop, h} == set(e) for e in sub.edges):
                    cost = sub.cost
        bound = max(min(bound, cost), 0)
        note = (f"the free simple track of the first turn saves ${net.cost - cost}: it must start at a city or "
                f"town (the player has no track yet), so only a tile next to a stop qualifies; minimum over "
                f"every network joining the stops with the free tile on any such hex ({solved} free-tile "
                f"placements solved exactly, the others could not save more)")
        return cost, bound, [note]

    @staticmethod
    def first_tiles(board, links, hexes) -> set:
        """New tiles that start a link at a city or town."""
        out = set()
        for link in links:
            if len(link) > 2 and board.is_stop(link[0]) and link[1] in hexes:
                out.add(link[1])
            if len(link) > 2 and board.is_stop(link[-1]) and link[-2] in hexes:
                out.add(link[-2])
        return out
