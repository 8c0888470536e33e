"""`aos-solve easter-island`: the solo solver's command line."""
from __future__ import annotations

import pathlib
from pathlib import Path
from typing import Optional

import typer

from solver import progress
from solver.board.errors import InputError
from solver.games import default_instance, load_instance
from solver.report.output import check_output_path, dumps, write_atomic


def read_setup(inst, difficulty: str, seed: Optional[int], setup_file: Optional[Path], bag: Optional[str] = None):
    """The cubes to play with, and the seed that drew them (None when read from a file)."""
    from solver.engine.setup import draw_setup, load_setup, parse_bag
    if seed is not None and setup_file is not None:
        raise InputError("give either --seed or --setup, not both", "--seed/--setup")
    if setup_file is not None:
        if bag is not None:
            raise InputError("--bag only applies to a drawn setup (--seed)", "--bag")
        return load_setup(str(setup_file), inst, difficulty), None
    seed = 1 if seed is None else seed
    return draw_setup(inst, difficulty, seed, parse_bag(bag) if bag else None), seed


def emit(data: dict, text: str, json_out: bool, svg: Optional[Path], svg_text: Optional[str],
         plan_out: Optional[Path], plan_json: Optional[dict]) -> None:
    # Outputs are written whole or not at all; the report comes last.
    if svg is not None and svg_text is not None:
        write_atomic(svg, svg_text)
    if plan_out is not None:
        if plan_json is None:
            raise InputError("no plan was found, so there is nothing to write", "--plan-out")
        write_atomic(plan_out, dumps(plan_json))
    typer.echo(dumps(data) if json_out else text)


def easter_island(
    difficulty: str = typer.Option("normal", "--difficulty", "-d", help="easy, normal or hard."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Draw the cubes from the bag with this seed (default 1)."),
    setup: Optional[Path] = typer.Option(None, "--setup", help="Read the cubes from a file (TOML or JSON: ruin = [bottom, top])."),
    rounds: Optional[int] = typer.Option(None, "--rounds", min=1, help="Round limit (default: the instance's)."),
    strict_action: bool = typer.Option(False, "--strict-action", help="An action must be chosen, and paid, every round (the reading the translator rejects)."),
    time_limit: float = typer.Option(60.0, "--time-limit", min=0.1, help="Seconds for the search."),
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress line (it shows only on a terminal, on stderr)."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Draw the final network and the shipments."),
    plan_out: Optional[Path] = typer.Option(None, "--plan-out", help="Write the plan (for check-plan) here."),
    instance: Optional[Path] = typer.Option(None, "--instance", help="Board file (default instances/easter-island.toml)."),
    bag: Optional[str] = typer.Option(None, "--bag", help="Draw from this bag instead of the instance's, e.g. 'red=20,blue=20,yellow=20,black=16' (reported as an assumption)."),
    from_file: Optional[Path] = typer.Option(None, "--from", help="Play on from a position: a plan file (as --plan-out writes it) whose rounds stop mid-game; it is replayed by the referee, then solved from the state reached (setup, difficulty and readings come from the file)."),
    deterministic: bool = typer.Option(True, "--deterministic/--wall-clock", help="Reproducible mode (default): the plan search stops after --work round plans, CP-SAT uses --cp-workers workers and the deterministic time limit --cp-time (max_deterministic_time). --wall-clock: stop the plan search at --time-limit seconds. (The network optimizer keeps a wall-clock share of --time-limit; on the shipped boards it finishes with proof, so answers repeat.)"),
    work: int = typer.Option(20000, "--work", help="Round plans the plan search may try (reproducible mode)."),
    cp_time: float = typer.Option(2.0, "--cp-time", help="CP-SAT deterministic time limit per model (max_deterministic_time)."),
    cp_workers: int = typer.Option(1, "--cp-workers", help="CP-SAT workers (fixed, for reproducible answers)."),
) -> None:
    """Can this Easter Island setup be cleared, in how few rounds, how cheaply, and how."""
    from solver.solo.easter_island import analyse
    from solver.report.render import render_board
    from solver.report.solo_report import answer_json, answer_text
    from solver.engine.state import Rules

    check_output_path(svg, "--svg")
    check_output_path(plan_out, "--plan-out")
    inst = load_instance(instance or default_instance("easter-island"))
    if inst.scenario.ruleset != "easter-island":
        raise InputError(f"this is a {inst.scenario.ruleset} board, not Easter Island", "--instance")
    from solver.solo.position import position_from, solo_extras, solve_mode
    budget, params = solve_mode(deterministic, work, cp_time, cp_workers)
    start = None
    if from_file is not None:
        if seed is not None or setup is not None or bag is not None:
            raise InputError("--from brings its own setup; drop --seed, --setup and --bag", "--from")
        prefix, start = position_from(inst, str(from_file))
        cubes, used_seed, rules, difficulty = prefix.setup, None, prefix.rules, prefix.difficulty
    else:
        cubes, used_seed = read_setup(inst, difficulty, seed, setup, bag)
        rules = Rules(strict_action=strict_action)
    with progress.shown(quiet):
        answer = analyse(inst, difficulty, cubes, rules, rounds=rounds, time_limit=time_limit, budget=budget,
                         params=params, start=start)
    data = answer_json(inst, "easter-island", difficulty, cubes, answer, rules, used_seed)
    extra, extra_lines = solo_extras(answer, start)
    data.update(extra)
    if bag:
        data["bag_override"] = bag
        data["assumed_values"].append({"key": "--bag", "source": "assumed",
                                       "note": f"cubes drawn from the bag {bag} instead of scenario.bag"})
    svg_text = None
    if svg is not None:
        svg_text = solo_svg(inst, answer, cubes, rules, render_board)
    text = answer_text(data, inst, rules)
    if extra_lines:
        head, _, tail = text.partition("\nPlan found:")
        text = head + "\n" + "\n".join(extra_lines) + ("\nPlan found:" + tail if tail else "")
    emit(data, text, json_out, svg, svg_text, plan_out, answer.plan.to_json(inst) if answer.plan else None)


def solo_svg(inst, answer, cubes, rules, render_board) -> str:
    """The plan's final network and every shipment; without a plan, the cheapest network."""
    from solver.engine.moves import Ship
    from solver.engine.plan import replay, round_moves
    from solver.engine.state import GameState
    if answer.plan is None:
        state = GameState.new(inst, cubes, rules)
        hexes = set(answer.network.hexes) if answer.network else set()
        return render_board(inst, state, (), title=f"{inst.board.name}: cheapest network (no plan)", highlight=hexes)
    result = replay(inst, answer.plan)
    ships = []
    probe = GameState.new(inst, answer.plan.setup, answer.plan.rules)
    for i, rnd in enumerate(answer.plan.rounds, 1):
        for step in round_moves(probe, rnd, i):
            if isinstance(step.move, Ship):
                ships.append((step.move.route, step.move.teleports))
    return render_board(inst, result.state, ships, title=f"{inst.board.name}: plan clearing in round "
                        f"{answer.upper_bound}")


def register(app: typer.Typer) -> None:
    app.command("easter-island")(easter_island)
