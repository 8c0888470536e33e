"""Benchmark: `aos-solve turn` on each multiplayer sample state, against the single-delivery search.

    python benchmarks/multiplayer_turn.py [--repeat 5] [--out results/multiplayer-turn.csv]

Per sample state, in the same run (best of --repeat, process-local, no cache):
* baseline: `shipments` (every legal single delivery, what `deliveries` lists);
* turn: `search_turn` (every legal two-step sequence, each replayed by the rules);
* advice: `advise` (every build within the tile limit and cash, judged by the rules, each with next turn's
  best two-step shipping: a one-turn look-ahead).
The ratio column is turn / baseline. Deterministic: no randomness, no time limit.
"""
from __future__ import annotations

import argparse
import csv
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MAPS = ["finland", "portugal", "synapses", "human-body", "kansas-city"]


def best_of(repeat: int, fn, cpu: list | None = None):
    times, cpus, value = [], [], None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        value = fn()
        times.append(time.perf_counter() - start)
        cpus.append(time.process_time() - start_cpu)
    if cpu is not None:
        cpu.append(min(cpus))
    return min(times), value


def main() -> None:
    from solver.games import load_instance
    from solver.multi.state import load_state
    from solver.multi.phases import advise
    from solver.multi.turn import search_turn
    from solver.engine.shipping import shipments

    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", default=str(ROOT / "results" / "multiplayer-turn.csv"))
    args = parser.parse_args()
    rows = []
    for name in MAPS:
        inst = load_instance(ROOT / "instances" / f"{name}.toml")
        state = load_state(inst, ROOT / "instances" / "states" / f"{name}.toml")
        t_base, moves = best_of(args.repeat, lambda: shipments(state))
        t_turn, answer = best_of(args.repeat, lambda: search_turn(state))
        advice_cpu: list = []
        t_advice, tip = best_of(args.repeat, lambda: advise(answer.best.state), advice_cpu)
        rows.append({"map": name, "deliveries": len(moves), "baseline_seconds": round(t_base, 4),
                     "sequences": answer.sequences, "turn_seconds": round(t_turn, 4),
                     "ratio_turn_to_baseline": round(t_turn / t_base, 1) if t_base else "",
                     "best_income_after_turn": answer.best.key[0], "best_cash_after_turn": answer.best.key[1],
                     "advice_status": tip.status, "advice_cost": tip.cost, "builds_judged": tip.builds_judged,
                     "advice_seconds": round(t_advice, 4), "advice_cpu_seconds": round(advice_cpu[0], 4)})
        print(rows[-1], flush=True)
    out = pathlib.Path(args.out)
    tmp = out.with_suffix(".tmp")
    with tmp.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    tmp.replace(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
