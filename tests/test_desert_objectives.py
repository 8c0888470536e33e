"""The sheet's Desert objectives as scoring conditions (issue 33, item 2): Desert Temple,
Desert Market with its loop rule, Great Oasis counting as an Oasis; the solo challenges
stay without objectives."""
from __future__ import annotations

import pathlib

import pytest

from solver.desert import objectives, readings
from solver.desert.area import Pawn, PlayArea
from solver.desert.referee import evaluate
from solver.desert.setup import load_setup
from solver.desert.layout import load_layout
from solver.desert.scoring import active_landmarks, final_score, score_total

ROOT = pathlib.Path(__file__).resolve().parent.parent
LAYOUT = ROOT / "instances" / "desert" / "layouts" / "objectives.toml"


@pytest.fixture(scope="module")
def setup():
    return load_setup()


def area_of(setup, tiles, ruleset=None):
    """A play area with these (tile, cell, rotation) laid as given (the conditions are under test here,
    not the placement rules)."""
    area = PlayArea(setup.tileset, ruleset or setup.ruleset)
    for tid, cell, rot in tiles:
        area.place(setup.tileset.get(tid).rotated(rot), cell, 1)
    return area


# D08 pyramid, D09 obelisk, D10 sphinx, D07 oasis: a trail end at N in rotation 0
AROUND_TEMPLE = [("D08", (0, 1), 0), ("D09", (1, 0), 3), ("D10", (-1, 0), 1), ("D07", (0, -1), 2)]


def test_desert_temple_needs_four_connected_landmarks(setup):
    area = area_of(setup, [("O01", (0, 0), 0)] + AROUND_TEMPLE)
    met, why = objectives.temple(area, (0, 0))
    assert met and "4 Landmarks" in why
    area = area_of(setup, [("O01", (0, 0), 0)] + AROUND_TEMPLE[:3])
    assert objectives.temple(area, (0, 0)) == (False, "connected to 3 Landmarks (needs 4)")
    # a landmark beside the Temple but on a trail that does not reach it does not count
    area = area_of(setup, [("O01", (0, 0), 0)] + AROUND_TEMPLE[:3] + [("D07", (0, -1), 0)])
    assert not objectives.temple(area, (0, 0))[0]


def _line(n_before, n_after):
    """A north-south line of trail straights (D02) with the Market (O02) in it."""
    cells = [("D02", (0, y), 0) for y in range(-n_before, 0)] + [("O02", (0, 0), 0)]
    return cells + [("D02", (0, y), 0) for y in range(1, n_after + 1)]


def test_desert_market_counts_a_path_of_five_trail_segments_through_it(setup):
    assert objectives.market(area_of(setup, _line(0, 4)), (0, 0))[0]
    assert objectives.market(area_of(setup, _line(2, 2)), (0, 0))[0]  # the Market in the middle of the path
    met, why = objectives.market(area_of(setup, _line(1, 2)), (0, 0))
    assert not met and "4 Desert Trail segments" in why


def test_desert_market_counts_each_segment_of_a_loop_once(setup):
    # a ring of six trail segments through the Market: walking round it forever still counts 6
    ring = [("D04", (0, 0), 1), ("O02", (1, 0), 1), ("D04", (2, 0), 2),
            ("D04", (2, 1), 3), ("D02", (1, 1), 1), ("D04", (0, 1), 0)]
    area = area_of(setup, ring)
    graph = objectives._segments(area)
    assert all(len(nbs) == 2 for nbs in graph.values())  # it is a closed loop
    start = next(s for s in graph if s[0] == (1, 0))
    assert objectives.longest_path_through(graph, start, 100) == 6


def test_great_oasis_needs_two_camels_around_it_and_the_reading_says_which_tiles(setup):
    tiles = [("O03", (0, 0), 0), ("D01", (0, 1), 0), ("D01", (1, 1), 0)]
    area = area_of(setup, tiles)
    area.pawns += [Pawn((0, 1), 0, "camel", "camel", 1), Pawn((1, 1), 0, "camel", "camel", 1)]
    assert objectives.great_oasis(area, (0, 0))[0]  # default: the 8 tiles around it
    four = readings.apply(setup.ruleset, ["great-oasis-surround=four"])
    area4 = area_of(setup, tiles, four)
    area4.pawns = list(area.pawns)
    met, why = objectives.great_oasis(area4, (0, 0))
    assert not met and "1 camel on the 4 tiles" in why


def test_great_oasis_counts_as_an_oasis_landmark(setup):
    area = area_of(setup, [("O01", (0, 0), 0), ("O03", (0, -1), 0)] + AROUND_TEMPLE[:3])
    assert any(c == (0, -1) and typ == "oasis" for c, typ, _ in active_landmarks(area)[0])
    assert objectives.temple(area, (0, 0))[0]  # the Great Oasis is the Temple's fourth Landmark


def test_objectives_score_as_a_line_and_in_the_quick_total(setup):
    area = area_of(setup, [("O01", (0, 0), 0)] + AROUND_TEMPLE)
    rep = final_score(area)
    line = next(l for l in rep.lines if l.key == "objectives")
    assert line.points == setup.ruleset["objective_points"]
    assert rep.total == score_total(area)


def test_a_layout_with_an_objective_tile_is_scored_and_refused_in_a_solo_challenge(setup, run_cli):
    ev = evaluate(setup, load_layout(LAYOUT), None)
    assert ev["legal"], ev["violation"]
    assert any(l["key"] == "objectives" for l in ev["lines"])
    ev = evaluate(setup, load_layout(LAYOUT), setup.challenges.get("lost-world"))
    assert not ev["legal"] and "objectives_used" in ev["violation"] and ev["stars"] == 0
    res = run_cli("desert", "score", LAYOUT)
    assert res.code == 0 and "objectives" in res.out and "objective_points 5" in res.out


def test_the_objective_catalogue_has_the_sheets_count(setup):
    assert sum(t.count for t in setup.tileset.objectives.values()) == 12
    assert {t.objective for t in setup.tileset.objectives.values()} == {"desert-temple", "desert-market", "great-oasis"}
    # never in a bag: the market draws route tiles only
    assert not set(setup.tileset.bag("desert")) & set(setup.tileset.objectives)
