"""A whole solo game: the seeded market, the online policies, a random baseline, and
perfect foresight (the CP-SAT layout model choosing the columns too).

The Desert's play sits above models/ (it asks models/desert_layout), which sits above
the Desert's domain (solver/desert).  Every layout produced here is judged by the referee
(:func:`solver.desert.referee.evaluate`), never by the code that produced it.
"""
from __future__ import annotations

import math
import time

from models.desert_layout import LayoutProblem, Offer, solve
from models.desert_layout.bounds import line_bounds
from models.desert_layout.lns import improve
from solver import progress
from solver.board.errors import InputError
from solver.desert.layout import Layout
from solver.desert.market import Market, RoundOffer, draw_market
from solver.desert.missions import Challenge
from solver.desert.referee import evaluate
from solver.desert.setup import Setup, load_setup
from solver.desert_play.ceiling import star_reach
from solver.desert_play.policies import beam_policy, greedy_layout, play_policy


def normalise(layout: Layout) -> Layout:
    """Shift a layout so that its smallest x and y are 0 (the solver's box starts there)."""
    return layout.normalised()



# ----------------------------------------------------------------------------- the layout solver
# Up to this many tiles (start tile included) a fixed-tiles problem is solved in the box
# that holds every layout; above it, in the ruleset's play_area_bound.
EXHAUSTIVE_MAX_TILES = 12


def solve_layout(
    setup: Setup,
    ch: Challenge,
    offers: list[RoundOffer],
    choose_columns: bool,
    time_limit: float,
    seed: int | None = None,
    hint: Layout | None = None,
    box: tuple[int, int] | None = None,
    workers: int = 2,
    deterministic_time: float | None = None,
    greedy_hint: bool = True,
    deterministic: bool = True,
) -> dict:
    """Run the CP-SAT layout model; the answer is replayed by the referee.

    Without a ``hint``, fixed tiles are first laid out greedily (round by round, as the
    online policy places a column) and that layout hints the model, so an answer is
    always at hand."""
    if setup.ruleset["same_kind_contact"] != "adjacent":
        raise InputError("the CP-SAT layout model knows only the reading same-kind-contact=adjacent (its proofs "
                         "would not hold under route-side); `desert score`, `advise` and the policies take it",
                         "--reading")
    # Fixed tiles, few enough: the n x n box cut at x + y <= n - 1 holds every layout of
    # the n tiles (see LayoutProblem.max_diagonal), so its proofs hold for the game.
    n_tiles = 1 + sum(len(o.columns[0]) for o in offers)
    exhaustive = box is None and not choose_columns and n_tiles <= EXHAUSTIVE_MAX_TILES
    if exhaustive:
        box = (n_tiles, n_tiles)
    box = box or tuple(setup.ruleset["play_area_bound"])
    problem = LayoutProblem(
        setup.tileset,
        setup.ruleset,
        ch,
        [Offer(o.number, [list(c) for c in o.columns], list(o.tokens)) for o in offers],
        box[0],
        box[1],
        choose_columns=choose_columns,
        max_diagonal=n_tiles - 1 if exhaustive else None,
    )
    if hint is None and not choose_columns and greedy_hint:
        hint = greedy_layout(setup, offers, ch, box)
    sol = solve(problem, time_limit=time_limit, workers=workers, hint=hint, deterministic_time=deterministic_time,
                deterministic=deterministic)
    out = {
        "status": sol.status,
        "model_objective": sol.objective,
        # the score is a whole number, so the floor of CP-SAT's bound is a bound too
        "bound": None if sol.bound is None else math.floor(sol.bound + 1e-6),
        "seconds": round(sol.seconds, 2),
        "box": list(box),
        "box_exhaustive": exhaustive,
        "layout": None,
        "evaluation": None,
        "from_hint": sol.from_hint,
        "deterministic": deterministic or deterministic_time is not None,
        "wall_capped": sol.wall_capped,
        # the line bound without a box: it holds for every layout of the game (models/desert_layout/bounds.py)
        "any_area_bound": line_bounds(setup.tileset, setup.ruleset, [[list(c) for c in o.columns] for o in offers],
                                      [list(o.tokens) for o in offers], None).total,
    }
    if sol.layout is not None:
        sol.layout.seed = seed if choose_columns else None
        market = Market(seed, tuple(offers)) if choose_columns else None
        ev = evaluate(setup, sol.layout, ch, market)
        out["layout"] = sol.layout
        out["evaluation"] = ev
    return out


def solve_seed(challenge: str, seed: int, time_limit: float, deterministic: bool = True) -> dict:
    """One seeded solo game, as a plain JSON-serialisable dict (for batch runs).

    Keys: challenge, seed, score (perfect foresight, best known; None when no layout
    meeting the mission was found), stars, proof (optimal / feasible / infeasible /
    unknown), bound (the solver's upper bound within the play-area box), seconds,
    mission_met, star_reach, and the online policy's and random baseline's results.
    """
    res = run_game(challenge, seed, time_limit, deterministic=deterministic)
    return {k: v for k, v in res.items() if not k.startswith("_")}


def perfect_foresight(
    setup: Setup,
    market: Market,
    ch: Challenge,
    time_limit: float,
    workers: int = 2,
    beam_width: int = 24,
    known: list[tuple[str, Layout]] | None = None,
    deterministic: bool = True,
    also: list[tuple[str, Layout]] = (),
) -> dict:
    """Best layout for a seeded game seeing the whole market, and an upper bound.

    Beam searches (and any ``known`` layouts, e.g. the online policy's) give starting
    layouts; the best of them is improved by large-neighbourhood search with the CP-SAT
    layout model (models/desert_layout/lns.py: windows of two rounds re-placed, the rest
    pinned) for the whole ``time_limit``.  Every candidate is judged by the referee.

    The bound is the combinatorial line bound of models/desert_layout/bounds.py WITHOUT the
    play-area box: an upper bound on every legal layout of the game, whose play area is
    unbounded (argument there).  The search stays inside the box (a restriction: fine for a
    layout, not for a bound, since the box is an assumption, instances/desert/ruleset.toml).
    The full model's own bound was never below the line bound in 20 work units on any
    benchmark seed (it holds it as a constraint), so the time goes to the search instead;
    "optimal" means the best layout reaches that bound, so it holds for the game."""
    t0 = time.perf_counter()
    candidates = []
    # Two valuations of the beam (pawn points counted once, and with a pawn bonus of 1):
    # neither finds the better layout on every market, and each costs a few seconds.
    starts = [("beam search", beam_policy(setup, market, ch, beam_width, pawn_bonus=0.0)),
              ("beam search (pawn bonus)", beam_policy(setup, market, ch, beam_width, pawn_bonus=1.0))]
    starts += known if known is not None else [("online policy", play_policy(setup, market, ch))]
    for name, lay in starts:
        ev = evaluate(setup, lay, ch, market)
        if ev["legal"] and ev["mission_met"]:
            candidates.append((ev["score"], name, lay, ev))
    candidates.sort(key=lambda c: -c[0])
    box = tuple(setup.ruleset["play_area_bound"])
    offers = [Offer(o.number, [list(c) for c in o.columns], list(o.tokens)) for o in market.rounds]

    def fixed_columns(lay: Layout) -> LayoutProblem:
        """The problem restricted to the columns ``lay`` took (a third of the tiles: the
        search moves tiles, not columns)."""
        taken = [Offer(o.round, [o.columns[rp.column - 1]], o.tokens) for o, rp in zip(offers, lay.rounds)]
        return LayoutProblem(setup.tileset, setup.ruleset, ch, taken, box[0], box[1])

    def judge(lay: Layout) -> int | None:
        lay.seed = market.seed
        ev = evaluate(setup, lay, ch, market)
        return ev["score"] if ev["legal"] and ev["mission_met"] else None

    seeds = list(candidates)
    for name, lay in also:  # judged as candidates, never a start of the boxed search (they may leave the box)
        ev = evaluate(setup, lay, ch, market)
        if ev["legal"] and ev["mission_met"]:
            candidates.append((ev["score"], name, lay, ev))
    lns = None
    t_lns = time.perf_counter()
    if seeds:
        # Deterministic: the whole limit in work units (the heuristics before it take the
        # same steps on every run); otherwise what the wall clock leaves.
        remaining = time_limit if deterministic else max(1.0, time_limit - (time.perf_counter() - t0))
        lns = improve(fixed_columns(seeds[0][2]), seeds[0][2], judge, remaining, deterministic=deterministic,
                      workers=workers)
        if lns.improved:
            candidates.append((lns.score, "layout solver (LNS)", lns.layout, evaluate(setup, lns.layout, ch, market)))
    best = max(candidates, key=lambda c: (c[0], c[1] == "layout solver (LNS)"), default=None)
    # Credit ties as ties: every source that reached the best score is named.
    best_from = None
    if best is not None:
        best_from = " = ".join(sorted({c[1] for c in candidates if c[0] == best[0]}))
    # box=None: the bound must hold for layouts of any shape (a straight line of tiles leaves any box)
    bound = line_bounds(setup.tileset, setup.ruleset, [o.columns for o in offers], [o.tokens for o in offers], None).total
    # Integer scores against an integer bound, compared exactly.
    status = "optimal" if best is not None and best[0] >= bound else ("feasible" if best is not None else "unknown")
    res = {
        "status": status,
        "bound": bound,
        "box": list(box),
        "box_exhaustive": False,
        "bound_any_area": True,
        "seconds": round(time.perf_counter() - t_lns, 2),
        "deterministic": deterministic,
        "wall_capped": bool(lns and lns.wall_capped),
        "lns_steps": lns.steps if lns else 0,
        "lns_improved": lns.improved if lns else 0,
        "consistent": lns.consistent if lns else True,
        "layout": best[2] if best else None,
        "evaluation": best[3] if best else None,
        "from_hint": False,
    }
    return {
        "status": status,
        "score": best[0] if best else None,
        "best_from": best_from,
        "layout": best[2] if best else None,
        "evaluation": best[3] if best else None,
        "bound": bound,
        "solver": res,
        "seconds": round(time.perf_counter() - t0, 2),
    }


def run_game(
    challenge: str,
    seed: int,
    time_limit: float,
    setup: Setup | None = None,
    workers: int = 2,
    online_kind: str = "rollout",
    deterministic: bool = True,
) -> dict:
    """:func:`solve_seed` plus the layouts (under ``_layouts``)."""
    setup = setup or load_setup()
    ch = setup.challenges.get(challenge)
    t0 = time.perf_counter()
    market = draw_market(seed, setup.tileset, setup.ruleset)
    # The policies play as at the table: no box (the game's play area has no edge), judged by the referee.  The
    # boxed CP-SAT search starts from the same policies played inside its 6x6 box (ruleset play_area_bound).
    kinds = [online_kind] + [k for k in ("greedy", "random") if k != online_kind]
    played, trace = {}, []
    for kind in kinds:
        progress.note(f"playing the game with the {kind} policy")
        tp = time.perf_counter()
        lay = play_policy(setup, market, ch, kind, trace=trace if kind == online_kind else None, box=None)
        ev = evaluate(setup, lay, ch, market)
        played[kind] = (lay, ev, round(time.perf_counter() - tp, 2))
    online, ev_o, online_s = played[online_kind]
    boxed = [(f"{k} policy in the box", play_policy(setup, market, ch, k)) for k in kinds if k != "random"]
    progress.note("perfect foresight: the layout model (CP-SAT)", online_score=ev_o["score"])
    pf = perfect_foresight(setup, market, ch, time_limit, workers=workers, known=boxed, deterministic=deterministic,
                           also=[(f"{k} policy", played[k][0]) for k in kinds if k != "random"])
    policies = [{"policy": k, "score": ev["score"], "legal": ev["legal"], "mission_met": ev["mission_met"],
                 "stars": ev["stars"], "seconds": secs} for k, (_, ev, secs) in played.items()]
    top = max(policies, key=lambda p: (p["legal"] and p["mission_met"], p["score"]))
    ev_r = played["random"][1]
    other = ({k: v for k, v in policies[kinds.index("greedy")].items() if k != "policy"}
             if online_kind != "greedy" else None)
    rnd = played["random"][0]
    solver = pf["solver"]
    best = pf["score"]
    met = best is not None
    out = {
        "challenge": challenge,
        "seed": seed,
        "score": best,
        "stars": ch.stars(best, True, setup.challenges.failed_stars) if met else setup.challenges.failed_stars,
        "proof": pf["status"],
        "bound": pf["bound"],
        "seconds": round(time.perf_counter() - t0, 2),
        "foresight_seconds": pf["seconds"],
        "mission_met": met,
        "best_from": pf["best_from"],
        "star_reach": star_reach(ch, pf["status"], best, pf["bound"], met, game_wide=True, any_area_bound=pf["bound"]),
        # The referee's score of every layout the model found is at least the model's
        # objective; anything else would be a modelling bug.
        "model_consistent": solver["consistent"],
        "online": {
            "policy": online_kind,
            "score": ev_o["score"],
            "legal": ev_o["legal"],
            "mission_met": ev_o["mission_met"],
            "stars": ev_o["stars"],
            "seconds": online_s,
            # its choice each round: the column taken and the value of each column (what the value is: "value")
            "rounds": trace,
        },
        "greedy": other,
        # every policy played on this seed, side by side (no box), and the best of them
        "policies": policies, "best_policy": top["policy"],
        "random": {"score": ev_r["score"], "legal": ev_r["legal"], "mission_met": ev_r["mission_met"], "stars": ev_r["stars"]},
        "box": solver["box"],
        "deterministic": solver["deterministic"],
        "wall_capped": solver["wall_capped"],
    }
    out["_layouts"] = {"best": pf["layout"], "online": online, "random": rnd}
    return out
