"""The named readings of the rule sheets: each one changes what it should on a tiny board, under both values."""
import dataclasses
from solver.report.words import readable
import json

import pytest

from solver.engine.moves import IssueShares, SelectAction, Urbanize
from solver.engine.readings import BY_FIELD, BY_NAME, READINGS, label, make_rules, parse_sets, stated_names
from solver.engine.setup import draw_setup, setup_from_mapping
from solver.engine.state import Rules
from solver.board.errors import InputError
from tests.conftest import INSTANCES
from tests.helpers import H, instance, lay, new_state, ship, to_build, to_ship

TINY_ISLAND = INSTANCES / "tiny" / "tiny-island.toml"
TINY_ZOO = INSTANCES / "tiny" / "tiny-zoo.toml"


@pytest.fixture
def island():
    return instance("tiny/tiny-island.toml")


@pytest.fixture
def zoo():
    return instance("tiny/tiny-zoo.toml")


# -- the registry ---------------------------------------------------------------------------

def test_every_rules_field_is_one_named_reading_with_its_default_first():
    assert sorted(BY_FIELD) == sorted(Rules.__dataclass_fields__)
    for r in READINGS:
        assert r.values[0].name == r.default, r.name
        assert r.values[0].value == Rules.__dataclass_fields__[r.field].default, r.name
        assert r.quote and r.sheet and r.why_default and len(r.values) >= 2


def test_bad_reading_names_and_values_name_the_reading_and_the_allowed_values():
    with pytest.raises(InputError, match="reading 'rapa-nui-remnant' has no value 'maybe' "
                                         r"\(allowed: allowed, refused\)"):
        make_rules("easter-island", ["rapa-nui-remnant=maybe"])
    with pytest.raises(InputError, match="unknown reading 'colour-blind'.*strict-action, bag"):
        make_rules("easter-island", ["colour-blind=on"])
    with pytest.raises(InputError, match="reading 'exit-pairs' is for zoo, not easter-island"):
        make_rules("easter-island", ["exit-pairs=strict"])


def test_reading_sets_are_named_by_what_they_change():
    sets = parse_sets(["default,bag=full", "strict-action=on+bag=full"], "easter-island")
    assert [label(r, "easter-island") for r in sets] == ["default", "bag=full", "strict-action=on+bag=full"]
    assert stated_names(sets[1], "easter-island") == {"strict-action": "off", "bag": "full",
                                                      "rapa-nui-remnant": "allowed", "complex-tiles": "allowed",
                                                      "idle-actions": "refused", "clear-and-under": "lost",
                                                      "incomplete-track": "kept", "complex-tile-set": "assumed", "track-into-side": "refused", "end-of-game": "at-clear"}


# -- each reading on a tiny board, both values ----------------------------------------------

@pytest.mark.parametrize("strict", [False, True])
def test_strict_action_decides_whether_a_round_may_select_no_action(island, strict):
    s = new_state(island, {"A1": ["red", "blue"], "C1": ["red"]}, rules=Rules(strict_action=strict))
    s.apply(IssueShares(0))
    problem = s.why_illegal(SelectAction(None))
    assert (problem == "an action must be selected every round") if strict else problem is None


def test_bag_no_purple_never_draws_purple_and_the_full_bag_usually_does():
    inst = instance("easter-island.toml")
    default = [draw_setup(inst, "hard", seed) for seed in range(1, 41)]
    full = [draw_setup(inst, "hard", seed, rules=Rules(bag="full")) for seed in range(1, 41)]
    assert not any("purple" in cubes for s in default for cubes in s.values())
    with_purple = sum(any("purple" in cubes for cubes in s.values()) for s in full)
    assert with_purple >= 35  # 98-99% of draws from the full bag hold a purple cube


def test_bag_reading_checks_a_given_setup_against_the_bag_it_names(island):
    mapping = {"Red 1": ["red", "purple"], "Blue 1": ["red"]}
    with pytest.raises(InputError, match="1 purple cubes, but the bag holds only 0 under the reading bag=no-purple"):
        setup_from_mapping(island, "easy", mapping, "setup")
    assert setup_from_mapping(island, "easy", mapping, "setup", Rules(bag="full"))[H("A1")] == ["red", "purple"]


@pytest.mark.parametrize("allowed", [True, False])
def test_rapa_nui_on_a_single_cube_remnant(island, allowed):
    # "any moai, whether it is an intact two-cube statue or a single-cube remnant"
    s = new_state(island, {"A1": ["red", "blue"], "C1": ["red"]}, rules=Rules(rapa_nui_remnant=allowed), cash=10)
    s.apply(IssueShares(0))
    move = SelectAction("rapa-nui", H("C1"))
    assert (move in s.legal_actions()) == allowed
    if allowed:
        s.apply(move)
        assert s.goods[H("C1")] == ["red"] and s.cash == 10 - 8 + 5
    else:
        assert "single-cube remnant" in s.why_illegal(move)
        assert "rapa-nui-remnant=refused" in s.why_illegal(move)


@pytest.mark.parametrize("stops", [False, True])
def test_zoo_exits_as_a_place_to_start_track(zoo, stops):
    # Base rules: "New track must start at a city or town"; the sheet only makes exit-area track a complete link.
    s = to_build(new_state(zoo, {}, rules=Rules(exits_as_stops=stops), cash=50), action="engineer")
    from solver.engine.moves import LayTile
    start_at_exit = LayTile(H("B3"), H("A3"), H("C3"))
    problem = s.why_illegal(start_at_exit)
    assert (problem is None) if stops else "an exit is not a place to start (reading zoo-exits=literal)" in problem
    lay(s, "C1-C2-C3-B3-A3")  # the same track, grown from an animal area, is legal under both
    assert [link.complete for link in s.links()] == [True]


@pytest.mark.parametrize("stops", [False, True])
def test_zoo_exits_are_no_place_to_start_the_second_track_of_a_complex_tile(zoo, stops):
    # issue 27: the check ran on a tile's first track only; the track A3-B3 starts at the exit A3
    from solver.engine.moves import LayTile
    s = to_build(new_state(zoo, {}, rules=Rules(exits_as_stops=stops), cash=50), action="engineer")
    complex_tile = LayTile(H("A2"), H("A1"), H("B2"), second=(H("A3"), H("B3")))
    problem = s.why_illegal(complex_tile)
    assert (problem is None) if stops else "an exit is not a place to start (reading zoo-exits=literal)" in problem


@pytest.mark.parametrize("stops", [False, True])
def test_zoo_exits_are_no_place_to_start_an_upgrade(zoo, stops):
    from solver.engine.moves import UpgradeTile
    s = to_build(new_state(zoo, {}, rules=Rules(exits_as_stops=stops), cash=50), action="engineer")
    lay(s, "A1-A2-B3")  # a straight from the animal area Three
    upgrade = UpgradeTile(H("A2"), H("B1"), H("A3"))  # its crossing track would start at the exit A3
    problem = s.why_illegal(upgrade)
    assert (problem is None) if stops else "an exit is not a place to start (reading zoo-exits=literal)" in problem


@pytest.mark.parametrize("stops", [False, True])
def test_zoo_exit_to_town_track_carries_food_only_when_exits_are_stops(zoo, stops):
    s = to_build(new_state(zoo, {"C1": ["blue"]}, rules=Rules(exits_as_stops=stops), cash=60), action="engineer")
    s.tiles_laid = -10  # the tile limit is not what this test is about
    lay(s, "C1-C2-D3-E3", "E3-F3-G3-H3-I3", "A1-A2-A3")
    s.locomotive = 3
    to_ship(s)
    problem = s.why_illegal(ship("C1", "blue", "C1-E3-I3~A3-A1"))
    if stops:
        assert problem is None
    else:
        assert "is no complete link: only an exit joined to an animal area is (reading zoo-exits=literal)" in problem
    from solver.solo.zoo_routes import feedings
    assert any(f.text() == "C1-E3-I3~A3-A1" for f in feedings(s)) == stops  # the route search agrees


@pytest.mark.parametrize("strict", [False, True])
def test_exit_pairs_passing_an_exit_without_teleporting(zoo, strict):
    s = to_build(new_state(zoo, {"A1": ["red"]}, rules=Rules(strict_exits=strict), cash=50), action="engineer")
    lay(s, "A1-A2-A3", "C1-C2-C3-B3-A3")
    s.locomotive = 3
    to_ship(s)
    problem = s.why_illegal(ship("A1", "red", "A1-A3-C1"))
    assert ("must teleport" in problem) if strict else problem is None


@pytest.mark.parametrize("feed", [True, False])
def test_feed_new_cities_decides_whether_an_urbanized_area_must_be_fed(zoo, feed):
    s = to_build(new_state(zoo, {}, rules=Rules(feed_new_cities=feed), cash=50), action="urbanization")
    s.apply(Urbanize(H("E3"), "black"))
    s.fed = set(zoo.board.cities)  # every printed animal area fed
    assert s.is_cleared() == (not feed)


def test_complex_tiles_is_a_named_reading_defaulting_to_the_base_rules():
    r = BY_NAME["complex-tiles"]
    assert r.field == "complex_tiles" and r.default == "allowed" and Rules().complex_tiles is True
    assert make_rules("zoo", ["complex-tiles=refused"]).complex_tiles is False
    assert "all base rules apply" in r.quote


# -- answers, plans and check-plan state their readings --------------------------------------

def test_answer_json_states_every_reading_and_marks_the_ones_changed(run_cli):
    r = run_cli("easter-island", "--instance", TINY_ISLAND, "-d", "easy", "--seed", "2", "--time-limit", "5",
                "--reading", "rapa-nui-remnant=refused", "--strict-action", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    got = {d["name"]: (d["value"], d["default"]) for d in data["readings"]}
    assert got == {"strict-action": ("on", False), "bag": ("no-purple", True),
                   "rapa-nui-remnant": ("refused", False), "complex-tiles": ("allowed", True),
                   "idle-actions": ("refused", True), "clear-and-under": ("lost", True), "incomplete-track": ("kept", True),
                   "complex-tile-set": ("assumed", True), "track-into-side": ("refused", True),
                   "end-of-game": ("at-clear", True)}
    assert "readings_line" not in data  # JSON carries the readings as data, not as pre-rendered text


def test_bad_reading_on_the_command_line_exits_2_naming_the_allowed_values(run_cli, tmp_path):
    r = run_cli("zoo", "--instance", TINY_ZOO, "--reading", "zoo-exits=open", "--plan-out", tmp_path / "p.json")
    assert r.code == 2 and r.out == ""
    assert readable("reading 'zoo-exits' has no value 'open' (allowed: literal, stops)") in r.err
    assert not (tmp_path / "p.json").exists()
    r = run_cli("easter-island", "--instance", TINY_ISLAND, "--reading", "strict-action")
    assert r.code == 2 and "expected NAME=VALUE" in r.err
    r = run_cli("easter-island", "--instance", TINY_ISLAND, "--strict-action", "--reading", "strict-action=off")
    assert r.code == 2 and "the reading strict-action is given twice, as on (by an older flag) and as off" in r.err


def test_plan_files_name_their_readings_and_check_plan_replays_under_them(run_cli, tmp_path):
    # A plan that turns a single-cube remnant: legal under the default, illegal under the plan's reading.
    plan = {"format": "aos-solve-plan/1", "map": "Tiny Island", "difficulty": "easy",
            "setup": {"Red 1": ["red", "blue"], "Blue 1": ["red"]},
            "rounds": [{"shares": 0, "action": "rapa-nui", "target": "C1", "build": [], "ship": []}]}
    (tmp_path / "default.json").write_text(json.dumps(plan))
    (tmp_path / "refused.json").write_text(json.dumps({**plan, "readings": {"rapa-nui-remnant": "refused"}}))
    ok = run_cli("check-plan", TINY_ISLAND, tmp_path / "default.json")
    assert ok.code == 0, ok.out
    bad = run_cli("check-plan", TINY_ISLAND, tmp_path / "refused.json")
    assert bad.code == 1 and "single-cube remnant" in bad.out
    assert "rapa-nui-remnant=refused*  (default: allowed)" in bad.out
    again = run_cli("check-plan", TINY_ISLAND, tmp_path / "default.json", "--reading", "rapa-nui-remnant=refused")
    assert again.code == 1 and "replayed under readings given on the command line instead of the plan's" in again.out
    # An older plan with a purple cube loads under --reading bag=full (the setup is checked against that bag).
    purple = {**plan, "setup": {"Red 1": ["red", "purple"], "Blue 1": ["red"]}, "rounds": []}
    (tmp_path / "purple.json").write_text(json.dumps(purple))
    refused = run_cli("check-plan", TINY_ISLAND, tmp_path / "purple.json")
    assert refused.code == 2 and "under the reading bag=no-purple" in refused.err
    assert run_cli("check-plan", TINY_ISLAND, tmp_path / "purple.json", "--reading", "bag=full").code == 0


def test_a_written_plan_names_every_reading_and_its_round_limit(run_cli, tmp_path):
    out = tmp_path / "plan.json"
    r = run_cli("easter-island", "--instance", TINY_ISLAND, "-d", "easy", "--setup",
                INSTANCES.parent / "tests" / "data" / "tiny-island-setup.toml", "--time-limit", "10",
                "--reading", "bag=full", "--plan-out", out, "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["plan_file"]["written"] is True
    written = json.loads(out.read_text())
    assert written["readings"] == {"strict-action": "off", "bag": "full", "rapa-nui-remnant": "allowed",
                                   "complex-tiles": "allowed", "idle-actions": "refused", "clear-and-under": "lost", "incomplete-track": "kept",
        "complex-tile-set": "assumed", "track-into-side": "refused", "end-of-game": "at-clear"}
    assert written["round_limit"] == 12


# -- assumptions an answer depends on --------------------------------------------------------

def test_a_proof_from_the_bag_lists_the_bag_and_not_the_round_track(run_cli):
    # Seed 1 of Hard from the full bag holds purple cubes: proved not clearable without search.
    r = run_cli("easter-island", "-d", "hard", "--seed", "1", "--reading", "bag=full", "--time-limit", "5", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["verdict"] == "not clearable" and "purple" in data["impossible"][0]
    keys = [a["key"] for a in data["assumed_values"]]
    assert "reading bag=full" in keys
    assert "scenario.rounds" not in keys and "scenario.actions" not in keys and "scenario.bag" not in keys


def test_a_plan_depends_on_the_round_track_and_the_actions(run_cli):
    r = run_cli("easter-island", "--instance", TINY_ISLAND, "-d", "easy", "--setup",
                INSTANCES.parent / "tests" / "data" / "tiny-island-setup.toml", "--time-limit", "10", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    keys = [a["key"] for a in data["assumed_values"]]
    assert data["verdict"] == "clearable"
    assert "scenario.rounds" in keys and "scenario.actions" in keys
    assert "scenario.bag" not in keys  # the cubes came from a file, not from the bag


def test_assumptions_used_filters_by_the_keys_a_computation_read():
    from solver.board.provenance import Provenance, assumptions_used
    entries = [Provenance("map_rules.rada", "assumed", "x"), Provenance("towns[0]", "assumed", "y"),
               Provenance("towns_extra", "assumed", "z"), Provenance("scenario.rounds", "rule-sheet", "q")]
    assert [p.key for p in assumptions_used(entries, {"towns"})] == ["towns[0]"]
    assert [p.key for p in assumptions_used(entries, {"map_rules"})] == ["map_rules.rada"]
    assert [p.key for p in assumptions_used(entries, None)] == ["map_rules.rada", "towns[0]", "towns_extra"]
    assert assumptions_used(entries, {"scenario"}) == []  # only assumed entries are listed


def test_rules_dataclass_replace_keeps_the_other_readings():
    r = dataclasses.replace(Rules(), bag="full")
    assert stated_names(r, "easter-island")["bag"] == "full" and r.rapa_nui_remnant is True


# -- batches under several readings ------------------------------------------------------------

def test_batch_runs_the_same_seeds_under_each_reading_set_and_resumes_by_seed_and_set(run_cli, tmp_path):
    from solver.batch.runner import load_results
    out = tmp_path / "run"
    base = ["batch", "easter-island", "--instance", TINY_ISLAND, "--difficulty", "easy", "--seeds", "1-2",
            "--time-limit", "5", "--workers", "1", "-q", "--out", out]
    assert run_cli(*base, "--readings", "default").code == 0
    first = load_results(out / "results.jsonl")
    assert sorted(first) == ["easter-island/easy/1/default", "easter-island/easy/2/default"]
    # Adding a reading set resumes the folder: the default solves are not redone.
    r = run_cli(*base, "--readings", "default,strict-action=on", "--readings", "rapa-nui-remnant=refused")
    assert r.code == 0, r.err
    recs = load_results(out / "results.jsonl")
    assert len(recs) == 6 and all(recs[k] == first[k] for k in first)
    rec = recs["easter-island/easy/1/strict-action=on"]
    assert rec["reading_set"] == "strict-action=on"
    assert rec["readings"] == {"strict-action": "on", "bag": "no-purple", "rapa-nui-remnant": "allowed",
                               "complex-tiles": "allowed", "idle-actions": "refused", "clear-and-under": "lost", "incomplete-track": "kept",
        "complex-tile-set": "assumed", "track-into-side": "refused", "end-of-game": "at-clear"}
    assert recs["easter-island/easy/1/default"]["setup"] == rec["setup"]  # the same seed, the same cubes
    assert json.loads((out / "run.json").read_text())["reading_sets"] == [
        "default", "strict-action=on", "rapa-nui-remnant=refused"]
    assert run_cli("report", out).code == 0
    md = (out / "report.md").read_text()
    assert "**Default reading** (the designer's answers where the translator recorded them; solver/engine/readings.py): " \
           "bag=no-purple, clear-and-under=lost, complex-tile-set=assumed, complex-tiles=allowed, end-of-game=at-clear, " \
           "idle-actions=refused, incomplete-track=kept, " \
           "rapa-nui-remnant=allowed, strict-action=off, track-into-side=refused." in md
    table = [line for line in md.splitlines() if line.startswith("| ")]
    assert table[0].startswith("| reading set | setups | clearable (95% CI) |")
    assert [row.split(" | ")[0] for row in table[2:5]] == ["| **default**", "| rapa-nui-remnant=refused",
                                                           "| strict-action=on"]
    report = json.loads((out / "report.json").read_text())
    assert [row["reading_set"] for row in report["tables"][0]["rows"]] == [
        "default", "rapa-nui-remnant=refused", "strict-action=on"]


def test_batch_readings_are_checked_before_anything_runs(run_cli, tmp_path):
    r = run_cli("batch", "zoo", "--seeds", "1", "--out", tmp_path / "z", "--readings", "default,exit-pairs=loose")
    assert r.code == 2 and readable("reading 'exit-pairs' has no value 'loose' (allowed: designer, strict)") in r.err
    assert not (tmp_path / "z").exists()
    r = run_cli("batch", "desert", "--seeds", "1", "--out", tmp_path / "d", "--readings", "bag=full")
    assert r.code == 2 and "no readings" in r.err
