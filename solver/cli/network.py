"""`aos-solve network`: the proven cheapest track joining stops on a board."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from solver.board.errors import InputError
from solver.games import load_instance
from solver.report.output import assumptions_block, assumptions_json, check_output_path, dumps, write_atomic

GROUPS = ("ruins", "cities", "animals", "all-stops")
# What a track cost reads of a board file: its geometry and the laying costs (no rounds, actions or cubes).
NETWORK_READS = {"grid", "cities", "towns", "exits", "impassable", "track", "scenario.track_cost"}


def resolve_stops(inst, connect: str) -> list:
    board = inst.board
    if connect in ("ruins", "cities", "animals"):
        return sorted(board.cities)
    if connect == "all-stops":
        return sorted(list(board.cities) + list(board.towns) + list(board.exits))
    stops = []
    for name in connect.split(","):
        h = board.stop_by_name(name.strip())
        if h is None:
            raise InputError(f"{name.strip()!r} is not a stop on {board.name} (give stop names or hexes, "
                             f"or one of {', '.join(GROUPS)})", "--connect")
        stops.append(h)
    if len(set(stops)) < 2:
        raise InputError("name at least two different stops to join", "--connect")
    return sorted(set(stops))


def network(
    instance: Path = typer.Argument(..., help="Board and scenario file."),
    connect: str = typer.Option("ruins", "--connect", help="ruins (all cities), all-stops, or a comma list of stop names or hexes."),
    time_limit: float = typer.Option(60.0, "--time-limit", min=0.1, help="Seconds for the optimizer."),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Draw the network."),
) -> None:
    """The cheapest track joining the stops, under the scenario's terrain costs, impassable sides and towns."""
    from models.network import cheapest_network
    check_output_path(svg, "--svg")
    inst = load_instance(instance)
    stops = resolve_stops(inst, connect)
    net = cheapest_network(inst, stops, time_limit=time_limit)
    proof = {"optimal": "proven minimum (lower bound = cost)", "feasible": f"best found; lower bound ${net.lower_bound}",
             "infeasible": "no network can join them (proven)",
             "unknown": "no network found within the time limit (not proven that none exists)"}.get(
                 net.status, net.status)
    data = {"map": inst.board.name, "connect": [str(h) for h in stops], "status": net.status, "cost": net.cost,
            "lower_bound": net.lower_bound, "tiles": net.tiles, "hexes": [str(h) for h in net.hexes],
            "links": ["-".join(str(h) for h in link) for link in net.links], "seconds": round(net.seconds, 3),
            "method": net.method, **assumptions_json(inst, uses=NETWORK_READS)}
    if svg is not None:
        from solver.report.render import render_board
        from solver.engine.state import GameState
        state = GameState.new(inst, {})
        for link in net.links:
            for i in range(1, len(link) - 1):
                state.track[link[i]] = (link[i - 1], link[i + 1])
        write_atomic(svg, render_board(inst, state, (), title=f"{inst.board.name}: cheapest network, ${net.cost}"))
    if json_out:
        typer.echo(dumps(data))
        return
    typer.echo(f"Cheapest network joining {', '.join(inst.board.label(h) for h in stops)} on {inst.board.name}:")
    typer.echo(f"  cost ${net.cost} ({proof}), {net.tiles} tiles, {net.seconds:.2f} s")
    for link in data["links"]:
        typer.echo(f"  link {link}")
    typer.echo("\n".join(assumptions_block(inst, uses=NETWORK_READS)))


def register(app: typer.Typer) -> None:
    app.command("network")(network)
