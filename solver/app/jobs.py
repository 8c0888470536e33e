"""Solves in worker processes: one at a time per browser tab, live progress, cancellation.

A solve runs for seconds to minutes inside C++ (CP-SAT, SCIP) where a thread
cannot be stopped, so each one gets a process of its own: cancelling sends it
SIGTERM (the worker's `solver.interrupt` handler stops the search at once and
the process exits), and a worker that has not gone after a grace period is
killed. Workers come from a "forkserver": a clean single-threaded parent, so
forking never copies the web server's threads or locks.

The worker sends ("progress", phase, bounds) messages over a pipe while it
runs (solver.progress notes) and one final message; the server reads them
when the page polls, so no thread of ours waits on a pipe.

Cancel asks the worker to cut the solve short (SIGUSR1: solver.interrupt.cut_short,
as if the time limit had run out) and waits up to CUT_SECONDS for its answer,
which is kept and shown: what was found and proved by then, the best plan
included. A worker that does not answer in time is stopped (SIGTERM, then SIGKILL)
and the job keeps its last bounds. A solve whose page stops polling for
ABANDON_SECONDS (the tab was closed) is stopped by a watchdog thread.
"""
from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
import threading
import time
from dataclasses import dataclass, field

# The same number of solves at once as the machine has cores for, at most.
MAX_RUNNING = 2
GRACE_SECONDS = 3.0
CUT_SECONDS = 8.0       # how long Cancel waits for the worker's cut-short answer
ABANDON_SECONDS = 30.0  # a running solve nobody polled for this long is stopped (the page polls every 0.4 s)

_context = None


def _ctx():
    global _context
    if _context is None:
        _context = multiprocessing.get_context("forkserver")
        # Workers fork from a parent that already imported the solvers, so a solve starts in milliseconds.
        _context.set_forkserver_preload(["solver.app.work"])
    return _context


class JobError(Exception):
    """A request the job table refuses (shown to the user at the Solve button)."""


@dataclass
class Job:
    id: str
    tab: str
    kind: str
    title: str
    process: object
    conn: object
    started: float = field(default_factory=time.monotonic)
    state: str = "running"            # running, done, error, cancelled, failed
    progress: list = field(default_factory=list)
    message: str | None = None
    result: dict | None = None        # the answer's JSON twin (as the CLI's --json)
    page: str | None = None           # the plan page HTML
    plan: dict | None = None          # the plan file (as --plan-out)
    ended: float | None = None
    seen: float = field(default_factory=time.monotonic)   # the last time the page asked about this job
    cutting: bool = False             # Cancel asked the worker to cut the solve short

    def view(self) -> dict:
        """What the page polls: state, progress so far, and the answer once there."""
        end = self.ended or time.monotonic()
        return {"id": self.id, "kind": self.kind, "title": self.title, "state": self.state,
                "seconds": round(end - self.started, 1), "progress": self.progress[-20:],
                "message": self.message, "answer": self.result, "has_plan": self.plan is not None}


class Jobs:
    """The server's table of solves (thread-safe: the web server answers on several threads)."""

    def __init__(self, max_running: int = MAX_RUNNING, keep: int = 50, abandon: float = ABANDON_SECONDS):
        self.max_running = max_running
        self.keep = keep
        self.abandon = abandon
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.ids = itertools.count(1)
        self.closing = threading.Event()
        self.watchdog: threading.Thread | None = None

    def start(self, tab: str, kind: str, title: str, request: dict) -> Job:
        with self.lock:
            self._collect_all()
            running = [j for j in self.jobs.values() if j.state == "running"]
            if any(j.tab == tab for j in running):
                raise JobError("a solve is already running in this tab: cancel it or wait for it first")
            if len(running) >= self.max_running:
                raise JobError(f"{len(running)} solves are running (at most {self.max_running} at once, one a core); "
                               "try again when one ends")
            ctx = _ctx()
            parent, child = ctx.Pipe(duplex=False)
            process = ctx.Process(target=_entry, args=(child, kind, request), daemon=True)
            process.start()
            child.close()
            job = Job(f"j{next(self.ids)}", tab, kind, title, process, parent)
            self.jobs[job.id] = job
            self._forget_old()
            if self.watchdog is None:
                self.watchdog = threading.Thread(target=self._watch, name="abandoned-solves", daemon=True)
                self.watchdog.start()
            return job

    def get(self, job_id: str) -> Job | None:
        with self.lock:
            job = self.jobs.get(job_id)
            if job is not None:
                job.seen = time.monotonic()
                self._collect(job)
            return job

    def cancel(self, job_id: str, wait: float | None = None) -> Job | None:
        """Cut the solve short and keep its answer (what was found and proved so far); stop it if it lingers
        (after `wait` seconds, CUT_SECONDS unless given)."""
        wait = CUT_SECONDS if wait is None else wait
        with self.lock:
            job = self.jobs.get(job_id)
            if job is None:
                return None
            self._collect(job)
            if job.state != "running":
                return job
            job.cutting = True
            try:
                os.kill(job.process.pid, signal.SIGUSR1)
            except OSError:
                pass
        end = time.monotonic() + wait
        while time.monotonic() < end:
            with self.lock:
                self._collect(job)
                if job.state != "running":
                    return job
            time.sleep(0.05)
        with self.lock:
            self._collect(job)
            if job.state == "running":
                self._kill(job, "stopped")
            return job

    def shutdown(self) -> None:
        """Stop every running worker (the server is closing)."""
        self.closing.set()
        with self.lock:
            for job in self.jobs.values():
                if job.state == "running":
                    _stop(job.process)
                    job.state = "cancelled"

    def _watch(self) -> None:
        """Stop solves whose page has stopped asking about them (the tab was closed or the computer slept)."""
        while not self.closing.wait(1.0):
            with self.lock:
                for job in list(self.jobs.values()):
                    self._collect(job)
                    if job.state == "running" and time.monotonic() - job.seen > self.abandon:
                        self._kill(job, f"stopped: the page stopped asking for {self.abandon:g} s (closed?)")

    def _kill(self, job: Job, why: str) -> None:
        """Stop the worker now; the job keeps the bounds its progress reported (lock held)."""
        _stop(job.process)
        job.state, job.ended = "cancelled", time.monotonic()
        job.message = why + _known(job.progress)
        job.conn.close()

    def running(self) -> int:
        with self.lock:
            self._collect_all()
            return sum(1 for j in self.jobs.values() if j.state == "running")

    # -- internals (lock held)
    def _collect_all(self) -> None:
        for job in self.jobs.values():
            self._collect(job)

    def _collect(self, job: Job) -> None:
        """Read what the worker sent so far; notice a worker that died without a word."""
        if job.state != "running":
            return
        try:
            while job.conn.poll():
                self._take(job, job.conn.recv())
                if job.state != "running":
                    break
        except (EOFError, OSError):
            pass
        if job.state == "running" and not job.process.is_alive():
            try:  # its last message may have arrived just before it exited
                while job.conn.poll():
                    self._take(job, job.conn.recv())
            except (EOFError, OSError):
                pass
            if job.state == "running" and job.cutting:  # stopped by Cancel before it could answer
                job.state, job.message = "cancelled", "stopped" + _known(job.progress)
            elif job.state == "running":
                job.state, job.message = "failed", f"the worker process ended unexpectedly (exit code " \
                                                   f"{job.process.exitcode})"
        if job.state != "running":
            job.ended = job.ended or time.monotonic()
            job.process.join(timeout=1)
            job.conn.close()

    def _take(self, job: Job, msg: tuple) -> None:
        kind = msg[0]
        if kind == "progress":
            # CLOCK_MONOTONIC is one clock for every process of the machine: the worker's time of the note
            job.progress.append({"seconds": round(msg[3] - job.started, 1), "phase": msg[1],
                                 **{k: str(v) for k, v in msg[2].items()}})
        elif kind == "done":
            job.state, job.result, job.page, job.plan = "done", msg[1], msg[2], msg[3]
            if job.cutting:          # the answer Cancel asked for: what was found and proved by then
                job.state, job.message = "cancelled", "stopped: " + _answer_words(msg[1])
        elif kind == "error":       # bad input: one message naming what is wrong and where
            job.state, job.message = "error", msg[1]
        elif kind == "cancelled":
            job.state, job.message = "cancelled", "cancelled"
        else:
            job.state, job.message = "failed", msg[1]

    def _forget_old(self) -> None:
        finished = [j for j in self.jobs.values() if j.state != "running"]
        for job in finished[: max(0, len(finished) - self.keep)]:
            del self.jobs[job.id]


def _known(progress: list) -> str:
    """"; known by then: at least 10 rounds, best plan so far 11" from the last progress note with bounds."""
    rounds = next((p["rounds"] for p in reversed(progress) if p.get("rounds")), None)
    return f"; known by then: {rounds}" if rounds else ""


def _answer_words(data: dict) -> str:
    """A cut-short answer in a few words: "best plan 11 rounds, at least 10"."""
    if not isinstance(data, dict):
        return "no answer"
    best, low = data.get("rounds_upper_bound"), data.get("rounds_lower_bound")
    if data.get("verdict") == "not clearable":
        return "not clearable (proved before the stop)"
    if best is None:
        return f"no plan found yet, at least {low} rounds" if low else "no plan found yet"
    if data.get("min_rounds_proved"):
        return f"best plan {best} rounds, the proved minimum"
    return f"best plan {best} rounds, at least {low}"


def _entry(conn, kind: str, request: dict) -> None:
    """The worker's first call; the solvers are imported in the worker (the server itself never loads OR-Tools)."""
    from solver.app import work
    work.run(conn, kind, request)


def _stop(process) -> None:
    """SIGTERM (the worker stops its search and exits), then SIGKILL if it lingers."""
    if not process.is_alive():
        process.join(timeout=1)
        return
    process.terminate()
    process.join(timeout=GRACE_SECONDS)
    if process.is_alive():
        process.kill()
        process.join(timeout=GRACE_SECONDS)
