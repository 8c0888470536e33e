"""Complex tiles (age-of-steam-base.md): crossings, non-crossing pairs, upgrades, and the reading that turns them off."""
from tests.helpers import says
import dataclasses
import pathlib

import pytest

from solver.engine.moves import EndBuild, LayTile, UpgradeTile, parse_tile
from solver.engine.state import IllegalMove, Rules
from solver.engine.track_tiles import complex_kind
from tests.helpers import H, instance, lay, new_state, to_build

CROSSING = "tiny/tiny-crossing.toml"
SETUP = {"A2": ["red", "red"]}
PLANS = pathlib.Path(__file__).parent / "plans"
ROOT = pathlib.Path(__file__).resolve().parent.parent
X = LayTile(H("B2"), H("A2"), H("C2"), second=(H("C1"), H("B3")))  # Red 1-Red 2 over Blue 1-Yellow 1


@pytest.fixture
def board():
    return instance(CROSSING)


def test_crossing_plan_passes_check_plan_only_with_complex_tiles(run_cli, tmp_path):
    board_file = ROOT / "instances" / CROSSING
    r = run_cli("check-plan", board_file, PLANS / "tiny-crossing-cleared.json")
    assert r.code == 0 and "cleared in round 1" in r.out, r.out
    off = tmp_path / "off.json"
    off.write_text((PLANS / "tiny-crossing-cleared.json").read_text().replace('"complex_tiles": true',
                                                                              '"complex_tiles": false'))
    r = run_cli("check-plan", board_file, off)
    assert r.code == 1
    assert "complex tiles are off (reading complex_tiles)" in r.out.splitlines()[0]


def _clearing_tracks(board, rules: Rules) -> list[frozenset]:
    """The track on B2 at the end of every round-1 line of play that clears (exhaustive over legal_actions)."""
    found = []

    def walk(state):
        if state.phase == "over" or state.round > 1:
            if state.cleared_round is not None:
                found.append(frozenset(frozenset(t) for t in state.tracks_at(H("B2"))))
            return
        for move in state.legal_actions():
            walk(state.child(move))

    walk(new_state(board, SETUP, rules))
    return found


def test_only_a_crossing_lets_the_ruins_be_joined_and_the_cubes_delivered(board):
    on = _clearing_tracks(board, Rules())
    assert on, "the crossing board must be clearable with complex tiles"
    straights = frozenset({frozenset((H("A2"), H("C2"))), frozenset((H("C1"), H("B3")))})
    assert set(on) == {straights}  # laid at once or as a straight upgraded to a crossing
    assert _clearing_tracks(board, Rules(complex_tiles=False)) == []


def test_a_crossing_carries_two_separate_links(board):
    s = to_build(new_state(board, SETUP))
    s.apply(X)
    pairs = {frozenset(p) for p in s.linked_pairs()}
    assert pairs == {frozenset((H("A2"), H("C2"))), frozenset((H("C1"), H("B3")))}
    assert s.spent_on_track == 5  # plain $3 + crossing $2 (assumed: surcharge on top of the sheet's cost)


def test_complex_tile_that_costs_more_than_the_cash_is_refused_with_its_cost(board):
    s = to_build(new_state(board, SETUP, cash=4))
    why = s.why_illegal(X)
    assert why == "the tile on B2 costs $5 but only $4 is in hand (plain $3 + crossing complex tile $2)"
    noncrossing = LayTile(H("B2"), H("A2"), H("B3"), second=(H("C1"), H("C2")))  # two sharp curves
    assert s.why_illegal(noncrossing) is None
    s.apply(noncrossing)
    assert s.cash == 0  # plain $3 + non-crossing $1


def test_third_track_is_refused(board):
    s = to_build(new_state(board, SETUP, cash=50))
    s.apply(X)
    why = s.why_illegal(UpgradeTile(H("B2"), H("C1"), H("B3")))
    assert "at most two tracks (a third track is refused)" in why
    assert "at most two tracks" in s.why_illegal(LayTile(H("B2"), H("A2"), H("C2")))
    with pytest.raises(IllegalMove, match="third track"):
        s.apply(UpgradeTile(H("B2"), H("C1"), H("B3")))


def test_tracks_that_are_no_real_tile_are_refused(board):
    s = to_build(new_state(board, SETUP, cash=50))
    assert "four different sides" in s.why_illegal(LayTile(H("B2"), H("A2"), H("C2"), second=(H("A2"), H("B3"))))
    # A gentle curve crossing a straight (sides E-SW over NE-W): the assumed tile set crosses only straights.
    h = H("B2")
    e, ne, nw, w, sw, se = h.neighbours()
    assert complex_kind(h, (e, w), (ne, sw)) == ("crossing", "")
    kind, why = complex_kind(h, (e, sw), (ne, w))
    assert kind == "non-crossing"
    kind, why = complex_kind(h, (e, w), (ne, se))
    assert kind is None and "a crossing is two straight tracks crossing" in why


def test_upgrade_turns_a_straight_into_a_crossing_for_3_dollars_and_counts_as_a_tile(board):
    s = to_build(new_state(board, SETUP, cash=50))
    lay(s, "A2-B2-C2")
    assert s.why_illegal(UpgradeTile(H("B2"), H("C1"), H("C2"))) is not None  # shares a side with the straight
    s.apply(UpgradeTile(H("B2"), H("C1"), H("B3")))
    assert s.spent_on_track == 3 + 3 and s.tiles_laid == 2
    assert len(s.linked_pairs()) == 2


def test_upgrade_to_a_non_crossing_pair_is_refused_naming_the_base_rule(board):
    s = to_build(new_state(board, SETUP, cash=50))
    lay(s, "A2-B2-B3")  # a sharp curve
    why = s.why_illegal(UpgradeTile(H("B2"), H("C1"), H("C2")))
    assert "only to a crossing" in why and "Upgrading a simple tile to a crossing: $3" in why


def test_upgrade_counts_toward_the_tile_limit(board):
    s = to_build(new_state(board, SETUP, cash=50))
    lay(s, "A2-B2-C2", "C1-D1-C2")
    s.tiles_laid = 3
    assert "at most 3 tiles" in s.why_illegal(UpgradeTile(H("B2"), H("C1"), H("B3")))


def test_complex_tiles_off_refuses_them_as_before(board):
    s = to_build(new_state(board, SETUP, Rules(complex_tiles=False), cash=50))
    assert "complex tiles are off" in s.why_illegal(X)
    lay(s, "A2-B2-C2")
    assert "complex tiles are off" in s.why_illegal(UpgradeTile(H("B2"), H("C1"), H("B3")))
    assert "complex tiles are off" in s.why_illegal(LayTile(H("B2"), H("C1"), H("B3")))
    assert not any(isinstance(m, UpgradeTile) or getattr(m, "second", None) for m in s.legal_actions())


def test_a_board_without_complex_tile_costs_refuses_them():
    inst = instance(CROSSING)
    bare = dataclasses.replace(inst, map_rules={})
    s = to_build(new_state(bare, SETUP, cash=50))
    assert "gives no complex-tile costs" in s.why_illegal(X)


def test_tile_notation_round_trips():
    for move in (X, LayTile(H("B2"), H("A2"), H("C2")), LayTile(H("B2"), H("A2"), H("C2"), bonus=True),
                 UpgradeTile(H("B2"), H("C1"), H("B3")), UpgradeTile(H("B2"), H("C1"), H("B3"), bonus=True)):
        assert parse_tile(str(move)) == move
    assert str(X) == "tile B2 A2 C2 + C1 B3"
    with pytest.raises(ValueError, match="expected 'tile HEX"):
        parse_tile("tile B2 A2 C2 + C1")


def test_bad_tile_notation_in_a_plan_is_an_input_error(run_cli, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text((PLANS / "tiny-crossing-cleared.json").read_text().replace("tile B2 A2 C2 + C1 B3",
                                                                              "tile B2 A2 C2 + C1"))
    r = run_cli("check-plan", ROOT / "instances" / CROSSING, bad)
    assert r.code == 2 and says(r.err, "expected 'tile HEX")


def test_cannot_be_joined_proof_is_made_only_when_it_relaxes_the_tiles_in_play(board):
    """Degree-2 trees relax simple tiles only; with complex tiles the proof must use a wider relaxation."""
    from solver.solo.easter_island import analyse
    setup = {H(k): v for k, v in SETUP.items()}
    off = analyse(board, "easy", setup, Rules(complex_tiles=False), time_limit=2)
    assert off.verdict == "not clearable"
    assert any("cannot all be joined" in why for why in off.impossible)
    on = analyse(board, "easy", setup, Rules(), time_limit=2)
    assert on.verdict != "not clearable"  # a crossing clears it (tests/plans/tiny-crossing-cleared.json)
    assert not any("cannot all be joined" in why for why in on.impossible)


@pytest.mark.parametrize("tile,bent", [(X, False),  # a crossing: both straights through the centre
                                       (LayTile(H("B2"), H("A2"), H("B3"), second=(H("C1"), H("C2"))), True)])
def test_render_draws_both_tracks_of_a_complex_tile_as_valid_svg(board, tile, bent):
    import xml.etree.ElementTree as ET

    from solver.report.render import render_board
    s = to_build(new_state(board, SETUP))
    before = render_board(board, s).count("<path")
    s.apply(tile)
    svg = render_board(board, s)
    ET.fromstring(svg)  # well-formed XML
    paths = [p for p in ET.fromstring(svg).iter() if p.tag.endswith("path")]
    assert svg.count("<path") == before + 2
    x, y = H("B2").centre(1.0)
    tracks = [p.get("d") for p in paths][-2:]
    # A non-crossing pair is bent apart: its control points are not the hex centre, so the tracks do not meet.
    assert (tracks[0].split("Q")[1].split()[0] != tracks[1].split("Q")[1].split()[0]) == bent


@pytest.mark.parametrize("board_file", ["zoo.toml", "tiny/tiny-zoo.toml", "tiny/tiny-zoo-danger.toml"])
def test_zoo_round_bound_with_complex_tiles_never_exceeds_the_simple_tile_bound(board_file):
    """More tiles in play (two tracks on one tile) can only lower a proven bound, never raise it."""
    from solver.engine.setup import draw_setup
    from solver.solo.zoo import relaxed_needs
    from solver.solo.proofs.counting import zoo_rounds_bound as rounds_lower_bound
    inst = instance(board_file)
    setup = draw_setup(inst, next(iter(inst.difficulties)), 1)
    bounds = {}
    for on in (False, True):
        rules = Rules(complex_tiles=on)
        bounds[on], _ = rounds_lower_bound(inst, setup, rules, relaxed_needs(inst, setup, rules),
                                           horizon=inst.scenario.rounds + 1)
    assert bounds[True] <= bounds[False]
