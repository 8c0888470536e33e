"""Benchmark: batch solves per second with 1 and 2 local workers on the same seeds.

    python benchmarks/batch.py [--scenario easter-island] [--seeds 1-8] [--work 10000] [--cp-time 1]

Runs the same batch twice, side by side in one run, into fresh temporary
folders, in the reproducible mode every batch uses (work units, not seconds),
checks that both give the same answers, and writes results/batch-speedup.csv
with solves per second and the speed-up.
"""
from __future__ import annotations

import argparse
import csv
import pathlib
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.batch.runner import load_results, make_batch, run_batch  # noqa: E402
from solver.batch.scenarios import Mode  # noqa: E402
from solver.engine.readings import make_rules  # noqa: E402

ANSWER = ("verdict", "proved", "min_rounds", "rounds_upper_bound", "shares", "cash")


def batch_kind(scenario: str) -> str:
    from solver.batch.scenarios import scenario as get
    return get(scenario).kind


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="easter-island")
    ap.add_argument("--difficulty", default="easy")
    ap.add_argument("--seeds", default="1-8")
    ap.add_argument("--work", type=int, default=10000, help="round plans per beam variant (solo maps)")
    ap.add_argument("--cp-time", type=float, default=None, help="CP-SAT work units (default: the scenario's)")
    ap.add_argument("--wall-cap", type=float, default=600.0, help="safety net, seconds a solve")
    ap.add_argument("--bag", default="red=20,blue=20,yellow=20,black=16")
    ap.add_argument("--out", default=str(ROOT / "results" / "batch-speedup.csv"))
    args = ap.parse_args()
    rows, answers = [], {}
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as tmp:
            sets = [make_rules("easter-island", [f"bag={args.bag}"])] if args.scenario == "easter-island" else None
            mode = Mode(work=args.work, cp_time=args.cp_time)
            batch = make_batch(args.scenario, args.difficulty, args.seeds, mode, tmp, {}, sets,
                               wall_cap=args.wall_cap)
            t0 = time.monotonic()
            counts = run_batch(batch, workers, None, quiet=True)
            seconds = time.monotonic() - t0
            recs = load_results(pathlib.Path(tmp) / "results.jsonl")
            answers[workers] = {k: tuple(r.get(f) for f in ANSWER) for k, r in recs.items()}
        rows.append({"scenario": args.scenario, "difficulty": args.difficulty, "seeds": args.seeds,
                     "work": args.work, "cp_time": mode.cp_units(batch_kind(args.scenario)), "workers": workers,
                     "solves": len(batch.tasks), "seconds": round(seconds, 2),
                     "solves_per_second": round(len(batch.tasks) / seconds, 3),
                     **{k: counts[k] for k in ("proved", "unknown", "failed", "wall_cap_hit")}})
        print(rows[-1], flush=True)
    speedup = rows[1]["solves_per_second"] / rows[0]["solves_per_second"]
    for row in rows:
        row["speedup_vs_1_worker"] = round(row["solves_per_second"] / rows[0]["solves_per_second"], 2)
    same = answers[1] == answers[2]
    with open(args.out, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print(f"speed-up with 2 workers: {speedup:.2f}x; same answers with 1 and 2 workers: {same}")


if __name__ == "__main__":
    main()
