"""Benchmark: the Easter Island solver on seeded setups, with a greedy baseline side by side.

    python benchmarks/easter_island.py [--seeds 20] [--time-limit 120] [--out results/easter-island.csv]

For every difficulty and seed it solves the setup drawn from the instance's bag
and from the same bag without purple cubes (the Easter Island board has no
purple city, so any purple cube makes a setup unclearable). Beside each solve,
in the same run, the baseline: the same round planner with a beam of one
state (a greedy planner), no widening and no polishing. Writes one CSV row per
solve and prints a summary with the time ratio and how often the greedy
planner's round count exceeds the proven minimum.
"""
from __future__ import annotations

import argparse
import csv
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.solo.easter_island import analyse, target_network, _Planner  # noqa: E402
from solver.games import load_instance  # noqa: E402
from solver.engine.plan import Plan, replay  # noqa: E402
from solver.engine.setup import draw_setup, parse_bag  # noqa: E402
from solver.engine.state import Rules  # noqa: E402

# The instance's bag is the default reading bag=no-purple; "full" is the reading bag=full.
BAGS = {"full": "red=20,blue=20,yellow=20,purple=20,black=16", "no-purple": None}
FIELDS = ["bag", "difficulty", "seed", "verdict", "min_rounds", "rounds_lower_bound", "rounds_upper_bound",
          "proof", "shares", "cash", "track_cost", "network_cost", "network_status", "seconds",
          "greedy_rounds", "greedy_seconds"]


def greedy(inst, difficulty, setup, time_limit):
    """Baseline: beam of one, the planner's own first choice every round."""
    t0 = time.monotonic()
    network, town = target_network(inst, setup, time_limit / 4)
    planner = _Planner(inst, setup, Rules(), network, town, 1, t0 + time_limit)
    found = planner.run(inst.scenario.rounds)
    rounds = None
    if found is not None:
        result = replay(inst, Plan(inst.board.name, difficulty, Rules(), setup, found.rounds))
        rounds = result.state.cleared_round if result.error is None else None
    return rounds, time.monotonic() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--time-limit", type=float, default=120.0)
    ap.add_argument("--out", default=str(ROOT / "results" / "easter-island.csv"))
    args = ap.parse_args()
    inst = load_instance(ROOT / "instances" / "easter-island.toml")
    rows = []
    for bag_name, bag in BAGS.items():
        for difficulty in ("easy", "normal", "hard"):
            for seed in range(1, args.seeds + 1):
                setup = draw_setup(inst, difficulty, seed, parse_bag(bag) if bag else None)
                a = analyse(inst, difficulty, setup, time_limit=args.time_limit)
                g_rounds, g_seconds = (None, 0.0)
                if a.verdict == "clearable" or (a.verdict == "unknown" and not a.impossible):
                    g_rounds, g_seconds = greedy(inst, difficulty, setup, args.time_limit)
                proof = ("impossible-without-search" if a.impossible else
                         "bound" if a.verdict == "not clearable" else
                         "plan-meets-bound" if a.min_rounds_proved else "unknown")
                end = a.end_state or {}
                row = {"bag": bag_name, "difficulty": difficulty, "seed": seed, "verdict": a.verdict,
                       "min_rounds": a.upper_bound if a.min_rounds_proved else "",
                       "rounds_lower_bound": a.lower_bound, "rounds_upper_bound": a.upper_bound or "",
                       "proof": proof, "shares": end.get("shares", ""), "cash": end.get("cash", ""),
                       "track_cost": end.get("spent_on_track", ""),
                       "network_cost": a.network.cost if a.network else "",
                       "network_status": a.network.status if a.network else "",
                       "seconds": round(a.seconds, 3), "greedy_rounds": g_rounds or "",
                       "greedy_seconds": round(g_seconds, 3) if g_rounds or g_seconds else ""}
                rows.append(row)
                print(",".join(str(row[f]) for f in FIELDS), flush=True)
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)
    print(summary(rows))


def summary(rows) -> str:
    lines = []
    secs = [r["seconds"] for r in rows]
    answered = sum(1 for r in rows if r["proof"] != "unknown")
    lines.append(f"{len(rows)} setups: {answered} answered with proof, {len(rows) - answered} unknown; "
                 f"median {statistics.median(secs):.2f} s, max {max(secs):.2f} s")
    for bag in BAGS:
        for d in ("easy", "normal", "hard"):
            sub = [r for r in rows if r["bag"] == bag and r["difficulty"] == d]
            clear = [r for r in sub if r["verdict"] == "clearable"]
            proved = [r for r in clear if r["proof"] == "plan-meets-bound"]
            lines.append(f"  {bag:9s} {d:6s}: {len(clear)}/{len(sub)} clearable, {len(proved)} with proven minimum, "
                         f"{sum(1 for r in sub if r['verdict'] == 'not clearable')} proved not clearable")
    both = [r for r in rows if r["greedy_rounds"] != "" and r["proof"] == "plan-meets-bound"]
    if both:
        worse = sum(1 for r in both if r["greedy_rounds"] > r["min_rounds"])
        ratio = sum(r["seconds"] for r in both) / max(1e-9, sum(r["greedy_seconds"] for r in both))
        lines.append(f"greedy baseline on {len(both)} proven setups: exceeds the proven minimum in {worse}; "
                     f"time ratio solver/greedy {ratio:.1f}")
    failed = [r for r in rows if r["proof"] == "plan-meets-bound" and r["greedy_rounds"] == ""]
    if failed:
        lines.append(f"greedy baseline found no plan within the round limit in {len(failed)} of them")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
