"""What the star levels of a game can still be: proofs that hold for the game, and a ceiling
for a game in progress ("can I still reach 55?").

After rounds 1..k of a seeded game the columns taken are fixed and the rest of the
market is the seed's.  Every way to finish the game is a legal layout of the tiles taken
so far plus one column of each round left, with legal pawns; the line bound of
models/desert_layout/bounds.py holds for every layout of those tiles in ANY play area
(its argument is there, tested against exhaustive search).  So the line bound over the
markets with rounds 1..k cut to the column taken is a ceiling on the final score of every
continuation of this game, and a star level above it is proved out of reach.  It does not
see where the tiles already lie (a weaker ceiling than the position deserves, never a
wrong one).
"""
from __future__ import annotations

from collections import Counter

from models.desert_layout.bounds import _Column, column_summary, holdings_bound, line_bounds
from solver.desert import missions
from solver.desert.area import PlayArea, token_allows
from solver.desert.layout import Layout, active_slots, replay
from solver.desert.market import Market
from solver.desert.missions import Challenge
from solver.desert.scoring import score_total
from solver.desert.tiles import PAWN_KINDS


def ceiling(setup, market: Market, layout: Layout, ch=None) -> dict:
    """The ceiling after the rounds ``layout`` records (a prefix of the seed's game).

    Objective tiles (no challenge: the solo challenges use none) come from outside the market:
    those placed are added to their round's taken column, and those a play area may still take
    (ruleset objective_tiles_in_play of each objective, less those placed) to every column of
    the next round, the earliest they could come (every part of the line bound grows with the
    tiles held by a round, so the earliest round bounds every later one); each of them adds at
    most ``objective_points`` in an objectives line.  The star levels are settled where the
    game settles them: after the last round by the score, and none once the mission is lost for
    good (solver.desert.missions.status)."""
    rs, ts = setup.ruleset, setup.tileset
    played = len(layout.rounds)
    placed_obj = [tp.tile for rp in layout.rounds for tp in rp.tiles if ts.get(tp.tile) and ts.get(tp.tile).objective]
    still = []
    if ch is None and played < len(market.rounds):
        for kind in sorted({t.objective for t in ts.objectives.values()}):
            room = rs["objective_tiles_in_play"] - sum(1 for t in placed_obj if ts.get(t).objective == kind)
            copies = [t.id for t in ts.objectives.values() if t.objective == kind for _ in range(t.count)]
            still += copies[:max(0, room)]
    cols = []
    for o in market.rounds:
        if o.number <= played:
            rp = layout.rounds[o.number - 1]
            extra = [tp.tile for tp in rp.tiles if tp.tile in placed_obj]
            cols.append([list(o.columns[rp.column - 1]) + extra] if rp.column else
                        [list(c) + extra for c in o.columns])
        elif o.number == played + 1:
            cols.append([list(c) + still for c in o.columns])
        else:
            cols.append([list(c) for c in o.columns])
    toks = [list(o.tokens) for o in market.rounds]
    lb = line_bounds(ts, rs, cols, toks, None)
    lines = dict(lb.lines)
    objective_max = rs["objective_points"] * (len(placed_obj) + len(still))
    total = lb.total + objective_max
    if placed_obj or still:
        lines["objectives"] = objective_max
    out = {"after_round": played, "rounds_left": len(market.rounds) - played, "ceiling": total, "lines": lines}
    if ch is not None:
        rep = replay(layout, ts, rs, market)
        finished = played >= rs["rounds"]
        status = missions.status(ch, rep.area, finished)
        out["mission"] = status
        score = None
        if finished:
            score = score_total(rep.area)
        out["stars"] = _star_words(setup, ch, status, finished, score, total)
    return out


def _star_words(setup, ch, status: dict, finished: bool, score: int | None, total: int) -> dict:
    """Each star level settled or open: after the last round by the score; once the mission is lost for good
    only the missed mission's stars; otherwise a level above the ceiling is out of reach (proved)."""
    stars = {}
    for i, t in enumerate(ch.thresholds, 1):
        if finished:
            stars[str(i)] = ("reached" if status["status"] == "met" and ch.reaches(score, t) else
                             "not reached (the game is over)")
        elif status["status"] == "lost for good" and i > setup.challenges.failed_stars:
            stars[str(i)] = "out of reach (proved: the mission is lost for good)"
        elif ch.reaches(total, t):
            stars[str(i)] = "still open"
        else:
            stars[str(i)] = "out of reach (proved: above the ceiling)"
    return stars


def _add(a, b):
    return _Column(a.tiles + b.tiles, a.city_tiles + b.city_tiles, a.icons + b.icons,
                   tuple(x + y for x, y in zip(a.marks, b.marks)), tuple(x + y for x, y in zip(a.pins, b.pins)),
                   a.trail_sides + b.trail_sides, a.rh_sides + b.rh_sides, a.trail_excess + b.trail_excess)


def _fields(c) -> tuple[int, ...]:
    return (c.tiles, c.city_tiles, c.icons, *c.marks, *c.pins, c.trail_sides, c.rh_sides, c.trail_excess)


def _from_fields(v: list[int], n_marks: int):
    m, p = 3 + n_marks, 3 + n_marks + len(PAWN_KINDS)
    return _Column(v[0], v[1], v[2], tuple(v[3:m]), tuple(v[m:p]), v[p], v[p + 1], v[p + 2])


def _mixes(shapes: list[tuple[int, int]], m: int) -> set[tuple[int, int]]:
    """The (core, desert) tile counts m columns can hold together, one column of the given shapes a round."""
    got = {(0, 0)}
    for _ in range(m):
        got = {(c + a, d + b) for c, d in got for a, b in shapes}
    return got


def ceiling_any_draw(setup, layout: Layout, ch=None, last_shown: list[str] | None = None) -> dict:
    """The ceiling after the rounds ``layout`` records when the columns still to come are unknown (no seed):
    a bound over ANY draw of them.

    Why it is an upper bound.  The tiles of the finished play area are those placed so far (known) and, for
    each round left, at most the tiles of the one column taken.  Each such column is drawn from the catalogue
    less the tiles placed so far (with ``last_shown``, the tiles shown in the last round recorded, in
    place of those it placed: taken or discarded, all are gone from the bags), and holds one of the solo column shapes (ruleset solo_columns and column_mix: so many core and so
    many desert tiles).  So after m more rounds the new tiles are at most C core and D desert tiles of the
    bags left, (C, D) a sum of m shapes; for every field of the line bound's tile summary (tiles, city tiles,
    icons, each landmark type, each pawn kind's pinpoints, trail and railroad/highway sides, trail excess:
    all counts >= 0 per tile) the sum over ANY such choice is at most the sum of the C largest core values
    plus the D largest desert values, maximised over the (C, D) reachable.  Taken field by field these
    maxima are at least what the real tiles hold, round by round.  The future tokens are unknown: each
    opportunity of a round left is counted as a token allowing every pawn kind the stack's tokens allow (a
    relaxation: more kinds only raise the pawn bound), the active area's size being known (active_slots);
    the rounds played count only the pawns really placed, each of its own kind.  The line bound of
    models/desert_layout/bounds.py (holdings_bound: every part of it grows with each field and with the kinds
    allowed) then holds for every layout of every draw, in any play area.  Objective tiles are counted as
    the seeded ceiling counts them.  Loose by design: it sees neither the draw nor where tiles lie."""
    rs, ts = setup.ruleset, setup.tileset
    types = list(rs["landmark_types"])
    if layout.rounds:
        area = replay(layout, ts, rs).area
    else:  # before round 1: the start tile alone
        area = PlayArea(ts, rs)
        area.place(ts.start.rotated(layout.start_rotation), layout.start_at, 0)
    played = len(layout.rounds)
    placed = [[tp.tile for tp in rp.tiles] for rp in layout.rounds]
    placed_obj = [t for r in placed for t in r if ts.get(t).objective]
    still = []
    if ch is None and played < rs["rounds"]:
        for kind in sorted({t.objective for t in ts.objectives.values()}):
            room = rs["objective_tiles_in_play"] - sum(1 for t in placed_obj if ts.get(t).objective == kind)
            copies = [t.id for t in ts.objectives.values() if t.objective == kind for _ in range(t.count)]
            still += copies[:max(0, room)]
    held = [column_summary([ts.start], types)]
    for r in placed:
        held.append(_add(held[-1], column_summary([ts.get(t) for t in r], types)))
    left = {}
    gone = Counter(t for r in placed for t in r)
    if last_shown is not None and placed:
        gone = gone - Counter(placed[-1]) + Counter(last_shown)
    for kind in ("core", "desert"):
        bag = Counter(ts.bag(kind)) - gone
        left[kind] = [_fields(column_summary([ts.get(t)], types)) for t in bag.elements()]
    shapes = [(rs["column_mix"][str(size)].count("core"), rs["column_mix"][str(size)].count("desert"))
              for size in rs["solo_columns"]]
    n_f = len(_fields(held[0]))
    tops = {}  # per kind, per field: prefix sums of the values, largest first
    for kind, vals in left.items():
        tops[kind] = []
        for f in range(n_f):
            col = sorted((v[f] for v in vals), reverse=True)
            pref = [0]
            for x in col:
                pref.append(pref[-1] + x)
            tops[kind].append(pref)
    base = _add(held[-1], column_summary([ts.get(t) for t in still], types)) if still else held[-1]
    for m in range(1, rs["rounds"] - played + 1):
        mixes = _mixes(shapes, m)
        extra = [max(tops["core"][f][min(c, len(tops["core"][f]) - 1)] +
                     tops["desert"][f][min(d, len(tops["desert"][f]) - 1)] for c, d in mixes) for f in range(n_f)]
        held.append(_add(base, _from_fields(extra, len(types))))
    every = [k for k in PAWN_KINDS if any(token_allows(t, k, rs) for t in set(rs.token_stack()))]
    opps = [(p.round, [p.kind]) for p in area.pawns]
    opps += [(r, list(every)) for r in range(played + 1, rs["rounds"] + 1) for _ in range(active_slots(r, rs))]
    opps.sort(key=lambda o: o[0])
    total, lines = holdings_bound(rs, held, opps)
    objective_max = rs["objective_points"] * (len(placed_obj) + len(still))
    if placed_obj or still:
        lines["objectives"] = objective_max
    total += objective_max
    out = {"after_round": played, "rounds_left": rs["rounds"] - played, "ceiling": total, "lines": lines,
           "draw": "any (no seed: the columns still to come are unknown)"}
    if ch is not None:
        finished = played >= rs["rounds"]
        status = missions.status(ch, area, finished)
        out["mission"] = status
        out["stars"] = _star_words(setup, ch, status, finished, score_total(area) if finished else None, total)
    return out


def ceilings_along(setup, market: Market, layout: Layout, ch=None) -> list[dict]:
    """The ceiling after each round of a whole game (round 0: before any column is taken)."""
    out = []
    for k in range(0, len(layout.rounds) + 1):
        prefix = Layout(layout.start_at, layout.start_rotation, layout.rounds[:k], layout.challenge, layout.seed)
        out.append(ceiling(setup, market, prefix, ch))
    return out


def star_reach(ch: Challenge, status: str, best: int | None, bound: int | None, mission_met: bool,
               game_wide: bool = True, any_area_bound: int | None = None, box: tuple[int, int] | None = None) -> dict:
    """For each star threshold: reached / not reachable / unknown.

    "not reachable" needs a proof that holds for the game: a bound for ANY play area
    below the threshold (``any_area_bound``, the line bound without a box), or a finished
    search (optimal / infeasible) whose box holds every layout (``game_wide``).  A finished
    search inside the assumed play-area box proves nothing about the game, whose play
    area is unbounded (a straight line of 13 tiles leaves a 6x6 box): it is "unknown",
    with the boxed result named."""
    out = {}
    for i, t in enumerate(ch.thresholds, start=1):
        if best is not None and mission_met and ch.reaches(best, t):
            out[str(i)] = "reached"
        elif any_area_bound is not None and not ch.reaches(any_area_bound, t):
            out[str(i)] = (f"not reachable (the bound for any play area, {any_area_bound}, is "
                           f"{'below' if ch.inclusive else 'not above'} {t})")
        elif status in ("optimal", "infeasible") and game_wide:
            out[str(i)] = "not reachable"
        elif status in ("optimal", "infeasible"):
            where = f"the {box[0]}x{box[1]} box" if box else "the play-area box"
            out[str(i)] = (f"unknown (not reachable within {where}, proved; the game's play area is unbounded, "
                           "so that is no proof for the game)")
        else:
            out[str(i)] = "unknown"
    return out
