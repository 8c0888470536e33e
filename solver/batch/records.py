"""The record of the best plans: one plan per benchmark setup, so no answer gets worse unnoticed (issue 44).

A record folder (results/best-plans/) holds one plan file per setup, in the referee's plan format
(solver/engine/plan.py, `Plan.to_json`), named after the setup (`easter-island-easy-seed-23.json`,
`zoo-seed-1.json`, `zoo-dangers-seed-1.json`; a reading set other than the default or another bag adds
its name), and one index, `index.csv`: a row per plan with its setup (map, variant, difficulty, seed,
readings, bag) and what the referee found when the plan was recorded (rounds: the clear round, shares
at the end, cash at the end).

Plans are judged only by replaying them (`solver.engine.plan.replay`), never by a solver's own numbers:
`score` replays a plan and gives (rounds, shares, cash) if it clears, None if it does not. A plan is
better than another with fewer rounds, then fewer shares, then more cash (`compare`). `offer` judges an
answer's plan against the record of its setup and, when asked to, records it, only if it clears and
beats the record (or there is none, or the recorded plan no longer clears). A plan for another setup
than the one named (other cubes, readings, map or difficulty) is refused with an InputError.

Writes are atomic (solver/report/output.py): the plan file first, then the index, under a lock file
(`index.lock`, fcntl) so two benchmarks offering plans at once do not lose each other's rows.
"""
from __future__ import annotations

import contextlib
import csv
import dataclasses
import fcntl
import io
import json
import math
import pathlib
import re
from dataclasses import dataclass

from solver.board.errors import InputError
from solver.board.instance import Instance
from solver.engine.plan import Plan, load_plan, replay
from solver.engine.readings import label
from solver.engine.setup import bag_for, draw_setup, parse_bag
from solver.games import default_instance, load_instance
from solver.report.output import write_atomic

INDEX = "index.csv"
LOCK = "index.lock"
INDEX_FIELDS = ["file", "map", "variant", "difficulty", "seed", "readings", "bag", "rounds", "shares", "cash"]
MAPS = ("easter-island", "zoo")
ZOO_VARIANTS = ("setup", "dangers")

# what `offer` says of a plan against the record of its setup
NEW = "new"                  # no record yet
BETTER = "better"            # fewer rounds, then fewer shares, then more cash than the record
SAME = "same"                # the same rounds, shares and cash
REGRESSION = "regression"    # the record is better, or the answer has no clearing plan and the record has one
NONE = "no plan"             # neither the answer nor the record has a plan that clears
BROKEN = "record broken"     # the recorded plan no longer clears under today's referee


@dataclass(frozen=True)
class SetupKey:
    """One benchmark setup: the map, the board variant (Zoo: `setup` or `dangers`, shuffled by the seed),
    the difficulty, the seed that drew the cubes, the reading set (`readings.label`) and the bag the
    cubes were drawn from (a reading's value name such as `no-purple`, or COLOUR=N,...; '' the readings')."""
    map: str
    difficulty: str
    seed: int
    readings: str = "default"
    bag: str = ""
    variant: str = ""

    def file_name(self) -> str:
        parts = [self.map]
        if self.map == "zoo" and self.variant not in ("", "setup"):
            parts.append(self.variant)
        if self.map != "zoo" or self.difficulty != "standard":
            parts.append(self.difficulty)
        parts.append(f"seed-{self.seed}")
        if self.readings != "default":
            parts.append(_slug(self.readings))
        if self.bag not in ("", "no-purple") or (self.map == "zoo" and self.bag):
            parts.append("bag-" + _slug(self.bag))
        return "-".join(parts) + ".json"

    def text(self) -> str:
        words = [self.map] + ([self.variant] if self.variant not in ("", "setup") else [])
        words += [] if self.difficulty == "standard" else [self.difficulty]
        words.append(f"seed {self.seed}")
        if self.readings != "default":
            words.append(f"readings {self.readings}")
        if self.bag not in ("", "no-purple"):
            words.append(f"bag {self.bag}")
        return " ".join(words)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@dataclass(frozen=True)
class Score:
    """What the referee found at the end of a plan that clears."""
    rounds: int   # the round it clears in
    shares: int   # shares issued by the end (the start's included)
    cash: int     # cash at the end

    def order(self) -> tuple:
        return (self.rounds, self.shares, -self.cash)

    def text(self) -> str:
        return f"{self.rounds} rounds, {self.shares} shares, ${self.cash}"


@dataclass
class Outcome:
    status: str                 # NEW, BETTER, SAME, REGRESSION, NONE or BROKEN
    answer: Score | None        # the answer's plan replayed (None: no plan, or it does not clear)
    record: Score | None        # the record before the offer, replayed (None: no record, or broken)
    updated: bool = False       # the answer's plan is now the record
    file: pathlib.Path | None = None

    def column(self) -> str:
        """The benchmark's `record` column: regression, better (record updated), same, new, ..."""
        if self.status in (BETTER, NEW, BROKEN) and self.answer is not None:
            return f"{self.status} ({'record updated' if self.updated else 'not recorded: --no-update'})"
        return self.status

    def kept(self) -> Score | None:
        """The record as it stands after the offer."""
        return self.answer if self.updated else self.record


# -- setups -------------------------------------------------------------------------

def instance_for(key: SetupKey) -> Instance:
    """The board the setup is played on (the Zoo's `dangers` variant: dangers shuffled by the seed)."""
    if key.map not in MAPS:
        raise InputError(f"unknown map {key.map!r} (records are kept for {', '.join(MAPS)})", "map")
    inst = load_instance(default_instance(key.map))
    if key.map == "zoo" and key.variant not in ("", "setup"):
        if key.variant not in ZOO_VARIANTS:
            raise InputError(f"unknown Zoo variant {key.variant!r} (expected {', '.join(ZOO_VARIANTS)})", "variant")
        from solver.solo.zoo import shuffled_dangers
        inst = shuffled_dangers(inst, key.seed)
    return inst


def expected_setup(key: SetupKey, inst: Instance, plan: Plan):
    """The cubes the setup's seed draws from its bag (under the plan's readings when the bag is a reading's)."""
    if "=" in key.bag:
        bag = parse_bag(key.bag)
    else:
        rules = dataclasses.replace(plan.rules, bag=key.bag) if key.bag else plan.rules
        bag = bag_for(inst, rules)
    return draw_setup(inst, key.difficulty, key.seed, bag)


def check_plan_is_for(key: SetupKey, inst: Instance, plan: Plan, where: str) -> None:
    """A plan filed under a setup must be for that setup: map, difficulty, readings and the seed's cubes."""
    if plan.map != inst.board.name or plan.difficulty != key.difficulty:
        raise InputError(f"the plan is for {plan.map} {plan.difficulty}, not {key.text()}", where)
    readings = label(plan.rules, inst.scenario.ruleset)
    if readings != key.readings:
        raise InputError(f"the plan is made under the readings {readings}, the setup names {key.readings}", where)
    if plan.setup != expected_setup(key, inst, plan):
        raise InputError(f"the plan's cubes are not those seed {key.seed} draws for {key.text()}", where)


def score(inst: Instance, plan: Plan) -> Score | None:
    """The plan replayed by the referee: its clear round, shares and cash, or None if it does not clear."""
    result = replay(inst, plan)
    state = result.state
    if result.error is not None or state.cleared_round is None:
        return None
    return Score(state.cleared_round, state.shares, state.cash)


def compare(answer: Score | None, record: Score | None) -> str:
    """NEW, BETTER, SAME, REGRESSION or NONE: fewer rounds, then fewer shares, then more cash is better."""
    if record is None:
        return NEW if answer is not None else NONE
    if answer is None or answer.order() > record.order():
        return REGRESSION
    return SAME if answer.order() == record.order() else BETTER


# -- the folder ---------------------------------------------------------------------

@dataclass
class Record:
    key: SetupKey
    file: pathlib.Path
    row: dict            # the index row: what the referee found when it was recorded
    plan: Plan


def read_index(folder: str | pathlib.Path) -> list[dict]:
    """The index rows (an empty list when the folder or index does not exist); bad rows are InputErrors."""
    path = pathlib.Path(folder) / INDEX
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except OSError as err:
        raise InputError(f"cannot read the index of the best plans ({err.strerror})", str(path)) from None
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames != INDEX_FIELDS:
        raise InputError(f"the index's columns are {reader.fieldnames}, expected {', '.join(INDEX_FIELDS)}", str(path))
    rows = []
    for line, row in enumerate(reader, start=2):
        for name in ("seed", "rounds", "shares", "cash"):
            if not re.fullmatch(r"-?[0-9]+", row[name] or ""):
                raise InputError(f"{name} must be a whole number, got {row[name]!r}", f"{path}, line {line}")
            row[name] = int(row[name])
        rows.append(row)
    return rows


def key_of(row: dict) -> SetupKey:
    return SetupKey(row["map"], row["difficulty"], int(row["seed"]), row["readings"], row["bag"], row["variant"])


def row_score(row: dict) -> Score:
    return Score(int(row["rounds"]), int(row["shares"]), int(row["cash"]))


def load_record(folder: str | pathlib.Path, key: SetupKey, inst: Instance | None = None) -> Record | None:
    """The record of a setup (its index row and plan), or None if the folder has none."""
    folder = pathlib.Path(folder)
    for row in read_index(folder):
        if key_of(row) == key:
            inst = inst or instance_for(key)
            path = folder / row["file"]
            return Record(key, path, row, load_plan(str(path), inst))
    return None


@contextlib.contextmanager
def _locked(folder: pathlib.Path):
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fh = open(folder / LOCK, "a", encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot write into the folder of the best plans ({err.strerror})", str(folder)) from None
    with fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _write(folder: pathlib.Path, key: SetupKey, inst: Instance, plan: Plan, got: Score) -> pathlib.Path:
    """The plan file, then the index with its row replaced (each write atomic)."""
    path = folder / key.file_name()
    write_atomic(path, json.dumps(plan.to_json(inst), indent=2) + "\n")
    rows = [r for r in read_index(folder) if key_of(r) != key]
    rows.append({"file": path.name, "map": key.map, "variant": key.variant, "difficulty": key.difficulty,
                 "seed": key.seed, "readings": key.readings, "bag": key.bag, "rounds": got.rounds,
                 "shares": got.shares, "cash": got.cash})
    rows.sort(key=lambda r: (r["map"], r["variant"], r["difficulty"], r["readings"], r["bag"], int(r["seed"])))
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=INDEX_FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    write_atomic(folder / INDEX, text.getvalue())
    return path


def offer(folder: str | pathlib.Path, key: SetupKey, plan: Plan | None, inst: Instance | None = None,
          update: bool = True) -> Outcome:
    """Judge `plan` (an answer's, None for no plan) against the record of `key`; record it if it is better.

    Both plans are replayed by the referee. With `update`, a plan that clears is written when there is
    no record, when it is better, or when the recorded plan no longer clears; never otherwise.
    """
    folder = pathlib.Path(folder)
    inst = inst or instance_for(key)
    if plan is not None:
        check_plan_is_for(key, inst, plan, f"the plan offered for {key.text()}")
    with _locked(folder) if update else contextlib.nullcontext():
        record = load_record(folder, key, inst)
        answer = score(inst, plan) if plan is not None else None
        before = score(inst, record.plan) if record is not None else None
        status = BROKEN if record is not None and before is None else compare(answer, before)
        out = Outcome(status, answer, before, file=record.file if record else None)
        if update and answer is not None and status in (NEW, BETTER, BROKEN):
            out.file = _write(folder, key, inst, plan, answer)
            out.updated = True
    return out


def check_folder(folder: str | pathlib.Path, update: bool) -> None:
    """Before any long work: the record folder can be read, and written when records are to be updated."""
    from solver.report.output import check_output_folder
    folder = pathlib.Path(folder)
    if update:
        check_output_folder(folder, f"--records {folder}", files=[INDEX, LOCK])
    elif folder.exists() and not folder.is_dir():
        raise InputError("is a file, not a folder", f"--records {folder}")
    read_index(folder)


# -- the benchmarks' summary --------------------------------------------------------

def percentile(values: list, fraction: float):
    """The nearest-rank percentile: the smallest value at or below which `fraction` of the values lie."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(1, math.ceil(fraction * len(ordered) - 1e-9)) - 1]


def goal_figures(rows: list[dict]) -> str:
    """Issue 44's goal figures of a benchmark run: setups settled (`proof` known: minimum proved or not
    clearable proved) of all, the shares at the end of the plan (median, 95th percentile), seconds."""
    import statistics
    settled = sum(1 for r in rows if r["proof"] != "unknown")
    shares = [int(r["shares"]) for r in rows if r.get("shares") not in ("", None)]
    secs = [float(r["seconds"]) for r in rows]
    share_text = (f"shares at the end of the plan: median {statistics.median(shares):g}, 95th percentile "
                  f"{percentile(shares, 0.95)} (over the {len(shares)} setups with a plan)" if shares
                  else "no plan, no shares")
    time_text = f"seconds: median {statistics.median(secs):.2f}, max {max(secs):.2f}" if secs else "no setups"
    cpu = [float(r["cpu_seconds"]) for r in rows if r.get("cpu_seconds") not in ("", None)]
    if cpu:
        time_text += f" (CPU seconds: median {statistics.median(cpu):.2f}, max {max(cpu):.2f})"
    return f"goal figures (issue 44): {settled} of {len(rows)} setups settled; {share_text}; {time_text}"


def record_summary(outcomes: list[tuple[SetupKey, Outcome]]) -> list[str]:
    """The summary lines: counts of each verdict against the record, then every regression by name."""
    counts = {}
    for _, o in outcomes:
        counts[o.status] = counts.get(o.status, 0) + 1
    updated = sum(1 for _, o in outcomes if o.updated)
    lines = [f"record of the best plans: {counts.get(REGRESSION, 0)} regressions, {counts.get(BETTER, 0)} improvements "
             f"({updated} plans recorded, new ones included), {counts.get(SAME, 0)} same, {counts.get(NEW, 0)} new, "
             f"{counts.get(NONE, 0)} without a plan on either side, {counts.get(BROKEN, 0)} records that no longer clear"]
    lines += [regression_line(k, o) for k, o in outcomes if o.status in (REGRESSION, BROKEN)]
    return lines


def regression_line(key: SetupKey, o: Outcome) -> str:
    if o.status == BROKEN:
        return f"!!! RECORD BROKEN: {key.text()}: the recorded plan {o.file} no longer clears under today's referee"
    answer = o.answer.text() if o.answer else "no plan that clears"
    return f"!!! REGRESSION: {key.text()}: the answer {answer}; the record {o.record.text()} ({o.file})"
