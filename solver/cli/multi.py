"""`aos-solve deliveries` and `aos-solve build-cost`: the multiplayer maps from one player's seat.

Both read a board file of a multiplayer map (Finland, Portugal, Synapses,
Human Body, Kansas City) and, where given, a STATE file (solver/multi/state.py).
Deliveries come from the shared shipment search (solver/engine/shipping.py) judged by
the map's ruleset (solver/engine/maps/ and solver/multi/maps/); build costs from the Steiner optimizer
(models/network.py) on the map's own cost graph.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from solver.board.errors import InputError
from solver.games import load_instance
from solver.report.output import assumptions_block, assumptions_json, dumps


def _ruleset(inst):
    from solver.multi.state import _ruleset as rs
    return rs(inst)


def delivery_rows(state) -> list[dict]:
    """Every legal delivery for the active player, best first (income gained, then fewer links)."""
    from solver.engine.shipping import shipments
    rs = state.ruleset
    rows = []
    for move in shipments(state):
        split = rs.income_split(state, move)
        links, _ = rs.locomotive_need(state, move)
        rows.append({
            "from": state.board.label(move.origin), "good": move.colour,
            "route": [state.board.label(h) for h in move.route],
            "transfers": list(move.teleports),
            "links": links,
            "income": split.get(state.active, 0),
            "public_links": split.get(None, 0),
            "others_income": {k: v for k, v in sorted(split.items(), key=lambda kv: str(kv[0]))
                              if k not in (None, state.active)},
            "cost": rs.delivery_cost(state, move),
            "limit": rs.limit_text(state, move),
            "effects": rs.effects(state, move),
            "move": str(move),
        })
    rows.sort(key=lambda r: (-r["income"], r["cost"], r["links"], r["route"], r["good"]))
    return rows


def _parse_check(state, text: str):
    """'COLOUR STOP>STOP>STOP' (a '~' instead of '>' marks an interurban transfer) -> Ship."""
    from solver.engine.moves import Ship
    from solver.multi.state import _StateReader, resolve_place, stop_index
    colour, _, route = text.strip().partition(" ")
    if not route:
        raise InputError("expected 'COLOUR STOP>STOP>...', e.g. 'blue Tampere>Espoo>Helsinki'", "--check")
    names, r = stop_index(state.instance), _StateReader("--check")
    stops, teleports, token = [], [], ""
    for ch in route.strip() + ">":
        if ch in ">~":
            stops.append(resolve_place(state.instance, names, token.strip(), r, "route"))
            if ch == "~":
                teleports.append(len(stops) - 1)
            token = ""
        else:
            token += ch
    return Ship(stops[0], colour, tuple(stops), tuple(teleports))


def deliveries(
    board: Path = typer.Argument(..., help="Board file of a multiplayer map, e.g. instances/finland.toml."),
    state_file: Path = typer.Option(..., "--state", help="STATE file (TOML): players, track, goods, markers."),
    check: Optional[str] = typer.Option(None, "--check", help="Judge one delivery: 'COLOUR STOP>STOP>...' "
                                        "('~' for a Kansas City interurban transfer); exit 1 when illegal."),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Every legal delivery for the active player: links, income gained and the rule that limits it, best first."""
    from solver.multi.state import load_state
    inst = load_instance(board)
    _ruleset(inst)
    state = load_state(inst, state_file)
    rs = state.ruleset
    if check is not None:
        move = _parse_check(state, check)
        problem = rs.shipment_problem(state, move)
        data = {"map": inst.board.name, "active": state.active, "move": str(move), "legal": problem is None,
                "rule": problem}
        if problem is None:
            split = rs.income_split(state, move)
            data.update(links=rs.locomotive_need(state, move)[0], income=split.get(state.active, 0),
                        limit=rs.limit_text(state, move), effects=rs.effects(state, move))
        if json_out:
            typer.echo(dumps(data))
        else:
            typer.echo(("LEGAL: " if problem is None else "ILLEGAL: ") + str(move)
                       + (f"\n  {data['links']} link(s), income +{data['income']}; {data['limit']}"
                          if problem is None else f"\n  rule: {problem}"))
        raise typer.Exit(0 if problem is None else 1)
    rows = delivery_rows(state)
    data = {"map": inst.board.name, "active": state.active, "round": state.round, "players": state.player_count,
            "link_capacity": state.locomotive, "notes": rs.header(state), "deliveries": rows,
            "instead_of_a_delivery": rs.options(state), **assumptions_json(inst)}
    if json_out:
        typer.echo(dumps(data))
        return
    typer.echo(f"Deliveries for {state.active} on {inst.board.name}, round {state.round} "
               f"({state.player_count} players), up to {state.locomotive} link(s):")
    for note in rs.header(state):
        typer.echo(f"  {note}")
    if not rows:
        typer.echo("  no legal delivery")
    for i, row in enumerate(rows, 1):
        others = "".join(f", {k} +{v}" for k, v in row["others_income"].items())
        public = f", {row['public_links']} public (no income)" if row["public_links"] else ""
        cost = f", costs ${row['cost']}" if row["cost"] else ""
        typer.echo(f"  {i}. {row['good']} {' > '.join(row['route'])}: {row['links']} link(s), income "
                   f"+{row['income']}{public}{others}{cost}")
        typer.echo(f"     limit: {row['limit']}")
        for effect in row["effects"]:
            typer.echo(f"     then: {effect}")
    for option in rs.options(state):
        typer.echo(f"  instead: {option}")
    typer.echo("\n".join(assumptions_block(inst)))


def _resolve_stops(inst, connect: str, state) -> list:
    from solver.multi.state import _StateReader, resolve_place, stop_index
    names, r = stop_index(inst), _StateReader("--connect")
    is_stop = _ruleset(inst).is_build_stop(inst)
    stops = []
    for name in connect.split(","):
        name = name.strip()
        try:
            stop = resolve_place(inst, names, name, r, "--connect")
        except InputError:
            raise InputError(f"{name!r} is not a stop of {inst.board.name}", "--connect") from None
        if not is_stop(stop):
            raise InputError(f"{name!r} is not a stop of {inst.board.name}", "--connect")
        stops.append(stop)
    if len(set(stops)) < 2:
        raise InputError("name at least two different stops to join, e.g. --connect Tampere,Lahti", "--connect")
    return list(dict.fromkeys(stops))


def build_cost(
    board: Path = typer.Argument(..., help="Board file of a multiplayer map."),
    connect: str = typer.Option(..., "--connect", help="Comma list of stops to join (names or hexes)."),
    state_file: Optional[Path] = typer.Option(None, "--state", help="STATE file: the active player's links "
                                              "are free and other players' track is in the way."),
    time_limit: float = typer.Option(60.0, "--time-limit", min=0.1, help="Seconds for the optimizer."),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """The cheapest build joining the stops under the map's costs, with the optimizer's proof status."""
    from solver.multi.state import load_state
    from models.network import cheapest_network
    inst = load_instance(board)
    rs = _ruleset(inst)
    state = load_state(inst, state_file) if state_file is not None else None
    stops = _resolve_stops(inst, connect, state)
    terminals, term_notes = rs.build_terminals(inst, stops, state)
    g, max_degree, notes = rs.build_graph(inst, state)
    key = ("multi", rs.name, str(state_file) if state_file else None,
           tuple(sorted((str(n), d.get("cost", 0)) for n, d in g.nodes(data=True))),
           tuple(sorted((str(a), str(b), d.get("weight", 0)) for a, b, d in g.edges(data=True))))
    net = cheapest_network(inst, terminals, time_limit=time_limit, graph=(g, max_degree), graph_key=key,
                           is_stop=rs.is_build_stop(inst))
    cost, bound, adjust_notes = rs.adjust_build_cost(inst, net, state)
    status = net.status
    if status == "optimal" and cost is not None and bound is not None and cost != bound:
        status = "feasible"
    proof = {"optimal": "proven minimum (lower bound = cost)",
             "feasible": f"best found, not proven; lower bound ${bound}",
             "infeasible": "no build can join them (proven)"}[status]
    label = inst.board.label
    built = [h for h in net.hexes]
    unit = "disc" if inst.board.nodes else "tile"
    data = {"map": inst.board.name, "connect": [label(h) for h in stops],
            "also_joins": [label(h) for h in terminals if h not in stops], "status": status, "cost": cost,
            "lower_bound": bound, "optimizer_cost": net.cost, f"{unit}s": [str(h) for h in built],
            "links": ["-".join(str(h) for h in link) for link in net.links] if not inst.board.nodes else [],
            "notes": term_notes + notes + adjust_notes, "seconds": round(net.seconds, 3), "method": net.method,
            **({"active": state.active} if state is not None else {}), **assumptions_json(inst)}
    if json_out:
        typer.echo(dumps(data))
        return
    who = f" for {state.active}" if state is not None else ""
    typer.echo(f"Cheapest build{who} joining {', '.join(data['connect'])} on {inst.board.name}:")
    if cost is None:
        typer.echo(f"  {proof}")
    else:
        typer.echo(f"  cost ${cost} ({proof}), {len(built)} {unit}(s): {', '.join(map(str, built)) or '-'}")
    for link in data["links"]:
        typer.echo(f"  link {link}")
    for note in data["notes"]:
        typer.echo(f"  note: {note}")
    typer.echo("\n".join(assumptions_block(inst)))


def register(app: typer.Typer) -> None:
    app.command("deliveries")(deliveries)
    app.command("build-cost")(build_cost)
