"""Large-neighbourhood search with the layout model: better layouts, never a bound.

Starting from a legal layout (a policy's or the beam search's), each step pins every
round outside a window of consecutive rounds to the current layout (the column taken
and every tile's cell and rotation; the start tile too) and lets CP-SAT re-place the
window's rounds (their columns, tiles and order) and every pawn of the game.  Each step
is a RESTRICTION of the layout model, so what it finds is a legal game of the model;
it is kept only when the referee (the ``judge`` the caller passes) scores it higher than
the current layout.  Nothing here is an upper bound: a step's own bound says nothing
about the game, so it is never reported.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ortools.sat.python import cp_model

from solver import interrupt
from solver.desert.layout import Layout

from models.desert_layout.build import build_model
from models.desert_layout.problem import LayoutProblem
from models.desert_layout.solve import configure, extract, placement_counts, wall_cap

# Deterministic work units of one window's search (about seconds of one idle core).
WINDOW_UNITS = 4.0


@dataclass
class LnsResult:
    layout: Layout
    score: int  # the referee's
    steps: int = 0
    improved: int = 0  # steps whose layout the referee scored higher
    consistent: bool = True  # every step's referee score was at least the model's objective
    wall_capped: bool = False  # deterministic, but the wall-clock cap stopped a step: not reproducible
    log: list[tuple[tuple[int, ...], int | None, int | None]] = field(default_factory=list)  # (window, model, referee)


def windows(rounds: list[int], size: int = 2) -> list[tuple[int, ...]]:
    """Windows of ``size`` consecutive rounds, the last rounds first."""
    out = [tuple(rounds[i:i + size]) for i in range(len(rounds) - size + 1)]
    return list(reversed(out)) or [tuple(rounds)]


def _pin_outside(lm, layout: Layout, model: cp_model.CpModel, window: set[int]) -> None:
    """Pin ``model`` (a clone of lm's) to ``layout`` outside the window's rounds."""
    want = placement_counts(lm, layout)
    for rp in layout.rounds:
        col = (rp.column - 1) if rp.column and lm.problem.choose_columns else 0
        if rp.number not in window and lm.problem.choose_columns:
            for (r, k), v in lm.take.items():
                if r == rp.number:
                    model.Add(v == int(k == col))
    if any(key not in lm.place for key in want):
        raise ValueError("the layout does not fit the model")
    for (c, r), v in lm.start.items():
        model.Add(v == int(c == layout.start_at and r == layout.start_rotation))
    for key, v in lm.place.items():
        if key[0].round not in window:
            model.Add(v == want.get(key, 0))


def improve(
    problem: LayoutProblem,
    layout: Layout,
    judge: Callable[[Layout], int | None],
    units: float,
    window_units: float = WINDOW_UNITS,
    deterministic: bool = True,
    workers: int = 1,
) -> LnsResult:
    """Improve ``layout`` (normalised into the problem's box) for ``units`` of search in
    all, ``window_units`` a window; ``judge`` returns the referee's score of a layout, or
    None when it is illegal or misses the mission."""
    layout = layout.normalised()
    start = judge(layout)
    res = LnsResult(layout, start if start is not None else -10**9)
    lm = build_model(problem)
    rounds = sorted(o.round for o in problem.offers)
    order = windows(rounds)
    budget, i = units, 0
    while budget > 1e-9 and order:
        window = order[i % len(order)]
        i += 1
        model = lm.model.Clone()
        try:
            _pin_outside(lm, res.layout, model, set(window))
        except ValueError:
            break
        solver = interrupt.cp_solver()  # Ctrl-C stops it at once; never read as a time-out
        configure(solver, min(window_units, budget), workers, deterministic)
        solver.parameters.cp_model_probing_level = 0
        code = interrupt.solve_cp(solver, model)
        if deterministic and solver.WallTime() >= 0.99 * wall_cap(min(window_units, budget)):
            res.wall_capped = True
        budget -= min(window_units, budget)
        res.steps += 1
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            res.log.append((window, None, None))
            continue
        cand, _ = extract(lm, solver)
        if not problem.choose_columns:  # fixed columns: the ones the start layout took
            for rp, old in zip(cand.rounds, layout.rounds):
                rp.column = old.column
        objective = int(solver.ObjectiveValue())
        score = judge(cand)
        res.log.append((window, objective, score))
        if score is None or score < objective:
            res.consistent = False  # the model's line over the referee's: a modelling bug
            continue
        if score > res.score:
            res.layout, res.score = cand.normalised(), score
            res.improved += 1
    return res
