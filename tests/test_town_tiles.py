"""Base rules: "town tiles join one to four tracks at the town": a town next to a stop needs no other tile.

issue 27: the engine and the bounds asked for an extra plain tile between a town and the stop next to it.
"""
from __future__ import annotations

from solver.engine.moves import TownTrack, parse_tile
from tests.helpers import H, instance, new_state, to_build


def _island():
    return instance("tiny/tiny-island.toml")  # the town C2 is next to Blue 1 on C1


def test_a_town_tile_alone_links_the_town_to_the_stop_next_to_it():
    s = to_build(new_state(_island(), {"A1": ["red"]}))
    move = parse_tile("town C2 C1")
    assert move == TownTrack(H("C2"), H("C1")) and str(move) == "town C2 C1"
    assert move in s.legal_actions()
    cash = s.cash
    s.apply(move)
    assert frozenset((H("C2"), H("C1"))) in s.linked_pairs()
    # "Town tile: $1 per track leaving the town plus $1"; the town tile is one tile toward the limit
    assert cash - s.cash == 2 and s.tiles_laid == 1
    assert "already has a track" in s.why_illegal(move)


def test_a_town_track_reaches_only_the_next_hex():
    s = to_build(new_state(_island(), {"A1": ["red"]}))
    assert "no stop next to the town" in s.why_illegal(TownTrack(H("C2"), H("A1")))
    assert "is no town" in s.why_illegal(TownTrack(H("C1"), H("C2")))


def test_the_bounds_know_a_town_next_to_a_stop_needs_no_tile():
    from models.network import board_graph
    from solver.engine.state import GameState, Rules
    from solver.solo.relaxation import fewest_new_tiles, link_weights, potential_links
    inst = _island()
    state = GameState.new(inst, {H("A1"): ["red"]}, Rules())
    assert H("C1") in potential_links(inst)[H("C2")]
    assert link_weights(state)[H("C2"), H("C1")] == 0
    assert fewest_new_tiles(state, teleports=False)[H("C2"), H("C1")] == 0
    g, _ = board_graph(inst)
    assert g.has_edge(H("C2"), H("C1"))
    assert not any(g.has_edge(a, b) for a in inst.board.cities for b in inst.board.cities)


def test_a_plan_may_name_a_town_track():
    import json
    from solver.engine.plan import plan_from_json, replay
    inst = _island()
    data = {"format": "aos-solve-plan/1", "map": "Tiny Island", "difficulty": "easy",
            "setup": {"Red 1": ["red", "red"], "Blue 1": ["blue"]},
            "rounds": [{"shares": 0, "action": None, "build": ["town C2 C1"], "ship": []}]}
    result = replay(inst, plan_from_json(json.loads(json.dumps(data)), inst))
    assert result.error is None and frozenset((H("C2"), H("C1"))) in result.state.linked_pairs()


def test_a_town_tile_joins_at_most_four_tracks():
    # tests/data/town-hub.toml: the town B2 has five plain neighbours and Blue 1 next to it, six tiles a turn
    from pathlib import Path
    from solver.engine.moves import LayTile
    from solver.games import load_instance
    inst = load_instance(Path(__file__).parent / "data" / "town-hub.toml")
    s = to_build(new_state(inst, {"A1": ["red"]}))
    town = H("B2")
    laid = []
    for n in town.neighbours():
        if inst.board.is_stop(n):
            continue
        for side in n.neighbours():
            if side == town or not inst.board.on_map(side) or inst.board.is_stop(side) or side in s.track:
                continue
            if any(side in (a, b) or side == h for h, (a, b) in s.track.items()):
                continue
            move = LayTile(n, town, side)
            if s.why_illegal(move) is None:
                s.apply(move)
                laid.append(move)
                break
        if len(laid) == 4:
            break
    assert len(laid) == 4 and s.town_tracks[town] == 4
    fifth = TownTrack(town, H("C1"))
    assert "one to 4 tracks" in s.why_illegal(fifth)
    assert fifth not in [m for m in s.legal_actions() if s.why_illegal(m) is None]
