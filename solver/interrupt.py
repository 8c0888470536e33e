"""Ctrl-C that stops promptly and is never mistaken for a time-out.

Solver libraries run in C++: CP-SAT catches SIGINT itself by default and then
returns its cut-short result as if the time limit had run out, and a Python
signal handler only runs once the library hands control back. So:

* `install()` puts a Python handler on SIGINT that raises `Interrupted`, and a
  wake-up pipe whose watcher thread stops every solve registered with
  `stoppable(...)` the moment the signal arrives (the C++ solve returns, then the
  handler raises before any of its result is used);
* `cp_solver()` gives a CP-SAT solver that leaves SIGINT to us.

`Interrupted` derives from BaseException so that no `except Exception` in a
solver swallows it, and the command line turns it into "interrupted", exit 130.

The wall-clock cap (`wall_clock_cap`) is the safety net under reproducible budgets: while it is set,
every CP-SAT solve gets at most the seconds left and the plan search stops once they are spent
(`past_cap`). A solve it cuts short only finds or proves less (UNKNOWN is never a proof), and the
command says that the cap bit (`cap_hit`), since the answer may then differ from run to run.
"""
from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from typing import Callable, Iterator


class Interrupted(BaseException):
    """The user pressed Ctrl-C (SIGINT) or the process was asked to stop (SIGTERM)."""


_stoppers: dict[int, Callable[[], None]] = {}
_lock = threading.Lock()
_installed = 0  # the process id that installed the handler (0: none)


def _handler(signum, frame) -> None:  # noqa: ARG001 - signal handler signature
    raise Interrupted()


def _watch(fd: int) -> None:
    while True:
        try:
            data = os.read(fd, 64)
        except OSError:
            return
        if not data:
            return
        cut = signal.SIGUSR1 in data and _cut_short_on
        if cut and _on_signal is not None:  # the cancel handle's watcher (cancel_on) cuts and stops the solves
            with contextlib.suppress(Exception):
                _on_signal()
            cut = False
        elif cut:
            cut_short()
        if cut or any(b in (signal.SIGINT, signal.SIGTERM) for b in data):
            with _lock:
                stoppers = list(_stoppers.values())
            for stop in stoppers:
                with contextlib.suppress(Exception):
                    stop()


def install() -> None:
    """Take over SIGINT and SIGTERM for this process (main thread only; later calls do nothing).

    A forked worker inherits the flag but neither the watcher thread nor a pipe of
    its own, so the process id decides whether this process is already set up.
    """
    global _installed
    if _installed == os.getpid() or threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGINT, _handler)
    signal.signal(signal.SIGTERM, _handler)
    r, w = os.pipe()
    os.set_blocking(w, False)
    signal.set_wakeup_fd(w, warn_on_full_buffer=False)
    threading.Thread(target=_watch, args=(r,), name="interrupt-watch", daemon=True).start()
    _installed = os.getpid()


@contextlib.contextmanager
def stoppable(stop: Callable[[], None]) -> Iterator[None]:
    """While the block runs, Ctrl-C calls `stop` (e.g. a CP-SAT solver's stop_search) at once."""
    key = id(stop)
    with _lock:
        _stoppers[key] = stop
        _owners[key] = threading.get_ident()
    try:
        yield
    finally:
        with _lock:
            _stoppers.pop(key, None)
            _owners.pop(key, None)


_owners: dict[int, int] = {}  # stopper key -> the thread whose solve it stops


def stop_solves(thread: int) -> int:
    """Stop the solves running in thread `thread` now (the batch's wall-clock cap); how many were stopped."""
    with _lock:
        stoppers = [stop for key, stop in _stoppers.items() if _owners.get(key) == thread]
    for stop in stoppers:
        with contextlib.suppress(Exception):
            stop()
    return len(stoppers)


_cap: dict = {"deadline": None, "hit": False}
_cut_short_on = False
_cut = False  # cut_short was called: every later cap is spent at once


def cut_short() -> None:
    """Spend the wall-clock cap now: every search stops as if its time had run out and the answer is what was
    found and proved so far (the app's Cancel). Cutting a search short only finds or proves less."""
    global _cut
    _cut = True
    _cap["deadline"] = time.monotonic()
    _cap["hit"] = True


def install_cut_short(on_signal: Callable[[], None] | None = None) -> None:
    """SIGUSR1 cuts the solve short (cut_short, and the running CP-SAT solves stopped) instead of ending it:
    the app's worker, so that Cancel keeps the bounds and the best plan found. Call after install().

    With `on_signal` (the app's worker: a cancel handle's `set`), SIGUSR1 calls it instead, and the solve
    service's `cancel_on` watching that handle cuts the solve short."""
    global _cut_short_on, _on_signal
    _cut_short_on, _on_signal = True, on_signal
    signal.signal(signal.SIGUSR1, lambda signum, frame: (on_signal or cut_short)())


_on_signal: Callable[[], None] | None = None


@contextlib.contextmanager
def cancel_on(cancelled: Callable[[], bool], poll: float = 0.05) -> Iterator[dict]:
    """While the block runs, `cancelled()` turning true cuts the solve short as the app's Cancel does: every
    search stops as if its time had run out (cut_short) and the CP-SAT solves of this thread are stopped, so
    the answer is what was found and proved by then. Unlike a signal's cut, this one ends with the block (the
    process may solve again). Yields {"cancelled": bool}."""
    global _cut
    thread = threading.get_ident()
    saved, was_cut = dict(_cap), _cut
    state = {"cancelled": False}
    done = threading.Event()

    def fire() -> None:
        state["cancelled"] = True
        cut_short()

    def watch() -> None:
        while not state["cancelled"] and not done.wait(poll):
            if cancelled():
                fire()
        while state["cancelled"] and not done.wait(0.2):  # a solve that started just after the cut stops too
            stop_solves(thread)

    if cancelled():
        fire()
    watcher = threading.Thread(target=watch, name="solve-cancel", daemon=True)
    watcher.start()
    try:
        if state["cancelled"]:
            stop_solves(thread)
        yield state
    finally:
        done.set()
        watcher.join()
        if state["cancelled"] and not was_cut:
            _cut = False
            _cap.update(saved)


@contextlib.contextmanager
def wall_clock_cap(seconds: float | None) -> Iterator[dict]:
    """While the block runs, no search goes on after `seconds` of wall-clock time; yields {"hit": bool}."""
    old = dict(_cap)
    _cap.update(deadline=time.monotonic() if _cut else None if seconds is None else time.monotonic() + seconds,
                hit=_cut)
    state = {"seconds": seconds, "hit": False}
    try:
        yield state
    finally:
        state["hit"] = _cap["hit"]
        _cap.update(old)


def past_cap() -> bool:
    """Whether the wall-clock cap has run out (and so bit: the caller stops because of it)."""
    if _cap["deadline"] is not None and time.monotonic() >= _cap["deadline"]:
        _cap["hit"] = True
        return True
    return False


def cap_hit() -> bool:
    return bool(_cap["hit"])


def cp_solver():
    """A CP-SAT solver that leaves SIGINT to `install()`: CP-SAT would otherwise swallow Ctrl-C."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False
    return solver


def solve_cp(solver, model, callback=None) -> int:
    """`solver.Solve(model)` that Ctrl-C stops at once; raises Interrupted instead of returning a cut-short status.

    With AOS_TRACE_SOLVES=FILE set, a line is appended to FILE as each solve starts and ends, so that a
    test can interrupt a batch in the middle of a CP-SAT solve rather than at a guessed moment.
    """
    trace = os.environ.get("AOS_TRACE_SOLVES")
    if trace:
        with open(trace, "a", encoding="utf-8") as fh:
            fh.write("start\n")
    capped = False
    if _cap["deadline"] is not None:
        left = max(0.01, _cap["deadline"] - time.monotonic())
        if solver.parameters.max_time_in_seconds > left:
            solver.parameters.max_time_in_seconds = left
            capped = True
    with stoppable(solver.stop_search):
        status = solver.Solve(model, callback) if callback is not None else solver.Solve(model)
    if capped:
        past_cap()  # if the cap, not the solver's own limit, ended this solve, it is recorded as having bit
    if trace:
        with open(trace, "a", encoding="utf-8") as fh:
            fh.write("end\n")
    return status
