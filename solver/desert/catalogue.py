"""Tile catalogues from TOML, validated.

A catalogue file has a ``[catalogue]`` header (kind, whether it is a stand-in,
provenance) and ``[[tile]]`` entries; the core catalogue also holds the
``[start]`` tile.  A user who owns the game can replace a stand-in by a file of
the same shape with the real drawings.
"""
from __future__ import annotations

import pathlib

from solver.board.errors import InputError
from solver.desert.ruleset import DATA, Ruleset, read_toml
from solver.desert.tiles import (
    CORE,
    DESERT,
    DIR_NAMES,
    EMPTY,
    HIGHWAY,
    PAWN_KINDS,
    RAILROAD,
    SIDE_KINDS,
    TILE_KINDS,
    TRAIL,
    Landmark,
    Pinpoint,
    Route,
    Tile,
    TileSet,
)

DEFAULT_CATALOGUES = (DATA / "core-tiles.toml", DATA / "desert-tiles.toml")
DEFAULT_OBJECTIVES = DATA / "objective-tiles.toml"
OBJECTIVES = ("desert-temple", "desert-market", "great-oasis")


def _tile(entry: dict, where: str, kind: str, ruleset: Ruleset) -> Tile:
    def need(key: str, typ: type):
        if key not in entry:
            raise InputError(f"missing `{key}`", where)
        val = entry[key]
        if not isinstance(val, typ) or (typ is int and isinstance(val, bool)):
            raise InputError(f"`{key}` must be a {typ.__name__} (got {val!r})", f"{where}.{key}")
        return val

    tile_id = need("id", str)
    known = {"id", "name", "count", "sides", "routes", "pinpoints", "landmarks", "cities"} | (
        {"objective"} if kind == "objective" else set())
    for key in entry:
        if key not in known:
            raise InputError(f"unknown key `{key}`; expected one of {', '.join(sorted(known))}", where)
    sides_tab = need("sides", dict)
    if set(sides_tab) != set(DIR_NAMES):
        raise InputError("`sides` must name exactly N, E, S and W", f"{where}.sides")
    sides = []
    for d, name in enumerate(DIR_NAMES):
        s = sides_tab[name]
        if s not in SIDE_KINDS:
            raise InputError(f"unknown side kind {s!r}; expected one of {', '.join(SIDE_KINDS)}", f"{where}.sides.{name}")
        sides.append(s)
    routes: list[Route] = []
    covered: dict[int, int] = {}
    for i, rt in enumerate(entry.get("routes", [])):
        rwhere = f"{where}.routes[{i}]"
        if not isinstance(rt, dict) or not isinstance(rt.get("sides"), list) or not rt["sides"]:
            raise InputError("a route needs `sides`, a non-empty list of N/E/S/W", rwhere)
        dirs = set()
        for name in rt["sides"]:
            if name not in DIR_NAMES:
                raise InputError(f"unknown side {name!r}; expected N, E, S or W", f"{rwhere}.sides")
            d = DIR_NAMES.index(name)
            if sides[d] == EMPTY:
                raise InputError(f"side {name} is empty, so no route can reach it", f"{rwhere}.sides")
            if d in covered:
                raise InputError(f"side {name} is already on route {covered[d]}", f"{rwhere}.sides")
            covered[d] = i
            dirs.add(d)
        station = rt.get("station", False)
        if not isinstance(station, bool):
            raise InputError("`station` must be true or false", f"{rwhere}.station")
        kinds = {sides[d] for d in dirs}
        if TRAIL in kinds and len(kinds) > 1:
            raise InputError(
                "a route joining a desert trail to a railroad/highway inside a tile is not supported "
                "(Desert Stations sit between tiles)",
                rwhere,
            )
        if {RAILROAD, HIGHWAY} <= kinds and not station:
            raise InputError("a route joining railroad and highway needs `station = true`", rwhere)
        if station and not {RAILROAD, HIGHWAY} <= kinds:
            raise InputError("a station must join railroad and highway sides", rwhere)
        routes.append(Route(frozenset(dirs), station))
    for d, s in enumerate(sides):
        if s != EMPTY and d not in covered:
            raise InputError(f"side {DIR_NAMES[d]} ({s}) is on no route", f"{where}.routes")
    if kind == CORE and TRAIL in sides:
        raise InputError("a core tile cannot have a desert-trail side", f"{where}.sides")
    pins: list[Pinpoint] = []
    for i, p in enumerate(entry.get("pinpoints", [])):
        pwhere = f"{where}.pinpoints[{i}]"
        if not isinstance(p, dict) or p.get("pawn") not in PAWN_KINDS:
            raise InputError(f"`pawn` must be one of {', '.join(PAWN_KINDS)}", pwhere)
        r = p.get("route")
        if not isinstance(r, int) or isinstance(r, bool) or not 0 <= r < len(routes):
            raise InputError(f"`route` must be a route index 0..{len(routes) - 1}", pwhere)
        allowed = ruleset["pinpoint_routes"].get(p["pawn"], [])
        rkinds = {sides[d] for d in routes[r].sides}
        if not rkinds & set(allowed):
            raise InputError(
                f"a {p['pawn']} pinpoint must be on a {' or '.join(allowed)} route "
                f"[ruleset pinpoint_routes]",
                pwhere,
            )
        pins.append(Pinpoint(p["pawn"], r))
    lms: list[Landmark] = []
    for i, lm in enumerate(entry.get("landmarks", [])):
        lwhere = f"{where}.landmarks[{i}]"
        types = ruleset["landmark_types"]
        if not isinstance(lm, dict) or lm.get("type") not in types:
            raise InputError(f"`type` must be one of {', '.join(types)}", lwhere)
        r = lm.get("route")
        if not isinstance(r, int) or isinstance(r, bool) or not 0 <= r < len(routes):
            raise InputError(f"`route` must be a route index 0..{len(routes) - 1}", lwhere)
        if not all(sides[d] == TRAIL for d in routes[r].sides):
            raise InputError("a landmark must sit on a desert-trail route", lwhere)
        lms.append(Landmark(lm["type"], r))
    cities = entry.get("cities", 0)
    if not isinstance(cities, int) or isinstance(cities, bool) or cities < 0:
        raise InputError("`cities` must be a whole number >= 0", f"{where}.cities")
    count = entry.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise InputError("`count` must be a whole number >= 1", f"{where}.count")
    objective = ""
    if kind == "objective":
        objective = entry.get("objective")
        if objective not in OBJECTIVES:
            raise InputError(f"`objective` must be one of {', '.join(OBJECTIVES)}", f"{where}.objective")
        if objective == "great-oasis" and not any(lm.type == "oasis" for lm in lms):
            raise InputError("a Great Oasis tile needs an oasis landmark: 'This tile counts as an Oasis Landmark.'",
                             f"{where}.landmarks")
        kind = DESERT  # "Desert Objective tiles": placed as Desert tiles [ruleset objective_placement]
    return Tile(
        objective=objective,
        id=tile_id,
        kind=kind,
        sides=tuple(sides),  # type: ignore[arg-type]
        routes=tuple(routes),
        pinpoints=tuple(pins),
        landmarks=tuple(lms),
        cities=cities,
        count=count,
        name=str(entry.get("name", "")),
    )


def load_catalogues(ruleset: Ruleset, paths: tuple[str | pathlib.Path, ...] | None = None) -> TileSet:
    """The core and desert catalogues (and the objective tiles).  ``paths`` (--catalogue, repeatable) replace the
    shipped stand-ins kind by kind: a kind no given file has (its [catalogue].kind) keeps its stand-in."""
    given = tuple(pathlib.Path(p) for p in (paths or ()))
    tiles: dict[str, Tile] = {}
    sources: dict[str, str] = {}
    stand_in: dict[str, bool] = {}
    start: Tile | None = None
    objective_path = DEFAULT_OBJECTIVES
    kinds_from: dict[str, pathlib.Path] = {}
    todo = [(p, True) for p in given] + [(p, False) for p in DEFAULT_CATALOGUES]
    for path, from_user in todo:
        data = read_toml(path)
        head = data.get("catalogue")
        if not isinstance(head, dict):
            raise InputError("missing the [catalogue] header table", str(path))
        kind = head.get("kind")
        if kind not in TILE_KINDS + ("objective",):
            raise InputError(f"`kind` must be one of {', '.join(TILE_KINDS)} or objective (got {kind!r})",
                             f"{path}: [catalogue].kind")
        if kind in kinds_from:
            if not from_user:
                continue  # the stand-in of a kind a given file replaces
            raise InputError(f"a second {kind} catalogue (the first: {kinds_from[kind]})", f"{path}: [catalogue].kind")
        kinds_from[kind] = path
        if kind == "objective":  # a real Desert Objective catalogue in place of the stand-in
            objective_path = path
            continue
        if not isinstance(head.get("stand_in"), bool):
            raise InputError("`stand_in` must be true or false", f"{path}: [catalogue].stand_in")
        if not isinstance(head.get("provenance"), str) or not head["provenance"].strip():
            raise InputError("`provenance` must say where the drawings come from", f"{path}: [catalogue].provenance")
        stand_in[str(path)] = head["stand_in"]
        entries = data.get("tile")
        if not isinstance(entries, list) or not entries:
            raise InputError("no [[tile]] entries", str(path))
        total = 0
        for i, entry in enumerate(entries):
            where = f"{path}: tile[{i}]"
            if not isinstance(entry, dict):
                raise InputError("each [[tile]] must be a table", where)
            if isinstance(entry.get("id"), str):
                where = f"{path}: tile[{i}] (id {entry['id']})"
            t = _tile(entry, where, kind, ruleset)
            if t.id in tiles:
                raise InputError(f"tile id {t.id!r} is already used in {sources[t.id]}", f"{where}.id")
            tiles[t.id] = t
            sources[t.id] = str(path)
            total += t.count
        expected = ruleset["core_route_tiles"] if kind == CORE else ruleset["desert_route_tiles"]
        if total != expected:
            raise InputError(
                f"the tile counts add up to {total}, but the game has {expected} {kind} route tiles "
                f"[ruleset {'core_route_tiles' if kind == CORE else 'desert_route_tiles'}]",
                str(path),
            )
        if "start" in data:
            if kind != CORE:
                raise InputError("the start tile belongs in the core catalogue", f"{path}: [start]")
            start = _tile(data["start"], f"{path}: [start]", CORE, ruleset)
            if start.id in tiles:
                raise InputError(f"start tile id {start.id!r} is also a route tile id", f"{path}: [start].id")
            sources[start.id] = str(path)
        elif kind == CORE:
            raise InputError("no [start] tile in the core catalogue", str(path))
    objectives = _load_objectives(ruleset, objective_path, tiles, start, sources, stand_in)
    return TileSet(tiles=tiles, start=start, sources=sources, stand_in=stand_in, objectives=objectives)


def _load_objectives(ruleset: Ruleset, path: pathlib.Path, tiles, start, sources, stand_in) -> dict[str, Tile]:
    """The Desert Objective tiles: their own catalogue, never in a bag."""
    data = read_toml(path)
    head = data.get("catalogue")
    if not isinstance(head, dict) or head.get("kind") != "objective" or not isinstance(head.get("stand_in"), bool):
        raise InputError("needs a [catalogue] header with kind = \"objective\" and stand_in", f"{path}: [catalogue]")
    stand_in[str(path)] = head["stand_in"]
    out: dict[str, Tile] = {}
    for i, entry in enumerate(data.get("tile", [])):
        where = f"{path}: tile[{i}]"
        if not isinstance(entry, dict):
            raise InputError("each [[tile]] must be a table", where)
        t = _tile(entry, where, "objective", ruleset)
        if t.id in tiles or t.id in out or t.id == start.id:
            raise InputError(f"tile id {t.id!r} is already used", f"{where}.id")
        out[t.id] = t
        sources[t.id] = str(path)
    total = sum(t.count for t in out.values())
    if total != ruleset["desert_objective_tiles"]:
        raise InputError(f"the tile counts add up to {total}, but the game has {ruleset['desert_objective_tiles']} "
                         "Desert Objective tiles [ruleset desert_objective_tiles]", str(path))
    return out
