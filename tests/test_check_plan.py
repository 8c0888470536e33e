"""`aos-solve check-plan`: the referee accepts legal plans and names the first illegal step of others.

The plans are hand-written files under tests/plans/ (each illegal one says in
its "comment" why it is illegal); the expected numbers were worked out on
paper from the tiny boards (tests/test_easter_island_rules.py explains them).
"""
from __future__ import annotations
from solver.report.words import readable

import json
import re
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.games import load_instance
from solver.engine.moves import EndBuild, IssueShares, Pass, SelectAction
from solver.engine.plan import load_plan, replay
from solver.engine.state import GameState, Rules
from tests.conftest import INSTANCES, ROOT
from tests.helpers import H, lay, ship

PLANS = ROOT / "tests" / "plans"
BOARDS = {
    "tiny-island": INSTANCES / "tiny" / "tiny-island.toml",
    "tiny-zoo": INSTANCES / "tiny" / "tiny-zoo.toml",
    "easter-island": INSTANCES / "easter-island.toml",
    "tiny-crossing": INSTANCES / "tiny" / "tiny-crossing.toml",
}


# -- legal plans -------------------------------------------------------------------

def test_tiny_island_plan_clears_in_round_2(run_cli):
    # Round 1: B1 $3 + D1 (mountain) $4 = $7, cash $3; ship blue A1->C1 and red C1->E1: income 2;
    #          expenses 2 shares + locomotive 2: cash 3 + 2 - 4 = $1.
    # Round 2: ship red A1->C1->E1 (2 links): income 4; cash 1 + 4 - 4 = $1. No cubes left, ruins joined.
    r = run_cli("check-plan", BOARDS["tiny-island"], PLANS / "tiny-island-cleared.json")
    assert r.code == 0, r.out + r.err
    lines = r.out.splitlines()
    assert lines[0] == "legal plan: cleared in round 2"
    assert lines[1] == "after round 2: cash $1, income 4, shares 2, locomotive 2, spent on track $7"
    assert lines[2] == "cubes left (bottom first): none"
    assert "Assumptions this answer depends on:" in r.out
    assert "scenario.rounds:" in r.out  # an assumed value of the tiny island
    assert "Readings of the rule sheets (* = not the default):" in r.out
    assert "  - strict-action=off: a round may select no action (and pay nothing)" in r.out


def test_easter_island_plan_plays_two_legal_rounds(run_cli):
    # Round 1: 2 shares ($20), D3 $3; red D2->C3 and red C3->D2: income 2; 17 + 2 - (4 + 2) = $13.
    # Round 2: Rapa Nui on G3: 13 - 8 + 5 = $10; red C3->D2: income 3; 10 + 3 - 6 = $7.
    r = run_cli("check-plan", BOARDS["easter-island"], PLANS / "easter-island-easy-two-rounds.json",
                "--difficulty", "easy")
    assert r.code == 0, r.out + r.err
    lines = r.out.splitlines()
    assert lines[0] == "legal plan: not cleared"
    assert lines[1] == "after round 2: cash $7, income 3, shares 4, locomotive 2, spent on track $3"
    # "cubes left (bottom first): Red 1 (D2): blue; ...": each stop named, its hex, its cubes bottom first
    left = {re.search(r"\((\w+)\)$", stop).group(1): cubes.split("/") for stop, cubes in
            (part.rsplit(": ", 1) for part in lines[2].removeprefix("cubes left (bottom first): ").split("; "))}
    assert left["G3"] == ["purple", "yellow"]  # Rapa Nui turned the moai upside down
    assert left["D2"] == ["blue"] and "C3" not in left
    assert sum(len(c) for c in left.values()) == 16 - 3


def test_tiny_zoo_plan_feeds_every_area_by_round_3(run_cli):
    # Round 1: Engineer, 4 tiles at $2; locomotive 2; food I1 ->I3~A3-> A1 (2 links, a teleport).
    # Round 2: a bonus tile from the exit use ($4) and one more ($4); Locomotive action (3); C1->E1, A1->C1.
    # Round 3: Feeding; I1->G1, then C1->A1->A3~I3->I1 with A1's danger 3 lowered to 2.
    r = run_cli("check-plan", BOARDS["tiny-zoo"], PLANS / "tiny-zoo-cleared.json")
    assert r.code == 0, r.out + r.err
    lines = r.out.splitlines()
    assert lines[0] == "legal plan: cleared in round 3"
    assert lines[1] == "after round 3: cash $8, income 7, shares 6, locomotive 3, spent on track $16"


def test_difficulty_option_must_match_the_plan(run_cli):
    r = run_cli("check-plan", BOARDS["tiny-island"], PLANS / "tiny-island-cleared.json", "--difficulty", "hard")
    assert r.code == 2
    assert readable("the plan is for difficulty 'easy', not 'hard'") in r.err


def test_json_output_matches_an_independent_replay(run_cli):
    r = run_cli("check-plan", BOARDS["tiny-island"], PLANS / "tiny-island-cleared.json", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["legal"] is True and data["error"] is None
    assert data["cleared"] is True and data["cleared_round"] == 2
    end = data["end"]
    assert (end["cash"], end["income"], end["shares"], end["locomotive"], end["spent_on_track"]) == (1, 4, 2, 2, 7)
    assert end["goods"] == {} and end["phase"] == "over" and end["lost"] is None
    # "round" is the round just played, as the text says "after round 2" (the marker is next_round)
    assert [(s["round"], s["next_round"], s["cash"], s["income"]) for s in data["rounds"]] == [(1, 2, 1, 2),
                                                                                               (2, 3, 1, 4)]
    assert data["rounds"][0]["goods"] == {"A1": ["red"]}
    assert {d["name"]: d["value"] for d in data["readings"]} == {
        "strict-action": "off", "bag": "no-purple", "rapa-nui-remnant": "allowed", "complex-tiles": "allowed",
        "idle-actions": "refused", "clear-and-under": "lost", "incomplete-track": "kept",
        "complex-tile-set": "assumed", "track-into-side": "refused", "end-of-game": "at-clear"}
    assert all(d["default"] for d in data["readings"])
    inst = load_instance(BOARDS["tiny-island"])
    # a replay reads every number of the board and scenario but no bag: the plan names its cubes
    assert [a["key"] for a in data["assumed_values"]] == [
        p.key for p in inst.assumptions() if p.key != "scenario.bag" and not p.key.startswith("difficulty.hard")]
    assert all(a["source"] == "assumed" and a["note"] for a in data["assumed_values"])

    # The same game played move by move on the engine, without the plan reader.
    s = GameState.new(inst, {H("A1"): ["red", "blue"], H("C1"): ["red"]}, Rules())
    s.apply(IssueShares(0))
    s.apply(SelectAction(None))
    lay(s, "A1-B1-C1", "C1-D1-E1")
    s.apply(EndBuild())
    s.apply(ship("A1", "blue", "A1-C1"))
    s.apply(ship("C1", "red", "C1-E1"))
    assert {**s.summary(), "round": 1, "next_round": s.round} == data["rounds"][0]
    s.apply(IssueShares(0))
    s.apply(SelectAction(None))
    s.apply(EndBuild())
    s.apply(ship("A1", "red", "A1-C1-E1"))
    s.apply(Pass())
    assert {**s.summary(), "round": 2, "next_round": s.round} == end


def test_json_output_of_an_illegal_plan(run_cli):
    r = run_cli("check-plan", BOARDS["tiny-island"], PLANS / "illegal" / "tiny-island" / "non-top-cube.json",
                "--json")
    assert r.code == 1
    data = json.loads(r.out)
    assert data["legal"] is False
    assert data["error"].startswith("round 1, 'ship A1 red A1-C1': only the top cube")
    assert data["cleared"] is False and data["rounds"] == []
    assert data["end"]["phase"] == "ship" and data["end"]["cash"] == 7  # B1 was built for $3


def test_a_plan_written_back_replays_the_same(tmp_path):
    inst = load_instance(BOARDS["tiny-zoo"])
    plan = load_plan(str(PLANS / "tiny-zoo-cleared.json"), inst)
    again = tmp_path / "again.json"
    again.write_text(json.dumps(plan.to_json(inst)))
    first, second = replay(inst, plan), replay(inst, load_plan(str(again), inst))
    assert first.error is None and second.error is None
    assert first.round_states == second.round_states


# -- illegal plans: exit 1, the first illegal step and why ---------------------------

ILLEGAL = [
    # (board, plan, round, reason)
    ("tiny-crossing", "third-track", 1, "B2 already holds a complex tile: a hex holds at most two tracks (a third "
     "track is refused)"),
    ("tiny-crossing", "complex-cost-exceeds-cash", 1,
     "the tile on B2 costs $5 but only $2 is in hand (plain $3 + crossing complex tile $2)"),
    ("tiny-crossing", "upgrade-to-non-crossing", 1, "the base rules allow upgrading a simple tile only to a crossing"),
    ("tiny-island", "tile-not-adjacent", 1, "A1 is not next to B2"),
    ("tiny-island", "tile-not-connected", 1, "new track on A2 must start at a stop or extend an incomplete track"),
    ("tiny-island", "track-on-city", 1, "track is never built on a stop (Blue 1 (C1))"),
    ("tiny-island", "track-loop", 1, "loop back into the stop it came from (Red 1 (A1))"),
    ("tiny-island", "too-many-tiles", 1, "'A1-A2-B2-C1: tile B2 A2 C1': at most 3 tiles this turn"),
    ("tiny-island", "tile-cost-exceeds-cash", 1, "the tile on B1 costs $3 but only $2 is in hand"),
    ("tiny-island", "blocked-action", 2, "action 'engineer' has an action blocker on it"),
    ("tiny-island", "action-unaffordable", 2,
     "action 'rapa-nui' costs $8 but only $2 is in hand (it must be paid before any cash it gives)"),
    ("tiny-island", "action-not-on-map", 1, "action 'feeding' is not on this map's action board"),
    ("tiny-island", "strict-no-action", 1, "an action must be selected every round"),
    ("tiny-island", "non-top-cube", 1, "only the top cube of a moai may be shipped; the top cube on A1 is blue"),
    ("tiny-island", "wrong-destination", 1, "Blue 1 (C1) does not accept a red good"),
    ("tiny-island", "pass-own-colour", 1, "the blue good must stop at the first city of its colour it reaches (Blue 1"),
    ("tiny-island", "ship-without-link", 1, "no complete link joins A1 and C1"),
    ("tiny-island", "locomotive-too-small", 1, "needs locomotive 3 (3 links) but the locomotive is 2"),
    ("tiny-island", "two-locomotive-upgrades", 1, "the locomotive may be raised at most once a turn"),
    ("tiny-island", "too-many-shares", 1, "at most 15 shares in the game (already 2, asked 14)"),
    ("tiny-island", "urbanize-red", 1, "no red new city tile is available (left: black)"),
    ("tiny-island", "urbanize-without-action", 1, "urbanizing needs the Urbanization action this round"),
    ("tiny-island", "rapa-nui-single-cube", 1, "the moai on C1 is a single-cube remnant"),
    ("tiny-island", "after-game-over", 3, "the game is already over (it was cleared)"),
    ("tiny-zoo", "discount-without-feeding", 1, "the danger discount needs the Feeding action this round"),
    ("tiny-zoo", "teleport-between-non-exits", 1, "a teleport joins two exit hexes (A1 to C1 is not one)"),
    ("tiny-zoo", "danger-needs-locomotive", 1, "needs locomotive 3 (danger 3 at Three (A1)) but the locomotive is 2"),
    ("tiny-zoo", "strict-exits", 1, "(strict exits) food entering the exit A3 must teleport"),
    ("tiny-zoo", "no-action", 1, "an action must be selected every round"),
    ("tiny-zoo", "feed-the-exit", 1, "East exit (I3) does not accept a black good"),
    ("easter-island", "blocked-rapa-nui", 3, "action 'rapa-nui' has an action blocker on it"),
    ("easter-island", "mountain-cost", 1, "the tile on G2 costs $4 but only $3 is in hand"),
]


@pytest.mark.parametrize("board,name,round_,reason", ILLEGAL, ids=[f"{b}/{n}" for b, n, _, _ in ILLEGAL])
def test_illegal_plan_is_rejected_with_its_reason(run_cli, board, name, round_, reason):
    r = run_cli("check-plan", BOARDS[board], PLANS / "illegal" / board / f"{name}.json")
    assert r.code == 1, r.out + r.err
    assert r.err == ""
    first = r.out.splitlines()[0]
    assert first.startswith(f"ILLEGAL: round {round_}"), first
    assert reason in first, first
    assert "Assumptions this answer depends on:" in r.out  # the end state and assumptions still follow


def test_every_illegal_plan_file_has_an_expected_reason():
    on_disk = {(p.parent.name, p.stem) for p in (PLANS / "illegal").glob("*/*.json")}
    assert on_disk == {(b, n) for b, n, _, _ in ILLEGAL}


def test_illegal_plans_differ_from_legal_play_in_one_place():
    """Each illegal plan is legal up to the step it names (no earlier step fails by accident)."""
    for board, name, round_, _ in ILLEGAL:
        inst = load_instance(BOARDS[board])
        result = replay(inst, load_plan(str(PLANS / "illegal" / board / f"{name}.json"), inst))
        assert result.error is not None and result.failed_step.round == round_
        assert len(result.round_states) == round_ - 1


# -- malformed plans: exit 2 with a clear message ------------------------------------

MALFORMED = [
    ("bad-json", "not valid JSON: Expecting property name enclosed in double quotes: line 1"),
    ("not-an-object", "a plan is a JSON object"),
    ("not-utf8", "not UTF-8 text"),
    ("unknown-field", "unknown field(s) ['round']"),
    ("unknown-round-field", "rounds[0]: unknown field(s) ['shipments']"),
    ("unknown-rule", "key 'rules': 'rules' may only set strict_action, strict_exits, feed_new_cities"),
    ("rule-not-boolean", "key 'rules': each rule switch is true or false"),
    ("wrong-format", "key 'format': unknown plan format 'aos-solve-plan/9'"),
    ("wrong-map", "key 'map': the plan is for map 'Easter Island', the instance is 'Tiny Island'"),
    ("unknown-difficulty", "key 'difficulty': unknown difficulty 'medium' (this map has: easy, hard)"),
    ("difficulty-not-text", "key 'difficulty': expected the name of a difficulty, got ['easy']"),
    ("setup-count", "key 'setup': Red 1 (A1) holds 2 cube(s) in easy, the setup gives 3"),
    ("setup-extra-stop", "no cubes start on Red 2 (E1) in easy"),
    ("setup-missing", "key 'setup': expected a table of stop = [bottom cube, top cube]"),
    ("setup-unknown-stop", "'Q9' is not a stop on Tiny Island"),
    ("setup-unknown-colour", "unknown cube colour(s) ['green']"),
    ("unknown-hex-in-route", "round 1: 'C' is not a hex name"),
    ("unknown-hex-in-build", "round 1: 'B' is not a hex name"),
    ("shares-not-number", "rounds[0]: 'shares' must be a whole number"),
    ("action-not-text", "rounds[0]: 'action' must be a text or null, got ['engineer']"),
    ("shipment-shape", "a shipment is 'locomotive', 'pass' or {from, cube, route}, got 'A1-C1'"),
    ("rounds-missing", "key 'rounds': expected a list of rounds"),
]


@pytest.mark.parametrize("name,message", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_plan_fails_with_exit_2(run_cli, name, message):
    path = PLANS / "malformed" / f"{name}.json"
    r = run_cli("check-plan", BOARDS["tiny-island"], path)
    assert r.code == 2, r.out + r.err
    assert r.out == ""
    assert r.err.startswith(f"aos-solve: error: {path}"), r.err
    assert readable(message) in r.err, r.err
    assert r.err.count("\n") == 1 and "Traceback" not in r.err


def test_every_malformed_plan_file_has_an_expected_message():
    assert {p.stem for p in (PLANS / "malformed").glob("*.json")} == {m[0] for m in MALFORMED}


def test_missing_plan_file(run_cli, tmp_path):
    path = tmp_path / "nowhere.json"
    r = run_cli("check-plan", BOARDS["tiny-island"], path)
    assert r.code == 2 and r.err.startswith(f"aos-solve: error: {path}: cannot read the plan")


def test_plan_for_a_broken_board(run_cli, tmp_path):
    board = tmp_path / "broken.toml"
    board.write_text(BOARDS["tiny-island"].read_text().replace('hex = "C1"', 'hex = "C9"'))
    r = run_cli("check-plan", board, PLANS / "tiny-island-cleared.json")
    assert r.code == 2 and "C9 is off the map" in r.err


def test_the_plan_example_in_the_docs_is_legal(run_cli, tmp_path):
    doc = (ROOT / "docs" / "instance-format.md").read_text()
    example = doc.split("```json\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "doc-plan.json"
    path.write_text(example)
    r = run_cli("check-plan", BOARDS["tiny-island"], path)
    assert r.code == 0, r.out + r.err
    assert r.out.startswith("legal plan: cleared in round 2")


def test_the_setup_example_in_the_docs_loads(tmp_path):
    from solver.engine.setup import load_setup
    doc = (ROOT / "docs" / "instance-format.md").read_text()
    example = next(block for block in doc.split("```toml\n")[1:] if block.startswith("[setup]")).split("```")[0]
    path = tmp_path / "setup.toml"
    path.write_text(example)
    setup = load_setup(str(path), load_instance(BOARDS["tiny-island"]), "easy")
    assert setup == {H("A1"): ["red", "blue"], H("C1"): ["red"]}


# -- property-based: mutated plans never crash the referee ---------------------------

ODD = [None, True, 0, -1, 3, 10**9, 1.5, "", "x", "A1", "Z99", "A1-C1", "A1~C1", "locomotive", "pass", "engineer",
       "rapa-nui", "urbanize C2 black", "bonus A1-B1-C1", "red", [], ["A1"], {}, {"from": "A1"},
       {"from": "A1", "cube": "blue", "route": "A1-C1", "discount": "C1"}]
LEGAL_PLANS = [("tiny-island", "tiny-island-cleared"), ("tiny-zoo", "tiny-zoo-cleared"),
               ("easter-island", "easter-island-easy-two-rounds")]


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


def _get(value, path):
    for p in path:
        value = value[p]
    return value


def _replace(value, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {k: (_replace(v, rest, new) if k == head else v) for k, v in value.items()}
    return [(_replace(v, rest, new) if i == head else v) for i, v in enumerate(value)]


@st.composite
def mutated_plan(draw):
    board, name = draw(st.sampled_from(LEGAL_PLANS))
    plan = json.loads((PLANS / f"{name}.json").read_text())
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(plan))[1:]
        path = draw(st.sampled_from(paths))
        values = [v for p in paths for v in [_get(plan, p)] if not isinstance(v, (dict, list))]
        new = draw(st.sampled_from(ODD) | st.sampled_from(values))
        plan = _replace(plan, path, new)
    return board, plan


@settings(max_examples=int(os.environ.get("AOS_FUZZ_EXAMPLES", "80")), deadline=None, database=None,
          derandomize="AOS_FUZZ_EXAMPLES" not in os.environ, suppress_health_check=[HealthCheck.too_slow])
@given(mutant=mutated_plan())
def test_mutated_plans_are_judged_never_crash(tmp_path_factory, mutant):
    import contextlib
    import io

    from solver import cli
    board, plan = mutant
    path = tmp_path_factory.mktemp("plan") / "mutant.json"
    path.write_text(json.dumps(plan))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.run(["check-plan", str(BOARDS[board]), str(path)])  # an exception here fails the test
    if code == 2:
        assert err.getvalue().startswith(f"aos-solve: error: {path}") and err.getvalue().count("\n") == 1, err.getvalue()
    else:
        assert code in (0, 1) and err.getvalue() == ""
        first = out.getvalue().splitlines()[0]
        assert first.startswith("legal plan:" if code == 0 else "ILLEGAL: round ")
