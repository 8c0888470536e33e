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

from solver.desert.layout import Layout
from solver.desert.market import Market
from solver.desert.missions import Challenge


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
    from models.desert_layout.bounds import line_bounds
    from solver.desert import missions
    from solver.desert.layout import replay

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
            from solver.desert.scoring import score_total
            score = score_total(rep.area)
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
        out["stars"] = stars
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
