"""`desert ceiling` for a real game (issue 40, item 4): with no seed the columns still to come are unknown, so
the ceiling is a bound over any draw of the tiles left; it must never fall below a score the referee gives a
real completion of the position, and a star level above it is reported out of reach (also by the advice)."""
from __future__ import annotations

import json

import pytest

from solver.desert_play.advise import advise
from solver.desert_play.ceiling import ceiling_any_draw
from solver.desert.referee import evaluate
from solver.desert.setup import load_setup
from solver.desert_play.policies import play_policy
from solver.desert.layout import Layout, RoundPlay
from solver.desert.market import draw_market


@pytest.fixture(scope="module")
def setup():
    return load_setup()


def unseeded(lay: Layout, k: int) -> Layout:
    """The first k rounds of a seeded game as a player's record: no seed, no column numbers."""
    return Layout(lay.start_at, lay.start_rotation,
                  [RoundPlay(rp.number, tokens=rp.tokens, tiles=rp.tiles, pawns=rp.pawns) for rp in lay.rounds[:k]],
                  lay.challenge, None)


@pytest.mark.parametrize("cid,seed,kind", [("desert-of-death", 5, "rollout"), ("lost-world", 3, "rollout"),
                                           ("sharp-boundary", 5, "rollout"), (None, 7, "greedy")])
def test_seedless_ceiling_is_never_below_a_real_completion(setup, cid, seed, kind):
    """Every prefix of a game the referee scores (rollout and greedy play-outs, box-free) has a seedless ceiling
    at least the game's final score: the bound holds over the draw that really came."""
    ch = setup.challenges.get(cid) if cid else None
    market = draw_market(seed, setup.tileset, setup.ruleset)
    game = play_policy(setup, market, ch, kind, box=None)
    ev = evaluate(setup, game, ch, market)
    assert ev["legal"], ev["violation"]
    for k in range(0, 9):
        c = ceiling_any_draw(setup, unseeded(game, k), ch)
        assert c["ceiling"] >= ev["score"], (k, c, ev["score"])
        assert c["rounds_left"] == 8 - k


def test_seedless_ceiling_holds_with_objective_tiles(setup):
    """A referee-accepted record with one tile of each objective (15 objective points) stays under the ceiling."""
    from tests.test_desert_table import with_objective_tiles

    lay, market = with_objective_tiles(setup, 5)
    ev = evaluate(setup, lay, None, market)
    assert ev["legal"], ev["violation"]
    for k in (0, 4, 7, 8):
        c = ceiling_any_draw(setup, unseeded(lay, k), None)
        assert c["ceiling"] >= ev["score"] and c["lines"].get("objectives", 0) >= 15


def sparse_record(setup, ch) -> tuple[Layout, object]:
    """Six rounds of a Lost World game where only round 1's tiles were placed (taken tiles may be left out)."""
    market = draw_market(3, setup.tileset, setup.ruleset)
    game = play_policy(setup, market, ch, "greedy", box=None)
    rounds = [RoundPlay(1, tokens=list(market.rounds[0].tokens), tiles=game.rounds[0].tiles)]
    rounds += [RoundPlay(r, tokens=list(market.rounds[r - 1].tokens)) for r in range(2, 7)]
    return Layout(game.start_at, game.start_rotation, rounds, ch.id, None), market


def test_a_star_level_above_the_seedless_ceiling_is_out_of_reach(setup, run_cli, tmp_path):
    """With one round left and few tiles placed, 55 and 65 points are above the ceiling: those levels are out of
    reach, proved, in `desert ceiling`; and the advice's star levels still reachable leave out a level above
    its ceiling (before, advise called every level reachable while the mission could be met)."""
    ch = setup.challenges.get("lost-world")
    six, market = sparse_record(setup, ch)
    offer = market.rounds[6]
    data = advise(setup, six, [list(col) for col in offer.columns], list(offer.tokens), ch, policy="greedy")
    reach = data["stars_reachable"]
    assert reach["ceiling"] < 65 and 3 not in reach["levels"] and 1 in reach["levels"]
    assert "out of reach (proved)" in reach["why"]
    seven = Layout(six.start_at, six.start_rotation, six.rounds + [RoundPlay(7, tokens=list(offer.tokens))], ch.id)
    c = ceiling_any_draw(setup, seven, ch)
    assert c["ceiling"] < 55 and c["mission"]["status"] != "lost for good"
    assert c["stars"]["3"] == c["stars"]["2"] == "out of reach (proved: above the ceiling)"
    assert c["stars"]["1"] == "still open"
    path = tmp_path / "sparse.toml"
    path.write_text(seven.to_toml("seven rounds, tiles only in round 1"))
    res = run_cli("desert", "ceiling", path, "--json")
    assert res.code == 0, res.err
    assert json.loads(res.out)["stars"] == c["stars"]
    assert "any draw" in run_cli("desert", "ceiling", path).out
