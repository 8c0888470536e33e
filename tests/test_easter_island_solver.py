"""The Easter Island solver: proofs, minimum rounds, and plans the referee accepts."""
import json
from solver.report.words import readable

import pytest

from solver.solo.easter_island import analyse
from solver.solo.proofs.counting import island_rounds_bound as rounds_lower_bound
from solver.engine.plan import plan_from_json, replay
from solver.solo.settings import SolveParams
from solver.engine.state import Rules
from tests.conftest import INSTANCES
from tests.helpers import H, instance

TINY_SETUP = {H("A1"): ["red", "blue"], H("C1"): ["red"]}
QUICK = SolveParams(workers=1, deterministic_time=1.0)  # CP-SAT kept short in tests


def referee_clears(inst, answer) -> int:
    """Round in which the referee sees the plan clear (replayed from its JSON)."""
    plan = plan_from_json(json.loads(json.dumps(answer.plan.to_json(inst))), inst)
    result = replay(inst, plan)
    assert result.error is None, result.error
    return result.state.cleared_round


def test_tiny_island_is_cleared_in_the_two_rounds_worked_out_on_paper():
    # Round 1: track A1-B1-C1 and C1-D1-E1, blue A1->C1, red C1->E1; round 2: red A1->C1->E1.
    # Three cubes at two shipments a round cannot be done in one round.
    inst = instance("tiny/tiny-island.toml")
    answer = analyse(inst, "easy", TINY_SETUP, time_limit=30)
    assert answer.verdict == "clearable"
    assert answer.lower_bound == 2 and answer.upper_bound == 2 and answer.min_rounds_proved
    assert referee_clears(inst, answer) == 2


def test_too_few_rounds_is_proved_not_clearable():
    inst = instance("tiny/tiny-island.toml")
    answer = analyse(inst, "easy", TINY_SETUP, rounds=1, time_limit=30)
    assert answer.verdict == "not clearable" and "at least 2 rounds" in answer.verdict_proof
    assert answer.plan is None


def test_a_ruin_cut_off_by_impassable_sides_is_proved_not_clearable(tmp_path):
    text = (INSTANCES / "tiny/tiny-island.toml").read_text()
    walls = "".join(f'\n[[impassable]]\nbetween = ["E1", "{h}"]\nsource = "assumed"\nreason = "test wall"\n'
                    for h in ("D1", "D2", "E2"))
    text = text.replace("[scenario]", walls + "\n[scenario]", 1)
    path = tmp_path / "cut.toml"
    path.write_text(text)
    from solver.games import load_instance
    inst = load_instance(path)
    answer = analyse(inst, "easy", TINY_SETUP, time_limit=30)
    assert answer.verdict == "not clearable"
    assert any("cannot all be joined" in r for r in answer.impossible)


def test_a_cube_with_no_city_of_its_colour_is_reported_plainly():
    inst = instance("tiny/tiny-island.toml")
    answer = analyse(inst, "easy", {H("A1"): ["red", "purple"], H("C1"): ["red"]}, time_limit=30)
    assert answer.verdict == "not clearable"
    assert answer.impossible == ["the purple cube on Red 1 (A1) can never be delivered: "
                                 "the board has no purple city and no purple new city tile is in play"]


def test_a_cube_whose_only_city_is_its_own_cannot_be_delivered():
    inst = instance("tiny/tiny-island.toml")
    answer = analyse(inst, "easy", {H("A1"): ["red", "red"], H("C1"): ["blue"]}, time_limit=30)
    assert answer.verdict == "not clearable"
    assert "no other blue city" in answer.impossible[0]


def test_lower_bound_counts_shipments_and_tiles():
    inst = instance("easter-island.toml")
    setup = {h: ["red"] * n for h, n in inst.difficulties["hard"].cubes.items()}
    lower, reasons = rounds_lower_bound(inst, setup, tiles_bound=0)
    assert lower == 10  # 20 cubes, two shipments a round
    lower, _ = rounds_lower_bound(inst, setup, tiles_bound=60)
    assert lower == 19  # 3 tiles a round, 4 in Engineer rounds (one in four): 18 rounds give 54 + 5 = 59 < 60


# Fixed setups drawn from the default bag (no purple cubes: the reading bag=no-purple),
# solved with the narrowest beam so the answer does not depend on the machine's speed.
NO_PURPLE = "red=20,blue=20,yellow=20,black=16"
FIXED = {"easy": 2, "normal": 5, "hard": 5}


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_each_difficulty_fixed_setup_plan_passes_the_referee_and_meets_the_bound(difficulty):
    from solver.engine.setup import draw_setup, parse_bag
    inst = instance("easter-island.toml")
    setup = draw_setup(inst, difficulty, FIXED[difficulty])
    assert setup == draw_setup(inst, difficulty, FIXED[difficulty], parse_bag(NO_PURPLE))
    answer = analyse(inst, difficulty, setup, time_limit=120, beam_width=2, polish_width=0, params=QUICK)
    assert answer.verdict == "clearable"
    # The bound is computed without the search: cubes per round and tiles per round.
    cubes = sum(len(c) for c in setup.values())
    assert answer.lower_bound == -(-cubes // 2)
    assert answer.upper_bound == answer.lower_bound and answer.min_rounds_proved
    assert referee_clears(inst, answer) == answer.lower_bound


def test_cli_plan_out_is_accepted_by_check_plan(run_cli, tmp_path):
    plan_path = tmp_path / "plan.json"
    res = run_cli("easter-island", "--difficulty", "easy", "--seed", FIXED["easy"],  # the default bag: no purple
                  "--work", "5000", "--cp-time", "1", "--json", "--plan-out", plan_path)
    assert res.code == 0, res.err
    data = json.loads(res.out)
    assert data["verdict"] == "clearable" and data["plan"] is not None
    check = run_cli("check-plan", INSTANCES / "easter-island.toml", plan_path, "--json")
    assert check.code == 0, check.out
    assert json.loads(check.out)["cleared_round"] == data["rounds_upper_bound"]
    assert "scenario.bag" in [a["key"] for a in data["assumed_values"]]  # the cubes came from the assumed bag
    assert data["plan_file"] == {"path": str(plan_path), "written": True}


def test_bag_option_is_an_alias_of_the_bag_reading(run_cli):
    res = run_cli("easter-island", "--difficulty", "easy", "--seed", "3", "--bag", "red=20,blue=20,yellow=20,"
                  "purple=20,black=16", "--time-limit", "5", "--json")
    again = run_cli("easter-island", "--difficulty", "easy", "--seed", "3", "--reading",
                    "bag=black=16,blue=20,purple=20,red=20,yellow=20", "--time-limit", "5", "--json")
    assert res.code == again.code == 0, res.err + again.err
    a, b = json.loads(res.out), json.loads(again.out)
    assert a["setup"] == b["setup"]
    assert [(d["name"], d["value"], d["default"]) for d in a["readings"] if d["name"] == "bag"] == [
        ("bag", "full", False)]  # the full base bag, under its name
    assert "reading bag=full" in [x["key"] for x in a["assumed_values"]]


def test_strict_action_reading_pays_an_action_every_round():
    inst = instance("tiny/tiny-island.toml")
    answer = analyse(inst, "easy", TINY_SETUP, Rules(strict_action=True), time_limit=30)
    if answer.plan is not None:
        assert all(r.action is not None for r in answer.plan.rounds)
        assert referee_clears(inst, answer) == answer.upper_bound


@pytest.mark.parametrize("args, message", [
    (["--rounds", "0"], "--rounds"),
    (["--difficulty", "impossible"], "unknown difficulty"),
    (["--seed", "1", "--setup", "x.toml"], "either --seed or --setup"),
    (["--bag", "green=3"], "COLOUR=COUNT"),
])
def test_impossible_options_exit_2(run_cli, args, message):
    res = run_cli("easter-island", *args)
    assert res.code == 2
    assert message in res.err and "Traceback" not in res.err


def test_setup_file_naming_a_missing_ruin_exits_2(run_cli, tmp_path):
    bad = tmp_path / "setup.toml"
    bad.write_text('[setup]\n"Green 9" = ["red", "blue"]\n')
    res = run_cli("easter-island", "--difficulty", "easy", "--setup", bad)
    assert res.code == 2 and readable("'Green 9' is not a stop") in res.err


def test_malformed_setup_file_exits_2(run_cli, tmp_path):
    bad = tmp_path / "setup.toml"
    bad.write_text('[setup\n"Red 3" = ["red"]\n')
    res = run_cli("easter-island", "--difficulty", "easy", "--setup", bad)
    assert res.code == 2 and "not valid TOML" in res.err


def test_beam_tries_another_black_town_when_the_first_misses_the_bound():
    # Easy seed 5: the first-ranked town (I2) gives a 9-round plan; the cheaper network through F5
    # meets the counting bound of 8 rounds. The answer must come from the variant, replayed.
    from solver.engine.readings import make_rules
    from solver.engine.scenario import Scenario
    from solver.engine.setup import draw_setup
    inst = instance("easter-island.toml")
    rules = make_rules("easter-island", [])
    setup = draw_setup(inst, "easy", 5, rules=rules)
    # the beam alone (economy_width=0): the plan optimizer would meet the bound before the beam ran
    answer = analyse(Scenario(inst, "easy", setup, rules, seed=5), budget=10000,
                     params=SolveParams(plan_time=0, economy_width=0), relax=False)
    variants = answer.search.beam_variants
    assert variants[0]["town"] == "I2" and variants[0]["rounds"] == 9
    assert answer.search.beam_rounds == 9  # the first target alone: the benchmark's baseline
    assert answer.lower_bound == 8 and answer.upper_bound == 8 and answer.min_rounds_proved
    assert answer.search.black_new_city_town == "F5"
    assert referee_clears(inst, answer) == 8
    # the text report says which variant gave the plan
    from solver.report.solo_report import answer_json, answer_text
    text = answer_text(answer_json(answer), inst, rules, verbose=True)
    assert "beam variants run after the first beam missed the bound: 1; shorter plans from town F5" in text
