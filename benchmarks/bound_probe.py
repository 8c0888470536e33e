"""Probe: why the Easter Island setups left at "bound + 1" stay unproved, with budgets far above the solver's.

    python benchmarks/bound_probe.py [--setups normal:14,hard:8,...] [--from-csv results/easter-island.csv]
                                     [--cp-time 200] [--plan-cp-time 0] [--readings default,complex-tiles=refused]
                                     [--workers 1] [--jobs 1] [--out results/bound-probe.csv]

For every setup (default: the rows of --from-csv whose proof is "unknown") it asks, at the setup's lower
bound R (the counting bound, the round count the plan misses by one):

* the CP-SAT RELAXATION (models/solo_game/relaxation.py, network layer included) with --cp-time
  deterministic units and --workers workers (1, the default, is reproducible; more workers run
  different strategies side by side and need not repeat). INFEASIBLE would prove the minimum is above R;
  FEASIBLE means this relaxation can never prove it, however long it runs. For a feasible answer the row
  shows what the relaxed play used: new track hexes and, of those, hexes carrying two tracks by round R,
  its track spend and shares, and its locomotive at the end;
* under each reading set of --readings (default: the default readings, then `complex-tiles=refused`,
  where a hex carries one track: the relaxation's double hexes are then zero);
* with --plan-cp-time > 0, the CP-SAT RESTRICTION (models/solo_game/restriction.py) over a larger
  candidate set than the solver's (3 paths a stop pair, routes of up to 5 links, 25 a cube) for a plan
  clearing by R; a plan it finds is replayed by the referee, and only the referee's verdict is written.

The figures are a probe's, not the solver's: the solver gives the relaxation 1 unit (--cp-time of
benchmarks/easter_island.py) and the restriction 2 x 10 units.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import csv
import dataclasses
import io
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from models.network import cheapest_network  # noqa: E402
from models.solo_game import build_relaxation  # noqa: E402
from solver.engine.plan import Plan, replay  # noqa: E402
from solver.engine.readings import make_rules  # noqa: E402
from solver.engine.setup import draw_setup  # noqa: E402
from solver.engine.state import GameState  # noqa: E402
from solver.games import load_instance  # noqa: E402
from solver import interrupt  # noqa: E402
from solver.report.output import write_atomic  # noqa: E402
from solver.solo.proofs.counting import island_rounds_bound as rounds_lower_bound  # noqa: E402
from solver.solo.island_plans import plan_spec, restricted_plan  # noqa: E402
from solver.solo.relaxation import game_spec, verdict_of  # noqa: E402
from solver.solo.settings import SolveParams  # noqa: E402

FIELDS = ["difficulty", "seed", "readings", "bound", "relaxation", "relaxation_seconds", "new_hexes",
          "double_hexes", "track_spend", "shares_issued", "locomotive_end", "locomotive_actions",
          "restriction", "restriction_seconds", "referee"]


def probe(task: tuple) -> dict:
    """One setup under one reading set, in its own call (a worker process with --jobs): its CSV row."""
    difficulty, seed, readings, cp_time, plan_time, workers = task
    inst = load_instance(ROOT / "instances" / "easter-island.toml")
    rules = make_rules("easter-island", [] if readings == "default" else readings.split(";"))
    setup = draw_setup(inst, difficulty, seed, rules=rules)
    tiles_net = cheapest_network(inst, sorted(inst.board.cities), unit_cost=True, time_limit=30.0,
                                 degree_limited=False)
    bound, _ = rounds_lower_bound(inst, setup, tiles_net.lower_bound or 0)
    state = GameState.new(inst, setup, rules)
    spec = game_spec(state, network_tiles=tiles_net.lower_bound or 0)
    row = {"difficulty": difficulty, "seed": seed, "readings": readings, "bound": bound}
    sm = build_relaxation(spec, bound)
    solver = SolveParams(workers=workers, deterministic_time=cp_time).cp_solver()
    t0 = time.monotonic()
    status = interrupt.solve_cp(solver, sm.model)  # Ctrl-C stops it at once
    row["relaxation_seconds"] = round(time.monotonic() - t0, 1)
    row["relaxation"] = verdict_of(status)
    if row["relaxation"] == "feasible":
        v = solver.Value
        row.update(new_hexes=v(sm.tiles[bound]), double_hexes=v(sm.double[bound]),
                   track_spend=v(sm.total_spend), shares_issued=spec.shares + v(sm.total_shares),
                   locomotive_end=v(sm.loco[bound + 1]),
                   locomotive_actions=sum(v(x) for (r, a), x in sm.action.items() if a == "locomotive"))
    if plan_time > 0:
        pspec = plan_spec(state, per_pair=3, max_links=5, per_cube=25)
        t0 = time.monotonic()
        rounds, status = restricted_plan(pspec, bound, SolveParams(workers=1, plan_time=plan_time,
                                                                   deterministic_time=plan_time))
        row["restriction_seconds"] = round(time.monotonic() - t0, 1)
        row["restriction"] = status
        if rounds:
            check = replay(inst, Plan(inst.board.name, difficulty, rules, setup, rounds,
                                      round_limit=inst.scenario.rounds))
            cleared = check.state.cleared_round if check.error is None else None
            row["referee"] = f"clears in round {cleared}" if cleared else (check.error or "does not clear")
    return row


def unproved(csv_path: pathlib.Path) -> list[tuple[str, int]]:
    with open(csv_path, newline="") as f:
        return [(r["difficulty"], int(r["seed"])) for r in csv.DictReader(f) if r["proof"] == "unknown"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--setups", default="", help="difficulty:seed,... (default: the unproved rows of --from-csv)")
    ap.add_argument("--from-csv", default=str(ROOT / "results" / "easter-island.csv"))
    ap.add_argument("--cp-time", type=float, default=200.0, help="deterministic units of the relaxation")
    ap.add_argument("--plan-cp-time", type=float, default=0.0, help="deterministic units of the restriction (0: skip)")
    ap.add_argument("--readings", default="default,complex-tiles=refused",
                    help="reading sets, comma between sets, ';' between readings of one set")
    ap.add_argument("--workers", type=int, default=1, help="CP-SAT workers of the relaxation (1: reproducible)")
    ap.add_argument("--jobs", type=int, default=1, help="probes run at once, one process each")
    ap.add_argument("--out", default=str(ROOT / "results" / "bound-probe.csv"))
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    if not out.parent.is_dir():
        ap.error(f"--out: the folder {out.parent} does not exist")  # exit 2, before any long work
    try:
        setups = ([(d, int(s)) for d, s in (x.split(":") for x in args.setups.split(","))] if args.setups
                  else unproved(pathlib.Path(args.from_csv)))
    except (ValueError, OSError, KeyError) as err:
        ap.error(f"--setups/--from-csv: expected difficulty:seed,... or a benchmark CSV ({err})")
    tasks = [(d, s, rd, args.cp_time, args.plan_cp_time, args.workers)
             for rd in args.readings.split(",") for d, s in setups]
    print(f"{len(tasks)} probes; relaxation {args.cp_time} units with {args.workers} worker(s), restriction "
          f"{args.plan_cp_time} units (1 worker, interleaved)",
          flush=True)
    rows = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for row in (pool.map(probe, tasks) if args.jobs > 1 else map(probe, tasks)):
            rows.append(row)
            text = io.StringIO()
            w = csv.DictWriter(text, fieldnames=FIELDS)
            w.writeheader()
            w.writerows({k: r.get(k, "") for k in FIELDS} for r in rows)
            write_atomic(out, text.getvalue())  # a stopped run keeps what it measured
            print(",".join(str(row.get(k, "")) for k in FIELDS), flush=True)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
