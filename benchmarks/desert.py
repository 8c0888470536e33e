"""Benchmark of the Railroad Tiles Desert solo challenges.

For each challenge and seed: the online policy's score and time (rollout; the
greedy policy too), a random legal placer's score (the baseline) and the gap; for the first ``--pf-seeds`` seeds
also the perfect-foresight score (beam searches + LNS with the CP-SAT layout model over the
seed's whole market), its proof status and bound.  Writes one CSV row per
(challenge, seed) and a Markdown summary.

    python benchmarks/desert.py --seeds 50 --pf-seeds 6 --time-limit 20

Deterministic by default: CP-SAT runs with one worker and ``--time-limit`` counts its
deterministic work units, so a rerun gives the same layouts, scores and bounds
(``--no-deterministic``: 2 workers, wall-clock seconds).

Every layout is judged by the referee (solver.desert.layout.replay); numbers are
about the stand-in tile catalogues and the assumed core values of
instances/desert/ruleset.toml.
"""
from __future__ import annotations

import argparse
import csv
import io
import os
import pathlib
import statistics
import sys
import time

from tqdm import tqdm

from solver.desert.referee import evaluate
from solver.desert.setup import load_setup
from solver.desert_play.game import run_game
from solver.desert_play.policies import play_policy
from solver.desert.market import draw_market
from models.desert_layout.bounds import line_bounds
from solver.report.output import write_atomic

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHALLENGES = ["sharp-boundary", "lost-world", "desert-of-death"]
FIELDS = [
    "challenge", "seed",
    "pf_score", "pf_proof", "pf_bound", "pf_gap", "pf_gap_pct", "pf_line_bound", "pf_line_bound_any_area",
    "pf_stars", "pf_mission_met", "pf_best_from", "pf_seconds", "pf_wall_capped", "model_consistent",
    "online_score", "online_mission_met", "online_stars", "online_seconds",
    "greedy_score", "greedy_mission_met", "greedy_stars", "greedy_seconds",
    "random_score", "random_mission_met", "random_stars",
    "gap_pf_online", "gap_online_random",
    "before_online_score", "before_online_mission_met", "before_online_seconds",
    "before_greedy_score", "before_greedy_mission_met", "best_found",
    "advise_score", "advise_mission_met", "advise_stars", "advise_cpu_max_round",
]
# The policies before issue 33 (the last round ranked with pawn points counted twice, pawns
# placed token by token): solver/desert/game.py of this commit, loaded from git (_old_game).
BEFORE = "8b4d78b"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=50, help="seeds per challenge for the policies (default 50)")
    ap.add_argument("--pf-seeds", type=int, default=50, help="of those, how many also get perfect foresight (default 50)")
    ap.add_argument("--time-limit", type=float, default=30.0, help="seconds of perfect foresight per seed (default 30)")
    ap.add_argument("--challenges", default=",".join(CHALLENGES), help="comma-separated challenge ids")
    ap.add_argument("--out", type=pathlib.Path, default=ROOT / "results" / "desert.csv")
    ap.add_argument("--summary", type=pathlib.Path, default=None, help="Markdown summary (default: OUT with .md)")
    ap.add_argument(
        "--scaling",
        default="",
        help="instead: time-to-proof of the layout solver on fixed tile lists of these sizes, e.g. 2,4,6,8 "
        "(writes results/desert-scaling.csv)",
    )
    ap.add_argument("--scaling-samples", type=int, default=3, help="tile lists per size for --scaling")
    ap.add_argument(
        "--deterministic", action=argparse.BooleanOptionalAction, default=True,
        help="one CP-SAT worker, --time-limit in deterministic work units (default); reruns give the same numbers",
    )
    ap.add_argument(
        "--before", default=BEFORE, metavar="COMMIT",
        help=f"also play the online and greedy policies of this commit (its solver/desert_play/policies.py, or solver/desert/game.py before the split) on every seed, side by "
        f"side with today's (default {BEFORE}, the policies before issue 33; '' to skip)",
    )
    ap.add_argument(
        "--advise-futures", type=int, default=4, metavar="N",
        help="also follow `desert advise` (the lookahead, N futures a round at most, no time budget: deterministic) "
        "round by round on every seed, as benchmarks/desert_advise.py does (default 4; 0 to skip)",
    )
    ap.add_argument(
        "--advise-work", type=int, default=0, metavar="W",
        help="the advice's deterministic work budget a round (`desert advise --work W`: a next future only while "
        "the work fits; default 0 = none, --advise-futures alone fixes the work)",
    )
    ap.add_argument(
        "--compare-policy", default="", metavar="COMMIT",
        help="instead: the online rollout policy of this commit (policies.py or, before the split, game.py) against today's, side by side "
        "on the same seeds (writes results/desert-policy-compare.csv)",
    )
    ap.add_argument(
        "--bound-ablation", action="store_true",
        help="instead: the line bound of the first --pf-seeds markets with and without the camel-reach and the timed "
        "pawn bound, against the best layouts of results/desert.csv (writes results/desert-bounds.md)",
    )
    args = ap.parse_args(argv)
    if args.bound_ablation:
        return bound_ablation(args, argv)
    if args.scaling:
        return scaling(args, argv)
    if args.compare_policy:
        return compare_policy(args)
    summary_path = args.summary or args.out.with_suffix(".md")
    setup = load_setup()
    before = _old_game(args.before) if args.before else None
    challenges = [c.strip() for c in args.challenges.split(",") if c.strip()]
    rows = []
    t_start = time.perf_counter()
    load_start = os.getloadavg()
    jobs = [(c, s) for c in challenges for s in range(args.seeds)]
    for cid, seed in tqdm(jobs, desc="desert", file=sys.stderr, disable=not sys.stderr.isatty()):
        ch = setup.challenges.get(cid)
        row = {"challenge": cid, "seed": seed}
        if seed < args.pf_seeds:
            res = run_game(cid, seed, args.time_limit, setup=setup, deterministic=args.deterministic)
            market = draw_market(seed, setup.tileset, setup.ruleset)
            cols = [[list(c) for c in o.columns] for o in market.rounds]
            toks = [list(o.tokens) for o in market.rounds]
            lb_box = line_bounds(setup.tileset, setup.ruleset, cols, toks, tuple(setup.ruleset["play_area_bound"]))
            lb_any = line_bounds(setup.tileset, setup.ruleset, cols, toks, None)
            # the game's bound: no box (the 6x6 box is an assumption of the search, not of the game)
            bound = res["bound"] if res["bound"] is not None else lb_any.total
            gap = None if res["score"] is None else bound - res["score"]
            row.update(
                pf_score=res["score"], pf_proof=res["proof"], pf_bound=bound, pf_gap=gap,
                pf_gap_pct=None if gap is None else round(100 * gap / max(1, res["score"]), 1),
                pf_line_bound=lb_box.total, pf_line_bound_any_area=lb_any.total, pf_stars=res["stars"],
                pf_mission_met=res["mission_met"], pf_best_from=res["best_from"], pf_seconds=res["foresight_seconds"],
                pf_wall_capped=res["wall_capped"], model_consistent=res["model_consistent"],
                online_score=res["online"]["score"], online_mission_met=res["online"]["mission_met"],
                online_stars=res["online"]["stars"], online_seconds=res["online"]["seconds"],
                greedy_score=res["greedy"]["score"], greedy_mission_met=res["greedy"]["mission_met"],
                greedy_stars=res["greedy"]["stars"], greedy_seconds=res["greedy"]["seconds"],
                random_score=res["random"]["score"], random_mission_met=res["random"]["mission_met"],
                random_stars=res["random"]["stars"],
            )
        else:
            market = draw_market(seed, setup.tileset, setup.ruleset)
            for kind in ("online", "greedy"):
                t0 = time.perf_counter()
                lay = play_policy(setup, market, ch, "rollout" if kind == "online" else "greedy", box=None)
                secs = time.perf_counter() - t0
                ev = evaluate(setup, lay, ch, market)
                row.update({f"{kind}_score": ev["score"], f"{kind}_mission_met": ev["mission_met"],
                            f"{kind}_stars": ev["stars"], f"{kind}_seconds": round(secs, 2)})
            ev_r = evaluate(setup, play_policy(setup, market, ch, "random", box=None), ch, market)
            row.update(random_score=ev_r["score"], random_mission_met=ev_r["mission_met"], random_stars=ev_r["stars"])
        if args.advise_futures > 0:
            from desert_advise import follow_advice   # benchmarks/desert_advise.py: the advice followed each round

            ev_a, cpu = follow_advice(setup, draw_market(seed, setup.tileset, setup.ruleset), ch, args.advise_futures,
                                      work=args.advise_work or None)
            row.update(advise_score=ev_a["score"], advise_mission_met=ev_a["mission_met"], advise_stars=ev_a["stars"],
                       advise_cpu_max_round=round(max(cpu), 2))
        if before is not None:
            market = draw_market(seed, setup.tileset, setup.ruleset)
            for kind in ("online", "greedy"):
                t0 = time.perf_counter()
                lay = before.play_policy(setup, market, ch, "rollout" if kind == "online" else "greedy")
                secs = time.perf_counter() - t0
                ev = evaluate(setup, lay, ch, market)  # today's referee judges both
                row.update({f"before_{kind}_score": ev["score"] if ev["legal"] else None,
                            f"before_{kind}_mission_met": ev["mission_met"], f"before_{kind}_seconds": round(secs, 2)})
        if row.get("pf_score") is not None:
            row["gap_pf_online"] = row["pf_score"] - row["online_score"]
            # the best layout found on this seed by anything in this run (mission met)
            row["best_found"] = max([row["pf_score"]] + [row[k] for k in ("before_online_score", "before_greedy_score",
                                                                           "advise_score")
                                                         if row.get(k) is not None and row.get(k.replace("score", "mission_met"))])
        row["gap_online_random"] = row["online_score"] - row["random_score"]
        rows.append(row)
        # every finished seed is on disk at once: a long run that is stopped keeps what it measured
        _write_rows(args.out, rows)
        print(f"{cid} seed {seed}: " + ", ".join(f"{k}={row[k]}" for k in ("pf_score", "pf_bound", "pf_proof",
                                                                      "online_score") if row.get(k) is not None),
              flush=True)
    _write_rows(args.out, rows)
    args.load = (load_start, os.getloadavg())
    text = summarise(rows, args, setup, time.perf_counter() - t_start, argv)
    summary_path.write_text(text)
    print(text)
    return 0


def _write_rows(out: pathlib.Path, rows: list[dict]) -> None:
    """The CSV of the rows so far, replaced whole (a stopped run keeps what it measured)."""
    text = io.StringIO()
    w = csv.DictWriter(text, fieldnames=FIELDS, extrasaction="ignore")
    w.writeheader()
    w.writerows({k: r.get(k, "") for k in FIELDS} for r in rows)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, text.getvalue())


def _share(rows, key, pred) -> str:
    vals = [r for r in rows if r.get(key) not in (None, "")]
    if not vals:
        return "-"
    k = sum(1 for r in vals if pred(r))
    return f"{k}/{len(vals)} ({100 * k / len(vals):.0f}%)"


def _stats(vals) -> str:
    vals = [v for v in vals if v not in (None, "")]
    if not vals:
        return "-"
    return f"mean {statistics.mean(vals):.1f}, median {statistics.median(vals):.1f}, min {min(vals)}, max {max(vals)}"


def summarise(rows, args, setup, seconds, argv) -> str:
    import shlex

    cmd = "python benchmarks/desert.py " + shlex.join(argv if argv is not None else sys.argv[1:])  # '' kept
    lines = [
        "# Railroad Tiles Desert: benchmark",
        "",
        f"Command: `{cmd.strip()}`  ",
        f"Wall time: {seconds / 60:.1f} min on this machine (2 cores shared with other jobs); "
        f"load average {args.load[0][0]:.1f} at the start, {args.load[1][0]:.1f} at the end.  ",
        ("Mode: deterministic: CP-SAT with 1 worker, the limit in its deterministic work units "
         "(a rerun gives the same numbers; wall seconds per unit grow with the load).  "
         if args.deterministic else "Mode: not deterministic: CP-SAT with 2 workers under a wall-clock limit.  "),
        f"Seeds per challenge: {args.seeds} for the online policy and the random baseline; "
        f"the first {min(args.pf_seeds, args.seeds)} also with perfect foresight ({args.time_limit:g} "
        f"{'work units' if args.deterministic else 's'} of CP-SAT each).  ",
        "Perfect foresight = best of two beam searches (pawn points counted once / with the pawn bonus), the online "
        "and greedy policies, and a large-neighbourhood search with the CP-SAT layout model started from the best of "
        f"them (two-round windows re-placed, the rest pinned; all {args.time_limit:g} units), within a "
        f"{setup.ruleset['play_area_bound'][0]}x{setup.ruleset['play_area_bound'][1]} play area; every layout replayed "
        "by the referee.  ",
        "Bound = the combinatorial line bound of models/desert_layout/bounds.py for ANY play area, so a bound on "
        "every legal layout of the game (per column choice: rectangle at most the tiles, cities, landmark sets, and "
        "the timed pawn bound with the camel-reach bound; the argument for each is in that file, each is tested "
        "against exhaustive enumeration); gap = bound - best score; proof = optimal only when the best layout "
        "reaches the bound; `line bound (in box)` is the same bound inside the assumed box the search uses "
        "(largest rectangle that fits), shown for comparison only: it is not a bound on the game.",
        "",
        "Policies (online = rollout, greedy, random, and `advise` when run) play without a box, as at the table "
        "(the game's play area has no edge); `advise` = `desert advise` followed round by round (the lookahead, "
        f"at most {args.advise_futures} futures a round, "
        + (f"a next one only while the work fits in {args.advise_work} units (`desert advise --futures "
           f"{args.advise_futures} --work {args.advise_work} --time 0`), " if args.advise_work else "")
        + "no time budget: deterministic), its record fed back each round.  ",
        "",
        "Numbers are about the STAND-IN tile catalogues and the assumed core values (instances/desert/ruleset.toml).",
        "",
    ]
    if any(r.get("before_online_score") not in (None, "") for r in rows):
        lines += _before_after(rows, args, setup)
    for cid in sorted({r["challenge"] for r in rows}, key=CHALLENGES.index):
        rs = [r for r in rows if r["challenge"] == cid]
        pf = [r for r in rs if r.get("pf_score") not in (None, "") or r.get("pf_proof")]
        lines += [f"## {setup.challenges.get(cid).name}", ""]
        if pf:
            proofs = {}
            for r in pf:
                proofs[r["pf_proof"]] = proofs.get(r["pf_proof"], 0) + 1
            lines += [
                f"- perfect foresight ({len(pf)} seeds): score {_stats([r['pf_score'] for r in pf])}",
                f"  - proof status: " + ", ".join(f"{k} {v}" for k, v in sorted(proofs.items())),
                f"  - bound: {_stats([r['pf_bound'] for r in pf])}; the same inside the search's box (not a game bound): "
                f"{_stats([r['pf_line_bound'] for r in pf])}",
                f"  - gap bound - best: {_stats([r['pf_gap'] for r in pf])}; in % of the best: "
                f"{_stats([r['pf_gap_pct'] for r in pf])}",
                f"  - goal (bound within 10% of the best): {sum(1 for r in pf if r['pf_gap_pct'] is not None and r['pf_gap_pct'] <= 10)}"
                f"/{len(pf)} seeds; proved optimal: {sum(1 for r in pf if r['pf_proof'] == 'optimal')}/{len(pf)}",
                f"  - online mean below the best-known mean (same seeds): "
                f"{statistics.mean(r['pf_score'] for r in pf) - statistics.mean(r['online_score'] for r in pf):.1f} points",
                f"  - seconds: {_stats([r['pf_seconds'] for r in pf])}",
                "  - best layout from (a tie names every source that reached the best score): "
                + ", ".join(f"{k} {sum(1 for r in pf if str(r['pf_best_from']) == k)}" for k in sorted({str(r['pf_best_from']) for r in pf})),
                f"  - mission met {_share(pf, 'pf_mission_met', lambda r: r['pf_mission_met'])}; "
                f">=1 star {_share(pf, 'pf_stars', lambda r: r['pf_stars'] >= 1)}, "
                f">=2 stars {_share(pf, 'pf_stars', lambda r: r['pf_stars'] >= 2)}, "
                f"3 stars {_share(pf, 'pf_stars', lambda r: r['pf_stars'] >= 3)}",
                f"  - model consistent with the referee: {_share(pf, 'model_consistent', lambda r: r['model_consistent'])}",
                f"  - gap perfect foresight - online: {_stats([r.get('gap_pf_online') for r in pf])}",
            ]
        if pf:
            lines += ["", "  | seed | best | bound (any area) | gap | gap % | proof | line bound (in box) | best from | "
                          "advise | online (rollout) | greedy | random |",
                      "  |---|---|---|---|---|---|---|---|---|---|---|---|"]
            for r in pf:
                lines.append(
                    f"  | {r['seed']} | {r['pf_score']} | {r['pf_bound']} | {r['pf_gap']} | {r['pf_gap_pct']} | {r['pf_proof']}"
                    f"{' (wall cap)' if r.get('pf_wall_capped') else ''} | {r['pf_line_bound']} | "
                    f"{r['pf_best_from']} | {r.get('advise_score', '-')} | {r['online_score']} | {r['greedy_score']} | "
                    f"{r['random_score']} |"
                )
            lines.append("")
        adv = [r for r in rs if r.get("advise_score") not in (None, "")]
        if adv:
            best = [r for r in adv if r.get("best_found") not in (None, "")]
            lines += [
                f"- advise, followed round by round ({len(adv)} seeds): score {_stats([r['advise_score'] for r in adv])}; "
                f"most CPU seconds in one round {_stats([r['advise_cpu_max_round'] for r in adv])}",
                f"  - mission met {_share(adv, 'advise_mission_met', lambda r: r['advise_mission_met'])}; "
                f">=1 star {_share(adv, 'advise_stars', lambda r: r['advise_stars'] >= 1)}, "
                f">=2 stars {_share(adv, 'advise_stars', lambda r: r['advise_stars'] >= 2)}, "
                f"3 stars {_share(adv, 'advise_stars', lambda r: r['advise_stars'] >= 3)}",
                f"  - advise - rollout (same seeds): mean "
                f"{statistics.mean(r['advise_score'] - r['online_score'] for r in adv):+.2f}"
                + (f"; best layout found - advise: mean {statistics.mean(r['best_found'] - r['advise_score'] for r in best):.2f}"
                   f" ({len(best)} seeds)" if best else ""),
            ]
        for key, label in (("online", "online policy (rollout)"), ("greedy", "greedy online policy")):
            lines += [
                f"- {label} ({len(rs)} seeds): score {_stats([r[key + '_score'] for r in rs])}; "
                f"seconds {_stats([r[key + '_seconds'] for r in rs])}",
                f"  - mission met {_share(rs, key + '_mission_met', lambda r: r[key + '_mission_met'])}; "
                f">=1 star {_share(rs, key + '_stars', lambda r: r[key + '_stars'] >= 1)}, "
                f">=2 stars {_share(rs, key + '_stars', lambda r: r[key + '_stars'] >= 2)}, "
                f"3 stars {_share(rs, key + '_stars', lambda r: r[key + '_stars'] >= 3)}",
            ]
        lines += [
            f"- random legal placer ({len(rs)} seeds): score {_stats([r['random_score'] for r in rs])}; "
            f"mission met {_share(rs, 'random_mission_met', lambda r: r['random_mission_met'])}; "
            f">=1 star {_share(rs, 'random_stars', lambda r: r['random_stars'] >= 1)}",
            f"  - gap online - random: {_stats([r['gap_online_random'] for r in rs])}",
            "",
        ]
    return "\n".join(lines) + "\n"


def _before_after(rows, args, setup) -> list[str]:
    """The policies before issue 33 (``--before``) and today's, side by side on the same seeds."""
    out = [
        "## The policies before and after issue 33", "",
        f"Before = `solver/desert/game.py` of commit {args.before} (loaded from git; the last round ranked on the "
        "estimate with pawn points counted twice, pawns placed token by token); after = this tree (the last round "
        "ranked on the referee's final score, the round's pawns the best assignment of its tokens, exactly). Both "
        "play the same seeds' markets and are judged by today's referee. Best found = the best layout of the "
        "perfect-foresight run (which starts from today's policies) or either policy before, on the seeds that "
        "have a perfect-foresight run.", "",
        "| challenge | policy | seeds | mean before | mean after | after - before (mean) | seeds better / worse "
        "| mission met before / after | gap to best found before / after (seeds) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for cid in sorted({r["challenge"] for r in rows}, key=CHALLENGES.index):
        rs = [r for r in rows if r["challenge"] == cid and r.get("before_online_score") not in (None, "")]
        for key, label in (("online", "rollout"), ("greedy", "greedy")):
            pairs = [(r[f"before_{key}_score"], r[f"{key}_score"]) for r in rs]
            if not pairs:
                continue
            diff = [a - b for b, a in pairs]
            best = [r for r in rs if r.get("best_found") not in (None, "")]
            gaps = ""
            if best:
                gb = statistics.mean(r["best_found"] - r[f"before_{key}_score"] for r in best)
                ga = statistics.mean(r["best_found"] - r[f"{key}_score"] for r in best)
                gaps = f"{gb:.1f} / {ga:.1f} ({len(best)})"
            out.append(
                f"| {setup.challenges.get(cid).name} | {label} | {len(pairs)} | "
                f"{statistics.mean(b for b, _ in pairs):.2f} | {statistics.mean(a for _, a in pairs):.2f} | "
                f"{statistics.mean(diff):+.2f} | {sum(d > 0 for d in diff)} / {sum(d < 0 for d in diff)} | "
                f"{sum(bool(r[f'before_{key}_mission_met']) for r in rs)} / {sum(bool(r[f'{key}_mission_met']) for r in rs)} "
                f"| {gaps or '-'} |")
    return out + [""]


def scaling(args, argv) -> int:
    """How large a fixed list of tiles the CP-SAT layout model proves optimal in time.

    Tile lists are the first k tiles of the seed's market taken as a solo player could:
    each round's 4-tile column (3 core + 1 desert), the last round cut short, with the
    seed's active tokens.  The box is the tile count's: (k + 1) x (k + 1) cut at
    x + y <= k, which holds every layout of the k + 1 tiles, so a proof is a proof for the
    game (the earlier 3x3 / 4x4 boxes were smaller than a straight line of the tiles).
    """
    import math

    from solver.desert_play.game import solve_layout
    from solver.desert.market import RoundOffer

    setup = load_setup()
    out = ROOT / "results" / "desert-scaling.csv"
    sizes = [int(k) for k in args.scaling.split(",")]
    rows = []
    for k in sizes:
        for sample in range(args.scaling_samples):
            seed = 1000 + 10 * k + sample
            market = draw_market(seed, setup.tileset, setup.ruleset)
            offers, left = [], k
            for o in market.rounds:
                if left <= 0:
                    break
                col = o.columns[-1][:left]
                offers.append(RoundOffer(o.number, (tuple(col),), o.tokens))
                left -= len(col)
            cid = CHALLENGES[sample % 3]
            res = solve_layout(setup, setup.challenges.get(cid), offers, False, args.time_limit,
                               workers=1 if args.deterministic else 2, deterministic=args.deterministic)
            ev = res["evaluation"]
            rows.append(
                {
                    "tiles": k, "sample": sample, "seed": seed, "challenge": cid,
                    "box": f"{res['box'][0]}x{res['box'][1]}" + (" cut at x+y<=%d" % (res["box"][0] - 1) if res["box_exhaustive"] else ""),
                    "status": res["status"], "score": ev["score"] if ev else "", "bound": res["bound"],
                    "seconds": res["seconds"], "legal": ev["legal"] if ev else "",
                    "mode": "deterministic work units" if args.deterministic else "wall-clock",
                }
            )
            print(rows[-1], flush=True)
    with out.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print(f"wrote {out}")
    return 0


def bound_ablation(args, argv) -> int:
    """How much each part of the line bound cuts, seed by seed, side by side in one run."""
    setup = load_setup()
    box = tuple(setup.ruleset["play_area_bound"])
    best: dict[int, dict[str, int]] = {}
    if args.out.exists():
        for r in csv.DictReader(args.out.open()):
            if r.get("pf_score"):
                best.setdefault(int(r["seed"]), {})[r["challenge"]] = int(r["pf_score"])
    variants = [("per-line bound of the last session", ()), ("+ camel reach", ("reach",)),
                ("+ timed pawn bound", ("reach", "timed"))]
    lines = ["# Railroad Tiles Desert: what each part of the line bound cuts", "",
             f"Command: `python benchmarks/desert.py {' '.join(argv if argv is not None else sys.argv[1:])}`  ",
             f"Bound within the {box[0]}x{box[1]} play area, per market (the same for the three challenges); "
             f"best = the best layout per challenge in {args.out.name} (sharp-boundary / lost-world / desert-of-death).", "",
             "| seed | " + " | ".join(v for v, _ in variants) + " | pawn line (last) | seconds (last) | best | gap % (last, per challenge) |",
             "|---" * (len(variants) + 5) + "|"]
    for seed in range(args.pf_seeds):
        market = draw_market(seed, setup.tileset, setup.ruleset)
        cols = [[list(c) for c in o.columns] for o in market.rounds]
        toks = [list(o.tokens) for o in market.rounds]
        vals, lb, secs = [], None, 0.0
        for _, parts in variants:
            t0 = time.perf_counter()
            lb = line_bounds(setup.tileset, setup.ruleset, cols, toks, box, parts=parts)
            secs = time.perf_counter() - t0
            vals.append(lb.total)
        b = [best.get(seed, {}).get(c) for c in CHALLENGES]
        gaps = " / ".join("-" if x is None else f"{100 * (lb.total - x) / x:.1f}" for x in b)
        lines.append(f"| {seed} | " + " | ".join(map(str, vals)) + f" | {lb.lines['pawns']} | {secs:.1f} | "
                     + " / ".join("-" if x is None else str(x) for x in b) + f" | {gaps} |")
        print(lines[-1], flush=True)
    out = ROOT / "results" / "desert-bounds.md"
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out}")
    return 0


def _old_game(commit: str):
    """The policies of an older commit, loaded from git beside today's modules: its
    solver/desert_play/policies.py, or solver/desert/game.py from before the play moved above
    models/ (that file's `solver.desert.ceiling` import is pointed at solver.desert_play.ceiling)."""
    import importlib.util
    import subprocess
    import tempfile

    from solver.desert_play import ceiling

    for rel in ("solver/desert_play/policies.py", "solver/desert/game.py"):
        proc = subprocess.run(["git", "show", f"{commit}:{rel}"], cwd=ROOT, capture_output=True, text=True)
        if proc.returncode == 0:
            src = proc.stdout
            break
    else:
        raise SystemExit(f"commit {commit}: neither solver/desert_play/policies.py nor solver/desert/game.py")
    sys.modules.setdefault("solver.desert.ceiling", ceiling)
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "old_desert_game.py"
        path.write_text(src)
        spec = importlib.util.spec_from_file_location("old_desert_game", path)
        old_game = importlib.util.module_from_spec(spec)
        sys.modules["old_desert_game"] = old_game  # dataclasses look their module up there
        spec.loader.exec_module(old_game)
    return old_game


def compare_policy(args) -> int:
    """Online rollout policy of an older commit (its game.py, loaded from git) against the
    current one on the same seeds; both judged by today's referee."""
    from solver.desert_play import game as new_game

    old_game = _old_game(args.compare_policy)
    setup = load_setup()
    challenges = [c.strip() for c in args.challenges.split(",") if c.strip()]
    rows = []
    for cid in challenges:
        ch = setup.challenges.get(cid)
        for seed in range(args.seeds):
            market = draw_market(seed, setup.tileset, setup.ruleset)
            row = {"challenge": cid, "seed": seed}
            for name, mod in (("old", old_game), ("new", new_game)):
                t0 = time.perf_counter()
                lay = mod.play_policy(setup, market, ch, "rollout")
                secs = time.perf_counter() - t0
                ev = evaluate(setup, lay, ch, market)
                row.update({f"{name}_score": ev["score"], f"{name}_legal": ev["legal"],
                            f"{name}_mission_met": ev["mission_met"], f"{name}_seconds": round(secs, 2)})
            rows.append(row)
            print(row, flush=True)
    out = ROOT / "results" / "desert-policy-compare.csv"
    with out.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    for name in ("old", "new"):
        vals = [r[f"{name}_score"] for r in rows]
        print(f"{name} ({args.compare_policy if name == 'old' else 'working tree'}): mean {statistics.mean(vals):.2f}, "
              f"mission met {sum(r[name + '_mission_met'] for r in rows)}/{len(rows)}, "
              f"seconds mean {statistics.mean(r[name + '_seconds'] for r in rows):.2f}, "
              f"max {max(r[name + '_seconds'] for r in rows):.2f}")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
