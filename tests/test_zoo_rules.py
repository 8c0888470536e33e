"""What the Zoo sheet changes (../shared/seeds/easter-island-and-zoo.txt, section Zoo)."""
import pytest

from solver.engine.moves import IssueShares, LayTile, Pass, SelectAction, Urbanize
from solver.engine.state import Rules
from tests.helpers import H, instance, lay, new_state, ship, to_build, to_ship

FOOD = {"A1": ["red", "red"], "C1": ["red", "red"], "E1": ["red", "red"], "G1": ["red", "red"], "I1": ["red", "red"]}


@pytest.fixture
def zoo():
    return instance("tiny/tiny-zoo.toml")


def built(zoo, paths, action="engineer", loco=6, rules=Rules()):
    s = to_build(new_state(zoo, FOOD, rules, cash=500), action=action)
    s.tiles_laid = -100  # these tests are about shipping, not the tile limit
    lay(s, *paths)
    to_ship(s)
    s.locomotive = loco
    return s


ROW = ["A1-B1-C1", "C1-D1-E1", "E1-F1-G1", "G1-H1-I1"]


def test_sheet_example_danger_3_through_2_to_4_needs_locomotive_3(zoo):
    s = built(zoo, ROW, loco=2)
    problem = s.why_illegal(ship("A1", "red", "A1-C1-E1"))
    assert "needs locomotive 3" in problem and "danger 3" in problem
    s.locomotive = 3
    assert s.why_illegal(ship("A1", "red", "A1-C1-E1")) is None


def test_destination_danger_does_not_count(zoo):
    s = built(zoo, ROW, loco=1)
    assert s.why_illegal(ship("I1", "red", "I1-G1")) is None  # into the lion: only throwing food


def test_feeding_discount_passes_the_danger_6_lion_at_locomotive_5(zoo):
    s = built(zoo, ROW, action="feeding", loco=5)
    assert "needs locomotive 6" in s.why_illegal(ship("G1", "red", "G1-I1"))
    assert s.why_illegal(ship("G1", "red", "G1-I1", discount="G1")) is None


def test_feeding_discount_in_one_shipment_only_and_needs_the_action(zoo):
    s = built(zoo, ROW, action="feeding", loco=5)
    s.apply(ship("G1", "red", "G1-I1", discount="G1"))
    assert "one shipment of the round only" in s.why_illegal(ship("G1", "red", "G1-I1", discount="G1"))
    s2 = built(zoo, ROW, action="engineer", loco=5)
    assert "needs the Feeding action" in s2.why_illegal(ship("G1", "red", "G1-I1", discount="G1"))


def test_track_from_exit_to_animal_area_is_a_complete_link(zoo):
    s = built(zoo, ["A3-A2-A1"])
    assert [link.complete for link in s.links()] == [True]


def test_teleport_between_exits_needs_no_link_or_locomotive(zoo):
    s = built(zoo, ["A1-A2-A3", "I3-I2-I1"], loco=3)
    move = ship("A1", "red", "A1-A3~I3-I1")
    assert s.why_illegal(move) is None
    s.apply(move)
    assert s.income == 2  # two links; the teleport is not a link


def test_exit_may_be_passed_without_teleporting_unless_strict(zoo):
    paths = ["A1-A2-A3", "C1-C2-C3-B3-A3"]
    s = built(zoo, paths)
    assert s.why_illegal(ship("A1", "red", "A1-A3-C1")) is None
    strict = built(zoo, paths, rules=Rules(strict_exits=True))
    assert "must teleport" in strict.why_illegal(ship("A1", "red", "A1-A3-C1"))


def test_using_an_exit_earns_one_bonus_tile_a_round(zoo):
    s = built(zoo, ["A1-A2-A3", "I3-I2-I1"], loco=3)
    s.apply(ship("A1", "red", "A1-A3~I3-I1"))
    s.apply(ship("I1", "red", "I1-I3~A3-A1"))
    assert s.bonus_tiles == 1


def test_bonus_tile_does_not_count_toward_the_tile_limit(zoo):
    s = built(zoo, ["A1-A2-A3", "I3-I2-I1"], loco=3)
    s.apply(ship("A1", "red", "A1-A3~I3-I1"))
    s.apply(Pass())
    s.apply(IssueShares(0))
    s.apply(SelectAction("locomotive"))
    lay(s, "A1-B1-C1", "C1-D1-E1", "E1-F1-G1")
    assert "at most 3 tiles" in s.why_illegal(LayTile(H("H1"), H("G1"), H("I1")))
    s.apply(LayTile(H("H1"), H("G1"), H("I1"), bonus=True))
    assert s.bonus_tiles == 0


def test_track_costs_4_and_2_with_engineer(zoo):
    s = to_build(new_state(zoo, FOOD, cash=50), action="locomotive")
    lay(s, "A1-B1-C1")
    assert s.spent_on_track == 4
    e = to_build(new_state(zoo, FOOD, cash=50), action="engineer")
    lay(e, "A1-B1-C1")
    assert e.spent_on_track == 2


def test_new_city_is_a_danger_1_animal_area(zoo):
    s = to_build(new_state(zoo, FOOD, cash=50), action="urbanization")
    s.apply(Urbanize(H("E3"), "red"))
    assert s.ruleset.danger(s, H("E3")) == 1
    assert H("E3") in s.ruleset.animal_areas(s)
    literal_off = s.clone()
    literal_off.rules = Rules(feed_new_cities=False)
    assert H("E3") not in s.ruleset.animal_areas(literal_off)


def test_one_exit_pair_per_shipment(zoo):
    s = built(zoo, ["A1-A2-A3", "I3-I2-I1"], loco=6)
    move = ship("A1", "red", "A1-A3~I3-I1")
    two = type(move)(move.origin, move.colour, move.route, (1, 2), None)
    assert "one pair of exits" in s.why_illegal(two)


def test_cleared_when_every_animal_area_is_fed(zoo):
    s = built(zoo, ROW, loco=6)
    for h in ["A1", "C1", "E1", "G1"]:
        s.fed.add(H(h))
    assert not s.is_cleared()
    s.fed.add(H("I1"))
    assert s.is_cleared()


@pytest.mark.parametrize("teleports", [(5,), (-1,), (0, 0)])
def test_a_teleport_names_a_hop_of_its_route(zoo, teleports):
    # issue 27: links = hops - teleports, so an index off the route lowered the link count unchecked
    from solver.engine.moves import Ship
    s = to_build(new_state(zoo, {"A1": ["red"]}, cash=60), action="engineer")
    lay(s, "A1-A2-A3")
    to_ship(s)
    move = Ship(H("A1"), "red", (H("A1"), H("A3")), teleports)
    assert "must name distinct hops of the route" in s.why_illegal(move)
