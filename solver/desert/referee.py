"""The Desert's referee: a layout replayed, scored line by line, its missions and stars checked.

Every layout a policy, a search or the CP-SAT layout model proposes is judged here, never by
the code that produced it (the play lives above models/, in solver/desert_play)."""
from __future__ import annotations

from solver.desert import missions, scoring
from solver.desert.layout import Layout, replay
from solver.desert.market import Market, draw_market
from solver.desert.missions import Challenge
from solver.desert.setup import Setup


def evaluate(setup: Setup, layout: Layout, challenge: Challenge | None, market: Market | None = None,
             observe=None) -> dict:
    """Replay a layout with the referee; score it; check all missions and the stars.

    ``observe`` is handed to the referee's replay (it sees the area after each round)."""
    if layout.seed is not None and market is None:
        market = draw_market(layout.seed, setup.tileset, setup.ruleset)
    rep = replay(layout, setup.tileset, setup.ruleset, market, observe)
    score = scoring.final_score(rep.area)
    mres = {cid: missions.check(ch, rep.area) for cid, ch in setup.challenges.items.items()}
    out = {
        "legal": rep.legal,
        "violation": rep.violation,
        "notes": rep.notes,
        "score": score.total,
        "lines": score.to_json()["lines"],
        "facts": score.facts,
        "missions": {cid: {"name": setup.challenges.items[cid].name, "met": r.met, "reason": r.reason} for cid, r in mres.items()},
        "pawns": [
            {"round": p.round, "kind": p.kind, "token": p.token, "at": list(p.cell), "points": p.points} for p in rep.area.pawns
        ],
    }
    n_rounds = setup.ruleset["rounds"]
    out["rounds_played"], out["rounds_total"] = len(layout.rounds), n_rounds
    out["complete"] = len(layout.rounds) == n_rounds
    if not out["complete"]:
        out["notes"] = out["notes"] + [
            f"unfinished game: the record stops after round {len(layout.rounds)} of {n_rounds}; the score and the "
            "missions are of that play area, and an unfinished game earns no stars [ruleset rounds]"]
    if challenge is not None and any(p.tile.objective for p in rep.area.grid.values()) and rep.legal:
        rep.fail("objective tiles in a solo challenge: the solo challenges are played without objectives "
                 "[ruleset objectives_used]")
        out["legal"], out["violation"] = rep.legal, rep.violation
    if challenge is not None:
        met = rep.legal and mres[challenge.id].met
        out["challenge"] = challenge.id
        out["mission_met"] = met
        out["stars"] = (challenge.stars(score.total, met, setup.challenges.failed_stars)
                        if rep.legal and out["complete"] else 0)
    out["_area"] = rep.area
    return out
