"""The record of the best plans (results/best-plans, solver/batch/records.py): offer a plan file, check them all.

    python benchmarks/best_plans.py offer PLAN --map easter-island --seed N [--variant setup|dangers]
                                         [--bag no-purple] [--records results/best-plans] [--no-update]
    python benchmarks/best_plans.py check [--records results/best-plans]

`offer`: the plan (a file `aos-solve easter-island/zoo --plan-out` writes, or one found by hand) is filed
under the benchmark setup named by --map, its own difficulty and readings, --seed, --variant (Zoo) and
--bag (Easter Island; default no-purple, the benchmark's bag); its cubes must be the ones that seed
draws. It is replayed by the referee and compared with the record of that setup: a plan that clears and
is better (fewer rounds, then fewer shares, then more cash) or the first one becomes the record, unless
--no-update. Prints what it found; exit 0, or 2 for bad input.

`check`: every recorded plan replayed; a line per plan, exit 1 if one no longer clears or disagrees with
its index row (what tests/test_best_plans.py checks).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.batch import records  # noqa: E402
from solver.board.errors import InputError  # noqa: E402
from solver.engine.plan import load_plan  # noqa: E402
from solver.engine.readings import label  # noqa: E402

DEFAULT = ROOT / "results" / "best-plans"


def offer(args) -> int:
    if args.map not in records.MAPS:
        raise InputError(f"unknown map {args.map!r} (expected {', '.join(records.MAPS)})", "--map")
    try:
        difficulty = json.loads(pathlib.Path(args.plan).read_text(encoding="utf-8")).get("difficulty")
    except (OSError, ValueError, AttributeError) as err:
        raise InputError(f"cannot read the plan ({err})", args.plan) from None
    bag = "" if args.map == "zoo" else (args.bag or "no-purple")
    variant = (args.variant or "setup") if args.map == "zoo" else ""
    probe = records.SetupKey(args.map, str(difficulty), args.seed, "default", bag, variant)
    inst = records.instance_for(probe)
    plan = load_plan(args.plan, inst)
    key = records.SetupKey(args.map, plan.difficulty, args.seed, label(plan.rules, inst.scenario.ruleset), bag,
                           variant)
    out = records.offer(args.records, key, plan, inst, update=not args.no_update)
    answer = out.answer.text() if out.answer else "does not clear"
    record = out.record.text() if out.record else "none"
    print(f"{key.text()}: the plan {answer}; the record before {record}; {out.column()}"
          + (f" ({out.file})" if out.file else ""))
    if out.status in (records.REGRESSION, records.BROKEN):
        print(records.regression_line(key, out))
    return 0


def check(args) -> int:
    folder = pathlib.Path(args.records)
    rows = records.read_index(folder)
    bad = 0
    for row in rows:
        key = records.key_of(row)
        inst = records.instance_for(key)
        plan = load_plan(str(folder / row["file"]), inst)
        records.check_plan_is_for(key, inst, plan, row["file"])
        got = records.score(inst, plan)
        ok = got == records.row_score(row)
        bad += not ok
        print(f"{'ok ' if ok else 'BAD'} {row['file']}: the referee: {got.text() if got else 'does not clear'}; "
              f"the index: {records.row_score(row).text()}")
    print(f"{len(rows)} recorded plans, {bad} that disagree with the index or no longer clear")
    return 1 if bad else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    o = sub.add_parser("offer", help="offer a plan file to the record of its setup")
    o.add_argument("plan")
    o.add_argument("--map", required=True, help="easter-island or zoo")
    o.add_argument("--seed", type=int, required=True, help="the seed that drew the setup's cubes")
    o.add_argument("--variant", default=None, help="Zoo: setup (default) or dangers (shuffled by the seed)")
    o.add_argument("--bag", default=None, help="Easter Island: the bag's name in the benchmark (default no-purple)")
    o.add_argument("--no-update", action="store_true", help="compare only, never write the record")
    c = sub.add_parser("check", help="replay every recorded plan against its index row")
    for p in (o, c):
        p.add_argument("--records", default=str(DEFAULT), help="the folder (default results/best-plans)")
    args = ap.parse_args()
    try:
        code = offer(args) if args.command == "offer" else check(args)
    except InputError as err:
        print(f"{pathlib.Path(__file__).name}: error: {err}", file=sys.stderr)
        sys.exit(2)
    sys.exit(code)


if __name__ == "__main__":
    main()
