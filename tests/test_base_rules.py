"""The base rules the solo maps use (../shared/rules/age-of-steam-base.md)."""
import pytest

from solver.engine.moves import IssueShares, LayTile, Pass, UpgradeLocomotive
from solver.engine.state import IllegalMove
from tests.helpers import H, instance, lay, new_state, ship, to_build, to_ship

TINY = "tiny/tiny-island.toml"
SETUP = {"A1": ["red", "blue"], "C1": ["red"]}


@pytest.fixture
def island():
    return instance(TINY)


def test_track_cost_follows_terrain_plain_3_mountain_4(island):
    s = to_build(new_state(island, SETUP, cash=50))
    lay(s, "A1-B1-C1")
    assert s.cash == 47
    lay(s, "C1-D1-E1")
    assert s.cash == 43 and s.spent_on_track == 7


def test_tile_limit_is_three_and_four_with_engineer(island):
    s = to_build(new_state(island, SETUP, cash=100))
    lay(s, "A1-A2-B2-C2")  # two tiles, then the town tile counts as a third
    assert s.tiles_laid == 3
    assert "at most 3 tiles" in s.why_illegal(LayTile(H("B1"), H("A1"), H("C1")))
    s2 = to_build(new_state(island, SETUP, cash=100), action="engineer")
    lay(s2, "A1-A2-B2-C2", "A1-B1-C1")
    assert s2.tiles_laid == 4


def test_town_tile_costs_one_plus_one_per_track(island):
    s = to_build(new_state(island, SETUP, cash=100))
    lay(s, "A1-A2-B2-C2")
    assert s.spent_on_track == 3 + 3 + 2  # two plain tiles, town tile with one track
    s2 = to_build(new_state(island, SETUP, cash=100), action="engineer")
    lay(s2, "A1-A2-B2-C2", "C2-D2-E1")
    assert s2.spent_on_track == 3 + 3 + 2 + 3 + 1  # the second track adds $1 to the town


def test_link_is_complete_only_when_both_ends_reach_a_stop(island):
    s = to_build(new_state(island, SETUP, cash=50))
    lay(s, "A1-A2-B2")
    (link,) = s.links()
    assert not link.complete and s.open_ends() == [(H("A2"), H("B2"))]
    lay(s, "A2-B2-C2")
    assert all(link.complete for link in s.links())
    assert s.network().has_edge(H("A1"), H("C2"))


def test_new_track_must_start_at_a_stop_or_extend_own_track():
    ei = instance("easter-island.toml")
    s = to_build(new_state(ei, {"G3": ["blue", "blue"]}, cash=50))
    assert "must start at a stop" in s.why_illegal(LayTile(H("H6"), H("G6"), H("I6")))
    assert s.why_illegal(LayTile(H("H6"), H("G6"), H("I7"))) is None  # I7 is Blue 4


def test_track_may_not_loop_back_into_its_stop(island):
    s = to_build(new_state(island, SETUP, cash=100), action="engineer")
    lay(s, "A1-B1-B2-A2")
    assert "loop back" in s.why_illegal(LayTile(H("A2"), H("B2"), H("A1")))


def test_track_is_never_built_on_a_city(island):
    s = to_build(new_state(island, SETUP, cash=50))
    assert "never built on a stop" in s.why_illegal(LayTile(H("C1"), H("B1"), H("D1")))


def test_good_must_stop_at_first_city_of_its_colour():
    ei = instance("easter-island.toml")
    s = to_build(new_state(ei, {"G3": ["blue", "blue"]}, cash=100), action="engineer")
    lay(s, "G3-H3-H4", "H4-I4-J4-K5")
    to_ship(s)
    assert "must stop at the first city of its colour" in s.why_illegal(ship("G3", "blue", "G3-H4-K5"))
    assert s.why_illegal(ship("G3", "blue", "G3-H4")) is None


def test_good_is_only_delivered_to_a_city_of_its_colour(island):
    s = to_build(new_state(island, {"A1": ["blue", "red"], "C1": ["red"]}, cash=50))
    lay(s, "A1-B1-C1")
    to_ship(s)
    assert "does not accept a red good" in s.why_illegal(ship("A1", "red", "A1-C1"))
    assert "no complete link" in s.why_illegal(ship("C1", "red", "C1-E1"))


def test_locomotive_limits_links(island):
    s = to_build(new_state(island, {"A1": ["red", "blue"], "C1": ["red"]}, cash=50))
    lay(s, "A1-B1-C1", "C1-D1-E1")
    to_ship(s)
    s.locomotive = 1
    s.goods[H("A1")] = ["blue", "red"]
    assert "needs locomotive 2" in s.why_illegal(ship("A1", "red", "A1-C1-E1"))
    s.locomotive = 2
    assert s.why_illegal(ship("A1", "red", "A1-C1-E1")) is None


def test_shipping_adds_one_income_per_link_and_removes_the_good(island):
    s = to_build(new_state(island, {"A1": ["blue", "red"], "C1": ["red"]}, cash=50))
    lay(s, "A1-B1-C1", "C1-D1-E1")
    to_ship(s)
    s.apply(ship("A1", "red", "A1-C1-E1"))
    assert s.income == 2 and s.goods[H("A1")] == ["blue"]


def test_locomotive_upgrade_once_a_turn_instead_of_a_shipment(island):
    s = to_ship(to_build(new_state(island, SETUP, cash=50)))
    s.apply(UpgradeLocomotive())
    assert s.locomotive == 3
    assert "at most once a turn" in s.why_illegal(UpgradeLocomotive())


def test_income_then_expenses_then_shortfall_lowers_income(island):
    s = to_ship(to_build(new_state(island, SETUP, cash=3)))
    s.income = 1
    s.apply(Pass())
    s.apply(Pass())
    # cash 3 + income 1 = 4, expenses 2 shares + locomotive 2 = 4
    assert (s.cash, s.income) == (0, 1)
    to_ship(to_build(s))
    s.apply(Pass())
    s.apply(Pass())
    # cash 0 + 1 - 4 = -3: the shortfall of 3 comes off income
    assert (s.cash, s.income) == (0, -2)


def test_income_reduction_brackets(island):
    s = to_ship(to_build(new_state(island, SETUP, cash=100)))
    s.income = 21
    s.apply(Pass())
    s.apply(Pass())
    assert s.income == 17  # 21-30 loses 4
    to_ship(to_build(s))
    s.income = 10
    s.apply(Pass())
    s.apply(Pass())
    assert s.income == 10


def test_income_below_floor_ends_the_game(island):
    s = to_ship(to_build(new_state(island, SETUP, cash=0)))
    s.income = -9
    s.apply(Pass())
    s.apply(Pass())
    assert s.is_terminal() and "below -10" in s.lost


def test_shares_give_five_dollars_each_up_to_fifteen(island):
    s = new_state(island, SETUP)
    s.apply(IssueShares(3))
    assert (s.shares, s.cash) == (5, 25)
    s2 = new_state(island, SETUP)
    assert "at most 15 shares" in s2.why_illegal(IssueShares(14))
    s3 = new_state(island, SETUP)
    s3.apply(IssueShares(13))
    to_ship(to_build_after_shares(s3))
    s3.apply(Pass())
    s3.apply(Pass())
    assert s3.cash == 10 + 65 - 15 - 2  # expenses: $1 a share and $1 a locomotive level


def to_build_after_shares(s):
    from solver.engine.moves import SelectAction
    s.apply(SelectAction(None))
    return s


def test_illegal_move_raises_with_reason(island):
    s = new_state(island, SETUP)
    with pytest.raises(IllegalMove, match="not a move of the shares phase"):
        s.apply(Pass())


def test_legal_actions_are_exactly_the_moves_apply_accepts(island):
    s = to_build(new_state(island, SETUP, cash=20))
    for move in s.legal_actions():
        s.clone().apply(move)  # must not raise
    assert LayTile(H("B1"), H("A1"), H("C1")) in s.legal_actions()
