"""Which assumed values and readings an answer used, grouped by what they are about.

A report lists only what its answer rested on: a layout without pawns used no pawn
value, a layout without a seed no market value, a challenge's mission its own readings.
``uses`` names what the answer did: "always" (placement, scoring, the tiles), "seed"
(a seeded market), "tokens" (active tokens), "pawns" (pawns placed), "objectives" (objective
tiles placed), "missions" (missions
judged), "mission:<kind>" (that mission), "stars", "solver" (a layout searched in the
play-area box), "policy" (a policy played).
"""
from __future__ import annotations

import pathlib

GROUPS = ("tiles", "market and columns", "placement", "pawns and tokens", "scoring", "objectives", "missions and stars",
          "search")

# ruleset key -> (group, the use(s) that make an answer rest on it)
USES: dict[str, tuple[str, str | tuple[str, ...]]] = {
    "solo_columns": ("market and columns", "always"),  # what one round may hold is checked on every record
    "untaken_columns": ("market and columns", "seed"),
    "taken_tiles_optional": ("market and columns", ("seed", "solver", "policy")),
    "empty_may_touch_route": ("placement", "always"),
    "side_matches": ("placement", "always"),
    "first_desert_tile": ("placement", "always"),
    "same_kind_contact": ("placement", "always"),
    "start_tile_kind": ("placement", "always"),
    "station_supply_exhausted": ("placement", "always"),
    "catalogue_features": ("tiles", "always"),
    "placement_tokens": ("pawns and tokens", "tokens"),
    "active_area_size": ("pawns and tokens", "tokens"),
    "pawns_after_tiles": ("pawns and tokens", "pawns"),
    "pinpoint_routes": ("pawns and tokens", "pawns"),
    "pawn_points_per_connected": ("pawns and tokens", "pawns"),
    "pawn_network": ("pawns and tokens", "pawns"),
    "star_places_train": ("pawns and tokens", "pawns"),
    "rectangle_points_per_tile": ("scoring", "always"),
    "city_min_group": ("scoring", "always"),
    "city_points_per_icon": ("scoring", "always"),
    "openings_penalty": ("scoring", "always"),
    "objectives_used": ("scoring", "always"),
    "mission_vacuous_met": ("missions and stars", "missions"),
    "missions_judged_on": ("missions and stars", "missions"),
    "sharp_boundary_adjacency": ("missions and stars", "mission:boundary-in-one-line"),
    "death_pawn_kinds": ("missions and stars", "mission:desert-pawns-touch-core"),
    "lost_world_landmarks": ("missions and stars", "mission:landmarks-one-group"),
    "lost_world_group": ("missions and stars", "mission:landmarks-one-group"),
    "thresholds_inclusive": ("missions and stars", "stars"),
    "mission_failed_stars": ("missions and stars", "stars"),
    "objective_tiles_per_set": ("objectives", "objectives"),
    "objective_tiles_in_play": ("objectives", "objectives"),
    "objective_points": ("objectives", "objectives"),
    "objective_placement": ("objectives", "objectives"),
    "temple_connection": ("objectives", "objectives"),
    "market_segment": ("objectives", "objectives"),
    "great_oasis_surround": ("objectives", "objectives"),
    "play_area_bound": ("search", "solver"),
    "policy_start_rotation": ("search", "policy"),
}


def show(value) -> str:
    """A value as a person reads it: yes/no, lists with commas, tables as 'key: value'."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(show(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {show(v)}" for k, v in value.items())
    return str(value)


def uses_of_layout(layout, tileset, seeded: bool, missions_judged: bool = True) -> set[str]:
    """What judging this layout rests on."""
    uses = {"always"}
    if seeded:
        uses |= {"seed", "tokens"}
    if any(rp.tokens for rp in layout.rounds):
        uses.add("tokens")
    if any(rp.pawns for rp in layout.rounds):
        uses |= {"pawns", "tokens"}
    if missions_judged:
        uses.add("missions")
    if any(tp.tile in tileset.objectives for rp in layout.rounds for tp in rp.tiles):
        uses.add("objectives")
    return uses


def used(setup, uses: set[str], missions: list[str]) -> dict:
    """The assumed values (grouped) and the readings an answer with these ``uses`` rests on;
    ``missions`` are the kinds of mission it judged."""
    from solver.desert import readings

    tags = set(uses) | {f"mission:{m}" for m in missions}

    def wanted(key: str) -> bool:
        use = USES.get(key, ("other", "always"))[1]
        return any(u in tags for u in ((use,) if isinstance(use, str) else use))

    groups: dict[str, list[dict]] = {}
    for r in setup.ruleset.assumptions() + [setup.challenges.failed_rule]:
        if r.source == "reading" or not wanted(r.key):
            continue
        group = USES.get(r.key, ("other", ""))[0]
        groups.setdefault(group, []).append({"key": r.key, "value": r.value, "shown": show(r.value), "reason": r.note})
    objective_file = {setup.tileset.sources.get(t) for t in setup.tileset.objectives}
    stand_ins = [pathlib.Path(p).name for p, s in setup.tileset.stand_in.items()
                 if s and (p not in objective_file or "objectives" in tags)]
    if stand_ins:
        groups.setdefault("tiles", []).insert(0, {
            "key": "catalogue", "value": stand_ins, "shown": "stand-in drawings: " + ", ".join(stand_ins),
            "reason": "STAND-IN tile drawings (the real ones are not published); results are about the stand-in"})
    order = list(GROUPS) + sorted(set(groups) - set(GROUPS))
    chosen = [s for s in readings.stated(setup.ruleset) if wanted(s["key"])]
    return {"assumed": {g: groups[g] for g in order if g in groups}, "readings": chosen}


ROUND_DATA = ("solo_columns", "untaken_columns")  # what a solo round shows: not on the sheet, assumed


def data_notice(setup) -> dict | None:
    """The line every Desert answer opens with while it rests on stand-in data: the tile catalogues marked
    ``stand_in`` (the real drawings are not published: shared/rules/railroad-tiles-core.md, "Must be assumed")
    and the solo round's assumed values (column sizes, untaken columns).  None when neither is left."""
    cats = sorted(pathlib.Path(p).name for p, stand in setup.tileset.stand_in.items() if stand)
    rounds = [k for k in ROUND_DATA if k in setup.ruleset.rules and setup.ruleset.rules[k].source == "assumed"]
    if not cats and not rounds:
        return None
    parts = []
    if cats:
        parts.append(f"the tiles are stand-ins ({', '.join(cats)}; the real drawings are not published)")
    if rounds:
        sizes = ", ".join(map(str, setup.ruleset["solo_columns"]))
        parts.append(f"the solo round is assumed (columns of {sizes} tiles"
                     + (", untaken columns discarded" if "untaken_columns" in rounds else "") + ")")
    text = ("STAND-IN DATA: " + " and ".join(parts) + ", so this answer is about the stand-ins, not the printed "
            "game" + ("; load real catalogues with --catalogue FILE (format: docs/desert.md)" if cats else ""))
    return {"text": text, "stand_in_catalogues": cats, "assumed_round_data": rounds}


def flat(basis: dict) -> list[dict]:
    """The assumed values an answer used, flat, each with its group (the JSON twin's `assumptions`)."""
    return [{"group": g, "key": a["key"], "value": a["value"], "reason": a["reason"]}
            for g, items in basis["assumed"].items() for a in items]
