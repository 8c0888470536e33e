"""One solve service for every front end: the command line, the app and batch ask a solo question one way.

Before it, each front end assembled the same steps (pick the map's solver, turn the settings into
budgets, cap the wall clock, record whether the cap bit); now each builds a `Scenario` (the question)
and `Settings` and calls `solve`, so the same request gives the same answer wherever it is asked.
Progress and cancel stay with the caller: `solver.progress` notes and `solver.interrupt` (Ctrl-C,
the app's Cancel) reach the solvers directly.
"""
from __future__ import annotations

import importlib

from solver import interrupt
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


def solve(scenario: Scenario, settings: Settings, start: Node | None = None, capped: bool = True) -> Answer:
    """The answer to one question, every plan in it replayed by the referee.

    `start`: a position reached by a plan prefix (solver.solo.position.position_from). `capped`: stop
    the whole solve at `settings.time_limit` wall-clock seconds and record whether that bit
    (`answer.time_cap`); a batch passes False, since its runner keeps its own cap (solver/batch/wallcap.py)."""
    analyse = solver_for(scenario.name).analyse

    def run() -> Answer:
        return analyse(scenario, time_limit=settings.time_limit, budget=settings.budget, params=settings.params(),
                       start=start)

    if not capped:
        return run()
    with interrupt.wall_clock_cap(settings.cap_seconds()) as cap:
        answer = run()
    answer.time_cap = settings.cap_record(cap)
    return answer
