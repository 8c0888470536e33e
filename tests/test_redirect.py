"""Base rules: "Redirecting an incomplete track: $2": the open end of an incomplete track may be turned.

Issue 39: the rule was neither modelled nor named. The referee now has the move (`redirect HEX KEPT NEW`,
priced by the board file's map_rules.redirect_cost, counting as a tile of the turn); the exhaustive truth
explores it, and the bounds, which never assumed a track keeps its first direction, stay relaxations
(solver/solo/proofs/base.py says why).
"""
from __future__ import annotations

import pytest

from solver.engine.moves import LayTile, Pass, RedirectTile, parse_tile
from solver.engine.plan import Plan, parse_round, replay
from solver.engine.state import GameState, Rules
from solver.games import load_instance
from tests.conftest import INSTANCES
from tests.helpers import H, new_state, ship, to_build, to_ship


def _row2(tmp_path, price: int | None = 2):
    """tiny-row with a second row (B1 then has A2 and B2 below it) and, with `price`, a redirect price."""
    text = (INSTANCES / "tiny/tiny-row.toml").read_text()
    text = text.replace('picture = """\n. . .\n"""', 'picture = """\n. . .\n . . .\n"""')
    if price is not None:
        text += ('\n[map_rules]\nredirect_cost = { value = %d, source = "rule-sheet", sheet = "age-of-steam-base.md", '
                 'quote = "Redirecting an incomplete track: $2." }\n' % price)
    path = tmp_path / f"row2-{price}.toml"
    path.write_text(text)
    return load_instance(path)


def test_redirect_turns_the_open_end_of_an_incomplete_track_into_a_link(tmp_path):
    s = to_build(new_state(_row2(tmp_path), {"A1": ["red"]}))
    s.apply(LayTile(H("B1"), H("A1"), H("B2")))  # from Red 1, open toward B2
    move = parse_tile("redirect B1 A1 C1")
    assert move == RedirectTile(H("B1"), H("A1"), H("C1")) and str(move) == "redirect B1 A1 C1"
    assert move in s.legal_actions()
    cash = s.cash
    s.apply(move)
    # the price is the board file's, and the redirect counts as a tile of the turn
    assert cash - s.cash == 2 and s.tiles_laid == 2
    assert frozenset((H("A1"), H("C1"))) in s.linked_pairs()
    to_ship(s)
    s.apply(ship("A1", "red", "A1-C1"))
    s.apply(Pass())
    assert s.cleared_round == 1


def test_redirect_is_refused_where_the_rules_refuse_it(tmp_path):
    s = to_build(new_state(_row2(tmp_path), {"A1": ["red"]}))
    s.apply(LayTile(H("B1"), H("A1"), H("B2")))
    assert "keeps that side" in s.why_illegal(RedirectTile(H("B1"), H("B2"), H("C1")))
    assert "already faces" in s.why_illegal(RedirectTile(H("B1"), H("A1"), H("B2")))
    assert "no open end" in s.why_illegal(RedirectTile(H("B2"), H("B1"), H("C1")))
    s.apply(RedirectTile(H("B1"), H("A1"), H("A2")))
    s.apply(RedirectTile(H("B1"), H("A1"), H("B2")))  # three tiles this turn: the limit
    assert "at most 3 tiles" in s.why_illegal(RedirectTile(H("B1"), H("A1"), H("C1")))
    # a complete link has no open end to turn
    t = to_build(new_state(_row2(tmp_path), {"A1": ["red"]}))
    t.apply(LayTile(H("B1"), H("A1"), H("C1")))
    assert "no open end" in t.why_illegal(RedirectTile(H("B1"), H("A1"), H("B2")))
    # a board file without the price refuses it, and lists no such move
    u = to_build(new_state(_row2(tmp_path, None), {"A1": ["red"]}))
    u.apply(LayTile(H("B1"), H("A1"), H("B2")))
    assert "redirect_cost" in u.why_illegal(RedirectTile(H("B1"), H("A1"), H("C1")))
    assert not any(isinstance(m, RedirectTile) for m in u.legal_actions())


def test_a_plan_with_a_redirect_replays_through_the_referee(tmp_path):
    inst = _row2(tmp_path)
    plan = Plan(inst.board.name, "easy", Rules(), {H("A1"): ["red"]},
                [parse_round(0, None, None, ["tile B1 A1 B2", "redirect B1 A1 C1"],
                             [{"from": "A1", "cube": "red", "route": "A1-C1"}, "pass"], 1, inst)])
    check = replay(inst, plan)
    assert check.error is None and check.state.cleared_round == 1 and check.state.spent_on_track == 5


@pytest.mark.parametrize("last", [1, 2, 3])
def test_redirect_never_clears_earlier_the_bounds_argument_on_a_tiny_board(tmp_path, last):
    """The bounds' argument: a play with redirects maps to one without them that clears no later (the tile
    laid once, in its final direction, in the round of its last redirect). The exhaustive truth with the
    move and without it agree here (the soundness fuzzer checks the bounds against it on random boards)."""
    from solver.solo.exhaustive import earliest_clear
    truths = []
    for price in (0, None):  # a free redirect, and none at all
        state = GameState.new(_row2(tmp_path, price), {H("A1"): ["red"]}, Rules(), round_limit=last)
        state.cash = 3
        truths.append(earliest_clear(state).earliest)
    assert truths[0] == truths[1]
