"""`aos-solve desert ...`: score a play area, solve a layout, play a seeded solo game."""
from __future__ import annotations

import json
import pathlib
from typing import Optional

import typer

from solver import progress
from solver.board.errors import InputError
from solver.report.output import check_output_paths

desert_app = typer.Typer(
    name="desert",
    help=(
        "Railroad Tiles Desert solo challenges (sharp-boundary, lost-world, desert-of-death): "
        "score a play area, find the best layout for given tiles, play a seeded solo game. "
        "Game values come from instances/desert/ruleset.toml; assumed ones are printed with every result."
    ),
    no_args_is_help=True,
    add_completion=False,
)

RULESET_OPT = typer.Option(None, "--ruleset", help="Ruleset TOML (default: instances/desert/ruleset.toml).")
CATALOGUE_OPT = typer.Option(
    None, "--catalogue", help="Tile catalogue TOML; give it twice (core and desert). Default: the shipped stand-ins."
)
CHALLENGES_OPT = typer.Option(None, "--challenges", help="Challenges TOML (default: instances/desert/challenges.toml).")
JSON_OPT = typer.Option(False, "--json", help="Print the result as JSON instead of text.")
READING_OPT = typer.Option(
    None, "--reading", metavar="NAME=VALUE",
    help="A named reading of the Desert sheet, NAME=VALUE (repeatable), e.g. death-pawn-kinds=all; "
    "`aos-solve readings desert` lists each with its sentence, default and values.")
SVG_OPT = typer.Option(None, "--svg", help="Also draw the play area to this SVG file.")
DETERMINISTIC_OPT = typer.Option(
    True,
    "--deterministic/--no-deterministic",
    help=(
        "Deterministic (default): CP-SAT runs with 1 worker and --time-limit counts its deterministic work units "
        "(about seconds of one idle core), so the same command prints the same layout and score on any machine "
        "and load. Cost: no second parallel worker (usually a weaker layout and bound for the same limit), and "
        "under heavy load the wall time can exceed the limit (capped at 10x, at least 60 s; a run the cap stops is not "
        "reproducible and says so). --no-deterministic: 2 workers under a wall-clock limit."
    ),
)


def _check_time_limit(value: float) -> None:
    """A time limit is a finite number of seconds above 0 (nan, inf and negatives are refused)."""
    import math

    if not math.isfinite(value) or value <= 0:
        raise InputError(f"--time-limit must be a finite number of seconds > 0 (got {value})", "--time-limit")


def register(app: typer.Typer) -> None:
    app.add_typer(desert_app, name="desert")


def _setup(ruleset, catalogue, challenges, reading=None):
    from solver.desert.setup import load_setup

    return load_setup(ruleset, tuple(catalogue) if catalogue else None, challenges, tuple(reading or ()))


def readings_cmd(json_out: bool) -> None:
    """`aos-solve readings desert`: the Desert's named readings (in instances/desert/ruleset.toml)."""
    from solver.desert.readings import registry
    from solver.desert.ruleset import load_ruleset

    data = registry(load_ruleset())
    if json_out:
        typer.echo(json.dumps(data, indent=2))
        return
    out = []
    for r in data:
        out += [f"{r['name']} (desert; ruleset.toml [{r['field']}])",
                f"  sheet ({r['sheet']}): \"{r['quote']}\"",
                f"  default {r['default']}: {r['why_default']}"]
        out += [f"  {v['name']}: {v['means']}" for v in r["values"]]
        out.append("")
    out.append("Give one with --reading NAME=VALUE (repeatable) on desert score, solve and game.")
    typer.echo("\n".join(out))


def _noticed(setup, payload: dict) -> dict:
    """The JSON twin with the stand-in notice as its first key (null once no stand-in data is left)."""
    from solver.desert.assumptions import data_notice

    return {"data_notice": data_notice(setup), **payload}


def _notice_lines(setup) -> list[str]:
    """The text answer's first line while it rests on stand-in data (solver.desert.assumptions.data_notice)."""
    from solver.desert.assumptions import data_notice

    notice = data_notice(setup)
    return [notice["text"]] if notice else []


def _basis(setup, uses: set[str], missions: list[str]) -> dict:
    from solver.desert.assumptions import used

    return used(setup, uses, missions)


def _basis_json(basis: dict) -> list[dict]:
    """The assumed values an answer used, flat, each with its group (the JSON twin's `assumptions`)."""
    return [{"group": g, "key": a["key"], "value": a["value"], "reason": a["reason"]}
            for g, items in basis["assumed"].items() for a in items]


def _basis_text(basis: dict) -> list[str]:
    """Readings, then the assumed values, grouped; only what the answer used."""
    rd = [f"{r['name']} {r['value']}" + (f" (set; default {r['default']})" if r["changed"] else "")
          for r in basis["readings"]]
    out = ["Readings: " + ", ".join(rd) + " (change with --reading NAME=VALUE; `aos-solve readings desert` "
           "gives each one's sentence and meaning)"]
    out.append("Assumptions this answer depends on (the core rulebook is not public; the reasons are in --json and "
               "instances/desert/ruleset.toml):")
    for group, items in basis["assumed"].items():
        out.append(f"  {group}: " + "; ".join(
            a["shown"] if a["key"] == "catalogue" else f"{a['key']} {a['shown']}" for a in items))
    return out


def _layout_json(layout) -> dict | None:
    if layout is None:
        return None
    return {
        "start": {"at": list(layout.start_at), "rotation": layout.start_rotation},
        "seed": layout.seed,
        "rounds": [
            {
                "round": rp.number,
                "column": rp.column,
                "tokens": rp.tokens,
                "tiles": [{"tile": t.tile, "at": list(t.at), "rotation": t.rotation} for t in rp.tiles],
                "pawns": [{"at": list(p.at), "pinpoint": p.pinpoint, "token": p.token} for p in rp.pawns],
            }
            for rp in layout.rounds
        ],
    }


def _public(ev: dict | None) -> dict | None:
    return None if ev is None else {k: v for k, v in ev.items() if not k.startswith("_")}


def _grid_text(area) -> list[str]:
    x0, y0, x1, y1 = area.bounds()
    lines = ["       " + "".join(f"x={x:<6}" for x in range(x0, x1 + 1))]
    for y in range(y0, y1 + 1):
        row = f"y={y:<4} "
        for x in range(x0, x1 + 1):
            p = area.grid.get((x, y))
            row += f"{p.tile.id + '/' + str(p.tile.rotation):<8}" if p else f"{'.':<8}"
        lines.append(row.rstrip())
    return lines


def _stars(n: int) -> str:
    return f"{n} star{'' if n == 1 else 's'}"


def _headline(ev: dict, ch) -> str:
    """The answer in one line: score, legality, mission and stars."""
    line = f"Score: {_pts(ev['score'])}" + (", legal" if ev["legal"] else ", NOT legal (see below)")
    if ch is not None:
        line += f"; {ch.name}: mission {'met' if ev['mission_met'] else 'NOT met'} -> {_stars(ev['stars'])}"
        if not ev.get("complete", True):
            line += f" (unfinished game: {ev['rounds_played']} of {ev['rounds_total']} rounds)"
    return line


def _score_text(ev: dict, ch) -> list[str]:
    out = []
    if ev["legal"]:
        out.append("Legal: yes")
    else:
        out.append("Legal: NO")
        out.append(f"  first illegal placement: {ev['violation']}")
    for n in ev["notes"]:
        out.append(f"  note: {n}")
    out.append("Score")
    for line in ev["lines"]:
        out.append(f"  {line['label']:<22}{line['points']:>4}   {line['detail']}")
    out.append(f"  {'total':<22}{ev['score']:>4}")
    out.append("Missions")
    for cid, m in ev["missions"].items():
        out.append(f"  {m['name']:<18}{'met' if m['met'] else 'NOT met':<9}{m['reason']}")
    if ch is not None:
        th = ", ".join(f"{_stars(i)} at {'' if ch.inclusive else 'above '}{t}" for i, t in enumerate(ch.thresholds, 1))
        out.append(
            f"Challenge {ch.name}: mission {'met' if ev['mission_met'] else 'NOT met'}, "
            f"{_pts(ev['score'])} -> {_stars(ev['stars'])} ({th})"
            + ("" if ev.get("complete", True) else
               f"; unfinished game ({ev['rounds_played']} of {ev['rounds_total']} rounds): no stars")
        )
    return out


def _mode_text(res: dict) -> str:
    if not res.get("deterministic"):
        return "Mode: not deterministic (2 workers, wall-clock limit): another run may differ"
    if res.get("wall_capped"):
        return "Mode: deterministic, but the wall-clock cap stopped the search first: another run may differ"
    return "Mode: deterministic (1 worker, limit in CP-SAT work units): the same command gives the same answer"


def _reach(word: str, bound, threshold: int) -> str:
    """'unknown' stays unknown without a proof for the game; a bound below the threshold is shown beside it."""
    if word == "unknown" and bound is not None and bound < threshold:
        return f"unknown (unfinished search; its bound {bound}, within the play-area box, is below {threshold})"
    return word


def _pts(n: int) -> str:
    return f"{n} point{'' if abs(n) == 1 else 's'}"


def _write_svg(path: pathlib.Path | None, area, title: str) -> None:
    if path is None or area is None:
        return
    from solver.report.desert_render import render_svg

    try:
        path.write_text(render_svg(area, title), encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot write the SVG ({err})", str(path)) from None


@desert_app.command("score")
def score_cmd(
    layout: pathlib.Path = typer.Argument(..., help="Layout TOML: the start tile, then per round the tiles and pawns placed."),
    challenge: Optional[str] = typer.Option(None, "--challenge", help="Challenge id (default: the layout's `challenge`)."),
    as_json: bool = JSON_OPT,
    svg: Optional[pathlib.Path] = SVG_OPT,
    ruleset: Optional[pathlib.Path] = RULESET_OPT,
    catalogue: Optional[list[pathlib.Path]] = CATALOGUE_OPT,
    challenges: Optional[pathlib.Path] = CHALLENGES_OPT,
    reading: Optional[list[str]] = READING_OPT,
) -> None:
    """Check a play area placement by placement, score it line by line, check the missions and the stars.

    Exit code 0 when legal, 1 when a placement breaks a rule, 2 for broken input.
    """
    from solver.desert.assumptions import uses_of_layout
    from solver.desert.referee import evaluate
    from solver.desert.layout import load_layout

    check_output_paths(("--svg", svg))
    setup = _setup(ruleset, catalogue, challenges, reading)
    lay = load_layout(layout)
    cid = challenge or lay.challenge
    ch = setup.challenges.get(cid, "--challenge" if challenge else f"{layout}: challenge") if cid else None
    ev = evaluate(setup, lay, ch)
    _write_svg(svg, ev["_area"], f"{layout.name}: {_pts(ev['score'])}" + (f", {ch.name}" if ch else ""))
    uses = uses_of_layout(lay, setup.tileset, lay.seed is not None) | ({"stars"} if ch else set())
    basis = _basis(setup, uses, [c.mission for c in setup.challenges.items.values()])
    if as_json:
        out = _public(ev)
        out["layout_file"] = str(layout)
        out["readings"] = basis["readings"]
        out["assumptions"] = _basis_json(basis)
        typer.echo(json.dumps(_noticed(setup, out), indent=2))
    else:
        lines = _notice_lines(setup) + [_headline(ev, ch), f"Play area {layout}" + (f" (challenge: {ch.name})" if ch else "")]
        lines += _grid_text(ev["_area"])
        lines += _score_text(ev, ch)
        lines += _basis_text(basis)
        typer.echo("\n".join(lines))
    raise typer.Exit(0 if ev["legal"] else 1)


def _solve_text(res: dict, ch, title: str) -> list[str]:
    ev = res["evaluation"]
    if res.get("box_exhaustive"):
        area = (f"Play area: {res['box'][0]}x{res['box'][1]} box cut at x+y <= {res['box'][0] - 1}, which holds every "
                "layout of these tiles (proofs hold for the game)")
    else:
        area = f"Play area bound: {res['box'][0]}x{res['box'][1]} tiles [ruleset play_area_bound]"
    out = [title, area]
    status = res["status"]
    # the bound holds for the game when the box holds every layout, or when it was made without a box
    game_wide = bool(res.get("box_exhaustive") or res.get("bound_any_area"))
    words = {
        "optimal": "OPTIMAL (proved)" + ("" if game_wide else " within the play-area bound"),
        "feasible": "feasible, not proved optimal (time limit)",
        "infeasible": "no layout meets the mission (proved)" + ("" if game_wide else " within the play-area bound"),
        "unknown": "no layout found in the time limit (unknown)",
    }[status]
    if res.get("from_hint"):
        words = "feasible: the starting layout; the search found nothing better in time"
    head = (f"Best layout: {_pts(ev['score'])}" + ("" if ev["legal"] and ev["mission_met"] else " (mission NOT met)")
            if ev is not None else "No layout")
    out.insert(0, f"{head}; {words}; upper bound {res['bound'] if res['bound'] is not None else 'none'}")
    out.append(f"Solver: {words}; {res['seconds']} s")
    out.append(_mode_text(res))
    where = (" (any play area)" if res.get("bound_any_area") else "") if game_wide else " (within the play-area bound)"
    out.append(
        f"Upper bound on the score{where}: "
        f"{res['bound'] if res['bound'] is not None else 'none (the search stopped before bounding)'}"
    )
    if ev is not None and res["bound"] is not None and res["status"] != "optimal":
        out.append(f"Gap to the bound: {res['bound'] - ev['score']} points")
    if res.get("any_area_bound") is not None and not game_wide:
        out.append(f"Upper bound for any play area (the line bound, models/desert_layout/bounds.py): "
                   f"{res['any_area_bound']}")
    if ev is not None:
        if res.get("columns"):
            out.append("Columns taken per round: " + ", ".join(f"R{r}: {c}" for r, c in res["columns"].items()))
        out += _grid_text(ev["_area"])
        out.append("Replayed by the referee:")
        out += ["  " + l for l in _score_text(ev, ch)]
    reach = res.get("star_reach", {})
    if reach:
        out.append("Stars: " + ", ".join(f"{k} star{'s' if k != '1' else ''} ({t}): {_reach(reach[k], res['bound'], t)}" for k, t in zip(reach, ch.thresholds)))
    return out


@desert_app.command("solve")
def solve_cmd(
    challenge: str = typer.Option(..., "--challenge", help="sharp-boundary, lost-world or desert-of-death."),
    tiles: Optional[pathlib.Path] = typer.Option(
        None, "--tiles", metavar="FILE",
        help="Tiles TOML: \\[\\[round]] tiles = \\[ids], tokens = \\[active tokens] (or flat tiles/tokens: one round)."
    ),
    seed: Optional[int] = typer.Option(None, "--seed", help="Draw the solo market of this seed; the solver also chooses the column each round."),
    time_limit: float = typer.Option(30.0, "--time-limit", help="Seconds for CP-SAT (work units when deterministic)."),
    deterministic: bool = DETERMINISTIC_OPT,
    as_json: bool = JSON_OPT,
    svg: Optional[pathlib.Path] = SVG_OPT,
    out: Optional[pathlib.Path] = typer.Option(None, "--out", help="Write the layout found as a layout TOML (replayable with `score`)."),
    ruleset: Optional[pathlib.Path] = RULESET_OPT,
    catalogue: Optional[list[pathlib.Path]] = CATALOGUE_OPT,
    challenges: Optional[pathlib.Path] = CHALLENGES_OPT,
    reading: Optional[list[str]] = READING_OPT,
) -> None:
    """Find the best legal layout meeting the mission (positions, rotations, order, pawns); prove it or give the bound."""
    from solver.desert.setup import load_tiles_file
    from solver.desert_play.ceiling import star_reach
    from solver.desert_play.game import perfect_foresight, solve_layout
    from solver.desert.market import draw_market
    from solver.report.output import check_output_paths

    check_output_paths(("--svg", svg), ("--out", out))
    if (tiles is None) == (seed is None):
        raise InputError("give exactly one of --tiles FILE or --seed N", "desert solve")
    _check_time_limit(time_limit)
    setup = _setup(ruleset, catalogue, challenges, reading)
    ch = setup.challenges.get(challenge)
    if tiles is not None:
        offers, _ = load_tiles_file(tiles, setup)
        res = solve_layout(setup, ch, offers, False, time_limit, deterministic=deterministic)
        title = f"Layout of {sum(len(o.columns[0]) for o in offers)} tiles from {tiles} for {ch.name}"
    else:
        market = draw_market(seed, setup.tileset, setup.ruleset)
        pf = perfect_foresight(setup, market, ch, time_limit, deterministic=deterministic)
        res = dict(pf["solver"])
        res.update(status=pf["status"], layout=pf["layout"], evaluation=pf["evaluation"], seconds=pf["seconds"])
        title = (
            f"Perfect-foresight layout for seed {seed} ({ch.name}); the columns are chosen too. "
            f"Best layout from: {pf['best_from']} (beam searches and the online policy start a large-neighbourhood search with the CP-SAT model; bound: the line bound, for any play area)"
        )
    ev = res["evaluation"]
    if ev is not None and res["layout"] is not None:
        res["columns"] = {rp.number: rp.column for rp in res["layout"].rounds if rp.column}
    met = ev is not None and ev["legal"] and ev["mission_met"]
    game_wide = bool(res.get("box_exhaustive") or res.get("bound_any_area"))
    res["star_reach"] = star_reach(ch, res["status"], ev["score"] if ev else None, res["bound"], met,
                                   game_wide=game_wide, any_area_bound=res.get("any_area_bound",
                                   res["bound"] if res.get("bound_any_area") else None), box=tuple(res["box"]))
    if res["layout"] is not None and out is not None:
        try:
            out.write_text(res["layout"].to_toml(f"Layout found by `aos-solve desert solve` ({res['status']})"), encoding="utf-8")
        except OSError as err:
            raise InputError(f"cannot write the layout ({err})", str(out)) from None
    if ev is not None:
        _write_svg(svg, ev["_area"], f"{ch.name}: {ev['score']} points, {res['status']}")
    uses = {"always", "tokens", "pawns", "missions", "stars", "solver"} | ({"seed", "policy"} if seed is not None else set())
    basis = _basis(setup, uses, [c.mission for c in setup.challenges.items.values()])
    if as_json:
        payload = {
            "challenge": ch.id,
            "status": res["status"],
            "score": ev["score"] if ev else None,
            "bound": res["bound"],
            "bound_holds_for_game": bool(res.get("box_exhaustive") or res.get("bound_any_area")),
            "any_area_bound": res.get("any_area_bound", res["bound"] if res.get("bound_any_area") else None),
            "seconds": res["seconds"],
            "mission_met": met,
            "stars": ev.get("stars") if ev else 0,
            "star_reach": res["star_reach"],
            "box": res["box"],
            "deterministic": res.get("deterministic"),
            "wall_capped": res.get("wall_capped"),
            "layout": _layout_json(res["layout"]),
            "evaluation": _public(ev),
            "readings": basis["readings"],
            "assumptions": _basis_json(basis),
        }
        typer.echo(json.dumps(_noticed(setup, payload), indent=2))
    else:
        typer.echo("\n".join(_notice_lines(setup) + _solve_text(res, ch, title) + _basis_text(basis)))


@desert_app.command("game")
def game_cmd(
    challenge: str = typer.Option(..., "--challenge", help="sharp-boundary, lost-world or desert-of-death."),
    seed: int = typer.Option(..., "--seed", help="Seed of the solo market (8 rounds of three columns)."),
    time_limit: float = typer.Option(
        30.0, "--time-limit", help="Seconds for the perfect-foresight solver (work units when deterministic)."
    ),
    deterministic: bool = DETERMINISTIC_OPT,
    online: str = typer.Option(
        "rollout", "--online", help="Online policy: rollout (judges columns on imagined futures) or greedy."
    ),
    as_json: bool = JSON_OPT,
    svg: Optional[pathlib.Path] = SVG_OPT,
    out: Optional[pathlib.Path] = typer.Option(
        None, "--out", help="Write the perfect-foresight layout as a layout TOML (replayable with `score`)."
    ),
    online_out: Optional[pathlib.Path] = typer.Option(
        None, "--online-out", help="Write the online policy's layout as a layout TOML (replayable with `score`)."
    ),
    ruleset: Optional[pathlib.Path] = RULESET_OPT,
    catalogue: Optional[list[pathlib.Path]] = CATALOGUE_OPT,
    challenges: Optional[pathlib.Path] = CHALLENGES_OPT,
    reading: Optional[list[str]] = READING_OPT,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress line (it shows only on a terminal, on stderr)."),
    html: Optional[pathlib.Path] = typer.Option(
        None, "--html", help=(
            "Write the game as one self-contained HTML page: score and proof, readings and assumptions, a chart "
            "across the rounds, a panel per round (tiles placed that round outlined in orange) and the final score "
            "lines; drawn from the referee's replay of the perfect-foresight layout (the online policy's when "
            "no layout met the mission).")),
) -> None:
    """Play a seeded solo game: best score with perfect foresight (or its bound), an online policy, a random baseline."""
    from solver.desert.referee import evaluate
    from solver.desert_play.game import run_game
    from solver.desert.market import draw_market
    from solver.report.output import check_output_paths, write_atomic

    check_output_paths(("--html", html), ("--svg", svg), ("--out", out), ("--online-out", online_out))
    _check_time_limit(time_limit)
    setup = _setup(ruleset, catalogue, challenges, reading)
    ch = setup.challenges.get(challenge)
    if online not in ("rollout", "greedy"):
        raise InputError(f"--online must be rollout or greedy (got {online!r})", "--online")
    with progress.shown(quiet):
        res = run_game(challenge, seed, time_limit, setup=setup, online_kind=online, deterministic=deterministic)
    best, online_layout = res["_layouts"]["best"], res["_layouts"]["online"]
    if best is not None and out is not None:
        write_atomic(out, best.to_toml(f"Perfect-foresight layout, seed {seed}, {ch.name} (from {res['best_from']})"))
    if online_out is not None:
        write_atomic(online_out, online_layout.to_toml(
            f"The {online} online policy's layout, seed {seed}, {ch.name}: {_pts(res['online']['score'])}"))
    if best is not None and svg is not None:
        ev = evaluate(setup, best, ch, draw_market(seed, setup.tileset, setup.ruleset))
        _write_svg(svg, ev["_area"], f"seed {seed}, {ch.name}: {ev['score']} points (perfect foresight)")
    if html is not None:
        from solver.report.desert_page import game_page

        write_atomic(html, game_page(setup, ch, res, draw_market(seed, setup.tileset, setup.ruleset)))
        res["html_file"] = str(html)
    basis = _basis(setup, {"always", "seed", "tokens", "pawns", "missions", "stars", "solver", "policy"}, [ch.mission])
    if as_json:
        payload = {k: v for k, v in res.items() if not k.startswith("_")}
        payload["layout"] = _layout_json(best)
        payload["online"]["layout"] = _layout_json(online_layout)
        payload["readings"] = basis["readings"]
        payload["assumptions"] = _basis_json(basis)
        typer.echo(json.dumps(_noticed(setup, payload), indent=2))
        return
    th = ", ".join(f"{i}: {t}" for i, t in enumerate(ch.thresholds, 1))
    pf = res["score"]
    lines = _notice_lines(setup) + [f"Best score found: {pf if pf is not None else 'no layout meeting the mission'} -> {_stars(res['stars'])}"
             f" (upper bound {res['bound']}; proof: {res['proof']}); the online policy: {_pts(res['online']['score'])}",
             f"Solo game, seed {seed}, challenge {ch.name} (stars at {th}); mission: {ch.quote}"]
    lines.append(
        f"Perfect foresight: {pf if pf is not None else 'no layout meeting the mission found'}"
        f" -> {res['stars']} stars; proof: {res['proof']}; bound {res['bound']} "
        f"(any play area; the search stays within a {res['box'][0]}x{res['box'][1]} box); best from {res['best_from']}"
    )
    lines.append(
        "  stars reachable: "
        + ", ".join(f"{k}: {_reach(v, res['bound'], t)}" for (k, v), t in zip(res["star_reach"].items(), ch.thresholds))
    )
    side = "; ".join(f"{p['policy']} {_pts(p['score'])} (" + ("" if p["legal"] and p["mission_met"] else
                                                            "mission NOT met, ") + f"{_stars(p['stars'])})"
                     for p in res["policies"])
    lines.append(f"Policies side by side (each plays the seed without a box, replayed by the referee): {side}. "
                 f"Best policy: {res['best_policy']}" + (f"; the best layout found: {_pts(pf)}" if pf is not None else ""))
    on = res["online"]
    desc = {
        "rollout": "rollout: each column judged by playing out imagined futures; sees only the current market",
        "greedy": "greedy: best column by the end-of-game estimate; sees only the current market",
    }
    lines.append(
        f"Online policy ({desc[on['policy']]}): {on['score']} points, mission "
        f"{'met' if on['mission_met'] else 'NOT met'} -> {on['stars']} stars ({on['seconds']} s)"
    )
    if res.get("greedy"):
        g = res["greedy"]
        lines.append(
            f"Greedy policy: {g['score']} points, mission {'met' if g['mission_met'] else 'NOT met'} -> {g['stars']} stars"
        )
    rd = res["random"]
    lines.append(
        f"Random legal placer: {rd['score']} points, mission {'met' if rd['mission_met'] else 'NOT met'} -> {rd['stars']} stars"
    )
    if pf is not None:
        lines.append(f"Gap perfect foresight - online: {pf - on['score']}; online - random: {on['score'] - rd['score']}")
    lines += _online_text(setup, on, online_layout, seed)
    lines.append(f"Seconds: {res['seconds']}")
    lines.append(_mode_text(res))
    lines += _basis_text(basis)
    typer.echo("\n".join(lines))


def _online_text(setup, on: dict, layout, seed: int) -> list[str]:
    """The online policy's game: its choice each round with the value of each column, and its play area."""
    from solver.desert.referee import evaluate
    from solver.desert.market import draw_market

    out = [f"The online policy ({on['policy']}) round by round: the column taken (*) and the value it gave each column"]
    basis = None
    for t in on.get("rounds", []):
        if t["value"] != basis:
            basis = t["value"]
            out.append(f"  valued by {basis}:")
        vals = ", ".join("-" if v is None else (f"*{v:g}" if i + 1 == t["column"] else f"{v:g}")
                         for i, v in enumerate(t["values"]))
        out.append(f"    round {t['round']}: column {t['column']}; values {vals}")
    ev = evaluate(setup, layout, None, draw_market(seed, setup.tileset, setup.ruleset))
    out.append(f"The online policy's play area ({_pts(ev['score'])}; --online-out FILE writes it, replayable with "
               "`desert score`):")
    out += ["  " + line for line in _grid_text(ev["_area"])]
    return out


@desert_app.command("ceiling")
def ceiling_cmd(
    layout: pathlib.Path = typer.Argument(..., help="A game in progress: a layout TOML with the rounds played so far. "
                                          "With a top-level `seed` the rounds left are the seed's; without one "
                                          "(a real game) the columns still to come are unknown."),
    challenge: Optional[str] = typer.Option(None, "--challenge", help="Challenge id (default: the layout's `challenge`)."),
    as_json: bool = JSON_OPT,
    ruleset: Optional[pathlib.Path] = RULESET_OPT,
    catalogue: Optional[list[pathlib.Path]] = CATALOGUE_OPT,
    challenges: Optional[pathlib.Path] = CHALLENGES_OPT,
    reading: Optional[list[str]] = READING_OPT,
) -> None:
    """Mid-game ceiling: the most the game can still score from here (a line bound for any play area: over the
    seed's rounds left, or with no seed over any draw of the tiles left), and which star levels it rules out."""
    from solver.desert_play.ceiling import ceiling, ceiling_any_draw
    from solver.desert.referee import evaluate
    from solver.desert.layout import load_layout
    from solver.desert.market import draw_market

    setup = _setup(ruleset, catalogue, challenges, reading)
    lay = load_layout(layout)
    cid = challenge or lay.challenge
    ch = setup.challenges.get(cid, "--challenge" if challenge else f"{layout}: challenge") if cid else None
    market = draw_market(lay.seed, setup.tileset, setup.ruleset) if lay.seed is not None else None
    if not lay.rounds:
        raise InputError("the layout records no round: a ceiling is for a game in progress", str(layout))
    ev = evaluate(setup, lay, ch, market)
    if not ev["legal"]:
        typer.echo(f"The game so far is not legal: {ev['violation']}")
        raise typer.Exit(1)
    res = ceiling(setup, market, lay, ch) if market is not None else ceiling_any_draw(setup, lay, ch)
    res["score_now"] = ev["score"]
    uses = {"always", "tokens", "pawns", "stars"} | ({"seed"} if market else set()) | ({"missions"} if ch else {"objectives"})
    basis = _basis(setup, uses, [ch.mission] if ch else [])
    if as_json:
        res.update(layout_file=str(layout), readings=basis["readings"], assumptions=_basis_json(basis))
        typer.echo(json.dumps(_noticed(setup, res), indent=2))
        return
    over = (f"every column of the {res['rounds_left']} rounds left (seed {lay.seed})" if market is not None else
            f"any draw of the {res['rounds_left']} rounds left (no seed: the catalogue less the tiles placed, the "
            "columns' shapes, every future token counted as allowing any pawn)")
    lines = _notice_lines(setup) + [f"Ceiling: at most {_pts(res['ceiling'])} at the end of this game (proved: a line bound for any play "
             f"area, over the tiles placed in rounds 1 to {res['after_round']} and {over})",
             f"Score of the play area now: {_pts(ev['score'])} after round {res['after_round']}"]
    if "objectives" in res["lines"]:
        lines.append(f"  objective tiles: at most {_pts(res['lines']['objectives'])} in the objectives line, their "
                     "tiles counted in the other lines [ruleset objective_tiles_in_play, objective_points]")
    if ch is not None:
        lines.append(f"Mission: {res['mission']['status']} ({res['mission']['reason']})")
        lines.append(f"{ch.name}: " + ", ".join(f"{_stars(int(k))} ({t}): {v}"
                                                for (k, v), t in zip(res["stars"].items(), ch.thresholds)))
    lines.append("The ceiling does not see where the tiles already lie" +
                 ("" if market is not None else " nor which tiles will come") + ", so it is loose early in a game.")
    lines += _basis_text(basis)
    typer.echo("\n".join(lines))
