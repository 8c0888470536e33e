"""The ruleset file: every game value with its provenance.

Each top-level table other than ``[meta]`` is one rule: ``value`` and
``source`` ("rule-sheet" or "core-notes" with a ``quote``; "assumed" with a
``reason``).  Code asks for values by key; reports list the assumed ones.
"""
from __future__ import annotations

import pathlib
import tomllib
from dataclasses import dataclass
from typing import Any

from solver.board.errors import InputError
from solver.desert.tiles import PAWN_KINDS, SIDE_KINDS

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "instances" / "desert"
DEFAULT_RULESET = DATA / "ruleset.toml"

SOURCES = {"rule-sheet": "quote", "core-notes": "quote", "assumed": "reason", "reading": "reason"}

# key -> python type(s) the value must have; the loader checks presence and type.
REQUIRED: dict[str, type | tuple[type, ...]] = {
    "rounds": int,
    "core_route_tiles": int,
    "desert_route_tiles": int,
    "solo_columns": list,
    "column_mix": dict,
    "untaken_columns": str,
    "taken_tiles_optional": bool,
    "must_touch_play_area": bool,
    "empty_may_touch_route": bool,
    "side_matches": dict,
    "first_desert_tile": str,
    "same_kind_rule": str,
    "same_kind_contact": str,
    "start_tile_kind": str,
    "placement_tokens": dict,
    "desert_token_swap": dict,
    "tokens_revealed_per_round": int,
    "active_area_size": int,
    "pawns_after_tiles": bool,
    "pinpoint_routes": dict,
    "pawn_points_cap": int,
    "pawn_points_per_connected": int,
    "pawn_network": str,
    "star_any_pawn": bool,
    "camel_points_per_station": int,
    "camel_points_cap": int,
    "camel_pawns": int,
    "desert_station_tokens": int,
    "rectangle_points_per_tile": int,
    "city_min_group": int,
    "city_points_per_icon": int,
    "openings_penalty": int,
    "trails_are_openings": bool,
    "landmark_types": list,
    "landmark_set_points": list,
    "landmark_active": str,
    "objectives_used": bool,
    "play_area_bound": list,
    "star_places_train": bool,
    "station_supply_exhausted": str,
    "sharp_boundary_adjacency": str,
    "mission_vacuous_met": bool,
    "missions_judged_on": str,
    "policy_start_rotation": int,
    "death_pawn_kinds": str,
    "lost_world_landmarks": str,
    "lost_world_group": str,
    "thresholds_inclusive": str,
    "catalogue_features": str,
    "desert_objective_tiles": int,
    "objective_tiles_per_set": int,
    "objective_tiles_in_play": int,
    "objective_points": int,
    "objective_placement": str,
    "temple_landmarks": int,
    "temple_connection": str,
    "market_trail_segments": int,
    "market_segment": str,
    "great_oasis_camels": int,
    "great_oasis_surround": str,
}


@dataclass(frozen=True)
class Rule:
    key: str
    value: Any
    source: str
    note: str  # the quote or the reason
    quote: str = ""  # a reading's sheet sentence (its `note` is the reason for the default)
    name: str = ""  # a reading's name on the command line (--reading NAME=VALUE)
    options: tuple[tuple[str, str], ...] = ()  # a reading's implemented values: (value name, what it means)
    not_implemented: str = ""  # a reading's other value(s), named but refused
    default: str = ""  # a reading's value name in the ruleset file (before --reading)

    def value_name(self) -> str:
        return value_name(self.value)


def value_name(value: Any) -> str:
    """A reading's value as written on the command line: true/false, numbers, words."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Ruleset:
    def __init__(self, rules: dict[str, Rule], path: pathlib.Path, extra: list[Rule] | None = None):
        self.rules = rules
        self.path = path
        self.extra = extra or []  # provenance of values from other files (challenges)

    def __getitem__(self, key: str) -> Any:
        return self.rules[key].value

    def assumptions(self) -> list[Rule]:
        """Every value that is not the sheet's word: assumed ones and named readings."""
        return [r for r in list(self.rules.values()) + self.extra if r.source in ("assumed", "reading")]

    def where(self, key: str) -> str:
        return f"{self.path}: [{key}]"

    # -- derived views -------------------------------------------------------
    def matches(self, a: str, b: str) -> bool:
        """May a side of kind ``a`` touch a side of kind ``b``?"""
        if self["empty_may_touch_route"] and EMPTY_KIND in (a, b):
            return True
        return b in self["side_matches"].get(a, [])

    def token_stack(self) -> list[str]:
        """The placement tokens of a Desert game (after the sheet's swap), sorted."""
        stack = dict(self["placement_tokens"])
        swap = self["desert_token_swap"]
        stack[swap["remove"]] = stack.get(swap["remove"], 0) - swap["count"]
        stack[swap["add"]] = stack.get(swap["add"], 0) + swap["count"]
        out: list[str] = []
        for kind in sorted(stack):
            out.extend([kind] * stack[kind])
        return out

    def landmark_points(self, set_size: int) -> int:
        return self["landmark_set_points"][set_size - 1] if set_size else 0


EMPTY_KIND = "empty"


def read_toml(path: pathlib.Path) -> dict:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("file not found", str(path)) from None
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"cannot read the file ({err})", str(path)) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError(f"not valid TOML: {err}", str(path)) from None


def load_ruleset(path: str | pathlib.Path | None = None) -> Ruleset:
    path = pathlib.Path(path) if path else DEFAULT_RULESET
    data = read_toml(path)
    rules: dict[str, Rule] = {}
    for key, entry in data.items():
        if key == "meta":
            continue
        where = f"{path}: [{key}]"
        if not isinstance(entry, dict):
            raise InputError("each rule must be a table with `value` and `source`", where)
        if "value" not in entry:
            raise InputError("missing `value`", where)
        source = entry.get("source")
        if source not in SOURCES:
            raise InputError(f"`source` must be one of {', '.join(SOURCES)} (got {source!r})", where)
        note_key = SOURCES[source]
        note = entry.get(note_key)
        if not isinstance(note, str) or not note.strip():
            raise InputError(f"source {source!r} needs a non-empty `{note_key}`", where)
        if source == "reading" and not (isinstance(entry.get("quote"), str) and entry["quote"].strip()):
            raise InputError("a reading needs the sheet's sentence as a non-empty `quote`", where)
        extra = {}
        if source == "reading":
            extra = _reading_fields(entry, where)
            if value_name(entry["value"]) not in dict(extra["options"]):
                raise InputError(f"the reading's value {value_name(entry['value'])!r} is not among its options "
                                 f"({', '.join(dict(extra['options']))})", where)
        rules[key] = Rule(key, entry["value"], source, note.strip(), str(entry.get("quote", "")).strip(), **extra)
    for key, typ in REQUIRED.items():
        if key not in rules:
            raise InputError(f"missing rule [{key}]", str(path))
        if not isinstance(rules[key].value, typ) or (typ is int and isinstance(rules[key].value, bool)):
            name = typ.__name__ if isinstance(typ, type) else "/".join(t.__name__ for t in typ)
            raise InputError(f"`value` must be a {name} (got {rules[key].value!r})", f"{path}: [{key}].value")
    rs = Ruleset(rules, path)
    _validate(rs)
    return rs


def _reading_fields(entry: dict, where: str) -> dict:
    """A reading's command-line name, its implemented values with their meaning, the rest."""
    name, options = entry.get("name"), entry.get("options")
    if not (isinstance(name, str) and name.strip()):
        raise InputError("a reading needs a `name` (its name on the command line)", where)
    if not (isinstance(options, dict) and options and all(isinstance(v, str) for v in options.values())):
        raise InputError("a reading needs `options`: a table of its implemented values and what each means", where)
    other = entry.get("not_implemented", "")
    if not isinstance(other, str):
        raise InputError("`not_implemented` must be a string", where)
    return {"name": name.strip(), "options": tuple(options.items()), "not_implemented": other.strip(),
            "default": value_name(entry["value"])}


def _validate(rs: Ruleset) -> None:
    def bad(key: str, msg: str) -> InputError:
        return InputError(msg, f"{rs.path}: [{key}].value")

    for k, allowed in rs["side_matches"].items():
        if k not in SIDE_KINDS or not all(a in SIDE_KINDS for a in allowed):
            raise bad("side_matches", f"side kinds must be among {', '.join(SIDE_KINDS)}")
    for a, allowed in rs["side_matches"].items():
        for b in allowed:
            if a not in rs["side_matches"].get(b, []):
                raise bad("side_matches", f"must be symmetric: {a} touches {b} but not the reverse")
    for size in rs["solo_columns"]:
        if str(size) not in rs["column_mix"] or len(rs["column_mix"][str(size)]) != size:
            raise bad("column_mix", f"needs a list of {size} bags for the {size}-tile column")
        if any(b not in ("core", "desert") for b in rs["column_mix"][str(size)]):
            raise bad("column_mix", "bags are 'core' or 'desert'")
    for kind in rs["pinpoint_routes"]:
        if kind not in PAWN_KINDS:
            raise bad("pinpoint_routes", f"unknown pawn kind {kind!r}; expected one of {', '.join(PAWN_KINDS)}")
    pts = rs["landmark_set_points"]
    if len(pts) != len(rs["landmark_types"]):
        raise bad("landmark_set_points", "needs one value per set size 1..number of landmark types")
    steps = [pts[0]] + [pts[i] - pts[i - 1] for i in range(1, len(pts))]
    if any(s < 0 for s in steps) or steps != sorted(steps):
        raise bad(
            "landmark_set_points",
            "points must grow by non-decreasing steps (the scorer forms sets greedily, which is optimal only then)",
        )
    bound = rs["play_area_bound"]
    if len(bound) != 2 or not all(isinstance(v, int) and 2 <= v <= 12 for v in bound):
        raise bad("play_area_bound", "expected [columns, rows], each between 2 and 12")
    fixed = {
        "untaken_columns": "discard",
        "first_desert_tile": "exempt-from-same-kind",
        "pawn_network": "all-routes",
        "landmark_active": "connected-to-desert-station",
        "start_tile_kind": "core",
        "objective_placement": "like-a-desert-tile",
        "temple_connection": "all-routes",
        "market_segment": "trail-route-of-a-tile",
    }
    for key, val in fixed.items():
        if rs[key] != val:
            raise bad(key, f"only {val!r} is implemented")
    if not rs["pawns_after_tiles"]:
        raise bad("pawns_after_tiles", "only true is implemented")
    if rs["objectives_used"]:
        raise bad("objectives_used", "only false is implemented: the solo challenges are scored without objective "
                  "tiles (a play area scored without a challenge may hold them)")
    if rs["city_min_group"] not in (1, 2):
        raise bad("city_min_group", "the layout model supports groups of at least 1 or 2 tiles")
    if rs["tokens_revealed_per_round"] != 1:
        raise bad("tokens_revealed_per_round", "only 1 is implemented")
