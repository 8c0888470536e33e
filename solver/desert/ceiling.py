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
    """The ceiling after the rounds ``layout`` records (a prefix of the seed's game)."""
    from models.desert_layout.bounds import line_bounds

    played = len(layout.rounds)
    cols = []
    for o in market.rounds:
        if o.number <= played:
            rp = layout.rounds[o.number - 1]
            cols.append([list(o.columns[rp.column - 1])] if rp.column else [list(c) for c in o.columns])
        else:
            cols.append([list(c) for c in o.columns])
    toks = [list(o.tokens) for o in market.rounds]
    lb = line_bounds(setup.tileset, setup.ruleset, cols, toks, None)
    out = {"after_round": played, "rounds_left": len(market.rounds) - played, "ceiling": lb.total,
           "lines": dict(lb.lines)}
    if ch is not None:
        out["stars"] = {str(i): ("still open" if ch.reaches(lb.total, t) else "out of reach (proved: above the ceiling)")
                        for i, t in enumerate(ch.thresholds, 1)}
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
