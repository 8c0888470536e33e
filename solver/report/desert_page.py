"""A Railroad Tiles Desert game a player can follow by eye: one self-contained HTML page.

Above the panels: the verdict and score, the readings and assumptions the game
used, and a chart across the rounds (the score if the game ended after that
round, tiles placed, pawn points). Then one panel per round: the play area
after that round with the tiles placed THIS round outlined in orange, and the
round's column, tokens, placements and pawns. Last, the final score lines and
the missions. Everything drawn comes from one replay of the game record by the
Desert referee (solver.desert.referee.evaluate, which replays and scores); the
policy that produced the record is never asked what it did.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from solver.desert import scoring
from solver.desert.referee import evaluate
from solver.report.desert_render import render_svg
from solver.report.words import plural
from solver.report.plan_pages import kv_table, line_chart, page_start


@dataclass
class DesertRound:
    """What one round of a replayed game did, ready to draw."""

    number: int
    column: int | None
    tokens: list | None
    tiles: list = field(default_factory=list)      # (tile id, cell, rotation) placed this round, in order
    pawns: list = field(default_factory=list)      # the referee's Pawn objects placed this round (with points)
    area: object = None                            # a copy of the play area after the round
    score_now: int = 0                             # the end-of-game score if the game ended after this round


def replay_rounds(setup, layout, challenge, market=None) -> tuple[list[DesertRound], dict]:
    """Replay the record once through the referee; collect each round and the final evaluation."""
    rounds: list[DesertRound] = []

    def observe(rp, area, tokens) -> None:
        new_cells = [c for c, placed in area.grid.items() if placed.round == rp.number]
        tiles = [(area.grid[c].tile.id, c, area.grid[c].tile.rotation)
                 for c in sorted(new_cells, key=lambda c: area.grid[c].seq)]
        pawns = [p for p in area.pawns if p.round == rp.number]
        rounds.append(DesertRound(rp.number, rp.column, list(tokens) if tokens is not None else None, tiles, pawns,
                                  area.copy(), scoring.final_score(area).total))

    ev = evaluate(setup, layout, challenge, market, observe=observe)
    return rounds, ev


def _split_assumptions(setup, challenge) -> tuple[list[dict], list[dict]]:
    """The readings and the assumed values a whole seeded game rests on (solver.desert.assumptions)."""
    from solver.desert.assumptions import used

    basis = used(setup, {"always", "seed", "tokens", "pawns", "missions", "stars", "solver", "policy"},
                 [challenge.mission] if challenge is not None else [])
    rd = [{"key": r["name"], "value": r["value"] + (f" (set; default {r['default']})" if r["changed"] else ""),
           "reason": r["means"]} for r in basis["readings"]]
    assumed = [{"key": a["key"], "value": a["shown"], "reason": a["reason"]}
               for items in basis["assumed"].values() for a in items]
    return rd, assumed


def _verdict(data: dict, ch, drawn: str) -> tuple[str, list]:
    score = data.get("score")
    proof = {"optimal": "the best score possible (proved)", "feasible": "the best found, not proved the best"}
    head = (f"Perfect foresight: {plural(score, 'point')}, {plural(data.get('stars') or 0, 'star')}; "
            f"{proof.get(data.get('proof'), data.get('proof'))}"
            if score is not None else "No layout meeting the mission was found with perfect foresight")
    facts = [("challenge", f"{ch.name} ({ch.id})"), ("mission", ch.quote),
             ("star thresholds", ", ".join(f"{i}: {t}" for i, t in enumerate(ch.thresholds, 1))),
             ("seed", data.get("seed")), ("upper bound on the score", data.get("bound")),
             ("play area searched", "x".join(str(b) for b in data.get("box") or []) or None),
             ("best layout from", data.get("best_from")),
             ("stars reachable", ", ".join(f"{k}: {v}" for k, v in (data.get("star_reach") or {}).items()) or None)]
    for name in ("online", "greedy", "random"):
        other = data.get(name)
        if other:
            label = f"{name} policy" + (f" ({other['policy']})" if other.get("policy") else "")
            facts.append((label, f"{plural(other['score'], 'point')}, mission "
                                 f"{'met' if other['mission_met'] else 'NOT met'}, {plural(other['stars'], 'star')}"))
    facts.append(("layout drawn below", drawn))
    return head, [(k, v) for k, v in facts if v is not None]


def desert_page(setup, layout, challenge, data: dict, market=None, drawn: str = "the perfect-foresight layout") -> str:
    """The whole page; `data` is the game's JSON twin (score, proof, bound, stars, the policies' results)."""
    ch = challenge
    title = f"Railroad Tiles Desert: {ch.name}, seed {data.get('seed')}"
    out = page_start(title)
    from solver.desert.assumptions import data_notice

    notice = data_notice(setup)
    if notice:  # stand-in data first, as every Desert answer
        out.append(f"<p class='verdict'>{escape(notice['text'])}</p>")
    head, facts = _verdict(data, ch, drawn)
    out.append(f"<p class='verdict'>{escape(head)}</p>" + kv_table(facts))
    readings, assumed = _split_assumptions(setup, challenge)
    if readings:
        out.append("<h2>Readings of the rule sheet</h2>" + kv_table(
            (a["key"], f"{a['value']}: {a['reason']}") for a in readings))
    out.append("<h2>Assumptions this game used</h2><ul>" + "".join(
        f"<li><b>{escape(str(a['key']).replace('_', ' '))}</b>: {escape(str(a['value']))}. {escape(str(a['reason']))}</li>"
        for a in assumed) + "</ul>")
    if layout is None:
        out.append("<p>No layout to show: the answer above says why.</p></body></html>\n")
        return "".join(out)
    rounds, ev = replay_rounds(setup, layout, ch, market)
    out.append("<h2>Across the rounds</h2>" + line_chart([r.number for r in rounds], {
        "score if the game ended here": ("#1b7837", [r.score_now for r in rounds]),
        "tiles placed": ("#e66101", [len(r.tiles) for r in rounds]),
        "pawn points": ("#2166ac", [sum(p.points for p in r.pawns) for r in rounds])}, "score and placements by round"))
    frame = ev["_area"].bounds()
    for r in rounds:
        new = {c for _, c, _ in r.tiles}
        out.append(f"<h2 id='round-{r.number}'>Round {r.number}</h2>"
                   f"<div class='panel' data-round='{r.number}'>")
        out.append(render_svg(r.area, f"After round {r.number}: {r.score_now} points if the game ended here",
                              highlight=new, bounds=frame))
        rows = [("column taken", r.column if r.column is not None else "not recorded"),
                ("active tokens", ", ".join(r.tokens) if r.tokens is not None else "not recorded"),
                ("tiles placed", "; ".join(f"{t} at {c} rotation {rot}" for t, c, rot in r.tiles) or "none"),
                ("pawns placed", "; ".join(f"{p.kind} ({p.token} token) at {p.cell}: {p.points} point(s)"
                                           for p in r.pawns) or "none"),
                ("tiles in the play area", len(r.area.grid)),
                ("score if the game ended here", r.score_now)]
        out.append(f"<div>{kv_table(rows)}</div></div>")
    out.append("<h2>Final score (the referee's)</h2>")
    legal = "legal" if ev["legal"] else f"NOT legal: {ev['violation']}"
    out.append(f"<p class='verdict'>{ev['score']} points; the layout is {escape(legal)}</p>")
    out.append("<table><tr><th>line</th><th>points</th><th>detail</th></tr>" + "".join(
        f"<tr><td>{escape(str(line['label']))}</td><td>{line['points']}</td><td>{escape(str(line['detail']))}</td></tr>"
        for line in ev["lines"]) + f"<tr><th>total</th><th>{ev['score']}</th><td></td></tr></table>")
    out.append("<h2>Missions</h2>" + kv_table(
        (m["name"], f"{'met' if m['met'] else 'NOT met'}: {m['reason']}") for m in ev["missions"].values()))
    if "stars" in ev:
        out.append(f"<p>Challenge {escape(ch.name)}: mission {'met' if ev['mission_met'] else 'NOT met'}, "
                   f"{plural(ev['score'], 'point')}: {plural(ev['stars'], 'star')}.</p>")
    for note in ev["notes"]:
        out.append(f"<p class='muted'>Note: {escape(note)}</p>")
    out.append("</body></html>\n")
    return "".join(out)


def game_page(setup, challenge, game: dict, market) -> str:
    """The page of a played game (solver.desert_play.game.run_game's result, layouts included): the
    perfect-foresight layout, or the online policy's when no layout met the mission."""
    shown, drawn = game["_layouts"]["best"], "the perfect-foresight layout"
    if shown is None:
        shown = game["_layouts"]["online"]
        drawn = f"the online policy's layout ({game['online']['policy']}): no layout met the mission"
    public = {k: v for k, v in game.items() if not k.startswith("_")}
    return desert_page(setup, shown, challenge, public, market, drawn)
