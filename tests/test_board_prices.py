"""Every bound reads its prices from the board file it is given, never from the base rules (issue 39).

The truth on each board comes from solver/solo/exhaustive.py (the engine alone) inside the test.
- instances/tiny/tiny-crossing-free.toml: the crossing's surcharge is $0 in the board file and the cash is
  exactly the crossing plus a detour; the relaxation and the hex packing added the base rule's $1.
- instances/tiny/tiny-row-free.toml: plain track at $0 and $0 cash; the link search charged each link
  (terrain + 1) / 2 a hex.
"""
from __future__ import annotations

from models.link_packing import solve_packing
from solver.engine.state import GameState, Rules
from solver.solo.exhaustive import earliest_clear
from solver.solo.link_search import LinkBounds, Money, prove_by
from solver.solo.proofs import NO_CLEAR
from solver.solo.settings import SolveParams
from solver.solo.soundness import engines_alone
from tests.helpers import H, instance

PARAMS = SolveParams(workers=1, deterministic_time=2.0, plan_time=2.0)


def _truth(state: GameState) -> int | None:
    found = earliest_clear(state.clone())
    assert found.settled
    return found.earliest


def _no_clear_claims(inst, state, last: int) -> list[str]:
    return [f"{v['engine']} by {v['last_round']}" for v in engines_alone(inst, state, Rules(), PARAMS, last)
            if v["status"] == NO_CLEAR]


def test_a_complex_tile_costs_the_extra_the_board_file_gives_it_in_every_bound():
    inst = instance("tiny/tiny-crossing-free.toml")
    state = GameState.new(inst, {H("A2"): ["red", "red"]}, Rules(), round_limit=1)
    assert _truth(state) == 1
    assert _no_clear_claims(inst, state, 1) == []   # every engine, default and deep mode
    # the hex packing's least money for the clearing network: B2's crossing $3 + D1 $3
    bounds = LinkBounds(state)
    pairs = [(H("A2"), H("C2")), (H("B3"), H("C1")), (H("C1"), H("C2"))]
    status, value = solve_packing(bounds.board, pairs, "cost", 5.0)
    assert status == "optimal" and value == 6


def test_a_link_over_free_terrain_is_charged_nothing():
    inst = instance("tiny/tiny-row-free.toml")
    state = GameState.new(inst, {H("A1"): ["red"]}, Rules(), round_limit=2)
    assert _truth(state) == 1
    assert LinkBounds(state).money(frozenset({frozenset((H("A1"), H("C1")))})) == 0
    for last in (1, 2):
        assert prove_by(state, last).status != "no clear"
    assert _no_clear_claims(inst, state, 2) == []


def test_a_share_counts_at_the_board_files_share_price_in_the_link_searchs_dominance():
    # 1 share fewer and $9 less covers a position only if a share brings at least $9
    fewer = Money(cash=0, income=0, shares=2, allowance=3)
    more = Money(cash=9, income=0, shares=3, allowance=3)
    assert fewer.covers(more, 10)
    assert not fewer.covers(more, 5)
