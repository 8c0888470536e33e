"""The hex packing model's points 8 and 9 (models/link_packing.py), on hand-made corridors of hexes.

Point 8: a non-crossing pair is one placement, and each of its tracks must be joined when laid, so a later
link that shares a hex with an earlier one has its track there, and its way to one of its ends, laid by
the earlier link's round. Point 9: a town tile counts one tile more the turn track reaches the town.
"""
from __future__ import annotations

from ortools.sat.python import cp_model

from models.link_packing import PackingBoard, build_packing
from solver.solo.link_search import is_crossing, tile_exists
from tests.helpers import H

# D4's neighbours: E4 (east), E3 (north-east), D3, C4 (west), D5, E5 (south-east). Link 0, E4-D4-E3, is a
# sharp curve on D4; link 1, A4-B4-C4-D4-E5-F5-G5, crosses D4 from west to south-east: the two tracks
# are a non-crossing pair, and these five hexes are the only ones on the board.
CORRIDOR = PackingBoard(cost={H(n): 2 for n in ("B4", "C4", "D4", "E5", "F5")}, old=frozenset(),
                        stops=frozenset(H(n) for n in ("E4", "E3", "A4", "G5")), towns=frozenset(),
                        passable=lambda a, b: True)
LINKS = [(H("E4"), H("E3")), (H("A4"), H("G5"))]


def status(board: PackingBoard, links: list, **kw) -> str:
    m, _ = build_packing(board, links, "tiles", tile_exists=tile_exists, crossing=is_crossing, **kw)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = 10.0
    return solver.StatusName(solver.Solve(m))


def test_the_later_track_of_a_non_crossing_pair_and_its_way_to_an_end_are_laid_with_the_earlier_link():
    # link 0 due in round 1 with one tile by then (D4), link 1 in round 2 with five
    tight = (([0], 1, 1), ([0, 1], 5, 2))
    assert status(CORRIDOR, LINKS, budgets=tight) == "OPTIMAL"                  # without point 8
    assert status(CORRIDOR, LINKS, budgets=tight, order=(1, 2)) == "INFEASIBLE"
    # three tiles by round 1: D4 and link 1's track to one end (B4, C4 or E5, F5)
    assert status(CORRIDOR, LINKS, budgets=(([0], 3, 1), ([0, 1], 5, 2)), order=(1, 2)) == "OPTIMAL"
    # both due in round 1: nothing is pulled forward that was not due anyway
    assert status(CORRIDOR, LINKS, budgets=(([0, 1], 5, 1),), order=(1, 1)) == "OPTIMAL"


def test_the_plan_side_keeps_links_due_in_different_rounds_off_a_shared_non_crossing_pair():
    assert status(CORRIDOR, LINKS, budgets=(([0], 3, 1), ([0, 1], 5, 2)), due=(1, 2), once=True) == "INFEASIBLE"
    assert status(CORRIDOR, LINKS, budgets=(([0, 1], 5, 1),), due=(1, 1), once=True) == "OPTIMAL"


def test_a_town_tile_counts_a_tile_more_the_turn_track_first_reaches_the_town():
    board = PackingBoard(cost={H("B4"): 2}, old=frozenset(), stops=frozenset({H("A4"), H("C4")}),
                         towns=frozenset({H("C4")}), passable=lambda a, b: True)
    link = [(H("A4"), H("C4"))]   # A4-B4-C4: one hex and the town tile
    one = (([0], 1, 1),)
    assert status(board, link, budgets=one) == "OPTIMAL"
    assert status(board, link, budgets=one, town_tiles={H("C4"): 5}) == "INFEASIBLE"   # a town all game
    assert status(board, link, budgets=one, town_tiles={H("C4"): 0}) == "OPTIMAL"      # a city from the start
    assert status(board, link, budgets=(([0], 2, 1),), town_tiles={H("C4"): 5}) == "OPTIMAL"
