"""Plans: what a player does, round by round, and the referee that replays them.

A plan file is JSON and carries everything the referee needs besides the
board: the map, difficulty, rule switches and setup it was made for. Each round
lists shares issued, the action, build steps and shipment steps in the text
notation of solver/engine/moves.py, for example

    {"shares": 1, "action": "engineer",
     "build": ["D2-E3-F3-G3", "urbanize F5 black"],
     "ship": [{"from": "D2", "cube": "red", "route": "D2-G3"}, "locomotive"]}

A build step may also be one tile in move notation, for complex tiles:
"tile E4 D3 G4 + C4 F5" (a complex tile on an empty hex), "upgrade E4 C4 F5"
(a straight upgraded to a crossing), "town C2 C1" (a town tile's own track) or "redirect E4 D3 F5"
(the open end of an incomplete track turned to face F5).

In memory a round holds move values (solver/engine/moves.py: BuildPath, Urbanize, the tile moves, Ship,
UpgradeLocomotive, Pass): the notation is parsed once, when a plan is read (`plan_from_json`, where its
errors are the user's: exit 2), and written when it is saved (`RoundPlan.to_json`); the referee and the
solvers never read text.

The top level holds format, map, difficulty, readings (every reading of the
map by its CLI name, solver/engine/readings.py), round_limit, setup, rounds and an
optional free-text comment; any other field is an error (docs/instance-format.md).
Older plans name their readings in `rules` by the engine's field names
(`{"strict_exits": true}`); both are read, and a reading a plan does not name
takes its default.
"""
from __future__ import annotations

import dataclasses
import json
import pathlib
from dataclasses import dataclass, field

from solver.board.errors import InputError
from solver.board.hexgrid import Hex
from solver.board.instance import Instance
from solver.engine.moves import (BuildPath, BuildStep, EndBuild, IssueShares, LayTile, Move, Pass, RedirectTile,
                                 SelectAction, Ship, ShipStep, TownTrack, UpgradeLocomotive, UpgradeTile, Urbanize,
                                 parse_path, parse_route, parse_tile, route_text)
from solver.engine.readings import BY_NAME, parse_settings, rules_from_fields, rules_from_names, stated_names
from solver.engine.setup import Setup, setup_from_mapping, setup_to_json
from solver.engine.state import GameState, IllegalMove, Rules

FORMAT = "aos-solve-plan/1"
PLAN_FIELDS = {"format", "map", "difficulty", "readings", "rules", "round_limit", "setup", "rounds", "comment"}


@dataclass
class RoundPlan:
    """One round as moves: solvers build it from move values and the referee plays them as they are;
    notation is read once where a plan comes in (plan_from_json) and written where it goes out (to_json)."""

    shares: int = 0
    action: str | None = None
    target: Hex | None = None          # the hex a targeted action names (Rapa Nui's moai)
    build: list[BuildStep] = field(default_factory=list)
    ship: list[ShipStep] = field(default_factory=list)

    def to_json(self) -> dict:
        out = {"shares": self.shares, "action": self.action}
        if self.target is not None:
            out["target"] = str(self.target)
        out["build"] = [str(step) for step in self.build]
        out["ship"] = [ship_entry(step) for step in self.ship]
        return out


@dataclass
class Plan:
    map: str
    difficulty: str
    rules: Rules
    setup: Setup
    rounds: list[RoundPlan]
    round_limit: int | None = None  # the round limit it was made for (None: the scenario's round track)

    def to_json(self, instance: Instance) -> dict:
        return {"format": FORMAT, "map": self.map, "difficulty": self.difficulty,
                "readings": stated_names(self.rules, instance.scenario.ruleset),
                "round_limit": self.round_limit or instance.scenario.rounds,
                "setup": setup_to_json(instance, self.setup),
                "rounds": [r.to_json() for r in self.rounds]}

    def new_state(self, instance: Instance) -> GameState:
        """The game at the start, under the plan's readings and round limit."""
        return GameState.new(instance, self.setup, self.rules, round_limit=self.round_limit)


def ship_entry(move: ShipStep) -> dict | str:
    """A shipment step as the plan file writes it: {from, cube, route[, discount]}, "locomotive" or "pass"."""
    if not isinstance(move, Ship):
        return str(move)
    out = {"from": str(move.origin), "cube": move.colour, "route": route_text(move.route, move.teleports)}
    if move.discount is not None:
        out["discount"] = str(move.discount)
    return out


def load_plan(path: str, instance: Instance, overrides: list[str] | None = None) -> Plan:
    try:
        data = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise InputError(f"cannot read the plan ({err.strerror})", path) from None
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (byte {err.start}); save the plan as UTF-8 JSON", path) from None
    except json.JSONDecodeError as err:
        raise InputError(f"not valid JSON: {err}", path) from None
    return plan_from_json(data, instance, path, overrides)


def plan_from_json(data, instance: Instance, where: str = "plan", overrides: list[str] | None = None) -> Plan:
    """A plan from its JSON; `overrides` (NAME=VALUE readings, e.g. from --reading) replace the plan's own."""
    if not isinstance(data, dict):
        raise InputError("a plan is a JSON object", where)
    unknown = set(data) - PLAN_FIELDS
    if unknown:
        raise InputError(f"unknown field(s) {sorted(unknown)}; a plan has {', '.join(sorted(PLAN_FIELDS))}", where)
    if data.get("format", FORMAT) != FORMAT:
        raise InputError(f"unknown plan format {data.get('format')!r} (this referee reads {FORMAT!r})",
                         f"{where}, key 'format'")
    if data.get("map") != instance.board.name:
        raise InputError(f"the plan is for map {data.get('map')!r}, the instance is {instance.board.name!r}",
                         f"{where}, key 'map'")
    difficulty = data.get("difficulty")
    if not isinstance(difficulty, str):
        raise InputError(f"expected the name of a difficulty, got {difficulty!r}", f"{where}, key 'difficulty'")
    if difficulty not in instance.difficulties:
        raise InputError(f"unknown difficulty {difficulty!r} (this map has: {', '.join(instance.difficulties) or 'none'})",
                         f"{where}, key 'difficulty'")
    rules = rules_from_fields(data.get("rules", {}), f"{where}, key 'rules'")
    if "readings" in data:
        named = rules_from_names(data["readings"], instance.scenario.ruleset, f"{where}, key 'readings'")
        given = {BY_NAME[k].field for k in data["readings"]}
        rules = dataclasses.replace(rules, **{f: getattr(named, f) for f in given})
    if overrides:
        rules = dataclasses.replace(rules, **parse_settings(overrides, instance.scenario.ruleset))
    round_limit = data.get("round_limit")
    if round_limit is not None and (isinstance(round_limit, bool) or not isinstance(round_limit, int)
                                    or round_limit < 1):
        raise InputError(f"expected a whole number of rounds, got {round_limit!r}", f"{where}, key 'round_limit'")
    setup = setup_from_mapping(instance, difficulty, data.get("setup"), f"{where}, key 'setup'", rules)
    rounds_data = data.get("rounds")
    if not isinstance(rounds_data, list):
        raise InputError("expected a list of rounds", f"{where}, key 'rounds'")
    raw = []
    for i, r in enumerate(rounds_data):
        key = f"{where}, rounds[{i}]"
        if not isinstance(r, dict):
            raise InputError("a round is an object with shares, action, build and ship", key)
        unknown = set(r) - {"shares", "action", "target", "build", "ship"}
        if unknown:
            raise InputError(f"unknown field(s) {sorted(unknown)}", key)
        shares = r.get("shares", 0)
        if isinstance(shares, bool) or not isinstance(shares, int):
            raise InputError("'shares' must be a whole number", key)
        build, ship = r.get("build", []), r.get("ship", [])
        if not isinstance(build, list) or not all(isinstance(b, str) for b in build):
            raise InputError("'build' must be a list of paths like 'D2-E3-F3'", key)
        if not isinstance(ship, list):
            raise InputError("'ship' must be a list", key)
        for name in ("action", "target"):
            if r.get(name) is not None and not isinstance(r.get(name), str):
                raise InputError(f"'{name}' must be a text or null, got {r.get(name)!r}", key)
        raw.append((shares, r.get("action"), r.get("target"), build, ship))
    rounds = []
    for index, (shares, action, target, build, ship) in enumerate(raw, start=1):
        try:  # the notation is read here, once, so its errors name the plan file
            rounds.append(parse_round(shares, action, target, build, ship, index, instance))
        except InputError as err:
            raise InputError(str(err), where) from None
    if round_limit is not None and len(rounds) > round_limit:
        raise InputError(f"the plan has {len(rounds)} rounds but names a round limit of {round_limit}",
                         f"{where}, key 'round_limit'")
    return Plan(data.get("map"), difficulty, rules, setup, rounds,
                None if round_limit in (None, instance.scenario.rounds) else round_limit)


# -- the referee -------------------------------------------------------------------

@dataclass
class Step:
    round: int
    text: str
    move: Move | None


@dataclass
class Replay:
    state: GameState
    error: str | None = None          # the first illegal step and why
    failed_step: Step | None = None
    round_states: list[dict] = field(default_factory=list)  # summary after each round
    lock: dict | None = None          # Easter Island: {"round", "reason"} once the blocker cycle can never complete

    def lock_text(self) -> str | None:
        return f"blocker lock from round {self.lock['round']}: {self.lock['reason']}" if self.lock else None


def parse_round(shares: int, action: str | None, target, build: list[str], ship: list, index: int,
                instance: Instance | None = None) -> RoundPlan:
    """A round from its plan-file notation (bad notation or off-board hexes raise InputError naming round `index`)."""
    if target:
        if instance is not None and action not in instance.ruleset.targeted_actions:
            raise InputError(f"'target' {target!r} given, but action {action or 'none'!r} names no hex "
                             f"(only {', '.join(sorted(instance.ruleset.targeted_actions)) or 'none on this map'} do)",
                             f"round {index}")
        target = _hex(target, index, "target", instance)
    return RoundPlan(shares, action, target or None, [parse_build(text, index, instance) for text in build],
                     [parse_ship(entry, index, instance) for entry in ship])


def parse_build(text: str, index: int, instance: Instance | None = None) -> BuildStep:
    """One build step from its notation: 'D2-E3-F3', 'bonus D2-E3-F3', 'urbanize TOWN COLOUR' or one tile."""
    words = text.split()
    if words and words[0] == "urbanize":
        if len(words) != 3:
            raise InputError(f"expected 'urbanize TOWN COLOUR', got {text!r}", f"round {index}")
        return Urbanize(_hex(words[1], index, text, instance), words[2])
    if words and words[0] in ("tile", "upgrade", "town", "redirect"):  # one tile in move notation
        try:
            return parse_tile(text)
        except ValueError as err:
            raise InputError(str(err), f"round {index}") from None
    bonus = bool(words) and words[0] == "bonus"
    if bonus:
        words = words[1:]
    if len(words) != 1:
        raise InputError(f"expected a build path like 'D2-E3-F3', got {text!r}", f"round {index}")
    try:
        path = parse_path(words[0])
    except ValueError as err:
        raise InputError(f"{err} in build path {text!r}", f"round {index}") from None
    _on_board(instance, path, index, f"build path {text!r}")
    if len(path) < 3:
        raise InputError(f"a build path names its anchor, at least one new tile and where it points: {text!r}",
                         f"round {index}")
    return BuildPath(tuple(path), bonus)


def round_moves(rnd: RoundPlan, index: int) -> list[Step]:
    """One round of a plan as the engine's moves, in order, each with its text for messages and reports."""
    steps = [Step(index, f"shares {rnd.shares}", IssueShares(rnd.shares)),
             Step(index, f"action {rnd.action or 'none'}", SelectAction(rnd.action, rnd.target))]
    for build in rnd.build:
        if isinstance(build, BuildPath):
            steps.extend(Step(index, f"{build}: {tile}", tile) for tile in build.tiles())
        elif isinstance(build, (Urbanize, LayTile, UpgradeTile, TownTrack, RedirectTile)):
            steps.append(Step(index, str(build), build))
        else:  # a solver's bug, not the user's input: plans hold moves, never text
            raise TypeError(f"a plan's build step is a move, got {build!r}")
    steps.append(Step(index, "build done", EndBuild()))
    for entry in rnd.ship:
        if not isinstance(entry, (Ship, UpgradeLocomotive, Pass)):
            raise TypeError(f"a plan's shipment step is a move, got {entry!r}")
        steps.append(Step(index, str(entry), entry))
    return steps


def _hex(text, index: int, what: str, instance: Instance | None = None) -> Hex:
    if not isinstance(text, str):
        raise InputError(f"expected a hex name like 'D2' for {what}, got {text!r}", f"round {index}")
    try:
        h = Hex.parse(text)
    except ValueError as err:
        raise InputError(f"{err} ({what})", f"round {index}") from None
    _on_board(instance, [h], index, what)
    return h


def _on_board(instance: Instance | None, hexes, index: int, what: str) -> None:
    """A hex the board does not have is a typo in the plan (exit 2), not an illegal move (exit 1)."""
    if instance is None:
        return
    off = [str(h) for h in hexes if h not in instance.board.terrain]
    if off:
        raise InputError(f"{', '.join(off)} is not on the board ({what})", f"round {index}")


SHIP_FIELDS = {"from", "cube", "route", "discount"}


def parse_ship(entry, index: int, instance: Instance | None = None) -> ShipStep:
    """One shipment step from the plan file: 'locomotive', 'pass' or {from, cube, route[, discount]}."""
    if entry == "locomotive":
        return UpgradeLocomotive()
    if entry == "pass":
        return Pass()
    if not isinstance(entry, dict) or not {"from", "cube", "route"} <= set(entry):
        raise InputError(f"a shipment is 'locomotive', 'pass' or {{from, cube, route}}, got {entry!r}",
                         f"round {index}")
    unknown = set(entry) - SHIP_FIELDS
    if unknown:
        raise InputError(f"unknown field(s) {sorted(unknown)} in a shipment; it has {', '.join(sorted(SHIP_FIELDS))}",
                         f"round {index}")
    for name in ("cube", "route"):
        if not isinstance(entry[name], str):
            raise InputError(f"a shipment's '{name}' is a text, got {entry[name]!r}", f"round {index}")
    try:
        route, teleports = parse_route(entry["route"])
    except ValueError as err:
        raise InputError(f"{err} in route {entry['route']!r}", f"round {index}") from None
    _on_board(instance, route, index, f"route {entry['route']!r}")
    discount = _hex(entry["discount"], index, "discount", instance) if entry.get("discount") is not None else None
    return Ship(_hex(entry["from"], index, "from", instance), entry["cube"], route, teleports, discount)


def replay(instance: Instance, plan: Plan, observe=None) -> Replay:
    """Replay a plan through the engine, under its readings and round limit; stop at the first illegal step.

    `observe(round_index, step, state)` is called before each step is applied
    (pictures use it to see the track a shipment runs on); it must not change the state.
    """
    state = plan.new_state(instance)
    result = Replay(state)
    for index, rnd in enumerate(plan.rounds, start=1):
        if state.is_terminal():
            why = "it was cleared" if state.cleared_round else (state.lost or "the round limit was reached")
            result.error = f"round {index}: the game is already over ({why})"
            result.failed_step = Step(index, "round", None)
            return result
        for step in round_moves(rnd, index):
            if observe is not None:
                observe(index, step, state)
            try:
                state.apply(step.move)
            except IllegalMove as err:
                result.error = f"round {index}, '{step.text}': {err}"
                result.failed_step = step
                return result
        # Shipment steps the plan leaves out are passes.
        while state.phase == "ship" and state.round == index:
            state.apply(Pass())
        # "round" is the round just played (as the text reports say "after round N"); the engine's
        # marker has already moved on to "next_round".
        result.round_states.append({**state.summary(), "round": index, "next_round": state.round})
        if result.lock is None and not state.is_terminal():
            reason = state.ruleset.blocker_lock(state)
            if reason:  # it binds from the next round on
                result.lock = {"round": state.round, "reason": reason}
    return result


def reported_round(result: Replay) -> tuple[int, str]:
    """The round a replay is reported at, and how: ("stopped in", N) for an illegal step, else ("after", N).

    A finished round has moved the marker on, so the last round played is the marker minus one;
    a failed step is reported in its own round. Text and JSON both use this.
    """
    s = result.state
    if result.error:
        return s.round, "stopped in"
    return s.round - (1 if s.phase in ("shares", "over") else 0), "after"
