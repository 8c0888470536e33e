"""Benchmark: the Zoo solver on seeded setups and both readings of the exit rule, with the route search timed.

    python benchmarks/zoo.py [--seeds 20] [--work 5000] [--cp-time 1] [--variants setup,dangers]
                             [--exits designer] [--out results/zoo.csv] [--records results/best-plans] [--no-update]

Reproducible mode: the beam search stops after --work round plans, CP-SAT (models/solo_game)
runs with 1 worker and max_deterministic_time --cp-time per model. `proof` is the proof
source (counting bound, relaxation, or unknown). Baseline in the same run: today's beam
search alone, the solver's first phase (`beam_rounds`, `beam_seconds`).

Variants (one row per variant, seed and exit reading):
* setup: instances/zoo.toml as it is; the seed draws the food's colours from
  the bag. Food colour has no meaning in the Zoo, so these rows must agree
  with each other: they check that the answer does not depend on colours.
* dangers: the same board with its ten danger levels (all `assumed` in
  instances/zoo.toml) shuffled among the animal areas by the seed, the
  numbers themselves unchanged. The printed board is not available, so these
  rows show how the solver fares on other plausible layouts.

Exit readings: designer (food may pass an exit, the default reading) and, with --exits
designer,strict, strict (--strict-exits).

Beside each solve, in the same run, the shipment search against its baseline:
the full least-locomotive table (every animal area as origin, every
destination, with and without the Feeding discount) computed by
`zoo_routes.least_locomotive` and by `zoo_routes.plain_bfs_least_locomotive`
(breadth-first search over (stop, locomotive used, exit used, discount used)
with no pruning), each timed from the game state (building the stop graph
included, best of 5), on the plan's final network and on a dense random
network of 30 links seeded by the seed. The two tables must agree.

The proven cheapest networks depend only on the board's geometry, so they are
computed once per run and reused (same input, same proven optimum); the row
that paid for them says so in `networks_computed`, and `network_seconds` is
the optimizer's time for them.

The record of the best plans (solver/batch/records.py, --records, default results/best-plans): every
answer's plan is replayed by the referee and compared with the recorded plan of its setup (variant, seed,
exit reading; fewer rounds, then fewer shares, then more cash is better). Column `record`: regression,
better (record updated), same, new (record updated), no plan; `record_rounds`, `record_shares`: the
record after the comparison. A better plan replaces the record unless `--no-update`. The summary counts
regressions and improvements, prints each regression with a line starting "!!! REGRESSION", and the run
exits with code 1 if there is one. It ends with issue 44's goal figures: setups settled, shares at the
end of the plan (median, 95th percentile), seconds (median, max). Bad input is one message and exit 2.
"""
from __future__ import annotations

import argparse
import csv
import io
import pathlib
import random
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import solver.solo.zoo as zoo  # noqa: E402
from solver.batch import records  # noqa: E402
from solver.board.errors import InputError  # noqa: E402
from solver.engine.readings import label  # noqa: E402
from solver.report.output import check_output_folder, write_atomic  # noqa: E402
import solver.solo.zoo_networks as zoo_networks  # noqa: E402
from solver.solo.settings import SolveParams  # noqa: E402
import solver.solo.zoo_routes as zr  # noqa: E402
from solver.games import load_instance  # noqa: E402
from solver.engine.moves import EndBuild, IssueShares, SelectAction  # noqa: E402
from solver.engine.plan import replay  # noqa: E402
from solver.engine.setup import draw_setup  # noqa: E402
from solver.engine.state import GameState, Rules  # noqa: E402

FIELDS = ["variant", "seed", "exits", "dangers", "verdict", "min_rounds", "rounds_lower_bound", "rounds_upper_bound",
          "proof", "shares", "shares_lower_bound", "shares_proved", "beam_rounds", "beam_seconds", "cash", "track_cost", "network_cost", "network_status", "teleport_network_cost",
          "seconds", "networks_computed", "network_seconds",
          "table_pairs", "table_ms", "plain_bfs_ms", "bfs_time_ratio",
          "dense_pairs", "dense_table_ms", "dense_plain_bfs_ms", "dense_bfs_time_ratio", "tables_agree",
          "record", "record_rounds", "record_shares"]


def time_tables(state, origins) -> tuple[int, float, float, bool]:
    """(pairs, fast ms, plain ms, agree): best of 5, the stop graph rebuilt from the state each time."""
    fast, plain = [], []
    for _ in range(5):
        zr._CACHE.clear()
        t = time.perf_counter()
        a = zr.least_locomotive(state, origins)
        fast.append(time.perf_counter() - t)
        zr._CACHE.clear()
        t = time.perf_counter()
        b = zr.plain_bfs_least_locomotive(state, origins)
        plain.append(time.perf_counter() - t)
    return len(a), min(fast) * 1000, min(plain) * 1000, a == b


def dense_state(inst, setup, rules, seed: int):
    s = GameState.new(inst, setup, rules)
    s.apply(IssueShares(0))
    s.apply(SelectAction("feeding"))
    zr.random_network(s, random.Random(seed), 30)
    s.apply(EndBuild())
    return s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--time-limit", type=float, default=60.0, help="for the network optimizer only")
    ap.add_argument("--work", type=int, default=5000)
    ap.add_argument("--cp-time", type=float, default=1.0)
    ap.add_argument("--exits", default="designer")
    ap.add_argument("--variants", default="setup,dangers")
    ap.add_argument("--out", default=str(ROOT / "results" / "zoo.csv"))
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
    if args.seeds < 1 or args.work < 1:
        raise InputError("must be at least 1", "--seeds and --work")
    for v in args.variants.split(","):
        if v not in records.ZOO_VARIANTS:
            raise InputError(f"unknown variant {v!r} (expected {', '.join(records.ZOO_VARIANTS)})", "--variants")
    for e in args.exits.split(","):
        if e not in ("designer", "strict"):
            raise InputError(f"unknown exit reading {e!r} (expected designer, strict)", "--exits")
    out = pathlib.Path(args.out)
    check_output_folder(out.parent, f"--out {out}", files=[out.name])
    folder = pathlib.Path(args.records)
    records.check_folder(folder, update=not args.no_update)
    outcomes = []
    base = load_instance(ROOT / "instances" / "zoo.toml")
    rows = []
    params = SolveParams(workers=1, deterministic_time=args.cp_time)
    print(f"reproducible mode: --work {args.work} round plans, CP-SAT 1 worker, max_deterministic_time "
          f"{args.cp_time} per model; exit readings {args.exits}", flush=True)
    print(",".join(FIELDS), flush=True)
    for variant in args.variants.split(","):
        for seed in range(1, args.seeds + 1):
            inst = base if variant == "setup" else zoo.shuffled_dangers(base, seed)
            setup = draw_setup(inst, "standard", seed)
            for exits in args.exits.split(","):
                rules = Rules(strict_exits=exits == "strict")
                computed_before = len(zoo_networks._PROVEN)
                a = zoo.analyse(inst, "standard", setup, rules, time_limit=args.time_limit, budget=args.work,
                                params=params)
                computed = len(zoo_networks._PROVEN) > computed_before
                proof = ((a.search.proof_source or "unknown")
                         if (a.verdict == "not clearable" or a.min_rounds_proved) else "unknown")
                shares = a.search.shares or {}
                end = a.end_state or {}
                origins = sorted(inst.board.cities)
                if a.plan is not None:
                    final = replay(inst, a.plan).state
                    pairs, fast, plain, agree = time_tables(final, origins)
                else:
                    pairs, fast, plain, agree = 0, 0.0, 0.0, True
                dense = dense_state(inst, setup, rules, seed)
                d_pairs, d_fast, d_plain, d_agree = time_tables(dense, origins)
                tele = a.extra_networks[0][1] if a.extra_networks else None
                row = {"variant": variant, "seed": seed, "exits": exits,
                       "dangers": " ".join(f"{inst.board.cities[h].name}={inst.board.cities[h].danger}"
                                           for h in sorted(inst.board.cities)),
                       "verdict": a.verdict, "min_rounds": a.upper_bound if a.min_rounds_proved else "",
                       "rounds_lower_bound": a.lower_bound, "rounds_upper_bound": a.upper_bound or "",
                       "proof": proof, "shares": end.get("shares", ""),
                       "shares_lower_bound": "" if shares.get("lower_bound") is None else shares["lower_bound"],
                       "shares_proved": bool(shares.get("proved")), "beam_rounds": a.search.beam_rounds or "",
                       "beam_seconds": (a.search.beam_seconds if a.search.beam_seconds is not None else ""), "cash": end.get("cash", ""),
                       "track_cost": end.get("spent_on_track", ""),
                       "network_cost": a.network.cost if a.network else "",
                       "network_status": a.network.status if a.network else "",
                       "teleport_network_cost": tele.cost if tele else "",
                       "seconds": round(a.seconds, 3), "networks_computed": "yes" if computed else "reused",
                       "network_seconds": round((a.network.seconds if a.network else 0) + (tele.seconds if tele else 0),
                                                3),
                       "table_pairs": pairs, "table_ms": round(fast, 3), "plain_bfs_ms": round(plain, 3),
                       "bfs_time_ratio": round(plain / fast, 2) if fast else "",
                       "dense_pairs": d_pairs, "dense_table_ms": round(d_fast, 3),
                       "dense_plain_bfs_ms": round(d_plain, 3),
                       "dense_bfs_time_ratio": round(d_plain / d_fast, 2) if d_fast else "",
                       "tables_agree": agree and d_agree}
                key = records.SetupKey("zoo", "standard", seed, label(rules, "zoo"), "", variant)
                outcome = records.offer(folder, key, a.plan, inst, update=not args.no_update)
                kept = outcome.kept()
                row.update({"record": outcome.column(), "record_rounds": kept.rounds if kept else "",
                            "record_shares": kept.shares if kept else ""})
                outcomes.append((key, outcome))
                rows.append(row)
                print(",".join(str(row[f]) for f in FIELDS), flush=True)
                if outcome.status in (records.REGRESSION, records.BROKEN):
                    print(records.regression_line(key, outcome), flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    text = io.StringIO()
    w = csv.DictWriter(text, fieldnames=FIELDS)
    w.writeheader()
    w.writerows(rows)
    write_atomic(out, text.getvalue())
    secs = [r["seconds"] for r in rows]
    proved = sum(1 for r in rows if r["proof"] != "unknown")
    ratios = [r["dense_bfs_time_ratio"] for r in rows if r["dense_bfs_time_ratio"] != ""]
    both = [r for r in rows if r["min_rounds"] != ""]
    worse = sum(1 for r in both if r["beam_rounds"] == "" or r["beam_rounds"] > r["min_rounds"])
    ratio = sum(r["seconds"] for r in rows) / max(1e-9, sum(r["beam_seconds"] or 0 for r in rows))
    sources = {}
    for r in rows:
        sources[r["proof"]] = sources.get(r["proof"], 0) + 1
    print(f"\nproof sources {sources}; fewest shares proved {sum(1 for r in rows if r['shares_proved'])}; "
          f"baseline (today's beam search, same budget, same run): rounds exceed the proven minimum in {worse} of "
          f"{len(both)}; time ratio solver/beam {ratio:.2f}; over 120 s: {sum(1 for s in secs if s > 120)}")
    print(f"\n{len(rows)} solves: {proved} answered with proof; seconds median {statistics.median(secs):.2f}, "
          f"max {max(secs):.2f}; dense route table median {statistics.median(r['dense_table_ms'] for r in rows):.2f} ms "
          f"(plain BFS {statistics.median(r['dense_plain_bfs_ms'] for r in rows):.2f} ms, ratio median "
          f"{statistics.median(ratios):.2f}); tables agree: {all(r['tables_agree'] for r in rows)}; wrote {out}")
    print("\n".join(records.record_summary(outcomes)))
    print(records.goal_figures(rows))
    print(f"records in {folder}" + (" (compared only, --no-update)" if args.no_update else ""))
    return 1 if any(o.status in (records.REGRESSION, records.BROKEN) for _, o in outcomes) else 0


if __name__ == "__main__":
    main()
