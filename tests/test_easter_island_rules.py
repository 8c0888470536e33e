"""What the Easter Island sheet changes (../shared/seeds/easter-island-and-zoo.txt)."""
import pytest

from solver.engine.moves import IssueShares, Pass, SelectAction, Urbanize
from solver.engine.state import Rules
from tests.helpers import H, instance, lay, new_state, ship, to_build, to_ship

SETUP = {"A1": ["red", "blue"], "C1": ["red"]}


@pytest.fixture
def island():
    return instance("tiny/tiny-island.toml")


def finish_round(s):
    if s.phase == "build":
        to_ship(s)
    while s.phase == "ship":
        s.apply(Pass())


def test_action_costs_eight_dollars(island):
    s = new_state(island, SETUP, cash=10)
    s.apply(IssueShares(0))
    s.apply(SelectAction("engineer"))
    assert s.cash == 2


def test_action_must_be_paid_before_its_cash_is_received(island):
    s = new_state(island, SETUP, cash=7)
    s.apply(IssueShares(0))
    problem = s.why_illegal(SelectAction("rapa-nui", H("A1")))
    assert "costs $8" in problem and "before any cash it gives" in problem


def test_choosing_no_action_is_allowed_by_default(island):
    s = new_state(island, SETUP, cash=0)
    s.apply(IssueShares(0))
    assert s.why_illegal(SelectAction(None)) is None


def test_strict_action_reading_forces_a_paid_action_every_round(island):
    s = new_state(island, SETUP, Rules(strict_action=True), cash=10)
    s.apply(IssueShares(0))
    assert "must be selected every round" in s.why_illegal(SelectAction(None))


def test_selected_action_is_blocked_until_all_four_were_selected(island):
    s = new_state(island, SETUP, cash=200)
    order = ["engineer", "locomotive", "urbanization", "rapa-nui"]
    for i, action in enumerate(order):
        s.apply(IssueShares(0))
        for earlier in order[:i]:
            assert "action blocker" in s.why_illegal(SelectAction(earlier, H("A1") if earlier == "rapa-nui" else None))
        s.apply(SelectAction(action, H("A1") if action == "rapa-nui" else None))
        finish_round(s)
        s.cash = 200
    # After the fourth, the blockers and the disc come off: everything is selectable again.
    assert s.blockers == frozenset()
    s.apply(IssueShares(0))
    assert s.why_illegal(SelectAction("engineer")) is None


def test_a_round_without_action_places_no_blocker(island):
    s = new_state(island, SETUP, cash=50)
    s.apply(IssueShares(0))
    s.apply(SelectAction("engineer"))
    finish_round(s)
    s.apply(IssueShares(0))
    s.apply(SelectAction(None))
    finish_round(s)
    assert s.blockers == frozenset({"engineer"})


def test_only_the_top_cube_of_a_moai_may_be_shipped(island):
    s = to_build(new_state(island, {"A1": ["red", "blue"], "C1": ["red"]}, cash=50))
    lay(s, "A1-B1-C1", "C1-D1-E1")
    to_ship(s)
    assert "only the top cube" in s.why_illegal(ship("A1", "red", "A1-C1-E1"))
    assert s.why_illegal(ship("A1", "blue", "A1-C1")) is None


def test_rapa_nui_swaps_the_moai_and_pays_five(island):
    s = new_state(island, {"A1": ["red", "blue"], "C1": ["red"]}, cash=10)
    s.apply(IssueShares(0))
    s.apply(SelectAction("rapa-nui", H("A1")))
    assert s.goods[H("A1")] == ["blue", "red"]
    assert s.cash == 10 - 8 + 5


def test_rapa_nui_needs_a_moai_to_turn(island):
    s = new_state(island, {"A1": ["red", "blue"], "C1": ["red"]}, cash=10)
    s.apply(IssueShares(0))
    assert "no moai on" in s.why_illegal(SelectAction("rapa-nui", H("E1")))


def test_only_black_new_cities_and_no_statue_is_added(island):
    s = to_build(new_state(island, SETUP, cash=50), action="urbanization")
    assert "no red new city tile" in s.why_illegal(Urbanize(H("C2"), "red"))
    s.apply(Urbanize(H("C2"), "black"))
    assert s.new_cities == {H("C2"): "black"}
    assert H("C2") not in s.goods  # urbanizing adds no cube (statue)
    assert s.new_city_supply == ["black"] * 3


def test_cleared_needs_all_ruins_connected_and_no_cubes(island):
    s = to_build(new_state(island, {"A1": ["red", "blue"], "C1": ["red"]}, cash=50), action="engineer")
    lay(s, "A1-B1-C1", "C1-D1-E1")
    to_ship(s)
    s.apply(ship("A1", "blue", "A1-C1"))
    assert not s.is_cleared()  # cubes remain
    s.apply(ship("C1", "red", "C1-E1"))
    assert not s.is_cleared()  # the red cube still on Red 1
    s2 = new_state(island, {"A1": ["blue"], "C1": ["red"]}, cash=50)
    to_build(s2, action="engineer")
    lay(s2, "A1-B1-C1")
    to_ship(s2)
    s2.apply(ship("A1", "blue", "A1-C1"))
    s2.apply(ship("C1", "red", "C1-A1"))
    assert not s2.is_cleared()  # Red 2 is not joined to the network
    assert s2.cleared_round is None and s2.phase == "shares"


def test_clearing_ends_the_game_in_that_round(island):
    s = new_state(island, {"A1": ["blue"], "C1": ["red"]}, cash=50)
    to_build(s, action="engineer")
    lay(s, "A1-B1-C1", "C1-D1-E1")
    to_ship(s)
    s.apply(ship("A1", "blue", "A1-C1"))
    s.apply(ship("C1", "red", "C1-E1"))
    assert s.is_cleared() and s.cleared_round == 1 and s.is_terminal()
