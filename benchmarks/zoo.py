"""Benchmark: the Zoo solver on seeded setups and both readings of the exit rule, with the route search timed.

    python benchmarks/zoo.py [--seeds 20] [--time-limit 60] [--variants setup,dangers] [--out results/zoo.csv]

Variants (one row per variant, seed and exit reading):
* setup: instances/zoo.toml as it is; the seed draws the food's colours from
  the bag. Food colour has no meaning in the Zoo, so these rows must agree
  with each other: they check that the answer does not depend on colours.
* dangers: the same board with its ten danger levels (all `assumed` in
  instances/zoo.toml) shuffled among the animal areas by the seed, the
  numbers themselves unchanged. The printed board is not available, so these
  rows show how the solver fares on other plausible layouts.

Exit readings: designer (food may pass an exit) and strict (--strict-exits).

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
"""
from __future__ import annotations

import argparse
import csv
import pathlib
import random
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import solver.solo.zoo as zoo  # noqa: E402
import solver.solo.zoo_routes as zr  # noqa: E402
from solver.games import load_instance  # noqa: E402
from solver.engine.moves import EndBuild, IssueShares, SelectAction  # noqa: E402
from solver.engine.plan import replay  # noqa: E402
from solver.engine.setup import draw_setup  # noqa: E402
from solver.engine.state import GameState, Rules  # noqa: E402

FIELDS = ["variant", "seed", "exits", "dangers", "verdict", "min_rounds", "rounds_lower_bound", "rounds_upper_bound",
          "proof", "shares", "cash", "track_cost", "network_cost", "network_status", "teleport_network_cost",
          "seconds", "networks_computed", "network_seconds",
          "table_pairs", "table_ms", "plain_bfs_ms", "bfs_time_ratio",
          "dense_pairs", "dense_table_ms", "dense_plain_bfs_ms", "dense_bfs_time_ratio", "tables_agree"]


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
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--variants", default="setup,dangers")
    ap.add_argument("--out", default=str(ROOT / "results" / "zoo.csv"))
    args = ap.parse_args()
    base = load_instance(ROOT / "instances" / "zoo.toml")
    rows = []
    print(",".join(FIELDS), flush=True)
    for variant in args.variants.split(","):
        for seed in range(1, args.seeds + 1):
            inst = base if variant == "setup" else zoo.shuffled_dangers(base, seed)
            setup = draw_setup(inst, "standard", seed)
            for exits in ("designer", "strict"):
                rules = Rules(strict_exits=exits == "strict")
                computed_before = len(zoo._PROVEN)
                a = zoo.analyse(inst, "standard", setup, rules, time_limit=args.time_limit)
                computed = len(zoo._PROVEN) > computed_before
                proof = ("impossible-without-search" if a.impossible else
                         "bound" if a.verdict == "not clearable" else
                         "plan-meets-bound" if a.min_rounds_proved else "unknown")
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
                       "proof": proof, "shares": end.get("shares", ""), "cash": end.get("cash", ""),
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
                rows.append(row)
                print(",".join(str(row[f]) for f in FIELDS), flush=True)
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)
    secs = [r["seconds"] for r in rows]
    proved = sum(1 for r in rows if r["proof"] != "unknown")
    ratios = [r["dense_bfs_time_ratio"] for r in rows if r["dense_bfs_time_ratio"] != ""]
    print(f"\n{len(rows)} solves: {proved} answered with proof; seconds median {statistics.median(secs):.2f}, "
          f"max {max(secs):.2f}; dense route table median {statistics.median(r['dense_table_ms'] for r in rows):.2f} ms "
          f"(plain BFS {statistics.median(r['dense_plain_bfs_ms'] for r in rows):.2f} ms, ratio median "
          f"{statistics.median(ratios):.2f}); tables agree: {all(r['tables_agree'] for r in rows)}; wrote {out}")


if __name__ == "__main__":
    main()
