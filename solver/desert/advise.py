"""Advice for one round of a Desert game a player is playing at the table.

The player has a record of the game so far (a layout file, as `desert score`
reads it; none in round 1) and sees this round's columns and active tokens. The
advice is the online greedy policy's choice for this round (solver.desert.game:
each column's tiles placed one by one where the end-of-game estimate is best,
the pawns assigned exactly, the column with the best value taken; in the last
round the referee's final score decides), so it is the policy `desert game`
measures, not a proof of the best move. The record with the advised round added
is replayed by the referee, which gives the score so far.
"""
from __future__ import annotations

from solver.board.errors import InputError
from solver.desert import tokens as token_stack
from solver.desert.area import PlayArea
from solver.desert.game import PAWN_BONUS, Setup, _pawn_bonus, _place_pawns, _play_column, _potential, evaluate
from solver.desert.layout import Layout, RoundPlay, active_slots, column_fits, column_shapes
from solver.desert.tiles import PAWN_KINDS, STAR


def _area_so_far(setup: Setup, record: Layout, ch) -> tuple[PlayArea, dict | None]:
    """The play area after the recorded rounds (the referee's replay), or the start tile alone."""
    if not record.rounds:
        area = PlayArea(setup.tileset, setup.ruleset)
        area.place(setup.tileset.start.rotated(record.start_rotation), record.start_at, 0)
        return area, None
    ev = evaluate(setup, record, ch)
    if not ev["legal"]:
        raise InputError(f"the game so far is not legal: {ev['violation']}", "--area")
    return ev["_area"], ev


def check_offer(setup: Setup, record: Layout, columns: list[list[str]], tokens: list[str]) -> int:
    """This round's number, after checking the columns and tokens as a game record would be checked."""
    rs, ts = setup.ruleset, setup.tileset
    number = len(record.rounds) + 1
    if number > rs["rounds"]:
        raise InputError(f"the game so far already has all {rs['rounds']} rounds", "--area")
    if not columns or len(columns) > len(rs["solo_columns"]):
        raise InputError(f"expected 1 to {len(rs['solo_columns'])} columns (the solo game shows "
                         f"{len(rs['solo_columns'])}), got {len(columns)}", "--columns")
    seen_ids = [tp.tile for rp in record.rounds for tp in rp.tiles]
    for k, col in enumerate(columns, start=1):
        if not col:
            raise InputError(f"column {k} is empty", "--columns")
        for tid in col:
            tile = ts.get(tid)
            if tile is None or tid == ts.start.id:
                raise InputError(f"column {k}: unknown tile id {tid!r} (not in the loaded catalogues)", "--columns")
        kinds = [ts.get(t).kind for t in col]
        if not column_fits(kinds, rs):
            raise InputError(f"column {k}: {kinds.count('core')} core + {kinds.count('desert')} desert tiles; one "
                             f"solo column holds at most {column_shapes(rs)} [ruleset solo_columns, column_mix]",
                             "--columns")
    for tid in {t for col in columns for t in col}:
        copies = ts.bag(ts.get(tid).kind).count(tid)
        shown = sum(col.count(tid) for col in columns) + seen_ids.count(tid)
        if shown > copies:
            raise InputError(f"tile {tid} is shown {shown} time(s) with the game so far, but the catalogue has "
                             f"{copies}", "--columns")
    bad = [t for t in tokens if t not in PAWN_KINDS + (STAR,)]
    if bad:
        raise InputError(f"unknown token(s) {bad}; expected {', '.join(PAWN_KINDS + (STAR,))}", "--tokens")
    if len(tokens) > active_slots(number, rs):
        raise InputError(f"{len(tokens)} active tokens in round {number}; the active area holds "
                         f"{active_slots(number, rs)} then [ruleset active_area_size, tokens_revealed_per_round]",
                         "--tokens")
    listed = [rp.tokens for rp in record.rounds] + [list(tokens)]
    used = [[pp.token for pp in rp.pawns] for rp in record.rounds] + [[]]
    stack, window = rs.token_stack(), rs["active_area_size"]
    if not token_stack.explained(stack, window, listed, used):
        raise InputError(f"round {number}: {token_stack.why(stack, window, listed, used, number)} [ruleset "
                         "placement_tokens, desert_token_swap, active_area_size, tokens_revealed_per_round]", "--tokens")
    return number


def advise(setup: Setup, record: Layout, columns: list[list[str]], tokens: list[str], ch=None) -> dict:
    """The column to take, where each tile goes, which pawns to place, and the record with this round added."""
    rs = setup.ruleset
    number = check_offer(setup, record, columns, tokens)
    area, before = _area_so_far(setup, record, ch)
    box = tuple(rs["play_area_bound"])
    last = number == rs["rounds"]
    options = []
    for k, col in enumerate(columns):
        trial = area.copy()
        tiles = _play_column(trial, list(col), number, ch, box, None)
        pawns = _place_pawns(trial, tuple(tokens), ch, None, number)
        play = RoundPlay(number, tokens=list(tokens), tiles=tiles, pawns=pawns)
        lay = Layout(record.start_at, record.start_rotation, list(record.rounds) + [play], record.challenge, None,
                     "the game so far")
        ev = evaluate(setup, lay, ch)                       # the referee replays every option
        if last:
            value = ev["score"] - (0 if ev["legal"] and (ch is None or ev.get("mission_met")) else 1000)
        else:
            value = _potential(trial) + _pawn_bonus(trial) - (0 if ev["legal"] else 1000)
        options.append({"column": k + 1, "tiles": list(col), "placed": len(tiles), "value": round(value, 2),
                        "legal": ev["legal"], "_lay": lay, "_ev": ev})
    best = max(options, key=lambda o: (o["value"], -o["column"]))
    lay, ev = best["_lay"], best["_ev"]
    if not ev["legal"]:
        raise InputError(f"no column can be played legally: {ev['violation']}", "--columns")
    play = lay.rounds[-1]
    kinds = {(p.round, tuple(p.cell), p.token): p for p in ev["_area"].pawns}
    return {
        "round": number, "rounds_total": rs["rounds"], "challenge": ch.id if ch else None,
        "column": best["column"],
        "value_basis": ("the referee's final score (mission not met: -1000)" if last else
                        f"end-of-game estimate: score now + 0.3 a free pinpoint + pawn points x{PAWN_BONUS:g} again"),
        "columns": [{k: v for k, v in o.items() if not k.startswith("_")} for o in options],
        "tiles": [{"tile": t.tile, "at": list(t.at), "rotation": t.rotation} for t in play.tiles],
        "tiles_left_out": len(columns[best["column"] - 1]) - len(play.tiles),
        "pawns": [{"at": list(p.at), "pinpoint": p.pinpoint, "token": p.token,
                   "kind": getattr(kinds.get((number, tuple(p.at), p.token)), "kind", None),
                   "points": getattr(kinds.get((number, tuple(p.at), p.token)), "points", None)} for p in play.pawns],
        "score_before": before["score"] if before else None,
        "score_after": ev["score"], "lines": ev["lines"],
        "finished": number == rs["rounds"],
        "stars": ev.get("stars") if number == rs["rounds"] else None,
        "mission_met": ev.get("mission_met"),
        "record": lay.to_toml(f"Railroad Tiles Desert: the game so far, {number} of {rs['rounds']} rounds "
                              "(aos-solve desert advise)"),
        "assumptions": setup.assumptions(),
        "_area": ev["_area"],
    }
