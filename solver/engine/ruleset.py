"""The base game's rules as the solo maps use them (../shared/rules/age-of-steam-base.md).

A map module subclasses `Ruleset` and overrides only what its sheet changes.
"""
from __future__ import annotations

from solver.board.hexgrid import Hex
from solver.engine.economy import settle
from solver.engine.placement import can_lay_track, track_hex_problem
from solver.engine.moves import (EndBuild, IssueShares, LayTile, Pass, RedirectTile, SelectAction, Ship, TownTrack,
                          UpgradeLocomotive, UpgradeTile, Urbanize)
from solver.engine.track_tiles import (BASE_RULE, COST_KEYS, complex_kind, complex_rules, crosses, shape,
                                      tile_set_of)

#: base rules (age-of-steam-base.md): "town tiles join one to four tracks at the town"
TOWN_TILE_TRACKS = 4
#: base rules: "Redirecting an incomplete track: $2"; the price is the board file's (a board without it refuses it)
REDIRECT_KEY = "redirect_cost"


class Ruleset:
    name = "base"
    #: a multiplayer map (solver/multi/): its states are read by solver.multi.state
    multiplayer = False
    #: actions that name a hex when selected (Easter Island: Rapa Nui names the moai)
    targeted_actions: frozenset[str] = frozenset()
    #: may the player select no action in a round?
    action_optional = False
    #: may a good pass through a city of its own colour? (base: no, it must stop there)
    pass_own_colour = False
    #: may only the top cube of a stack be shipped?
    top_cube_only = False

    # -- set-up and limits -----------------------------------------------------
    def check_instance(self, instance, fail) -> None:
        """Map-specific checks of a board file; `fail(message, key)` raises the loader's error."""

    def start(self, state) -> None:
        pass

    def max_route_links(self, state) -> int:
        """How many links the shipment search explores (base: the highest locomotive)."""
        return state.scenario.max_locomotive

    def virtual_hops(self, state) -> list:
        """Extra (a, b) hops between stops that are not links (Kansas City's interurban transfer, Zoo's
        teleports); the shipment search (solver/engine/shipping.py) adds them both ways."""
        return []

    def tile_limit(self, state) -> int:
        s = state.scenario
        return s.engineer_tile_limit if state.action == "engineer" else s.tile_limit

    def tile_cost(self, state, h: Hex) -> int:
        return state.scenario.track_cost[state.board.terrain[h]]

    def action_cost(self, state, name: str) -> int:
        return state.scenario.action_cost

    def available_actions(self, state) -> list[str]:
        return list(state.scenario.actions)

    # -- move generation -------------------------------------------------------
    def candidate_moves(self, state) -> list:
        s = state.scenario
        if state.phase == "shares":
            return [IssueShares(n) for n in range(0, s.max_shares - state.shares + 1)]
        if state.phase == "action":
            moves = [SelectAction(None)]
            for name in self.available_actions(state):
                moves.extend(self.action_variants(state, name))
            return moves
        if state.phase == "build":
            moves: list = [EndBuild()]
            moves.extend(self.tile_candidates(state))
            if state.action == "urbanization" and not state.urbanized_this_round:
                for town in state.board.towns:
                    for colour in sorted(set(state.new_city_supply)):
                        moves.append(Urbanize(town, colour))
            return moves
        if state.phase == "ship":
            from solver.engine.shipping import shipments
            moves = [Pass(), UpgradeLocomotive()]
            moves.extend(shipments(state))
            return moves
        return []

    def action_variants(self, state, name: str) -> list:
        return [SelectAction(name)]

    def tile_candidates(self, state) -> list:
        """Tiles that start at a stop or extend an open end (checked by why_illegal)."""
        out = []
        starts: list[tuple[Hex, Hex]] = []  # (hex to build on, the neighbour it connects back to)
        board, s = state.board, state.scenario
        for stop in list(board.cities) + list(board.towns) + list(board.exits):
            for h in stop.neighbours():
                if can_lay_track(board, s, h) and h not in state.track:
                    starts.append((h, stop))
        for end, target in state.open_ends():
            if can_lay_track(board, s, target) and target not in state.track:
                starts.append((target, end))
        complex_on = self._complex_on(state) and complex_rules(state) is not None
        for h, back in starts:
            for other in h.neighbours():
                if other != back:
                    out.append(LayTile(h, back, other))
                    if state.bonus_tiles:
                        out.append(LayTile(h, back, other, bonus=True))
                    if complex_on:  # a second track that itself starts at a stop or an open end
                        rest = [x for x in h.neighbours() if x not in (back, other)]
                        for i, c in enumerate(rest):
                            for d in rest[i + 1:]:
                                out.append(LayTile(h, back, other, second=(c, d)))
        if complex_on:  # upgrades of a straight to a crossing: the other two straights through the hex
            anything = tile_set_of(state) == "any"   # reading complex-tile-set=any: any track across it
            for h, (a, b) in state.track.items():
                if h in state.second_track:
                    continue
                sides = h.neighbours()
                pairs = ([(sides[i], sides[j]) for i in range(6) for j in range(i + 1, 6)] if anything
                         else [(sides[i], sides[i + 3]) for i in range(3)])
                for c, d in pairs:
                    if not {a, b} & {c, d} and (not anything or crosses(h, (a, b), (c, d))):
                        out.append(UpgradeTile(h, c, d))
                        if state.bonus_tiles:
                            out.append(UpgradeTile(h, c, d, bonus=True))
        if REDIRECT_KEY in state.instance.map_rules:  # the open end of an incomplete track turned (base rules)
            for link in state.links():
                end = link.path[-1]
                if not link.complete and end not in state.second_track:
                    back, now = link.path[-2], state.track_from(end, link.path[-2])
                    out.extend(RedirectTile(end, back, side) for side in end.neighbours() if side not in (back, now))
        for town in state.board.towns:  # a town tile's own track into the stop next door
            for stop in town.neighbours():
                if state.board.is_stop(stop):
                    out.append(TownTrack(town, stop))
                    if state.bonus_tiles and getattr(state.rules, "zoo_bonus_town_track", "refused") == "allowed":
                        out.append(TownTrack(town, stop, bonus=True))
        return list(dict.fromkeys(out))

    # -- legality --------------------------------------------------------------
    def why_illegal(self, state, move) -> str | None:
        if state.phase == "over":
            return "the game is over"
        expected = {"shares": (IssueShares,), "action": (SelectAction,),
                    "build": (LayTile, UpgradeTile, TownTrack, RedirectTile, Urbanize, EndBuild), "ship": (Ship, UpgradeLocomotive, Pass)}[state.phase]
        if not isinstance(move, expected):
            return f"'{move}' is not a move of the {state.phase} phase"
        check = getattr(self, f"_check_{type(move).__name__}")
        return check(state, move)

    def _check_IssueShares(self, state, move: IssueShares) -> str | None:
        s = state.scenario
        if move.count < 0:
            return "a share count cannot be negative"
        if state.shares + move.count > s.max_shares:
            return f"at most {s.max_shares} shares in the game (already {state.shares}, asked {move.count})"
        return None

    def _check_SelectAction(self, state, move: SelectAction) -> str | None:
        if move.name is None:
            if not self.action_optional or getattr(state.rules, "strict_action", False):
                return "an action must be selected every round"
            return None
        if move.name not in self.available_actions(state):
            return f"action '{move.name}' is not on this map's action board ({', '.join(self.available_actions(state))})"
        if move.target is not None and move.name not in self.targeted_actions:
            return f"action '{move.name}' names no hex (got {move.target})"
        cost = self.action_cost(state, move.name)
        if state.cash < cost:
            return f"action '{move.name}' costs ${cost} but only ${state.cash} is in hand (it must be paid before any cash it gives)"
        if getattr(state.rules, "idle_actions", False):
            return None  # idle-actions=allowed: an action with nothing to do may still be selected (and paid)
        if move.name == "locomotive" and state.locomotive >= state.scenario.max_locomotive:
            return (f"the locomotive is already at its maximum {state.scenario.max_locomotive} "
                    "(reading idle-actions=refused)")
        if move.name == "urbanization" and not state.new_city_supply:
            return "no new city tiles are left (reading idle-actions=refused)"
        return None

    def _check_Urbanize(self, state, move: Urbanize) -> str | None:
        if state.action != "urbanization":
            return "urbanizing needs the Urbanization action this round"
        if state.urbanized_this_round:
            return "only one new city per Urbanization action"
        if move.town not in state.board.towns:
            return f"{move.town} is not a town"
        if move.town in state.new_cities:
            return f"the town {move.town} is already a city"
        if move.colour not in state.new_city_supply:
            left = ", ".join(sorted(set(state.new_city_supply))) or "none"
            return f"no {move.colour} new city tile is available (left: {left})"
        return None

    def _check_EndBuild(self, state, move) -> str | None:
        return self.side_problem(state)

    def side_problem(self, state) -> str | None:
        """Reading track-into-side=refused: no track end may face the side of a track on the next hex (it
        could never be extended). Judged on the round's result, at the end of its build, so the round's
        verdict is the same in every order of its builds."""
        if getattr(state.rules, "track_into_side", "refused") != "refused":
            return None
        board = state.board
        for h in sorted(state.track):
            for a, b in state.tracks_at(h):
                for side in (a, b):
                    if side in state.track and not board.is_stop(side) and state.track_from(side, h) is None:
                        return (f"the track on {h} runs into the side of the track on {side} "
                                "(reading track-into-side=refused)")
        return None

    def _check_LayTile(self, state, move: LayTile) -> str | None:
        board, h = state.board, move.hex
        problem = track_hex_problem(board, state.scenario, h)
        if problem:
            return problem
        if h in state.track:
            if not self._complex_on(state):
                return f"{h} already holds track (complex tiles are off: one track a hex)"
            if h in state.second_track:
                return f"{h} already holds a complex tile: a hex holds at most two tracks (a third track is refused)"
            return f"{h} already holds track; a second track is added with 'upgrade {h} SIDE SIDE' (complex tiles)"
        tracks = [(move.side_a, move.side_b)] + ([tuple(move.second)] if move.second is not None else [])
        for track in tracks:
            problem = self._track_problem(state, h, track)
            if problem:
                return problem
        problem = self._town_tracks_problem(state, move)
        if problem:
            return problem
        if move.second is not None:
            problem = self._complex_problem(state)
            if problem:
                return problem
            kind, why = complex_kind(h, tracks[0], tracks[1], tile_set_of(state))
            if kind is None:
                return why
        if move.bonus:
            if state.bonus_tiles < 1:
                return "no bonus tile in hand"
        elif state.tiles_laid + self._town_tile_count(state, move) + 1 > state.tile_limit():
            return f"at most {state.tile_limit()} tiles this turn"
        cost = self.lay_cost(state, move)
        if cost > state.cash:
            return f"the tile on {h} costs ${cost} but only ${state.cash} is in hand ({self._cost_text(state, move)})"
        # A link may not loop back into the stop it came from.
        for a, b in tracks:
            ends = self._ends_after(state, h, a, b)
            if ends and ends[0] == ends[1]:
                return f"the track would loop back into the stop it came from ({board.label(ends[0])})"
        return None

    def _check_TownTrack(self, state, move: TownTrack) -> str | None:
        """Base rules: "town tiles join one to four tracks at the town"; a track may run into the next stop."""
        board, town, stop = state.board, move.town, move.stop
        if town not in board.towns or town in state.new_cities:
            return f"{town} is no town (a town tile's track starts at a town)"
        if not board.is_stop(stop) or not town.is_neighbour(stop):
            return f"{stop} is no stop next to the town {town} (a town tile's track reaches only the next hex)"
        if not board.passable(town, stop):
            return f"the hexside between {town} and {stop} is impassable"
        if frozenset((town, stop)) in state.town_links:
            return f"the town tile on {town} already has a track into {stop}"
        problem = self._town_tracks_problem(state, move)
        if problem:
            return problem
        if move.bonus:
            # reading zoo-bonus-town-track: may the bonus tile ("any one track tile") be a town tile's own track?
            if getattr(state.rules, "zoo_bonus_town_track", "refused") != "allowed":
                return ("a bonus tile never lays a town tile's own track (reading zoo-bonus-town-track=refused): "
                        "lay the town track as a regular tile")
            if state.bonus_tiles < 1:
                return "no bonus tile in hand"
        elif state.tiles_laid + self._town_tile_count(state, move) > state.tile_limit():
            return f"at most {state.tile_limit()} tiles this turn (a town tile counts as a tile)"
        cost = self.lay_cost(state, move)
        if cost > state.cash:
            return f"the town tile's track {town}-{stop} costs ${cost} but only ${state.cash} is in hand"
        return None

    def _check_UpgradeTile(self, state, move: UpgradeTile) -> str | None:
        """Base rules: 'Upgrading a simple tile to a crossing: $3' (the only upgrade they price)."""
        board, h = state.board, move.hex
        if not board.on_map(h):
            return f"{h} is not on the map"
        problem = self._complex_problem(state)
        if problem:
            return problem
        if h not in state.track:
            return f"there is no tile on {h} to upgrade (lay a new tile with 'tile')"
        if h in state.second_track:
            return f"{h} already holds a complex tile: a hex holds at most two tracks (a third track is refused)"
        track = (move.side_a, move.side_b)
        problem = self._track_problem(state, h, track) or self._town_tracks_problem(state, move)
        if problem:
            return problem
        kind, why = complex_kind(h, state.track[h], track, tile_set_of(state))
        if kind is None:
            return why
        if kind != "crossing":
            return (f"the base rules allow upgrading a simple tile only to a crossing ({BASE_RULE}); "
                    f"the track {move.side_a}-{move.side_b} does not cross the {shape(h, *state.track[h])} on {h}")
        if move.bonus:
            if state.bonus_tiles < 1:
                return "no bonus tile in hand"
        elif state.tiles_laid + self._town_tile_count(state, move) + self._upgrade_tiles(state) > state.tile_limit():
            return f"at most {state.tile_limit()} tiles this turn (an upgrade counts as a tile)"
        cost = self.lay_cost(state, move)
        if cost > state.cash:
            return f"the upgrade on {h} costs ${cost} but only ${state.cash} is in hand ({self._cost_text(state, move)})"
        ends = self._ends_after(state, h, *track)
        if ends and ends[0] == ends[1]:
            return f"the track would loop back into the stop it came from ({board.label(ends[0])})"
        return None

    def _check_RedirectTile(self, state, move: RedirectTile) -> str | None:
        """Base rules: "Redirecting an incomplete track: $2". The simple tile at the open end of an incomplete
        track is turned: it keeps its side toward the track it extends and faces a new side. Assumed (the base
        rules summary is silent): a redirect lays a tile, so it counts toward the tiles of the turn, like a
        new tile; a town it now runs into gains a track (its town fee and town tile count, as for any tile)."""
        h = move.hex
        price = state.instance.map_rules.get(REDIRECT_KEY)
        if price is None:
            return f"the board file gives no price for redirecting track (map_rules.{REDIRECT_KEY}), so it is refused"
        ends = {link.path[-1]: link.path[-2] for link in state.links() if not link.complete}
        if h not in ends:
            return f"there is no open end of an incomplete track on {h} to redirect"
        if h in state.second_track:
            return f"{h} holds a complex tile; only a simple tile at an open end is redirected"
        if move.back != ends[h]:
            return f"the tile on {h} extends the track toward {ends[h]}, so it keeps that side (got {move.back})"
        if move.side in state.track[h]:
            return f"the tile on {h} already faces {move.side}; a redirect turns it to face another side"
        if h in state.orphans:
            return (f"the incomplete track on {h} has lost its owner and cannot be redirected "
                    "(reading incomplete-track=owner-lost)")
        problem = self._track_problem(state, h, (move.back, move.side)) or self._town_tracks_problem(state, move)
        if problem:
            return problem
        if state.tiles_laid + self._town_tile_count(state, move) + 1 > state.tile_limit():
            return f"at most {state.tile_limit()} tiles this turn (a redirect counts as a tile)"
        cost = self.lay_cost(state, move)
        if cost > state.cash:
            return f"redirecting the track on {h} costs ${cost} but only ${state.cash} is in hand"
        ends_after = self._ends_after(state, h, move.back, move.side)
        if ends_after and ends_after[0] == ends_after[1]:
            return f"the track would loop back into the stop it came from ({state.board.label(ends_after[0])})"
        return None

    def _complex_on(self, state) -> bool:
        return getattr(state.rules, "complex_tiles", False)

    def _complex_problem(self, state) -> str | None:
        """Complex tiles need the reading on and their costs in the board file."""
        if not self._complex_on(state):
            return "complex tiles are off (reading complex_tiles): a hex holds one simple track"
        if complex_rules(state) is None:
            return ("the board file gives no complex-tile costs ([map_rules] " + ", ".join(COST_KEYS) +
                    "), so complex tiles cannot be laid on this map")
        return None

    def _upgrade_tiles(self, state) -> int:
        return 1 if complex_rules(state)["upgrade_counts_as_tile"] else 0

    def _track_problem(self, state, h: Hex, track: tuple[Hex, Hex]) -> str | None:
        """One new track on h: real sides, passable, on the map, and joined to a stop or open track."""
        board = state.board
        a, b = track
        if a == b:
            return "a track joins two different sides of its hex"
        for side in track:
            if not h.is_neighbour(side):
                return f"{side} is not next to {h}"
            if not board.passable(h, side):
                return f"the hexside between {h} and {side} is impassable"
            if not board.on_map(side) or (board.terrain[side] == "water" and not board.is_stop(side)):
                return f"the track on {h} would run off the map or into water at {side}"
        joined = [s for s in track if board.is_stop(s) or state.track_from(s, h) is not None]
        if not joined:
            return f"new track on {h} must start at a stop or extend an incomplete track ({a}-{b} joins neither)"
        if all(s in state.orphans for s in joined):
            return (f"the incomplete track on {', '.join(str(s) for s in joined)} was not extended in the build "
                    "after it was laid and has lost its owner (reading incomplete-track=owner-lost)")
        return None

    def _town_tracks_problem(self, state, move) -> str | None:
        """Base rules: "town tiles join one to four tracks at the town" (a town still a town; a new city
        is a city). Each track this move adds at a town counts."""
        adds: dict = {}
        for side in self._new_sides(move):
            if side in state.board.towns and side not in state.new_cities:
                adds[side] = adds.get(side, 0) + 1
        for town, n in adds.items():
            if state.town_tracks.get(town, 0) + n > TOWN_TILE_TRACKS:
                return (f"the town tile on {state.board.label(town)} already joins "
                        f"{state.town_tracks.get(town, 0)} tracks; a town tile joins one to {TOWN_TILE_TRACKS} "
                        f"tracks (base rules: \"town tiles join one to four tracks at the town\")")
        return None

    def _new_sides(self, move) -> tuple[Hex, ...]:
        if isinstance(move, TownTrack):
            return (move.town, move.stop)
        if isinstance(move, RedirectTile):
            return (move.side,)  # the kept side's stop or track already joins this tile
        if isinstance(move, LayTile) and move.second is not None:
            return (move.side_a, move.side_b) + tuple(move.second)
        return (move.side_a, move.side_b)

    def _town_tile_count(self, state, move) -> int:
        """A town tile laid or replaced this turn counts as one more tile (once per town)."""
        towns = {s for s in self._new_sides(move) if s in state.board.towns and s not in state.new_cities}
        return len(towns - state.towns_touched)

    def _tile_part(self, state, move) -> tuple[int, str]:
        """The tile's own price (before town fees) and how it is made up."""
        if isinstance(move, TownTrack):
            return 0, "a town tile's track only"
        if isinstance(move, RedirectTile):
            cost = state.instance.map_rules[REDIRECT_KEY]
            return cost, f"redirect ${cost}"
        if move.bonus and not self.bonus_tiles_pay(state):
            return 0, "a free bonus tile"
        if isinstance(move, UpgradeTile):
            cost = complex_rules(state)["upgrade_to_crossing_cost"]
            return cost, f"upgrade to a crossing ${cost}"
        base = self.tile_cost(state, move.hex)
        terrain = state.board.terrain[move.hex]
        if move.second is None:
            return base, f"{terrain} ${base}"
        kind, _ = complex_kind(move.hex, (move.side_a, move.side_b), tuple(move.second), tile_set_of(state))
        extra = complex_rules(state)["complex_crossing_extra" if kind == "crossing" else "complex_noncrossing_extra"]
        return base + extra, f"{terrain} ${base} + {kind} complex tile ${extra}"

    def _cost_text(self, state, move) -> str:
        _, text = self._tile_part(state, move)
        fees = self.lay_cost(state, move) - self._tile_part(state, move)[0]
        return text + (f" + town ${fees}" if fees else "")

    def lay_cost(self, state, move) -> int:
        s = state.scenario
        cost, _ = self._tile_part(state, move)
        for side in self._new_sides(move):
            if side in state.board.towns and side not in state.new_cities:
                first = state.town_tracks.get(side, 0) == 0
                cost += s.town_cost_per_track + (s.town_cost_base if first else 0)
        return cost

    def bonus_tiles_pay(self, state) -> bool:
        return True

    def _ends_after(self, state, h: Hex, side_a: Hex, side_b: Hex) -> tuple[Hex, Hex] | None:
        """The two stops a new track on h (sides a, b) would run between, if it completes a link."""
        def walk(prev: Hex, cur: Hex) -> Hex | None:
            seen = 0
            while True:
                if state.board.is_stop(cur):
                    return cur
                nxt = state.track_from(cur, prev)
                if nxt is None or seen > 10_000:
                    return None
                prev, cur = cur, nxt
                seen += 1
        end_a = walk(h, side_a)
        end_b = walk(h, side_b)
        return (end_a, end_b) if end_a is not None and end_b is not None else None

    def _check_UpgradeLocomotive(self, state, move) -> str | None:
        if state.locomotive_raised:
            return "the locomotive may be raised at most once a turn"
        if state.locomotive >= state.scenario.max_locomotive:
            return f"the locomotive is already at its maximum {state.scenario.max_locomotive}"
        return None

    def _check_Pass(self, state, move) -> str | None:
        return None

    def _check_Ship(self, state, move: Ship) -> str | None:
        return self.shipment_problem(state, move)

    # -- shipments -------------------------------------------------------------
    def accepts(self, state, stop: Hex, colour: str) -> bool:
        """Does this stop take a good of this colour as its destination?"""
        return state.is_city(stop) and state.city_colour(stop) == colour

    def cube_available(self, state, origin: Hex, colour: str) -> str | None:
        cubes = state.goods.get(origin, [])
        if not cubes:
            return f"no goods are left on {state.board.label(origin)}"
        if self.top_cube_only:
            if cubes[-1] != colour:
                return f"only the top cube of a moai may be shipped; the top cube on {origin} is {cubes[-1]}, not {colour}"
        elif colour not in cubes:
            return f"there is no {colour} cube on {origin}"
        return None

    def hop_problem(self, state, a: Hex, b: Hex, teleport: bool) -> str | None:
        if teleport:
            return "teleports exist only between exit hexes (Zoo)"
        if frozenset((a, b)) not in state.linked_pairs():
            return f"no complete link joins {a} and {b}"
        return None

    def locomotive_need(self, state, move: Ship) -> tuple[int, str]:
        links = len(move.route) - 1 - len(move.teleports)
        return links, f"{links} link" + ("" if links == 1 else "s")

    def shipment_problem(self, state, move: Ship) -> str | None:
        route = move.route
        if len(route) < 2:
            return "a shipment goes from its city to another stop"
        if route[0] != move.origin:
            return "the route must start at the cube's city"
        problem = self.teleport_index_problem(move)
        if problem:
            return problem
        problem = self.cube_available(state, move.origin, move.colour)
        if problem:
            return problem
        if len(set(route)) != len(route):
            return "a good may not visit the same stop twice"
        for i, (a, b) in enumerate(zip(route, route[1:])):
            problem = self.hop_problem(state, a, b, i in move.teleports)
            if problem:
                return problem
        for stop in route[1:-1]:
            if not self.pass_own_colour and self.accepts(state, stop, move.colour):
                return f"the {move.colour} good must stop at the first city of its colour it reaches ({state.board.label(stop)})"
        dest = route[-1]
        if not self.accepts(state, dest, move.colour):
            return f"{state.board.label(dest)} does not accept a {move.colour} good"
        if move.discount is not None:
            problem = self.discount_problem(state, move)
            if problem:
                return problem
        need, why = self.locomotive_need(state, move)
        if need > state.locomotive:
            return f"the shipment needs locomotive {need} ({why}) but the locomotive is {state.locomotive}"
        return None

    @staticmethod
    def teleport_index_problem(move: Ship) -> str | None:
        """A teleport is one of the route's hops, named once: else the link count (income, locomotive) is wrong."""
        hops = len(move.route) - 1
        if len(set(move.teleports)) != len(move.teleports) or any(
                not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < hops for i in move.teleports):
            return f"teleports {list(move.teleports)} must name distinct hops of the route (0 to {hops - 1})"
        return None

    def discount_problem(self, state, move: Ship) -> str | None:
        return "a danger discount exists only on the Zoo map (Feeding action)"

    def remove_cube(self, state, origin: Hex, colour: str) -> None:
        cubes = state.goods[origin]
        if self.top_cube_only:
            cubes.pop()
        else:
            cubes.remove(colour)

    # -- applying moves --------------------------------------------------------
    def apply(self, state, move) -> None:
        getattr(self, f"_apply_{type(move).__name__}")(state, move)

    def _apply_IssueShares(self, state, move: IssueShares) -> None:
        state.shares += move.count
        state.cash += move.count * state.scenario.share_price
        state.phase = "action"

    def _apply_SelectAction(self, state, move: SelectAction) -> None:
        state.action = move.name
        if move.name is not None:
            state.cash -= self.action_cost(state, move.name)
            self.on_action(state, move)
        state.phase = "build"

    def on_action(self, state, move: SelectAction) -> None:
        if move.name == "locomotive":
            # "maximum 6": at the maximum (idle-actions=allowed) the action raises nothing
            state.locomotive = min(state.locomotive + 1, state.scenario.max_locomotive)

    def _apply_LayTile(self, state, move: LayTile) -> None:
        self._place(state, move, 1)
        state.open_since[move.hex] = state.round
        state.track[move.hex] = (move.side_a, move.side_b)
        if move.second is not None:
            state.second_track[move.hex] = tuple(move.second)

    def _apply_TownTrack(self, state, move: TownTrack) -> None:
        self._place(state, move, 0)
        state.town_links.add(frozenset((move.town, move.stop)))

    def _apply_RedirectTile(self, state, move: RedirectTile) -> None:
        self._place(state, move, 1)
        state.track[move.hex] = (move.back, move.side)  # not an extension: open_since stays (incomplete-track)

    def _apply_UpgradeTile(self, state, move: UpgradeTile) -> None:
        self._place(state, move, self._upgrade_tiles(state))
        state.second_track[move.hex] = (move.side_a, move.side_b)

    def _place(self, state, move, tiles: int) -> None:
        """Pay for a tile or upgrade, count it toward the turn's tiles, and join its towns."""
        cost = self.lay_cost(state, move)
        if getattr(move, "bonus", False):
            state.bonus_tiles -= 1
        else:
            state.tiles_laid += tiles + self._town_tile_count(state, move)
        for side in self._new_sides(move):
            if side in state.board.towns and side not in state.new_cities:
                state.town_tracks[side] = state.town_tracks.get(side, 0) + 1
                if not getattr(move, "bonus", False):
                    # the town tile counts once a turn, with the first tile that counts itself: a bonus
                    # placement is outside the count, so the round's count never depends on build order
                    state.towns_touched.add(side)
        state.cash -= cost
        state.spent_on_track += cost
        state._links = None

    def _apply_Urbanize(self, state, move: Urbanize) -> None:
        state.new_cities[move.town] = move.colour
        state.new_city_supply.remove(move.colour)
        state.urbanized_this_round = True
        state._links = None

    def _apply_EndBuild(self, state, move) -> None:
        if getattr(state.rules, "incomplete_track", "kept") == "owner-lost":
            # "An incomplete link must be extended in the owner's next build phase or it loses its owner."
            # An open end laid before this round was not extended in it (an extension moves the end on).
            stale = {link.path[-1] for link in state.links() if not link.complete
                     and state.open_since.get(link.path[-1], state.round) < state.round}
            state.orphans = frozenset(state.orphans | stale)
        state.phase = "ship"

    def _apply_Ship(self, state, move: Ship) -> None:
        self.remove_cube(state, move.origin, move.colour)
        links = len(move.route) - 1 - len(move.teleports)
        state.income += links  # solo: every link used is the player's own
        self.after_shipment(state, move)
        self._next_shipment(state)

    def after_shipment(self, state, move: Ship) -> None:
        pass

    def _apply_UpgradeLocomotive(self, state, move) -> None:
        state.locomotive += 1
        state.locomotive_raised = True
        self._next_shipment(state)

    def _apply_Pass(self, state, move) -> None:
        self._next_shipment(state)

    def _next_shipment(self, state) -> None:
        state.shipments_done += 1
        if state.shipments_done >= state.scenario.shipments_per_round:
            self.end_round(state)

    # -- end of the turn -------------------------------------------------------
    def end_round(self, state) -> None:
        s = state.scenario
        # Collect income, then pay expenses; what cannot be paid lowers income (solver/engine/economy.py).
        money = settle(state.cash, state.income, state.shares, state.locomotive, s.income_reduction)
        state.cash, state.income = money.cash, money.income_floored
        if money.lost(s.income_floor):
            state.lost = f"income fell below {s.income_floor} in round {state.round}"
            if getattr(state.rules, "clear_when_under", False) and self.is_cleared(state) and not self.plays_on(state):
                state.lost = None  # clear-and-under=cleared: the clear, met in the shipping, stands
        state.income = money.income
        state.accounts = {"income_collected": money.collected, "expenses": money.expenses,
                          "shortfall": money.shortfall, "income_reduction": money.reduction}
        self.advance_round_marker(state)
        if state.lost is None and state.cleared_round is None and self.is_cleared(state):
            state.cleared_round = state.round
        state.round += 1
        state.action = None
        state.tiles_laid = 0
        state.towns_touched = set()
        state.urbanized_this_round = False
        state.shipments_done = 0
        state.locomotive_raised = False
        state.exit_used = False
        state.discount_used = False
        state.phase = "shares"
        if state.cleared_round is not None and state.lost is None and not state.playing_out:
            problem = self.after_clear_problem(state)  # the game plays on past the clear (reading end-of-game)
            if problem:
                state.lost, state.cleared_round = problem, None
        if state.lost or (state.cleared_round is not None and not state.playing_out) or state.round > state.last_round:
            state.phase = "over"

    def plays_on(self, state) -> bool:
        """Does the game run on past the clear to the end of the round track (Easter Island, reading
        end-of-game=round-track)? Base: no, the game ends at the clear."""
        return False

    def after_clear_problem(self, state) -> str | None:
        """Called at the start of the round after the clear (phase "shares"): why the clear does not stand
        because the rest of the round track cannot be played out without losing, or None."""
        return None

    def advance_round_marker(self, state) -> None:
        pass

    def is_cleared(self, state) -> bool:
        return False

    def blocker_lock(self, state) -> str | None:
        """Easter Island: why the action blockers can never be removed again (None: no lock, or no blockers)."""
        return None
