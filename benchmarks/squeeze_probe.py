"""Probe: what the squeeze needs (plan model time) and what the beam needs (round plans), on named setups.

    python benchmarks/squeeze_probe.py [--squeeze easy:3,easy:6] [--times 10,20] [--links all]
                                       [--beam normal:3,normal:4] [--work 5000] [--big-work 20000]

Squeeze rows: the beam's plan (reproducible mode, --work round plans, no CP-SAT) is cut one round
short and handed to the CP-SAT restriction (solver/solo/island_plans.restricted_plan) at each
deterministic time in --times; the plan it returns is replayed by the referee and its clearing
round recorded. This is how the default (twice --plan-cp-time) was chosen. `--links all,focused`
runs each setup with both candidate sets: all candidate links, or only those between the stops the
beam's plan joins (plan_spec(focus=True)); the squeeze tries focused first, then all.

Beam rows: the beam alone with --big-work round plans: the round plans it tried until its plan met
the counting bound (or the budget ran out), to compare with the benchmark's --work.

Writes results/squeeze-probe.csv; deterministic (same numbers on every run, seconds aside).
"""
from __future__ import annotations

import argparse
import csv
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.engine.plan import Plan, replay  # noqa: E402
from solver.engine.readings import make_rules  # noqa: E402
from solver.engine.setup import draw_setup  # noqa: E402
from solver.engine.state import GameState  # noqa: E402
from solver.games import default_instance, load_instance  # noqa: E402
from solver.solo.easter_island import analyse  # noqa: E402
from solver.solo.island_plans import plan_spec, restricted_plan  # noqa: E402
from solver.solo.settings import SolveParams  # noqa: E402

FIELDS = ["kind", "difficulty", "seed", "lower_bound", "beam_rounds", "round_plans_tried", "plan_model_time",
          "links", "candidate_links", "status", "cleared_round", "seconds"]


def _setups(text: str) -> list[tuple[str, int]]:
    out = []
    for item in filter(None, text.split(",")):
        difficulty, seed = item.split(":")
        out.append((difficulty, int(seed)))
    return out


def _beam(inst, rules, difficulty: str, seed: int, work: int):
    setup = draw_setup(inst, difficulty, seed, rules=rules)
    answer = analyse(inst, difficulty, setup, rules, time_limit=3600, budget=work, polish_width=0,
                     params=SolveParams(plan_time=0), relax=False)
    return setup, answer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--squeeze", default="easy:3,easy:6")
    ap.add_argument("--times", default="10,20")
    ap.add_argument("--links", default="all", help="candidate sets to try: all, focused, or both (all,focused)")
    ap.add_argument("--beam", default="normal:3,normal:4")
    ap.add_argument("--work", type=int, default=5000)
    ap.add_argument("--big-work", type=int, default=20000)
    ap.add_argument("--out", default=str(ROOT / "results" / "squeeze-probe.csv"))
    args = ap.parse_args()
    inst = load_instance(default_instance("easter-island"))
    rules = make_rules("easter-island", [])
    rows = []
    print(",".join(FIELDS), flush=True)
    for difficulty, seed in _setups(args.squeeze):
        setup, beam = _beam(inst, rules, difficulty, seed, args.work)
        if beam.plan is None or beam.upper_bound <= beam.lower_bound:
            continue
        state = GameState.new(inst, setup, rules)
        for t, links in ((float(x), y) for x in args.times.split(",") for y in args.links.split(",")):
            t0 = time.time()
            spec = plan_spec(state, hint=beam.plan.rounds, focus=links == "focused")
            rounds, status = restricted_plan(spec, beam.upper_bound - 1,
                                             SolveParams(deterministic_time=t, plan_time=t), hint=beam.plan.rounds)
            cleared = None
            if rounds:
                check = replay(inst, Plan(inst.board.name, difficulty, rules, setup, rounds,
                                          round_limit=inst.scenario.rounds))
                cleared = check.state.cleared_round if check.error is None else None
            rows.append({"kind": "squeeze", "difficulty": difficulty, "seed": seed, "lower_bound": beam.lower_bound,
                         "beam_rounds": beam.upper_bound, "round_plans_tried": beam.search.round_plans_tried,
                         "plan_model_time": t, "links": links, "candidate_links": len(spec.links),
                         "status": status, "cleared_round": cleared,
                         "seconds": round(time.time() - t0, 1)})
            print(",".join(str(rows[-1][f]) for f in FIELDS), flush=True)
    for difficulty, seed in _setups(args.beam):
        t0 = time.time()
        _, beam = _beam(inst, rules, difficulty, seed, args.big_work)
        rows.append({"kind": "beam", "difficulty": difficulty, "seed": seed, "lower_bound": beam.lower_bound,
                     "beam_rounds": beam.upper_bound, "round_plans_tried": beam.search.round_plans_tried,
                     "plan_model_time": "", "links": "", "candidate_links": "", "status": "meets the bound" if beam.upper_bound == beam.lower_bound
                     else "above the bound", "cleared_round": beam.upper_bound, "seconds": round(time.time() - t0, 1)})
        print(",".join(str(rows[-1][f]) for f in FIELDS), flush=True)
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
