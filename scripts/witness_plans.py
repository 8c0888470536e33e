"""Record, or check, the end state the referee gives every witness plan kept in the repo (issue 43, item 7).

    python scripts/witness_plans.py           # (re)write tests/plans/expected.csv
    python scripts/witness_plans.py --check   # replay every plan, compare with the file; exit 1 on a difference

A witness plan is a plan file kept beside the tests or the results: tests/plans/*.json (hand-written),
tests/plans/illegal/*/*.json (each fails at one step), tests/plans/witness/*.json (recorded from the
solvers on tiny boards), results/plans/*.json (the plans of the report pages) and the plan example of
docs/instance-format.md. The record of the best plans (results/best-plans) has its own index and test.
Each plan is replayed by the referee only (solver.engine.plan.replay), on the board named after its map,
and gives one row per round played plus an "end" row, so that any change of the rules engine that
changes a recorded game shows as a changed row (tests/test_witness_plans.py replays them the same way).
"""
from __future__ import annotations

import argparse
import csv
import functools
import io
import json
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXPECTED = ROOT / "tests" / "plans" / "expected.csv"
DOC = "docs/instance-format.md"
FIELDS = ["plan", "board", "row", "outcome", "cash", "income", "shares", "locomotive", "spent_on_track",
          "cleared_round", "lost", "delivered", "goods", "fed", "accounts", "after_clear", "links", "new_cities"]


def plan_files() -> list[str]:
    """Every witness plan, as a path from the repo root (the docs example as 'docs/instance-format.md')."""
    plans = ROOT / "tests" / "plans"
    found = [*plans.glob("*.json"), *plans.glob("illegal/*/*.json"), *plans.glob("witness/*.json"),
             *(ROOT / "results" / "plans").glob("*.json")]
    return sorted(str(p.relative_to(ROOT)) for p in found) + [DOC]


def _plan_text(name: str) -> str:
    text = (ROOT / name).read_text(encoding="utf-8")
    if name == DOC:  # the first json block of the format doc is its plan example
        return text.split("```json\n", 1)[1].split("```", 1)[0]
    return text


def board_for(data: dict) -> str:
    """The board file of the plan's map: the one board under instances/ or instances/tiny/ of that name."""
    named = [path for path, name in _boards() if name == data.get("map")]
    if len(named) != 1:
        raise SystemExit(f"{len(named)} board files for map {data.get('map')!r} under instances/ and instances/tiny/")
    return named[0]


@functools.lru_cache(maxsize=None)
def _boards() -> tuple[tuple[str, str], ...]:
    """(board file, map name) of every board under instances/ and instances/tiny/."""
    from solver.games import load_instance

    paths = [p for folder in ("instances", "instances/tiny") for p in sorted((ROOT / folder).glob("*.toml"))]
    return tuple((str(p.relative_to(ROOT)), load_instance(p).board.name) for p in paths)


def _cubes(goods: dict) -> str:
    return " ".join(f"{h}:{'+'.join(c)}" for h, c in sorted(goods.items()))


def _row(name: str, board: str, label: str, summary: dict, start: int, outcome: str = "") -> dict:
    left = sum(len(c) for c in summary["goods"].values())
    return {"plan": name, "board": board, "row": label, "outcome": outcome,
            **{k: summary[k] for k in ("cash", "income", "shares", "locomotive", "spent_on_track")},
            "cleared_round": summary["cleared_round"] or "", "lost": summary["lost"] or "",
            "delivered": start - left, "goods": _cubes(summary["goods"]), "fed": " ".join(summary["fed"]),
            "accounts": " ".join(f"{k}={v}" for k, v in sorted(summary.get("last_round", {}).items())),
            "after_clear": " / ".join(summary.get("after_clear", ())), "links": "", "new_cities": ""}


def witness_rows(name: str) -> list[dict]:
    """The referee's replay of one plan: a row after each round played and one for where it ended."""
    from solver.engine.plan import load_plan, replay, reported_round
    from solver.games import load_instance

    text = _plan_text(name)
    board = board_for(json.loads(text))
    inst = load_instance(ROOT / board)
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "plan.json"
        path.write_text(text, encoding="utf-8")
        plan = load_plan(str(path), inst)
    start = sum(len(c) for c in plan.setup.values())
    result = replay(inst, plan)
    rows = [_row(name, board, f"round {s['round']}", s, start) for s in result.round_states]
    state = result.state
    at, how = reported_round(result)
    if result.error:
        outcome = f"ILLEGAL: {result.error}"
    elif state.cleared_round:
        outcome = f"cleared in round {state.cleared_round}"
    else:
        outcome = f"not cleared, {how} round {at}" + (f" ({state.lost})" if state.lost else "")
    if result.lock:
        outcome += f"; {result.lock_text()}"
    end = _row(name, board, "end", state.summary(), start, outcome)
    end["links"] = " ".join(sorted(f"{link.ends[0]}-{link.ends[1]}" + ("" if link.complete else "(open)")
                                   for link in state.links()))
    end["new_cities"] = " ".join(f"{h}:{c}" for h, c in sorted(state.new_cities.items()))
    return rows + [end]


def _text(rows: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: str(v) for k, v in r.items()} for r in rows)
    return out.getvalue()


def read_expected(path: pathlib.Path | None = None) -> list[dict]:
    with (path or EXPECTED).open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def as_text(rows: list[dict]) -> list[dict]:
    """Rows as the CSV holds them (every value a text), to compare a replay with the file exactly."""
    return [{k: str(v) for k, v in r.items()} for r in rows]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with tests/plans/expected.csv, write nothing")
    args = parser.parse_args(argv)
    rows = [r for name in plan_files() for r in witness_rows(name)]
    if not args.check:
        EXPECTED.write_text(_text(rows), encoding="utf-8")
        print(f"wrote {EXPECTED.relative_to(ROOT)}: {len(plan_files())} plans, {len(rows)} rows")
        return 0
    want = read_expected()
    got = as_text(rows)
    bad = [f"{w['plan']} {w['row']}: expected {w}, the referee gives {g}" for w, g in zip(want, got) if w != g]
    if len(want) != len(got):
        bad.append(f"{len(want)} rows recorded, {len(got)} replayed (a plan added or removed: rewrite the file)")
    for line in bad:
        print(line)
    print(f"{len(plan_files())} plans, {len(got)} rows: " + (f"{len(bad)} differences" if bad else "as recorded"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
