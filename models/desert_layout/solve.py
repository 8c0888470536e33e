"""Solving the layout model: a settled hint, the (optionally deterministic) search, reading the layout back."""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import NamedTuple

from ortools.sat.python import cp_model

from solver import interrupt

from solver.desert.layout import Layout, PawnPlay, RoundPlay, TilePlay, token_allows
from solver.desert.missions import Challenge
from solver.desert.ruleset import Ruleset
from solver.desert.tiles import (
    DESERT,
    DIRS,
    EMPTY,
    HIGHWAY,
    PAWN_KINDS,
    RAILROAD,
    TRAIL,
    Tile,
    TileSet,
    neighbour,
    opposite,
)

from models.desert_layout.build import build_model
from models.desert_layout.problem import Cell, Item, LayoutModel, LayoutProblem, Opp


# ---------------------------------------------------------------------------- solving
@dataclass
class LayoutSolution:
    status: str  # "optimal", "feasible", "infeasible", "unknown"
    layout: Layout | None
    objective: int | None
    bound: float | None
    seconds: float
    columns: dict[int, int] = field(default_factory=dict)  # round -> column (1-based)
    terms: dict[str, int] = field(default_factory=dict)
    hinted: tuple | None = None
    from_hint: bool = False  # the search found nothing in time; this is the hint
    wall_capped: bool = False  # deterministic mode, but the wall-clock cap stopped the search (not reproducible)


def hint_from_layout(
    lm: LayoutModel, layout: Layout, time_limit: float = 10.0, deterministic: bool = False
) -> tuple[Layout, int] | None:
    """Hint every variable with a known legal layout (e.g. the online policy's).

    The model is first solved with the layout's tiles and pawns fixed (a copy of the
    model), which settles the orders, parents and flows; then every variable of the
    real model is hinted with that solution.  Returns the layout (as the model reads it
    back) and its objective, or None when the layout does not fit the model (e.g. outside
    the play-area box); then nothing is hinted.
    """
    layout = layout.normalised()
    fixed = lm.model.Clone()
    try:
        _fix_to(lm, layout, fixed)
    except ValueError:
        return None
    solver = interrupt.cp_solver()  # Ctrl-C stops it at once; never read as a time-out
    configure(solver, time_limit, 1, deterministic)
    if interrupt.solve_cp(solver, fixed) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    for i in range(len(lm.model.Proto().variables)):
        v = lm.model.GetIntVarFromProtoIndex(i)
        lm.model.AddHint(v, solver.Value(v))
    read_back, _ = extract(lm, solver)
    return read_back, int(solver.ObjectiveValue())


# In deterministic mode a wall-clock cap still stops a search that the machine's load
# slows down a lot (a guard against hangs, not a limit): this many times the limit, at
# least WALL_CAP_MIN seconds; a run it stops is marked as not reproducible.
WALL_CAP_FACTOR = 10.0
WALL_CAP_MIN = 60.0


def wall_cap(time_limit: float) -> float:
    return max(WALL_CAP_MIN, WALL_CAP_FACTOR * time_limit)


def configure(solver: cp_model.CpSolver, time_limit: float, workers: int, deterministic: bool) -> None:
    """Deterministic: one worker and the limit in CP-SAT's deterministic work units (about
    seconds of one idle core), so the answer depends only on the model; otherwise
    ``workers`` in parallel under a wall-clock limit (faster, not reproducible)."""
    if deterministic:
        solver.parameters.num_search_workers = 1
        solver.parameters.max_deterministic_time = time_limit
        solver.parameters.max_time_in_seconds = wall_cap(time_limit)
    else:
        solver.parameters.num_search_workers = workers
        solver.parameters.max_time_in_seconds = time_limit


def solve(
    problem: LayoutProblem,
    time_limit: float = 30.0,
    workers: int = 2,
    hint: Layout | None = None,
    fix: Layout | None = None,
    log: bool = False,
    deterministic_time: float | None = None,
    deterministic: bool = False,
) -> LayoutSolution:
    """Build and solve the model.  ``deterministic`` (or an explicit ``deterministic_time``,
    CP-SAT's own work measure) limits the search independently of the machine's load with
    one worker, so the answer is reproducible."""
    t0 = time.perf_counter()
    if deterministic_time is not None:
        deterministic, time_limit = True, deterministic_time
    lm = build_model(problem)
    hinted = None
    if hint is None and fix is None:
        # The start tile alone is always legal: a first solution to improve from.
        hint = Layout(start_at=(0, 0), start_rotation=0, rounds=[RoundPlay(o.round) for o in problem.offers])
    if hint is not None:
        hinted = hint_from_layout(lm, hint, time_limit=max(1.0, time_limit / 3), deterministic=deterministic)
    if fix is not None:
        _fix_to(lm, fix, lm.model)
    solver = interrupt.cp_solver()  # Ctrl-C stops it at once; never read as a time-out
    left = time_limit if deterministic else max(0.1, time_limit - (time.perf_counter() - t0))
    configure(solver, left, workers, deterministic)
    solver.parameters.log_search_progress = log
    # Probing in presolve can take the whole time limit on full games.
    solver.parameters.cp_model_probing_level = 0
    code = interrupt.solve_cp(solver, lm.model)
    secs = time.perf_counter() - t0
    capped = deterministic and solver.WallTime() >= 0.99 * wall_cap(left)
    status = {
        cp_model.OPTIMAL: "optimal",
        cp_model.FEASIBLE: "feasible",
        cp_model.INFEASIBLE: "infeasible",
    }.get(code, "unknown")
    if status in ("optimal", "feasible"):
        layout, cols = extract(lm, solver)
        terms = {k: int(solver.Value(v)) if not isinstance(v, int) else v for k, v in lm.terms.items()}
        return LayoutSolution(
            status, layout, int(solver.ObjectiveValue()), solver.BestObjectiveBound(), secs, cols, terms, hinted,
            wall_capped=capped,
        )
    # Without any solution (UNKNOWN) CP-SAT's objective bound is not meaningful.
    bound = None
    if hinted is not None and status == "unknown":
        # The search returned nothing in time; the hint is a known feasible answer.
        layout, objective = hinted
        return LayoutSolution("feasible", layout, objective, bound, secs, hinted=hinted, from_hint=True, wall_capped=capped)
    return LayoutSolution(status, None, None, bound, secs, hinted=hinted, wall_capped=capped)


def placement_counts(lm: LayoutModel, layout: Layout) -> dict:
    """(item, cell, model rotation) -> how many such placements the layout has (its tiles in the model's terms)."""
    ts = lm.problem.tileset
    want: dict = {}
    for rp in layout.rounds:
        col = (rp.column - 1) if rp.column and lm.problem.choose_columns else 0
        for tp in rp.tiles:
            tt = ts.get(tp.tile)
            ot = tt.rotated(tp.rotation)
            rot = next(o.rotation for o in tt.distinct_rotations if o.signature() == ot.signature())
            key = (Item(rp.number, col, tp.tile), tp.at, rot)
            want[key] = want.get(key, 0) + 1
    return want


def _fix_to(lm: LayoutModel, layout: Layout, model: cp_model.CpModel) -> None:
    """Force ``model`` (lm's model or a clone) to one layout's tiles, rotations and pawns."""
    p = lm.problem
    ts = p.tileset
    want = placement_counts(lm, layout)
    for key, v in lm.place.items():
        model.Add(v == want.get(key, 0))
    missing = [k for k in want if k not in lm.place]
    if missing:
        raise ValueError(f"layout does not fit the model: {missing[:3]}")
    if any(c not in lm.occupied for c in [layout.start_at] + [k[1] for k in want]):
        raise ValueError("layout does not fit the play-area box")
    if (layout.start_at, layout.start_rotation) not in lm.start:
        raise ValueError("start tile orientation not in the model")
    for (c, r), v in lm.start.items():
        model.Add(v == int(c == layout.start_at and r == layout.start_rotation))
    # pawns: the same opportunity, cell, route and kind
    tiles_at = {layout.start_at: ts.start.rotated(layout.start_rotation)}
    for rp in layout.rounds:
        for tp in rp.tiles:
            tiles_at[tp.at] = ts.get(tp.tile).rotated(tp.rotation)
    chosen = set()
    for rp in layout.rounds:
        slots = list(enumerate(p.offers[rp.number - 1].tokens))
        for pp in rp.pawns:
            t = tiles_at[pp.at]
            pin = t.pinpoints[pp.pinpoint]
            slot = next((s for s, tok in slots if tok == pp.token), None)
            if slot is None:
                raise ValueError(f"round {rp.number}: no {pp.token} token")
            slots.remove((slot, pp.token))
            chosen.add((Opp(rp.number, slot, pp.token), pp.at, t.routes[pin.route].rep, pin.pawn))
    for key, v in lm.pawn.items():
        model.Add(v == int(key in chosen))


def extract(lm: LayoutModel, solver: cp_model.CpSolver) -> tuple[Layout, dict[int, int]]:
    p = lm.problem
    ts = p.tileset
    val = solver.BooleanValue
    start_at, start_rot = next(k for k, v in lm.start.items() if val(v))
    layout = Layout(start_at=start_at, start_rotation=start_rot, challenge=p.challenge.id if p.challenge else None)
    cols: dict[int, int] = {}
    for off in p.offers:
        k = next((k for k in range(len(off.columns)) if val(lm.take[(off.round, k)])), 0)
        cols[off.round] = k + 1
    tiles_at: dict[Cell, Tile] = {start_at: ts.start.rotated(start_rot)}
    per_round: dict[int, list[tuple[int, TilePlay]]] = {}
    for (it, c, rot), v in lm.place.items():
        if val(v):
            per_round.setdefault(it.round, []).append((solver.Value(lm.order[c]), TilePlay(it.tile, c, rot)))
            tiles_at[c] = ts.get(it.tile).rotated(rot)
    used: set[tuple[Cell, int]] = set()
    for off in p.offers:
        rp = RoundPlay(number=off.round, column=cols[off.round] if p.choose_columns else None, tokens=list(off.tokens))
        rp.tiles = [tp for _, tp in sorted(per_round.get(off.round, []), key=lambda e: e[0])]
        for o in [o for o in lm.opps if o.round == off.round]:
            for (oo, c, d, kind), v in lm.pawn.items():
                if oo == o and val(v):
                    t = tiles_at[c]
                    idx = next(
                        i
                        for i, pin in enumerate(t.pinpoints)
                        if pin.pawn == kind and t.routes[pin.route].rep == d and (c, i) not in used
                    )
                    used.add((c, idx))
                    rp.pawns.append(PawnPlay(c, idx, o.token))
        layout.rounds.append(rp)
    return layout, cols

