"""Advice for one round of a Desert game a player is playing at the table.

The player has a record of the game so far (a layout file, as `desert score`
reads it; none in round 1) and sees this round's columns and active tokens. The
advice is the lookahead policy (solver.desert_play.lookahead: each column's tiles placed
greedily and its pawns exactly, then judged on imagined futures played out with the
rollout policy of `desert game`; in the last round the referee's final score decides),
or with policy="greedy" the online greedy policy; a policy, not a proof of the best
move. Tiles may go anywhere on the table: no box (the game's play area has no edge). The record with the advised round added
is replayed by the referee, which gives the score so far.
"""
from __future__ import annotations

from solver.board.errors import InputError
from solver.desert import missions, readings, tokens as token_stack
from solver.desert.area import PlayArea
from solver.desert.layout import Layout, RoundPlay, active_slots, column_fits, column_shapes
from solver.desert.referee import evaluate
from solver.desert.setup import Setup
from solver.desert.tiles import DIR_WORDS, DIRS, PAWN_KINDS, STAR
from solver.desert_play import lookahead
from solver.desert_play.policies import PAWN_BONUS, pawn_bonus_of, place_pawns, play_column, potential


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


def tile_words(tile) -> str:
    """The sides of an oriented tile in words: "railroad north, highway south, empty east and west"."""
    by_kind: dict[str, list[str]] = {}
    for d in DIRS:
        by_kind.setdefault(tile.sides[d], []).append(DIR_WORDS[d])
    return ", ".join(f"{kind} {' and '.join(ds)}" for kind, ds in by_kind.items())


def _tiles_json(setup: Setup, plays) -> list[dict]:
    out = []
    for t in plays:
        tile = setup.tileset.get(t.tile).rotated(t.rotation)
        out.append({"tile": t.tile, "at": list(t.at), "rotation": t.rotation, "sides": tile_words(tile),
                    "side_kinds": dict(zip(DIR_WORDS, tile.sides))})
    return out


def advise(setup: Setup, record: Layout, columns: list[list[str]], tokens: list[str], ch=None,
           policy: str = "lookahead", futures: int = 8, time_budget: float | None = 3.0, seed: int = 0,
           work_budget: int | None = None) -> dict:
    """The column to take, where each tile goes, which pawns to place, and the record with this round added.

    ``policy`` "lookahead" (default): each column judged on imagined futures played out with the rollout
    policy (solver.desert_play.lookahead; ``futures`` at most, within ``time_budget`` CPU seconds and
    ``work_budget`` (deterministic work), seeded by ``seed``); "greedy": the end-of-game estimate now.  The last round is judged on the referee's final
    score.  Tiles go anywhere on the table (no box: the game's play area has no edge)."""
    rs = setup.ruleset
    if policy not in ("lookahead", "greedy"):
        raise InputError(f"unknown policy {policy!r}; expected lookahead or greedy", "--policy")
    number = check_offer(setup, record, columns, tokens)
    area, before = _area_so_far(setup, record, ch)
    last = number == rs["rounds"]
    look = None
    if policy == "lookahead" and not last:
        seen = [tp.tile for rp in record.rounds for tp in rp.tiles] + [t for col in columns for t in col]
        look = lookahead.column_values(setup, area, number, columns, tokens, ch, seen, futures, time_budget, seed,
                                       work_budget=work_budget)
    options = []
    for k, col in enumerate(columns):
        if look is not None:
            trial, tiles, pawns = look["plays"][k]
        else:
            trial = area.copy()
            tiles = play_column(trial, list(col), number, ch, None, None)
            pawns = place_pawns(trial, tuple(tokens), ch, None, number)
        play = RoundPlay(number, tokens=list(tokens), tiles=tiles, pawns=pawns)
        lay = Layout(record.start_at, record.start_rotation, list(record.rounds) + [play], record.challenge, None,
                     "the game so far")
        ev = evaluate(setup, lay, ch)                       # the referee replays every option
        penalty = 0 if ev["legal"] else 1000
        if last:
            value = ev["score"] - (0 if ev["legal"] and (ch is None or ev.get("mission_met")) else 1000)
        elif look is not None:
            value = look["values"][k] - penalty
        else:
            value = potential(trial) + pawn_bonus_of(trial) - penalty
        options.append({"column": k + 1, "tiles": list(col), "placed": len(tiles), "value": round(value, 2),
                        "legal": ev["legal"], "placements": _tiles_json(setup, tiles),
                        "pawns": [{"at": list(p.at), "pinpoint": p.pinpoint, "token": p.token} for p in pawns],
                        "score_after": ev["score"], "_lay": lay, "_ev": ev})
    best = max(options, key=lambda o: (o["value"], -o["column"]))
    lay, ev = best["_lay"], best["_ev"]
    if not ev["legal"]:
        raise InputError(f"no column can be played legally: {ev['violation']}", "--columns")
    play = lay.rounds[-1]
    kinds = {(p.round, tuple(p.cell), p.token): p for p in ev["_area"].pawns}
    if last:
        basis = "the referee's final score (mission not met: -1000)"
    elif look is not None:
        basis = look["basis"] + (f"; the {time_budget:g} s budget stopped it after {look['futures']} of "
                                 f"{look['futures_asked']} futures (a run on another machine may differ)"
                                 if look["cut_by_time"] else "")
        basis += (f"; the work budget ({work_budget}) stopped it after {look['futures']} of {look['futures_asked']} "
                  "futures" if look["cut_by_work"] else "")
    else:
        basis = f"end-of-game estimate: score now + 0.3 a free pinpoint + pawn points x{PAWN_BONUS:g} again"
    status = missions.status(ch, ev["_area"], last) if ch else None
    return {
        "round": number, "rounds_total": rs["rounds"], "challenge": ch.id if ch else None,
        "policy": policy, "column": best["column"], "value_basis": basis,
        "lookahead": ({k: look[k] for k in ("futures", "futures_asked", "cut_by_time", "cut_by_work", "work",
                                         "cpu_seconds")}
                      | {"seed": seed, "time_budget": time_budget, "work_budget": work_budget} if look else None),
        "columns": [{k: v for k, v in o.items() if not k.startswith("_")} for o in options],
        "tiles": _tiles_json(setup, play.tiles),
        "tiles_left_out": len(columns[best["column"] - 1]) - len(play.tiles),
        "pawns": [{"at": list(p.at), "pinpoint": p.pinpoint, "token": p.token,
                   "kind": getattr(kinds.get((number, tuple(p.at), p.token)), "kind", None),
                   "points": getattr(kinds.get((number, tuple(p.at), p.token)), "points", None)} for p in play.pawns],
        "start_at": list(record.start_at),
        "score_before": before["score"] if before else None,
        "score_after": ev["score"], "lines": ev["lines"],
        "finished": last,
        "stars": ev.get("stars") if last else None,
        "mission_met": ev.get("mission_met"),
        "mission": status,
        "stars_reachable": (_stars_reachable(setup, ch, status, ev, last, lay, [t for col in columns for t in col])
                            if ch else None),
        "readings": readings.stated(rs),
        "record": lay.to_toml(f"Railroad Tiles Desert: the game so far, {number} of {rs['rounds']} rounds "
                              "(aos-solve desert advise)"),
        "assumptions": setup.assumptions(),
        "_area": ev["_area"],
    }


def _stars_reachable(setup: Setup, ch, status: dict, ev: dict, finished: bool, lay: Layout,
                     shown: list[str]) -> dict:
    """The star levels still reachable: none once the mission is lost for good (a missed mission earns
    challenges.toml's mission_failed_stars); after the last round the stars earned; otherwise the levels not
    above the ceiling over any draw of the rounds left (solver.desert_play.ceiling.ceiling_any_draw, the tiles shown
    this round counted as gone): a level above it is out of reach, proved."""
    from solver.desert_play.ceiling import ceiling_any_draw

    levels = list(range(1, len(ch.thresholds) + 1))
    if finished:
        return {"levels": list(range(1, (ev.get("stars") or 0) + 1)), "why": "the game is over"}
    if status["status"] == "lost for good":
        return {"levels": list(range(1, setup.challenges.failed_stars + 1)),
                "why": f"the mission is lost for good; a missed mission earns {setup.challenges.failed_stars} "
                       f"star{'' if setup.challenges.failed_stars == 1 else 's'} "
                       "[challenges.toml mission_failed_stars]"}
    top = ceiling_any_draw(setup, lay, ch, shown)["ceiling"]
    open_ = [i for i in levels if ch.reaches(top, ch.thresholds[i - 1])]
    out_ = [i for i in levels if i not in open_]
    why = (f"the mission can still be met; the ceiling over any draw of the rounds left is {top} points"
           + (f", so level{'s' if len(out_) > 1 else ''} {', '.join(map(str, out_))} "
              f"{'are' if len(out_) > 1 else 'is'} out of reach (proved)" if out_ else
              ", above every level: none is proved out of reach yet"))
    return {"levels": open_, "ceiling": top, "why": why}
