"""Batch runs: many seeds, resumable, on local processes or a Dask cluster.

Results go to RUN/results.jsonl, one JSON line per finished solve, flushed and
synced as each finishes. A killed run loses at most the solves in flight: run
the same command again and it skips what is done (a torn last line is cut
off first), so no seed is ever written twice. RUN/run.json records the
options, so a resumed run cannot silently mix different time limits.

A batch may run the same seeds under several sets of readings of the rule
sheets (solver/engine/readings.py); a record is identified by scenario, difficulty,
seed AND reading set, and names every reading it was made under, so a
resumed run may add reading sets to a folder without redoing the others.
"""
from __future__ import annotations

import concurrent.futures as cf
import json
import os
import pathlib
import re
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field

from solver import interrupt
from solver.board.errors import InputError
from solver.report.output import check_output_folder, open_for_append, write_atomic
from solver.batch.scenarios import scenario as get_scenario


@dataclass(frozen=True)
class Task:
    scenario: str
    difficulty: str
    seed: int
    time_limit: float
    options: tuple = ()   # (name, value) pairs passed to the scenario's solver
    readings: tuple = ()  # (reading name, value name) for every reading of the map; () for Desert
    reading_set: str = "default"  # the set's label: "default" or the changed readings joined by '+'
    plans_dir: str | None = None  # --keep-plans: the folder of plan pages (not part of the key: output only)

    @property
    def key(self) -> str:
        return f"{self.scenario}/{self.difficulty}/{self.seed}/{self.reading_set}"


def run_task(task: Task) -> dict:
    """Solve one task; never raises, so one bad seed cannot stop a batch."""
    t0 = time.monotonic()
    record = {"key": task.key, "scenario": task.scenario, "difficulty": task.difficulty, "seed": task.seed,
              "reading_set": task.reading_set, "readings": dict(task.readings)}
    options = dict(task.options)
    if task.readings:
        options["readings"] = dict(task.readings)
    try:
        result = get_scenario(task.scenario).solve(task.difficulty, task.seed, task.time_limit, options,
                                                   task.plans_dir, task.reading_set)
        record.update(result)
        record["status"] = "solved" if result.get("proved") else "unknown"
    except Exception as err:  # noqa: BLE001 - recorded, and the batch goes on
        record["status"] = "failed"
        record["error"] = f"{type(err).__name__}: {err}"
        record["traceback"] = traceback.format_exc(limit=5)
    record["seconds"] = round(time.monotonic() - t0, 3)
    return record


#: seeds one batch may hold, and the largest seed (NumPy and random take seeds below 2**32 alike)
MAX_SEEDS = 1_000_000
MAX_SEED = 2**32 - 1


def parse_seeds(text: str) -> list[int]:
    """'1-100', '5', '1-10,20-30'; sizes are checked before any list is built."""
    ranges = []
    try:
        for part in text.split(","):
            a, _, b = part.strip().partition("-")
            lo, hi = int(a), int(b) if b else int(a)
            if lo < 0 or hi < lo:
                raise ValueError
            ranges.append((lo, hi))
    except ValueError:
        raise InputError(f"expected seeds like '1-1000' or '1-10,20', got {text!r}", "--seeds") from None
    if max(hi for _, hi in ranges) > MAX_SEED:
        raise InputError(f"seeds go up to {MAX_SEED}", "--seeds")
    if sum(hi - lo + 1 for lo, hi in ranges) > MAX_SEEDS:
        raise InputError(f"at most {MAX_SEEDS:,} seeds in one batch; split the run", "--seeds")
    return sorted({s for lo, hi in ranges for s in range(lo, hi + 1)})


@dataclass
class Batch:
    out: pathlib.Path
    tasks: list[Task]
    meta: dict
    done: dict[str, dict] = field(default_factory=dict)

    @property
    def keep_plans(self) -> bool:
        return any(t.plans_dir for t in self.tasks)

    @property
    def results_path(self) -> pathlib.Path:
        return self.out / "results.jsonl"

    def check(self) -> None:
        """Before any solve: the results folder can be made or reused, and what it holds is a batch run.

        Tried, not asked of the permission bits (solver/report/output.py): the folder (or the
        nearest one above it that exists) takes a probe file, and results.jsonl, run.json and
        --keep-plans' plans/ can be written."""
        check_output_folder(self.out, f"--out {self.out}", files=("results.jsonl", "run.json"),
                            folders=("plans",) if self.keep_plans else ())
        meta_path = self.out / "run.json"
        if meta_path.exists():
            try:
                old = json.loads(meta_path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
                raise InputError(f"not a batch run file ({err}); use another --out", str(meta_path)) from None
            if not isinstance(old, dict):
                raise InputError("not a batch run file (expected a JSON object); use another --out", str(meta_path))
        load_results(self.results_path)

    def prepare(self) -> None:
        self.check()
        for folder in [self.out] + ([self.out / "plans"] if self.keep_plans else []):
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise InputError(f"cannot make the folder ({err.strerror or err})", str(folder)) from None
        meta_path = self.out / "run.json"
        if meta_path.exists():
            old = json.loads(meta_path.read_text(encoding="utf-8"))
            for k in ("scenario", "time_limit", "options"):
                if old.get(k) != self.meta.get(k):
                    raise InputError(f"this folder holds a run with {k} = {old.get(k)!r}; "
                                     f"use another --out or the same options", str(meta_path))
            # Reading sets and seeds may be added to a run: the folder lists every set it holds.
            sets = list(old.get("reading_sets", []))
            sets += [x for x in self.meta.get("reading_sets", []) if x not in sets]
            self.meta = {**old, "reading_sets": sets}
        write_atomic(meta_path, json.dumps(self.meta, indent=2))
        self.done = load_results(self.results_path)

    def pending(self) -> list[Task]:
        return [t for t in self.tasks if t.key not in self.done]

    def record(self, fh, rec: dict) -> None:
        if rec["key"] in self.done:
            return
        try:
            fh.write(json.dumps(rec, sort_keys=True) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        except OSError as err:  # disk full mid-run: the records so far are whole, a rerun resumes
            raise InputError(f"cannot write the record of {rec['key']} ({err.strerror or err})",
                             str(self.results_path)) from None
        self.done[rec["key"]] = rec


def load_results(path: pathlib.Path) -> dict[str, dict]:
    """Finished records by key; a torn last line (killed mid-write) is cut off the file."""
    if not path.exists():
        return {}
    try:
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):
            keep = data.rfind(b"\n") + 1
            with path.open("r+b") as fh:
                fh.truncate(keep)
            data = data[:keep]
    except OSError as err:
        raise InputError(f"cannot read and repair the records ({err.strerror or err})", str(path)) from None
    out = {}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (byte {err.start}); is this a results folder?", str(path)) from None
    for n, line in enumerate(text.splitlines(), 1):
        try:
            rec = json.loads(line)
            out.setdefault(rec["key"], rec)
        except (json.JSONDecodeError, KeyError, TypeError):
            raise InputError(f"line {n} is not a batch record; is this a results folder?", str(path)) from None
    return out


def run_batch(batch: Batch, workers: int | None, scheduler: str | None, quiet: bool) -> dict[str, int]:
    from tqdm import tqdm

    batch.prepare()
    pending = batch.pending()
    counts = {"solved": 0, "unknown": 0, "failed": 0}
    for rec in batch.done.values():
        counts[rec.get("status", "failed")] = counts.get(rec.get("status", "failed"), 0) + 1
    show = not quiet and sys.stderr.isatty()
    bar = tqdm(total=len(batch.tasks), initial=len(batch.tasks) - len(pending), disable=not show,
               unit="solve", dynamic_ncols=True, file=sys.stderr)
    bar.set_postfix(counts)
    with open_for_append(batch.results_path) as fh:
        for rec in _results(pending, workers, scheduler):
            batch.record(fh, rec)
            counts[rec["status"]] += 1
            bar.update(1)
            bar.set_postfix(counts)
    bar.close()
    return counts


def check_scheduler_address(address: str) -> None:
    """'tcp://host:8786' or 'host:8786' (Dask's forms); anything else is an exit-2 error, not a traceback."""
    m = re.fullmatch(r"(?:(tcp|tls|ws|wss|inproc|ucx)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::(\d{1,5}))?", address)
    if not m or (m.group(3) and not 0 < int(m.group(3)) < 65536) or (m.group(1) != "inproc" and not m.group(3)):
        raise InputError(f"expected a Dask scheduler address like tcp://host:8786, got {address!r}", "--scheduler")


def _results(tasks: list[Task], workers: int | None, scheduler: str | None):
    """Yield records as tasks finish, from a Dask cluster, a process pool, or this process."""
    if not tasks:
        return
    if scheduler:
        try:
            from dask.distributed import Client, as_completed
        except ImportError:
            raise InputError("--scheduler needs Dask: pip install 'dask[distributed]'", "--scheduler") from None
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as err:
            raise InputError(f"cannot reach the Dask scheduler ({err})", "--scheduler") from None
        with client:
            futures = [client.submit(run_task, t, key=f"aos-{t.key.replace('/', '-')}-{t.time_limit}", pure=False)
                       for t in tasks]
            for fut in as_completed(futures):
                yield fut.result()
        return
    n = min(workers or os.cpu_count() or 1, len(tasks))
    if n == 1:
        for t in tasks:
            yield run_task(t)
        return
    # Workers take over Ctrl-C like the main process (a running CP-SAT solve stops at once);
    # an interrupted solve raises in its worker and is never yielded, so it is never recorded.
    pool = cf.ProcessPoolExecutor(max_workers=n, initializer=interrupt.install)
    finished = False
    try:
        futures = [pool.submit(run_task, t) for t in tasks]
        for fut in cf.as_completed(futures):
            yield fut.result()
        finished = True
    finally:
        if finished:
            pool.shutdown()
        else:
            _stop_pool(pool)


def _stop_pool(pool: cf.ProcessPoolExecutor) -> None:
    """Leave no worker behind: cancel what has not started and end the workers now, not after their solves."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:  # their in-flight solves are dropped anyway, so nothing is lost by killing them
        if proc.is_alive():
            proc.kill()
    for proc in processes:
        proc.join(timeout=5)


def make_batch(scenario_name: str, difficulty: str, seeds: str, time_limit: float, out: str,
               options: dict, reading_sets: list | None = None, keep_plans: bool = False) -> Batch:
    """The tasks: every difficulty x seed x reading set (`reading_sets`: Rules; None: the defaults only).

    `keep_plans`: each solve also writes its plan page into OUT/plans/ (before its record, so a
    recorded setup's page is whole; a killed run keeps the pages it finished, and a resumed run
    redoes only the setups without a record)."""
    sc = get_scenario(scenario_name)
    known = sc.difficulties_for(options)
    if difficulty == "all":
        difficulties = list(known)
    else:
        difficulties = [d.strip() for d in difficulty.split(",")]
        bad = [d for d in difficulties if d not in known]
        if bad:
            raise InputError(f"{scenario_name} has no difficulty/challenge {bad[0]!r} "
                             f"(it has: {', '.join(known)}, or all)", "--difficulty")
    opts = tuple(sorted((k, v) for k, v in options.items() if v is not None))
    sets = [("default", ())]
    if sc.kind == "clear":
        from solver.engine.readings import label, stated_names
        from solver.engine.state import Rules
        sets = [(label(r, scenario_name), tuple(stated_names(r, scenario_name).items()))
                for r in (reading_sets or [Rules()])]
    # Seed-major order: a run stopped early holds the same seeds under every reading set.
    plans_dir = str(pathlib.Path(out) / "plans") if keep_plans else None
    tasks = [Task(scenario_name, d, s, time_limit, opts, names, set_label, plans_dir)
             for s in parse_seeds(seeds) for d in difficulties for set_label, names in sets]
    meta = {"scenario": scenario_name, "difficulties": difficulties, "seeds": seeds, "time_limit": time_limit,
            "options": {k: v for k, v in opts}, "reading_sets": [set_label for set_label, _ in sets]}
    return Batch(pathlib.Path(out), tasks, meta)


__all__ = ["Task", "Batch", "run_task", "run_batch", "make_batch", "load_results", "parse_seeds", "asdict"]
