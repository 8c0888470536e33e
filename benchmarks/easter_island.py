"""Benchmark: the Easter Island solver on seeded setups in its reproducible mode, with today's beam search beside it.

    python benchmarks/easter_island.py [--seeds 20] [--first-seed 1] [--bag red=20,blue=20,yellow=20,black=16]
                                       [--work 10000] [--cp-time 1] [--shares-cp-time 0] [--jobs 1]
                                       [--prove [--prove-time 600]] [--out results/easter-island.csv]
                                       [--records results/best-plans] [--no-update]

For every difficulty and seed it solves the setup drawn from the bag (default: the base
bag without purple cubes, the default the readings registry is moving to; the bag used
is printed). The solver runs in reproducible mode: the beam search stops after --work
round plans, CP-SAT (the relaxation in models/solo_game) runs with 1 worker and the
deterministic time limit --cp-time per model, and the CP-SAT plan model (the restriction)
--plan-cp-time: first the squeeze (a plan one round shorter than the best, repaired from it,
with twice that time, first over the links between the stops the plan joins, then over all
candidate links; column `squeeze`, "9f:" marks a focused attempt at 9 rounds), then over the whole
round range (column `restriction`), which like the fewest-shares run at a proved round count gets
--shares-cp-time (default 0, as in aos-solve easter-island: not run) and only the plan's stop pairs.
`seconds` is the whole answer (wall time), `cpu_seconds` the CPU time of its process (all threads: on a
machine shared with other work, the figure the load does not inflate); `rounds_seconds` the time at which the round count was settled (the
fewest-shares phase, the polish beam, comes after it). The defaults are aos-solve easter-island's.

Times: the plan model interleaves 4 search strategies on 4 threads (its answer depends on that number,
so it is fixed), so on this 2-core machine `--jobs 1` gives the times a user sees; `--jobs 2` solves two
setups at once, one process each, and about doubles each setup's wall time (same answers). Every
setup pays for its own network proofs (the process cache is cleared first), as a single command does.

Baseline, measured in the same run: the beam search as it was before its variants, which is the
solver's first phase (its first target network, same budget, same process): its round count
(`beam_rounds`) and its time (`beam_seconds`). `--work` is per beam variant: while the plan misses
the bound the solver tries the other black towns and the other beam variants (column `variants`:
each run as town/variant, the variant's index in solver/solo/easter_island.PORTFOLIO, and the rounds
of a shorter plan it found, `-` for none). The summary says how often the beam's rounds exceed the proven
minimum and the time ratio solver / beam.

`proof` is the proof source: the name of the proof engine (solver/solo/proofs, registry ENGINES)
that proved the bound the plan meets or that no play clears by the round limit (counting bound,
relaxation, ...), "obstacle (no search)" (a cube or ruin that can never be served), or unknown (both
bounds printed). `engines`: every question asked of an engine, as name@round:verdict.

Deep mode (`--prove`, `aos-solve easter-island --prove`): every proof engine runs to the end with
`--prove-time` deterministic units per call (`mode` = prove). The baseline is then today's default
answer of the same setup, solved in the same run just before (columns baseline_*: its proof source,
bounds and seconds); the summary compares how many setups each settles, and the time ratio.

The record of the best plans (solver/batch/records.py, --records, default results/best-plans): every
answer's plan is replayed by the referee and compared with the recorded plan of its setup (fewer rounds,
then fewer shares, then more cash is better). Column `record`: regression, better (record updated),
same, new (record updated), no plan; `record_rounds`, `record_shares`: the record after the comparison.
A better plan replaces the record unless `--no-update`. The summary counts regressions and improvements,
prints each regression with a line starting "!!! REGRESSION", and the run exits with code 1 if there is
one. It ends with issue 44's goal figures: setups settled, shares at the end of the plan (median, 95th
percentile), seconds (median, max). Bad input (options, the record folder) is one message and exit 2.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import csv
import dataclasses
import io
import os
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.solo.easter_island import PORTFOLIO, analyse  # noqa: E402
from solver.batch import records  # noqa: E402
from solver.board.errors import InputError  # noqa: E402
from solver.engine.readings import label  # noqa: E402
from solver.games import load_instance  # noqa: E402
from solver.engine.setup import draw_setup, parse_bag  # noqa: E402
from solver.solo.settings import SolveParams  # noqa: E402
from solver.engine.state import Rules  # noqa: E402
from solver.report.output import check_output_folder, write_atomic  # noqa: E402
from models.network import clear_cache  # noqa: E402

NO_PURPLE = "red=20,blue=20,yellow=20,black=16"
FIELDS = ["bag", "difficulty", "seed", "verdict", "min_rounds", "rounds_lower_bound", "rounds_upper_bound",
          "proof", "shares", "shares_lower_bound", "shares_proved", "cash", "track_cost", "network_cost",
          "network_status", "seconds", "cpu_seconds", "rounds_seconds", "beam_rounds", "beam_seconds", "variants", "relaxation",
          "plan_source", "squeeze", "restriction", "mode", "engines", "baseline_proof", "baseline_lower_bound",
          "baseline_upper_bound", "baseline_seconds", "baseline_shares", "record", "record_rounds", "record_shares"]


def row_for(a, bag: str, difficulty: str, seed: int) -> dict:
    end = a.end_state or {}
    shares = a.search.shares or {}
    proved = a.verdict == "not clearable" or a.min_rounds_proved
    return {"bag": bag, "difficulty": difficulty, "seed": seed, "verdict": a.verdict,
            "min_rounds": a.upper_bound if a.min_rounds_proved else "",
            "rounds_lower_bound": a.lower_bound, "rounds_upper_bound": a.upper_bound or "",
            "proof": (a.search.proof_source or "unknown") if proved else "unknown",
            "shares": end.get("shares", ""),
            "shares_lower_bound": "" if shares.get("lower_bound") is None else shares["lower_bound"],
            "shares_proved": bool(shares.get("proved")), "cash": end.get("cash", ""),
            "track_cost": end.get("spent_on_track", ""),
            "network_cost": a.network.cost if a.network else "",
            "network_status": a.network.status if a.network else "",
            "seconds": round(a.seconds, 3), "rounds_seconds": (a.search.rounds_seconds if a.search.rounds_seconds is not None else ""),
            "beam_rounds": a.search.beam_rounds or "",
            "beam_seconds": (a.search.beam_seconds if a.search.beam_seconds is not None else ""),
            "variants": _variants_text(a.search.beam_variants or []),
            "relaxation": " ".join(f"{e['rounds']}:{e['relaxation']}" for e in a.search.engine_logs.get("relaxation") or []),
            "plan_source": (a.search.plan_source or "").split(" (")[0],
            "squeeze": "; ".join(f"{e['last_round']}{'f' if e.get('links', '').startswith('the plan') else ''}:"
                                f"{_restriction_text(e)}" for e in a.search.squeeze or []),
            "restriction": _restriction_text(a.search.restriction),
            "mode": "prove" if a.search.prove_time is not None else "default",
            "engines": " ".join(f"{v['engine'].replace(' ', '-')}@{v['last_round']}:{v['status'].replace(' ', '-')}"
                                for v in a.search.proofs or [])}


def _restriction_text(record) -> str:
    """The CP-SAT restriction's run: its status, and "improved" when its plan has fewer rounds or shares."""
    if not record:
        return ""
    return f"{record['status']}" + (" improved" if record.get("improved") else "")


def _variants_text(runs: list[dict]) -> str:
    """'F5/0:- I2/0:8': each beam run (town / index of its variant in PORTFOLIO): the rounds of a shorter
    plan it found, or - (none)."""
    index = {v.name: i for i, v in enumerate(PORTFOLIO)}
    return " ".join(f"{r['town']}/{index.get(r['variant'], '?')}:{r['rounds'] or '-'}" for r in runs)


def solve_one(task: tuple) -> dict:
    """One setup in its own call (a worker process with --jobs): the solver, its beam baseline inside."""
    difficulty, seed, bag, work, params, with_baseline = task
    inst = load_instance(ROOT / "instances" / "easter-island.toml")
    setup = draw_setup(inst, difficulty, seed, parse_bag(bag))
    name = "no-purple" if bag == NO_PURPLE else bag
    baseline = None
    if params.prove or with_baseline:
        # the baseline, in the same process: deep mode, today's default answer; default mode, the solver
        # without the plan optimizer (economy_width 0: the beam, its variants and the CP-SAT restriction)
        clear_cache()
        base_params = dataclasses.replace(params, prove=False) if params.prove else \
            dataclasses.replace(params, economy_width=0)
        b = row_for(analyse(inst, difficulty, setup, Rules(), time_limit=120.0, budget=work,
                            params=base_params), name, difficulty, seed)
        baseline = {"baseline_proof": b["proof"], "baseline_lower_bound": b["rounds_lower_bound"],
                    "baseline_upper_bound": b["rounds_upper_bound"], "baseline_seconds": b["seconds"],
                    "baseline_shares": b["shares"]}
    clear_cache()  # the time of a single command, not of a batch that reuses the network proofs
    cpu = time.process_time()
    a = analyse(inst, difficulty, setup, Rules(), time_limit=120.0, budget=work, params=params)
    cpu = round(time.process_time() - cpu, 3)  # every thread of the process: what a shared machine cannot inflate
    plan = a.plan.to_json(inst) if a.plan is not None else None  # judged against the record by main()
    return {**row_for(a, name, difficulty, seed), "cpu_seconds": cpu, **(baseline or {}), "plan": plan}


def baseline_summary(rows: list[dict]) -> str:
    """The optimizer against the solver before it, on the setups solved both ways in this run."""
    both = [r for r in rows if r.get("baseline_seconds") not in (None, "")]
    if not both:
        return "baseline: none solved (--baseline-every 0)"

    def settled(proof: str) -> bool:
        return proof not in ("", "unknown", None)

    def median(values) -> float:
        values = [v for v in values if v not in ("", None)]
        return statistics.median(values) if values else float("nan")

    ratio = sum(float(r["seconds"]) for r in both) / max(1e-9, sum(float(r["baseline_seconds"]) for r in both))
    return (f"baseline (the solver without the plan optimizer) on {len(both)} setups solved both ways: settled "
            f"{sum(settled(r['proof']) for r in both)} vs {sum(settled(r['baseline_proof']) for r in both)}; "
            f"median shares {median([r['shares'] for r in both])} vs {median([r['baseline_shares'] for r in both])}; "
            f"time ratio (optimizer / baseline, summed) {ratio:.2f}")


def setup_key(row: dict) -> records.SetupKey:
    return records.SetupKey("easter-island", row["difficulty"], row["seed"], label(Rules(), "easter-island"),
                            row["bag"])


def judge(row: dict, inst, folder: pathlib.Path, update: bool) -> records.Outcome:
    """The row's plan against the record of its setup (both replayed); the row gets the record columns."""
    from solver.engine.plan import plan_from_json
    data = row.pop("plan", None)
    plan = plan_from_json(data, inst, "the answer's plan") if data is not None else None
    outcome = records.offer(folder, setup_key(row), plan, inst, update=update)
    kept = outcome.kept()
    row.update({"record": outcome.column(), "record_rounds": kept.rounds if kept else "",
                "record_shares": kept.shares if kept else ""})
    return outcome


def row_line(row: dict) -> str:
    """The row as printed: every column, the ones a row leaves out (the deep mode's baseline_*) empty."""
    return ",".join(str(row.get(f, "")) for f in FIELDS)


def write_rows(out: pathlib.Path, rows: list[dict]) -> None:
    """The CSV of the rows so far, replaced whole (a stopped run keeps what it measured)."""
    text = io.StringIO()
    w = csv.DictWriter(text, fieldnames=FIELDS, extrasaction="ignore")
    w.writeheader()
    w.writerows({k: r.get(k, "") for k in FIELDS} for r in rows)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, text.getvalue())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20, help="seeds per difficulty")
    ap.add_argument("--first-seed", type=int, default=1,
                    help="the first seed (e.g. 21 with --seeds 20: setups the solver's settings were not chosen on)")
    ap.add_argument("--bag", default=NO_PURPLE)
    ap.add_argument("--work", type=int, default=10000)
    ap.add_argument("--cp-time", type=float, default=1.0)
    ap.add_argument("--plan-cp-time", type=float, default=10.0,
                    help="deterministic time of the CP-SAT plan model (restriction); 0 runs the solver without it")
    ap.add_argument("--shares-cp-time", type=float, default=0.0,
                    help="deterministic time of the plan model when it only looks for fewer shares (default 0, "
                         "as aos-solve easter-island: skipped)")
    ap.add_argument("--prove", action="store_true",
                    help="deep mode (aos-solve easter-island --prove): every proof engine to the end; the baseline "
                         "is the default answer of the same setup, solved in the same run")
    ap.add_argument("--prove-time", type=float, default=600.0,
                    help="deep mode: deterministic time of each proof-engine call (default 600)")
    ap.add_argument("--difficulties", default="easy,normal,hard")
    ap.add_argument("--jobs", type=int, default=1,
                    help="setups solved at once, one process each (each setup's time is its own process's; "
                         "at most one job per core keeps the times comparable)")
    ap.add_argument("--out", default=None,
                    help="default results/easter-island.csv, with --prove results/easter-island-prove.csv")
    ap.add_argument("--baseline-every", type=int, default=10,
                    help="default mode: every Nth setup is also solved without the plan optimizer (the solver "
                         "before it), in the same process, for the side-by-side baseline (0: none)")
    ap.add_argument("--records", default=str(ROOT / "results" / "best-plans"),
                    help="the folder of the best plans (default results/best-plans)")
    ap.add_argument("--no-update", action="store_true",
                    help="compare each answer with the record, never write it")
    args = ap.parse_args()
    try:
        code = run(args)
    except InputError as err:
        print(f"{pathlib.Path(__file__).name}: error: {err}", file=sys.stderr)
        sys.exit(2)
    sys.exit(code)


def run(args) -> int:
    if args.seeds < 1 or args.jobs < 1 or args.work < 1:
        raise InputError("must be at least 1", "--seeds, --jobs and --work")
    for d in args.difficulties.split(","):
        if d not in ("easy", "normal", "hard"):
            raise InputError(f"unknown difficulty {d!r} (expected easy, normal, hard)", "--difficulties")
    parse_bag(args.bag)
    args.out = args.out or str(ROOT / "results" / ("easter-island-prove.csv" if args.prove else "easter-island.csv"))
    out = pathlib.Path(args.out)
    check_output_folder(out.parent, f"--out {out}", files=[out.name])
    folder = pathlib.Path(args.records)
    records.check_folder(folder, update=not args.no_update)
    params = SolveParams(workers=1, deterministic_time=args.cp_time, plan_time=args.plan_cp_time,
                         shares_time=args.shares_cp_time, prove=args.prove, prove_time=args.prove_time)
    print(f"bag: {args.bag}; reproducible mode: --work {args.work} round plans, CP-SAT 1 worker, "
          f"max_deterministic_time {args.cp_time} per relaxation model, {args.plan_cp_time} for the plan model, "
          f"{params.for_shares().plan_time} when it only looks for fewer shares (interleaved search); "
          + (f"deep mode (--prove), {args.prove_time} per proof-engine call, the default answer as baseline; "
             if args.prove else "") + f"{args.jobs} job(s)", flush=True)
    print(",".join(FIELDS), flush=True)
    tasks = [(d, seed, args.bag, args.work, params) for d in args.difficulties.split(",")
             for seed in range(args.first_seed, args.first_seed + args.seeds)]
    every = args.baseline_every
    tasks = [t + (bool(every) and i % every == 0,) for i, t in enumerate(tasks)]
    inst = load_instance(ROOT / "instances" / "easter-island.toml")
    outcomes = []
    order = {(t[0], t[1]): i for i, t in enumerate(tasks)}
    rows = []
    t0 = time.time()
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for row in pool.map(solve_one, tasks) if args.jobs > 1 else map(solve_one, tasks):
            outcome = judge(row, inst, folder, not args.no_update)
            outcomes.append((setup_key(row), outcome))
            rows.append(row)
            rows.sort(key=lambda r: order[r["difficulty"], r["seed"]])
            write_rows(out, rows)
            print(row_line(row), flush=True)
            if outcome.status in (records.REGRESSION, records.BROKEN):
                print(records.regression_line(setup_key(row), outcome), flush=True)
    print(summary(rows, args.difficulties.split(",")))
    print("\n".join(records.record_summary(outcomes)))
    print(records.goal_figures(rows))
    if not args.prove:
        print(baseline_summary(rows))
    print("load average at the end (1, 5, 15 min): " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"wall time {time.time() - t0:.0f} s; wrote {out}; records in {folder}"
          + (" (compared only, --no-update)" if args.no_update else ""))
    return 1 if any(o.status in (records.REGRESSION, records.BROKEN) for _, o in outcomes) else 0


def summary(rows, difficulties) -> str:
    lines = []
    secs = [r["seconds"] for r in rows]
    answered = sum(1 for r in rows if r["proof"] != "unknown")
    lines.append(f"{len(rows)} setups: {answered} answered with proof ({100 * answered / len(rows):.0f}%), "
                 f"{len(rows) - answered} unknown; median {statistics.median(secs):.2f} s, max {max(secs):.2f} s, "
                 f"{sum(1 for s in secs if s > 120)} over 120 s")
    settled = [r["rounds_seconds"] for r in rows if r["rounds_seconds"] != ""]
    if settled:
        lines.append(f"  rounds answer settled (before the fewest-shares phase) after a median "
                     f"{statistics.median(settled):.2f} s, max {max(settled):.2f} s")
    for d in difficulties:
        sub = [r for r in rows if r["difficulty"] == d]
        clear = [r for r in sub if r["verdict"] == "clearable"]
        proved = [r for r in clear if r["proof"] != "unknown"]
        sources = {}
        for r in sub:
            sources[r["proof"]] = sources.get(r["proof"], 0) + 1
        lines.append(f"  {d:6s}: {len(clear)}/{len(sub)} clearable, {len(proved)} with proven minimum, "
                     f"{sum(1 for r in sub if r['verdict'] == 'not clearable')} proved not clearable; "
                     f"proof sources {sources}; min rounds {sorted(r['min_rounds'] for r in proved)}; "
                     f"fewest shares proved {sum(1 for r in proved if r['shares_proved'])}")
    deep = [r for r in rows if r.get("mode") == "prove"]
    if deep:
        base = sum(1 for r in deep if r["baseline_proof"] != "unknown")
        ratio = sum(r["seconds"] for r in deep) / max(1e-9, sum(r["baseline_seconds"] for r in deep))
        deep_secs = [r["seconds"] for r in deep]
        lines.append(f"deep mode (--prove) settles {sum(1 for r in deep if r['proof'] != 'unknown')} of {len(deep)}, "
                     f"the default answer (baseline, same run) {base}; deep mode median {statistics.median(deep_secs):.2f} s, "
                     f"max {max(deep_secs):.2f} s, {sum(1 for x in deep_secs if x > 600)} over 600 s; "
                     f"time ratio deep/default {ratio:.2f}")
    both = [r for r in rows if r["min_rounds"] != "" and r["beam_seconds"]]  # the beam ran (no optimizer plan at the bound)
    if both:
        worse = sum(1 for r in both if r["beam_rounds"] == "" or r["beam_rounds"] > r["min_rounds"])
        ratio = sum(r["seconds"] for r in both) / max(1e-9, sum(r["beam_seconds"] or 0 for r in both))
        lines.append(f"the beam (its first target network alone, same budget, same run; where the optimizer missed the bound) on {len(both)} setups with a proven "
                     f"minimum: its rounds exceed the minimum in {worse}; time ratio solver/beam {ratio:.2f}")
    varied = [r for r in rows if len(r["variants"].split()) > 1]
    if varied:
        hit = [r for r in varied if any(not v.endswith(":-") for v in r["variants"].split()[1:])]
        lines.append(f"beam variants (other black towns, other beam settings) ran on {len(varied)} setups: a shorter plan "
                     f"on {len(hit)}, of which {sum(1 for r in hit if r['proof'] != 'unknown')} now meet their bound")
    squeezed = [r for r in rows if r["squeeze"]]
    if squeezed:
        shorter = [r for r in squeezed if "improved" in r["squeeze"]]
        lines.append(f"squeeze (the restriction asked for one round fewer than the best plan, from that plan) ran on "
                     f"{len(squeezed)} setups: a shorter plan on {len(shorter)}, of which "
                     f"{sum(1 for r in shorter if r['proof'] != 'unknown')} now meet their lower bound (proved)")
        attempts = [a for r in squeezed for a in r["squeeze"].split("; ")]
        for name, focused in (("focused (the plan's stop pairs)", True), ("whole candidate set", False)):
            mine = [a for a in attempts if a.split(":")[0].endswith("f") == focused]
            lines.append(f"  squeeze over {name}: {len(mine)} attempts, "
                         f"{sum(1 for a in mine if a.endswith('improved'))} gave a shorter plan")
    ran = [r for r in rows if r["restriction"]]
    if ran:
        better = [r for r in ran if r["restriction"].endswith("improved")]
        fewer = sum(1 for r in better if r["beam_rounds"] == "" or (r["rounds_upper_bound"] or 99) < r["beam_rounds"])
        lines.append(f"CP-SAT restriction (plan model) ran on {len(ran)} setups: its plan beat the beam's on "
                     f"{len(better)} ({fewer} with fewer rounds, the rest with fewer shares); plan_source also names it where "
                     "its plan only ended with more cash")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
