"""One solve service for every front end: the command line, the app and batch ask a solo question one way.

Before it, each front end assembled the same steps (pick the map's solver, turn the settings into
budgets, cap the wall clock, record whether the cap bit); now each builds a `Scenario` (the question)
and `Settings` and calls `solve`, so the same request gives the same answer wherever it is asked.
A caller may hand `solve` a progress callback (every `solver.progress` note of this solve) and a cancel
handle (the app's Cancel: the solve is cut short and answers with what it found and proved, as
`solver.interrupt.cut_short` does); Ctrl-C still raises `solver.interrupt.Interrupted` out of it.
"""
from __future__ import annotations

import contextlib
import importlib
from typing import Callable

from solver import interrupt, progress as notes
from solver.board.errors import InputError
from solver.engine.scenario import Scenario
from solver.solo.answer import Answer
from solver.solo.round_search import Node
from solver.solo.settings import Settings

#: the solo maps and the module of each one's solver (its `analyse(scenario, ...) -> Answer`)
SOLO_MAPS = {"easter-island": "solver.solo.easter_island", "zoo": "solver.solo.zoo"}


def solver_for(name: str):
    """The solver module of a solo map (bad name: one error listing the maps)."""
    if name not in SOLO_MAPS:
        raise InputError(f"no solo solver for {name!r} (solo maps: {', '.join(SOLO_MAPS)})", "map")
    return importlib.import_module(SOLO_MAPS[name])


def solve(scenario: Scenario, settings: Settings, start: Node | None = None, capped: bool = True,
          progress: Callable[[str, dict], None] | None = None, cancel=None) -> Answer:
    """The answer to one question, every plan in it replayed by the referee.

    `start`: a position reached by a plan prefix (solver.solo.position.position_from). `capped`: stop
    the whole solve at `settings.time_limit` wall-clock seconds and record whether that bit
    (`answer.time_cap`); a batch passes False, since its runner keeps its own cap (solver/batch/wallcap.py).
    `progress(phase, bounds)`: called with each progress note of the solve (solver.progress.note).
    `cancel`: a threading.Event or any object with `cancelled()`; once set, the searches stop and the answer
    is what was found and proved by then (a capped answer's `time_cap` says the cap bit)."""
    analyse = solver_for(scenario.name).analyse

    def run() -> Answer:
        return analyse(scenario, time_limit=settings.time_limit, budget=settings.budget, params=settings.params(),
                       start=start)

    watch = contextlib.nullcontext() if cancel is None else interrupt.cancel_on(cancelled_test(cancel))
    with notes.listening(progress), watch:
        if not capped:
            return run()
        with interrupt.wall_clock_cap(settings.cap_seconds()) as cap:
            answer = run()
    answer.time_cap = settings.cap_record(cap)
    return answer


def cancelled_test(cancel) -> Callable[[], bool]:
    """`cancel` as a test: None never, a threading.Event when set, else its `cancelled()`."""
    if cancel is None:
        return lambda: False
    if hasattr(cancel, "is_set"):
        return cancel.is_set
    if hasattr(cancel, "cancelled"):
        return cancel.cancelled
    raise TypeError(f"a cancel handle is a threading.Event or has cancelled(), got {type(cancel).__name__}")
