"""`aos-solve zoo` (the Zoo solver) and `aos-solve zoo routes` (which animals can be fed now)."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Optional

import typer

from solver.games import default_instance
from solver.cli.solo import (CP_TIME_OPT, CP_WORKERS_OPT, DETERMINISTIC_OPT, FROM_OPT, HTML_OPT, JSON_OPT, PLAN_OUT_OPT,
                             PROVE_OPT, PROVE_TIME_OPT, QUIET_OPT, READING_HELP, TIME_LIMIT_HELP, VERBOSE_OPT,
                             WORK_OPT, emit, solo_rules, solo_svg, write_html)
from solver import progress
from solver.board.errors import InputError
from solver.games import load_instance
from solver.report.output import check_output_path, dumps
from solver.solo.settings import Settings

zoo_app = typer.Typer(help="The Zoo solo map: verdict, minimum rounds with proof, a plan; `routes` for the feedings "
                           "a network allows.", no_args_is_help=False)


def _zoo_instance(path: Optional[Path]):
    inst = load_instance(path or default_instance("zoo"))
    if inst.scenario.ruleset != "zoo":
        raise InputError(f"this is a {inst.scenario.ruleset} board, not the Zoo", "--instance")
    return inst


def read_zoo_setup(inst, difficulty: str, seed: Optional[int], setup_file: Optional[Path], rules=None):
    """The food on each animal area: drawn with a seed (colours only; they do not matter) or read from a file.

    A file maps animal areas (name or hex) to a number of pieces of food, or to a
    list of cube colours as on the other maps: `Lion = 2` or `Lion = ["red", "blue"]`.
    """
    from solver.engine.setup import difficulty_of, draw_setup, read_setup_table, setup_from_mapping
    if seed is not None and setup_file is not None:
        raise InputError("give either --seed or --setup, not both", "--seed/--setup")
    if setup_file is None:
        seed = 1 if seed is None else seed
        return draw_setup(inst, difficulty, seed), seed  # food colours do not matter: no bag reading
    where = str(setup_file)
    table = read_setup_table(where)
    if not isinstance(table, dict):
        raise InputError("expected a table of animal area = pieces of food", where)
    difficulty_of(inst, difficulty)
    board, s = inst.board, inst.scenario
    names = ", ".join(c.name for _, c in sorted(board.cities.items()))
    per_area = s.food_per_area
    colours = sorted(s.bag)
    left = dict(s.bag)
    mapping: dict[str, list[str]] = {}
    for name, value in table.items():
        h = board.stop_by_name(str(name))
        if h is None or h not in board.cities:
            what = "an exit or a town" if h is not None else "not on the board"
            raise InputError(f"{name!r} is not an animal area of {board.name} ({what}); the animal areas are: {names}",
                             f"{where}, key '{name}'")
        if isinstance(value, bool) or not isinstance(value, (int, list)):
            raise InputError(f"expected a number of pieces of food (or a list of cube colours), got {value!r}",
                             f"{where}, key '{name}'")
        count = value if isinstance(value, int) else len(value)
        if count < 0:
            raise InputError(f"a number of pieces of food cannot be negative, got {count}", f"{where}, key '{name}'")
        if per_area and count > per_area:
            raise InputError(f"{count} pieces of food on {board.label(h)}, but the sheet places {per_area} on each "
                             f"animal area (\"Place {per_area} pieces of food (cubes) on each animal area\")",
                             f"{where}, key '{name}'")
        if isinstance(value, int):
            cubes = []
            for _ in range(count):  # any colours will do: food colour has no meaning in the Zoo
                colour = max(colours, key=lambda c: (left[c], c))
                left[colour] -= 1
                cubes.append(colour)
            value = cubes
        mapping[str(name)] = value
    return setup_from_mapping(inst, difficulty, mapping, where), None


@zoo_app.callback(invoke_without_command=True)
def zoo(
    ctx: typer.Context,
    difficulty: str = typer.Option("standard", "--difficulty", "-d", help="The instance's difficulty (the sheet has one: 2 food per area)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Draw the food's colours with this seed (default 1; colours do not matter in the Zoo)."),
    setup: Optional[Path] = typer.Option(None, "--setup", help="Read the food from a file (TOML or JSON: area = pieces of food, or a list of colours)."),
    rounds: Optional[int] = typer.Option(None, "--rounds", min=1, help="Round limit (default: the instance's)."),
    reading: Optional[list[str]] = typer.Option(None, "--reading", help=READING_HELP.replace(
        "bag=full", "exit-pairs=strict")),
    strict_exits: bool = typer.Option(False, "--strict-exits", help="Alias of --reading exit-pairs=strict: food entering an exit must teleport (the designer allows passing)."),
    literal_areas: Optional[bool] = typer.Option(None, "--literal-areas/--no-literal-areas", help="Alias of --reading feed-new-cities=on/off: urbanized areas must be fed too ('every animal area', literally; default) or not."),
    time_limit: float = typer.Option(Settings.time_limit, "--time-limit", min=0.1, help=TIME_LIMIT_HELP),
    json_out: bool = JSON_OPT,
    verbose: bool = VERBOSE_OPT,
    quiet: bool = QUIET_OPT,
    svg: Optional[Path] = typer.Option(None, "--svg", help="Draw the plan's network, feedings and teleports (dashed)."),
    plan_out: Optional[Path] = PLAN_OUT_OPT,
    html: Optional[Path] = HTML_OPT,
    instance: Optional[Path] = typer.Option(None, "--instance", help="Board file (default instances/zoo.toml)."),
    from_file: Optional[Path] = FROM_OPT,
    deterministic: bool = DETERMINISTIC_OPT,
    work: int = WORK_OPT,
    cp_time: float = CP_TIME_OPT,
    cp_workers: int = CP_WORKERS_OPT,
    prove: bool = PROVE_OPT,
    prove_time: float = PROVE_TIME_OPT,
) -> None:
    """Can every animal be fed, in how few rounds, how cheaply, and how."""
    if ctx.invoked_subcommand is not None:
        return
    from solver.report.render import render_board
    from solver.report.solo_report import answer_text
    from solver.engine.scenario import Scenario
    from solver.solo.service import solve
    from solver.report.zoo_report import zoo_answer_json

    check_output_path(svg, "--svg")
    check_output_path(plan_out, "--plan-out")
    check_output_path(html, "--html")
    from solver.solo.position import position_from, solo_extras
    inst = _zoo_instance(instance)
    settings = Settings(time_limit, deterministic, work, cp_time, cp_workers, prove=prove,
                        prove_time=prove_time).check()
    start = None
    if from_file is not None:
        if seed is not None or setup is not None or reading:
            raise InputError("--from brings its own setup and readings; drop --seed, --setup and --reading", "--from")
        prefix, start = position_from(inst, str(from_file))
        food, used_seed, rules, difficulty = prefix.setup, None, prefix.rules, prefix.difficulty
    else:
        rules = solo_rules("zoo", reading, {"strict_exits": True if strict_exits else None,
                                            "feed_new_cities": literal_areas})
        food, used_seed = read_zoo_setup(inst, difficulty, seed, setup, rules)
    with progress.shown(quiet):
        answer = solve(Scenario(inst, difficulty, food, rules, seed=used_seed, rounds=rounds), settings, start)
    data = zoo_answer_json(answer)
    extra, extra_lines = solo_extras(answer, start)
    data.update(extra)
    data["time_cap"] = answer.time_cap
    svg_text = solo_svg(answer, render_board) if svg is not None else None
    text = answer_text(data, inst, rules, verbose, extra_lines)
    if html is not None:
        write_html(html, inst, answer.plan, data)
    emit(data, text, json_out, svg, svg_text, plan_out, answer.plan.to_json(inst) if answer.plan else None)


@zoo_app.command("routes")
def routes(
    plan: Path = typer.Option(..., "--plan", help="A plan file (JSON) whose network and food to use."),
    round_: int = typer.Option(..., "--round", min=1, help="Round R: the state after round R-1 of the plan (see --at)."),
    at: str = typer.Option("start", "--at", help="start: the state right after round R-1 (default); ship: also through round R's shares, action and build, as its shipments see it."),
    locomotive: Optional[int] = typer.Option(None, "--locomotive", min=1, help="Use this locomotive level instead of the state's."),
    feeding: Optional[bool] = typer.Option(None, "--feeding/--no-feeding", help="Whether the Feeding discount is available (default: only when the state's action is Feeding and the discount is unused)."),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    instance: Optional[Path] = typer.Option(None, "--instance", help="Board file (default instances/zoo.toml)."),
) -> None:
    """Which animals can be fed now: every feasible feeding, and the least locomotive per origin and destination."""
    from solver.engine.plan import load_plan
    from solver.engine.readings import short, stated
    from solver.solo.zoo_routes import feedings, least_locomotive, stop_graph

    if at not in ("ship", "start"):
        raise InputError(f"expected 'ship' or 'start', got {at!r}", "--at")
    inst = _zoo_instance(instance)
    p = load_plan(str(plan), inst)
    state = state_at(inst, p, round_, at, str(plan))
    if locomotive is not None and locomotive > inst.scenario.max_locomotive:
        raise InputError(f"the locomotive goes up to {inst.scenario.max_locomotive}, not {locomotive}", "--locomotive")
    loco = state.locomotive if locomotive is None else locomotive
    discount = (state.action == "feeding" and not state.discount_used) if feeding is None else feeding
    board = inst.board
    start = time.perf_counter()
    stop_graph(state)
    table = least_locomotive(state)
    table_seconds = time.perf_counter() - start
    start = time.perf_counter()
    found = feedings(state, locomotive=loco, discount=discount)
    list_seconds = time.perf_counter() - start
    data = {
        "map": board.name, "round": round_, "at": at, "phase": state.phase, "locomotive": loco,
        "discount_available": discount, "fed": sorted(str(h) for h in state.fed),
        "food_left": {str(h): len(c) for h, c in sorted(state.goods.items()) if c},
        "least_locomotive": [{"from": str(o), "to": str(d), "without_discount": a, "with_discount": b,
                              "fed": d in state.fed} for (o, d), (a, b) in sorted(table.items())],
        "feedings": [{"from": str(f.origin), "to": str(f.destination), "route": f.text(), "links": f.links,
                      "teleport": [str(f.route[f.teleports[0]]), str(f.route[f.teleports[0] + 1])] if f.teleports
                      else None, "discount": str(f.discount) if f.discount else None, "locomotive_needed": f.need,
                      "exit_used": f.exit_used, "already_fed": f.destination in state.fed} for f in found],
        "seconds": {"least_locomotive_table": round(table_seconds, 6), "feedings": round(list_seconds, 6)},
        "readings": stated(p.rules, inst.scenario.ruleset),
    }
    if json_out:
        typer.echo(dumps(data))
        return
    where = (f"after round {round_ - 1}" + (f", with round {round_}'s shares, action and build" if
                                             state.round == round_ and state.phase == "ship" else ""))
    out = [f"{board.name}, plan {plan}: {where}",
           f"locomotive {loco}, Feeding discount {'available' if discount else 'not available'}, "
           f"fed: {', '.join(board.label(h) for h in sorted(state.fed)) or 'none'}",
           "", "Least locomotive to feed (origin -> destination: without / with the Feeding discount):"]
    for row in data["least_locomotive"]:
        o, d = Hex_(row["from"]), Hex_(row["to"])
        fmt = lambda v: "-" if v is None else str(v)  # noqa: E731
        out.append(f"  {board.label(o)} -> {board.label(d)}: {fmt(row['without_discount'])} / "
                   f"{fmt(row['with_discount'])}" + (" (fed)" if row["fed"] else ""))
    if not data["least_locomotive"]:
        out.append("  none: no complete link leaves an area with food")
    out += ["", f"Feasible feedings at locomotive {loco} ({len(found)}):"]
    for f in found:
        extras = []
        if f.teleports:
            extras.append(f"teleport {f.route[f.teleports[0]]}~{f.route[f.teleports[0] + 1]}")
        elif f.exit_used:
            extras.append("passes an exit")
        if f.discount:
            extras.append(f"Feeding discount at {board.label(f.discount)}")
        if f.destination in state.fed:
            extras.append("already fed")
        out.append(f"  feed {board.label(f.destination)} from {board.label(f.origin)}: {f.text()} "
                   f"({f.links} link{'' if f.links == 1 else 's'}, needs {f.need}" + (", " + ", ".join(extras) if extras else "") + ")")
    out.append(f"Readings (the plan's): {short(p.rules, inst.scenario.ruleset)}")
    out.append(f"(least-locomotive table {table_seconds * 1000:.2f} ms, feedings {list_seconds * 1000:.2f} ms)")
    typer.echo("\n".join(out))


def Hex_(name: str):
    from solver.board.hexgrid import Hex
    return Hex.parse(name)


def state_at(inst, plan, round_: int, at: str, where: str):
    """The game state after round R-1 of the plan; with at='ship', also through round R's build."""
    from solver.engine.moves import EndBuild
    from solver.engine.plan import round_moves
    from solver.engine.state import IllegalMove
    state = plan.new_state(inst)
    if round_ > len(plan.rounds) + 1:
        raise InputError(f"the plan has {len(plan.rounds)} round(s); --round goes up to {len(plan.rounds) + 1}",
                         "--round")
    for index, rnd in enumerate(plan.rounds[: round_ - 1], start=1):
        if state.is_terminal():
            break
        for step in round_moves(rnd, index):
            try:
                state.apply(step.move)
            except IllegalMove as err:
                raise InputError(f"the plan is not legal: round {index}, '{step.text}': {err}", where) from None
        from solver.engine.moves import Pass
        while state.phase == "ship" and state.round == index:
            state.apply(Pass())
    if at == "ship" and round_ <= len(plan.rounds) and not state.is_terminal():
        for step in round_moves(plan.rounds[round_ - 1], round_):
            if isinstance(step.move, EndBuild):
                state.apply(step.move)
                break
            try:
                state.apply(step.move)
            except IllegalMove as err:
                raise InputError(f"the plan is not legal: round {round_}, '{step.text}': {err}", where) from None
    return state


def register(app: typer.Typer) -> None:
    app.add_typer(zoo_app, name="zoo")
