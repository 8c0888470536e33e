"""Plan pages: a panel per round holding exactly that round's shipments and new track; every picture renders."""
from __future__ import annotations

import html
import html.parser
import re
import xml.etree.ElementTree as ET

import cairosvg

from solver.engine.plan import load_plan, round_moves
from solver.engine.moves import LayTile, Ship, UpgradeTile
from solver.games import load_instance
from solver.report.plan_pages import plan_page, round_pictures
from solver.report.render import ShipPath, render_board
from tests.conftest import INSTANCES, ROOT

PLANS = ROOT / "tests" / "plans"
CASES = [("tiny/tiny-island.toml", "tiny-island-cleared.json"), ("tiny/tiny-zoo.toml", "tiny-zoo-cleared.json"),
         ("tiny/tiny-crossing.toml", "tiny-crossing-cleared.json")]


def _load(board, plan):
    inst = load_instance(INSTANCES / board)
    return inst, load_plan(str(PLANS / plan), inst)


def _svgs(page: str) -> list[str]:
    return re.findall(r"<svg.*?</svg>", page, flags=re.S)


def test_each_round_panel_holds_that_rounds_shipments_and_new_track():
    for board, name in CASES:
        inst, plan = _load(board, name)
        pictures, result = round_pictures(inst, plan)
        assert result.error is None and len(pictures) == len(result.round_states)
        for pic, rnd in zip(pictures, plan.rounds):
            moves = [s.move for s in round_moves(rnd, pic.index)]
            ships = [m for m in moves if isinstance(m, Ship)]
            assert [(p.hexes[0], p.hexes[-1]) for p in pic.ships] == [(m.route[0], m.route[-1]) for m in ships]
            tiles = {m.hex for m in moves if isinstance(m, (LayTile, UpgradeTile))}
            assert {h for h, _ in pic.new_track} == tiles, (name, pic.index)
            # A shipment is drawn hex by hex: consecutive hexes are neighbours unless the hop is a teleport.
            for p in pic.ships:
                for i, (a, b) in enumerate(zip(p.hexes, p.hexes[1:])):
                    assert i in p.teleports or b in a.neighbours(), (name, pic.index, p)


def test_plan_page_is_html_and_every_picture_is_svg_that_renders(tmp_path):
    for board, name in CASES:
        inst, plan = _load(board, name)
        page = plan_page(inst, plan, {"verdict": "clearable", "verdict_proof": "a replayed plan"})
        html.parser.HTMLParser().feed(page)
        assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")  # nothing to fetch
        svgs = _svgs(page)
        assert len(svgs) == len(plan.rounds) + 2  # the start, one board per round, the chart
        for k, svg in enumerate(svgs):
            ET.fromstring(svg)
            png = tmp_path / f"{k}.png"
            cairosvg.svg2png(bytestring=svg.encode(), write_to=str(png))
            assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        for i in range(1, len(plan.rounds) + 1):
            assert f"data-round='{i}'" in page


def test_a_page_without_a_plan_says_why():
    inst = load_instance(INSTANCES / "tiny" / "tiny-island.toml")
    page = plan_page(inst, None, {"verdict": "not clearable", "verdict_proof": "no blue city"})
    assert "no blue city" in page and "No plan to show" in page and not _svgs(page)


def test_shipments_along_the_track_are_offset_and_numbered_once():
    inst = load_instance(INSTANCES / "tiny" / "tiny-island.toml")
    ships = [ShipPath(tuple(inst.board.cities)[:2], (), "1: a"), ShipPath(tuple(inst.board.cities)[:2], (), "2: b")]
    svg = render_board(inst, None, ships)
    ET.fromstring(svg)
    lines = re.findall(r'<line x1="([\d.]+)" y1="([\d.]+)"', svg)
    assert len(set(lines)) == len(lines)  # two shipments on the same hexes do not draw on top of each other


def test_panels_say_what_to_do_in_order_as_the_cli_does(capsys):
    """Each panel lists the round's builds (path and cost) then its shipments (cube, from -> to, links), in the
    words of the CLI's plan; the summary line comes first and the assumptions after the last round."""
    from solver.cli import run
    board = INSTANCES / "tiny" / "tiny-island.toml"
    capsys.readouterr()
    assert run(["easter-island", "--instance", str(board), "-d", "easy", "--setup",
                str(ROOT / "tests" / "data" / "tiny-island-setup.toml")]) == 0
    text = capsys.readouterr().out
    import json
    assert run(["easter-island", "--instance", str(board), "-d", "easy", "--setup",
                str(ROOT / "tests" / "data" / "tiny-island-setup.toml"), "--json", "--quiet"]) == 0
    data = json.loads(capsys.readouterr().out)
    from solver.engine.plan import plan_from_json
    inst = load_instance(board)
    page = plan_page(inst, plan_from_json(data["plan"], inst), data)
    lines = [line.strip() for line in text.splitlines()]
    builds = [line for line in lines if line.startswith("build ")]
    ships = [line for line in lines if line.startswith("ship ")]
    assert builds and ships and all(re.fullmatch(r"build [A-Z]\d+(-[A-Z]\d+)+ \(\$\d+\)", b) for b in builds)
    assert all(re.fullmatch(r"ship \w+ [\w ]+ -> [\w ]+ \(\d+ links?: [A-Z0-9~-]+\)", s) for s in ships), ships
    # the page holds the same step lines in the same order, and the summary line before the first round
    steps = re.findall(r"<li>((?:build|ship) [^<]*)</li>", page)
    assert [html.unescape(s) for s in steps] == [line for line in lines if line.startswith(("build ", "ship "))]
    assert page.index("issues") < page.index("Round 1") < page.index("Assumptions")
    assert text.index("issues") < text.index("Round 1") < text.index("Assumptions")
    assert text.count("Assumptions") == 1 and page.count("Assumptions") == 1
    assert text.index("Assumptions") < text.index("Readings of the rule sheets")        # the same order
    assert page.index("Assumptions") < page.index("How the rule sheet was read")


def test_assumptions_opening_with_the_same_sentence_are_said_once():
    """The shipped Easter Island's ruins share "Position assumed: no printed board ..." and differ only in the
    sheet's line each quotes: one line names all twelve (issue 42: it was said four times)."""
    from solver.board.provenance import grouped
    inst = load_instance(INSTANCES / "easter-island.toml")
    lines = grouped(inst, [(p.key, p.note) for p in inst.assumptions()])
    opening = [what for what, note in lines if note.startswith("Position assumed")]
    assert opening == ["12 ruins (Yellow 1, Yellow 2, Red 3, Red 4, Red 5, Red 6, Blue 1, Blue 2, Blue 3, Blue 4, "
                       "Blue 5, Blue 6)"]
