"""Batch runs: many seeds, resumable, on local processes or a Dask cluster.

Results go to RUN/results.jsonl, one JSON line per finished solve, flushed and
synced as each finishes. A killed run loses at most the solves in flight: run
the same command again and it skips what is done (a torn last line is cut
off first), so no seed is ever written twice. RUN/run.json records the
options and the work settings (solver/batch/scenarios.py, `Mode`), so a resumed
run cannot silently mix answers made with different budgets; it also lists every
seed, difficulty and reading set the folder was asked for, and each run's
wall-clock cap.

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
from solver.batch.scenarios import Mode, scenario as get_scenario
from solver.batch.wallcap import WallCapHit, wall_cap


@dataclass(frozen=True)
class Task:
    scenario: str
    difficulty: str
    seed: int
    mode: Mode = Mode()   # the work units that bound the solve (its answer depends on these only)
    wall_cap: float | None = None  # seconds: the safety net (solver/batch/wallcap.py), recorded, not an answer setting
    options: tuple = ()   # (name, value) pairs passed to the scenario's solver
    readings: tuple = ()  # (reading name, value name) for every reading of the map; () for Desert
    reading_set: str = "default"  # the set's label: "default" or the changed readings joined by '+'
    plans_dir: str | None = None  # --keep-plans: the folder of plan pages (not part of the key: output only)

    @property
    def key(self) -> str:
        return f"{self.scenario}/{self.difficulty}/{self.seed}/{self.reading_set}"


#: fields of a record that measure time, not the answer (two runs of one batch differ in these only)
TIMING_FIELDS = ("seconds",)


def run_task(task: Task) -> dict:
    """Solve one task; never raises (but for Ctrl-C), so one bad seed cannot stop a batch."""
    t0 = time.monotonic()
    sc = get_scenario(task.scenario)
    record = {"key": task.key, "scenario": task.scenario, "difficulty": task.difficulty, "seed": task.seed,
              "reading_set": task.reading_set, "readings": dict(task.readings), "mode": task.mode.as_json(sc.kind)}
    options = dict(task.options)
    if task.readings:
        options["readings"] = dict(task.readings)
    cap = {"hit": False}
    try:
        with wall_cap(task.wall_cap) as cap:
            result = sc.solve(task.difficulty, task.seed, task.mode, options, task.plans_dir, task.reading_set)
        record.update(result)
        record["status"] = "solved" if result.get("proved") else "unknown"
    except WallCapHit:
        record.update(verdict="unknown", proved=False, status="unknown")
    except Exception as err:  # noqa: BLE001 - recorded, and the batch goes on
        record["status"] = "failed"
        record["error"] = f"{type(err).__name__}: {err}"
        record["traceback"] = traceback.format_exc(limit=5)
    record["wall_cap"] = {"seconds": task.wall_cap, "hit": cap["hit"]}
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
        """Before any solve: the results folder can be made or reused, and what it holds is this batch's run.

        Tried, not asked of the permission bits (solver/report/output.py): the folder (or the
        nearest one above it that exists) takes a probe file, and results.jsonl, run.json and
        --keep-plans' plans/ can be written. A folder made with other answer settings is refused."""
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
            _check_same_run(old, self.meta, str(meta_path))
        load_results(self.results_path)

    def prepare(self) -> None:
        self.check()
        for folder in [self.out] + ([self.out / "plans"] if self.keep_plans else []):
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise InputError(f"cannot make the folder ({err.strerror or err})", str(folder)) from None
        meta_path = self.out / "run.json"
        this_run = {k: self.meta[k] for k in ("difficulties", "seeds", "reading_sets", "wall_cap_seconds")}
        this_run["started"] = time.strftime("%Y-%m-%d %H:%M:%S %Z")
        if meta_path.exists():
            old = json.loads(meta_path.read_text(encoding="utf-8"))
            # Difficulties, seeds and reading sets may be added to a run: the folder lists all it holds.
            def union(key: str) -> list:
                have = list(old.get(key, []))
                return have + [x for x in self.meta[key] if x not in have]
            seeds = parse_seeds(old["seeds"]) + parse_seeds(self.meta["seeds"]) if old.get("seeds") else \
                parse_seeds(self.meta["seeds"])
            self.meta = {**old, "difficulties": union("difficulties"), "reading_sets": union("reading_sets"),
                         "seeds": seed_text(seeds), "wall_cap_seconds": self.meta["wall_cap_seconds"],
                         "runs": list(old.get("runs", [])) + [this_run]}
        else:
            self.meta = {**self.meta, "runs": [this_run]}
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


def _check_same_run(old: dict, new: dict, where: str) -> None:
    """A folder is resumed only with the settings its answers were made with (scenario, options, mode)."""
    if "mode" not in old:
        limit = old.get("time_limit")
        raise InputError("this folder holds a batch made before batch solves were reproducible"
                         + (f" (a wall-clock limit of {limit:g} s a solve)" if isinstance(limit, (int, float)) else "")
                         + "; its answers cannot be mixed with new ones: use another --out", where)
    if old.get("scenario") != new["scenario"]:
        raise InputError(f"this folder holds a batch of {old.get('scenario')}, not {new['scenario']}; "
                         "use another --out", where)
    for key, what in (("options", "options"), ("mode", "work settings")):
        mine, theirs = new[key], old.get(key) or {}
        diff = [k for k in sorted(set(mine) | set(theirs)) if mine.get(k) != theirs.get(k)]
        if diff:
            said = "; ".join(f"{k} {_said(theirs.get(k))} there, {_said(mine.get(k))} now" for k in diff)
            raise InputError(f"this folder holds a batch made with other {what} ({said}); "
                             "use another --out or the same options", where)


def _said(value) -> str:
    if value is None:
        return "not set"
    if isinstance(value, bool):
        return "on" if value else "off"
    return f"{value:g}" if isinstance(value, float) else str(value)


def seed_text(seeds) -> str:
    """Seeds as ranges, the form --seeds takes: [1, 2, 3, 7] -> '1-3,7'."""
    out, run = [], []
    for s in sorted(set(seeds)):
        if run and s == run[-1] + 1:
            run.append(s)
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [s]
    if run:
        out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ",".join(out)


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


def run_batch(batch: Batch, workers: int | None, scheduler: str | None, quiet: bool) -> dict:
    """Solve what the folder lacks; the tally is of this command's setups (not of the whole folder)."""
    from tqdm import tqdm

    batch.prepare()
    pending = batch.pending()
    mine = {t.key for t in batch.tasks}
    earlier = [rec for key, rec in batch.done.items() if key in mine]
    counts = {"solved": 0, "unknown": 0, "failed": 0}
    for rec in earlier:
        counts[rec.get("status", "failed")] = counts.get(rec.get("status", "failed"), 0) + 1
    show = not quiet and sys.stderr.isatty()
    bar = tqdm(total=len(batch.tasks), initial=len(batch.tasks) - len(pending), disable=not show,
               unit="solve", dynamic_ncols=True, file=sys.stderr)
    bar.set_postfix(counts)
    now = []
    with open_for_append(batch.results_path) as fh:
        for rec in _results(pending, workers, scheduler):
            batch.record(fh, rec)
            now.append(rec)
            counts[rec["status"]] += 1
            bar.update(1)
            bar.set_postfix(counts)
    bar.close()
    return tally(earlier + now, asked=len(batch.tasks), solved_now=len(now), folder=len(batch.done))


def tally(records: list[dict], asked: int, solved_now: int, folder: int) -> dict:
    """Counts of one command's setups: how many it solved now, verdicts, proofs, and safety-net stops."""
    verdicts = {v: sum(1 for r in records if r.get("verdict") == v) for v in ("clearable", "not clearable")}
    return {"asked": asked, "solved_now": solved_now, "already_done": len(records) - solved_now,
            "proved": sum(1 for r in records if r.get("status") == "solved"),
            "unknown": sum(1 for r in records if r.get("status") == "unknown"),
            "failed": sum(1 for r in records if r.get("status") == "failed"),
            "clearable": verdicts["clearable"], "not_clearable": verdicts["not clearable"],
            "wall_cap_hit": sum(1 for r in records if (r.get("wall_cap") or {}).get("hit")),
            "folder_records": folder}


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
            futures = [client.submit(run_task, t, key=f"aos-{t.key.replace('/', '-')}-{hash(t.mode) & 0xffffffff:08x}",
                                     pure=False)
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


def make_batch(scenario_name: str, difficulty: str, seeds: str, mode: Mode, out: str, options: dict,
               reading_sets: list | None = None, keep_plans: bool = False, wall_cap: float | None = None) -> Batch:
    """The tasks: every difficulty x seed x reading set (`reading_sets`: Rules; None: the defaults only).

    `mode`: the work units every solve gets (its answer depends on these only); `wall_cap`: seconds
    after which a solve is stopped and recorded as stopped (a safety net, not an answer setting).
    `keep_plans`: each solve also writes its plan page into OUT/plans/ (before its record, so a
    recorded setup's page is whole; a killed run keeps the pages it finished, and a resumed run
    redoes only the setups without a record)."""
    mode.check()
    if wall_cap is not None and not 0 < wall_cap < float("inf"):
        raise InputError(f"expected a positive number of seconds, got {wall_cap:g}", "--wall-cap")
    sc = get_scenario(scenario_name)
    known = sc.difficulties_for(options)
    if difficulty == "all":
        difficulties = list(known)
    else:
        difficulties = [d.strip() for d in difficulty.split(",")]
        bad = [d for d in difficulties if d not in known]
        if bad:
            raise InputError(f"{scenario_name} has no difficulty or challenge {bad[0]} "
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
    seed_list = parse_seeds(seeds)
    tasks = [Task(scenario_name, d, s, mode, wall_cap, opts, names, set_label, plans_dir)
             for s in seed_list for d in difficulties for set_label, names in sets]
    meta = {"scenario": scenario_name, "difficulties": difficulties, "seeds": seed_text(seed_list),
            "mode": mode.as_json(sc.kind), "wall_cap_seconds": wall_cap,
            "options": {k: v for k, v in opts}, "reading_sets": [set_label for set_label, _ in sets]}
    return Batch(pathlib.Path(out), tasks, meta)


__all__ = ["Task", "Batch", "Mode", "run_task", "run_batch", "make_batch", "load_results", "parse_seeds", "seed_text",
           "tally", "TIMING_FIELDS", "asdict"]
