"""The Zoo shipment search (solver/solo/zoo_routes.py) against the sheet and against the ruleset."""
import json
import random

import pytest

from solver.engine.moves import EndBuild, IssueShares, SelectAction
from solver.engine.setup import draw_setup
from solver.engine.shipping import shipments
from solver.engine.state import GameState, Rules
from solver.solo.zoo_routes import feedings, least_locomotive, plain_bfs_least_locomotive, random_network
from tests.conftest import ROOT
from tests.helpers import H, instance, lay, new_state, to_build, to_ship

FOOD = {"A1": ["red", "red"], "C1": ["red", "red"], "E1": ["red", "red"], "G1": ["red", "red"], "I1": ["red", "red"]}
ROW = ["A1-B1-C1", "C1-D1-E1", "E1-F1-G1", "G1-H1-I1"]


@pytest.fixture(scope="module")
def tiny():
    return instance("tiny/tiny-zoo.toml")


@pytest.fixture(scope="module")
def zoo():
    return instance("zoo.toml")


def built(inst, paths, action="engineer", loco=6, rules=Rules()):
    s = to_build(new_state(inst, FOOD, rules, cash=500), action=action)
    s.tiles_laid = -100  # these tests are about shipping, not the tile limit
    lay(s, *paths)
    to_ship(s)
    s.locomotive = loco
    return s


def test_sheet_example_danger_3_through_2_to_4_needs_locomotive_3(tiny):
    s = built(tiny, ROW, loco=2)
    table = least_locomotive(s)
    assert table[(H("A1"), H("E1"))] == (3, 2)  # the Feeding discount would lower the danger-3 origin to 2
    assert not [f for f in feedings(s, discount=False) if f.route == (H("A1"), H("C1"), H("E1"))]
    found = [f for f in feedings(s, locomotive=3, discount=False) if f.destination == H("E1") and f.origin == H("A1")]
    assert [(f.text(), f.links, f.need, f.discount) for f in found] == [("A1-C1-E1", 2, 3, None)]


def test_sheet_example_discount_passes_the_danger_6_lion_at_locomotive_5(tiny):
    s = built(tiny, ROW, action="feeding", loco=5)
    assert least_locomotive(s)[(H("E1"), H("I1"))] == (6, 5)
    without = [f for f in feedings(s, discount=False) if f.origin == H("E1") and f.destination == H("I1")]
    assert without == []
    found = [f for f in feedings(s) if f.origin == H("E1") and f.destination == H("I1")]
    assert [(f.text(), f.need, f.discount) for f in found] == [("E1-G1-I1", 5, H("G1"))]
    assert s.why_illegal(found[0].ship("red")) is None


def test_destination_danger_does_not_count(tiny):
    s = built(tiny, ROW, loco=1)
    assert least_locomotive(s)[(H("I1"), H("G1"))] == (1, 1)  # into the lion: only throwing food


def test_teleport_is_no_link_and_at_most_one_per_shipment(tiny):
    s = built(tiny, ["A1-A2-A3", "I3-I2-I1"], loco=3)
    found = {f.text(): f for f in feedings(s)}
    assert set(found) == {"A1-A3~I3-I1", "I1-I3~A3-A1"}
    f = found["A1-A3~I3-I1"]
    assert (f.links, f.teleports, f.exit_used) == (2, (1,), True)


def test_exit_passed_without_teleport_unless_strict(tiny):
    paths = ["A1-A2-A3", "C1-C2-C3-B3-A3"]
    loose = {f.text() for f in feedings(built(tiny, paths))}
    strict = {f.text() for f in feedings(built(tiny, paths, rules=Rules(strict_exits=True)))}
    assert "A1-A3-C1" in loose and "A1-A3-C1" not in strict


def test_new_city_counts_as_danger_1(tiny):
    s = to_build(new_state(tiny, FOOD, cash=500), action="urbanization")
    s.tiles_laid = -100
    from solver.engine.moves import Urbanize
    s.apply(Urbanize(H("E3"), "red"))
    lay(s, "E1-E2-E3", "E3-F3-F2-G1")
    to_ship(s)
    table = least_locomotive(s)
    assert table[(H("E1"), H("G1"))] == (4, 3)   # through the new city: the origin's danger 4 is the most
    assert table[(H("G1"), H("E3"))] == (6, 5)   # the new city is a destination
    assert s.ruleset.danger(s, H("E3")) == 1
    found = [f for f in feedings(s, locomotive=4) if f.destination == H("G1")]
    assert [f.text() for f in found] == ["E1-E3-G1"]


def _random_state(inst, seed: int, rules: Rules, action: str = "feeding") -> GameState:
    rng = random.Random(seed)
    s = GameState.new(inst, draw_setup(inst, "standard", seed), rules)
    s.apply(IssueShares(0))
    s.apply(SelectAction(action))
    random_network(s, rng, rng.randint(5, 16))
    s.apply(EndBuild())
    return s


@pytest.mark.parametrize("strict", [False, True])
def test_every_listed_route_passes_the_ruleset_and_none_is_missing(zoo, strict):
    seen = {"teleport": 0, "discount": 0, "exit passed": 0}
    for seed in range(6):
        s = _random_state(zoo, seed, Rules(strict_exits=strict))
        for loco in (1, 2, 3, 4, 5, 6):
            s.locomotive = loco
            found = feedings(s)
            for f in found:
                seen["teleport"] += bool(f.teleports)
                seen["discount"] += f.discount is not None
                seen["exit passed"] += f.exit_used and not f.teleports
                move = f.ship(s.goods[f.origin][-1])
                assert s.why_illegal(move) is None, (str(move), s.why_illegal(move))
            # The engine's own enumeration (every simple route, checked by the ruleset) finds the same routes.
            engine = {(m.origin, m.route, m.teleports) for m in shipments(s)}
            assert {(f.origin, f.route, f.teleports) for f in found} == engine
    assert seen["teleport"] and seen["discount"]  # the random networks exercise both
    assert bool(seen["exit passed"]) != strict


@pytest.mark.parametrize("strict", [False, True])
def test_least_locomotive_matches_the_plain_breadth_first_search(zoo, strict):
    for seed in range(40):
        s = _random_state(zoo, 100 + seed, Rules(strict_exits=strict))
        assert least_locomotive(s) == plain_bfs_least_locomotive(s), seed


def test_least_locomotive_matches_the_engine(zoo):
    """The table's entries are the least locomotive at which the engine allows some shipment."""
    for seed in range(4):
        s = _random_state(zoo, 200 + seed, Rules())
        engine = {}
        for loco in range(1, zoo.scenario.max_locomotive + 1):
            s.locomotive = loco
            for m in shipments(s):
                a, b = engine.get((m.origin, m.route[-1]), (None, None))
                engine[(m.origin, m.route[-1])] = (loco if a is None and m.discount is None else a,
                                                   loco if b is None else b)
        assert least_locomotive(s) == engine


def test_routes_command_lists_feedings_of_a_plan(run_cli):
    plan = ROOT / "tests" / "plans" / "tiny-zoo-cleared.json"
    r = run_cli("zoo", "routes", "--plan", plan, "--round", "3", "--at", "ship", "--instance",
                ROOT / "instances/tiny/tiny-zoo.toml", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["locomotive"] == 3 and data["discount_available"] is True
    routes = {f["route"]: f for f in data["feedings"]}
    # the plan's third-round shipments are among them
    assert "I1-G1" in routes
    assert routes["C1-A1-A3~I3-I1"]["teleport"] == ["A3", "I3"]
    row = {(x["from"], x["to"]): x for x in data["least_locomotive"]}
    assert row[("I1", "G1")]["without_discount"] == 1
    text = run_cli("zoo", "routes", "--plan", plan, "--round", "3", "--at", "ship", "--instance",
                   ROOT / "instances/tiny/tiny-zoo.toml")
    assert text.code == 0 and "Least locomotive to feed" in text.out and "teleport A3~I3" in text.out


def test_routes_command_default_is_the_state_after_the_round_before(run_cli):
    plan = ROOT / "tests" / "plans" / "tiny-zoo-cleared.json"
    r = run_cli("zoo", "routes", "--plan", plan, "--round", "2", "--instance", ROOT / "instances/tiny/tiny-zoo.toml",
                "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    # after round 1: locomotive 2 (raised by a shipment step), no action chosen yet, only Three (A1) fed
    assert (data["at"], data["locomotive"], data["discount_available"], data["fed"]) == ("start", 2, False, ["A1"])
    assert {f["route"] for f in data["feedings"]} == {"C1-E1", "C1-A1", "I1-I3~A3-A1"}
    with_feeding = json.loads(run_cli("zoo", "routes", "--plan", plan, "--round", "2", "--feeding", "--locomotive", "1",
                                      "--instance", ROOT / "instances/tiny/tiny-zoo.toml", "--json").out)
    # at locomotive 1 with the discount: the danger-2 Two (C1) feeds its neighbours over 1 link
    assert {(f["route"], f["discount"]) for f in with_feeding["feedings"]} == {("C1-E1", "C1"), ("C1-A1", "C1")}


def test_routes_command_bad_round_is_exit_2(run_cli):
    plan = ROOT / "tests" / "plans" / "tiny-zoo-cleared.json"
    r = run_cli("zoo", "routes", "--plan", plan, "--round", "9", "--instance", ROOT / "instances/tiny/tiny-zoo.toml")
    assert r.code == 2 and "--round goes up to 4" in r.err
