"""`aos-solve desert advise`: which column to take this round, where its tiles go, which pawns to place.

It adds itself to the `desert` command group (solver/cli/desert.py); the advice
is solver/desert/advise.py, the same function the app's Desert page calls.
"""
from __future__ import annotations

import json
import pathlib
from typing import Optional

import typer

from solver.board.errors import InputError
from solver.report.words import ordinal, plural
from solver.cli.desert import CATALOGUE_OPT, CHALLENGES_OPT, JSON_OPT, RULESET_OPT, _setup, desert_app


def parse_columns(texts: list[str]) -> list[list[str]]:
    """--columns C21,D06 --columns C19,D23,D22 ...: one option per column, tile ids top to bottom."""
    out = []
    for text in texts:
        ids = [t.strip() for t in text.split(",") if t.strip()]
        if not ids:
            raise InputError(f"expected tile ids separated by commas, got {text!r}", "--columns")
        out.append(ids)
    return out


def advise_cmd(
    columns: list[str] = typer.Option(..., "--columns", help="One column as tile ids top to bottom, comma-separated "
                                      "(e.g. C21,D06); give it once per column shown this round."),
    tokens: str = typer.Option("", "--tokens", help="The active placement tokens this round, comma-separated "
                               "(camel, car, train, traveler, star)."),
    area: Optional[pathlib.Path] = typer.Option(None, "--area", help="The game so far: a layout TOML (as `desert "
                                                "score` reads and --out writes); leave out in round 1."),
    challenge: Optional[str] = typer.Option(None, "--challenge", help="Challenge id (default: the area file's)."),
    out: Optional[pathlib.Path] = typer.Option(None, "--out", help="Write the game so far with the advised round "
                                               "added (a layout TOML: next round's --area)."),
    as_json: bool = JSON_OPT,
    ruleset: Optional[pathlib.Path] = RULESET_OPT,
    catalogue: Optional[list[pathlib.Path]] = CATALOGUE_OPT,
    challenges: Optional[pathlib.Path] = CHALLENGES_OPT,
) -> None:
    """Advice for this round of your game: the column, where each tile goes, which pawns, and the score so far.

    The advice is the online greedy policy of `desert game` (not a proof of the best move); the game so far
    with the advised round is replayed and scored by the referee."""
    from solver.desert.advise import advise
    from solver.desert.layout import Layout, load_layout
    from solver.report.output import check_output_path, write_atomic

    check_output_path(out, "--out")
    setup = _setup(ruleset, catalogue, challenges)
    record = load_layout(area) if area is not None else Layout(source="the game so far")
    if record.seed is not None:
        raise InputError("this record names a seed: `desert game --seed` plays seeded games; advice is for the "
                         "columns you see", str(area))
    cid = challenge or record.challenge
    ch = setup.challenges.get(cid, "--challenge" if challenge else f"{area}: challenge") if cid else None
    record.challenge = ch.id if ch else None
    token_list = [t.strip() for t in tokens.split(",") if t.strip()]
    data = advise(setup, record, parse_columns(columns), token_list, ch)
    data.pop("_area")
    if out is not None:
        write_atomic(out, data["record"] + "\n")
        data["record_file"] = str(out)
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    typer.echo("\n".join(advice_text(data)))


def advice_text(data: dict) -> list[str]:
    lines = [f"Round {data['round']} of {data['rounds_total']}"
             + (f" (challenge {data['challenge']})" if data["challenge"] else "")
             + f": take column {data['column']}"]
    for t in data["tiles"]:
        lines.append(f"  place {t['tile']} at ({t['at'][0]}, {t['at'][1]}), rotation {t['rotation']} "
                     "(quarter turns clockwise)")
    if data["tiles_left_out"]:
        lines.append(f"  {data['tiles_left_out']} tile(s) of the column fit nowhere: leave them out")
    for p in data["pawns"]:
        lines.append(f"  place a {p['kind']} pawn (the {p['token']} token) on the tile at ({p['at'][0]}, {p['at'][1]}), "
                     f"its {ordinal(p['pinpoint'])} pinpoint: {plural(p['points'], 'point')}")
    if not data["pawns"]:
        lines.append("  no pawn can score this round")
    lines.append("  (positions (x, y) count tiles from the start tile at (0, 0): x to the right, y down)")
    lines.append("Columns compared (" + data["value_basis"] + "): " + ", ".join(
        f"{c['column']}: {c['value']}" for c in data["columns"]))
    before = "" if data["score_before"] is None else f" (was {data['score_before']})"
    lines.append(f"Score so far, replayed by the referee: {data['score_after']}{before}")
    if data["finished"]:
        lines.append("The game is over" + (f": {plural(data['stars'], 'star')}, mission "
                                           f"{'met' if data['mission_met'] else 'not met'}" if data["challenge"] else ""))
    if data.get("record_file"):
        lines.append(f"The game so far: {data['record_file']} (give it as --area next round)")
    lines.append("The advice is the online greedy policy of `desert game`, not a proof of the best move.")
    lines.append("Assumptions this result depends on (instances/desert/ruleset.toml, challenges.toml):")
    lines += [f"  - {a['key']} = {a['value']}: {a['reason']}" for a in data["assumptions"]]
    return lines


def register(app: typer.Typer) -> None:  # noqa: ARG001 - joins the desert group, which desert.py registers
    desert_app.command("advise")(advise_cmd)
