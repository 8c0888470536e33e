"""Each proof engine (solver/solo/proofs) proves only what exhaustive search over the rules engine confirms.

The truth of every board here comes from solver/solo/exhaustive.py inside the test (the engine alone:
legal actions and children). An engine's NO_CLEAR by round R must have truth > R (or nothing clears by
the round limit), its bound must be <= the truth, and where the boards were chosen for it, it must
prove exactly the truth. The registry, the deep mode (`--prove`) and the fuzzer's generic judging of a
newly registered engine are tested at the end.
"""
from __future__ import annotations

import dataclasses
import json

import pytest

from solver.engine.setup import draw_setup
from solver.engine.state import GameState, Rules
from solver.solo import easter_island, zoo
from solver.solo.answer import PROOF_SOURCES
from solver.solo.exhaustive import earliest_clear
from solver.solo.proofs import ENGINES, MAY_CLEAR, NO_CLEAR, OPEN, ProofEngine, Verdict
from solver.solo.proofs.counting import CountingBound
from solver.solo.proofs.links import LinkSearch
from solver.solo.proofs.relaxation import Relaxation
from solver.solo.settings import SolveParams
from tests.conftest import INSTANCES
from tests.helpers import H, instance

PARAMS = SolveParams(workers=1, deterministic_time=5.0)
RED = {"A1": ["red"]}


def _position(inst, setup, limit: int, params: SolveParams = PARAMS):
    state = GameState.new(inst, setup, Rules(), round_limit=limit)
    if inst.scenario.ruleset == "zoo":
        return state, zoo.proof_position(inst, state, Rules(), None, params)
    return state, easter_island.proof_position(inst, state, Rules(), None, params, time_limit=30)


def _tiny(board: str, setup: dict | None, limit: int, params: SolveParams = PARAMS):
    """(truth by exhaustive search, a position for the engines) on a board of instances/tiny/."""
    inst = instance(f"tiny/{board}")
    diff = "standard" if inst.scenario.ruleset == "zoo" else "easy"
    cubes = {H(k): v for k, v in setup.items()} if setup else draw_setup(inst, diff, 1, rules=Rules())
    state, position = _position(inst, cubes, limit, params)
    truth = earliest_clear(state, max_nodes=50_000)
    assert truth.settled
    return truth.earliest, position


def _fuzz_board(seed: int):
    """A board of the soundness fuzzer (solver/solo/soundness.py): its truth and a position."""
    from solver.solo.soundness import random_board
    board = random_board(seed)
    inst, rules, _, state = board.start()
    truth = earliest_clear(state, max_nodes=8_000)
    assert truth.settled
    position = easter_island.proof_position(inst, state, rules, None, PARAMS, time_limit=30)
    return truth.earliest, position, board.rounds


def _holds(verdict: Verdict, last_round: int, truth: int | None) -> bool:
    """Whether the verdict's claims hold against the truth (None: nothing clears by the board's limit)."""
    if verdict.status == NO_CLEAR and truth is not None and truth <= last_round:
        return False
    return verdict.bound is None or truth is None or verdict.bound <= truth


# -- the counting bound -------------------------------------------------------------------------------

def test_the_counting_bound_proves_the_zoo_minimum_where_danger_binds():
    # tiny-zoo-danger: each danger-3 area is fed from the other; the counting search says 2 rounds, the truth
    truth, position = _tiny("tiny-zoo-danger.toml", None, 2)
    assert truth == 2
    engine = CountingBound()
    first = engine.prove(position, 1, PARAMS)
    assert first.status == NO_CLEAR and first.bound == truth and first.reasons and first.engine == "counting bound"
    assert engine.prove(position, 2, PARAMS).status == OPEN


def test_the_counting_bound_proves_an_island_minimum_of_two_rounds():
    # fuzz board 1: Easter Island, the cubes need two rounds of shipments; the truth is round 2
    truth, position, _ = _fuzz_board(1)
    assert truth == 2
    verdict = CountingBound().prove(position, 1, PARAMS)
    assert verdict.status == NO_CLEAR and verdict.bound == 2


@pytest.mark.parametrize("board,setup,limit", [("tiny-row.toml", RED, 3), ("tiny-island-locomotive.toml", RED, 3),
                                               ("tiny-zoo-pair.toml", None, 2)])
def test_the_counting_bound_claims_nothing_the_truth_denies(board, setup, limit):
    truth, position = _tiny(board, setup, limit)
    for r in range(1, limit + 1):
        verdict = CountingBound().prove(position, r, PARAMS)
        assert _holds(verdict, r, truth), (board, r, verdict, truth)


def test_the_counting_bound_at_a_plan_prefix_is_the_round_reached():
    inst = instance("tiny/tiny-island-locomotive.toml")
    state = GameState.new(inst, {H("A1"): ["red"]}, Rules())
    state.round = 2  # as if a prefix of one round had been played
    position = easter_island.proof_position(inst, state, Rules(), start=object(), params=PARAMS, time_limit=30)
    verdict = CountingBound().prove(position, 1, PARAMS)
    assert verdict.status == NO_CLEAR and verdict.bound == 2


# -- the CP-SAT relaxation -----------------------------------------------------------------------------

def test_the_relaxation_proves_the_minimum_where_locomotive_and_blockers_bind():
    truth, position = _tiny("tiny-island-locomotive.toml", RED, 3)
    assert truth == 2
    engine = Relaxation()
    assert CountingBound().prove(position, 1, PARAMS).status == OPEN  # the counting bound cannot see it
    verdict = engine.prove(position, 1, PARAMS)
    assert verdict.status == NO_CLEAR and verdict.bound == truth and verdict.engine == "relaxation"
    assert verdict.log and verdict.log[-1]["relaxation"] == "infeasible"
    assert engine.prove(position, 2, PARAMS).status == OPEN  # the truth clears by 2: no claim


def test_the_relaxation_proves_that_cash_makes_the_tiny_island_unclearable():
    inst = instance("tiny/tiny-island-cash.toml")
    truth, position = _tiny("tiny-island-cash.toml", RED, inst.scenario.rounds)
    assert truth is None
    verdict = Relaxation().prove(position, inst.scenario.rounds, PARAMS)
    assert verdict.status == NO_CLEAR and "CP-SAT relaxation" in verdict.detail


def test_the_relaxation_proves_the_zoo_minimum_where_danger_binds():
    truth, position = _tiny("tiny-zoo-danger.toml", None, 2)
    verdict = Relaxation().prove(position, 1, PARAMS)
    assert verdict.status == NO_CLEAR and truth == 2
    assert Relaxation().prove(position, 2, PARAMS).status == OPEN


def test_the_deep_mode_walks_the_relaxation_up_to_the_truth():
    # asked about round 3 (feasible: a plan clears by 2), the default asks only there and proves nothing;
    # the deep mode walks up from the known bound 1 and proves round 1 impossible: bound 2, the truth
    truth, position = _tiny("tiny-island-locomotive.toml", RED, 3)
    default = Relaxation().prove(position, 3, PARAMS)
    assert default.status == OPEN and default.bound is None and len(default.log) == 1
    deep = dataclasses.replace(PARAMS, prove=True, prove_time=5.0)
    _, position = _tiny("tiny-island-locomotive.toml", RED, 3, deep)
    verdict = Relaxation().prove(position, 3, deep)
    assert verdict.status == OPEN and verdict.bound == truth == 2
    assert [e["rounds"] for e in verdict.log] == [3, 1, 2]


# -- the registry and the fuzzer ------------------------------------------------------------------------

def test_every_registered_engine_has_the_interface_and_names_a_proof_source():
    names = [engine.name for engine in ENGINES]
    assert len(set(names)) == len(names)
    assert all(isinstance(engine, ProofEngine) for engine in ENGINES)
    assert set(names) <= set(PROOF_SOURCES)
    assert [type(e) for e in ENGINES] == [CountingBound, LinkSearch, Relaxation]
    # the cheap engines come first: they are asked before the plan search, in the registry's order
    cheap = [engine.cheap for engine in ENGINES]
    assert cheap == sorted(cheap, reverse=True)


def test_a_verdict_has_one_of_three_statuses():
    with pytest.raises(ValueError):
        Verdict("maybe", "x", "a sentence")
    assert {OPEN, NO_CLEAR, MAY_CLEAR} == {"open", "no clear", "may clear"}


def test_the_answer_records_every_verdict_and_names_the_engine_that_proved_it():
    inst = instance("tiny/tiny-island-locomotive.toml")
    answer = easter_island.analyse(inst, "easy", {H("A1"): ["red"]}, Rules(), time_limit=30, budget=2000,
                                   params=PARAMS)
    asked = answer.search.proofs
    # the link search is asked in the deep mode only: here it answers open at once
    assert [(a["engine"], a["status"]) for a in asked] == [("counting bound", OPEN), ("link search", OPEN),
                                                           ("relaxation", NO_CLEAR)]
    assert answer.search.proof_source == "relaxation" and answer.lower_bound == answer.upper_bound == 2


class _Liar:
    """A registered engine that proves what is false: the fuzzer must catch it with no change of its own."""

    name = "liar"
    cheap = False

    def prove(self, position, last_round: int, params) -> Verdict:
        return Verdict(NO_CLEAR, self.name, "nothing ever clears", bound=last_round + 1)


def test_the_fuzzer_judges_a_newly_registered_engine_by_its_name(monkeypatch):
    from solver.solo import proofs
    from solver.solo.soundness import check_board, random_board
    monkeypatch.setattr(proofs, "ENGINES", proofs.ENGINES + (_Liar(),))
    out = check_board(random_board(1))  # truth 2: the liar's "no clear by 2" is false
    assert out.truth == 2
    kinds = {kind for kind, _ in out.false}
    assert {"liar: no clear", "liar: bound"} <= kinds
    assert not any(kind.startswith(("counting bound", "relaxation")) for kind in kinds)
    assert out.claims["relaxation: no clear"] >= 1 and out.claims["counting bound: no clear"] >= 1


# -- the deep mode on the command line and in batches ------------------------------------------------------

def test_prove_on_the_command_line_gives_the_same_proved_answer(run_cli, tmp_path):
    setup = tmp_path / "setup.toml"
    setup.write_text('"Red 1" = ["red"]\n')
    args = ["easter-island", "--instance", INSTANCES / "tiny" / "tiny-island-locomotive.toml", "-d", "easy",
            "--setup", setup, "--work", "2000", "--cp-time", "5", "--json"]
    default, deep = run_cli(*args), run_cli(*args, "--prove", "--prove-time", "5")
    assert default.code == 0 and deep.code == 0, default.err + deep.err
    a, b = json.loads(default.out), json.loads(deep.out)
    assert (b["verdict"], b["min_rounds"]) == (a["verdict"], a["min_rounds"])
    # the deep mode asks the link search before the relaxation, and here it settles the minimum
    assert (a["proof_source"], b["proof_source"]) == ("relaxation", "link search")
    assert b["search"]["prove_time"] == 5 and "prove_time" not in a["search"]


@pytest.mark.parametrize("command", ["easter-island", "zoo"])
def test_a_bad_prove_time_is_one_clear_error(run_cli, command):
    r = run_cli(command, "--prove", "--prove-time", "0")
    assert r.code == 2 and "--prove-time" in r.err and "Traceback" not in r.err


@pytest.mark.parametrize("module,board", [(easter_island, "tiny-island-locomotive.toml"), (zoo, "tiny-zoo-pair.toml")])
def test_a_batch_solve_passes_prove_into_the_solve_params(monkeypatch, module, board):
    from solver.batch.scenarios import Mode, solo_batch_solve
    seen = []
    real = module.analyse

    def spy(*args, **kwargs):
        seen.append(kwargs["params"])
        return real(*args, **{**kwargs, "budget": 500})

    monkeypatch.setattr(module, "analyse", spy)
    name, diff = ("easter-island", "easy") if module is easter_island else ("zoo", "standard")
    record = solo_batch_solve(name, diff, 1, Mode(prove=True), instance=str(INSTANCES / "tiny" / board))
    assert seen[0].prove and seen[0].prove_time == SolveParams().prove_time and "verdict" in record
    solo_batch_solve(name, diff, 1, Mode(), instance=str(INSTANCES / "tiny" / board))
    assert not seen[1].prove and seen[1] == Mode().settings().params()  # without prove: the batch's own parameters


def test_the_deep_mode_settles_boards_only_complex_tiles_can_join():
    # the beam lays simple tiles only, so without the deep mode both answers are UNKNOWN; the deep mode
    # proves the curved crossing impossible and lays the straight crossing through the link search's plan side
    deep = dataclasses.replace(PARAMS, prove=True, prove_time=5.0)
    red = {H("A2"): ["red", "red"]}
    for board, truth in (("tiny-crossing.toml", 1), ("tiny-crossing-curve.toml", None)):
        inst = instance(f"tiny/{board}")
        assert earliest_clear(GameState.new(inst, red, Rules())).earliest == truth
        assert easter_island.analyse(inst, "easy", red, Rules(), params=PARAMS).verdict == "unknown"
        answer = easter_island.analyse(inst, "easy", red, Rules(), params=deep)
        assert answer.search.proof_source == "link search" or answer.min_rounds_proved
        if truth is None:
            assert answer.verdict == "not clearable"
        else:
            assert answer.verdict == "clearable" and answer.upper_bound == truth and answer.min_rounds_proved
            assert any(" + " in str(step) for step in answer.plan.rounds[0].build)   # the crossing, one placement


def test_a_may_clear_pattern_realises_itself_as_a_plan_the_referee_replays():
    # the plan side asks the pattern (proofs/base.Pattern), never the engine's name: the link search's
    # abstract clear through the crossing realises as a plan that the referee replays to a clear in round 1
    from solver.engine.plan import replay
    from solver.engine.scenario import Scenario
    from solver.solo.proofs import Pattern, ask
    deep = dataclasses.replace(PARAMS, prove=True, prove_time=5.0)
    inst = instance("tiny/tiny-crossing.toml")
    red = {H("A2"): ["red", "red"]}
    state, position = _position(inst, red, 1, deep)
    verdict = ask(LinkSearch(), position, 1)
    assert verdict.status == MAY_CLEAR and isinstance(verdict.pattern, Pattern)
    plan, why = verdict.pattern.realise(state, Scenario(inst, "easy", red))
    assert plan is not None, why
    assert replay(inst, plan).state.cleared_round == 1
