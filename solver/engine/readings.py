"""The named readings of the rule sheets: one registry, one CLI syntax, one way to print them.

Where a sheet reads two ways, the answer depends on which reading was taken;
so each reading has a CLI name, the `Rules` field that carries it, the maps it
applies to, the sentence it interprets (quoted), a default (the designer's
answer where the translator's notes record it, else what a player would do)
and its alternatives, each with a one-line description. Every answer, plan
file and batch record states the readings it was made under (see `stated`).

A reading that is data rather than a rule (the Easter Island bag) is still a
`Rules` field, so that it travels with the rules into plans and batch records;
the engine ignores it and only `bag_for` reads it.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from solver.board.board import COLOURS
from solver.board.errors import InputError
from solver.engine.state import Rules

SHEET = "easter-island-and-zoo.txt"
BASE = "age-of-steam-base.md"

#: the base game's 96 cubes; the 20/20/20/20/16 split is the usual one (an assumption: no sheet prints it)
BASE_BAG = {"red": 20, "blue": 20, "yellow": 20, "purple": 20, "black": 16}


@dataclass(frozen=True)
class Value:
    name: str        # as written on the command line
    value: Any       # the Rules field's value
    text: str        # one line: what the engine does under it


@dataclass(frozen=True)
class Reading:
    name: str                  # CLI name, e.g. "rapa-nui-remnant"
    field: str                 # the Rules attribute
    maps: tuple[str, ...]      # rulesets it applies to ("*": every map)
    sheet: str                 # the rule document
    quote: str                 # the sentence it interprets
    default: str               # the default value's name
    why_default: str           # why that is the default
    values: tuple[Value, ...]  # the default first
    free_form: str = ""        # other values accepted, described (the bag: COLOUR=COUNT,...)

    def applies_to(self, ruleset: str) -> bool:
        return "*" in self.maps or ruleset in self.maps

    def value_names(self) -> list[str]:
        return [v.name for v in self.values] + ([self.free_form] if self.free_form else [])

    def by_name(self, name: str) -> Value | None:
        return next((v for v in self.values if v.name == name), None)

    def name_of(self, value: Any) -> str:
        """The CLI name of a field value (a custom bag is its own name)."""
        for v in self.values:
            if v.value == value:
                return v.name
        return str(value)

    def parse(self, text: str, where: str) -> Any:
        v = self.by_name(text.strip())
        if v is not None:
            return v.value
        if self.free_form:
            return _custom_bag(text.strip(), self, where)
        raise InputError(f"reading {self.name!r} has no value {text!r} (allowed: {', '.join(self.value_names())})",
                         where)

    def describe_value(self, value: Any) -> str:
        for v in self.values:
            if v.value == value:
                return v.text
        return f"cubes drawn from the bag {value} (given on the command line)"


READINGS: tuple[Reading, ...] = (
    Reading(
        "strict-action", "strict_action", ("easter-island",), SHEET,
        "When you select an unblocked action, you must place one of your player discs on it and pay $8. "
        "[Translator's note] ... the designer answered that choosing no action (that is, not paying the $8) "
        "is also allowed.",
        "off", "the designer's answer, recorded in the translator's note",
        (Value("off", False, "a round may select no action (and pay nothing)"),
         Value("on", True, "an action must be selected, and $8 paid, every round (base rules; the translator "
                           "says the map could then effectively not be cleared)"))),
    Reading(
        "bag", "bag", ("easter-island",), SHEET,
        "Regardless of difficulty, use 16 cubes to place one moai (two cubes stacked) on each of the 8 ruins "
        "in the western part of the map",
        "no-purple",
        "the board has no purple city, so a purple cube could never be delivered and would lose the game at "
        "setup (about 99% of draws from the full bag); the translator's note rejects a reading that makes the "
        "map \"effectively not clearable\", and a solo map is not designed to be lost at setup",
        (Value("no-purple", "no-purple", "cubes drawn from the base bag without its purple cubes "
                                         "(red/blue/yellow 20 each, black 16: the instance file's scenario.bag)"),
         Value("full", "full", "cubes drawn from the full base bag (red/blue/yellow/purple 20 each, black 16); "
                               "a purple cube can never be delivered on this board")),
        free_form="COLOUR=COUNT,... (a bag of your own)"),
    Reading(
        "rapa-nui-remnant", "rapa_nui_remnant", ("easter-island",), SHEET,
        "You may transport only the top cube of any moai, whether it is an intact two-cube statue or a "
        "single-cube remnant. / Action: Rapa Nui: Turn the moai upside down (swap the top and bottom cubes), "
        "and gain $5 through this publicity stunt.",
        "allowed",
        "the sheet itself calls a single-cube remnant a moai (\"any moai, whether ... or a single-cube "
        "remnant\"), and Rapa Nui says \"Turn the moai upside down\"; a single cube can be turned over (the "
        "swap in parentheses describes the two-cube case), so a player would take the $5 stunt on a remnant",
        (Value("allowed", True, "Rapa Nui may target a single-cube remnant (nothing moves; $5 is gained)"),
         Value("refused", False, "Rapa Nui needs an intact two-cube moai (there must be two cubes to swap)"))),
    Reading(
        "zoo-exits", "exits_as_stops", ("zoo",), SHEET,
        "When you connect an exit hex with an animal area, it counts as a completed link for track-laying "
        "purposes. [base rules] New track must start at a city or town, or extend the player's own incomplete "
        "track.",
        "literal",
        "the base rules apply unless the sheet says otherwise (\"Unless listed below, all base rules apply\"), "
        "and the sheet grants a complete link only to an exit joined to an animal area",
        (Value("literal", False, "track may not start at an exit; track between an exit and a town carries no "
                                 "food (only exit-to-animal-area track is a complete link)"),
         Value("stops", True, "exits are full stops: track may start at an exit, and exit-town and exit-exit "
                              "track are complete links"))),
    Reading(
        "exit-pairs", "strict_exits", ("zoo",), SHEET,
        "You may use only one pair of exits per shipment. [Translator's note] the designer answered that you "
        "may also continue shipping without teleporting.",
        "designer",
        "the designer's answer, recorded in the translator's note",
        (Value("designer", False, "at most one teleport per shipment; food may pass other exits without "
                                  "teleporting"),
         Value("strict", True, "at most one teleport, and food entering an exit must teleport there"))),
    Reading(
        "feed-new-cities", "feed_new_cities", ("zoo",), SHEET,
        "The game is cleared once every animal area has received at least one piece of food. / A new city tile "
        "placed by the Urbanization action counts as danger level 1.",
        "on",
        "\"every animal area\" read literally: an urbanized town is an animal area (it has a danger level)",
        (Value("on", True, "urbanized towns are animal areas and must be fed too"),
         Value("off", False, "only the printed animal areas must be fed"))),
    Reading(
        "complex-tiles", "complex_tiles", ("*",), BASE,
        "Unless listed below, all base rules apply. [base rules] complex tiles carry two (crossing, or two "
        "non-crossing tracks) ... Complex tile: +$1 (non-crossing pair) or +$2 (crossing). Upgrading a simple "
        "tile to a crossing: $3.",
        "allowed",
        "the sheets keep every base rule they do not change, and none of them removes complex tiles",
        (Value("allowed", True, "a hex may hold two tracks: a crossing, two non-crossing tracks, or a simple "
                                "tile upgraded to a crossing, at the base costs"),
         Value("refused", False, "a hex holds one track only"))),
    Reading(
        "idle-actions", "idle_actions", ("easter-island", "zoo"), BASE,
        "Locomotive: +1 locomotive level at once. [...] Urbanization: place one new city tile on a town "
        "[...] (at most once per turn, maximum 6). [Easter Island] Action: Rapa Nui: Turn the moai upside down "
        "(swap the top and bottom cubes), and gain $5",
        "refused",
        "an action is selected for what it does; a player does not pay for (or, on Easter Island, block) an "
        "action that cannot do it (Locomotive at 6, Urbanization with no new city tile left, Rapa Nui with no "
        "moai). It decides whether Easter Island's blocker cycle can lock for good",
        (Value("refused", False, "an action that can do nothing (Locomotive at 6, no new city tile left, no moai "
                                 "to turn) cannot be selected"),
         Value("allowed", True, "such an action may be selected and paid; it does nothing (Rapa Nui with no moai "
                                "gives no $5), and on Easter Island it still completes the blocker cycle"))),
    Reading(
        "clear-and-under", "clear_when_under", ("easter-island", "zoo"), BASE,
        "[base rules] What cannot be paid lowers income by the shortfall; income below -10 ends the game for "
        "that player. [Easter Island] The game is cleared if all of the ruins (cities) are connected into a "
        "single network and no statues (cubes) remain on the map. [Zoo] The game is cleared once every "
        "animal area has received at least one piece of food.",
        "lost",
        "the turn order puts income and expenses before the end of the round, and the game that ends at "
        "the expenses never reaches its end-of-game check; a player who clears and goes under the same round "
        "has not cleared",
        (Value("lost", False, "income below the floor in the clearing round loses the game (no clear)"),
         Value("cleared", True, "the clear, met during the shipping, stands although income then falls below "
                                "the floor (where the game ends at the clear: under end-of-game=round-track "
                                "the game plays on and income below the floor loses it)"))),
    Reading(
        "zoo-bonus-cost", "zoo_bonus_free", ("zoo",), SHEET,
        "Keep this tile in your hand; you may use it later during a track-laying phase as a free bonus "
        "placement (one that does not count toward the number of tiles laid).",
        "pays",
        "the parenthesis says what \"free\" means here: free of the tile count; the laying cost is still paid "
        "(the instance file's scenario.bonus_tiles_pay_cost records the same assumption)",
        (Value("pays", False, "a bonus tile is outside the tile limit and pays its laying cost"),
         Value("free", True, "a bonus tile is outside the tile limit and costs nothing"))),
    Reading(
        "zoo-town-cost", "zoo_town_cost", ("zoo",), SHEET,
        "Laying cost is $4 per tile, up to 3 tiles. [base rules] Town tile: $1 per track leaving the town plus $1.",
        "base",
        "the sheet prices the laying of track tiles and says nothing of towns, so the base town fee stands "
        "(\"Unless listed below, all base rules apply\")",
        (Value("base", "base", "a town tile costs the base fee: $1 per track leaving the town plus $1 (instance "
                               "file's town costs), on top of the track tile"),
         Value("per-tile", "per-tile", "a town tile is a tile: $4 ($2 with Engineer) for each track it gains, in "
                                       "place of the base town fee"))),
    Reading(
        "zoo-upgrade-cost", "zoo_upgrade_cost", ("zoo",), SHEET,
        "Laying cost is $4 per tile, up to 3 tiles. Action: Engineer Laying cost is $2 per tile, up to 4 tiles. "
        "[base rules] Upgrading a simple tile to a crossing: $3.",
        "base",
        "the sheet changes the laying cost of new tiles; an upgrade has its own base price, which it does not "
        "mention (the instance file's upgrade_to_crossing_cost records the same assumption)",
        (Value("base", "base", "an upgrade to a crossing costs the base price (instance file, $3)"),
         Value("per-tile", "per-tile", "an upgrade is priced as a tile laid: $4, $2 with Engineer"))),
    Reading(
        "exit-use", "exit_use", ("zoo",), SHEET,
        "If you use an exit hex even once in your two shipments, you gain any one track tile. [Translator's "
        "note] the designer answered that you may also continue shipping without teleporting.",
        "pass",
        "the designer lets food pass an exit without teleporting, so a shipment through an exit hex uses it",
        (Value("pass", "pass", "a shipment whose route passes or teleports through an exit earns the bonus tile"),
         Value("teleport", "teleport", "only a shipment that teleports between exits earns the bonus tile"))),
    Reading(
        "incomplete-track", "incomplete_track", ("easter-island", "zoo"), BASE,
        "An incomplete link must be extended in the owner's next build phase or it loses its owner.",
        "kept",
        "the rule frees track for the other players; in a solo game no one else could take it, and the solo "
        "sheets never mention it, so a solo player keeps building on it",
        (Value("kept", "kept", "incomplete track stays the player's and may be extended in any later round"),
         Value("owner-lost", "owner-lost", "incomplete track not extended in the build after it was laid loses "
                                           "its owner and can never be extended"))),
    Reading(
        "zoo-bonus-town-track", "zoo_bonus_town_track", ("zoo",), SHEET,
        "If you use an exit hex even once in your two shipments, you gain any one track tile. Keep this tile in "
        "your hand; you may use it later during a track-laying phase as a free bonus placement (one that does not "
        "count toward the number of tiles laid).",
        "refused",
        "the engine's long-standing reading, kept so that answers do not change: \"any one track tile\" is read "
        "as a track tile laid on a hex (or an upgrade); a town tile's own track into the next stop lays no track "
        "tile. The bounds do not count town tiles toward the tile limit, so they hold under either value",
        (Value("refused", "refused", "a bonus tile is laid on a hex (or upgrades one); a town tile's own track is "
                                     "always a regular tile"),
         Value("allowed", "allowed", "a bonus tile may also be a town tile's own track into the next stop ('town "
                                     "C2 C1 bonus'), outside the tile count"))),
    Reading(
        "complex-tile-set", "complex_tile_set", ("*",), BASE,
        "Simple tiles carry one track (straight, gentle curve, sharp curve); complex tiles carry two (crossing, "
        "or two non-crossing tracks) [...] Upgrading a simple tile to a crossing: $3.",
        "assumed",
        "the base rules name the kinds but list no physical tile set; the engine assumes the usual one "
        "(solver/engine/track_tiles.py): a crossing is two straights (the X tile), every non-crossing pair "
        "exists, and only a straight is upgraded (to a crossing). Every bound asks the referee's own tile "
        "test (link search, hex packing) or does not use the tile set (relaxation, counting bound)",
        (Value("assumed", "assumed", "a crossing is two straight tracks; a curve across a track is no tile; only a "
                                     "straight is upgraded, to a crossing"),
         Value("any", "any", "any two tracks on four different sides are a tile (a crossing when they cross); "
                             "any simple tile is upgraded by a track that crosses it"))),
    Reading(
        "track-into-side", "track_into_side", ("*",), BASE,
        "A link is the track between two stops (city or town) along a chain of hexes. [...] New track must start "
        "at a city or town, or extend the player's own incomplete track.",
        "refused",
        "the base rules file does not state this rule; it is the engine's long-standing reading, kept so that "
        "answers do not change: a track end facing the side of a track on the next hex could never be extended "
        "(that hex already holds its track), so it is no part of any link. It is judged on the round's result "
        "(at the end of the build), never on the order of the round's builds. The bounds do not use it, so they "
        "hold under either value",
        (Value("refused", "refused", "at the end of each build, no track end may face the side of a track on the "
                                     "next hex"),
         Value("allowed", "allowed", "a track end may face the side of a track on the next hex (it stays an "
                                     "incomplete link for good)"))),
    Reading(
        "end-of-game", "end_of_game", ("easter-island",), SHEET,
        "End of Game / The game is cleared if all of the ruins (cities) are connected into a single network and "
        "no statues (cubes) remain on the map. [base rules] Number of turns depends on the number of players in "
        "the base game; solo maps print their own round track. [...] income below -10 ends the game for that "
        "player.",
        "at-clear",
        "no translator's note answers it; the section is headed \"End of Game\" and names no other end, so a "
        "player stops when the last cube is delivered and the ruins are joined (the game ends at the clear). The "
        "alternative only removes clears (every clear it counts, the default counts in the same round), so every "
        "lower bound and \"not clearable\" proved under the default holds under it",
        (Value("at-clear", "at-clear", "the game ends at the end of the round it is cleared in"),
         Value("round-track", "round-track", "the game runs to the end of the round track: a clear stands only if "
                                             "the rounds after it can be played (shares and an action each round, "
                                             "nothing built or shipped) with income never below the floor"))),
)

BY_NAME = {r.name: r for r in READINGS}
BY_FIELD = {r.field: r for r in READINGS}


#: more cubes of one colour than any bag could hold (the base game has 96 cubes in all)
MAX_BAG_COUNT = 1000


def parse_bag(text: str, where: str = "--bag") -> dict[str, int]:
    """'red=20,blue=20,yellow=20' -> a bag of cubes (sizes checked before any list of cubes is built)."""
    bag: dict[str, int] = {}
    for part in text.split(","):
        colour, _, count = part.partition("=")
        colour = colour.strip()
        if colour not in COLOURS or not count.strip().isdigit():
            raise InputError(f"expected COLOUR=COUNT pairs like 'red=20,blue=20' with colours "
                             f"{', '.join(COLOURS)}; got {part!r}", where)
        bag[colour] = int(count)
        if bag[colour] > MAX_BAG_COUNT:
            raise InputError(f"{bag[colour]} {colour} cubes is more than a bag can hold (at most {MAX_BAG_COUNT} "
                             "of a colour)", where)
    return bag


def _custom_bag(text: str, reading: Reading, where: str) -> str:
    try:
        bag = parse_bag(text)
    except InputError:
        raise InputError(f"reading {reading.name!r} has no value {text!r} (allowed: "
                         f"{', '.join(reading.value_names())})", where) from None
    if bag == BASE_BAG:
        return "full"  # the same bag under its name, so answers and batch sets agree
    return ",".join(f"{c}={n}" for c, n in sorted(bag.items()))


def for_map(ruleset: str) -> list[Reading]:
    return [r for r in READINGS if r.applies_to(ruleset)]


def parse_settings(items: list[str], ruleset: str, where: str = "--reading") -> dict[str, Any]:
    """['bag=full', 'strict-action=on'] -> {field: value}; names, values and maps are checked."""
    out: dict[str, Any] = {}
    for item in items:
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq or not name:
            raise InputError(f"expected NAME=VALUE, got {item!r} (readings of this map: "
                             f"{', '.join(r.name for r in for_map(ruleset))})", where)
        reading = BY_NAME.get(name)
        if reading is None:
            raise InputError(f"unknown reading {name!r} (readings of this map: "
                             f"{', '.join(r.name for r in for_map(ruleset))})", where)
        if not reading.applies_to(ruleset):
            raise InputError(f"reading {name!r} is for {', '.join(reading.maps)}, not {ruleset} (readings of this "
                             f"map: {', '.join(r.name for r in for_map(ruleset))})", where)
        out[reading.field] = reading.parse(value, where)
    return out


def make_rules(ruleset: str, items: list[str] = (), aliases: dict[str, Any] | None = None,
               where: str = "--reading") -> Rules:
    """Rules from `--reading NAME=VALUE` items on top of old-style flags (`aliases`: field -> value)."""
    fields = dict(aliases or {})
    given = parse_settings(list(items), ruleset, where)
    for field, value in given.items():
        if field in fields and fields[field] != value:
            r = BY_FIELD[field]
            raise InputError(f"the reading {r.name} is given twice, as {r.name_of(fields[field])} (by an older "
                             f"flag) and as {r.name_of(value)}", where)
    fields.update(given)
    return Rules(**fields)


def rules_from_names(names: dict, ruleset: str, where: str) -> Rules:
    """A plan's {"reading-name": "value"} table (every value a CLI value name) as Rules."""
    if not isinstance(names, dict):
        raise InputError("'readings' is a table of reading = value", where)
    items = []
    for k, v in names.items():
        if not isinstance(v, str):
            raise InputError(f"reading {k!r}: expected a value name, got {v!r}", where)
        items.append(f"{k}={v}")
    return make_rules(ruleset, items, where=where)


def rules_from_fields(fields: dict, where: str) -> Rules:
    """An old plan's "rules" table ({field: value}) as Rules; values must be the field's kind."""
    if not isinstance(fields, dict) or any(k not in Rules.__dataclass_fields__ for k in fields):
        raise InputError(f"'rules' may only set {', '.join(Rules.__dataclass_fields__)}", where)
    for k, v in fields.items():
        reading = BY_FIELD.get(k)
        allowed = [x.value for x in reading.values] if reading else []
        if all(isinstance(x, bool) for x in allowed) and not isinstance(v, bool):
            raise InputError(f"each rule switch is true or false ({k!r} is {v!r}; reading {reading.name!r})", where)
        if v not in allowed and not (reading and reading.free_form and isinstance(v, str)):
            raise InputError(f"rule {k!r} may be {', '.join(map(repr, allowed))}, not {v!r}", where)
    return Rules(**fields)


def stated(rules: Rules, ruleset: str) -> list[dict]:
    """Every reading of the map, its value under these rules, and whether that is the default."""
    out = []
    for r in for_map(ruleset):
        value = getattr(rules, r.field)
        name = r.name_of(value)
        out.append({"name": r.name, "value": name, "default": name == r.default, "default_value": r.default,
                    "means": r.describe_value(value), "sheet": r.sheet, "quote": r.quote})
    return out


def stated_names(rules: Rules, ruleset: str) -> dict[str, str]:
    """{reading name: value name}, as plan files and batch records carry them."""
    return {r.name: r.name_of(getattr(rules, r.field)) for r in for_map(ruleset)}


def short(rules: Rules, ruleset: str) -> str:
    """One line: 'bag=full*, strict-action=off, ...' (a star marks a value that is not the default)."""
    return ", ".join(f"{d['name']}={d['value']}" + ("" if d["default"] else "*") for d in stated(rules, ruleset))


def label(rules: Rules, ruleset: str) -> str:
    """The reading set's name in a batch: 'default', or the non-default values joined by '+'."""
    changed = [f"{d['name']}={d['value']}" for d in stated(rules, ruleset) if not d["default"]]
    return "+".join(changed) if changed else "default"


def text_lines(rules: Rules, ruleset: str) -> list[str]:
    """The readings block of a text answer."""
    out = ["Readings of the rule sheets (* = not the default):"]
    for d in stated(rules, ruleset):
        mark = "" if d["default"] else f"*  (default: {d['default_value']})"
        out.append(f"  - {d['name']}={d['value']}{mark}: {d['means']}")
    return out


def parse_sets(texts: list[str], ruleset: str, base: Rules = Rules(),
               where: str = "--readings") -> list[Rules]:
    """Reading sets for a batch: 'default,bag=full,strict-action=on' or repeated options; '+' joins
    changes within one set ('bag=full+strict-action=on'). Each set starts from `base`."""
    out: list[Rules] = []
    for text in texts:
        for part in text.split(","):
            part = part.strip()
            if not part:
                continue
            if part == "default":
                rules = base
            else:
                rules = dataclasses.replace(base, **parse_settings(part.split("+"), ruleset, where))
            if rules not in out:
                out.append(rules)
    return out or [base]


def bag_for(instance, rules: Rules) -> dict[str, int]:
    """The bag a setup is drawn from (and checked against) under the bag reading.

    Maps without the bag reading draw from their instance's `scenario.bag`.
    """
    if not BY_NAME["bag"].applies_to(instance.scenario.ruleset):
        return dict(instance.scenario.bag)
    if rules.bag == "full":
        return dict(BASE_BAG)
    if rules.bag == "no-purple":
        return {c: n for c, n in instance.scenario.bag.items() if c != "purple"}
    return parse_bag(rules.bag, "reading bag")


def rules_json(rules: Rules, ruleset: str | None = None) -> dict:
    """The Rules fields (the engine's names) as JSON; with `ruleset`, only the fields of that map's readings."""
    fields = {r.field for r in for_map(ruleset)} if ruleset else set(rules.__dict__)
    return {k: v for k, v in rules.__dict__.items() if k in fields}
