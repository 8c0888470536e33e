"""Load and validate a board-and-scenario TOML file (format: docs/instance-format.md).

Every mistake becomes one `InputError` naming the file, the key (and line when
known) and what was expected, so the CLI can print it and exit with code 2.
"""
from __future__ import annotations

import pathlib
import re
import tomllib
from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Any, Callable, NoReturn

from solver.board.board import BUILDABLE, COLOURS, TERRAINS, Area, Board, City, Exit, Town
from solver.board.errors import InputError
from solver.board.hexgrid import Hex
from solver.board.provenance import Provenance, read_provenance

TOP_LEVEL = ("meta", "grid", "graph", "cities", "towns", "exits", "zones", "organs", "impassable", "track",
             "scenario", "difficulty", "map_rules")
PROVENANCE_KEYS = ("source", "quote", "reason", "sheet", "board")
FEATURE_KEYS = {
    "cities": ("name", "hex", "colour", "number", "danger", "region"),
    "towns": ("name", "hex"),
    "exits": ("name", "hex"),
    "zones": ("name", "hexes", "colour", "numbers"),
    "organs": ("name", "hexes", "colour", "numbers"),
    "impassable": ("between",),
    "track": ("hexes",),
}
SCENARIO_KEYS = ("ruleset", "rounds", "start_cash", "start_shares", "start_income", "start_locomotive",
                 "max_locomotive", "max_shares", "share_price", "tile_limit", "engineer_tile_limit", "action_cost",
                 "actions", "new_cities", "bag", "income_reduction", "income_floor", "shipments_per_round",
                 "rapa_nui_cash", "feeding_discount", "new_city_danger", "food_per_area", "bonus_tiles_pay_cost",
                 "track_cost")
DEFAULT_LEGEND = {".": "plain", "~": "river", "^": "mountain", "w": "water", "x": "off-map"}


@dataclass(frozen=True)
class Scenario:
    """The numbers a solo (or multiplayer) game is played with."""

    ruleset: str
    rounds: int
    start_cash: int
    start_shares: int
    start_income: int
    start_locomotive: int
    max_locomotive: int
    max_shares: int
    share_price: int
    tile_limit: int
    engineer_tile_limit: int
    action_cost: int
    actions: tuple[str, ...]
    track_cost: dict[str, int]
    town_cost_base: int
    town_cost_per_track: int
    income_reduction: tuple[tuple[int, int, int], ...]  # (low, high, loss)
    income_floor: int
    new_cities: tuple[str, ...]
    bag: dict[str, int]
    shipments_per_round: int = 2
    # Map-specific numbers (read only where the map's sheet has them).
    rapa_nui_cash: int = 0
    feeding_discount: int = 0
    new_city_danger: int = 0
    food_per_area: int = 0
    engineer_track_cost: int | None = None
    bonus_tiles_pay_cost: bool = True


@dataclass(frozen=True)
class Difficulty:
    name: str
    cubes: dict[Hex, int]  # how many cubes are stacked on each stop at setup


@dataclass(frozen=True)
class Instance:
    path: str
    board: Board
    scenario: Scenario
    difficulties: dict[str, Difficulty]
    provenance: tuple[Provenance, ...] = field(default=())
    #: optional `[map_rules]`: a map's own numbers and names, each with provenance (multiplayer maps)
    map_rules: dict[str, Any] = field(default_factory=dict)
    #: the map's rules object, handed in by whoever loaded the file (solver.games); the engine asks it
    ruleset: Any = field(default=None, compare=False, repr=False)

    def assumptions(self) -> list[Provenance]:
        return [p for p in self.provenance if p.source == "assumed"]


class _Reader:
    """Reads one file, remembering its name and text to point at lines."""

    def __init__(self, path: str, text: str):
        self.path = path
        self.lines = text.splitlines()
        self.provenance: list[Provenance] = []
        self.rulesets: Mapping[str, Any] = {}
        self._index: list[tuple[tuple[str, ...], int, bool]] | None = None

    def fail(self, message: str, key: str | None = None) -> NoReturn:
        where = self.path
        if key:
            where += f", key '{key}'"
            found = self._line_of(key)
            if found:
                line, exact = found
                where += f" (line {line})" if exact else f" (in the table that starts on line {line})"
        raise InputError(message, where)

    def _line_of(self, key: str) -> tuple[int, bool] | None:
        """Best effort: the line that sets `key`, or the header of the table it belongs in.

        Returns (line, exact): exact is False when only the enclosing table
        header was found (a missing key, or a key of an array-of-tables entry
        that sits on its own line below the header).
        """
        if self._index is None:
            self._index = _index_lines(self.lines)
        want = _key_tokens(key)
        best: tuple[int, int, bool] | None = None  # (score, line, is_key_line)
        for path, line, is_key in self._index:
            if len(path) > len(want):
                continue
            ok = True
            for i, part in enumerate(path):
                target = want[i]
                if part == target:
                    continue
                if i == len(path) - 1 and is_key and target.split("[")[0] == part:
                    continue  # `edges = [...]` holds edges[2]
                ok = False
                break
            if ok and (best is None or len(path) > best[0]):
                best = (len(path), line, is_key)
        if best is None:
            return None
        score, line, is_key = best
        return line, (score == len(want) or is_key)

    # -- typed accessors -------------------------------------------------
    def only(self, table: dict, allowed: tuple[str, ...] | set[str], key: str | None) -> None:
        """A misspelt key must not be silently ignored (a typo in 'colour' would lose the colour)."""
        for name in table:
            if name not in allowed:
                where = f"{key}.{name}" if key else name
                self.fail(f"unknown key {name!r} (expected one of {', '.join(sorted(allowed))})", where)

    def table(self, parent: dict, name: str, key: str, required: bool = True) -> dict:
        value = parent.get(name)
        if value is None and not required:
            return {}
        if not isinstance(value, dict):
            self.fail(f"expected a table [{key}]", key)
        return value

    def sourced(self, parent: dict, name: str, key: str, kind: type, check: Callable[[Any], str | None] | None = None,
                default: Any = None) -> Any:
        """A value written as `{ value = ..., source = ..., quote|reason = ... }`."""
        entry = parent.get(name)
        if entry is None:
            if default is not None:
                return default
            self.fail(f"missing required value '{name}'", key)
        if not isinstance(entry, dict) or "value" not in entry:
            self.fail("expected an inline table { value = ..., source = ..., quote/reason = ... }", key)
        self.only(entry, ("value",) + PROVENANCE_KEYS, key)
        value = entry["value"]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            self.fail(f"expected a whole number, got {value!r}", key)
        if kind is bool and not isinstance(value, bool):
            self.fail(f"expected true or false, got {value!r}", key)
        if kind is not int and kind is not object and not isinstance(value, kind):
            self.fail(f"expected a {kind.__name__}, got {value!r}", key)
        if check:
            problem = check(value)
            if problem:
                self.fail(problem, key)
        self.provenance.append(read_provenance(entry, key, self.fail))
        return value

    def hex(self, value: Any, key: str) -> Hex:
        try:
            return Hex.parse(value)
        except (ValueError, AttributeError):
            self.fail(f"expected a hex name like 'C4', got {value!r}", key)


_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\[\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*((?:\"[^\"]*\"|'[^']*'|[A-Za-z0-9_\-]+)(?:\s*\.\s*(?:\"[^\"]*\"|'[^']*'|[A-Za-z0-9_\-]+))*)\s*=")


def _split_dotted(text: str) -> tuple[str, ...]:
    parts = re.findall(r"\"[^\"]*\"|'[^']*'|[^.\s]+", text)
    return tuple(p.strip("\"'") for p in parts)


def _key_tokens(key: str) -> tuple[str, ...]:
    """'cities[3].hex' -> ('cities[3]', 'hex'); 'graph.edges[2]' -> ('graph', 'edges[2]')."""
    return tuple(t for t in key.split(".") if t)


def _index_lines(lines: list[str]) -> list[tuple[tuple[str, ...], int, bool]]:
    """(key path, line number, is a key line) for every table header and key in a TOML text."""
    out = []
    header: tuple[str, ...] = ()
    counts: dict[tuple[str, ...], int] = {}
    in_string = None
    for number, line in enumerate(lines, 1):
        if in_string:
            if line.count(in_string) % 2 == 1:
                in_string = None
            continue
        m = _HEADER.match(line)
        if m and "=" not in line.split("]")[0]:
            parts = _split_dotted(m.group(2))
            if m.group(1) == "[[":
                n = counts.get(parts, 0)
                counts[parts] = n + 1
                parts = parts[:-1] + (f"{parts[-1]}[{n}]",)
            header = parts
            out.append((header, number, False))
            continue
        m = _KEY.match(line)
        if m:
            out.append((header + _split_dotted(m.group(1)), number, True))
            rest = line[m.end():]
            for quote in ('"""', "'''"):
                if rest.count(quote) % 2 == 1:
                    in_string = quote
                    break
    return out


def _non_negative(v: int) -> str | None:
    return None if v >= 0 else f"must be 0 or more, got {v}"


def _positive(v: int) -> str | None:
    return None if v >= 1 else f"must be 1 or more, got {v}"


def _line_of_byte(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def read_instance(path: str | pathlib.Path, rulesets: Mapping[str, Any]) -> Instance:
    """Read and check a board file; `rulesets` (name -> ruleset object) is handed in by solver.games.

    The board layer knows no rules: the caller supplies the known rulesets, the
    file's ruleset is checked against them and attached to the Instance, and it
    may veto the file through its `check_instance(instance, fail)`.
    """
    path = str(path)
    try:
        text = pathlib.Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot read the file ({err.strerror})", path) from None
    except UnicodeDecodeError as err:
        line = _line_of_byte(pathlib.Path(path).read_bytes(), err.start)
        raise InputError(f"not UTF-8 text (byte {err.start}, line {line}); save the file as UTF-8", path) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError(f"not valid TOML: {err}", path) from None
    r = _Reader(path, text)
    r.rulesets = rulesets
    r.only(data, TOP_LEVEL, None)
    meta = r.table(data, "meta", "meta")
    name = meta.get("name")
    if not isinstance(name, str) or not name:
        r.fail("expected a map name", "meta.name")
    board = _read_board(r, data, name)
    scenario = _read_scenario(r, data, board)
    difficulties = _read_difficulties(r, data, board, scenario)
    map_rules = _read_map_rules(r, data)
    ruleset = rulesets[scenario.ruleset]
    instance = Instance(path, board, scenario, difficulties, tuple(r.provenance), map_rules, ruleset)
    ruleset.check_instance(instance, r.fail)
    return instance


def _read_map_rules(r: _Reader, data: dict) -> dict[str, Any]:
    """`[map_rules]`: every key a sourced value `{ value = ..., source = ..., quote|reason = ... }`."""
    table = r.table(data, "map_rules", "map_rules", required=False)
    out = {}
    for name in table:
        out[name] = r.sourced(table, name, f"map_rules.{name}", object)
    return out


# -- board -------------------------------------------------------------------

def _read_board(r: _Reader, data: dict, name: str) -> Board:
    if "graph" in data:
        return _read_graph_board(r, data, name)
    terrain = _read_terrain(r, data)
    f = _Features(r, data, terrain)
    cities, towns, exits = _read_stops(f)
    areas = _read_areas(f)
    impassable = _read_impassable(f)
    public = _read_public_track(f, set(cities) | set(towns) | set(exits))
    return Board(name, terrain, cities, towns, exits, tuple(areas), frozenset(impassable), tuple(public))


def _read_terrain(r: _Reader, data: dict) -> dict[Hex, str]:
    """[grid]: the legend and the picture, letter by letter (an unknown letter names its row, column and line)."""
    grid = r.table(data, "grid", "grid")
    r.only(grid, ("legend", "picture") + PROVENANCE_KEYS, "grid")
    r.provenance.append(read_provenance(grid, "grid", r.fail))
    legend = dict(DEFAULT_LEGEND)
    extra = grid.get("legend", {})
    if not isinstance(extra, dict):
        r.fail("expected a table of letter = terrain", "grid.legend")
    for letter, terrain in extra.items():
        if terrain not in TERRAINS:
            r.fail(f"unknown terrain {terrain!r} (expected one of {', '.join(TERRAINS)})", f"grid.legend.{letter}")
        legend[letter] = terrain
    picture = grid.get("picture")
    if not isinstance(picture, str):
        r.fail("expected a multi-line string picturing the hex grid", "grid.picture")
    terrain: dict[Hex, str] = {}
    pic_start = next((i for i, ln in enumerate(r.lines, 1) if re.match(r"^\s*picture\s*=", ln)), 0)
    rows = [ln for ln in picture.split("\n")]
    # A leading newline after the opening quotes is dropped by TOML; blank rows are skipped.
    row = 0
    for offset, line in enumerate(rows):
        if not line.strip():
            continue
        for col, letter in enumerate(line.split()):
            if letter not in legend:
                at = f" (line {pic_start + offset + 1})" if pic_start else ""
                known = ", ".join(f"'{k}' {v}" for k, v in legend.items())
                raise InputError(f"unknown terrain letter {letter!r} in row {row + 1}, column {col + 1}; "
                                 f"the legend knows {known}", f"{r.path}, key 'grid.picture'{at}")
            terrain[Hex(col, row)] = legend[letter]
        row += 1
    if not any(t != "off-map" for t in terrain.values()):
        r.fail("the picture has no hex on the map", "grid.picture")
    return terrain


class _Features:
    """Reading the features on a hex board: one feature per hex, stop names unique, each table's keys known."""

    def __init__(self, r: _Reader, data: dict, terrain: dict[Hex, str]):
        self.r, self.data, self.terrain = r, data, terrain
        self.taken: dict[Hex, str] = {}
        self.names: dict[str, Hex] = {}

    def place(self, h: Hex, what: str, key: str, allow=("plain", "river", "mountain")) -> None:
        r, terrain = self.r, self.terrain
        if terrain.get(h, "off-map") == "off-map":
            r.fail(f"{what} at {h} is off the map (the picture has no hex there)", key)
        if terrain[h] not in allow:
            r.fail(f"{what} at {h} stands on {terrain[h]}, expected {' or '.join(allow)}", key)
        if h in self.taken:
            r.fail(f"{what} at {h} shares its hex with {self.taken[h]}; one feature per hex", key)
        self.taken[h] = what

    def entries(self, kind: str) -> list[tuple[str, dict]]:
        r = self.r
        items = self.data.get(kind, [])
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            r.fail(f"expected an array of tables [[{kind}]]", kind)
        out = []
        for i, item in enumerate(items):
            key = f"{kind}[{i}]"
            r.only(item, FEATURE_KEYS[kind] + PROVENANCE_KEYS, key)
            r.provenance.append(read_provenance(item, key, r.fail))
            out.append((key, item))
        return out

    def unique_name(self, name: str, h: Hex, key: str) -> None:
        # Difficulties, setups and plans name stops; a name must say which one.
        if name.lower() in self.names:
            self.r.fail(f"the name {name!r} is already used by the stop on {self.names[name.lower()]}; stop names "
                        "must be unique", key)
        self.names[name.lower()] = h

    def text(self, item: dict, field_: str, key: str, default: str | None = None) -> str:
        v = item.get(field_, default)
        if not isinstance(v, str) or not v:
            self.r.fail(f"expected a non-empty text '{field_}'", f"{key}.{field_}")
        return v

    def colour(self, item: dict, key: str) -> str | None:
        colour = item.get("colour")
        if colour is not None and colour not in COLOURS:
            self.r.fail(f"unknown colour {colour!r} (expected one of {', '.join(COLOURS)})", f"{key}.colour")
        return colour


def _read_stops(f: _Features) -> tuple[dict[Hex, City], dict[Hex, Town], dict[Hex, Exit]]:
    r = f.r
    cities: dict[Hex, City] = {}
    for key, item in f.entries("cities"):
        h = r.hex(item.get("hex"), f"{key}.hex")
        colour = f.colour(item, key)
        danger = item.get("danger")
        if danger is not None and (isinstance(danger, bool) or not isinstance(danger, int) or danger < 0):
            r.fail(f"a danger level must be a whole number 0 or more, got {danger!r}", f"{key}.danger")
        for field_ in ("number", "region"):
            v = item.get(field_, "")
            if isinstance(v, bool) or not isinstance(v, (str, int)):
                r.fail(f"expected a text or a whole number for '{field_}', got {v!r}", f"{key}.{field_}")
        city = City(h, f.text(item, "name", key), colour, str(item.get("number", "")), danger,
                    str(item.get("region", "")))
        f.unique_name(city.name, h, f"{key}.name")
        f.place(h, f"city {city.name!r}", f"{key}.hex", allow=BUILDABLE)
        cities[h] = city
    towns: dict[Hex, Town] = {}
    for key, item in f.entries("towns"):
        h = r.hex(item.get("hex"), f"{key}.hex")
        town = Town(h, f.text(item, "name", key, default=f"town {h}"))
        f.unique_name(town.name, h, f"{key}.name")
        f.place(h, f"town {town.name!r}", f"{key}.hex", allow=BUILDABLE)
        towns[h] = town
    exits: dict[Hex, Exit] = {}
    for key, item in f.entries("exits"):
        h = r.hex(item.get("hex"), f"{key}.hex")
        ex = Exit(h, f.text(item, "name", key))
        f.unique_name(ex.name, h, f"{key}.name")
        f.place(h, f"exit {ex.name!r}", f"{key}.hex", allow=BUILDABLE + ("water",))
        exits[h] = ex
    return cities, towns, exits


def _read_areas(f: _Features) -> list[Area]:
    r = f.r
    areas = []
    for kind in ("zones", "organs"):
        for key, item in f.entries(kind):
            hexes = item.get("hexes")
            if not isinstance(hexes, list) or not hexes:
                r.fail("expected a non-empty list of hexes", f"{key}.hexes")
            hs = tuple(r.hex(v, f"{key}.hexes") for v in hexes)
            colour = f.colour(item, key)
            numbers = item.get("numbers", [])
            if not isinstance(numbers, list) or not all(
                    isinstance(n, (str, int)) and not isinstance(n, bool) for n in numbers):
                r.fail(f"expected a list of numbers, got {numbers!r}", f"{key}.numbers")
            area = Area(kind.rstrip("s"), f.text(item, "name", key), hs, colour, tuple(str(n) for n in numbers))
            for h in hs:
                f.place(h, f"{area.kind} {area.name!r}", f"{key}.hexes", allow=BUILDABLE + ("water",))
            areas.append(area)
    return areas


def _read_impassable(f: _Features) -> set[frozenset[Hex]]:
    r = f.r
    impassable = set()
    for key, item in f.entries("impassable"):
        pair = item.get("between")
        if not isinstance(pair, list) or len(pair) != 2:
            r.fail("expected 'between = [HEX, HEX]'", f"{key}.between")
        a, b = (r.hex(v, f"{key}.between") for v in pair)
        if not a.is_neighbour(b):
            r.fail(f"{a} and {b} are not neighbours, so no hexside lies between them", f"{key}.between")
        impassable.add(frozenset((a, b)))
    return impassable


def _read_public_track(f: _Features, stops: set[Hex]) -> list[tuple[Hex, ...]]:
    r = f.r
    public = []
    for key, item in f.entries("track"):
        hexes = item.get("hexes")
        if not isinstance(hexes, list) or len(hexes) < 3:
            r.fail("expected 'hexes = [STOP, HEX, ..., STOP]' with at least one track hex", f"{key}.hexes")
        hs = tuple(r.hex(v, f"{key}.hexes") for v in hexes)
        for h in hs:
            if f.terrain.get(h, "off-map") == "off-map":
                r.fail(f"the public track runs through {h}, which is off the map", f"{key}.hexes")
        for a, b in zip(hs, hs[1:]):
            if not a.is_neighbour(b):
                r.fail(f"{a} and {b} are not neighbours", f"{key}.hexes")
        for end in (hs[0], hs[-1]):
            if end not in stops:
                r.fail(f"the public track must start and end at a stop; {end} is none", f"{key}.hexes")
        public.append(hs)
    return public


def _read_graph_board(r: _Reader, data: dict, name: str) -> Board:
    graph = r.table(data, "graph", "graph")
    for kind in ("grid",) + tuple(FEATURE_KEYS):
        if kind in data:
            r.fail(f"a map without hexes ([graph]) has no [{kind}]; hex features need a [grid]", kind)
    r.only(graph, ("nodes", "edges", "cities") + PROVENANCE_KEYS, "graph")
    r.provenance.append(read_provenance(graph, "graph", r.fail))
    nodes = graph.get("nodes")
    if not isinstance(nodes, list) or not nodes or not all(isinstance(n, str) for n in nodes):
        r.fail("expected a list of node names", "graph.nodes")
    if len(set(nodes)) != len(nodes):
        r.fail("node names must be unique", "graph.nodes")
    edges = graph.get("edges")
    if not isinstance(edges, list):
        r.fail("expected a list of [NODE, NODE] pairs", "graph.edges")
    known = set(nodes)
    out = []
    for i, e in enumerate(edges):
        if not (isinstance(e, list) and len(e) == 2 and all(isinstance(x, str) for x in e)):
            r.fail("expected a pair [NODE, NODE]", f"graph.edges[{i}]")
        for x in e:
            if x not in known:
                r.fail(f"unknown node {x!r}", f"graph.edges[{i}]")
        if e[0] == e[1]:
            r.fail("an edge must join two different nodes", f"graph.edges[{i}]")
        out.append((e[0], e[1]))
    cities: dict = {}
    spec = graph.get("cities", [])
    if not isinstance(spec, list) or not all(isinstance(c, dict) for c in spec):
        r.fail("expected a list of { node = ..., colour = ..., number = ... } tables", "graph.cities")
    for i, item in enumerate(spec):
        key = f"graph.cities[{i}]"
        r.only(item, ("node", "colour", "number"), key)
        node = item.get("node")
        if node not in known:
            r.fail(f"unknown node {node!r}", f"{key}.node")
        if node in cities:
            r.fail(f"the node {node!r} is already a city", f"{key}.node")
        colour = item.get("colour")
        if colour is not None and colour not in COLOURS:
            r.fail(f"unknown colour {colour!r} (expected one of {', '.join(COLOURS)})", f"{key}.colour")
        number = item.get("number", "")
        if isinstance(number, bool) or not isinstance(number, (str, int)):
            r.fail(f"expected a text or a whole number for 'number', got {number!r}", f"{key}.number")
        cities[node] = City(node, node, colour, str(number))
    return Board(name, {}, cities=cities, nodes=tuple(nodes), edges=tuple(out))


# -- scenario ----------------------------------------------------------------

def _read_scenario(r: _Reader, data: dict, board: Board) -> Scenario:
    s = r.table(data, "scenario", "scenario")
    r.only(s, SCENARIO_KEYS, "scenario")
    ruleset = s.get("ruleset")
    if not isinstance(ruleset, str):
        r.fail("expected the name of the map's ruleset (e.g. 'easter-island')", "scenario.ruleset")
    if ruleset not in r.rulesets:
        r.fail(f"unknown ruleset {ruleset!r} (known: {', '.join(r.rulesets)})", "scenario.ruleset")

    def num(name: str, check=_non_negative, default=None) -> int:
        return r.sourced(s, name, f"scenario.{name}", int, check, default)

    costs_t = r.table(s, "track_cost", "scenario.track_cost")
    track_cost = {t: r.sourced(costs_t, t, f"scenario.track_cost.{t}", int, _non_negative)
                  for t in BUILDABLE if t in costs_t}
    for t in costs_t:
        if t not in BUILDABLE + ("town_base", "town_per_track", "engineer"):
            r.fail(f"unknown terrain {t!r} (expected {', '.join(BUILDABLE)}, town_base, town_per_track)",
                   f"scenario.track_cost.{t}")
    needed = {board.terrain[h] for h in board.terrain if board.buildable(h)}
    for t in sorted(needed - set(track_cost)):
        r.fail(f"the board has {t} hexes but no cost is given for them", f"scenario.track_cost.{t}")

    def actions_check(v: list) -> str | None:
        bad = [a for a in v if a not in KNOWN_ACTIONS]
        return f"unknown action(s) {bad}; known: {', '.join(KNOWN_ACTIONS)}" if bad else None

    def colours_check(v: list) -> str | None:
        bad = [c for c in v if c not in COLOURS]
        return f"unknown colour(s) {bad}" if bad else None

    def bag_check(v: dict) -> str | None:
        for c, n in v.items():
            if c not in COLOURS:
                return f"unknown colour {c!r} in the bag"
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                return f"the bag's count of {c} must be a whole number 0 or more, got {n!r}"
        return None

    def reduction_check(v: list) -> str | None:
        for row in v:
            if not (isinstance(row, list) and len(row) == 3 and all(isinstance(x, int) for x in row)):
                return "expected rows [LOW, HIGH, LOSS]"
        return None

    scenario = Scenario(
        ruleset=ruleset,
        rounds=num("rounds", _positive),
        start_cash=num("start_cash"),
        start_shares=num("start_shares"),
        start_income=r.sourced(s, "start_income", "scenario.start_income", int),
        start_locomotive=num("start_locomotive", _positive),
        max_locomotive=num("max_locomotive", _positive),
        max_shares=num("max_shares"),
        share_price=num("share_price", _positive),
        tile_limit=num("tile_limit"),
        engineer_tile_limit=num("engineer_tile_limit"),
        action_cost=num("action_cost"),
        actions=tuple(r.sourced(s, "actions", "scenario.actions", list, actions_check)),
        track_cost=track_cost,
        town_cost_base=r.sourced(costs_t, "town_base", "scenario.track_cost.town_base", int, _non_negative),
        town_cost_per_track=r.sourced(costs_t, "town_per_track", "scenario.track_cost.town_per_track", int,
                                      _non_negative),
        income_reduction=tuple(tuple(x) for x in r.sourced(s, "income_reduction", "scenario.income_reduction",
                                                             list, reduction_check)),
        income_floor=r.sourced(s, "income_floor", "scenario.income_floor", int),
        new_cities=tuple(r.sourced(s, "new_cities", "scenario.new_cities", list, colours_check)),
        bag=dict(r.sourced(s, "bag", "scenario.bag", dict, bag_check)),
        shipments_per_round=num("shipments_per_round", _positive),
        rapa_nui_cash=num("rapa_nui_cash", default=0) if "rapa_nui_cash" in s else 0,
        feeding_discount=num("feeding_discount") if "feeding_discount" in s else 0,
        new_city_danger=num("new_city_danger") if "new_city_danger" in s else 0,
        food_per_area=num("food_per_area") if "food_per_area" in s else 0,
        engineer_track_cost=(r.sourced(costs_t, "engineer", "scenario.track_cost.engineer", int, _non_negative)
                             if "engineer" in costs_t else None),
        bonus_tiles_pay_cost=(r.sourced(s, "bonus_tiles_pay_cost", "scenario.bonus_tiles_pay_cost", bool)
                              if "bonus_tiles_pay_cost" in s else True),
    )
    if scenario.start_locomotive > scenario.max_locomotive:
        r.fail(f"the locomotive starts at {scenario.start_locomotive}, above its maximum {scenario.max_locomotive}",
               "scenario.start_locomotive")
    if scenario.start_shares > scenario.max_shares:
        r.fail(f"{scenario.start_shares} shares at the start, above the maximum {scenario.max_shares}",
               "scenario.start_shares")
    return scenario


KNOWN_ACTIONS = ("engineer", "locomotive", "urbanization", "rapa-nui", "feeding", "production",
                 "first-move", "first-build", "turn-order-pass", "interurban-express")


def _read_difficulties(r: _Reader, data: dict, board: Board, scenario: Scenario) -> dict[str, Difficulty]:
    table = r.table(data, "difficulty", "difficulty", required=False)
    out = {}
    for name, spec in table.items():
        key = f"difficulty.{name}"
        if not isinstance(spec, dict):
            r.fail("expected a table", key)

        def cubes_check(v: dict) -> str | None:
            for stop, n in v.items():
                if board.stop_by_name(stop) is None:
                    return f"{stop!r} is not a stop on this board"
                if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                    return f"the cube count on {stop!r} must be a whole number 1 or more, got {n!r}"
            return None

        r.only(spec, ("cubes",), key)
        cubes = r.sourced(spec, "cubes", f"{key}.cubes", dict, cubes_check)
        bag = sum(scenario.bag.values())
        if sum(cubes.values()) > bag:
            r.fail(f"the setup needs {sum(cubes.values())} cubes but the bag holds only {bag}", f"{key}.cubes")
        out[name] = Difficulty(name, {board.stop_by_name(k): v for k, v in cubes.items()})
    return out
