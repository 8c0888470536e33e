"""`aos-solve batch` and `aos-solve report`."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from solver.report.output import dumps


def batch(
    scenario: str = typer.Argument(..., help="easter-island, zoo or desert."),
    difficulty: str = typer.Option("all", "--difficulty", "--challenge", help="A difficulty (or Desert challenge), a comma list, or all."),
    seeds: str = typer.Option(..., "--seeds", help="Seeds to solve, e.g. 1-1000 or 1-10,20."),
    out: Path = typer.Option(..., "--out", help="Results folder; running again resumes it."),
    workers: Optional[int] = typer.Option(None, "--workers", min=1, max=64, help="Local worker processes (default: all cores; never more than the solves)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Address of a Dask scheduler (tcp://host:8786) to run the solves on."),
    work: int = typer.Option(10000, "--work", help="Easter Island and Zoo: round plans the plan search may try per way of searching. With the CP-SAT units below it bounds every solve, so answers repeat on any machine and under any load (the defaults are those of `aos-solve easter-island`)."),
    cp_time: Optional[float] = typer.Option(None, "--cp-time", help="CP-SAT deterministic work units: per relaxation model for Easter Island and the Zoo (default 1), of the layout model for the Desert (default 20)."),
    plan_cp_time: float = typer.Option(10.0, "--plan-cp-time", help="Easter Island and Zoo: CP-SAT work units of the plan model (0 skips it)."),
    shares_cp_time: float = typer.Option(0.0, "--shares-cp-time", help="Easter Island: CP-SAT work units of the plan model looking for fewer shares once the rounds are settled (0 skips it)."),
    prove: bool = typer.Option(False, "--prove", help="The solvers' deep proof mode: slower, for a designer's batch; recorded in run.json and every record."),
    wall_cap: Optional[float] = typer.Option(None, "--wall-cap", "--time-limit", help="Safety net, in seconds of wall time per solve (default 3600, 14400 with --prove; generous, since a shared machine may give a solve a small share of a core): a solve still running then is stopped and recorded as unknown, stopped by the cap. It never decides an answer otherwise. (--time-limit is its old name.)"),
    instance: Optional[Path] = typer.Option(None, "--instance", help="Board file for the scenario (default: the shipped one)."),
    readings: Optional[list[str]] = typer.Option(None, "--readings", help="Reading sets to run the same seeds under: 'default,bag=full,strict-action=on' (repeatable; '+' joins changes within one set, e.g. 'bag=full+strict-action=on'). Default: the default readings only."),
    reading: Optional[list[str]] = typer.Option(None, "--reading", help="A reading NAME=VALUE for every set (repeatable); --readings sets are named by what they change from these."),
    bag: Optional[str] = typer.Option(None, "--bag", help="Easter Island: alias of the reading bag=... for every set, e.g. 'red=20,blue=20,yellow=20,purple=20,black=16'."),
    shuffle_dangers: bool = typer.Option(False, "--shuffle-dangers", help="Zoo: each seed also shuffles the danger levels among the animal areas."),
    keep_plans: bool = typer.Option(False, "--keep-plans", help="Also write each setup's plan page (as --html writes it) into OUT/plans/; `aos-solve report OUT` links them from report.html. Local workers only."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    json_out: bool = typer.Option(False, "--json", help="Print the final counts as JSON."),
) -> None:
    """Solve many seeded setups in reproducible mode; results are appended as each finishes, and a rerun resumes."""
    from solver.batch.runner import check_scheduler_address, make_batch, run_batch
    from solver.batch.scenarios import Mode
    from solver.board.errors import InputError
    if workers and scheduler:
        raise InputError("give either --workers or --scheduler, not both", "--workers/--scheduler")
    if keep_plans and scheduler:
        raise InputError("plan pages are written by local workers; drop --scheduler or --keep-plans",
                         "--keep-plans")
    if shuffle_dangers and scenario != "zoo":
        raise InputError("--shuffle-dangers is for the zoo", "--shuffle-dangers")
    if scheduler is not None:
        check_scheduler_address(scheduler)
    from solver.engine.readings import BY_NAME, make_rules, parse_sets
    from solver.batch.scenarios import scenario as get_scenario
    options = {"instance": str(instance) if instance else None,
               "shuffle_dangers": True if shuffle_dangers else None}
    sets = None
    if get_scenario(scenario).kind == "clear":
        aliases = {"bag": BY_NAME["bag"].parse(bag, "--bag")} if bag is not None else {}
        if bag is not None and not BY_NAME["bag"].applies_to(scenario):
            raise InputError("--bag is for easter-island", "--bag")
        base = make_rules(scenario, reading or [], aliases)
        sets = parse_sets(readings or ["default"], scenario, base)
    elif readings or bag or reading:
        raise InputError(f"{scenario} has no readings of the Age of Steam sheets", "--readings")
    mode = Mode(work=work, cp_time=cp_time, plan_cp_time=plan_cp_time, shares_cp_time=shares_cp_time, prove=prove)
    cap = wall_cap if wall_cap is not None else (14400.0 if prove else 3600.0)
    b = make_batch(scenario, difficulty, seeds, mode, str(out), options, sets, keep_plans, wall_cap=cap)
    counts = run_batch(b, workers, scheduler, quiet)
    data = {"out": str(out), **counts}
    typer.echo(dumps(data) if json_out else summary_text(str(out), counts, get_scenario(scenario).kind))


def summary_text(out: str, c: dict, kind: str) -> str:
    """What this command did, in words: its own setups, not the whole folder."""
    def n(k: int, one: str, many: str | None = None) -> str:
        return f"{k} {one if k == 1 else (many or one + 's')}"
    head = f"{n(c['asked'], 'setup')} asked: {c['solved_now']} solved now"
    if c["already_done"]:
        head += f", {c['already_done']} already in {out} from an earlier run"
    if kind == "clear":
        body = (f"{c['clearable']} clearable, {c['not_clearable']} proved not clearable, "
                f"{c['asked'] - c['clearable'] - c['not_clearable']} undecided; {c['proved']} of the "
                f"{c['asked']} fully proved (verdict and minimum rounds)")
    else:
        body = f"{c['proved']} proved, {c['unknown']} unknown"
    if c["failed"]:
        body += f"; {n(c['failed'], 'solve')} failed (the record holds the error)"
    if c["wall_cap_hit"]:
        body += f"; {n(c['wall_cap_hit'], 'solve')} stopped by the wall-clock cap"
    tail = f"The folder holds {n(c['folder_records'], 'record')}; `aos-solve report {out}` writes the report."
    return f"{head}. {body[0].upper() + body[1:]}. {tail}"


def report(run: Path = typer.Argument(..., help="A folder written by `aos-solve batch`."),
           json_out: bool = typer.Option(False, "--json", help="Print the report as JSON.")) -> None:
    """Write report.md, report.html (one self-contained page), report.json and PNG plots for a batch run."""
    from solver.batch.designer_report import write_report
    data = write_report(run)
    if json_out:
        typer.echo(dumps(data))
        return
    typer.echo(f"wrote {run}/report.md and {run}/report.html")
    for line in data["headline"]:
        typer.echo(f"  {line}")
    for change in data["reading_changes"]:
        typer.echo(f"  {change['sentence']}")


def register(app: typer.Typer) -> None:
    app.command("batch")(batch)
    app.command("report")(report)
