"""The cost half proved (issue 45): shares bounds checked against the exhaustive fewest shares on tiny boards.

The truth is solver.solo.exhaustive.earliest_clear(fewest_shares=True): the fewest shares any legal play
clearing in the earliest round ends with, from the rules engine alone. The boards are Tiny Row
(instances/tiny/tiny-row.toml: build A1-B1-C1, ship the red cube, round 1) made poor: less cash at the
start, a dearer plain hex and room for more shares, so the truth is above the start's 2 shares.
"""
from __future__ import annotations

import re

from solver.engine.state import GameState, Rules
from solver.games import load_instance
from solver.solo import easter_island
from solver.solo.answer import shares_line
from solver.solo.exhaustive import earliest_clear
from solver.solo.proofs.cashflow import CASH_FLOW
from solver.solo.proofs.shares import ISSUED, RELAXATION_SHARES, SHARES_ENGINES, SharesEngine, ask_shares
from solver.solo.settings import SolveParams
from tests.conftest import INSTANCES
from tests.helpers import H

PARAMS = SolveParams(workers=1, deterministic_time=5.0, plan_time=2.0, shares_bound_time=1.0)
RED = {H("A1"): ["red"]}


def _poor_row(tmp_path, cash: int, plain: int = 3, max_shares: int = 5, rules: Rules = Rules()):
    """Tiny Row with `cash` at the start, plain hexes at `plain` and at most `max_shares` shares."""
    text = (INSTANCES / "tiny/tiny-row.toml").read_text()
    for key, value in (("start_cash", cash), ("max_shares", max_shares)):
        text = re.sub(rf"{key} = {{ value = \d+", f"{key} = {{ value = {value}", text)
    text = re.sub(r"plain = { value = \d+", f"plain = {{ value = {plain}", text)
    path = tmp_path / f"poor-row-{cash}-{plain}-{max_shares}.toml"
    path.write_text(text)
    inst = load_instance(path)
    assert (inst.scenario.start_cash, inst.scenario.max_shares) == (cash, max_shares)
    return inst, GameState.new(inst, RED, rules, round_limit=3)


def _bounds(inst, state, rounds: int) -> dict:
    position = easter_island.proof_position(inst, state, state.rules, None, PARAMS, time_limit=30)
    return {e.name: ask_shares(e, position, rounds, PARAMS).lower for e in SHARES_ENGINES}


def test_the_exhaustive_truth_counts_the_shares_a_poor_start_must_issue(tmp_path):
    """B1 costs $3: with $0 one share ($5) must be issued before building, with $10 none."""
    inst, state = _poor_row(tmp_path, cash=0)
    truth = earliest_clear(state, fewest_shares=True)
    assert (truth.earliest, truth.fewest_shares, truth.shares_settled) == (1, 3, True)
    inst, state = _poor_row(tmp_path, cash=10)
    assert earliest_clear(state, fewest_shares=True).fewest_shares == 2
    # a plain hex at $8 from $0 needs two shares
    inst, state = _poor_row(tmp_path, cash=0, plain=8)
    assert earliest_clear(state, fewest_shares=True).fewest_shares == 4


def test_the_cash_flow_bound_and_the_relaxation_prove_the_fewest_shares_exactly_where_money_binds(tmp_path):
    """The start's shares say 2; the cash-flow bound and the relaxation's minimum must each reach the truth
    (1 to 3 shares more), never pass it."""
    for cash, plain in ((0, 3), (2, 3), (0, 8), (0, 12), (4, 3), (10, 3)):
        inst, state = _poor_row(tmp_path, cash=cash, plain=plain)
        truth = earliest_clear(state, fewest_shares=True)
        bounds = _bounds(inst, state, truth.earliest)
        assert bounds[ISSUED] == 2 <= truth.fewest_shares
        assert bounds[CASH_FLOW] == truth.fewest_shares, (cash, plain, bounds, truth)
        assert bounds[RELAXATION_SHARES] == truth.fewest_shares, (cash, plain, bounds, truth)


def test_the_cash_flow_bound_counts_the_action_strict_action_makes_every_round_pay_for(tmp_path):
    """strict-action=on: round 1 pays an action ($8) before its track, so from $0 the clear needs more shares."""
    inst, state = _poor_row(tmp_path, cash=0, max_shares=6, rules=Rules(strict_action=True))
    truth = earliest_clear(state, fewest_shares=True)
    default = earliest_clear(_poor_row(tmp_path, cash=0, max_shares=6)[1], fewest_shares=True)
    assert truth.fewest_shares > default.fewest_shares
    assert _bounds(inst, state, truth.earliest)[CASH_FLOW] == truth.fewest_shares


def test_the_answer_prints_fewest_shares_proved_by_the_engine_that_proves_it(tmp_path):
    """Above the start's shares the answer is proved only by an engine that reaches the plan's shares."""
    inst, state = _poor_row(tmp_path, cash=0, plain=8)
    answer = easter_island.analyse(inst, "easy", RED, Rules(), rounds=3, budget=500, params=PARAMS)
    shares = answer.search.shares
    assert answer.min_rounds_proved and shares["upper_bound"] == 4
    # the cash-flow bound is asked before the relaxation and proves it: the relaxation is not asked
    assert shares["proved"] and shares["lower_bound"] == 4 and shares["lower_bound_source"] == CASH_FLOW
    assert [e["engine"] for e in shares["engines"]] == [ISSUED, CASH_FLOW]
    assert shares_line(shares).startswith("Fewest shares at 1 round: 4, proved (cash-flow bound: round by round to "
                                          "round 1, the track joining the ruins (1 hex at $8 or more")


def test_a_plan_at_the_start_shares_prints_proved_by_the_shares_already_issued(tmp_path):
    """Shares never fall, so a plan issuing none is a proof; no slower engine is asked then."""
    inst, state = _poor_row(tmp_path, cash=10)
    answer = easter_island.analyse(inst, "easy", RED, Rules(), rounds=3, budget=500, params=PARAMS)
    shares = answer.search.shares
    assert shares["proved"] and shares["lower_bound_source"] == ISSUED and shares["relaxation"] == "not asked"
    assert [e["engine"] for e in shares["engines"]] == [ISSUED]
    assert "2, proved (shares already issued" in shares_line(shares)


def test_a_gap_prints_both_bounds_and_what_the_lower_rests_on():
    record = {"rounds": 8, "lower_bound": 2, "upper_bound": 6, "proved": False, "relaxation": "unknown",
              "lower_bound_source": ISSUED, "reasons": ["2 shares are held at the start"], "plan_track_cost": 40}
    line = shares_line(record)
    assert line.startswith("Fewest shares at 8 rounds: between 2 (shares already issued: 2 shares are held at the "
                           "start) and 6 (the plan)")
    assert "the relaxation's minimum: unknown" in line and line.endswith("the plan's track cost $40")


def test_every_shares_engine_has_the_interface():
    names = [e.name for e in SHARES_ENGINES]
    assert len(set(names)) == len(names) and names[0] == ISSUED
    assert all(isinstance(e, SharesEngine) for e in SHARES_ENGINES)


def test_the_cash_flow_bound_lets_expenses_go_unpaid_as_the_rules_do():
    """Fuzzer's tight board 67: the real play leaves round 1's expenses unpaid (its income falls) and issues its
    shares in round 2; a relaxed game paying expenses from share money held from the start claimed 5 > 4."""
    from solver.solo.soundness import random_board
    board = random_board(67, tight=True)
    inst, rules, _, state = board.start()
    truth = earliest_clear(state, max_nodes=8_000, fewest_shares=True)
    assert (truth.earliest, truth.fewest_shares) == (2, 4)
    position = easter_island.proof_position(inst, state, rules, None, PARAMS, time_limit=30)
    engine = next(e for e in SHARES_ENGINES if e.name == CASH_FLOW)
    assert ask_shares(engine, position, 2, PARAMS).lower <= 4
