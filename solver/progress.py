"""Progress of one long solve, on a terminal only: the phase and the best bounds so far, on stderr.

Solvers call `note(...)` at their phase changes; it costs nothing unless the
command line switched the display on (`enable()`), which it does only when
stderr is a terminal and --quiet is not given, so pipes and --json stay clean.
One status line is rewritten in place and cleared when the solve ends.
"""
from __future__ import annotations

import contextlib
import sys
import time
from typing import Iterator

_stream = None
_start = 0.0
_width = 0
_listener = None  # a callable(phase, bounds) that also gets every note (the app's worker processes)


def enable(quiet: bool = False, stream=None) -> bool:
    """Show progress if `stream` (default stderr) is a terminal and not quiet; returns whether it shows."""
    global _stream, _start
    stream = stream if stream is not None else sys.stderr
    _stream = stream if not quiet and getattr(stream, "isatty", lambda: False)() else None
    _start = time.monotonic()
    return _stream is not None


def note(phase: str, method: str | None = None, **bounds) -> None:
    """`note("searching for a plan", method="beam search, width 18", rounds=rounds_text(6, 8, 12))`: one line,
    rewritten in place. `phase` is in a player's words; `method` the technical name (the app shows it on hover)."""
    global _width
    if _listener is not None:
        _listener(phase, {k: v for k, v in {**bounds, "method": method}.items() if v is not None})
    if _stream is None:
        return
    extra = "  ".join(f"{v}" if k == "rounds" else f"{k.replace('_', ' ')} {v}"
                      for k, v in bounds.items() if v is not None)
    line = f"[{time.monotonic() - _start:5.1f} s] {phase}" + (f"  {extra}" if extra else "")
    _stream.write("\r" + line.ljust(_width))
    _stream.flush()
    _width = len(line)


def rounds_text(lower: int, best: int | None, limit: int) -> str:
    """The rounds known so far in words: "at least 10 rounds, best plan so far 11"."""
    return f"at least {lower} rounds, " + (f"best plan so far {best}" if best is not None else
                                           f"no plan yet (round limit {limit})")


def done() -> None:
    """Clear the status line so that the report starts on a clean line."""
    global _stream, _width
    if _stream is not None:
        _stream.write("\r" + " " * _width + "\r")
        _stream.flush()
    _stream, _width = None, 0


@contextlib.contextmanager
def shown(quiet: bool = False) -> Iterator[bool]:
    """`with progress.shown(quiet):` around a solve in a command."""
    try:
        yield enable(quiet)
    finally:
        done()


def listen(callback) -> None:
    """Hand every note to `callback(phase, bounds)` as well (None stops): the app's worker sends them to the page."""
    global _listener
    _listener = callback


@contextlib.contextmanager
def listening(callback) -> Iterator[None]:
    """While the block runs, `callback(phase, bounds)` gets every note as well (the solve service's progress);
    a listener already set still gets them, and is the only one again after the block."""
    global _listener
    before = _listener
    if callback is None:
        yield
        return

    def both(phase, bounds):
        if before is not None:
            before(phase, bounds)
        callback(phase, bounds)

    _listener = both
    try:
        yield
    finally:
        _listener = before

