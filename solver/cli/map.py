"""`aos-solve map validate|show|render` and `aos-solve check-plan`."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from solver.board.errors import InputError
from solver.games import board_warnings, load_instance
from solver.report.words import cubes_left
from solver.report.output import assumptions_block, assumptions_json, check_output_path, dumps, write_atomic

map_app = typer.Typer(help="Validate, show and draw board files.", no_args_is_help=True)

INSTANCE = typer.Argument(..., help="Board and scenario file (TOML), e.g. instances/easter-island.toml.")


@map_app.command("validate")
def validate(instance: Path = INSTANCE,
             json_out: bool = typer.Option(False, "--json", help="Print the result as JSON.")) -> None:
    """Check a board file: every key, every feature's hex, every provenance tag."""
    inst = load_instance(instance)
    b = inst.board
    counts = {"hexes_on_map": sum(1 for h in b.terrain if b.on_map(h)), "cities": len(b.cities),
              "towns": len(b.towns), "exits": len(b.exits), "areas": len(b.areas),
              "impassable_sides": len(b.impassable), "public_track": len(b.public_track),
              "nodes": len(b.nodes), "edges": len(b.edges), "difficulties": list(inst.difficulties),
              "values_with_provenance": len(inst.provenance), "assumed": len(inst.assumptions())}
    # Every position no sheet or printed board states (the geometry of a reconstruction), with its reason.
    positions = [p for p in inst.assumptions() if not p.key.startswith(("scenario.", "map_rules.", "difficulty."))]
    warnings = board_warnings(inst)
    if json_out:
        typer.echo(dumps({"file": str(instance), "valid": True, "map": b.name, **counts,
                          "assumed_positions": [p.to_json() for p in positions], "warnings": warnings}))
        return
    typer.echo(f"{instance}: valid ({b.name})")
    for warning in warnings:
        typer.echo(f"  warning: {warning}")
    for k, v in counts.items():
        typer.echo(f"  {k.replace('_', ' ')}: {v if not isinstance(v, list) else ', '.join(v) or '-'}")
    typer.echo(f"  assumed positions: {len(positions) or '-'}")
    from solver.board.provenance import grouped
    for what, note in grouped(inst, [(p.key, p.note) for p in positions]):
        typer.echo(f"    {what}: {note}")


@map_app.command("show")
def show(instance: Path = INSTANCE,
         json_out: bool = typer.Option(False, "--json", help="Print the board as JSON.")) -> None:
    """Print the board as text: a picture with features marked, and the feature tables."""
    inst = load_instance(instance)
    b = inst.board
    data = {
        "map": b.name,
        "terrain": {str(h): t for h, t in sorted(b.terrain.items(), key=lambda item: (item[0].row, item[0].col))
                    if t != "off-map"},
        "cities": [{"hex": str(h), "name": c.name, "colour": c.colour, "number": c.number, "danger": c.danger,
                    "region": c.region} for h, c in sorted(b.cities.items())],
        "towns": [{"hex": str(h), "name": t.name} for h, t in sorted(b.towns.items())],
        "exits": [{"hex": str(h), "name": e.name} for h, e in sorted(b.exits.items())],
        "areas": [{"kind": a.kind, "name": a.name, "hexes": [str(h) for h in a.hexes], "colour": a.colour,
                   "numbers": list(a.numbers)} for a in b.areas],
        "impassable": [sorted(str(h) for h in side) for side in sorted(b.impassable, key=sorted)],
        "public_track": ["-".join(str(h) for h in path) for path in b.public_track],
        "nodes": list(b.nodes), "edges": [list(e) for e in b.edges],
        **assumptions_json(inst),
    }
    if json_out:
        typer.echo(dumps(data))
        return
    typer.echo(f"{b.name}")
    if b.terrain:
        typer.echo("Legend: . plain  ~ river  ^ mountain  w water  C city  t town  E exit  O organ/zone")
        typer.echo(_picture(b))
    for kind in ("cities", "towns", "exits", "areas"):
        if data[kind]:
            typer.echo(f"{kind.capitalize()}:")
            for row in data[kind]:
                typer.echo("  " + ", ".join(f"{k} {' '.join(v) if isinstance(v, list) else v}"
                                            for k, v in row.items() if v not in (None, "", [])))
    if data["impassable"]:
        typer.echo("Impassable hexsides: " + "; ".join("|".join(s) for s in data["impassable"]))
    if data["public_track"]:
        typer.echo("Public track: " + "; ".join(data["public_track"]))
    if b.nodes:
        typer.echo(f"Nodes ({len(b.nodes)}): {', '.join(b.nodes)}")
        typer.echo(f"Edges ({len(b.edges)}): " + "; ".join(f"{a}-{c}" for a, c in b.edges))
    typer.echo("\n".join(assumptions_block(inst)))


def _picture(b) -> str:
    cols = max(h.col for h in b.terrain) + 1
    rows = max(h.row for h in b.terrain) + 1
    letter = {"plain": ".", "river": "~", "mountain": "^", "water": "w", "off-map": " "}
    area_hexes = {h for a in b.areas for h in a.hexes}
    lines = ["    " + " ".join(_col_name(c) for c in range(cols))]
    for r in range(rows):
        cells = []
        for c in range(cols):
            from solver.board.hexgrid import Hex
            h = Hex(c, r)
            ch = letter[b.terrain.get(h, "off-map")]
            if h in b.cities:
                ch = "C"
            elif h in b.towns:
                ch = "t"
            elif h in b.exits:
                ch = "E"
            elif h in area_hexes:
                ch = "O"
            cells.append(ch)
        lines.append(f"{r + 1:>3} " + (" " if r % 2 else "") + " ".join(cells))
    return "\n".join(lines)


def _col_name(c: int) -> str:
    from solver.board.hexgrid import Hex
    return Hex(c, 0).name[:-1][-1]


@map_app.command("render")
def render(instance: Path = INSTANCE,
           out: Path = typer.Option(..., "-o", "--out", help="SVG file to write."),
           plan: Optional[Path] = typer.Option(None, "--plan", help="Draw the track and shipments of this plan."),
           json_out: bool = typer.Option(False, "--json", help="Print what was written as JSON.")) -> None:
    """Draw the board as SVG (with --plan: its final track, cubes and shipments)."""
    from solver.report.render import render_board
    check_output_path(out, "--out")
    inst = load_instance(instance)
    state, ships = None, []
    if plan is not None:
        from solver.engine.plan import load_plan, replay, round_moves
        p = load_plan(str(plan), inst)
        result = replay(inst, p)
        if result.error:
            raise InputError(f"the plan is not legal: {result.error}", str(plan))
        state = result.state
        from solver.engine.moves import Ship
        for i, rnd in enumerate(p.rounds, 1):
            for step in round_moves(rnd, i):
                if isinstance(step.move, Ship):
                    ships.append((step.move.route, step.move.teleports))
    write_atomic(out, render_board(inst, state, ships))
    if json_out:
        typer.echo(dumps({"wrote": str(out), "map": inst.board.name, "plan": str(plan) if plan else None,
                          "shipments": len(ships)}))
    else:
        typer.echo(f"wrote {out}")


def check_plan(instance: Path = INSTANCE,
               plan: Path = typer.Argument(..., help="Plan file (JSON) to replay."),
               difficulty: Optional[str] = typer.Option(None, "--difficulty",
                                                        help="Check that the plan is for this difficulty."),
               reading: Optional[list[str]] = typer.Option(None, "--reading", help="Replay under this reading instead of the one the plan names, NAME=VALUE (repeatable)."),
               json_out: bool = typer.Option(False, "--json", help="Print the result as JSON.")) -> None:
    """Replay a plan through the rules engine under the readings it names: the end state, or the first illegal step
    and why (exit 1)."""
    from solver.engine.plan import load_plan, replay, reported_round
    from solver.engine.readings import parse_settings
    inst = load_instance(instance)
    if reading:
        parse_settings(reading, inst.scenario.ruleset)  # a bad --reading is named as such
    p = load_plan(str(plan), inst, reading)
    if difficulty is not None and difficulty != p.difficulty:
        raise InputError(f"the plan is for difficulty {p.difficulty!r}, not {difficulty!r}", "--difficulty")
    result = replay(inst, p)
    s = result.state
    shown, how = reported_round(result)
    # A replay reads every number the engine uses, so every assumption about the board and scenario counts.
    extra = []
    if p.round_limit is not None:
        extra.append({"key": "round_limit", "source": "assumed",
                      "note": f"the plan's round limit {p.round_limit} (the instance says {inst.scenario.rounds})"})
    # The plan names its cubes, so no bag is drawn from; a plan's own round limit replaces the round track.
    skip = {"bag"} | ({"rounds"} if p.round_limit is not None else set())
    uses = {"grid", "cities", "towns", "exits", "areas", "map_rules", f"difficulty.{p.difficulty}"} | {
        f"scenario.{k}" for k in inst.scenario.__dataclass_fields__ if k not in skip}
    data = {"legal": result.error is None, "error": result.error, "cleared": s.is_cleared(),
            "cleared_round": s.cleared_round, "round": shown, "round_is": how,
            "round_limit": s.last_round,
            "readings_overridden": [r for r in (reading or [])],
            "end": {**s.summary(), "round": shown, "next_round": s.round}, "rounds": result.round_states,
            "blocker_lock": result.lock,
            **assumptions_json(inst, p.rules, uses, extra)}
    if json_out:
        typer.echo(dumps(data))
    else:
        if result.error:
            typer.echo(f"ILLEGAL: {result.error}")
        else:
            verdict = f"cleared in round {s.cleared_round}" if s.cleared_round else (
                "not cleared (the game is lost)" if s.lost else "cleared" if s.is_cleared() else "not cleared")
            typer.echo(f"legal plan: {verdict}")
        typer.echo(f"{how} round {shown}: cash ${s.cash}, income {s.income}, "
                   f"shares {s.shares}, locomotive {s.locomotive}, spent on track ${s.spent_on_track}")
        typer.echo("cubes left (bottom first): " + cubes_left(inst.board, s.summary()["goods"]))
        if s.lost:
            typer.echo(f"game lost: {s.lost}")
        if s.after_clear:
            typer.echo("the rounds after the clear, as the referee played them out (reading end-of-game=round-track): "
                       + "; ".join(s.after_clear))
        if result.lock:
            typer.echo(result.lock_text())
        if reading:
            typer.echo("replayed under readings given on the command line instead of the plan's: "
                       + ", ".join(reading))
        typer.echo(f"round limit: {s.last_round}")
        typer.echo("\n".join(assumptions_block(inst, p.rules, uses, extra)))
    if result.error:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.add_typer(map_app, name="map")
    app.command("check-plan")(check_plan)
