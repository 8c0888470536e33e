"""Benchmark: the shares proof engines (solver/solo/proofs/shares.py) on seeded Easter Island setups.

    python benchmarks/shares_bounds.py [--seeds 3] [--first-seed 1] [--difficulties easy,normal,hard]
                                       [--readings default,strict-action=on] [--work 10000] [--cp-time 1]
                                       [--out results/shares-bounds.csv]

For every reading set, difficulty and seed it draws the setup under the readings and solves it as
`aos-solve easter-island` does in its reproducible mode (--work round plans, CP-SAT 1 worker, --cp-time
units; the shares engines with their default budgets). Where the minimum round count is proved, the answer
carries the fewest-shares record: the plan's shares (`plan_shares`), the best lower bound (`lower_bound`)
and the engine it rests on (`source`), `proved` when they meet, and every engine asked with its answer,
wall and CPU seconds (`engines`, name:lower:status).

Baseline, in the same run: the lower bound before issue 45, the shares already issued at the start
(`baseline_lower`, `baseline_proved`). The summary gives, per reading set, the setups with a proved round
count, how many have their fewest shares proved (engines vs baseline), the median gap plan - bound (both),
and the shares engines' seconds beside the whole answer's (median, wall and CPU, as a ratio).
Deterministic: the same command gives the same rows (times aside).
"""
from __future__ import annotations

import argparse
import csv
import io
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.board.errors import InputError  # noqa: E402
from solver.engine.readings import make_rules  # noqa: E402
from solver.engine.setup import draw_setup  # noqa: E402
from solver.games import load_instance  # noqa: E402
from solver.report.output import check_output_folder, write_atomic  # noqa: E402
from solver.solo.easter_island import analyse  # noqa: E402
from solver.solo.settings import SolveParams  # noqa: E402

FIELDS = ["readings", "difficulty", "seed", "min_rounds", "plan_shares", "lower_bound", "source", "proved",
          "gap", "baseline_lower", "baseline_proved", "baseline_gap", "engines", "shares_seconds",
          "shares_cpu_seconds", "seconds", "cpu_seconds"]


def solve_one(inst, readings: str, difficulty: str, seed: int, work: int, params: SolveParams) -> dict:
    items = [] if readings == "default" else readings.split("+")
    rules = make_rules("easter-island", items)
    setup = draw_setup(inst, difficulty, seed, rules=rules)
    wall, cpu = time.monotonic(), time.process_time()
    answer = analyse(inst, difficulty, setup, rules, budget=work, params=params)
    row = {"readings": readings, "difficulty": difficulty, "seed": seed,
           "seconds": round(time.monotonic() - wall, 2), "cpu_seconds": round(time.process_time() - cpu, 2)}
    shares = answer.search.shares
    if not answer.min_rounds_proved or not shares:
        return {**row, "min_rounds": ""}
    start = inst.scenario.start_shares
    engines = shares["engines"]
    return {**row, "min_rounds": answer.upper_bound, "plan_shares": shares["upper_bound"],
            "lower_bound": shares["lower_bound"], "source": shares["lower_bound_source"], "proved": shares["proved"],
            "gap": shares["upper_bound"] - shares["lower_bound"], "baseline_lower": start,
            "baseline_proved": shares["upper_bound"] == start, "baseline_gap": shares["upper_bound"] - start,
            "engines": " ".join(f"{e['engine'].replace(' ', '-')}:{e['lower_bound']}:{e['status']}" for e in engines),
            "shares_seconds": round(sum(e["seconds"] for e in engines), 3),
            "shares_cpu_seconds": round(sum(e["cpu_seconds"] for e in engines), 3)}


def summary(rows: list[dict]) -> list[str]:
    lines = []
    for readings in dict.fromkeys(r["readings"] for r in rows):
        mine = [r for r in rows if r["readings"] == readings]
        settled = [r for r in mine if r["min_rounds"] != ""]
        if not settled:
            lines.append(f"{readings}: {len(mine)} setups, none with a proved round count")
            continue
        med = lambda key: statistics.median(float(r[key]) for r in settled)  # noqa: E731
        ratio = med("shares_seconds") / med("seconds") if med("seconds") else 0.0
        lines.append(
            f"{readings}: {len(mine)} setups, {len(settled)} with a proved round count; fewest shares proved on "
            f"{sum(bool(r['proved']) for r in settled)} (baseline, the shares issued at the start: "
            f"{sum(bool(r['baseline_proved']) for r in settled)}); median gap {med('gap'):g} share(s) (baseline "
            f"{med('baseline_gap'):g}); shares engines median {med('shares_seconds'):.2f} s wall, "
            f"{med('shares_cpu_seconds'):.2f} s CPU, answer median {med('seconds'):.1f} s wall, "
            f"{med('cpu_seconds'):.1f} s CPU (ratio {ratio:.2f})")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--difficulties", default="easy,normal,hard")
    ap.add_argument("--readings", default="default,strict-action=on",
                    help="reading sets separated by commas, readings within one by '+'; 'default' for none")
    ap.add_argument("--work", type=int, default=10000)
    ap.add_argument("--cp-time", type=float, default=1.0)
    ap.add_argument("--out", default=str(ROOT / "results" / "shares-bounds.csv"))
    args = ap.parse_args()
    try:
        if args.seeds < 1 or args.work < 1 or args.cp_time <= 0:
            raise InputError("--seeds and --work must be at least 1, --cp-time positive", "options")
        for d in args.difficulties.split(","):
            if d not in ("easy", "normal", "hard"):
                raise InputError(f"unknown difficulty {d!r} (expected easy, normal, hard)", "--difficulties")
        for readings in args.readings.split(","):
            if readings != "default":
                make_rules("easter-island", readings.split("+"))
        out = pathlib.Path(args.out)
        check_output_folder(out.parent, f"--out {out}", files=[out.name])
    except InputError as err:
        print(f"shares_bounds.py: error: {err}", file=sys.stderr)
        return 2
    inst = load_instance(ROOT / "instances" / "easter-island.toml")
    params = SolveParams(workers=1, deterministic_time=args.cp_time)
    rows = []
    for readings in args.readings.split(","):
        for d in args.difficulties.split(","):
            for seed in range(args.first_seed, args.first_seed + args.seeds):
                rows.append(solve_one(inst, readings, d, seed, args.work, params))
                print(",".join(str(rows[-1].get(k, "")) for k in FIELDS), flush=True)
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=FIELDS, restval="")
    w.writeheader()
    w.writerows(rows)
    write_atomic(out, buf.getvalue())
    print("\n".join(summary(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
