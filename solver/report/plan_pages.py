"""A plan a player can follow by eye: one self-contained HTML page, a panel per round.

Each panel is the board after that round's build with the track laid THIS round
in orange, the round's shipments as arrows along the track hex by hex (exit
teleports dashed), what to do in words, the cubes left afterwards, and the
round's money. Above the panels: the answer in one line and why, and the
start; below: a chart of cash, income and shares, the readings and assumptions. Everything comes from replaying the plan through the
referee (solver.engine.plan.replay); nothing here judges legality.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from solver.board.hexgrid import Hex
from solver.engine.moves import Ship
from solver.engine.plan import Plan, replay
from solver.report.render import ShipPath, render_board
from solver.report.words import plural


@dataclass
class RoundPicture:
    """What one round of a replayed plan did, ready to draw."""

    index: int
    action: str | None
    shares_issued: int
    new_track: frozenset = frozenset()                 # (hex, (side, side)) laid this round
    ships: list[ShipPath] = field(default_factory=list)
    ship_texts: list[str] = field(default_factory=list)
    summary: dict = field(default_factory=dict)        # the state's summary after the round
    state: object = None                               # a copy of the state after the round


def ship_path(state, move: Ship) -> ShipPath:
    """The hexes a shipment passes, following the complete links of the track it is shipped on."""
    hexes: list[Hex] = [move.route[0]]
    teleports = []
    links = [link for link in state.links() if link.complete]
    for i, (a, b) in enumerate(zip(move.route, move.route[1:])):
        if i in move.teleports:
            teleports.append(len(hexes) - 1)
            hexes.append(b)
            continue
        path = next((link.path for link in links if link.path[0] == a and link.path[-1] == b), None)
        if path is None:
            back = next((link.path for link in links if link.path[0] == b and link.path[-1] == a), None)
            path = tuple(reversed(back)) if back else (a, b)
        hexes.extend(path[1:])
    return ShipPath(tuple(hexes), tuple(teleports))


def round_pictures(instance, plan: Plan) -> tuple[list[RoundPicture], object]:
    """Replay the plan and collect, per round, its new track, its shipments along the track, and the state after."""
    pictures: dict[int, RoundPicture] = {}
    before: dict[int, frozenset] = {}

    def observe(index, step, state) -> None:
        pic = pictures.get(index)
        if pic is None:
            if index - 1 in pictures:  # the state a round starts from is the one the last round left
                pictures[index - 1].state = state.clone()
            rnd = plan.rounds[index - 1]
            pic = pictures[index] = RoundPicture(index, rnd.action, rnd.shares)
            before[index] = frozenset(state.all_tracks())
        if isinstance(step.move, Ship):
            path = ship_path(state, step.move)
            text = f"{step.move.colour} cube {step.move.route[0]} → {step.move.route[-1]}, " \
                   f"{plural(len(step.move.route) - 1 - len(step.move.teleports), 'link')}"
            if step.move.teleports:
                text += f", {plural(len(step.move.teleports), 'teleport')}"
            pic.ships.append(ShipPath(path.hexes, path.teleports, f"{len(pic.ships) + 1}: {text}"))
            pic.ship_texts.append(text)
        elif step.text in ("locomotive", "pass"):
            pic.ship_texts.append(step.text)

    result = replay(instance, plan, observe)
    done = len(result.round_states)
    if done in pictures and pictures[done].state is None:
        pictures[done].state = result.state
    for index in range(1, done + 1):
        pic = pictures[index]
        pic.summary = result.round_states[index - 1]
        pic.new_track = frozenset(pic.state.all_tracks()) - before[index]
    return [pictures[i] for i in range(1, done + 1)], result


def _chart(pictures: list[RoundPicture]) -> str:
    """Cash, income and shares after each round, as three lines on one small SVG."""
    if not pictures:
        return ""
    return line_chart([p.index for p in pictures], {
        "cash": ("#1b7837", [p.summary.get("cash", 0) for p in pictures]),
        "income": ("#2166ac", [p.summary.get("income", 0) for p in pictures]),
        "shares": ("#b2182b", [p.summary.get("shares", 0) for p in pictures])}, "cash, income and shares by round")


def line_chart(rounds: list[int], series: dict[str, tuple[str, list[int]]], label: str) -> str:
    """A small SVG: one line per named series (colour, whole-number values) over the rounds, whole-number ticks."""
    values = [v for _, vs in series.values() for v in vs]
    lo, hi = min(0, *values), max(1, *values)
    w, h, pad = 420, 160, 30
    n = len(rounds)

    def xy(i, v):
        x = pad + (w - 2 * pad) * (i / max(n - 1, 1))
        return x, h - pad - (h - 2 * pad) * (v - lo) / (hi - lo)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
             f'role="img" aria-label="{escape(label)}" class="chart">',
             f'<rect width="{w}" height="{h}" fill="#fff" stroke="#ccc"/>']
    y0 = xy(0, 0)[1]
    parts.append(f'<line x1="{pad}" y1="{y0:.1f}" x2="{w - pad}" y2="{y0:.1f}" stroke="#999"/>')
    for i, r in enumerate(rounds):
        x = xy(i, 0)[0]
        parts.append(f'<text x="{x:.1f}" y="{h - 8}" font-size="9" text-anchor="middle">{r}</text>')
    parts.append(f'<text x="{pad - 4}" y="{xy(0, hi)[1] + 3:.1f}" font-size="9" text-anchor="end">{hi}</text>')
    parts.append(f'<text x="{pad - 4}" y="{xy(0, lo)[1] + 3:.1f}" font-size="9" text-anchor="end">{lo}</text>')
    for k, (name, (colour, vs)) in enumerate(series.items()):
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in (xy(i, v) for i, v in enumerate(vs)))
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<text x="{w - pad + 2}" y="{14 + 12 * k}" font-size="10" fill="{colour}" '
                     f'text-anchor="end">{escape(name)}</text>')
    parts.append(f'<text x="{w / 2:.0f}" y="{h - 0.5}" font-size="8" text-anchor="middle" fill="#666">round</text>')
    return "".join(parts) + "</svg>"


def page_start(title: str, heading: bool = True) -> list[str]:
    """The head of a self-contained page (inline style, nothing fetched) and, with `heading`, its title."""
    return [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}</title>"
            f"<style>{CSS}</style></head><body>"] + ([f"<h1>{escape(title)}</h1>"] if heading else [])


def kv_table(rows) -> str:
    """Rows of (name, value) as a two-column table, escaped."""
    return "<table>" + "".join(f"<tr><th>{escape(str(k))}</th><td>{escape(str(v))}</td></tr>" for k, v in rows) \
        + "</table>"


CSS = """body{font-family:sans-serif;margin:1.5em;max-width:1100px;color:#222}
h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em;border-top:1px solid #ccc;padding-top:.6em}
table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}
.panel{display:flex;gap:1.2em;flex-wrap:wrap;align-items:flex-start}.panel svg{max-width:100%;height:auto}
.verdict{font-size:1.1em;font-weight:bold}.muted{color:#666;font-size:.85em}"""


def plan_page(instance, plan: Plan | None, data: dict) -> str:
    """The whole page: `data` is the answer's JSON twin (verdict, proof, readings, assumptions).

    Order (the CLI's): the answer in one line, why, the start, the rounds (what to do, in order, in the words of
    the CLI: solver/report/round_words.py), then what the answer rests on (readings, assumptions, grouped, once).
    """
    from solver.report.round_words import left_words, money_words, round_heading, round_steps
    title = f"{instance.board.name}: {data.get('difficulty', '')} — {data.get('verdict', '')}"
    out = page_start(title)
    out.append(f"<p class='verdict'>{escape(_summary(data))}</p>")
    out.append(f"<p>Why: {escape(str(data.get('verdict_proof', data.get('proof', ''))))}</p>")
    if plan is None:
        out.append("<p>No plan to show: the answer above says why.</p>")
        out.append(_rests_on(instance, data))
        out.append("</body></html>\n")
        return "".join(out)
    pictures, result = round_pictures(instance, plan)
    rows = data.get("rounds") or []
    if len(rows) != len(pictures) or any("build_costs" not in r for r in rows):
        from solver.report.solo_report import plan_rounds_detail
        rows = plan_rounds_detail(instance, plan) if result.error is None else []
    start = plan.new_state(instance)
    out.append("<h2 id='start'>Start</h2><div class='panel' data-round='0'>")
    out.append(render_board(instance, start, (), title="Start"))
    left = ", ".join(f"{k}: {' '.join(v)}" for k, v in start.summary().get("goods", {}).items()) or "none"
    out.append(f"<div><p>Cash ${start.cash}, {start.shares} shares issued, income {start.income}, "
               f"locomotive {start.locomotive}.</p><p class='muted'>Cubes (bottom first): {escape(left)}</p></div>")
    out.append("</div>")
    for pic in pictures:
        s = pic.summary
        row = rows[pic.index - 1] if pic.index <= len(rows) else None
        heading = round_heading(instance.board, row) if row else f"Round {pic.index}"
        out.append(f"<h2 id='round-{pic.index}'>{escape(heading)}</h2><div class='panel' data-round='{pic.index}'>")
        out.append(render_board(instance, pic.state, pic.ships, title=f"Round {pic.index}", new_track=pic.new_track))
        if row:
            steps = "".join(f"<li>{escape(t)}</li>" for t in round_steps(instance.board, row))
            body = (f"<ol class='steps'>{steps}</ol>" if steps else "<p>Nothing to build or ship.</p>") + \
                f"<p>Then {escape(money_words(row))}.</p><p class='muted'>Cubes left: {escape(left_words(row))}</p>"
        else:
            left = ", ".join(f"{k}: {' '.join(v)}" for k, v in s.get("goods", {}).items()) or "none"
            body = f"<p>Cash after: ${s.get('cash')}</p><p class='muted'>Cubes left: {escape(left)}</p>"
        out.append(f"<div>{body}</div></div>")
    if result.error:
        out.append(f"<p><b>The referee stopped the replay:</b> {escape(result.error)}</p>")
    out.append("<h2>Cash, income and shares after each round</h2>" + _chart(pictures))
    out.append(_rests_on(instance, data))
    out.append("</body></html>\n")
    return "".join(out)


def _summary(data: dict) -> str:
    """The answer in one line (the CLI's first line) when the data is a solo answer, else its verdict."""
    if {"round_limit", "verdict", "min_rounds_proved"} <= set(data):
        from solver.report.solo_report import headline
        return headline(data).removeprefix("Answer: ")
    return str(data.get("verdict", ""))


def _rests_on(instance, data: dict) -> str:
    """Assumptions and readings after the plan, grouped, once (the CLI's order)."""
    out = [_assumed(instance, data)]
    readings = data.get("readings")
    if readings:
        if isinstance(readings, dict):
            items = "".join(f"<li>{escape(str(k))}: {escape(str(v))}</li>" for k, v in readings.items())
        else:
            items = "".join(f"<li title='{escape(str(r.get('name')))}={escape(str(r.get('value')))}'>"
                            f"{escape(str(r.get('means') or r.get('value')))}"
                            + ("" if r.get("default", True) else " <b>(not the default)</b>") + "</li>"
                            for r in readings)
        out.append(f"<h2>How the rule sheet was read</h2><ul>{items}</ul>")
    return "".join(out)


def _assumed(instance, data: dict) -> str:
    """The assumptions, grouped (the CLI's order: assumptions, then readings)."""
    assumed = data.get("assumed_values") or []
    if not assumed:
        return ""
    from solver.board.provenance import grouped
    return "<h2>Assumptions this answer used</h2><ul>" + "".join(
        f"<li><b>{escape(what)}</b>: {escape(note)}</li>"
        for what, note in grouped(instance, [(str(a.get("key")), str(a.get("note", ""))) for a in assumed])) + "</ul>"
