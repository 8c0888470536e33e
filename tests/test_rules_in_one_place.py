"""The round's money and the track-placement test are the engine's pure functions (solver/engine/economy.py,
placement.py); the searches' bounds argue from them, so these tests pin what they say and that the
searches' restatements are gone."""
from __future__ import annotations

import pathlib

import pytest

from solver.engine import economy
from solver.engine.placement import can_lay_track, track_hex_problem, track_hexes
from solver.games import load_instance

ROOT = pathlib.Path(__file__).resolve().parent.parent
TABLE = ((11, 20, 2), (21, 30, 4), (31, 40, 6), (41, 49, 8), (50, 999, 10))


def test_what_cannot_be_paid_lowers_income():
    # cash 0 after the build, income 1, 2 shares and locomotive 2: 0 + 1 - 4 = -3 comes off income
    money = economy.settle(0, 1, 2, 2, TABLE)
    assert (money.cash, money.income, money.shortfall, money.expenses) == (0, -2, 3, 4)


def test_the_floor_judges_income_before_the_reduction():
    # income 12, expenses 1: the floor sees 12, though the reduction then leaves 10
    money = economy.settle(0, 12, 0, 1, TABLE)
    assert (money.income_floored, money.income) == (12, 10) and not money.lost(11)
    # income -5, expenses 6 with no cash: the shortfall of 11 leaves -16, below the floor of -10
    money = economy.settle(0, -5, 3, 3, TABLE)
    assert (money.shortfall, money.income_floored) == (11, -16) and money.lost(-10)


def test_income_reduction_is_the_first_bracket_holding_income():
    assert [economy.income_reduction(TABLE, i) for i in (10, 11, 20, 21, 50, 1000)] == [0, 2, 2, 4, 10, 0]
    assert economy.settle(100, 21, 0, 1, TABLE).income == 17


@pytest.mark.parametrize("path", ["instances/easter-island.toml", "instances/zoo.toml",
                                  "instances/tiny/tiny-island.toml", "instances/tiny/tiny-zoo.toml"])
def test_track_goes_on_priced_terrain_off_every_stop(path):
    inst = load_instance(ROOT / path)
    board, s = inst.board, inst.scenario
    hexes = set(track_hexes(board, s))
    assert hexes and not hexes & board.stops
    for h in board.terrain:
        assert can_lay_track(board, s, h) == (h in hexes) == board.buildable(h)
        if board.terrain[h] == "water" and not board.is_stop(h):
            assert "cannot be built" in track_hex_problem(board, s, h)
    assert board.stops == set(board.cities) | set(board.towns) | set(board.exits)


def test_searches_do_not_restate_the_income_reduction():
    """The bracket loop lives in the engine only: a search that walks the table again restates the rule."""
    for path in ["solver/solo/link_search.py", "solver/solo/economy_search.py", "solver/solo/zoo_economy.py",
                 "solver/solo/relaxation.py", "models/solo_game/economy.py", "solver/engine/ruleset.py"]:
        text = (ROOT / path).read_text(encoding="utf-8")
        assert "for low, high, loss in" not in text, path
