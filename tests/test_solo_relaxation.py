"""The CP-SAT relaxation of the solo game proves what exhaustive search over the rules engine finds.

Each test establishes the truth on a tiny board by a plain breadth-first search over
GameState.legal_actions (memoised on the whole state), then asserts the solver proves
exactly that, with the proof source named. Boards: instances/tiny/tiny-island-locomotive.toml
(locomotive and blockers bind: true minimum 2 rounds, counting bound 1) and
instances/tiny/tiny-island-cash.toml (cash binds: not clearable, counting bound 1).
"""
from __future__ import annotations

import json

from solver.solo.easter_island import analyse
from solver.solo.proofs.counting import island_rounds_bound as rounds_lower_bound
from solver.solo.relaxation import game_spec, rounds_relaxation
from solver.solo.settings import SolveParams
from solver.engine.state import GameState, Rules
from tests.conftest import INSTANCES
from tests.helpers import H, instance

RED = {H("A1"): ["red"]}
PARAMS = SolveParams(workers=1, deterministic_time=5.0)


def earliest_clear(state: GameState, last_round: int) -> int | None:
    """Exhaustive over the engine alone (solver/solo/exhaustive.py): the earliest clearing round, or None."""
    from solver.solo.exhaustive import earliest_clear as exhaustive
    state = state.clone()
    state.round_limit = last_round
    truth = exhaustive(state)
    assert truth.settled
    return truth.earliest


def test_locomotive_and_blockers_put_the_minimum_above_the_counting_bound():
    inst = instance("tiny/tiny-island-locomotive.toml")
    truth = earliest_clear(GameState.new(inst, RED, Rules()), 3)
    assert truth == 2
    counting, _ = rounds_lower_bound(inst, RED, 4)
    assert counting == 1 < truth
    answer = analyse(inst, "easy", RED, Rules(), time_limit=30, budget=2000, params=PARAMS)
    assert answer.min_rounds_proved and answer.upper_bound == answer.lower_bound == truth
    assert answer.search.proof_source == "relaxation"


def test_cash_makes_a_setup_unclearable_that_the_counting_bound_allows():
    inst = instance("tiny/tiny-island-cash.toml")
    assert earliest_clear(GameState.new(inst, RED, Rules()), inst.scenario.rounds) is None
    counting, _ = rounds_lower_bound(inst, RED, 3)
    assert counting == 1
    answer = analyse(inst, "easy", RED, Rules(), time_limit=30, budget=2000, params=PARAMS)
    assert answer.verdict == "not clearable" and answer.plan is None
    assert answer.search.proof_source == "relaxation"


def test_relaxation_is_not_infeasible_where_a_plan_exists():
    # Soundness check: at the true minimum the relaxation must admit the plan (never INFEASIBLE).
    inst = instance("tiny/tiny-island-locomotive.toml")
    spec = game_spec(GameState.new(inst, RED, Rules()))
    raised, log = rounds_relaxation(spec, 1, 2, PARAMS, walk_up=True)
    asked = [{"rounds": e["rounds"], "relaxation": e["relaxation"]} for e in log]  # each also names its cp_time
    assert raised == 2 and asked[0] == {"rounds": 2, "relaxation": "feasible"}
    assert asked[-1] == {"rounds": 2, "relaxation": "feasible"} and asked[1] == {"rounds": 1, "relaxation": "infeasible"}


def test_complex_tiles_reading_keeps_the_relaxation_sound():
    # With complex tiles off the model is stricter; it must still admit the true minimum.
    inst = instance("tiny/tiny-island-locomotive.toml")
    spec = game_spec(GameState.new(inst, RED, Rules()))
    spec.complex_tiles = False
    raised, _ = rounds_relaxation(spec, 1, 2, PARAMS, walk_up=True)
    assert raised == 2


def _plan_cli(run_cli, tmp_path, board: str, *extra: str):
    setup = tmp_path / "setup.toml"
    setup.write_text('"Red 1" = ["red"]\n')
    out = tmp_path / "plan.json"
    res = run_cli("easter-island", "--instance", INSTANCES / board, "-d", "easy", "--setup", setup,
                  "--json", "--plan-out", out, "--work", "2000", "--cp-time", "5", *extra)
    return res, out


def test_every_printed_plan_passes_check_plan_and_names_its_proof(run_cli, tmp_path):
    res, out = _plan_cli(run_cli, tmp_path, "tiny/tiny-island-locomotive.toml")
    assert res.code == 0, res.err
    data = json.loads(res.out)
    assert data["min_rounds"] == 2 and data["proof_source"] == "relaxation"
    assert data["shares_bounds"]["lower_bound"] <= data["shares_bounds"]["upper_bound"]
    check = run_cli("check-plan", INSTANCES / "tiny/tiny-island-locomotive.toml", out, "--json")
    assert check.code == 0, check.out
    assert json.loads(check.out)["cleared_round"] == 2


def test_fewest_shares_bound_is_never_below_the_shares_already_issued(run_cli, tmp_path):
    # Shares are never bought back, so the shares issued at the start bound every plan's shares; where the plan
    # issues none beyond them that is a proof, printed as one ("proved"), and no slower engine is asked.
    start = instance("tiny/tiny-island-locomotive.toml").scenario.start_shares
    res, _ = _plan_cli(run_cli, tmp_path, "tiny/tiny-island-locomotive.toml")
    data = json.loads(res.out)
    bounds = data["shares_bounds"]
    assert bounds["lower_bound_source"] == "shares already issued" and bounds["relaxation"] == "not asked"
    assert bounds["lower_bound"] == start == bounds["upper_bound"] and bounds["proved"]
    assert data["shares_line"].startswith(f"Fewest shares at 2 rounds: {start}, proved (shares already issued")
    assert data["shares_line"] in res_text(run_cli, tmp_path)


def res_text(run_cli, tmp_path) -> str:
    """The text answer of the same command (the --json twin's shares line must be printed in it)."""
    setup = tmp_path / "setup.toml"
    res = run_cli("easter-island", "--instance", INSTANCES / "tiny/tiny-island-locomotive.toml", "-d", "easy",
                  "--setup", setup, "--work", "2000", "--cp-time", "5")
    assert res.code == 0, res.err
    return res.out


def test_same_command_same_answer(run_cli, tmp_path):
    first, _ = _plan_cli(run_cli, tmp_path, "tiny/tiny-island-locomotive.toml")
    second, _ = _plan_cli(run_cli, tmp_path, "tiny/tiny-island-locomotive.toml")
    a, b = json.loads(first.out), json.loads(second.out)
    for d in (a, b):
        d.pop("seconds")
        for clock in [k for k in d["search"] if k.endswith("_seconds")]:  # wall-clock times, nothing else
            d["search"].pop(clock)
    assert a == b


def test_from_a_mid_game_position_finishes_no_later(run_cli, tmp_path):
    res, out = _plan_cli(run_cli, tmp_path, "tiny/tiny-island-locomotive.toml")
    full = json.loads(out.read_text())
    prefix = dict(full, rounds=full["rounds"][:1])
    path = tmp_path / "prefix.json"
    path.write_text(json.dumps(prefix))
    plan_out = tmp_path / "rest.json"
    again = run_cli("easter-island", "--instance", INSTANCES / "tiny/tiny-island-locomotive.toml", "--from", path,
                    "--json", "--plan-out", plan_out, "--work", "2000", "--cp-time", "5")
    assert again.code == 0, again.err
    data = json.loads(again.out)
    assert data["from_round"] == 2 and data["verdict"] == "clearable"
    assert data["rounds_upper_bound"] <= json.loads(res.out)["rounds_upper_bound"]
    check = run_cli("check-plan", INSTANCES / "tiny/tiny-island-locomotive.toml", plan_out, "--json")
    assert check.code == 0, check.out


def test_from_a_position_that_cannot_recover_is_proved_not_clearable(run_cli, tmp_path):
    # Round 1 spent doing nothing; round 2 is the last: 4 tiles need Engineer, 4 links need the
    # Locomotive action too. Exhaustive search agrees.
    inst = instance("tiny/tiny-island-locomotive.toml")
    state = GameState.new(inst, RED, Rules())
    from solver.engine.moves import EndBuild, IssueShares, Pass, SelectAction
    for move in (IssueShares(0), SelectAction(None), EndBuild(), Pass(), Pass()):
        state.apply(move)
    assert earliest_clear(state, 2) is None
    plan = {"format": "aos-solve-plan/1", "map": inst.board.name, "difficulty": "easy", "setup": {"A1": ["red"]},
            "rounds": [{"shares": 0, "action": None, "build": [], "ship": []}]}
    path = tmp_path / "idle.json"
    path.write_text(json.dumps(plan))
    res = run_cli("easter-island", "--instance", INSTANCES / "tiny/tiny-island-locomotive.toml", "--from", path,
                  "--rounds", "2", "--json", "--work", "2000", "--cp-time", "5")
    assert res.code == 0, res.err
    data = json.loads(res.out)
    assert data["verdict"] == "not clearable" and data["proof_source"] == "relaxation"


def test_from_an_illegal_prefix_is_refused(run_cli, tmp_path):
    plan = {"format": "aos-solve-plan/1", "map": "Tiny Island, locomotive", "difficulty": "easy",
            "setup": {"A1": ["red"]},
            "rounds": [{"shares": 0, "action": "engineer", "build": ["A1-B1-C1-D1-E1-F1-G1"], "ship": []}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(plan))
    res = run_cli("easter-island", "--instance", INSTANCES / "tiny/tiny-island-locomotive.toml", "--from", path)
    assert res.code == 2
    assert "not legal" in (res.out + res.err)


def test_zoo_from_a_mid_game_position_proves_its_minimum_with_the_relaxation(run_cli, tmp_path):
    # tiny-zoo: 3 rounds from the start (counting bound); after round 1 of that plan the counting bound
    # knows only "round 2", and the relaxation must prove that round 2 is too early.
    board = INSTANCES / "tiny/tiny-zoo.toml"
    plan = tmp_path / "plan.json"
    res = run_cli("zoo", "--instance", board, "--json", "--plan-out", plan, "--work", "2000", "--cp-time", "2")
    assert res.code == 0, res.err
    full = json.loads(plan.read_text())
    prefix = tmp_path / "prefix.json"
    prefix.write_text(json.dumps(dict(full, rounds=full["rounds"][:1])))
    rest = tmp_path / "rest.json"
    again = run_cli("zoo", "--instance", board, "--from", prefix, "--json", "--plan-out", rest, "--work", "2000",
                    "--cp-time", "2")
    assert again.code == 0, again.err
    data = json.loads(again.out)
    assert data["rounds_upper_bound"] <= json.loads(res.out)["rounds_upper_bound"]
    assert data["min_rounds"] == data["rounds_upper_bound"] and data["proof_source"] == "relaxation"
    check = run_cli("check-plan", board, rest, "--json")
    assert check.code == 0 and json.loads(check.out)["cleared_round"] == data["rounds_upper_bound"]


def test_batch_records_say_how_their_answer_was_proved():
    from solver.batch.scenarios import Mode, solo_batch_solve
    rec = solo_batch_solve("easter-island", "easy", 1, Mode(), instance=str(INSTANCES / "tiny/tiny-island-locomotive.toml"))
    assert "proof_source" in rec and "shares_lower_bound" in rec and "shares_proved" in rec
    assert (rec["proof_source"] is not None) == bool(rec["proved"])


def test_an_unproved_minimum_names_the_round_count_the_relaxation_left_open(run_cli, tmp_path):
    # "Proof or unknown": where the bounds do not meet, the answer says which round count is undecided and
    # whether more relaxation time could settle it (unknown) or not (the relaxation admits it).
    from solver.engine.readings import make_rules
    from solver.report.solo_report import answer_text
    res, _ = _plan_cli(run_cli, tmp_path, "tiny/tiny-island-locomotive.toml")
    data = json.loads(res.out)
    inst, rules = instance("tiny/tiny-island-locomotive.toml"), make_rules("easter-island", [])
    assert "not decided" not in answer_text(data, inst, rules)  # proved: nothing is left open
    for verdict, words in (("unknown", "may settle it"), ("feasible", "cannot raise the bound")):
        open_gap = dict(data, min_rounds_proved=False, min_rounds=None, rounds_lower_bound=1, bound_reasons=[],
                        search=dict(data["search"], relaxation=[{"rounds": 1, "relaxation": verdict}]))
        text = answer_text(open_gap, inst, rules)
        assert "Minimum rounds to clear: unknown, between 1 and 2" in text
        assert "not decided" in text and "round 1" in text and words in text


# -- rounds after the clear do not exist (issue 27) ------------------------------------------------------------

def _row_specs():
    """tiny-row (clears in round 1) as the issue found it, and with the real share limit and strict-action."""
    import dataclasses
    inst = instance("tiny/tiny-row.toml")
    spec = game_spec(GameState.new(inst, RED, Rules()))
    yield "as found", spec
    yield "15 shares, strict-action", dataclasses.replace(spec, max_shares=15, action_optional=False)


def test_rounds_after_the_clear_pay_nothing_so_the_relaxation_admits_every_round_count():
    # A plan that clears in round 1 clears by every later round: the relaxation must admit each R, or its
    # INFEASIBLE (a "not clearable" or a raised minimum) would be false.
    from solver.solo.relaxation import feasible_by
    for label, spec in _row_specs():
        for last in range(1, 9):
            assert feasible_by(spec, last, PARAMS) == "feasible", (label, last)


def test_zoo_rounds_after_the_clear_pay_nothing_so_the_relaxation_admits_every_round_count():
    from solver.solo.relaxation import feasible_by
    from solver.solo.zoo import potential_graph
    inst = instance("tiny/tiny-zoo-pair.toml")
    state = GameState.new(inst, {H("A1"): ["red", "red"], H("C1"): ["red", "red"]}, Rules())
    spec = game_spec(state, zoo_graph=potential_graph(inst, Rules()))
    for last in (1, 2, 6, 11, 12, 14):
        assert feasible_by(spec, last, PARAMS) == "feasible", last


def test_the_false_not_clearable_board_is_clearable_in_one_round_proved(run_cli, tmp_path):
    setup = tmp_path / "setup.toml"
    setup.write_text('"Red 1" = ["red"]\n')
    board = INSTANCES / "tiny/tiny-row.toml"
    # the issue's command: small budgets may leave it open, but never "not clearable"
    res = run_cli("easter-island", "--instance", board, "--setup", setup, "-d", "easy", "--rounds", "6",
                  "--work", "1", "--plan-cp-time", "0", "--json")
    assert res.code == 0, res.err
    assert json.loads(res.out)["verdict"] != "not clearable"
    res = run_cli("easter-island", "--instance", board, "--setup", setup, "-d", "easy", "--rounds", "6", "--json")
    data = json.loads(res.out)
    assert data["verdict"] == "clearable" and data["min_rounds_proved"] and data["min_rounds"] == 1
