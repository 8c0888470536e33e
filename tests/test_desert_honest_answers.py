"""Issue 33 (b)-(f): boxed proofs decide no star level of the game, unfinished records earn no
stars, the last round is chosen on the referee's final score, a round's pawns are the best
assignment of its tokens (exactly), and a search the wall-clock cap cut says so.

Each test failed on the code before the fix (8b4d78b): star_reach turned a boxed OPTIMAL into
"not reachable" and never used the any-area bound; a 7-round record earned stars; the greedy
policy took 58 over 62 on Lost World seed 7; greedy pawns left points on the table and placed
camels that score 0; perfect_foresight hard-coded wall_capped = False."""
from __future__ import annotations

import itertools
import json

import pytest

from solver.desert import network, scoring
from solver.desert.area import Pawn, token_allows
from solver.desert.referee import evaluate
from solver.desert.setup import load_setup
from solver.desert_play.ceiling import star_reach
from solver.desert_play.game import perfect_foresight
from solver.desert_play.policies import place_pawns, play_column, play_policy
from solver.desert.layout import Layout, RoundPlay, replay
from solver.desert.market import Market, draw_market
from solver.desert.missions import Challenge
from solver.desert.tiles import PAWN_KINDS


@pytest.fixture(scope="module")
def setup():
    return load_setup()


# ----------------------------------------------------------------------------- (b) boxed proofs
LINE = Challenge("line", "Line of 13", "boundary-in-one-line", "", (5, 9, 12))


def test_a_proof_inside_the_play_area_box_never_says_not_reachable():
    # 13 tiles in the 6x6 box, proved optimal at 11 there; a straight line of 13 tiles leaves the
    # box and scores 12, so the boxed proof says nothing about 12 for the game
    reach = star_reach(LINE, "optimal", 11, 11, True, game_wide=False, any_area_bound=13, box=(6, 6))
    assert reach["1"] == "reached" and reach["2"] == "reached"
    assert reach["3"].startswith("unknown") and "6x6 box" in reach["3"]
    infeasible = star_reach(LINE, "infeasible", None, None, False, game_wide=False, any_area_bound=13, box=(6, 6))
    assert all(v.startswith("unknown") for v in infeasible.values())


def test_the_any_area_bound_proves_a_star_level_unreachable():
    # no finished search, but the bound for any play area (11) is below 12: proved for the game
    reach = star_reach(LINE, "feasible", 10, 11, True, game_wide=False, any_area_bound=11, box=(6, 6))
    assert reach["3"].startswith("not reachable") and "any play area" in reach["3"]
    assert reach["2"] == "reached"


def test_a_proof_in_a_box_that_holds_every_layout_holds_for_the_game():
    reach = star_reach(LINE, "optimal", 10, 10, True, game_wide=True, any_area_bound=20, box=(13, 13))
    assert reach["3"] == "not reachable"


def test_solve_text_names_the_box_of_a_boxed_proof(run_cli, tmp_path, monkeypatch):
    """The CLI hands the box to star_reach and words a boxed OPTIMAL as 'within the play-area bound'."""
    from solver.desert_play import game

    real = game.solve_layout

    def boxed(setup, ch, offers, choose_columns, time_limit, **kw):
        res = real(setup, ch, offers, choose_columns, time_limit, **kw)
        # what a 13-tile list gets: the 6x6 play-area box, a finished search inside it
        res.update(status="optimal", box_exhaustive=False, box=[6, 6], bound=res["evaluation"]["score"],
                   any_area_bound=100)  # above every threshold: only the boxed proof could decide
        return res

    monkeypatch.setattr(game, "solve_layout", boxed)
    tiles = tmp_path / "t.toml"
    tiles.write_text('[[round]]\ntiles = ["C17", "C05"]\ntokens = []\n')
    res = run_cli("desert", "solve", "--challenge", "sharp-boundary", "--tiles", tiles, "--time-limit", "1")
    assert res.code == 0, res.err
    assert "OPTIMAL (proved) within the play-area bound" in res.out
    assert "not reachable" not in res.out.replace("not reachable within the 6x6 box", "")
    assert "unknown (not reachable within the 6x6 box, proved" in res.out
    js = json.loads(run_cli("desert", "solve", "--challenge", "sharp-boundary", "--tiles", tiles, "--time-limit", "1",
                            "--json").out)
    assert not js["bound_holds_for_game"]
    assert all(v.startswith("unknown") or v == "reached" for v in js["star_reach"].values())


# ----------------------------------------------------------------------------- (c) unfinished records
def test_an_unfinished_record_says_so_and_earns_no_stars(setup, run_cli, tmp_path):
    ch = setup.challenges.get("lost-world")
    mk = draw_market(6, setup.tileset, setup.ruleset)
    full = play_policy(setup, mk, ch, "greedy")
    cut = Layout(full.start_at, full.start_rotation, full.rounds[:7], full.challenge, full.seed)
    ev = evaluate(setup, cut, ch, mk)
    # the precondition that makes the test bite: 7 rounds already score a star's worth, mission met
    assert ev["legal"] and ev["mission_met"] and ev["score"] >= ch.thresholds[0], ev["score"]
    assert ev["complete"] is False and ev["rounds_played"] == 7 and ev["stars"] == 0
    assert any("unfinished game" in n for n in ev["notes"])
    assert evaluate(setup, full, ch, mk)["complete"] is True
    path = tmp_path / "seven.toml"
    path.write_text(cut.to_toml("seven rounds"))
    res = run_cli("desert", "score", path)
    assert "unfinished game (7 of 8 rounds): no stars" in res.out and "-> 0 stars" in res.out


# ----------------------------------------------------------------------------- (d) the last round
def _finished_with_each_column(setup, mk, ch, lay):
    """The referee's final score of the game finished with each column of the last round,
    tiles and pawns placed as in the other rounds."""
    head = Layout(lay.start_at, lay.start_rotation, lay.rounds[:-1], lay.challenge, lay.seed)
    area = replay(head, setup.tileset, setup.ruleset, mk).area
    last = mk.rounds[-1]
    box = tuple(setup.ruleset["play_area_bound"])
    out = []
    for k, col in enumerate(last.columns):
        trial = area.copy()
        tiles = play_column(trial, list(col), last.number, ch, box, None)
        pawns = place_pawns(trial, last.tokens, ch, None, last.number)
        done = Layout(lay.start_at, lay.start_rotation, head.rounds + [RoundPlay(last.number, k + 1, tiles=tiles, pawns=pawns)],
                      lay.challenge, lay.seed)
        ev = evaluate(setup, done, ch, mk)
        out.append(ev["score"] if ev["legal"] and ev["mission_met"] else None)
    return out


@pytest.mark.parametrize("kind,cid,seed", [("greedy", "lost-world", 7), ("greedy", "sharp-boundary", 2)])
def test_the_last_round_takes_the_column_with_the_best_final_score(setup, kind, cid, seed):
    ch = setup.challenges.get(cid)
    mk = draw_market(seed, setup.tileset, setup.ruleset)
    trace = []
    lay = play_policy(setup, mk, ch, kind, trace=trace)
    ev = evaluate(setup, lay, ch, mk)
    finals = _finished_with_each_column(setup, mk, ch, lay)
    assert ev["score"] == max(v for v in finals if v is not None), (ev["score"], finals)
    assert trace[-1]["values"] == finals and "final score" in trace[-1]["value"]


# ----------------------------------------------------------------------------- (e) pawns
def _brute_best(area, tokens):
    """The best points of this round's pawns over every assignment of tokens to (kind,
    free pinpoint) or to nothing, each scored by the referee's scorer, in token order."""
    rs = area.ruleset
    options = []
    for t in tokens:
        opts = [None]
        for k in PAWN_KINDS:
            if token_allows(t, k, rs):
                opts += [(c, i, k) for c, i in area.free_pinpoints(k)]
        options.append(opts)
    best = 0
    for combo in itertools.product(*options):
        pins = [(c, i) for c, i, _ in filter(None, combo)]
        if len(set(pins)) < len(pins):
            continue
        if area.camels() + sum(1 for x in combo if x and x[2] == "camel") > rs["camel_pawns"]:
            continue
        trial = area.copy()
        pts = 0
        for t, x in zip(tokens, combo):
            if x is None:
                continue
            pawn = Pawn(x[0], x[1], x[2], t, 9)
            pawn.points = scoring.pawn_points(trial, pawn)
            pts += pawn.points
            trial.pawns.append(pawn)
        best = max(best, pts)
    return best


def _positions(setup, seeds, limit):
    """Play areas after a round's tiles, before its pawns, from greedy games; with that round's tokens."""
    ch = None
    for seed in seeds:
        mk = draw_market(seed, setup.tileset, setup.ruleset)
        lay = play_policy(setup, mk, ch, "greedy")
        seen = []

        def watch(rp, area, tokens):
            seen.append((rp.number, area.copy()))

        replay(lay, setup.tileset, setup.ruleset, mk, observe=watch)
        for number, after in seen[1:]:
            # the area with this round's pawns taken off again
            area = after.copy()
            area.pawns = [p for p in area.pawns if p.round != number]
            area.used_pins = {(p.cell, p.pinpoint) for p in area.pawns}
            tokens = mk.rounds[number - 1].tokens
            size = 1
            for t in tokens:
                size *= 1 + sum(len(area.free_pinpoints(k)) for k in PAWN_KINDS if token_allows(t, k, setup.ruleset))
            if size <= limit:
                yield seed, number, area, tokens


def test_a_rounds_pawns_are_the_best_assignment_of_its_tokens(setup, monkeypatch):
    cache = {}
    real = network.build

    def cached(area, trail_only):  # networks depend on the tiles only, not on the pawns
        key = (tuple(sorted((c, p.tile.id, p.tile.rotation) for c, p in area.grid.items())), trail_only)
        if key not in cache:
            cache[key] = real(area, trail_only)
        return cache[key]

    monkeypatch.setattr(network, "build", cached)
    checked = 0
    for seed, number, area, tokens in _positions(setup, range(4), 6000):
        placed = area.copy()
        plays = place_pawns(placed, tokens, None, None, number)
        got = sum(p.points for p in placed.pawns if p.round == number)
        assert got == _brute_best(area, tokens), (seed, number, tokens)
        assert len(plays) <= len(tokens)
        checked += 1
    assert checked >= 10


def test_no_policy_pawn_is_a_camel_that_scores_nothing(setup):
    for seed in range(3):
        mk = draw_market(seed, setup.tileset, setup.ruleset)
        ch = setup.challenges.get("sharp-boundary")
        ev = evaluate(setup, play_policy(setup, mk, ch, "greedy"), ch, mk)
        assert not [p for p in ev["pawns"] if p["kind"] == "camel" and p["points"] == 0], seed


# ----------------------------------------------------------------------------- (f) the wall-clock cap
def test_a_search_the_wall_clock_cap_cut_is_flagged_not_reproducible(setup, monkeypatch):
    from models.desert_layout import lns

    monkeypatch.setattr(lns, "wall_cap", lambda units: 0.0)  # every step reaches "the cap"
    mk = draw_market(4, setup.tileset, setup.ruleset)
    small = Market(4, mk.rounds[:2])
    pf = perfect_foresight(setup, small, setup.challenges.get("lost-world"), 0.5, beam_width=2)
    assert pf["solver"]["wall_capped"] is True
    monkeypatch.setattr(lns, "wall_cap", lambda units: 1e9)
    pf = perfect_foresight(setup, small, setup.challenges.get("lost-world"), 0.5, beam_width=2)
    assert pf["solver"]["wall_capped"] is False
