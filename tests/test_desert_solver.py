"""The CP-SAT layout model, judged by the independent referee and scorer.

The solver never checks its own answers: every layout it returns is replayed by
``solver.desert.layout.replay`` and scored by ``solver.desert.scoring``.
"""
import pytest

from models.desert_layout import LayoutProblem, Offer, solve
from solver.desert import missions
from solver.desert.referee import evaluate
from solver.desert.setup import load_setup
from solver.desert_play.game import normalise, solve_layout
from solver.desert_play.policies import play_policy
from solver.desert.layout import Pawn, PlayArea, token_allows
from solver.desert.market import Market, RoundOffer, draw_market
from solver.desert.scoring import final_score, pawn_points
from solver.desert.tiles import PAWN_KINDS

CHALLENGES = ["sharp-boundary", "lost-world", "desert-of-death"]


@pytest.fixture(scope="module")
def setup():
    return load_setup()


def small_market(setup, seed, rounds):
    mk = draw_market(seed, setup.tileset, setup.ruleset)
    return Market(seed, mk.rounds[:rounds])


def test_solver_answers_pass_the_referee_over_many_seeds(setup):
    """Fixed tiles (one column per round): legal, mission met, and the referee's score is the model's."""
    for seed in range(9):
        ch = setup.challenges.get(CHALLENGES[seed % 3])
        mk = small_market(setup, seed, 2)
        offers = [RoundOffer(o.number, (o.columns[seed % 3],), o.tokens) for o in mk.rounds]
        res = solve_layout(
            setup, ch, offers, False, time_limit=60, box=(4, 4), workers=1, deterministic_time=0.5, greedy_hint=False
        )
        assert res["status"] in ("optimal", "feasible"), (seed, res["status"])
        ev = res["evaluation"]
        assert ev["legal"], (seed, ev["violation"])
        assert ev["mission_met"], (seed, ev["missions"][ch.id])
        # A non-optimal solution may leave slack in the model's score variables; the
        # referee's score is never below the model's, and equal to it when proved optimal.
        assert ev["score"] >= res["model_objective"], (seed, ev["lines"], res["model_objective"])
        if res["status"] == "optimal":
            assert ev["score"] == res["model_objective"]
        assert res["bound"] >= ev["score"]
        assert not res["from_hint"] and len(ev["_area"].grid) > 1  # the search placed tiles


def test_solver_answers_with_column_choice_pass_the_referee(setup):
    """The solver picks the columns: the referee checks them against the seed's market."""
    for seed in (21, 22, 23):
        ch = setup.challenges.get(CHALLENGES[seed % 3])
        mk = small_market(setup, seed, 2)
        res = solve_layout(
            setup, ch, list(mk.rounds), True, time_limit=60, seed=seed, box=(4, 4), workers=1, deterministic_time=1.0
        )
        ev = res["evaluation"]
        assert ev is not None and ev["legal"], ev and ev["violation"]
        assert not res["from_hint"] and len(ev["_area"].grid) > 1  # the search placed tiles
        assert all(rp.column in (1, 2, 3) for rp in res["layout"].rounds)
        assert ev["mission_met"] and ev["score"] >= res["model_objective"]


def test_model_scores_fixed_layouts_exactly_as_the_referee(setup):
    """Pin the model to layouts played by the random and greedy policies: same score as the referee."""
    for seed, kind in [(1, "random"), (2, "random"), (3, "greedy"), (4, "random")]:
        mk = small_market(setup, seed, 3)
        ch = setup.challenges.get(CHALLENGES[seed % 3])
        lay = normalise(play_policy(setup, mk, ch, kind))
        ev = evaluate(setup, lay, ch, mk)
        assert ev["legal"], ev["violation"]
        problem = LayoutProblem(
            setup.tileset, setup.ruleset, ch if ev["mission_met"] else None,
            [Offer(o.number, [list(c) for c in o.columns], list(o.tokens)) for o in mk.rounds], 6, 6, True,
        )
        sol = solve(problem, time_limit=20, workers=1, fix=lay)
        assert sol.status == "optimal", (seed, sol.status)
        assert sol.objective == ev["score"], (seed, kind, sol.terms, ev["lines"])


def _brute_force(setup, tiles, tokens, box, ch, per_line=False):
    """Best score over every legal placement sequence and pawn choice (the referee's rules);
    with ``per_line``, the best of each score line on its own (pawn lines summed) and the total."""
    rs, ts = setup.ruleset, setup.tileset
    best = [None]
    lines: dict[str, int] = {}

    def with_pawns(area, i):
        if i == len(tokens):
            if ch is None or missions.check(ch, area).met:
                rep = final_score(area)
                s = rep.total
                best[0] = s if best[0] is None else max(best[0], s)
                if per_line:
                    here: dict[str, int] = {}
                    for line in rep.lines:
                        key = "pawns" if line.key.startswith("pawns") else line.key
                        here[key] = here.get(key, 0) + line.points
                    for key, val in here.items():
                        lines[key] = max(lines.get(key, val), val)
            return
        with_pawns(area, i + 1)  # the token may go unused
        for kind in PAWN_KINDS:
            if not token_allows(tokens[i], kind, rs):
                continue
            for cell, idx in area.free_pinpoints(kind):
                a2 = area.copy()
                pawn = Pawn(cell, idx, kind, tokens[i], 1)
                pawn.points = pawn_points(a2, pawn)
                a2.pawns.append(pawn)
                a2.used_pins.add((cell, idx))
                with_pawns(a2, i + 1)

    def fits(area, cell):
        xs = [c[0] for c in area.grid] + [cell[0]]
        ys = [c[1] for c in area.grid] + [cell[1]]
        return max(xs) - min(xs) < box[0] and max(ys) - min(ys) < box[1]

    def dfs(area, left):
        with_pawns(area, 0)  # the rest of the tiles may be left out
        for tid in sorted(set(left)):
            rest = list(left)
            rest.remove(tid)
            for cell, ot in area.legal_spots(ts.get(tid)):
                if fits(area, cell):
                    a2 = area.copy()
                    a2.place(ot, cell, 1)
                    dfs(a2, rest)

    for start in ts.start.distinct_rotations:  # the model fixes it: turning everything changes nothing
        area = PlayArea(ts, rs)
        area.place(start, (0, 0), 0)
        dfs(area, tiles)
    return (best[0], lines) if per_line else best[0]


@pytest.mark.parametrize("cid", [None] + CHALLENGES)
def test_proved_optimum_equals_exhaustive_search(setup, cid):
    # round 1: one active token (the active area fills one token a round); a star places a camel too
    tiles, tokens = ["C16", "D05", "D16"], ["star"]
    ch = setup.challenges.get(cid) if cid else None
    problem = LayoutProblem(setup.tileset, setup.ruleset, ch, [Offer(1, [tiles], tokens)], 3, 3)
    sol = solve(problem, time_limit=120, workers=1)
    assert sol.status == "optimal"
    assert sol.objective == _brute_force(setup, tiles, tokens, (3, 3), ch)
    ev = evaluate(setup, sol.layout, ch)
    assert ev["legal"] and ev["score"] == sol.objective


def test_hinted_solver_is_never_worse_than_the_online_policy(setup):
    mk = small_market(setup, 7, 3)
    ch = setup.challenges.get("lost-world")
    greedy = play_policy(setup, mk, ch, "greedy")
    ev_g = evaluate(setup, greedy, ch, mk)
    assert ev_g["legal"] and ev_g["mission_met"]
    res = solve_layout(setup, ch, list(mk.rounds), True, time_limit=60, seed=7, hint=greedy, workers=1, deterministic_time=2.0)
    ev = res["evaluation"]
    assert ev["legal"] and ev["mission_met"]
    assert ev["score"] >= ev_g["score"]


def test_policies_play_legal_games(setup):
    for seed in range(3):
        mk = draw_market(seed, setup.tileset, setup.ruleset)
        for cid in CHALLENGES:
            ch = setup.challenges.get(cid)
            g = evaluate(setup, play_policy(setup, mk, ch, "greedy"), ch, mk)
            r = evaluate(setup, play_policy(setup, mk, ch, "random"), ch, mk)
            assert g["legal"] and r["legal"], (g["violation"], r["violation"])
            assert g["mission_met"], (seed, cid, g["missions"][cid])
    for seed, cid in zip(range(3), CHALLENGES):
        mk = small_market(setup, seed, 4)
        ch = setup.challenges.get(cid)
        ro = evaluate(setup, play_policy(setup, mk, ch, "rollout", rollouts=2), ch, mk)
        assert ro["legal"] and ro["mission_met"], (seed, cid, ro["violation"], ro["missions"][cid])


def test_rollout_policy_never_looks_at_the_real_future(setup):
    """The online policy's choices in the first rounds must not change when later rounds change."""
    mk = draw_market(8, setup.tileset, setup.ruleset)
    other = draw_market(9, setup.tileset, setup.ruleset)
    mixed = Market(8, mk.rounds[:3] + tuple(
        RoundOffer(o.number, o.columns, o.tokens) for o in other.rounds[3:]
    ))
    ch = setup.challenges.get("lost-world")
    a = play_policy(setup, mk, ch, "rollout", rollouts=2)
    b = play_policy(setup, mixed, ch, "rollout", rollouts=2)
    assert [(rp.column, rp.tiles, rp.pawns) for rp in a.rounds[:3]] == [(rp.column, rp.tiles, rp.pawns) for rp in b.rounds[:3]]


def test_line_bounds_are_never_below_the_exhaustive_optimum(setup):
    """The combinatorial bound of bounds.py is an upper bound: the brute-force best of a tiny game is below it."""
    from models.desert_layout.bounds import line_bounds

    tiles, tokens = ["C16", "D05", "D16"], ["star"]
    best = _brute_force(setup, tiles, tokens, (4, 4), None)
    lb = line_bounds(setup.tileset, setup.ruleset, [[tiles]], [tokens], None)
    assert lb.total >= best


@pytest.mark.parametrize("tiles", [["D01", "D02", "C05"], ["D05", "D01", "C13"], ["D03", "D23", "C14"]])
def test_camel_reach_bound_is_never_below_the_exhaustive_best_of_any_line(setup, tiles):
    """The trail-degree bound on a camel's Desert Stations (straights and curves add none, a T
    one, a cross two) cuts the camel's points, and every line's bound is still at least the
    best that line reaches over every legal layout of the tiles (exhaustive enumeration)."""
    from models.desert_layout.bounds import line_bounds

    tokens = ["camel"]
    best, lines = _brute_force(setup, tiles, tokens, (4, 4), None, per_line=True)
    lb = line_bounds(setup.tileset, setup.ruleset, [[tiles]], [tokens], None)
    assert lb.total >= best
    for key, val in lines.items():
        assert lb.lines[key] >= val, (key, val, lb.lines)
    # the reach bound is what bounds the camel here: fewer than the trail sides placed
    trail = sum(1 for t in tiles for s in setup.tileset.get(t).sides if s == "desert-trail")
    assert lb.lines["pawns"] < trail


def _brute_force_rounds(setup, rounds, box):
    """Best of each score line (pawn lines summed) and of the total over every legal game of
    a few rounds: each round's tiles in any order and any subset (taken tiles are optional),
    then its tokens used or not, on any free pinpoint (the referee's rules)."""
    rs, ts = setup.ruleset, setup.tileset
    best: dict[str, int] = {}

    def fits(area, cell):
        xs = [c[0] for c in area.grid] + [cell[0]]
        ys = [c[1] for c in area.grid] + [cell[1]]
        return max(xs) - min(xs) < box[0] and max(ys) - min(ys) < box[1]

    def pawns(area, r, i):
        tokens = rounds[r][1]
        if i == len(tokens):
            tiles_of(area, r + 1, list(rounds[r + 1][0]) if r + 1 < len(rounds) else None)
            return
        pawns(area, r, i + 1)
        for kind in PAWN_KINDS:
            if token_allows(tokens[i], kind, rs):
                for cell, idx in area.free_pinpoints(kind):
                    a2 = area.copy()
                    pawn = Pawn(cell, idx, kind, tokens[i], r + 1)
                    pawn.points = pawn_points(a2, pawn)
                    a2.pawns.append(pawn)
                    a2.used_pins.add((cell, idx))
                    pawns(a2, r, i + 1)

    def tiles_of(area, r, left):
        if left is None:  # the game is over
            rep = final_score(area)
            here = {"total": rep.total}
            for line in rep.lines:
                key = "pawns" if line.key.startswith("pawns") else line.key
                here[key] = here.get(key, 0) + line.points
            for key, val in here.items():
                best[key] = max(best.get(key, val), val)
            return
        pawns(area, r, 0)  # the rest of the round's tiles may be left out
        for tid in sorted(set(left)):
            rest = list(left)
            rest.remove(tid)
            for cell, ot in area.legal_spots(ts.get(tid)):
                if fits(area, cell):
                    a2 = area.copy()
                    a2.place(ot, cell, r + 1)
                    tiles_of(a2, r, rest)

    area = PlayArea(ts, rs)
    area.place(ts.start, (0, 0), 0)
    tiles_of(area, 0, list(rounds[0][0]))
    return best


@pytest.mark.parametrize("rounds", [
    [(["C05"], ["star"]), (["C07", "D03"], ["star", "car"])],
    [(["D05"], ["camel"]), (["C13", "D01"], ["camel", "star"])],
])
def test_timed_pawn_bound_is_never_below_the_exhaustive_best_of_a_two_round_game(setup, rounds):
    """Pawns need a pinpoint on a tile placed by their round and the j-th of a kind scores at
    most j: the timed bound (a dynamic programme over the tokens in order) and every other
    line's bound stay at or above the best each reaches over every legal two-round game."""
    from models.desert_layout.bounds import line_bounds

    best = _brute_force_rounds(setup, rounds, (4, 4))
    lb = line_bounds(setup.tileset, setup.ruleset, [[tiles] for tiles, _ in rounds], [toks for _, toks in rounds], None)
    assert lb.total >= best["total"], (lb, best)
    for key, val in best.items():
        if key != "total":
            assert lb.lines[key] >= val, (key, val, lb.lines)


def test_timed_pawn_bound_cuts_the_per_opportunity_and_per_kind_bounds(setup):
    """On a full market the timed pawn bound is below both cheaper pawn bounds (a) and (b)."""
    from models.desert_layout import bounds

    mk = draw_market(0, setup.tileset, setup.ruleset)
    cols = [[list(c) for c in o.columns] for o in mk.rounds]
    toks = [list(o.tokens) for o in mk.rounds]
    lb = bounds.line_bounds(setup.tileset, setup.ruleset, cols, toks, (6, 6))
    cheap = bounds.line_bounds(setup.tileset, setup.ruleset, cols, toks, (6, 6), parts=("reach",))
    assert lb.lines["pawns"] < cheap.lines["pawns"] and lb.total < cheap.total


def test_line_bounds_hold_for_every_policy_game(setup):
    """Each referee score line of full games (greedy and random policies) is within its bound, and so is the total."""
    from models.desert_layout.bounds import line_bounds

    box = tuple(setup.ruleset["play_area_bound"])
    for seed in range(2):
        mk = draw_market(seed, setup.tileset, setup.ruleset)
        lb = line_bounds(setup.tileset, setup.ruleset, [[list(c) for c in o.columns] for o in mk.rounds],
                         [list(o.tokens) for o in mk.rounds], box)
        for cid, kind in zip(CHALLENGES, ("greedy", "random", "greedy")):
            ch = setup.challenges.get(cid)
            ev = evaluate(setup, play_policy(setup, mk, ch, kind), ch, mk)
            assert ev["legal"]
            lines = {}
            for line in ev["lines"]:
                key = "pawns" if line["key"].startswith("pawns") else line["key"]
                lines[key] = lines.get(key, 0) + line["points"]
            for key, val in lines.items():
                assert val <= lb.lines[key], (seed, cid, key, val, lb.lines)
            assert ev["score"] <= lb.total


def test_the_tile_count_box_holds_every_layout_so_its_optimum_is_the_games(setup):
    """Fixed tiles: the n x n box cut at x + y <= n - 1 gives the same proved optimum as a search with no box."""
    tiles, tokens = ["C16", "D05", "D16"], ["star"]
    res = solve_layout(setup, None, [RoundOffer(1, (tuple(tiles),), tuple(tokens))], False, time_limit=60, workers=1)
    assert res["box_exhaustive"] and res["box"] == [4, 4]
    assert res["status"] == "optimal"
    # a straight line of the 4 tiles fits in the 4 x 4 box: the brute force in that box is unrestricted
    assert res["evaluation"]["score"] == res["model_objective"] == _brute_force(setup, tiles, tokens, (4, 4), None)


def test_large_neighbourhood_search_keeps_only_layouts_the_referee_scores_higher(setup):
    """Each LNS step is judged by the referee; the layout returned replays legally, meets the
    mission and scores what the search says, at least the starting layout's score."""
    from models.desert_layout import LayoutProblem, Offer
    from models.desert_layout.lns import improve

    mk = small_market(setup, 5, 3)
    ch = setup.challenges.get("sharp-boundary")
    start = play_policy(setup, mk, ch, "greedy")
    ev0 = evaluate(setup, start, ch, mk)
    assert ev0["legal"] and ev0["mission_met"]
    taken = [Offer(o.number, [list(o.columns[rp.column - 1])], list(o.tokens)) for o, rp in zip(mk.rounds, start.rounds)]
    problem = LayoutProblem(setup.tileset, setup.ruleset, ch, taken, 6, 6)
    judged = []

    def judge(lay):
        lay.seed = mk.seed
        ev = evaluate(setup, lay, ch, mk)
        judged.append(ev["score"])
        return ev["score"] if ev["legal"] and ev["mission_met"] else None

    res = improve(problem, start, judge, units=4, window_units=2)
    assert res.steps == 2 and len(judged) >= 1 + res.steps - sum(1 for w, m, s in res.log if m is None)
    assert res.consistent
    ev = evaluate(setup, res.layout, ch, mk)
    assert ev["legal"] and ev["mission_met"] and ev["score"] == res.score >= ev0["score"]
    assert [rp.column for rp in res.layout.rounds] == [rp.column for rp in start.rounds]
