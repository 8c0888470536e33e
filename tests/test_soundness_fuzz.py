"""No false proof: every claim of the solo solvers holds on random tiny boards (issue 27, the fuzzer).

The truth comes from solver.solo.exhaustive, an exhaustive search over the rules engine alone; the
claims are the `analyse` answers behind `aos-solve easter-island` and `aos-solve zoo`. This is the fast
profile; benchmarks/soundness.py runs thousands of boards (results/soundness.csv).
"""
from __future__ import annotations

from types import SimpleNamespace

from solver.engine.state import GameState, Rules
from solver.solo.exhaustive import earliest_clear
from solver.solo.soundness import Outcome, _judge, check_board, random_board
from tests.helpers import H, instance

FAST_BOARDS = range(1, 121)


def test_the_exhaustive_truth_on_hand_checked_boards():
    row = instance("tiny/tiny-row.toml")  # build A1-B1-C1, ship the cube: round 1
    assert earliest_clear(GameState.new(row, {H("A1"): ["red"]}, Rules(), round_limit=3)).earliest == 1
    loco = instance("tiny/tiny-island-locomotive.toml")  # the locomotive must rise first: round 2
    assert earliest_clear(GameState.new(loco, {H("A1"): ["red"]}, Rules(), round_limit=3)).earliest == 2
    cash = instance("tiny/tiny-island-cash.toml")  # too poor to ever clear
    assert earliest_clear(GameState.new(cash, {H("A1"): ["red"]}, Rules(), round_limit=3)).earliest is None


def test_the_judge_catches_each_kind_of_false_claim():
    # a check that cannot fail proves nothing: fake answers with each false claim
    fake = SimpleNamespace(verdict="not clearable", lower_bound=3, upper_bound=None, min_rounds_proved=False,
                           plan=None)
    out = Outcome(0, "easter-island", True, truth=1)
    _judge(out, None, fake, 1)
    assert {kind for kind, _ in out.false} == {"not clearable", "lower bound"}
    fake = SimpleNamespace(verdict="clearable", lower_bound=2, upper_bound=2, min_rounds_proved=True, plan=None)
    out = Outcome(0, "zoo", True, truth=1)
    _judge(out, None, fake, 1)
    assert [kind for kind, _ in out.false] == ["lower bound", "proved minimum"]
    # the deep mode's answer is judged the same, its claims named apart
    out = Outcome(0, "zoo", True, truth=1)
    _judge(out, None, fake, 1, prefix="deep: ")
    assert [kind for kind, _ in out.false] == ["deep: lower bound", "deep: proved minimum"]


def test_no_solver_claim_is_false_on_random_tiny_boards():
    settled, claims, false = 0, 0, []
    for seed in FAST_BOARDS:
        board = random_board(seed)
        out = check_board(board)
        assert out.error is None, (seed, out.error)
        settled += out.settled
        claims += sum(out.claims.values())
        false += [(seed, board.ruleset, board.readings, out.truth, f) for f in out.false]
    assert not false, false
    # the profile must actually settle boards and check claims, not pass by checking nothing
    assert settled >= 0.5 * len(FAST_BOARDS) and claims >= len(FAST_BOARDS) // 2


TIGHT_BOARDS = range(1, 33)


def test_no_fewest_shares_claim_is_false_where_money_is_tight():
    """The cost half (issue 45): on tight-money boards the exhaustive fewest shares at the earliest clear is
    often above the start shares; every shares bound and every "fewest shares, proved" must hold against it."""
    above, checked, false = 0, 0, []
    for seed in TIGHT_BOARDS:
        board = random_board(seed, tight=True)
        out = check_board(board, deep=False)
        assert out.error is None, (seed, out.error)
        above += out.shares is not None and out.shares > 2
        checked += sum(v for k, v in out.claims.items() if "shares" in k)
        false += [(seed, board.ruleset, board.readings, out.truth, out.shares, f) for f in out.false]
    assert not false, false
    # the profile must reach boards where shares are really needed, and check shares claims on them
    assert above >= 4 and checked >= 10


def test_the_shares_judge_catches_a_false_fewest_shares_claim():
    """A check that cannot fail proves nothing: a bound above the truth and a wrong "proved" are both caught."""
    from solver.solo.search_log import SearchLog
    from solver.solo.soundness import _judge_shares
    fake = SimpleNamespace(search=SearchLog(shares={"rounds": 2, "lower_bound": 4, "upper_bound": 4, "proved": True}))
    out = Outcome(0, "easter-island", True, truth=2, shares=3)
    _judge_shares(out, fake)
    assert [kind for kind, _ in out.false] == ["shares lower bound", "fewest shares proved"]
    out = Outcome(0, "easter-island", True, truth=2, shares=4)
    _judge_shares(out, fake, prefix="deep: ")
    assert not out.false and out.claims == {"deep: shares lower bound": 1, "deep: fewest shares proved": 1}


def test_the_generator_makes_the_boards_issue_39_found_false_claims_on():
    # free terrain, town fees and complex extras, prices above the base, actions out of reach, longer rows,
    # two-row boards with towns, up to 5 rounds, and non-default readings: each must occur
    import tomllib
    seen: set = set()
    for seed in range(1, 401):
        board = random_board(seed)
        data = tomllib.loads(board.text)
        s, cost, extra = data["scenario"], data["scenario"]["track_cost"], data["map_rules"]
        rows = data["grid"]["picture"].strip("\n").splitlines()
        seen |= {k for k, hit in (
            ("$0 terrain", 0 in (cost["plain"]["value"], cost["mountain"]["value"])),
            ("$0 town fees", cost["town_base"]["value"] == 0 and cost["town_per_track"]["value"] == 0),
            ("$0 complex extra", 0 in (extra["complex_crossing_extra"]["value"],
                                       extra["complex_noncrossing_extra"]["value"])),
            ("above the base", cost["plain"]["value"] > 4 or cost["mountain"]["value"] > 5),
            ("actions out of reach", s["action_cost"]["value"] >= 99),
            ("upgrade not a tile", extra["upgrade_counts_as_tile"]["value"] is False),
            ("row of 6", len(rows) == 1 and len(rows[0].split()) == 6),
            ("two rows with a town", len(rows) == 2 and "towns" in data),
            ("5 rounds", board.rounds == 5),
            ("track-into-side", any(r.startswith("track-into-side=") for r in board.readings))) if hit}
    assert len(seen) == 10, seen
