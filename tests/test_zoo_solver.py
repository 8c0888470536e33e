"""The Zoo solver (solver/solo/zoo.py, `aos-solve zoo`): answers worked out on paper, proofs, bad input."""
import json
from solver.report.words import readable

import pytest

from solver.engine.setup import draw_setup
from solver.engine.state import Rules
from solver.solo.zoo import analyse, relaxed_needs, unfeedable_areas
from solver.solo.proofs.counting import zoo_rounds_bound as rounds_lower_bound
from tests.conftest import ROOT
from tests.helpers import H, instance

TINY = ROOT / "instances" / "tiny" / "tiny-zoo.toml"
DANGER = ROOT / "instances" / "tiny" / "tiny-zoo-danger.toml"
LOCKED = ROOT / "instances" / "tiny" / "tiny-zoo-locked.toml"


def test_tiny_zoo_minimum_is_3_rounds_and_the_plan_passes_check_plan(run_cli, tmp_path):
    # On paper: 5 animal areas, one feeding each, 2 shipments a round -> at least 3 rounds;
    # tests/plans/tiny-zoo-cleared.json clears in 3, so the minimum is 3.
    plan = tmp_path / "plan.json"
    r = run_cli("zoo", "--instance", TINY, "--json", "--plan-out", plan, "--time-limit", "20")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["verdict"] == "clearable"
    assert data["min_rounds"] == 3 and data["min_rounds_proved"] is True
    assert data["rounds_lower_bound"] == 3
    assert data["network"]["status"] == "optimal" and data["network"]["cost"] == 16  # 4 plain tiles at $4
    fed = set()
    for row in data["rounds"]:
        for ship in row["ship"]:
            if isinstance(ship, dict):
                assert {"route", "links", "locomotive_needed", "teleport", "discount", "newly_fed"} <= set(ship)
                fed.add(ship["to"])
    assert fed == {"A1", "C1", "E1", "G1", "I1"}
    check = run_cli("check-plan", TINY, plan)
    assert check.code == 0 and "legal plan: cleared in round 3" in check.out


def test_a_danger_board_needs_2_rounds_although_2_areas_fit_in_1():
    # On paper (instances/tiny/tiny-zoo-danger.toml): each danger-3 area is fed from the other, which needs
    # locomotive 3 (2 with the Feeding discount); round 1 can feed only one of them.
    inst = instance("tiny/tiny-zoo-danger.toml")
    setup = draw_setup(inst, "standard", 1)
    needs = relaxed_needs(inst, setup, Rules())
    assert needs.into[H("A1")] == (3, 2) and needs.out_of[H("C1")] == (3, 2)
    lower, reasons = rounds_lower_bound(inst, setup, Rules(), needs)
    assert lower == 2 and "at least 2 rounds" in reasons[-1]
    answer = analyse(inst, "standard", setup, time_limit=20)
    assert answer.verdict == "clearable" and answer.upper_bound == 2 and answer.min_rounds_proved


def test_an_area_behind_a_danger_above_the_largest_locomotive_is_not_clearable(run_cli):
    r = run_cli("zoo", "--instance", LOCKED, "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["verdict"] == "not clearable" and data["plan"] is None and data["min_rounds"] is None
    penguin = [p for p in data["impossible"] if p.startswith("Penguin")]
    assert penguin and "locomotive 5 or more (4 with the Feeding discount of 1)" in penguin[0]
    assert "largest locomotive 3" in penguin[0]
    text = run_cli("zoo", "--instance", LOCKED)
    assert "NOT CLEARABLE" in text.out and "proof without search" in text.out


def test_an_area_no_track_can_reach_is_not_clearable(tmp_path):
    src = LOCKED.read_text().replace('picture = """\n. . . . .\n"""', 'picture = """\n. . . w .\n"""')
    path = tmp_path / "walled.toml"
    path.write_text(src)
    from solver.games import load_instance
    inst = load_instance(path)
    setup = draw_setup(inst, "standard", 1)
    needs = relaxed_needs(inst, setup, Rules())
    reasons = unfeedable_areas(inst, setup, Rules(), needs)
    assert any(r.startswith("Penguin (E1) can never be fed: no track can be laid next to it") for r in reasons)


def test_a_round_limit_below_the_bound_is_not_clearable_with_proof(run_cli):
    r = run_cli("zoo", "--instance", TINY, "--rounds", "2", "--json")
    data = json.loads(r.out)
    assert data["verdict"] == "not clearable"
    assert "at least 3 rounds are needed" in data["verdict_proof"] and "round limit is 2" in data["verdict_proof"]


def test_the_zoo_board_bounds_without_search():
    inst = instance("zoo.toml")
    setup = draw_setup(inst, "standard", 1)
    for rules in (Rules(), Rules(strict_exits=True)):
        needs = relaxed_needs(inst, setup, rules)
        assert unfeedable_areas(inst, setup, rules, needs) == []
        assert rounds_lower_bound(inst, setup, rules, needs)[0] == 5  # 10 areas, 2 a round
        assert needs.out_of[H("F5")] == (6, 5)  # food from the danger-6 lion: 5 with the discount


def test_readings_and_switches_are_printed(run_cli):
    r = run_cli("zoo", "--instance", TINY, "--no-literal-areas", "--strict-exits", "--time-limit", "10")
    assert r.code == 0, r.err
    assert "feed-new-cities=off*  (default: on): only the printed animal areas must be fed" in r.out
    assert "exit-pairs=strict*  (default: designer): at most one teleport, and food entering an exit must " \
           "teleport there" in r.out
    assert "round limit: 10" in r.out and "starting money: $10 cash" in r.out
    assert "Minimum rounds to clear: 3 (proved" in r.out
    d = run_cli("zoo", "--instance", TINY, "--time-limit", "10")
    assert "feed-new-cities=on: urbanized towns are animal areas and must be fed too" in d.out
    assert "exit-pairs=designer: at most one teleport per shipment; food may pass other exits" in d.out


def test_svg_shows_exits_and_teleports(run_cli, tmp_path):
    svg = tmp_path / "zoo.svg"
    r = run_cli("zoo", "--instance", TINY, "--svg", svg, "--time-limit", "10")
    assert r.code == 0, r.err
    text = svg.read_text()
    assert text.count(">EXIT<") == 2
    if "~" in r.out:
        assert 'stroke-dasharray="3 3"' in text  # a teleport hop is drawn dashed


def test_setup_file_with_counts(run_cli, tmp_path):
    setup = tmp_path / "food.toml"
    setup.write_text('Three = 2\nTwo = 2\nFour = 2\nLion = 2\nOne = ["red", "blue"]\n')
    r = run_cli("zoo", "--instance", TINY, "--setup", setup, "--json", "--time-limit", "10")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["seed"] is None and all(len(v) == 2 for v in data["setup"].values())
    assert data["min_rounds"] == 3


@pytest.mark.parametrize("content, message", [
    ('Three = 2\nTwo = 2\nFour = 2\nLion = 2\nRhino = 2\n', "'Rhino' is not an animal area of Tiny Zoo"),
    ('Three = 2\nTwo = 2\nFour = 2\nLion = 2\nTown = 2\n', "'Town' is not an animal area of Tiny Zoo (an exit or a town)"),
    ('Three = 3\nTwo = 2\nFour = 2\nLion = 2\nOne = 2\n', "3 pieces of food on Three (A1), but the sheet places 2"),
    ('Three = -1\nTwo = 2\nFour = 2\nLion = 2\nOne = 2\n', "cannot be negative"),
    ('Three = 1\nTwo = 2\nFour = 2\nLion = 2\nOne = 2\n', "Three (A1) holds 2 cube(s) in standard, the setup gives 1"),
    ('Three = "lots"\n', "expected a number of pieces of food"),
    ('Three = 2\nTwo = [\n', "not valid TOML"),
])
def test_bad_setup_is_exit_2(run_cli, tmp_path, content, message):
    setup = tmp_path / "food.toml"
    setup.write_text(content)
    r = run_cli("zoo", "--instance", TINY, "--setup", setup)
    assert r.code == 2
    assert readable(message) in r.err and r.err.count("\n") == 1


def test_negative_danger_is_exit_2(run_cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(TINY.read_text().replace("danger = 6", "danger = -6"))
    r = run_cli("zoo", "--instance", bad)
    assert r.code == 2 and "a danger level must be a whole number 0 or more, got -6" in r.err


def test_other_bad_input_is_exit_2(run_cli, tmp_path):
    setup = tmp_path / "food.toml"
    setup.write_text("Three = 2\n")
    assert run_cli("zoo", "--instance", TINY, "--seed", "1", "--setup", setup).code == 2
    r = run_cli("zoo", "--instance", ROOT / "instances" / "easter-island.toml")
    assert r.code == 2 and "not the Zoo" in r.err
    r = run_cli("zoo", "--instance", TINY, "--plan-out", tmp_path / "missing" / "p.json", "--rounds", "2")
    assert r.code == 2
