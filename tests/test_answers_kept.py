"""Answers are not lost or distorted: --plan-out without a plan, --rounds beyond the round track, the polish
pass, and check-plan's round (issue 11, item 5). Each test failed before its fix."""
import json
import re

from solver.solo.easter_island import analyse
from solver.engine.plan import plan_from_json, replay
from solver.solo.round_search import Node
from tests.conftest import INSTANCES, ROOT
from tests.helpers import H, instance

TINY_ISLAND = INSTANCES / "tiny" / "tiny-island.toml"
SETUP = {H("A1"): ["red", "blue"], H("C1"): ["red"]}
CLEARED = ROOT / "tests" / "plans" / "tiny-island-cleared.json"


def unclearable_setup(tmp_path):
    """A yellow cube on an island without a yellow city: proved not clearable without search."""
    path = tmp_path / "setup.toml"
    path.write_text('[setup]\n"Red 1" = ["red", "yellow"]\n"Blue 1" = ["red"]\n')
    return path


def one_round_island(tmp_path):
    """The tiny island with a round track of 1 round (it needs 2 to clear)."""
    text = TINY_ISLAND.read_text()
    text, n = re.subn(r"^rounds = \{ value = 12,", "rounds = { value = 1,", text, flags=re.M)
    assert n == 1
    path = tmp_path / "one-round-island.toml"
    path.write_text(text)
    return path


def test_plan_out_without_a_plan_prints_the_verdict_writes_nothing_and_exits_0(run_cli, tmp_path):
    out = tmp_path / "plan.json"
    r = run_cli("easter-island", "--instance", TINY_ISLAND, "-d", "easy", "--setup", unclearable_setup(tmp_path),
                "--time-limit", "5", "--plan-out", out)
    assert r.code == 0, r.err
    assert "Verdict within 12 rounds: NOT CLEARABLE" in r.out
    assert f"No plan written to {out}: the answer is not clearable, so there is no plan." in r.out
    assert not out.exists()
    r = run_cli("easter-island", "--instance", TINY_ISLAND, "-d", "easy", "--setup", unclearable_setup(tmp_path),
                "--time-limit", "5", "--plan-out", out, "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["verdict"] == "not clearable"
    assert data["plan_file"] == {"path": str(out), "written": False,
                                 "why": "the answer is not clearable: there is no plan to write"}
    assert not out.exists()


def test_rounds_above_the_round_track_are_honoured_by_the_solver_and_the_referee(run_cli, tmp_path):
    board = one_round_island(tmp_path)
    inst = instance(board)
    answer = analyse(inst, "easy", SETUP, rounds=3, time_limit=20)
    assert answer.verdict == "clearable" and answer.upper_bound == 2 and answer.round_limit == 3
    plan_json = answer.plan.to_json(inst)
    assert plan_json["round_limit"] == 3  # the plan file records the limit it was made for
    assert replay(inst, plan_from_json(plan_json, inst)).state.cleared_round == 2
    # Under the board's own round track the same plan runs out of rounds.
    short = replay(inst, plan_from_json({**plan_json, "round_limit": None}, inst))
    assert short.error == "round 2: the game is already over (the round limit was reached)"
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan_json))
    r = run_cli("check-plan", board, path)
    assert r.code == 0 and r.out.startswith("legal plan: cleared in round 2"), r.out


def test_the_polish_pass_updates_the_round_count_and_the_proof(monkeypatch):
    """When the second (polish) search finds a plan in fewer rounds, the answer reports that plan's rounds."""
    import solver.solo.easter_island as ei
    inst = instance("tiny/tiny-island.toml")
    two = plan_from_json(json.loads(CLEARED.read_text()), inst).rounds
    r1, r2 = json.loads(CLEARED.read_text())["rounds"]
    three_rounds = {**json.loads(CLEARED.read_text()), "rounds": [
        {**r1, "ship": [r1["ship"][0], "pass"]}, {**r2, "ship": [r1["ship"][1], "pass"]},
        {**r2, "build": []}]}
    three = plan_from_json(three_rounds, inst).rounds
    assert replay(inst, plan_from_json(three_rounds, inst)).state.cleared_round == 3

    def fake_run(self, max_rounds, start=None):
        return Node(None, list(two if self.beam_width == 5 else three))

    monkeypatch.setattr(ei._Planner, "run", fake_run)
    answer = analyse(inst, "easy", SETUP, time_limit=20, polish_width=5)
    cleared = replay(inst, answer.plan).state.cleared_round
    assert cleared == 2
    assert answer.upper_bound == cleared and answer.lower_bound == 2 and answer.min_rounds_proved
    assert "round 2" in answer.verdict_proof


def test_check_plan_text_and_json_agree_on_the_round(run_cli):
    illegal = ROOT / "tests" / "plans" / "illegal" / "tiny-island" / "non-top-cube.json"
    for plan in (CLEARED, illegal):
        text = run_cli("check-plan", TINY_ISLAND, plan).out.splitlines()[1]
        data = json.loads(run_cli("check-plan", TINY_ISLAND, plan, "--json").out)
        said = int(re.match(r"(?:after|stopped in) round (\d+):", text).group(1))
        assert data["end"]["round"] == said, (plan.name, text)
        assert data["round"] == said
        if data["legal"]:
            assert data["rounds"][-1]["round"] == said  # the last round played, as the text says
