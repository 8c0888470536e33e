"""The soundness fuzzer's long profile: thousands of random tiny boards, every solver claim checked.

    python benchmarks/soundness.py [--boards 5000] [--first-seed 1] [--jobs 2] [--out results/soundness.csv]
                                   [--tight] [--reading NAME=VALUE ...]

The boards come from solver.solo.soundness.random_board (issue 39's generator: random prices with $0
terrain, town fees and complex extras, prices above the base, actions out of reach, rows of up to 6 hexes
and two-row boards with towns, up to 5 rounds, every reading); each is judged in the default and the deep
mode, and every registered proof engine alone. The summary counts the claims checked per engine.

Each row: a board (its seed, map, readings, round limit), whether the exhaustive search settled it,
the truth, the claims checked and any false claim. Rows are appended as boards finish (a killed run
keeps them; run again with the same --out to resume); the summary goes to results/soundness.md.
Deterministic: the boards come from their seeds, the solvers run in their reproducible mode.
`--tight`: tight-money boards (`random_board(seed, tight=True)`), where the fewest shares at the earliest
clear is above the start shares on many boards (the cost half's claims, issue 45); column `shares` is that
exhaustive truth.
"""
from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.engine.readings import BY_NAME  # noqa: E402
from solver.report.output import write_atomic  # noqa: E402
from solver.solo.soundness import check_board, random_board  # noqa: E402

FIELDS = ["seed", "map", "readings", "rounds", "settled", "truth", "shares", "claims", "false", "seconds"]


def one(seed: int, readings: tuple[str, ...] = (), tight: bool = False) -> dict:
    t0 = time.monotonic()
    board = random_board(seed, tight=tight)
    for item in readings:  # --reading: set on every board whose map has it (replacing its random value)
        reading = BY_NAME[item.partition("=")[0]]
        if reading.applies_to(board.ruleset):
            board.readings = [r for r in board.readings if r.partition("=")[0] != reading.name] + [item]
    out = check_board(board)
    return {"seed": seed, "map": board.ruleset, "readings": "+".join(board.readings) or "default",
            "rounds": board.rounds, "settled": out.settled, "truth": "" if out.truth is None else out.truth,
            "shares": "" if out.shares is None else out.shares,
            "claims": json.dumps(out.claims, sort_keys=True), "false": json.dumps(out.false + (
                [["board refused", out.error]] if out.error else [])),
            "seconds": round(time.monotonic() - t0, 3)}


def owner(kind: str) -> str:
    """Who made a claim: a proof engine ("ENGINE: no clear", "ENGINE: bound") or an answer (default or deep)."""
    if kind.startswith("deep: "):
        return "answer, deep mode (--prove)"
    if ": " in kind:
        return "engine: " + kind.split(": ")[0]
    return "answer, default mode"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=5000)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=None, help="default results/soundness.csv (--tight: results/soundness-tight.csv)")
    ap.add_argument("--tight", action="store_true", help="tight-money boards: shares needed above the start's")
    ap.add_argument("--reading", action="append", default=[], metavar="NAME=VALUE",
                    help="set this reading on every board whose map has it (repeatable)")
    args = ap.parse_args()
    args.out = args.out or ("results/soundness-tight.csv" if args.tight else "results/soundness.csv")
    for item in args.reading:
        name, eq, value = item.partition("=")
        if not eq or name not in BY_NAME or BY_NAME[name].by_name(value) is None:
            print(f"--reading {item!r}: expected NAME=VALUE of a named reading (solver/engine/readings.py)",
                  file=sys.stderr)
            return 2
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done, fields = set(), FIELDS
    if out.exists():
        with out.open() as f:
            reader = csv.DictReader(f)
            done = {int(r["seed"]) for r in reader}
            fields = reader.fieldnames or FIELDS  # a file from before a column was added keeps its columns
    seeds = [s for s in range(args.first_seed, args.first_seed + args.boards) if s not in done]
    new = not out.exists()
    with out.open("a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        if new:
            w.writeheader()
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for i, row in enumerate(pool.map(partial(one, readings=tuple(args.reading), tight=args.tight), seeds,
                                             chunksize=4), 1):
                w.writerow(row)
                f.flush()
                if i % 100 == 0:
                    print(f"{i}/{len(seeds)} boards", file=sys.stderr)
    with out.open() as f:
        rows = [r for r in csv.DictReader(f)
                if args.first_seed <= int(r["seed"]) < args.first_seed + args.boards]
    claims: dict = {}
    false = []
    for r in rows:
        for k, v in json.loads(r["claims"]).items():
            claims[k] = claims.get(k, 0) + v
        false += [(r["seed"], r["map"], x) for x in json.loads(r["false"])]
    settled = sum(r["settled"] == "True" for r in rows)
    lines = ["# Soundness fuzzer (benchmarks/soundness.py)", "",
             f"Command: `python benchmarks/soundness.py --boards {args.boards} --first-seed {args.first_seed} "
             f"--jobs {args.jobs}" + (" --tight" if args.tight else "")
             + "".join(f" --reading {r}" for r in args.reading) + "`", "",
             f"- boards: {len(rows)} (Easter Island {sum(r['map'] == 'easter-island' for r in rows)}, "
             f"Zoo {sum(r['map'] == 'zoo' for r in rows)})",
             f"- settled by the exhaustive search: {settled}",
             f"- clearable (truth known): {sum(r['truth'] != '' and r['settled'] == 'True' for r in rows)}",
             f"- fewest shares settled at the earliest clear: {sum(r.get('shares', '') != '' for r in rows)}, above "
             f"the start's 2: {sum(r.get('shares', '') not in ('', '0', '1', '2') for r in rows)}",
             f"- claims checked: {sum(claims.values())}",
             f"- false claims: {len(false)}"] + [f"  - board {s} ({m}): {x}" for s, m, x in false]
    drawn: dict = {}
    for r in rows:
        for item in r["readings"].split("+"):
            if item != "default":
                drawn[item] = drawn.get(item, 0) + 1
    lines += ["", "Boards per reading value drawn (the rest at the default): " +
              ", ".join(f"{k} {v}" for k, v in sorted(drawn.items()))]
    wrong: dict = {}
    for _, _, x in false:
        wrong[x[0]] = wrong.get(x[0], 0) + 1
    per: dict = {}
    for k, v in claims.items():
        row = per.setdefault(owner(k), [0, 0])
        row[0] += v
        row[1] += wrong.get(k, 0)
    lines += ["", "Claims checked per engine (each proof engine asked alone about every round, in the default and "
              "the deep mode, plus its verdicts inside the answers) and per answer:", "",
              "| engine or answer | claims checked | false |", "| --- | ---: | ---: |"]
    lines += [f"| {who} | {n} | {bad} |" for who, (n, bad) in sorted(per.items())]
    lines += ["", "Every claim kind:", "", "| claim | checked | false |", "| --- | ---: | ---: |"]
    lines += [f"| {k} | {v} | {wrong.get(k, 0)} |" for k, v in sorted(claims.items())]
    write_atomic(out.with_suffix(".md"), "\n".join(lines) + "\n")
    print("\n".join(lines))
    return 1 if false else 0


if __name__ == "__main__":
    sys.exit(main())
