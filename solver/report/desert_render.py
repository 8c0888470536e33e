"""SVG picture of a play area: tiles, routes, stations, landmarks, pawns, openings."""
from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from solver.desert import network, scoring
from solver.desert.tiles import HIGHWAY, RAILROAD, TRAIL

if TYPE_CHECKING:
    from solver.desert.area import PlayArea

S = 80  # tile size in px
PAD = 20
COLOURS = {"core": "#e9efe4", "desert": "#f3dfa8", "start": "#d6e4f0"}
ROUTE_STYLE = {
    RAILROAD: 'stroke="#3b3b3b" stroke-width="5"',
    HIGHWAY: 'stroke="#7f8c8d" stroke-width="9" stroke-linecap="butt"',
    TRAIL: 'stroke="#b5651d" stroke-width="4" stroke-dasharray="3 4"',
}
LANDMARK_LETTER = {"oasis": "O", "pyramid": "P", "obelisk": "B", "sphinx": "X"}
PAWN_COLOUR = {"car": "#2e86de", "train": "#222222", "traveler": "#e74c3c", "camel": "#a0522d"}


def _mid(d: int) -> tuple[float, float]:
    return [(S / 2, 0), (S, S / 2), (S / 2, S), (0, S / 2)][d]


def render_svg(area: "PlayArea", title: str = "", highlight=None, bounds=None) -> str:
    """The play area; ``highlight``: cells drawn with an orange border (the tiles placed this round),
    ``bounds``: (x0, y0, x1, y1) to draw in, so that the panels of one game share one frame."""
    x0, y0, x1, y1 = bounds or area.bounds()
    width = max((x1 - x0 + 1) * S + 2 * PAD, 460)
    height = (y1 - y0 + 1) * S + 2 * PAD + 90 + (13 if highlight is not None else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        'font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    pawns_at = {(p.cell, p.pinpoint): p for p in area.pawns}
    start_id = area.tileset.start.id
    for (cx, cy), placed in sorted(area.grid.items(), key=lambda e: e[1].seq):
        t = placed.tile
        ox, oy = PAD + (cx - x0) * S, PAD + (cy - y0) * S
        fill = COLOURS["start"] if t.id == start_id else COLOURS[t.kind]
        new = highlight is not None and (cx, cy) in highlight
        out.append(f'<g transform="translate({ox},{oy})" data-cell="{cx},{cy}"' + (' data-new="1">' if new else '>'))
        out.append(f'<rect width="{S}" height="{S}" fill="{fill}" stroke="#999" stroke-width="1"/>')
        for i, rt in enumerate(t.routes):
            for d in sorted(rt.sides):
                mx, my = _mid(d)
                kind = t.sides[d]
                out.append(f'<line x1="{mx}" y1="{my}" x2="{S / 2}" y2="{S / 2}" {ROUTE_STYLE[kind]}/>')
            if rt.station:
                out.append(f'<rect x="{S / 2 - 7}" y="{S / 2 - 7}" width="14" height="14" fill="#f1c40f" stroke="#333"/>')
        for k in range(t.cities):
            out.append(f'<path d="M{6 + 14 * k},{S - 6} v-10 l6,-6 l6,6 v10 z" fill="#8e44ad" opacity="0.8"/>')
        for j, lmk in enumerate(t.landmarks):
            d = min(t.routes[lmk.route].sides)
            mx, my = _mid(d)
            lx, ly = (mx + S / 2) / 2 + 8, (my + S / 2) / 2 + 8
            out.append(f'<circle cx="{lx}" cy="{ly}" r="9" fill="#fff8e1" stroke="#b5651d" stroke-width="2"/>')
            out.append(f'<text x="{lx}" y="{ly + 4}" font-size="11" text-anchor="middle" fill="#6d3b09">{LANDMARK_LETTER.get(lmk.type, "?")}</text>')
        for i, pin in enumerate(t.pinpoints):
            px, py = S - 12, 12 + 16 * i
            pawn = pawns_at.get(((cx, cy), i))
            fill = PAWN_COLOUR[pin.pawn] if pawn else "white"
            out.append(f'<circle cx="{px}" cy="{py}" r="6" fill="{fill}" stroke="{PAWN_COLOUR[pin.pawn]}" stroke-width="2"/>')
            if pawn:
                out.append(f'<text x="{px - 10}" y="{py + 4}" font-size="9" text-anchor="end">{pawn.points}</text>')
        out.append(f'<text x="4" y="12" font-size="10" fill="#333">{escape(t.id)} r{t.rotation}</text>')
        out.append(f'<text x="4" y="{S - 22}" font-size="9" fill="#666">#{placed.seq} R{placed.round}</text>')
        if new:
            out.append(f'<rect x="2" y="2" width="{S - 4}" height="{S - 4}" fill="none" stroke="#e66101" stroke-width="4"/>')
        out.append("</g>")
    # Desert Stations and openings
    for (cell, d) in network.desert_stations(area):
        mx, my = _mid(d)
        px, py = PAD + (cell[0] - x0) * S + mx, PAD + (cell[1] - y0) * S + my
        out.append(f'<path d="M{px},{py - 7} l7,7 l-7,7 l-7,-7 z" fill="#c0392b" stroke="white"/>')
    for (cell, d) in scoring.openings(area):
        mx, my = _mid(d)
        px, py = PAD + (cell[0] - x0) * S + mx, PAD + (cell[1] - y0) * S + my
        out.append(f'<text x="{px}" y="{py + 5}" font-size="16" fill="#e74c3c" text-anchor="middle" font-weight="bold">×</text>')
    ly = height - 75 - (13 if highlight is not None else 0)
    legend = [
        "railroad: solid dark; highway: wide grey; desert trail: dashed brown",
        "yellow square: station; red diamond: Desert Station; red x: opening",
        "landmarks: O oasis, P pyramid, B obelisk, X sphinx; purple house: city icon",
        "circles: pinpoints (filled = pawn, number = its points); #n Rr: placement n in round r",
    ] + (["orange border: tile placed this round"] if highlight is not None else [])
    out.append(f'<text x="{PAD}" y="{ly}" font-size="12" fill="#333">{escape(title)}</text>')
    for i, text in enumerate(legend):
        out.append(f'<text x="{PAD}" y="{ly + 16 + 13 * i}" font-size="10" fill="#555">{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out)
