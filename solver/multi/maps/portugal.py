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

    def adjust_build_cost(self, instance, net, state=None):
        free = self.free_tracks(state) if state is not None else 0
        if not free or net.cost is None or not net.hexes:
            return net.cost, net.lower_bound, []
        tiles = sorted((self.tile_cost_at(instance, h) for h in net.hexes), reverse=True)
        saved = sum(tiles[:free])
        # Any network pays at least (its optimum) minus the dearest tiles anywhere on the board.
        dearest = sorted((self.tile_cost_at(instance, h) for h in instance.board.terrain
                          if instance.board.buildable(h)), reverse=True)[:free]
        bound = (net.lower_bound if net.lower_bound is not None else net.cost) - sum(dearest)
        note = (f"the free simple track of the first turn saves ${saved} (its dearest tile); lower bound "
                f"${bound}")
        return net.cost - saved, max(bound, 0), [note]
