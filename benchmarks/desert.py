"""Benchmark of the Railroad Tiles Desert solo challenges.

For each challenge and seed: the online policy's score and time (rollout; the
greedy policy too), a random legal placer's score (the baseline) and the gap; for the first ``--pf-seeds`` seeds
also the perfect-foresight score (beam search + CP-SAT layout model over the
seed's whole market), its proof status and bound.  Writes one CSV row per
(challenge, seed) and a Markdown summary.

    python benchmarks/desert.py --seeds 50 --pf-seeds 12 --time-limit 20

Every layout is judged by the referee (solver.desert.layout.replay); numbers are
about the stand-in tile catalogues and the assumed core values of
instances/desert/ruleset.toml.
"""
from __future__ import annotations

import argparse
import csv
import os
import pathlib
import statistics
import sys
import time

from tqdm import tqdm

from solver.desert.game import evaluate, load_setup, play_policy, run_game
from solver.desert.market import draw_market

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHALLENGES = ["sharp-boundary", "lost-world", "desert-of-death"]
FIELDS = [
    "challenge", "seed",
    "pf_score", "pf_proof", "pf_bound", "pf_stars", "pf_mission_met", "pf_best_from", "pf_seconds", "model_consistent",
    "online_score", "online_mission_met", "online_stars", "online_seconds",
    "greedy_score", "greedy_mission_met", "greedy_stars", "greedy_seconds",
    "random_score", "random_mission_met", "random_stars",
    "gap_pf_online", "gap_online_random",
]


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
    args = ap.parse_args(argv)
    if args.scaling:
        return scaling(args, argv)
    summary_path = args.summary or args.out.with_suffix(".md")
    setup = load_setup()
    challenges = [c.strip() for c in args.challenges.split(",") if c.strip()]
    rows = []
    t_start = time.perf_counter()
    load_start = os.getloadavg()
    jobs = [(c, s) for c in challenges for s in range(args.seeds)]
    for cid, seed in tqdm(jobs, desc="desert", file=sys.stderr, disable=not sys.stderr.isatty()):
        ch = setup.challenges.get(cid)
        row = {"challenge": cid, "seed": seed}
        if seed < args.pf_seeds:
            res = run_game(cid, seed, args.time_limit, setup=setup)
            row.update(
                pf_score=res["score"], pf_proof=res["proof"], pf_bound=res["bound"], pf_stars=res["stars"],
                pf_mission_met=res["mission_met"], pf_best_from=res["best_from"], pf_seconds=res["foresight_seconds"],
                model_consistent=res["model_consistent"],
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
                lay = play_policy(setup, market, ch, "rollout" if kind == "online" else "greedy")
                secs = time.perf_counter() - t0
                ev = evaluate(setup, lay, ch, market)
                row.update({f"{kind}_score": ev["score"], f"{kind}_mission_met": ev["mission_met"],
                            f"{kind}_stars": ev["stars"], f"{kind}_seconds": round(secs, 2)})
            ev_r = evaluate(setup, play_policy(setup, market, ch, "random"), ch, market)
            row.update(random_score=ev_r["score"], random_mission_met=ev_r["mission_met"], random_stars=ev_r["stars"])
        if row.get("pf_score") is not None:
            row["gap_pf_online"] = row["pf_score"] - row["online_score"]
        row["gap_online_random"] = row["online_score"] - row["random_score"]
        rows.append(row)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, "") for k in FIELDS})
    args.load = (load_start, os.getloadavg())
    text = summarise(rows, args, setup, time.perf_counter() - t_start, argv)
    summary_path.write_text(text)
    print(text)
    return 0


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
    cmd = "python benchmarks/desert.py " + " ".join(argv if argv is not None else sys.argv[1:])
    lines = [
        "# Railroad Tiles Desert: benchmark",
        "",
        f"Command: `{cmd.strip()}`  ",
        f"Wall time: {seconds / 60:.1f} min on this machine (2 cores; CP-SAT with 2 workers); "
        f"load average {args.load[0][0]:.1f} at the start, {args.load[1][0]:.1f} at the end "
        "(other jobs share the machine; time limits are wall-clock).  ",
        f"Seeds per challenge: {args.seeds} for the online policy and the random baseline; "
        f"the first {min(args.pf_seeds, args.seeds)} also with perfect foresight ({args.time_limit:g} s each).  ",
        "Perfect foresight = best of beam search, online policy and the CP-SAT layout model over the whole market, "
        f"within a {setup.ruleset['play_area_bound'][0]}x{setup.ruleset['play_area_bound'][1]} play area; "
        "every layout replayed by the referee.",
        "",
        "Numbers are about the STAND-IN tile catalogues and the assumed core values (instances/desert/ruleset.toml).",
        "",
    ]
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
                f"  - bound: {_stats([r['pf_bound'] for r in pf])}",
                f"  - seconds: {_stats([r['pf_seconds'] for r in pf])}",
                f"  - best layout from: "
                + ", ".join(f"{k} {sum(1 for r in pf if r['pf_best_from'] == k)}" for k in sorted({str(r['pf_best_from']) for r in pf})),
                f"  - mission met {_share(pf, 'pf_mission_met', lambda r: r['pf_mission_met'])}; "
                f">=1 star {_share(pf, 'pf_stars', lambda r: r['pf_stars'] >= 1)}, "
                f">=2 stars {_share(pf, 'pf_stars', lambda r: r['pf_stars'] >= 2)}, "
                f"3 stars {_share(pf, 'pf_stars', lambda r: r['pf_stars'] >= 3)}",
                f"  - model consistent with the referee: {_share(pf, 'model_consistent', lambda r: r['model_consistent'])}",
                f"  - gap perfect foresight - online: {_stats([r.get('gap_pf_online') for r in pf])}",
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


def scaling(args, argv) -> int:
    """How large a fixed list of tiles the CP-SAT layout model proves optimal in time.

    Tile lists are the first k tiles of the seed's market (column by column, round by
    round), one round per 4 tiles with the seed's tokens; the box is a square a little
    larger than the tiles need (side ceil(sqrt(k + 1)) + 1, at least 3), capped by the
    ruleset's play-area bound.
    """
    import math

    from solver.desert.game import solve_layout
    from solver.desert.market import RoundOffer

    setup = load_setup()
    out = ROOT / "results" / "desert-scaling.csv"
    sizes = [int(k) for k in args.scaling.split(",")]
    rows = []
    cap = setup.ruleset["play_area_bound"]
    for k in sizes:
        for sample in range(args.scaling_samples):
            seed = 1000 + 10 * k + sample
            market = draw_market(seed, setup.tileset, setup.ruleset)
            tiles = [t for o in market.rounds for c in o.columns for t in c][:k]
            offers = []
            for r in range(math.ceil(k / 4)):
                offers.append(RoundOffer(r + 1, (tuple(tiles[4 * r : 4 * r + 4]),), market.rounds[r].tokens))
            side = min(cap[0], max(3, math.ceil(math.sqrt(k + 1)) + 1))
            cid = CHALLENGES[sample % 3]
            res = solve_layout(setup, setup.challenges.get(cid), offers, False, args.time_limit, box=(side, side))
            ev = res["evaluation"]
            rows.append(
                {
                    "tiles": k, "sample": sample, "seed": seed, "challenge": cid, "box": f"{side}x{side}",
                    "status": res["status"], "score": ev["score"] if ev else "", "bound": res["bound"],
                    "seconds": res["seconds"], "legal": ev["legal"] if ev else "",
                }
            )
            print(rows[-1], flush=True)
    with out.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
