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
from solver.solo.settings import Settings

READING_HELP = ("A reading of the rule sheets, NAME=VALUE (repeatable); e.g. bag=full. "
                "`aos-solve readings` lists them with their values and defaults.")


TIME_LIMIT_HELP = ("Wall-clock seconds for the whole solve: it stops by then and answers with what it found and "
                   "proved, saying so (such an answer may differ from run to run). In the default reproducible "
                   "mode the work budgets (--work, --cp-time, --plan-cp-time) decide the answer when they are "
                   "spent first. The network optimizer gets up to a third of it.")


# Options the solo commands share (easter-island and zoo).
JSON_OPT = typer.Option(False, "--json", help="Print the report as JSON.")
VERBOSE_OPT = typer.Option(False, "--verbose", "-v", help="Also say how the answer was found: which searches and models ran, with their budgets (the JSON always has them, under search).")
QUIET_OPT = typer.Option(False, "--quiet", "-q", help="No progress line (it shows only on a terminal, on stderr).")
PLAN_OUT_OPT = typer.Option(None, "--plan-out", help="Write the plan (for check-plan) here.")
HTML_OPT = typer.Option(None, "--html", help="Write the answer as one self-contained HTML page: verdict, readings, assumptions, a cash/income/shares chart and a panel per round (track laid that round in orange, shipments along the track).")
FROM_OPT = typer.Option(None, "--from", help="Play on from a position: a plan file (as --plan-out writes it) whose rounds stop mid-game; it is replayed by the referee, then solved from the state reached (setup, difficulty and readings come from the file).")
DETERMINISTIC_OPT = typer.Option(Settings.deterministic, "--deterministic/--wall-clock", help="Reproducible mode (default): what bounds the time is work, not the clock: the plan search stops after --work round plans and CP-SAT runs with --cp-workers workers for --cp-time and --plan-cp-time work units, so the same command gives the same answer (unless the --time-limit cap stops it first, which the answer says). --wall-clock: the plan search stops at --time-limit seconds instead.")
WORK_OPT = typer.Option(Settings.work, "--work", help="Round plans the plan search may try per way of searching (reproducible mode). Easter Island tries further variants (another town for the black new city, other search settings) only while its plan misses the lower bound. The defaults of --work, --cp-time, --plan-cp-time and --shares-cp-time are the settings benchmarks/easter_island.py measures.")
CP_TIME_OPT = typer.Option(Settings.cp_time, "--cp-time", help="Work units (CP-SAT's deterministic time, about seconds of one idle core) for each relaxation model, the lower-bound proof of the round count. Reproducible: the wall-clock time it takes depends on the machine and its load.")
CP_WORKERS_OPT = typer.Option(Settings.cp_workers, "--cp-workers", help="CP-SAT workers (fixed, for reproducible answers).")
PLAN_TIME_OPT = typer.Option(Settings.plan_cp_time, "--plan-cp-time", help="Work units (CP-SAT's deterministic time) of the CP-SAT plan model (the restriction over candidate links, started from the plan search's plan: first the squeeze, a plan one round shorter than the best found, with twice this time; then fewer shares); 0 skips it. Reproducible like --cp-time: its strategies are interleaved in a fixed order, so the same command gives the same plan.")
PROVE_OPT = typer.Option(Settings.prove, "--prove", help="Deep mode: every proof engine (solver/solo/proofs: the counting bound, the CP-SAT relaxation, ...) runs to the end with its own large deterministic budget (--prove-time per engine call) while the best plan misses the lower bound; may take minutes per setup. Reproducible like the default mode. The default answer is the fast one.")
PROVE_TIME_OPT = typer.Option(Settings.prove_time, "--prove-time", help="Deep mode (--prove): the deterministic time limit of each proof-engine call (the relaxation: CP-SAT max_deterministic_time per model).")
SHARES_TIME_OPT = typer.Option(Settings.shares_cp_time, "--shares-cp-time", help="Work units (CP-SAT's deterministic time) of the CP-SAT plan model once it only looks for fewer shares (the round count is proved, or the squeeze found no shorter plan). 0 (default) skips it and the second plan search for fewer shares: the answer keeps the plan search's shares. The fewest shares are bounded by the shares engines either way (the shares already issued, the cash-flow bound, and the relaxation's minimum with --cp-time units when this is above 0 or in the deep mode). 10 gave fewer shares on 11 of 12 setups (2 fewer at the median, up to 7) for about 7 s more each (results/shares-probe.csv).")


def read_setup(inst, difficulty: str, seed: Optional[int], setup_file: Optional[Path], rules=None):
    """The cubes to play with, and the seed that drew them (None when read from a file)."""
    from solver.engine.setup import draw_setup, load_setup
    from solver.engine.state import Rules
    rules = rules or Rules()
    if seed is not None and setup_file is not None:
        raise InputError("give either --seed or --setup, not both", "--seed/--setup")
    if setup_file is not None:
        return load_setup(str(setup_file), inst, difficulty, rules), None
    seed = 1 if seed is None else seed
    return draw_setup(inst, difficulty, seed, rules=rules), seed


def solo_rules(ruleset: str, reading: Optional[list[str]], aliases: dict):
    """Rules from --reading NAME=VALUE on top of the old flags (aliases); bad names or values exit 2."""
    from solver.engine.readings import make_rules
    return make_rules(ruleset, reading or [], {k: v for k, v in aliases.items() if v is not None})


def write_html(path: Path, inst, plan, data: dict) -> None:
    """The round-by-round page (solver/report/plan_pages.py); every panel comes from the referee's replay."""
    from solver.report.plan_pages import plan_page
    write_atomic(path, plan_page(inst, plan, data))
    data["html_file"] = str(path)


def emit(data: dict, text: str, json_out: bool, svg: Optional[Path], svg_text: Optional[str],
         plan_out: Optional[Path], plan_json: Optional[dict]) -> None:
    """Print the answer; write the SVG and the plan file whole or not at all (the report comes last).

    An answer without a plan (not clearable, or unknown) is still an answer: it
    is printed, no plan file is written, and the report says so (exit 0).
    """
    if plan_out is not None:
        if plan_json is None:
            data["plan_file"] = {"path": str(plan_out), "written": False,
                                 "why": f"the answer is {data['verdict']}: there is no plan to write"}
            text += f"\nNo plan written to {plan_out}: the answer is {data['verdict']}, so there is no plan."
        else:
            data["plan_file"] = {"path": str(plan_out), "written": True}
    if svg is not None and svg_text is not None:
        write_atomic(svg, svg_text)
    if plan_out is not None and plan_json is not None:
        write_atomic(plan_out, dumps(plan_json))
    typer.echo(dumps(data) if json_out else text)


def easter_island(
    difficulty: str = typer.Option("normal", "--difficulty", "-d", help="easy, normal or hard."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Draw the cubes from the bag with this seed (default 1)."),
    setup: Optional[Path] = typer.Option(None, "--setup", help="Read the cubes from a file (TOML or JSON: ruin = [bottom, top])."),
    rounds: Optional[int] = typer.Option(None, "--rounds", min=1, help="Round limit (default: the instance's)."),
    reading: Optional[list[str]] = typer.Option(None, "--reading", help=READING_HELP),
    strict_action: bool = typer.Option(False, "--strict-action", help="Alias of --reading strict-action=on: an action must be chosen, and paid, every round (the reading the translator rejects)."),
    time_limit: float = typer.Option(Settings.time_limit, "--time-limit", min=0.1, help=TIME_LIMIT_HELP),
    json_out: bool = JSON_OPT,
    verbose: bool = VERBOSE_OPT,
    quiet: bool = QUIET_OPT,
    svg: Optional[Path] = typer.Option(None, "--svg", help="Draw the final network and the shipments."),
    plan_out: Optional[Path] = PLAN_OUT_OPT,
    html: Optional[Path] = HTML_OPT,
    instance: Optional[Path] = typer.Option(None, "--instance", help="Board file (default instances/easter-island.toml)."),
    bag: Optional[str] = typer.Option(None, "--bag", help="Alias of --reading bag=...: draw from this bag, e.g. 'red=20,blue=20,yellow=20,purple=20,black=16' (reported as a reading)."),
    from_file: Optional[Path] = FROM_OPT,
    deterministic: bool = DETERMINISTIC_OPT,
    work: int = WORK_OPT,
    cp_time: float = CP_TIME_OPT,
    cp_workers: int = CP_WORKERS_OPT,
    plan_cp_time: float = PLAN_TIME_OPT,
    shares_cp_time: float = SHARES_TIME_OPT,
    prove: bool = PROVE_OPT,
    prove_time: float = PROVE_TIME_OPT,
) -> None:
    """Can this Easter Island setup be cleared, in how few rounds, how cheaply, and how."""
    from solver.solo.service import solve
    from solver.report.render import render_board
    from solver.engine.readings import BY_NAME
    from solver.engine.scenario import Scenario
    from solver.report.solo_report import answer_json, answer_text

    check_output_path(svg, "--svg")
    check_output_path(plan_out, "--plan-out")
    check_output_path(html, "--html")
    inst = load_instance(instance or default_instance("easter-island"))
    if inst.scenario.ruleset != "easter-island":
        raise InputError(f"this is a {inst.scenario.ruleset} board, not Easter Island", "--instance")
    from solver.solo.position import position_from, solo_extras
    settings = Settings(time_limit, deterministic, work, cp_time, cp_workers, plan_cp_time, shares_cp_time, prove,
                        prove_time).check()
    start = None
    if from_file is not None:
        if seed is not None or setup is not None or bag is not None or reading:
            raise InputError("--from brings its own setup and readings; drop --seed, --setup, --bag and --reading",
                             "--from")
        prefix, start = position_from(inst, str(from_file))
        cubes, used_seed, rules, difficulty = prefix.setup, None, prefix.rules, prefix.difficulty
    else:
        if bag is not None and setup is not None:
            raise InputError("--bag only applies to a drawn setup (--seed)", "--bag")
        rules = solo_rules("easter-island", reading, {
            "strict_action": True if strict_action else None,
            "bag": BY_NAME["bag"].parse(bag, "--bag") if bag is not None else None})
        cubes, used_seed = read_setup(inst, difficulty, seed, setup, rules)
    with progress.shown(quiet):
        answer = solve(Scenario(inst, difficulty, cubes, rules, seed=used_seed, rounds=rounds), settings, start)
    data = answer_json(answer)
    extra, extra_lines = solo_extras(answer, start)
    data.update(extra)
    data["time_cap"] = answer.time_cap
    svg_text = None
    if svg is not None:
        svg_text = solo_svg(answer, render_board)
    text = answer_text(data, inst, rules, verbose, extra_lines)
    if html is not None:
        write_html(html, inst, answer.plan, data)
    emit(data, text, json_out, svg, svg_text, plan_out, answer.plan.to_json(inst) if answer.plan else None)


def solo_svg(answer, render_board) -> str:
    """The plan's final network and every shipment; without a plan, the cheapest network."""
    from solver.engine.state import GameState
    from solver.report.plan_pages import round_pictures
    inst = answer.scenario.instance
    if answer.plan is None:
        state = GameState.new(inst, answer.scenario.setup, answer.scenario.rules)
        hexes = set(answer.network.hexes) if answer.network else set()
        return render_board(inst, state, (), title=f"{inst.board.name}: cheapest network (no plan)", highlight=hexes)
    # Shipments drawn along the track they ran on, numbered in order, offset where they share hexes.
    pictures, result = round_pictures(inst, answer.plan)
    ships = [ship for pic in pictures for ship in pic.ships]
    return render_board(inst, result.state, ships, title=f"{inst.board.name}: plan clearing in round "
                        f"{answer.upper_bound}")


def readings(map_name: Optional[str] = typer.Argument(None, help="Only the readings of this map (easter-island, zoo, ...)."),
             json_out: bool = typer.Option(False, "--json", help="Print the registry as JSON."),
             verbose: bool = typer.Option(False, "--verbose", "-v",
                                          help="Also name each reading's field in the engine (Rules.FIELD).")) -> None:
    """The named readings of the rule sheets: the sentence each interprets, its default and alternatives."""
    from solver.engine.readings import READINGS
    if map_name == "desert":  # Railroad Tiles Desert: its readings live in instances/desert/ruleset.toml
        from solver.cli.desert import readings_cmd
        return readings_cmd(json_out)
    from solver.games import RULESETS
    from solver.multi.readings import MAP_READINGS
    maps = [name for name in RULESETS if name != "base"]
    if map_name is not None and map_name not in maps:
        raise InputError(f"no map {map_name!r} (maps: {', '.join(maps)})", "MAP")
    multi = {name for name in maps if getattr(RULESETS[name], "multiplayer", False)}
    # the engine's readings ("*": every solo map) are carried by Rules, which the multiplayer maps never read;
    # a multiplayer map lists its own (solver/multi/readings.py), valued in its board file's map_rules
    chosen = [r for r in READINGS if map_name is None or (map_name not in multi and r.applies_to(map_name))]
    data = [{"name": r.name, "field": r.field, "maps": ["every solo map"] if "*" in r.maps else list(r.maps),
             "sheet": r.sheet, "quote": r.quote,
             "default": r.default, "why_default": r.why_default,
             "values": [{"name": v.name, "means": v.text} for v in r.values]
             + ([{"name": r.free_form, "means": "a bag given on the command line"}] if r.free_form else [])}
            for r in chosen]
    data += [{"name": r.name, "field": f"map_rules.{r.key}", "maps": list(r.maps), "sheet": r.sheet,
              "quote": r.quote, "default": r.default, "why_default": r.why_default,
              "values": [{"name": v, "means": text} for v, text in r.values]}
             for r in MAP_READINGS if map_name is None or map_name in r.maps]
    if json_out:
        typer.echo(dumps(data))
        return
    out = []
    for r in data:
        carrier = f"the board file's {r['field']}" if r["field"].startswith("map_rules.") else f"Rules.{r['field']}"
        out += [f"{r['name']} ({', '.join(r['maps'])}" + (f"; {carrier})" if verbose else ")"),
                f"  sheet ({r['sheet']}): \"{r['quote']}\"",
                f"  default {r['default']}: {r['why_default']}"]
        out += [f"  {v['name']}: {v['means']}" for v in r["values"]]
        out.append("")
    out.append("Give one with --reading NAME=VALUE (repeatable) on easter-island, zoo and check-plan, "
               "or several sets with `aos-solve batch --readings default,NAME=VALUE,...`; a multiplayer "
               "map's readings are set in its board file's [map_rules].")
    typer.echo("\n".join(out))


def register(app: typer.Typer) -> None:
    app.command("easter-island")(easter_island)
    app.command("readings")(readings)
