"""Probe: settings of the Easter Island plan optimizer side by side on the same setups.

    python benchmarks/optimizer_probe.py [--configs two-beams,mixed,mixed-frugal] [--seeds 5] [--first-seed 1]
                                         [--out results/optimizer-probe.csv]

Each configuration is a list of beams (width, share weights) run in turn at the counting bound of the
setup (cubes / 2 shipments a round); the best plan of the list (fewest shares, then most cash) is kept.
Columns per configuration: shares, cash, CPU seconds (process time, so the load of a shared machine
matters less), and whether the referee replayed the plan to a clear in that round. The first
configuration is the baseline the others are compared with (summary: shares and time ratios).
"""
from __future__ import annotations

import argparse
import csv
import io
import math
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from models.network import cheapest_network  # noqa: E402
from solver.board.errors import InputError  # noqa: E402
from solver.engine.plan import Plan, replay  # noqa: E402
from solver.engine.setup import draw_setup  # noqa: E402
from solver.engine.state import GameState, Rules  # noqa: E402
from solver.games import load_instance  # noqa: E402
from solver.report.output import write_atomic  # noqa: E402
from solver.solo.economy_search import Catalogue, EconomySearch  # noqa: E402

CONFIGS = {
    "two-beams": [(60, (6.0,)), (60, (30.0,))],       # a beam per share weight, in turn
    "mixed": [(60, (6.0, 30.0))],                      # one beam ranked both ways side by side
    "mixed-frugal": [(60, (6.0, 30.0)), (60, (30.0, 100.0))],
    "mixed-40": [(40, (6.0, 30.0))],
    "mixed-wide-frugal": [(60, (6.0, 30.0)), (120, (30.0,))],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", default="two-beams,mixed,mixed-frugal")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--difficulties", default="easy,normal,hard")
    ap.add_argument("--out", default=str(ROOT / "results" / "optimizer-probe.csv"))
    args = ap.parse_args()
    names = args.configs.split(",")
    unknown = [n for n in names if n not in CONFIGS]
    if unknown:
        print(f"optimizer_probe.py: error: unknown config(s) {unknown} (known: {', '.join(CONFIGS)}) (--configs)",
              file=sys.stderr)
        sys.exit(2)
    out = pathlib.Path(args.out)
    if not out.parent.is_dir():
        print(f"optimizer_probe.py: error: no folder {out.parent} (--out)", file=sys.stderr)
        sys.exit(2)
    inst = load_instance(ROOT / "instances" / "easter-island.toml")
    net = cheapest_network(inst, sorted(inst.board.cities), time_limit=5)
    fields = ["difficulty", "seed", "rounds"] + [f"{n}_{c}" for n in names for c in ("shares", "cash", "cpu", "replayed")]
    rows = []
    print(",".join(fields), flush=True)
    for d in args.difficulties.split(","):
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            setup = draw_setup(inst, d, seed)
            state = GameState.new(inst, setup, Rules())
            rounds = math.ceil(sum(len(c) for c in setup.values()) / state.scenario.shipments_per_round)
            cat = Catalogue(state, net.links)
            row = {"difficulty": d, "seed": seed, "rounds": rounds}
            for name in names:
                c0, best = time.process_time(), None
                for width, weights in CONFIGS[name]:
                    r = EconomySearch(state, cat, width=width, share_weights=weights).run(rounds)
                    if r and (best is None or (r.shares, -r.cash) < (best.shares, -best.cash)):
                        best = r
                cpu = round(time.process_time() - c0, 2)
                ok = ""
                if best is not None:
                    check = replay(inst, Plan(inst.board.name, d, Rules(), setup, best.rounds))
                    ok = check.error is None and check.state.cleared_round == best.cleared_round
                row.update({f"{name}_shares": best.shares if best else "", f"{name}_cash": best.cash if best else "",
                            f"{name}_cpu": cpu, f"{name}_replayed": ok})
            rows.append(row)
            print(",".join(str(row[f]) for f in fields), flush=True)
            text = io.StringIO()
            w = csv.DictWriter(text, fieldnames=fields)
            w.writeheader()
            w.writerows(rows)
            write_atomic(out, text.getvalue())
    base = names[0]
    for name in names:
        shares = [r[f"{name}_shares"] for r in rows if r[f"{name}_shares"] != ""]
        cpu = sum(r[f"{name}_cpu"] for r in rows) / max(1e-9, sum(r[f"{base}_cpu"] for r in rows))
        print(f"{name}: plans at the bound {len(shares)}/{len(rows)}, median shares "
              f"{statistics.median(shares) if shares else '-'}, CPU ratio to {base} {cpu:.2f}")


if __name__ == "__main__":
    try:
        main()
    except InputError as err:
        print(f"optimizer_probe.py: error: {err}", file=sys.stderr)
        sys.exit(2)
