"""Benchmark: the link search (issue 29's second proof engine) on the Easter Island setups the default
solver leaves open, at their lower bound, with its abstract clears decoded into plans for the referee.

    python benchmarks/link_search_probe.py [--setups easy:23,hard:8] [--work 50000] [--packing-time 5]
                                           [--out results/link-search-probe.csv]

Default setups: every row of results/easter-island.csv and results/easter-island-seeds-21-40.csv whose
proof is "unknown". For each, `prove_by(state, lower bound)` (solver/solo/link_search.py) answers
"no clear" (proved: the minimum is above the bound), "may clear" (an abstract play survives exact
pricing; the plan side then tries to decode it: column `decoded`), or "open" (work or packing time ran
out); `refuted` counts the abstract clears the search refuted round by round (its nogoods) on the way. Reproducible: the search is deterministic, CP-SAT runs one worker with deterministic time limits.
Rows are appended as they finish (a killed run keeps them; rerun with the missing setups).
"""
from __future__ import annotations

import argparse
import csv
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.engine.plan import replay  # noqa: E402
from solver.engine.readings import make_rules  # noqa: E402
from solver.engine.scenario import Scenario  # noqa: E402
from solver.engine.setup import draw_setup  # noqa: E402
from solver.engine.state import GameState  # noqa: E402
from solver.games import default_instance, load_instance  # noqa: E402
from solver.solo.link_plans import decode  # noqa: E402
from solver.solo.link_search import LinkBounds, prove_by  # noqa: E402

FIELDS = ["difficulty", "seed", "lower_bound", "status", "positions", "refuted", "seconds", "decoded",
          "decode_note", "plan_rounds", "detail"]
CSVS = ("results/easter-island.csv", "results/easter-island-seeds-21-40.csv")


def open_setups() -> list[tuple[str, int, int]]:
    out = []
    for name in CSVS:
        with open(ROOT / name, newline="") as f:
            for row in csv.DictReader(f):
                if row["proof"] == "unknown":
                    out.append((row["difficulty"], int(row["seed"]), int(row["rounds_lower_bound"])))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--setups", default="", help="difficulty:seed,... (default: the open rows of the CSVs)")
    ap.add_argument("--work", type=int, default=50_000, help="abstract positions the search may visit")
    ap.add_argument("--packing-time", type=float, default=5.0, help="CP-SAT deterministic time per packing model")
    ap.add_argument("--out", default="results/link-search-probe.csv")
    args = ap.parse_args()
    known = {(d, s): lb for d, s, lb in open_setups()}
    if args.setups:
        wanted = []
        for item in args.setups.split(","):
            d, s = item.split(":")
            if (d, int(s)) not in known:
                sys.exit(f"link_search_probe: error: {item} is not an open setup of {', '.join(CSVS)}")
            wanted.append((d, int(s), known[d, int(s)]))
    else:
        wanted = open_setups()
    out = ROOT / args.out
    new = not out.exists()
    inst = load_instance(default_instance("easter-island"))
    rules = make_rules("easter-island", [])
    with open(out, "a", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        if new:
            w.writeheader()
        for d, seed, lower in wanted:
            setup = draw_setup(inst, d, seed, rules=rules)
            state = GameState.new(inst, setup, rules)
            t0 = time.monotonic()
            bounds = LinkBounds(state, args.packing_time)
            verdict = prove_by(state, lower, work=args.work, packing_time=args.packing_time, bounds=bounds)
            row = {"difficulty": d, "seed": seed, "lower_bound": lower, "status": verdict.status.value,
                   "positions": verdict.nodes, "refuted": verdict.refuted, "detail": verdict.detail, "decoded": "",
                   "decode_note": "", "plan_rounds": ""}
            if verdict.pattern is not None:
                plan, why = decode(state, Scenario(inst, d, setup, rules), verdict.pattern, bounds)
                row["decoded"], row["decode_note"] = plan is not None, why
                if plan is not None:
                    row["plan_rounds"] = replay(inst, plan).state.cleared_round
            row["seconds"] = round(time.monotonic() - t0, 1)
            w.writerow(row)
            f.flush()
            print(row, flush=True)


if __name__ == "__main__":
    main()
