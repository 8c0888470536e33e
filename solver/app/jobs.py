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
"""
from __future__ import annotations

import itertools
import multiprocessing
import threading
import time
from dataclasses import dataclass, field

# The same number of solves at once as the machine has cores for, at most.
MAX_RUNNING = 2
GRACE_SECONDS = 3.0

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

    def view(self) -> dict:
        """What the page polls: state, progress so far, and the answer once there."""
        end = self.ended or time.monotonic()
        return {"id": self.id, "kind": self.kind, "title": self.title, "state": self.state,
                "seconds": round(end - self.started, 1), "progress": self.progress[-20:],
                "message": self.message, "answer": self.result, "has_plan": self.plan is not None}


class Jobs:
    """The server's table of solves (thread-safe: the web server answers on several threads)."""

    def __init__(self, max_running: int = MAX_RUNNING, keep: int = 50):
        self.max_running = max_running
        self.keep = keep
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.ids = itertools.count(1)

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
            return job

    def get(self, job_id: str) -> Job | None:
        with self.lock:
            job = self.jobs.get(job_id)
            if job is not None:
                self._collect(job)
            return job

    def cancel(self, job_id: str) -> Job | None:
        with self.lock:
            job = self.jobs.get(job_id)
            if job is None:
                return None
            self._collect(job)
            if job.state == "running":
                _stop(job.process)
                job.state, job.message, job.ended = "cancelled", "cancelled: the worker process was stopped", \
                    time.monotonic()
                job.conn.close()
            return job

    def shutdown(self) -> None:
        """Stop every running worker (the server is closing)."""
        with self.lock:
            for job in self.jobs.values():
                if job.state == "running":
                    _stop(job.process)
                    job.state = "cancelled"

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
            if job.state == "running":
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
