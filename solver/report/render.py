"""SVG pictures of boards, built track and shipments.

Meant to be held next to the printed board: every feature of the instance file
is drawn with its hex name, so a transcription error is easy to spot.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

from solver.board.board import Board
from solver.board.hexgrid import Hex, corners, side_segment
from solver.engine.track_tiles import crosses

SIZE = 28.0
TERRAIN_FILL = {"plain": "#e8efd2", "river": "#cfe3f2", "mountain": "#c9b49a", "water": "#8fbfe0"}
CUBE_FILL = {"red": "#d33", "blue": "#36c", "yellow": "#eb2", "purple": "#839", "black": "#222", "food": "#a63"}
CITY_FILL = {"red": "#f2a3a3", "blue": "#a9c4f0", "yellow": "#f6e08a", "purple": "#cfa6e0", "black": "#777",
             None: "#f4d9b0"}


def _pt(p: tuple[float, float]) -> str:
    return f"{p[0]:.1f},{p[1]:.1f}"


class _Canvas:
    def __init__(self, board: Board):
        self.board = board
        hexes = [h for h in board.terrain if board.on_map(h)]
        xs = [h.centre(SIZE)[0] for h in hexes] or [0]
        ys = [h.centre(SIZE)[1] for h in hexes] or [0]
        self.dx, self.dy = SIZE * 1.5 - min(xs), SIZE * 1.5 - min(ys)
        self.width = max(max(xs) - min(xs) + SIZE * 3, 520)  # room for the three legend lines
        self.height = max(ys) - min(ys) + SIZE * 3 + 40
        self.parts: list[str] = []
        self.arrowheads = False  # arrowhead markers are defined only when a shipment uses them

    def at(self, p: tuple[float, float]) -> tuple[float, float]:
        return p[0] + self.dx, p[1] + self.dy

    def centre(self, h: Hex) -> tuple[float, float]:
        return self.at(h.centre(SIZE))

    def add(self, s: str) -> None:
        self.parts.append(s)

    def text(self, p, s: str, size: float = 9, fill: str = "#000", weight: str = "normal") -> None:
        self.add(f'<text x="{p[0]:.1f}" y="{p[1]:.1f}" font-size="{size}" font-family="sans-serif" '
                 f'text-anchor="middle" fill="{fill}" font-weight="{weight}">{escape(s)}</text>')

    def svg(self, title: str, legend: list[str]) -> str:
        y = self.height - 30
        for i, line in enumerate(legend[:3]):
            self.add(f'<text x="8" y="{y + i * 11:.1f}" font-size="9" font-family="sans-serif">{escape(line)}</text>')
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:.0f}" height="{self.height:.0f}" '
                f'viewBox="0 0 {self.width:.0f} {self.height:.0f}">'
                f'<title>{escape(title)}</title>'
                + (('<defs>' + "".join(
                    f'<marker id="arrow{i}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" '
                    f'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
                    for i, colour in enumerate(ARROW_COLOURS)) + '</defs>') if self.arrowheads else "")
                + '<rect width="100%" height="100%" fill="#fff"/>')
        return head + "".join(self.parts) + "</svg>\n"


@dataclass(frozen=True)
class ShipPath:
    """A shipment as drawn: every hex the cube passes (origin first), teleport hops, and its label."""

    hexes: tuple[Hex, ...]
    teleports: tuple[int, ...] = ()   # hop i (hexes[i] -> hexes[i+1]) is a jump between exits
    label: str = ""


def render_board(instance, state=None, shipments=(), title: str | None = None,
                 highlight: set[Hex] | None = None, new_track: frozenset = frozenset(),
                 legend: list[str] | None = None) -> str:
    """The board, and when given a game state its track, new cities and cubes; shipments as arrows.

    `shipments` holds ShipPaths (drawn hex by hex along the track, offset so that
    shared hexes stay readable) or plain (stops, teleports) pairs (drawn stop to
    stop). `new_track` holds (hex, (side, side)) tracks drawn in orange: the
    track laid in the round a picture is about.
    """
    board = instance.board
    if not board.terrain:
        return render_graph(board, title)
    c = _Canvas(board)
    for h, terrain in sorted(board.terrain.items()):
        if terrain == "off-map":
            continue
        pts = " ".join(_pt(c.at(p)) for p in corners(h, SIZE))
        c.add(f'<polygon points="{pts}" fill="{TERRAIN_FILL[terrain]}" stroke="#999" stroke-width="0.6"/>')
        if terrain == "mountain":
            x, y = c.centre(h)
            c.add(f'<polygon points="{x - 8:.1f},{y + 6:.1f} {x:.1f},{y - 7:.1f} {x + 8:.1f},{y + 6:.1f}" '
                  f'fill="#8a6d4f" opacity="0.6"/>')
        if highlight and h in highlight:
            c.add(f'<polygon points="{pts}" fill="#ffb000" opacity="0.35"/>')
        x, y = c.centre(h)
        c.text((x, y + SIZE * 0.78), str(h), size=6, fill="#666")
    for area in board.areas:
        for h in area.hexes:
            pts = " ".join(_pt(c.at(p)) for p in corners(h, SIZE))
            fill = CITY_FILL.get(area.colour, "#ddd")
            c.add(f'<polygon points="{pts}" fill="{fill}" stroke="#444" stroke-width="1" opacity="0.8"/>')
        c.text(c.centre(area.hexes[0]), area.name, size=8, weight="bold")
    new_cities = state.new_cities if state is not None else {}
    for h, city in board.cities.items():
        pts = " ".join(_pt(c.at(p)) for p in corners(h, SIZE, 0.92))
        c.add(f'<polygon points="{pts}" fill="{CITY_FILL.get(city.colour, "#eee")}" stroke="#222" stroke-width="1.5"/>')
        x, y = c.centre(h)
        c.text((x, y - 10), city.name, size=7, weight="bold")
        if city.danger is not None:
            c.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7" fill="#fff" stroke="#b00" stroke-width="1.5"/>')
            c.text((x, y + 3.5), str(city.danger), size=10, fill="#b00", weight="bold")
    for h, town in board.towns.items():
        x, y = c.centre(h)
        if h in new_cities:
            pts = " ".join(_pt(c.at(p)) for p in corners(h, SIZE, 0.8))
            c.add(f'<polygon points="{pts}" fill="{CITY_FILL.get(new_cities[h], "#777")}" stroke="#000" stroke-width="1.5"/>')
            c.text((x, y - 10), f"new {new_cities[h]} city", size=6, fill="#fff")
        c.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="#fff" stroke="#000" stroke-width="1.5"/>')
        c.text((x, y + 16), town.name, size=6)
    for h, ex in board.exits.items():
        x, y = c.centre(h)
        pts = " ".join(_pt(c.at(p)) for p in corners(h, SIZE, 0.85))
        c.add(f'<polygon points="{pts}" fill="#fff" stroke="#070" stroke-width="2" stroke-dasharray="4 2"/>')
        c.text((x, y - 4), "EXIT", size=8, fill="#070", weight="bold")
        c.text((x, y + 7), ex.name, size=6, fill="#070")
    for side in board.impassable:
        a, b = sorted(side)
        p, q = side_segment(a, b, SIZE)
        c.add(f'<line x1="{c.at(p)[0]:.1f}" y1="{c.at(p)[1]:.1f}" x2="{c.at(q)[0]:.1f}" y2="{c.at(q)[1]:.1f}" '
              f'stroke="#000" stroke-width="4" stroke-linecap="round"/>')
    for path in board.public_track:
        _draw_track_path(c, path, "#666", dash="5 3")
    if state is not None:
        for h, (a, b) in state.all_tracks():
            # Both tracks of a complex tile; a non-crossing pair is bent apart so the two do not touch.
            bend = 0.6 if h in state.second_track and len(state.tracks_at(h)) == 2 and \
                not crosses(h, *state.tracks_at(h)) else 0.0
            _draw_tile(c, h, a, b, NEW_TRACK if (h, (a, b)) in new_track else "#222", bend)
        _draw_cubes(c, state)
    labels: list[tuple[float, float]] = []
    for i, ship in enumerate(shipments):
        if isinstance(ship, ShipPath):
            _draw_ship_path(c, ship, i, len(shipments), labels)
        else:
            _draw_shipment(c, ship[0], ship[1], i)
    if state is not None and shipments:
        # The round's new track again, thin, above the arrows: the shipments must not hide what was laid.
        for h, (a, b) in sorted(new_track):
            bend = 0.6 if h in state.second_track and len(state.tracks_at(h)) == 2 and \
                not crosses(h, *state.tracks_at(h)) else 0.0
            _draw_tile(c, h, a, b, NEW_TRACK, bend, width=1.5)
    legend = legend or [
        f"{board.name}: hex names as in the instance file; thick black sides are impassable.",
        "Ruins/cities show their cubes bottom to top; circles with red numbers are danger levels.",
        ("Track: black, laid this round orange." if new_track else "Built track in black.") +
        " Shipments: numbered arrows along the track; dashed = teleport."]
    return c.svg(title or board.name, legend)


def with_click_targets(instance, svg: str) -> str:
    """The SVG with a transparent polygon over every hex (`data-hex`, and `data-stop` on cities, towns and exits),
    drawn last so that a click anywhere on a hex finds it: the app sets up a board by clicking on this picture."""
    board = instance.board
    if not board.terrain:
        return svg
    c = _Canvas(board)
    parts = ['<g class="targets">']
    for h, terrain in sorted(board.terrain.items()):
        if terrain == "off-map":
            continue
        pts = " ".join(_pt(c.at(p)) for p in corners(h, SIZE))
        stop = board.label(h) if board.is_stop(h) else ""
        parts.append(f'<polygon class="target" data-hex="{h}"' + (f' data-stop="{escape(stop)}"' if stop else "")
                     + f' points="{pts}" fill="#000" fill-opacity="0" stroke="none"/>')
    parts.append("</g>")
    head, _, tail = svg.rpartition("</svg>")
    return head + "".join(parts) + "</svg>" + tail


def _mid(c: _Canvas, h: Hex, other: Hex) -> tuple[float, float]:
    a, b = c.centre(h), c.centre(other)
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def _draw_tile(c: _Canvas, h: Hex, a: Hex, b: Hex, colour: str, bend: float = 0.0, width: float = 4) -> None:
    """One track from side a to side b, curving through the centre (pulled toward its sides by `bend`)."""
    x, y = c.centre(h)
    p, q = _mid(c, h, a), _mid(c, h, b)
    x, y = x + bend * ((p[0] + q[0]) / 2 - x), y + bend * ((p[1] + q[1]) / 2 - y)
    c.add(f'<path d="M{_pt(p)} Q{x:.1f},{y:.1f} {_pt(q)}" fill="none" stroke="{colour}" stroke-width="{width}"/>')
    # Track reaching a stop is drawn into the stop's hex.
    for side, m in ((a, p), (b, q)):
        if c.board.is_stop(side):
            c.add(f'<line x1="{m[0]:.1f}" y1="{m[1]:.1f}" x2="{(m[0] + c.centre(side)[0]) / 2:.1f}" '
                  f'y2="{(m[1] + c.centre(side)[1]) / 2:.1f}" stroke="{colour}" stroke-width="{width}"/>')


def _draw_track_path(c: _Canvas, path, colour: str, dash: str = "") -> None:
    pts = " ".join(_pt(c.centre(h)) for h in path)
    extra = f' stroke-dasharray="{dash}"' if dash else ""
    c.add(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="3"{extra}/>')


def _draw_cubes(c: _Canvas, state) -> None:
    for h, cubes in state.goods.items():
        x, y = c.centre(h)
        for i, colour in enumerate(cubes):  # bottom cube lowest
            cy = y + 6 - i * 8
            c.add(f'<rect x="{x + 8:.1f}" y="{cy:.1f}" width="7" height="7" fill="{CUBE_FILL.get(colour, "#999")}" '
                  f'stroke="#000" stroke-width="0.6"/>')
    for h in getattr(state, "fed", ()):
        x, y = c.centre(h)
        c.add(f'<circle cx="{x - 12:.1f}" cy="{y + 8:.1f}" r="4" fill="#0a0" stroke="#000" stroke-width="0.5"/>')


NEW_TRACK = "#f08000"
ARROW_COLOURS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324"]


def _draw_shipment(c: _Canvas, route, teleports, index: int) -> None:
    colour = ARROW_COLOURS[index % len(ARROW_COLOURS)]
    off = (index % 5 - 2) * 2.0
    for i, (a, b) in enumerate(zip(route, route[1:])):
        p, q = c.centre(a), c.centre(b)
        dash = ' stroke-dasharray="3 3"' if i in teleports else ""
        c.add(f'<line x1="{p[0] + off:.1f}" y1="{p[1] + off:.1f}" x2="{q[0] + off:.1f}" y2="{q[1] + off:.1f}" '
              f'stroke="{colour}" stroke-width="1.8" opacity="0.85"{dash}/>')
    q = c.centre(route[-1])
    c.add(f'<circle cx="{q[0] + off:.1f}" cy="{q[1] + off:.1f}" r="5" fill="{colour}"/>')
    c.text((q[0] + off, q[1] + off + 3), str(index + 1), size=7, fill="#fff", weight="bold")


def _draw_ship_path(c: _Canvas, ship: ShipPath, index: int, count: int,
                    labels: list[tuple[float, float]]) -> None:
    """Along the track, offset sideways by the shipment's number so that shipments sharing hexes stay apart."""
    colour = ARROW_COLOURS[index % len(ARROW_COLOURS)]
    c.arrowheads = True
    lanes = min(count, 7)  # at most seven lanes side by side, so a crowded plan stays on its track
    off = (index % lanes - (lanes - 1) / 2) * 2.5
    pts = [c.centre(h) for h in ship.hexes]
    shifted = []
    for i, (x, y) in enumerate(pts):
        a, b = pts[max(i - 1, 0)], pts[min(i + 1, len(pts) - 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        norm = math.hypot(dx, dy) or 1.0
        shifted.append((x - dy / norm * off, y + dx / norm * off))
    for i, (p, q) in enumerate(zip(shifted, shifted[1:])):
        dash = ' stroke-dasharray="3 3"' if i in ship.teleports else ""
        last = i == len(shifted) - 2
        c.add(f'<line x1="{p[0]:.1f}" y1="{p[1]:.1f}" x2="{q[0]:.1f}" y2="{q[1]:.1f}" stroke="{colour}" '
              f'stroke-width="2.2" opacity="0.9"{dash}' + (f' marker-end="url(#arrow{index % len(ARROW_COLOURS)})"' if last else "") + '/>')
    if ship.label:
        # The number sits at the shipment's start, moved down while it would cover another number.
        x, y = shifted[0]
        while any(abs(x - lx) < 12 and abs(y - ly) < 11 for lx, ly in labels):
            y += 11
        labels.append((x, y))
        c.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="{colour}" stroke="#fff" stroke-width="1"/>')
        c.text((x, y + 3), str(index + 1), size=8, fill="#fff", weight="bold")
        c.add(f'<title>{escape(ship.label)}</title>')


def render_graph(board: Board, title: str | None = None) -> str:
    """Maps without hexes (Synapses): nodes on a circle, edges as lines."""
    n = len(board.nodes)
    r = 40 + 18 * n / math.pi
    pos = {name: (r + 60 + r * math.cos(2 * math.pi * i / n), r + 60 + r * math.sin(2 * math.pi * i / n))
           for i, name in enumerate(board.nodes)}
    w = h = 2 * r + 120
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}">'
             f'<title>{escape(title or board.name)}</title><rect width="100%" height="100%" fill="#fff"/>']
    for a, b in board.edges:
        parts.append(f'<line x1="{pos[a][0]:.1f}" y1="{pos[a][1]:.1f}" x2="{pos[b][0]:.1f}" y2="{pos[b][1]:.1f}" '
                     f'stroke="#888" stroke-width="1.5"/>')
    for name, (x, y) in pos.items():
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="12" fill="#f4d9b0" stroke="#222"/>'
                     f'<text x="{x:.1f}" y="{y + 24:.1f}" font-size="9" text-anchor="middle" '
                     f'font-family="sans-serif">{escape(name)}</text>')
    return "".join(parts) + "</svg>\n"
