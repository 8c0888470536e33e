"""The rooted arc model shared by the cut LP, the cut MIP and the flow MIP:
arc variables, objective, Koch-Martin rows, degree rows, reading a tree back,
and turning a solver's float bound into a safe integer bound.

Also how every OR-Tools solve of this package runs: SCIP must not take over
Ctrl-C (it would swallow it, print a notice on stdout and return its
incumbent as if the time limit had run out), so its `misc/catchctrlc` is off
and the solve runs in a worker thread (pywraplp releases the GIL) while the
main thread waits; a KeyboardInterrupt there interrupts the solver and is
raised again once it has stopped. Once the wall-clock cap of solver.interrupt
has run out (`past_cap`) the solve is interrupted too and returns what it had,
as at its own time limit (a bound, never a proof it did not finish).
"""
from __future__ import annotations

import math
import threading

from ortools.linear_solver import pywraplp

from solver import interrupt

from .paths import reach

SCIP_PARAMS = "limits/gap = 0\nlimits/absgap = 0\nmisc/catchctrlc = FALSE\n"


def scip(threads: int = 1):
    """A SCIP solver with a zero gap that leaves Ctrl-C to Python."""
    solver = pywraplp.Solver.CreateSolver("SCIP")
    if solver is None:  # pragma: no cover - SCIP ships with OR-Tools
        raise RuntimeError("OR-Tools was built without SCIP")
    solver.SetNumThreads(threads)
    solver.SetSolverSpecificParametersAsString(SCIP_PARAMS)
    return solver


def run(solver) -> int:
    """`solver.Solve()`, interruptible by Ctrl-C (see the module docstring).

    Off the main thread Python delivers no signals, so the solve runs there
    directly.
    """
    if threading.current_thread() is not threading.main_thread():
        return solver.Solve()
    box: dict = {}

    def work():
        try:
            box["status"] = solver.Solve()
        except BaseException as err:  # pragma: no cover - re-raised below
            box["error"] = err

    worker = threading.Thread(target=work, name="steiner-solve", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.05)
            if interrupt.past_cap():  # the caller's wall-clock cap (or the app's Cancel): stop, keep the bound
                solver.InterruptSolve()
                worker.join()
    except BaseException:
        solver.InterruptSolve()
        worker.join()
        raise
    if "error" in box:  # pragma: no cover
        raise box["error"]
    return box["status"]


def safe_bound(b: float | None) -> int | None:
    """Integer lower bound from a float bound on an integral objective.

    The margin is relative (1e-7 of the value, at least 1e-6): LP and MIP
    tolerances scale with the objective, so a fixed absolute margin is too
    tight at large values.
    """
    if b is None or math.isnan(b) or abs(b) >= 1e19:
        return None  # SCIP reports "no bound" as +-1e20
    return math.ceil(b - max(1e-6, 1e-7 * abs(b)))


class ArcModel:
    """Arc variables y of a Steiner tree rooted at `root` (no arc enters the
    root), in a pywraplp solver, with objective w(uv) + cost(v) on arc u->v:
    every tree node but the root has exactly one entering arc, so node costs
    are paid once; the root's cost is a constant outside the objective.

    `edges` are (u, v, w) triples; arc a = (tail, head, edge index).
    """

    def __init__(self, solver, nodes, edges, cost, root, binary: bool, name: str = ""):
        self.solver = solver
        self.nodes = nodes
        self.edges = edges
        self.cost = cost
        self.root = root
        self.arcs: list[tuple[int, int, int]] = []
        for i, (u, v, _w) in enumerate(edges):
            if v != root:
                self.arcs.append((u, v, i))
            if u != root:
                self.arcs.append((v, u, i))
        if binary:
            self.y = [solver.BoolVar(f"{name}{a}" if name else "") for a in range(len(self.arcs))]
        else:
            self.y = [solver.NumVar(0.0, 1.0, "") for _ in self.arcs]
        self.arc_of = {(s, h): a for a, (s, h, _i) in enumerate(self.arcs)}
        self.into: dict[int, list[int]] = {v: [] for v in nodes}
        self.out: dict[int, list[int]] = {v: [] for v in nodes}
        for a, (s, h, _i) in enumerate(self.arcs):
            self.out[s].append(a)
            self.into[h].append(a)
        self.objective = solver.Objective()
        for a, (s, h, i) in enumerate(self.arcs):
            self.objective.SetCoefficient(self.y[a], edges[i][2] + cost[h])
        self.objective.SetMinimization()

    def koch_martin_rows(self, terminals) -> None:
        """Valid inequalities of the rooted model: in-degree 1 at terminals
        and <= 1 elsewhere, a Steiner node that is entered must be left (no
        useless leaves), an arc out of a node only if it is entered, and at
        most one direction of each edge."""
        solver, y = self.solver, self.y
        is_term = set(terminals)
        for v in self.nodes:
            if v == self.root:
                continue
            indeg = solver.Sum([y[a] for a in self.into[v]])
            if v in is_term:
                solver.Add(indeg == 1)
            else:
                solver.Add(indeg <= 1)
                solver.Add(indeg <= solver.Sum([y[a] for a in self.out[v]]))
                for a in self.out[v]:
                    solver.Add(y[a] <= indeg)
        pair: dict[int, list[int]] = {}
        for a, (_s, _h, i) in enumerate(self.arcs):
            pair.setdefault(i, []).append(a)
        for arcs_of in pair.values():
            if len(arcs_of) == 2:
                solver.Add(y[arcs_of[0]] + y[arcs_of[1]] <= 1)

    def degree_rows(self, max_deg: dict[int, int] | None) -> None:
        """Tree degree <= bound, written for the rooted model.

        A non-root node has one entering arc when it is in the tree, so its
        leaving arcs number at most (bound - 1) times its in-degree. This is
        much tighter in the LP than in + out <= bound: with bound 2 (a plain
        track hex) the flow cannot fan out at the node even fractionally
        (measured on a random 104-hex board: 31 s -> 1 s).
        """
        solver = self.solver
        for v, bound in (max_deg or {}).items():
            if v not in self.into:
                continue
            y_out = solver.Sum([self.y[a] for a in self.out[v]])
            if v == self.root:
                solver.Add(y_out <= bound)
                continue
            indeg = solver.Sum([self.y[a] for a in self.into[v]])
            solver.Add(indeg + y_out <= bound)
            solver.Add(y_out <= (bound - 1) * indeg)

    def bound(self) -> int | None:
        """Safe integer lower bound from the solver's dual bound (root cost added)."""
        return safe_bound(self.objective.BestBound() + self.cost[self.root])

    def chosen(self) -> list[int]:
        """Arcs set to one in the solver's solution."""
        return [a for a in range(len(self.arcs)) if self.y[a].solution_value() > 0.5]

    def reach_tree(self, chosen: list[int]) -> tuple[set, list[int]]:
        """What the root reaches through `chosen` arcs, and the edge indices
        of that search tree, sorted (free arcs off it may be switched on too)."""
        out: dict[int, list[int]] = {}
        for a in chosen:
            out.setdefault(self.arcs[a][0], []).append(self.arcs[a][1])
        parent: dict = {}
        seen = reach([self.root], lambda x: out.get(x, ()), parent)
        return seen, sorted({self.arcs[self.arc_of[(p, h)]][2] for h, p in parent.items()})

    def hint_arcs(self, parent: dict) -> set[int]:
        """Arc indices of a tree given as node -> parent (the root its own)."""
        return {self.arc_of[(p, z)] for z, p in parent.items() if z != self.root and (p, z) in self.arc_of}
