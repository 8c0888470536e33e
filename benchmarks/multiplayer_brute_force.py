"""Issue 41's check: `turn` against an independent brute force on random small states of every map.

    python benchmarks/multiplayer_brute_force.py [--states 200] [--first-seed 1] [--out results/multiplayer-brute-force.csv]

Per map, --states random states (tests/multiplayer_random.py: the sample with its goods, money, locomotive,
Kansas City power plants, marker, action and final turn, a subset of the active player's links, Synapses'
build phase with the Engineer and the round's discs, drawn from seeds and read by the state loader; draws it
refuses are counted, not judged). Each is answered by the solver (`search_turn`, or `search_build_turn` in
Synapses' build phase) and by the brute force (tests/test_multiplayer_exhaustive.py's own route walk; every
disc placement), and the two (income, cash) compared exactly; a state the brute force does not finish in --brute-seconds
(wall) is counted as unsettled, not as agreeing. CPU seconds of both are summed (the brute force
is the baseline; ratio solver / brute force). Deterministic: the states come from their seeds.
"""
from __future__ import annotations

import argparse
import csv
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.games import load_instance  # noqa: E402
from tests.multiplayer_random import MAPS, BruteForceTimeout, random_states, truth_and_answer  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--states", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--maps", default=",".join(MAPS))
    parser.add_argument("--brute-seconds", type=float, default=60.0,
                        help="wall seconds for the brute force on one state; a state it does not finish is "
                             "counted as unsettled, never as agreeing")
    parser.add_argument("--out", default=str(ROOT / "results" / "multiplayer-brute-force.csv"))
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.maps.split(","):
            inst = load_instance(ROOT / "instances" / f"{name}.toml")
            agree = disagree = builds = active = unsettled = 0
            solver_cpu = brute_cpu = 0.0
            refused = 0
            wall = time.perf_counter()
            for seed, state, refused in random_states(inst, name, args.states, args.first_seed, Path(tmp)):
                builds += state.turn_phase != "shipping"
                try:
                    answer, truth, t_solver, t_brute, idle = truth_and_answer(state, args.brute_seconds)
                except BruteForceTimeout:
                    unsettled += 1
                    print(f"unsettled: {name} seed {seed}: the brute force did not finish in {args.brute_seconds} s",
                          flush=True)
                    continue
                solver_cpu += t_solver
                brute_cpu += t_brute
                if t_solver + t_brute > 5:
                    print(f"slow: {name} seed {seed} ({state.turn_phase}): solver {t_solver:.1f} s, brute force "
                          f"{t_brute:.1f} s CPU", flush=True)
                active += answer != idle
                if answer == truth:
                    agree += 1
                else:
                    disagree += 1
                    print(f"DISAGREE {name} seed {seed}: solver {answer}, brute force {truth}", flush=True)
            rows.append({"map": name, "states": args.states, "build_phase_states": builds,
                         "states_where_doing_nothing_is_not_best": active,
                         "refused_draws": refused, "agree": agree, "disagree": disagree,
                         "brute_force_unsettled": unsettled,
                         "solver_cpu_seconds": round(solver_cpu, 2), "brute_force_cpu_seconds": round(brute_cpu, 2),
                         "ratio_solver_to_brute_force": round(solver_cpu / brute_cpu, 2) if brute_cpu else "",
                         "wall_seconds": round(time.perf_counter() - wall, 2)})
            print(rows[-1], flush=True)
    out = Path(args.out)
    tmp_out = out.with_suffix(".tmp")
    with tmp_out.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    tmp_out.replace(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
