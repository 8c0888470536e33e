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
from solver.multi.provenance import as_json, block, readings, used_assumptions
from solver.multi.turn import LOOK_AHEAD, OBJECTIVE
from solver.report.output import dumps
from solver.report.words import plural


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
    _rank_by_turn(state, rows)
    return rows


def _rank_by_turn(state, rows) -> None:
    """Best first by the best whole shipping phase that starts with the delivery (solver/multi/turn.py):
    under Boom or Bust a long delivery first can forbid the second, so single incomes mislead."""
    from solver.multi.turn import first_step_values
    values = {str(m): v for m, v in first_step_values(state).items()}
    for row in rows:
        income, cash = values[row["move"]]
        row["best_turn_after"] = {"income": income, "cash": cash}
    rows.sort(key=lambda r: (-r["best_turn_after"]["income"], -r["best_turn_after"]["cash"], -r["income"],
                             r["cost"], r["links"], r["route"], r["good"]))


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
            from solver.multi.turn import step_text
            typer.echo(("LEGAL: " if problem is None else "ILLEGAL: ") + step_text(state, move)
                       + (f"\n  {plural(data['links'], 'link')}, income +{data['income']}; {data['limit']}"
                          if problem is None else f"\n  rule: {problem}"))
        raise typer.Exit(0 if problem is None else 1)
    rows = delivery_rows(state)
    assumed, reads = used_assumptions(inst, "deliveries"), readings(inst)
    data = {"map": inst.board.name, "active": state.active, "round": state.round, "players": state.player_count,
            "link_capacity": state.locomotive, "notes": rs.header(state), "deliveries": rows,
            "ranked_by": "the best shipping phase that starts with the delivery: " + OBJECTIVE,
            "instead_of_a_delivery": rs.options(state), **as_json(assumed, reads)}
    if json_out:
        typer.echo(dumps(data))
        return
    typer.echo(f"Deliveries for {state.active} on {inst.board.name}, round {state.round} "
               f"({state.player_count} players), up to {plural(state.locomotive, 'link')}:")
    for note in rs.header(state):
        typer.echo(f"  {note}")
    if not rows:
        typer.echo("  no legal delivery")
    else:
        typer.echo("  ranked by the best whole shipping phase that starts with the delivery (see `turn`)")
    for i, row in enumerate(rows, 1):
        others = "".join(f", {k} +{v}" for k, v in row["others_income"].items())
        public = f", {row['public_links']} public (no income)" if row["public_links"] else ""
        cost = f", costs ${row['cost']}" if row["cost"] else ""
        best = row["best_turn_after"]
        route = row["route"][0] + "".join((" ~ " if j in row["transfers"] else " > ") + stop
                                          for j, stop in enumerate(row["route"][1:]))
        typer.echo(f"  {i}. {row['good']} {route}: {plural(row['links'], 'link')}, income "
                   f"+{row['income']}{public}{others}{cost}; best turn from it: income {best['income']}, "
                   f"${best['cash']}")
        typer.echo(f"     limit: {row['limit']}")
        for effect in row["effects"]:
            typer.echo(f"     then: {effect}")
    for option in rs.options(state):
        typer.echo(f"  instead: {option}")
    typer.echo("\n".join(block(assumed, reads, inst)))


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
    good: Optional[str] = typer.Option(None, "--good", help="Price a route this colour of good can travel from "
                                       "the first stop to the second: it may not pass a stop that would take it."),
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
    notes += rs.restrict_build(inst, g, max_degree, terminals)
    whole = g.copy()  # before --good drops stops: its cheapest network bounds every build from below
    dropped: list = []
    if good is not None:
        dropped, good_notes = _good_route_only(inst, rs, state, g, terminals, stops, good)
        notes += good_notes
    elif len(stops) == 2:
        notes.append("priced for joining the stops, not for one good: a good must stop at the first city of its "
                     "colour on the way (--good COLOUR prices a route that good can travel)")
    key = ("multi", rs.name, str(state_file) if state_file else None, good,
           tuple(sorted((str(n), d.get("cost", 0)) for n, d in g.nodes(data=True))),
           tuple(sorted((str(a), str(b), d.get("weight", 0)) for a, b, d in g.edges(data=True))))
    net = cheapest_network(inst, terminals, time_limit=time_limit, graph=(g, max_degree), graph_key=key,
                           is_stop=rs.is_build_stop(inst))
    cost, bound, adjust_notes = rs.adjust_build_cost(inst, net, state, graph=(g, max_degree),
                                                     terminals=terminals, time_limit=time_limit)
    if dropped and len(terminals) > len(stops) and net.status == "optimal":
        # The good travels only between the two stops named; the branch to the other terminals (Kansas
        # City) could pass a dropped stop, so the network avoiding them all is a restriction. The cheapest
        # network of the whole graph is a relaxation: its cost bounds every build from below.
        relaxed = cheapest_network(inst, terminals, time_limit=time_limit, graph=(whole, max_degree),
                                   graph_key=key[:3] + ("whole",) + key[4:], is_stop=rs.is_build_stop(inst))
        if relaxed.status == "optimal" and relaxed.cost is not None and cost is not None:
            notes.append(f"the branch to {', '.join(inst.board.label(h) for h in terminals if h not in stops)} "
                         "may not pass those stops either; the cheapest network allowed to pass them costs "
                         f"${relaxed.cost}, a lower bound")
            bound = min(bound, relaxed.cost) if bound is not None else relaxed.cost
        else:
            bound = None
    status = net.status
    if status == "optimal" and cost is not None and bound != cost:
        status = "feasible"
    space = rs.build_search_space(inst, state)
    proof = {"optimal": "proven minimum (lower bound = cost)",
             "feasible": f"best found, not proven; lower bound ${bound}",
             "infeasible": "no build can join them (proven)"}[status]
    label = inst.board.label
    built, net_links = rs.network_pieces(inst, state, g, net)
    unit = "disc" if inst.board.nodes else "tile"
    data = {"map": inst.board.name, "connect": [label(h) for h in stops],
            "also_joins": [label(h) for h in terminals if h not in stops], "status": status, "cost": cost,
            "lower_bound": bound, "search_space": space, "optimizer_cost": net.cost,
            f"{unit}s": [str(h) for h in built],
            "links": ["-".join(str(h) for h in link) for link in net_links] if not inst.board.nodes else [],
            "notes": term_notes + notes + adjust_notes, "seconds": round(net.seconds, 3), "method": net.method,
            **({"active": state.active} if state is not None else {}),
            **as_json(used_assumptions(inst, "build"), readings(inst))}
    if json_out:
        typer.echo(dumps(data))
        return
    who = f" for {state.active}" if state is not None else ""
    typer.echo(f"Cheapest build{who} joining {', '.join(data['connect'])} on {inst.board.name}:")
    if cost is None:
        typer.echo(f"  {proof}")
    else:
        typer.echo(f"  cost ${cost} ({proof}), {plural(len(built), unit)}: {', '.join(map(str, built)) or '-'}")
        typer.echo(f"  {'minimum' if status == 'optimal' else 'bound'} over: {space}")
    for link in data["links"]:
        typer.echo(f"  link {link}")
    for note in data["notes"]:
        typer.echo(f"  note: {note}")
    typer.echo("\n".join(block(used_assumptions(inst, "build"), readings(inst), inst)))


def _good_route_only(inst, rs, state, g, terminals, stops, colour) -> tuple[list, list[str]]:
    """Keep only what a good of `colour` from stops[0] to stops[1] may travel: "It must stop at the first
    city of its own colour it reaches", so every other stop that would take it leaves the graph (a
    restriction: any route the good can use survives it)."""
    from solver.board.board import COLOURS
    if colour not in COLOURS:
        raise InputError(f"unknown colour {colour!r} (expected one of {', '.join(COLOURS)})", "--good")
    if len(stops) != 2:
        raise InputError(f"--good prices one route: name exactly two stops (from, to), not {len(stops)}", "--good")
    label = inst.board.label
    for extra in terminals:
        if extra not in stops and _takes(rs, _probe(inst, state), extra, colour):
            raise InputError(f"the network must also join {label(extra)}, which would take a {colour} good on the "
                             f"way; --good cannot price a route that must avoid a stop the network joins", "--good")
    probe = _probe(inst, state)
    dropped = [n for n in list(g.nodes) if n not in terminals and _takes(rs, probe, n, colour)]
    g.remove_nodes_from(dropped)
    if not dropped:
        return dropped, [f"no stop on the way takes a {colour} good"]
    return dropped, [f"a {colour} good would stop at {', '.join(label(n) for n in dropped)}, so the route avoids "
                     + ("it" if len(dropped) == 1 else "them")]


def _probe(inst, state):
    """The state whose stops are asked whether they take a good (without a STATE file: the setup)."""
    if state is not None:
        return state
    from solver.multi.state import MultiState
    from solver.engine.state import Rules
    probe = MultiState(instance=inst, rules=Rules(), goods={}, phase="ship",
                       area_stops={a.hexes[0]: a for a in inst.board.areas})
    probe.goods = {a.hexes[0]: ["setup"] for a in inst.board.areas}  # zones hold goods at setup
    return probe


def _takes(rs, state, node, colour) -> bool:
    try:
        return bool(state.is_stop(node)) and rs.accepts(state, node, colour)
    except (KeyError, AttributeError):
        return False


def turn(
    board: Path = typer.Argument(..., help="Board file of a multiplayer map, e.g. instances/kansas-city.toml."),
    state_file: Path = typer.Option(..., "--state", help="STATE file (TOML): players, track, goods, markers."),
    player: Optional[str] = typer.Option(None, "--player", help="Whose turn to plan (default: game.active)."),
    runner_ups: int = typer.Option(3, "--runner-ups", min=0, help="How many other plans to show."),
    advice: bool = typer.Option(True, "--advice/--no-advice", help="Also give next turn's build advice."),
    horizon: int = typer.Option(1, "--horizon", min=1, max=2, help="1: this turn's shipping; 2: rank this "
                                "turn's plans by the best shipping of the next turn they leave (see the text)."),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """The best shipping phase (two steps, in order) proven by exhaustive search, then build advice."""
    from solver.multi.state import load_state
    from solver.multi.phases import advise
    from solver.multi.turn import IllegalTurn, difference, replay_turn, search_turn
    inst = load_instance(board)
    _ruleset(inst)
    state = load_state(inst, state_file)
    if player is not None:
        if player not in state.players:
            raise InputError(f"no player {player!r} in the state (players: {', '.join(state.players)})", "--player")
        state = _seat(state, player)
    from solver.multi.phases import BUILD_PHASES
    if state.turn_phase in BUILD_PHASES:
        return _build_turn(inst, state, state_file, runner_ups, json_out)
    try:
        answer = search_turn(state, runner_ups, horizon)
        best = replay_turn(state, answer.best.moves)   # the referee replays what is printed
        others = [replay_turn(state, r.moves) for r in answer.others]
    except IllegalTurn as err:
        raise InputError(f"no legal shipping phase: {err}", str(state_file)) from None
    tip = advise(best.state) if advice else None
    answers = ("deliveries", "build") if tip is not None and tip.status != "last-turn" else ("deliveries",)
    assumed, reads = used_assumptions(inst, *answers), readings(inst)
    data = {"map": inst.board.name, "player": state.active, "round": state.round,
            "phase": state.turn_phase, "horizon": horizon,
            "objective": OBJECTIVE, "proof": f"exhaustive: all {answer.sequences} legal {_steps_word(state)} "
            "compared exactly", "best": best.to_json(), "order_matters": answer.order_note,
            "look_ahead": _ahead_json(answer) if horizon >= 2 else None,
            "runner_ups": [{**r.to_json(), "difference": difference(best, r)} for r in others],
            "build_advice": tip.to_json() if tip is not None else None, **as_json(assumed, reads)}
    if json_out:
        typer.echo(dumps(data))
        return
    what = "Best shipping phase" if state.turn_phase != "shipping-second" else "Best second shipping step"
    typer.echo(f"{what} for {state.active} on {inst.board.name}, round {state.round}, phase "
               f"{state.turn_phase} (proven: all {answer.sequences} legal {_steps_word(state)} compared)")
    typer.echo(f"  best = {OBJECTIVE}")
    if horizon >= 2:
        _print_ahead(answer)
    for note in state.ruleset.header(state):
        typer.echo(f"  {note}")
    _print_steps(best)
    if answer.order_note:
        typer.echo(f"  order matters: {answer.order_note}")
    acc = best.accounts
    typer.echo(f"  income {best.income_before} -> {best.income_after_shipping} after shipping; collect "
               f"${acc['income_collected']}, expenses ${acc['expenses']}"
               + (f" (shortfall ${acc['shortfall']} lowers income)" if acc["shortfall"] else "")
               + f", income reduction {acc['income_reduction']}: income {acc['income']}, cash "
               f"${best.cash_before} -> ${acc['cash']}")
    for effect in best.end_effects:
        typer.echo(f"  after the turn: {effect}")
    if others:
        typer.echo("  runner-up plans:")
        for r in others:
            tie = " (tied)" if r.key == best.key else ""
            typer.echo(f"    - {' ; '.join(s.text for s in r.steps)}: income {r.key[0]}, ${r.key[1]} "
                       f"({difference(best, r)}){tie}")
    if tip is not None:
        _print_advice(tip)
    typer.echo("\n".join(block(assumed, reads, inst)))


def _build_turn(inst, state, state_file, runner_ups: int, json_out: bool) -> None:
    """game.phase build or before-actions: the best build (Portugal's first turn: with the free simple track),
    then the best shipping phase after it (solver/multi/phases.py)."""
    from solver.multi.phases import SEARCHED, search_build_turn
    from solver.multi.turn import IllegalTurn
    try:
        plan = search_build_turn(state, runner_ups)
    except IllegalTurn as err:
        raise InputError(f"no legal shipping phase: {err}", str(state_file)) from None
    best = plan.result
    proof = (f"exhaustive over {plan.builds_judged} builds judged by the rules, each with every legal two-step "
             "shipping after it" if not plan.capped else
             f"best found, not proven: only the {plan.builds_judged} cheapest builds were judged")
    assumed, reads = used_assumptions(inst, "deliveries", "build"), readings(inst)
    data = {"map": inst.board.name, "player": state.active, "round": state.round, "phase": state.turn_phase,
            "objective": OBJECTIVE, "proof": proof, "searched": SEARCHED,
            "build": {"cost": plan.build_cost, "free_track_saves": plan.free_saved, plan.unit + "s": plan.pieces,
                      "links": plan.links, "limit": plan.limit},
            "best": best.to_json(),
            "runner_ups": [{"build": b, "build_cost": c, "income_after_turn": k[0], "cash_after_turn": k[1]}
                           for c, b, k in plan.others], **as_json(assumed, reads)}
    if json_out:
        typer.echo(dumps(data))
        return
    typer.echo(f"Best turn for {state.active} on {inst.board.name}, round {state.round}, from phase "
               f"{state.turn_phase}: build, then ship ({proof})")
    typer.echo(f"  best = {OBJECTIVE}; the build is paid from cash")
    for note in state.ruleset.header(state):
        typer.echo(f"  {note}")
    if plan.links:
        free = f", the free simple track saves ${plan.free_saved}" if plan.free_saved else ""
        typer.echo(f"  build ${plan.build_cost}{free} ({plural(len(plan.pieces), plan.unit)}, limit {plan.limit}): "
                   f"{', '.join(plan.pieces)}")
        for link in plan.links:
            typer.echo(f"    new: {link}")
    else:
        typer.echo("  build nothing")
    _print_steps(best)
    acc = best.accounts
    typer.echo(f"  income {best.income_before} -> {best.income_after_shipping} after shipping; collect "
               f"${acc['income_collected']}, expenses ${acc['expenses']}"
               + (f" (shortfall ${acc['shortfall']} lowers income)" if acc["shortfall"] else "")
               + f", income reduction {acc['income_reduction']}: income {acc['income']}, cash "
               f"${best.cash_before} -> ${acc['cash']}")
    for c, b, k in plan.others:
        typer.echo(f"    - {' + '.join(b)} (${c}): income {k[0]}, ${k[1]}")
    typer.echo(f"  {SEARCHED}")
    typer.echo("\n".join(block(assumed, reads, inst)))


def _steps_word(state) -> str:
    from solver.multi.turn import steps_left
    return "two-step sequences" if steps_left(state) == 2 else "single steps (the first step is done)"


def _ahead_json(answer) -> dict:
    best = answer.best
    return {"searched": LOOK_AHEAD, "next_turn_sequences": answer.next_sequences,
            "income_after_next_turn": best.ahead[0][0], "cash_after_next_turn": best.ahead[0][1],
            "next_turn_moves": [str(m) for m in best.ahead[1]],
            "next_turn_steps": _next_turn_words(best),
            "differs_from_this_turn_best": answer.myopic_best is not None,
            "this_turn_best": answer.myopic_best.to_json() if answer.myopic_best is not None else None,
            "this_turn_best_after_next_turn": list(answer.myopic_best.ahead[0]) if answer.myopic_best else None}


def _next_turn_words(result) -> list[str]:
    """Next turn's steps of the look-ahead in words, each from the position the one before leaves."""
    from solver.multi.advice import next_turn
    from solver.multi.turn import step_text
    st = next_turn(result.state)
    out = []
    for move in result.ahead[1]:
        out.append(step_text(st, move))
        st.ruleset.apply(st, move)
    return out


def _print_ahead(answer) -> None:
    best = answer.best
    typer.echo(f"  look-ahead (--horizon 2): ranked by income, then cash, after next turn's best shipping: "
               f"income {best.ahead[0][0]}, ${best.ahead[0][1]} ({answer.next_sequences} next-turn positions "
               "searched)")
    if best.ahead[1]:
        typer.echo(f"    next turn then: {'; then '.join(_next_turn_words(best))}")
    if answer.myopic_best is not None:
        m = answer.myopic_best
        typer.echo(f"    this turn alone would pick {' ; '.join(s.text for s in m.steps)} (income {m.key[0]}, "
                   f"${m.key[1]}), which leaves income {m.ahead[0][0]}, ${m.ahead[0][1]} after next turn")
    else:
        typer.echo("    the same plan is best for this turn alone")
    typer.echo(f"  {LOOK_AHEAD}")


def _seat(state, player: str):
    """The same position seen from another player's seat (whose links, cash and locomotive count). The
    state's action is the active player's; another seat's action is not known, so none is assumed."""
    other = state.clone()
    if player != state.active:
        other.action = None
    other.active = player
    me = other.players[player]
    other.cash, other.income, other.shares = me.cash, me.income, me.shares
    other.locomotive = other.ruleset.link_capacity(other)
    return other


def _print_steps(result) -> None:
    for i, step in enumerate(result.steps, 1):
        parts = []
        if step.links:
            parts.append(plural(step.links, "link"))
        if step.income or step.links:
            parts.append(f"income +{step.income}")
        parts += [f"{k} +{v}" for k, v in step.others.items()]
        if step.cost:
            parts.append(f"costs ${step.cost}")
        typer.echo(f"  {i}. {step.text}" + (f": {', '.join(parts)}" if parts else ""))
        for effect in step.effects:
            typer.echo(f"       then: {effect}")


def _print_advice(tip) -> None:
    typer.echo("Build advice for next turn" + (" (the final turn)" if tip.next_final_turn else "") + ":")
    if tip.status not in ("proven", "none"):
        for note in tip.notes:
            typer.echo(f"  {note}")
        return
    if tip.status == "proven":
        typer.echo(f"  build for ${tip.cost}, {plural(len(tip.pieces), tip.unit)}: {', '.join(tip.pieces) or '-'}")
        for link in tip.links:
            typer.echo(f"    new: {link}")
        typer.echo(f"  then ship: {tip.delivery or 'pass'}")
        typer.echo(f"  after next turn: income {tip.income}, cash ${tip.income_cash} "
                   f"(without building: income {tip.baseline}, cash ${tip.baseline_cash})")
    else:
        typer.echo(f"  build nothing; then ship: {tip.delivery or 'pass'}")
        typer.echo(f"  after next turn: income {tip.baseline}, cash ${tip.baseline_cash}")
    for note in tip.notes:
        typer.echo(f"  proof: {note}")


def register(app: typer.Typer) -> None:
    app.command("deliveries")(deliveries)
    app.command("build-cost")(build_cost)
    app.command("turn")(turn)
