"""`aos-solve desert advise`: which column to take this round, where its tiles go, which pawns to place.

It adds itself to the `desert` command group (solver/cli/desert.py); the advice
is solver/desert_play/advise.py, the same function the app's Desert page calls.
"""
from __future__ import annotations

import json
import pathlib
from typing import Optional

import typer

from solver.board.errors import InputError
from solver.report.words import ordinal, plural
from solver.cli.desert import (CATALOGUE_OPT, CHALLENGES_OPT, JSON_OPT, READING_OPT, RULESET_OPT, _basis, _basis_json,
                               _basis_text, _noticed, _setup, desert_app)


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
    reading: Optional[list[str]] = READING_OPT,
    policy: str = typer.Option("lookahead", "--policy", help="lookahead (default: each column judged on imagined "
                               "futures played with the rollout policy) or greedy (the estimate now)."),
    time: float = typer.Option(3.0, "--time", help="CPU seconds the lookahead may spend on this round (it stops "
                               "adding futures after; at least one is played). 0 = no limit."),
    futures: int = typer.Option(8, "--futures", help="Imagined futures per column at most (the lookahead)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the imagined futures (same seed, same advice, unless "
                             "--time cuts the futures short)."),
    work: int = typer.Option(0, "--work", help="Deterministic budget of the lookahead: a next future only while the "
                             "work (tiles offered to the placer in the imagined rounds) fits; the same advice on "
                             "every machine (with --time 0). 0 = no limit."),
) -> None:
    """Advice for this round of your game: the column, where each tile goes, which pawns, and the score so far.

    The advice is the lookahead policy (each column judged on imagined futures played out with the rollout policy
    of `desert game`), not a proof of the best move; every column's play is replayed and scored by the referee.
    Positions are in the record's own frame (the start tile where the --area file puts it)."""
    from solver.desert_play.advise import advise
    from solver.desert.layout import Layout, load_layout
    from solver.report.output import check_output_path, write_atomic

    import math

    check_output_path(out, "--out")
    if not math.isfinite(time) or time < 0:
        raise InputError(f"--time must be a finite number of seconds >= 0, got {time}", "--time")
    if futures < 1:
        raise InputError(f"--futures must be at least 1, got {futures}", "--futures")
    if work < 0:
        raise InputError(f"--work must be >= 0, got {work}", "--work")
    setup = _setup(ruleset, catalogue, challenges, reading)
    record = load_layout(area) if area is not None else Layout(source="the game so far")
    if record.seed is not None:
        raise InputError("this record names a seed: `desert game --seed` plays seeded games; advice is for the "
                         "columns you see", str(area))
    cid = challenge or record.challenge
    ch = setup.challenges.get(cid, "--challenge" if challenge else f"{area}: challenge") if cid else None
    record.challenge = ch.id if ch else None
    token_list = [t.strip() for t in tokens.split(",") if t.strip()]
    data = advise(setup, record, parse_columns(columns), token_list, ch, policy, futures, time or None, seed,
                  work_budget=work or None)
    data.pop("_area")
    basis = _basis(setup, {"always", "tokens", "pawns", "policy"} | ({"missions", "stars"} if ch else set()),
                   [ch.mission] if ch else [])
    data["readings"] = basis["readings"]
    data["assumptions"] = _basis_json(basis)
    data["basis_text"] = _basis_text(basis)
    data = _noticed(setup, data)
    if out is not None:
        write_atomic(out, data["record"] + "\n")
        data["record_file"] = str(out)
    if as_json:
        data.pop("basis_text")
        typer.echo(json.dumps(data, indent=2))
        return
    typer.echo("\n".join(advice_text(data)))


def advice_text(data: dict) -> list[str]:
    sx, sy = data["start_at"]
    lines = ([data["data_notice"]["text"]] if data.get("data_notice") else []) + [f"Round {data['round']} of {data['rounds_total']}"
             + (f" (challenge {data['challenge']})" if data["challenge"] else "")
             + f": take column {data['column']}"]
    for t in data["tiles"]:
        lines.append(f"  place {t['tile']} at ({t['at'][0]}, {t['at'][1]}), turned {plural(t['rotation'], 'quarter turn')} "
                     f"clockwise: {t['sides']}")
    if data["tiles_left_out"]:
        lines.append(f"  {plural(data['tiles_left_out'], 'tile')} of the column fit nowhere: leave them out")
    for p in data["pawns"]:
        lines.append(f"  place a {p['kind']} pawn (the {p['token']} token) on the tile at ({p['at'][0]}, {p['at'][1]}), "
                     f"its {ordinal(p['pinpoint'])} pinpoint: {plural(p['points'], 'point')}")
    if not data["pawns"]:
        lines.append("  no pawn can score this round")
    lines.append(f"  (positions (x, y) in the record's frame: the start tile is at ({sx}, {sy}), x grows east, "
                 "y grows south; sides named north/east/south/west)")
    lines.append("Columns compared (" + data["value_basis"] + "):")
    for c in data["columns"]:
        where = "; ".join(f"{t['tile']} at ({t['at'][0]}, {t['at'][1]}) [{t['sides']}]" for t in c["placements"])
        lines.append(f"  column {c['column']} ({', '.join(c['tiles'])}): value {c['value']}, places {c['placed']} "
                     f"of {len(c['tiles'])}: {where or 'nothing'}; {plural(len(c['pawns']), 'pawn')}; score after "
                     f"{c['score_after']}")
    before = "" if data["score_before"] is None else f" (was {data['score_before']})"
    lines.append(f"Score so far, replayed by the referee: {data['score_after']}{before}")
    if data.get("mission"):
        m, reach = data["mission"], data["stars_reachable"]
        lines.append(f"Mission: {m['status']} ({m['reason']})")
        lines.append("Star levels still reachable: " + (", ".join(map(str, reach["levels"])) or "none")
                     + f" ({reach['why']})")
    if data["finished"]:
        lines.append("The game is over" + (f": {plural(data['stars'], 'star')}, mission "
                                           f"{'met' if data['mission_met'] else 'not met'}" if data["challenge"] else ""))
    if data.get("record_file"):
        lines.append(f"The game so far: {data['record_file']} (give it as --area next round)")
    lines.append(f"The advice is the {data['policy']} policy, not a proof of the best move.")
    lines += data["basis_text"]
    return lines


def register(app: typer.Typer) -> None:  # noqa: ARG001 - joins the desert group, which desert.py registers
    desert_app.command("advise")(advise_cmd)
