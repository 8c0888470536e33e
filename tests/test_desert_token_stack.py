"""The Desert referee's token stack: a record's tokens must be windows of one reveal order (issue 33, item a)."""
from __future__ import annotations

from solver.desert import tokens
from solver.desert.ruleset import DEFAULT_RULESET, load_ruleset


def _stack():
    rs = load_ruleset(DEFAULT_RULESET)
    return rs.token_stack(), rs["active_area_size"]


def test_seventeen_star_placements_fit_no_order_of_the_stack():
    stack, window = _stack()
    stars = stack.count("star")
    rounds = 8
    # one star pawn or more each round, 17 in all: more than stars * window placements can be
    used = [["star"] * 3, ["star"] * 3, ["star"] * 3, ["star"] * 2, ["star"] * 2, ["star"] * 2, ["star"], ["star"]]
    assert sum(map(len, used)) == 17 > stars * window
    listed = [None] * rounds
    assert tokens.first_inconsistent_round(stack, window, listed, used) is not None
    r = tokens.first_inconsistent_round(stack, window, listed, used)
    assert "star" in tokens.why(stack, window, listed, used, r)


def test_a_record_one_order_explains_is_accepted():
    stack, window = _stack()
    order = sorted(stack)  # any order of the stack is a possible shuffle
    listed = [order[max(0, r - window):r] for r in range(1, 9)]
    used = [w[-1:] for w in listed]  # one pawn a round, with the token just revealed
    assert tokens.first_inconsistent_round(stack, window, listed, used) is None


def test_a_tiles_file_may_name_fewer_tokens_than_the_window_but_a_full_list_must_slide(tmp_path):
    import pytest

    from solver.board.errors import InputError
    from solver.desert.setup import load_setup, load_tiles_file

    setup = load_setup()
    ok = tmp_path / "ok.toml"
    ok.write_text('[[round]]\ntiles = ["C17"]\ntokens = []\n\n[[round]]\ntiles = ["C05"]\ntokens = ["camel"]\n')
    offers, _ = load_tiles_file(ok, setup)  # an empty list: no pawns meant; a shorter one: a part of the window
    assert [list(o.tokens) for o in offers] == [[], ["camel"]]
    bad = tmp_path / "bad.toml"
    # round 1's whole window is a car, so round 2's window holds that car: two stars cannot be
    bad.write_text('[[round]]\ntiles = ["C17"]\ntokens = ["car"]\n\n[[round]]\ntiles = ["C05"]\ntokens = ["star", "star"]\n')
    with pytest.raises(InputError, match="round 2"):
        load_tiles_file(bad, setup)
