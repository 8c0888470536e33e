"""Where track may go, as a pure function of the board and the scenario: the referee's tile checks
(solver/engine/ruleset.py `_check_LayTile`, `tile_candidates`) use it, and the searches and bounds that
lay, price or count track (solver/solo/) call it, so "can track go here" is written once.

Base rules (../shared/rules/age-of-steam-base.md): track is never built on a stop (a city, town or exit),
never off the map, and only on terrain the scenario gives a laying cost for (never water). The stop set
itself is `Board.stops` (solver/board/board.py): a fact of the printed board, which models/ may read too.
"""
from __future__ import annotations

from solver.board.hexgrid import Hex


def track_hex_problem(board, scenario, h: Hex) -> str | None:
    """Why no track tile can ever be laid on `h` (whatever the track already there), or None."""
    if not board.on_map(h):
        return f"{h} is not on the map"
    if board.is_stop(h):
        return f"track is never built on a stop ({board.label(h)})"
    if board.terrain[h] not in scenario.track_cost:
        return f"{h} is {board.terrain[h]}; track cannot be built there"
    return None


def can_lay_track(board, scenario, h: Hex) -> bool:
    """Can a track tile go on `h` at all (on the map, not a stop, priced terrain)?"""
    return track_hex_problem(board, scenario, h) is None


def track_hexes(board, scenario) -> list[Hex]:
    """Every hex a track tile can go on, in the board's order."""
    return [h for h in board.terrain if can_lay_track(board, scenario, h)]
