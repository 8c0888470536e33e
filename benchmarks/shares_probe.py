"""Probe: the fewest-shares run of the plan model at a settled round count, over which links and for how long.

    python benchmarks/shares_probe.py [--setups easy:1,...] [--runs focused@5,focused@10,all@10]
                                      [--work 10000] [--out results/shares-probe.csv]

For every setup, the solver's plan without the plan model (reproducible mode, --work round plans,
the polish beam included, CP-SAT relaxation at 1 unit) is handed to the CP-SAT restriction
(solver/solo/island_plans.restricted_plan) at that plan's round count, once per run in --runs:
`focused@T` keeps only the candidate links between the stops the plan joins, `all@T` every candidate
link (the solver's behaviour before this probe: the baseline), T the deterministic time. Each plan
the model returns is replayed by the referee; the row records its clearing round and shares (the
beam's plan when the model finds nothing better) and the run's wall time. The default setups are
the first four of each difficulty whose beam plan met the counting bound in results/easter-island.csv
(as it was before the beam variants)
(the case where the fewest-shares run follows a proved round count).

Writes the CSV after every setup; deterministic (same numbers on every run, seconds aside).
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

from solver.engine.plan import Plan, replay  # noqa: E402
from solver.engine.readings import make_rules  # noqa: E402
from solver.engine.setup import draw_setup  # noqa: E402
from solver.engine.state import GameState  # noqa: E402
from solver.games import default_instance, load_instance  # noqa: E402
from solver.report.output import write_atomic  # noqa: E402
from solver.solo.easter_island import analyse  # noqa: E402
from solver.solo.island_plans import plan_spec, restricted_plan  # noqa: E402
from solver.solo.settings import SolveParams  # noqa: E402

FIELDS = ["difficulty", "seed", "rounds", "beam_shares", "run", "candidate_links", "status", "cleared_round",
          "shares", "seconds"]
DEFAULT_SETUPS = "easy:1,easy:2,easy:9,easy:10,normal:1,normal:2,normal:3,normal:4,hard:3,hard:4,hard:5,hard:12"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--setups", default=DEFAULT_SETUPS)
    ap.add_argument("--runs", default="focused@5,focused@10,all@10")
    ap.add_argument("--work", type=int, default=10000)
    ap.add_argument("--out", default=str(ROOT / "results" / "shares-probe.csv"))
    args = ap.parse_args()
    runs = []
    for item in args.runs.split(","):
        links, _, units = item.partition("@")
        if links not in ("focused", "all") or not units:
            ap.error(f"--runs: expected focused@T or all@T, got {item!r}")
        runs.append((links, float(units)))
    inst = load_instance(default_instance("easter-island"))
    rules = make_rules("easter-island", [])
    out, rows = pathlib.Path(args.out), []
    print(",".join(FIELDS), flush=True)
    for item in args.setups.split(","):
        difficulty, seed = item.split(":")
        setup = draw_setup(inst, difficulty, int(seed), rules=rules)
        base = analyse(inst, difficulty, setup, rules, time_limit=3600, budget=args.work,
                       params=SolveParams(deterministic_time=1, plan_time=0), polish_width=8)
        if base.plan is None:
            print(f"{item}: no plan from the beam, skipped", flush=True)
            continue
        state0 = GameState.new(inst, setup, rules)
        for links, units in runs:
            spec = plan_spec(state0, hint=base.plan.rounds, focus=links == "focused")
            t = time.monotonic()
            found, status = restricted_plan(spec, base.upper_bound, SolveParams(plan_time=units,
                                                                                deterministic_time=units),
                                            hint=base.plan.rounds)
            seconds = time.monotonic() - t
            end = base.end_state
            if found:
                check = replay(inst, Plan(inst.board.name, difficulty, rules, setup, found,
                                          round_limit=inst.scenario.rounds))  # the referee decides
                if check.error is None and check.state.cleared_round is not None and \
                        (check.state.cleared_round, check.state.shares) < (base.upper_bound, end["shares"]):
                    end = check.state.summary()
            row = {"difficulty": difficulty, "seed": seed, "rounds": base.upper_bound,
                   "beam_shares": base.end_state["shares"], "run": f"{links}@{units:g}",
                   "candidate_links": len(spec.links), "status": status, "cleared_round": end["cleared_round"],
                   "shares": end["shares"], "seconds": round(seconds, 2)}
            rows.append(row)
            print(",".join(str(row[k]) for k in FIELDS), flush=True)
        text = io.StringIO()
        w = csv.DictWriter(text, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)
        write_atomic(out, text.getvalue())
    for links, units in runs:
        name = f"{links}@{units:g}"
        mine = [r for r in rows if r["run"] == name]
        if mine:
            print(f"{name}: mean shares {statistics.mean(r['shares'] for r in mine):.2f}, "
                  f"median {statistics.median(r['seconds'] for r in mine):.1f} s over {len(mine)} setups")


if __name__ == "__main__":
    main()
