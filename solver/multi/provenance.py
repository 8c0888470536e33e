"""Which assumptions a multiplayer answer used: each answer reads only part of a board file.

A deliveries answer reads the stops (their places, colours and names), zones,
organs, the graph, public track, the map's rules and the round count (the final
turn), never the terrain, the impassable hexsides, the track costs or the
new-city tiles. A build answer reads the whole geometry and the costs, never
the new-city tiles (urbanization is not searched) or the round count. A turn
answer reads both when it gives build advice.
"""
from __future__ import annotations

# key prefixes an answer never reads
NOT_READ = {
    "deliveries": ("grid", "impassable[", "scenario.new_cities", "scenario.track_cost", "scenario.tile_limit",
                   "scenario.engineer_tile_limit", "map_rules.start_hex_cost", "map_rules.starting_hexes",
                   "map_rules.lung_disc_cost", "difficulty."),
    "build": ("scenario.new_cities", "scenario.rounds", "map_rules.rounds_by_players", "difficulty."),
}


def used_assumptions(instance, *answers: str) -> list:
    """The `assumed` values of the instance that any of these answers (deliveries, build) reads."""
    out = []
    for p in instance.assumptions():
        if any(not p.key.startswith(NOT_READ[a]) for a in answers):
            out.append(p)
    return out


def block(assumed: list, readings: list[str] = (), instance=None) -> list[str]:
    from solver.board.provenance import grouped
    lines = ["Assumptions this answer depends on:"]
    lines += [f"  - {what}: {note}" for what, note in grouped(instance, [(p.key, p.note) for p in assumed])]
    lines += [f"  - reading {r}" for r in readings]
    return lines


def as_json(assumed: list, readings: list[str] = ()) -> dict:
    return {"assumed_values": [p.to_json() for p in assumed], "readings": list(readings)}


def readings(instance) -> list[str]:
    """The named readings of the map (a sheet sentence read one of two ways, solver/multi/readings.py), printed
    with every answer."""
    from solver.multi.readings import stated
    return stated(instance, instance.ruleset.name)
