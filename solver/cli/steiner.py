"""`aos-solve steiner FILE.gr`: exact minimum Steiner tree of a PACE 2018 instance.

Prints the tree weight, the proof status and lower bound, the time and the
tree's edges (the file's node numbers). With --json the same as one JSON
object, for scripts and the benchmark checks.
"""
from __future__ import annotations

import json
import pathlib
from typing import Optional

import typer

from solver.board.errors import InputError

HELP = """Minimum Steiner tree of a PACE 2018 `.gr` file, with a proof of optimality.

Reads the graph and terminals, and prints the tree weight, the status
(`optimal` when the proven lower bound equals the weight, `feasible` when the
time limit stopped the proof first, `infeasible` when the terminals cannot be
joined), the lower bound, the seconds taken and the tree's edges as pairs of
the file's node numbers.

Exit code 2 with a one-line message for a malformed file.
"""


def register(app: typer.Typer) -> None:
    @app.command("steiner", help=HELP)
    def steiner(
        file: pathlib.Path = typer.Argument(..., help="Instance in PACE 2018 `.gr` format.", show_default=False),
        time_limit: Optional[float] = typer.Option(
            None, "--time-limit", min=0.001, metavar="SECONDS",
            help="Stop after this many seconds and report the best tree and bound (status `feasible`). Default: no limit.",
        ),
        as_json: bool = typer.Option(
            False, "--json",
            help="Print one JSON object with value, status, lower_bound, seconds, method and edges (a list of node-number pairs).",
        ),
    ) -> None:
        import time

        from models.steiner import solve_steiner
        from solver.board.pace import read_gr

        start = time.perf_counter()

        if file.is_dir():
            raise InputError("is a directory, expected a .gr file", str(file))
        inst = read_gr(file)
        result = solve_steiner(inst.graph(), inst.terminals, time_limit=time_limit)
        edges = sorted((min(u, v), max(u, v)) for u, v in result.edges)
        seconds = time.perf_counter() - start  # reading the file included
        if as_json:
            out = {
                "instance": file.name,
                "value": result.value,
                "status": result.status,
                "lower_bound": result.lower_bound,
                "seconds": round(seconds, 3),
                "method": result.method,
                "nodes": inst.n,
                "terminals": len(inst.terminals),
                "tree_edges": len(edges),
                "edges": [[u, v] for u, v in edges],
            }
            typer.echo(json.dumps(out))
            return
        typer.echo(f"instance:    {file}")
        typer.echo(f"value:       {result.value if result.value is not None else '-'}")
        typer.echo(f"status:      {result.status}")
        typer.echo(f"lower bound: {result.lower_bound if result.lower_bound is not None else '-'}")
        typer.echo(f"seconds:     {seconds:.3f}")
        typer.echo(f"method:      {result.method}")
        typer.echo(f"tree edges:  {len(edges)}")
        for u, v in edges:
            typer.echo(f"  {u} {v}")
