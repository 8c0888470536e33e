"""The batch's wall-clock safety net: a solve still running after its cap is stopped and recorded as such.

Answers come from work units (solver/batch/scenarios.py, `Mode`), so the cap
should never bite; it is there for the setup that would run for hours. When it
bites, the solve's thread gets `WallCapHit` raised in it (CPython's
PyThreadState_SetAsyncExc: it works in a process pool's worker and in a Dask
worker thread alike, where signals cannot be used), and the CP-SAT or SCIP solve
it is in, which holds no Python frame to raise in, is stopped first through
solver.interrupt's registry. The record then says the cap stopped it, so a
report never takes a capped "unknown" for the solvers' answer.
"""
from __future__ import annotations

import contextlib
import ctypes
import threading
from typing import Iterator

from solver import interrupt


class WallCapHit(BaseException):
    """A solve ran past the batch's wall-clock cap (BaseException: no `except Exception` in a solver swallows it)."""


@contextlib.contextmanager
def wall_cap(seconds: float | None) -> Iterator[dict]:
    """Run the block with a cap of `seconds` of wall time; the yielded dict's "hit" says whether it bit."""
    state = {"hit": False}
    if not seconds:
        yield state
        return
    thread = threading.get_ident()
    done = threading.Event()
    lock = threading.Lock()

    def bite() -> None:
        if done.wait(seconds):
            return
        with lock:
            if done.is_set():
                return
            state["hit"] = True
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), ctypes.py_object(WallCapHit))
        # the exception is raised once the thread runs Python again: stop its C++ solves until it does
        while not done.wait(0.2):
            interrupt.stop_solves(thread)

    watcher = threading.Thread(target=bite, name="batch-wall-cap", daemon=True)
    watcher.start()
    try:
        yield state
    except WallCapHit:
        raise
    else:
        with lock:
            done.set()
        if state["hit"]:
            # the block ended between the bite and the exception's delivery: its answer is whole
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), None)
            state["hit"] = False
    finally:
        with lock:
            done.set()
