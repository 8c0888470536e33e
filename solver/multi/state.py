"""Multiplayer positions: read a STATE file and build a game state the shared engine can search.

A STATE file (TOML) describes one moment of a multiplayer game from the seat
of the active player (format: docs/multiplayer.md):

    [game]
    map = "Finland"          # the board file's meta.name
    players = 4              # how many play (each one has a [players.NAME] table)
    active = "Kelly"         # whose deliveries are listed
    round = 3
    phase = "shipping"       # before-actions, build, shipping (first step) or shipping-second
    first_step = "delivery"  # with shipping-second: delivery, locomotive, power-plant or pass
    action = "locomotive"    # the active player's action this round (optional)
    final_turn = false       # optional

    [markers]                # map markers (per map, see the map's ruleset)
    sweden_open = false

    [goods]                  # cubes on stops (stop, zone or organ name, or hex), bottom first
    "Lahti" = ["purple", "red"]

    [players.Kelly]
    locomotive = 4
    income = 5
    links = ["Lahti-F3-Vantaa", "Espoo-B5-B4-Tampere"]   # stop, track hexes, stop (or an open end)

The state is a `GameState` (solver/engine/state.py) whose links carry an owner, so
the SAME shipment search (solver/engine/shipping.py) and the map's ruleset
(solver/engine/maps/ and solver/multi/maps/) decide which deliveries are legal.
"""
from __future__ import annotations

import copy
import pathlib
import tomllib
from dataclasses import dataclass, field
from typing import Any

from solver.board.board import COLOURS, Area
from solver.board.errors import InputError
from solver.board.hexgrid import Hex
from solver.board.instance import Instance
from solver.engine.state import GameState, Link, Rules

TOP_KEYS = ("game", "markers", "goods", "players", "new_cities")
GAME_KEYS = ("map", "players", "active", "round", "phase", "action", "final_turn", "first_step")
PLAYER_KEYS = ("locomotive", "income", "cash", "shares", "links")


@dataclass(frozen=True)
class OwnedLink(Link):
    """A link with its owner (None: public track, nobody's)."""

    owner: str | None = None
    synapses: frozenset = frozenset()  # Synapses: the connections this link runs along


@dataclass
class Player:
    name: str
    locomotive: int = 1
    income: int = 0
    cash: int = 0
    shares: int = 0
    links: list = field(default_factory=list)     # parsed paths (tuple of stops/hexes), with `complete`
    extra: dict = field(default_factory=dict)     # map-specific keys (power_plants, discs, ...)


@dataclass
class MultiState(GameState):
    players: dict = field(default_factory=dict)
    active: str = ""
    player_count: int = 0
    final_turn: bool = False
    markers: dict = field(default_factory=dict)
    area_stops: dict = field(default_factory=dict)   # first hex of a zone or organ -> the area
    owned_links: list = field(default_factory=list)
    state_path: str = ""
    turn_phase: str = "shipping"   # game.phase (solver/multi/checks.py PHASES)
    first_step: str | None = None  # shipping-second: what the first step was

    # The engine asks these; zones and organs are one stop each, named by their first hex.
    def links(self) -> list:
        return self.owned_links

    def is_stop(self, h) -> bool:
        return self.board.is_stop(h) or h in self.area_stops

    def is_city(self, h) -> bool:
        return h in self.board.cities or h in self.new_cities or h in self.area_stops

    def city_colour(self, h):
        if h in self.area_stops:
            return self.area_stops[h].colour
        return super().city_colour(h)

    @property
    def me(self) -> Player:
        return self.players[self.active]

    def clone(self) -> "MultiState":
        other = super().clone()
        other.players = {name: _copy_player(p) for name, p in self.players.items()}
        other.markers = copy.deepcopy(self.markers)
        other.owned_links = list(self.owned_links)
        return other

    def label(self, h) -> str:
        return self.board.label(h)


def _read_new_cities(state, table, names, r) -> None:
    """`[new_cities]`: "TOWN (or neuron)" = "colour", the new city tiles urbanization has placed (base rules:
    a new city goes on a town; Synapses: on an uncoloured neuron without discs; Human Body: the bones are the
    towns, the sheet's "new organs"). Each colour's tile exists once (scenario.new_cities)."""
    if not isinstance(table, dict):
        r.fail("expected a table of place = colour", "new_cities")
    inst, rs = state.instance, state.ruleset
    supply = list(inst.scenario.new_cities)
    for name, colour in table.items():
        key = f"new_cities.{name}"
        place = resolve_place(inst, names, name, r, key)
        if colour not in supply:
            r.fail(f"no new city tile of colour {colour!r} is left (tiles: {', '.join(inst.scenario.new_cities)}; "
                   "each is placed once)", key)
        supply.remove(colour)
        problem = rs.new_city_problem(state, place)
        if problem:
            r.fail(problem, key)
        state.new_cities[place] = colour
    if state.new_cities:
        blocked = rs.blocked_actions(inst, state.player_count, 1)
        if "urbanization" in blocked and state.round == 1:
            r.fail("urbanization cannot be chosen in round 1 of this game, so no new city is placed yet",
                   "new_cities")


def _copy_player(p: Player) -> Player:
    """A copy whose numbers, links list and extras may change without touching `p` (the paths inside are
    tuples and never change): much cheaper than a deep copy, and the turn search clones per sequence."""
    out = copy.copy(p)
    out.links = list(p.links)
    out.extra = {k: (list(v) if isinstance(v, list) else copy.deepcopy(v) if isinstance(v, dict) else v)
                 for k, v in p.extra.items()}
    return out


# -- reading -----------------------------------------------------------------

class _StateReader:
    def __init__(self, path: str):
        self.path = path

    def fail(self, message: str, key: str | None = None):
        raise InputError(message, f"{self.path}, key '{key}'" if key else self.path)

    def only(self, table: dict, allowed, key: str) -> None:
        for name in table:
            if name not in allowed:
                self.fail(f"unknown key {name!r} (expected one of {', '.join(sorted(allowed))})", f"{key}.{name}")

    def whole(self, table: dict, name: str, key: str, default: int | None = None, minimum: int | None = None) -> int:
        value = table.get(name, default)
        if value is None:
            self.fail(f"missing required value '{name}'", key)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"expected a whole number, got {value!r}", f"{key}.{name}" if name not in key else key)
        if minimum is not None and value < minimum:
            self.fail(f"must be {minimum} or more, got {value}", f"{key}.{name}" if name not in key else key)
        return value


def stop_index(instance: Instance) -> dict[str, Any]:
    """Every name a state may use for a stop: stop, zone and organ names (any case) -> stop id."""
    board = instance.board
    out: dict[str, Any] = {}
    for table in (board.cities, board.towns, board.exits):
        for h, feature in table.items():
            out[feature.name.lower()] = h
            if not board.nodes:
                out[str(h).lower()] = h
    for area in board.areas:
        out[area.name.lower()] = area.hexes[0]
        for h in area.hexes:
            out[str(h).lower()] = area.hexes[0]
    return out


def load_state(instance: Instance, path: str | pathlib.Path) -> MultiState:
    path = str(path)
    r = _StateReader(path)
    try:
        data = tomllib.loads(pathlib.Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise InputError(f"cannot read the state file ({err.strerror})", path) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise InputError(f"not a valid TOML state file: {err}", path) from None
    rs = _ruleset(instance)
    r.only(data, TOP_KEYS, "state")
    game = data.get("game")
    if not isinstance(game, dict):
        r.fail("expected a [game] table (map, players, active, round)", "game")
    r.only(game, GAME_KEYS, "game")
    if game.get("map") != instance.board.name:
        r.fail(f"the state is for map {game.get('map')!r}, but the board file is {instance.board.name!r}", "game.map")
    count = r.whole(game, "players", "game.players", minimum=1)
    low, high = rs.player_range(instance)
    if not low <= count <= high:
        r.fail(f"{instance.board.name} is played by {low} to {high} players, not {count}", "game.players")
    rnd = r.whole(game, "round", "game.round", default=1, minimum=1)
    last = rs.last_round(instance, count)
    if rnd > last:
        r.fail(f"round {rnd} is after the last round {last} of a {count}-player game", "game.round")
    rounds_assumed = any(p.key in ("scenario.rounds", "map_rules.rounds_by_players") and p.source == "assumed"
                         for p in instance.provenance)
    if "final_turn" not in game and rs.final_turn_matters and rounds_assumed:
        r.fail(f"say whether this is the final turn (final_turn = true or false): {instance.board.name} changes "
               f"the rules of the final turn and its round count ({last} with {count} players) is assumed",
               "game.final_turn")
    final = game.get("final_turn", rnd == last)
    if not isinstance(final, bool):
        r.fail(f"expected true or false, got {final!r}", "game.final_turn")
    from solver.multi.checks import FIRST_STEPS, PHASES, check_reachable
    turn_phase = game.get("phase", "shipping")
    if turn_phase not in PHASES:
        r.fail(f"expected one of {', '.join(PHASES)}, got {turn_phase!r}", "game.phase")
    first_step = game.get("first_step")
    if first_step is not None and turn_phase != "shipping-second":
        r.fail("first_step is given only in the phase shipping-second (the first shipping step is done)",
               "game.first_step")
    if turn_phase == "shipping-second":
        first_step = "delivery" if first_step is None else first_step
        if first_step not in FIRST_STEPS:
            r.fail(f"expected one of {', '.join(FIRST_STEPS)}, got {first_step!r}", "game.first_step")
    action = game.get("action")
    if action is not None and action not in instance.scenario.actions:
        r.fail(f"action {action!r} is not on this map's action board ({', '.join(instance.scenario.actions)})",
               "game.action")
    if action is not None and action in rs.blocked_actions(instance, count, rnd):
        r.fail(f"the action {action!r} is covered by the grey disc in round {rnd} of a {count}-player game",
               "game.action")

    players_t = data.get("players")
    if not isinstance(players_t, dict) or not players_t:
        r.fail("expected one [players.NAME] table per player", "players")
    if len(players_t) != count:
        r.fail(f"game.players says {count} players but {len(players_t)} [players.NAME] tables are given", "players")
    active = game.get("active")
    if active not in players_t:
        r.fail(f"the active player {active!r} has no [players.{active}] table (players: {', '.join(players_t)})",
               "game.active")

    markers = data.get("markers", {})
    if not isinstance(markers, dict):
        r.fail("expected a table", "markers")
    r.only(markers, rs.marker_keys, "markers")

    names = stop_index(instance)
    areas = {a.hexes[0]: a for a in instance.board.areas}
    goods: dict[Any, list[str]] = {}
    goods_t = data.get("goods", {})
    if not isinstance(goods_t, dict):
        r.fail("expected a table of stop = [colours]", "goods")
    places = rs.goods_places(instance)
    urbanized = data.get("new_cities", {})
    if isinstance(urbanized, dict):   # a new city holds goods too (its tile is checked below)
        places = places | {resolve_place(instance, names, n, r, f"new_cities.{n}") for n in urbanized}
    for name, cubes in goods_t.items():
        key = f"goods.{name}"
        stop = resolve_place(instance, names, name, r, key)
        if stop not in places:
            r.fail(f"{name} is {describe_place(instance, stop)}; goods lie only on {rs.goods_place_words}", key)
        if not isinstance(cubes, list) or not all(isinstance(c, str) for c in cubes):
            r.fail("expected a list of colours", key)
        for c in cubes:
            if c not in COLOURS:
                r.fail(f"unknown colour {c!r} (expected one of {', '.join(COLOURS)})", key)
        if cubes:
            goods.setdefault(stop, []).extend(cubes)

    state = MultiState(instance=instance, rules=Rules(), goods=goods, round=rnd, phase="ship", action=action,
                       final_turn=final, markers=dict(markers), area_stops=areas, active=active,
                       player_count=count, state_path=path, turn_phase=turn_phase, first_step=first_step)
    if turn_phase == "shipping-second":
        state.shipments_done = 1
        state.locomotive_raised = first_step in ("locomotive", "power-plant")  # the once-a-turn flag
    for pname, spec in players_t.items():
        key = f"players.{pname}"
        if not isinstance(spec, dict):
            r.fail("expected a table", key)
        r.only(spec, PLAYER_KEYS + rs.player_keys, key)
        p = Player(pname, locomotive=r.whole(spec, "locomotive", key, default=instance.scenario.start_locomotive,
                                              minimum=1),
                   income=r.whole(spec, "income", key, default=instance.scenario.start_income),
                   cash=r.whole(spec, "cash", key, default=instance.scenario.start_cash, minimum=0),
                   shares=r.whole(spec, "shares", key, default=instance.scenario.start_shares, minimum=0),
                   extra={k: spec[k] for k in rs.player_keys if k in spec})
        if p.locomotive > instance.scenario.max_locomotive:
            r.fail(f"the locomotive is at most {instance.scenario.max_locomotive}, got {p.locomotive}",
                   f"{key}.locomotive")
        links = spec.get("links", [])
        if not isinstance(links, list) or not all(isinstance(x, str) for x in links):
            r.fail("expected a list of paths like 'Lahti-F3-Vantaa'", f"{key}.links")
        for i, text in enumerate(links):
            p.links.append(parse_link(state, names, text, r, f"{key}.links[{i}]"))
        state.players[pname] = p
    _check_track(state, r)
    rs.read_player_extras(state, r)
    me = state.players[active]
    state.cash, state.income, state.shares = me.cash, me.income, me.shares
    _read_new_cities(state, data.get("new_cities", {}), names, r)
    state.owned_links = rs.build_links(state)
    for link in state.owned_links:
        _draw_track(state, link)
    state.locomotive = rs.link_capacity(state)
    rs.check_state(state, r.fail)
    check_reachable(state, r.fail)
    return state


def _ruleset(instance: Instance):
    rs = instance.ruleset
    if not rs.multiplayer:
        raise InputError(f"{instance.board.name} is not a multiplayer map (ruleset {instance.scenario.ruleset!r}); "
                         "the multiplayer commands read Finland, Portugal, Synapses, Human Body and Kansas City",
                         instance.path)
    return rs


def resolve_place(instance: Instance, names: dict, name: str, r: _StateReader, key: str):
    """A stop, zone or organ by name; or a hex by its name (area hexes give the area's stop)."""
    if name.lower() in names:
        return names[name.lower()]
    if instance.board.nodes:
        if name in instance.board.nodes:
            return name
        r.fail(f"{name!r} is not a neuron of {instance.board.name}", key)
    try:
        h = Hex.parse(name)
    except ValueError:
        r.fail(f"{name!r} is neither a stop, zone or organ of {instance.board.name} nor a hex name", key)
    if not instance.board.on_map(h):
        r.fail(f"the hex {h} is not on the map of {instance.board.name}", key)
    return h


def describe_place(instance: Instance, h) -> str:
    board = instance.board
    if h in board.towns:
        return "a town"
    if h in board.exits:
        return "an exit"
    if board.nodes:
        return "a neuron without a colour (no city)"
    return f"a hex without a city ({board.terrain.get(h, 'off-map')})"


def parse_link(state: MultiState, names: dict, text: str, r: _StateReader, key: str) -> tuple[tuple, bool]:
    """'Lahti-F3-Vantaa' -> ((Lahti, F3, Vantaa), complete=True); an open end leaves complete False."""
    inst = state.instance
    parts = [t.strip() for t in text.split("-")]
    if len(parts) < 2 or not all(parts):
        r.fail(f"expected 'STOP-HEX-...-STOP' (or an open end), got {text!r}", key)
    path = [resolve_place(inst, names, t, r, key) for t in parts]
    if not state.is_stop(path[0]):
        r.fail(f"a link starts at a stop, zone or organ; {parts[0]} is {describe_place(inst, path[0])}", key)
    complete = state.is_stop(path[-1]) and len(path) > 1
    if complete and path[0] == path[-1]:
        r.fail(f"track may not loop back into the stop it came from (base rules); {text!r} loops back into its "
               f"own stop {parts[0]}", key)
    middle = path[1:-1] if complete else path[1:]
    if not middle and not any(h in inst.board.towns for h in path):
        r.fail(f"a link needs at least one track hex between its stops ({text!r})", key)
    board = inst.board
    for h in middle:
        if h in board.towns:
            continue  # "Track may pass through a town; a town is a stop where links end" (split in build_links)
        if state.is_stop(h) or board.area_of(h) is not None:
            r.fail(f"track is never built on a stop, zone or organ ({board.label(h)})", key)
        if not board.buildable(h):
            r.fail(f"{h} is {board.terrain.get(h, 'off-map')}; track cannot be built there", key)
    twice = sorted({parts[i] for i, h in enumerate(path) if path.count(h) > 1})
    if twice:
        r.fail(f"a link runs along a chain of hexes and never enters a hex twice; {text!r} enters "
               f"{', '.join(twice)} twice", key)
    for a, b in zip(path, path[1:]):
        if not _touches(state, a, b):
            r.fail(f"{board.label(a)} and {board.label(b)} are not neighbours", key)
    return tuple(path), complete


def _area_hexes(state: MultiState, h) -> tuple:
    return state.area_stops[h].hexes if h in state.area_stops else (h,)


def _touches(state: MultiState, a, b) -> bool:
    return any(x.is_neighbour(y) for x in _area_hexes(state, a) for y in _area_hexes(state, b))


def _crossing(state: MultiState, a, b) -> bool:
    """Does every side between a and b (an area may offer several) lie on an impassable line?"""
    sides = [(x, y) for x in _area_hexes(state, a) for y in _area_hexes(state, b) if x.is_neighbour(y)]
    return all(not state.board.passable(x, y) for x, y in sides)


def _check_track(state: MultiState, r: _StateReader) -> None:
    if state.board.nodes:
        return
    used: dict = {}
    for path in state.board.public_track:
        for h in path[1:-1]:
            used[h] = "the public track"
    for pname, p in state.players.items():
        for i, (path, complete) in enumerate(p.links):
            key = f"players.{pname}.links[{i}]"
            for a, b in zip(path, path[1:]):
                if _crossing(state, a, b):
                    r.fail(f"the track crosses the impassable hexside between {a} and {b}", key)
            for h in (path[1:-1] if complete else path[1:]):
                if h in state.board.towns:
                    continue  # a town tile joins the tracks of several links
                if h in used:
                    r.fail(f"the hex {h} already holds track of {used[h]} (complex tiles are not modelled)", key)
                used[h] = pname
            state.ruleset.check_link(state, pname, path, complete, lambda m, k=key: r.fail(m, k))


def _draw_track(state: MultiState, link: OwnedLink) -> None:
    """Fill `state.track` for the picture (area ends drawn to the neighbouring area hex)."""
    if state.board.nodes:
        return
    path = list(link.path)
    for i in range(1, len(path) - (1 if link.complete else 0)):
        h = path[i]
        prev = _nearest(state, path[i - 1], h)
        nxt = _nearest(state, path[i + 1], h) if i + 1 < len(path) else h
        if h not in state.track:
            state.track[h] = (prev, nxt)


def _nearest(state: MultiState, stop, h):
    for x in _area_hexes(state, stop):
        if x.is_neighbour(h):
            return x
    return stop


def link_text(state: MultiState, link: OwnedLink) -> str:
    return "-".join(str(h) for h in link.path)
