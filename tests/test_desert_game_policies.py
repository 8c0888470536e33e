"""`desert game` (issue 40): its policies play as at the table, without the 6x6 box the game does not have (the
box stays only for the boxed CP-SAT search they seed), and the answer compares them side by side and names the
best (before, the headline policy showed 53 where greedy scored 61, never compared)."""
from __future__ import annotations

import json

import pytest

from solver.desert.referee import evaluate
from solver.desert.setup import load_setup
from solver.desert_play.game import run_game
from solver.desert_play.policies import play_policy
from solver.desert.market import draw_market


@pytest.fixture(scope="module")
def setup():
    return load_setup()


@pytest.fixture(scope="module")
def game(setup):
    return run_game("lost-world", 1, 1.0, setup=setup, online_kind="greedy")


def test_game_policies_play_without_the_box(setup, game):
    """Lost World seed 1: the greedy policy's game leaves the 6x6 box (8 tiles tall) and scores 59 there, 43 in
    the box; the game's greedy policy is the box-free one, replayed by the referee."""
    ch, market = setup.challenges.get("lost-world"), draw_market(1, setup.tileset, setup.ruleset)
    free = play_policy(setup, market, ch, "greedy", box=None)
    assert game["_layouts"]["online"].rounds == free.rounds
    x0, y0, x1, y1 = evaluate(setup, free, ch, market)["_area"].bounds()
    assert max(x1 - x0, y1 - y0) + 1 > 6
    assert game["online"]["score"] == evaluate(setup, free, ch, market)["score"]
    assert game["online"]["score"] > evaluate(setup, play_policy(setup, market, ch, "greedy"), ch, market)["score"]


def test_game_compares_the_policies_and_names_the_best(setup, game):
    """Every policy's referee score side by side, the best named, and the best layout found never below a
    policy that met the mission (the box-free policies' layouts are candidates too)."""
    ch, market = setup.challenges.get("lost-world"), draw_market(1, setup.tileset, setup.ruleset)
    pols = {p["policy"]: p for p in game["policies"]}
    assert set(pols) == {"greedy", "random"}
    assert pols["random"]["score"] == evaluate(setup, game["_layouts"]["random"], ch, market)["score"]
    best = max(game["policies"], key=lambda p: (p["legal"] and p["mission_met"], p["score"]))
    assert game["best_policy"] == best["policy"]
    assert all(game["score"] >= p["score"] for p in game["policies"] if p["legal"] and p["mission_met"])


def test_game_text_shows_the_policies_side_by_side(run_cli):
    res = run_cli("desert", "game", "--challenge", "desert-of-death", "--seed", "5", "--time-limit", "1",
                  "--online", "greedy")
    assert res.code == 0, res.err
    line = next(l for l in res.out.splitlines() if l.startswith("Policies side by side"))
    assert "greedy " in line and "random " in line and "Best policy: " in line and "without a box" in line
