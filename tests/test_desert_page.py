"""The Desert game page: a panel per round holding exactly that round's placements; every picture renders."""
from __future__ import annotations

import html.parser
import json
import re
import xml.etree.ElementTree as ET

import cairosvg
import pytest

from solver.desert.referee import evaluate
from solver.desert.setup import load_setup
from solver.desert_play.policies import play_policy
from solver.desert.market import draw_market
from solver.report.desert_page import desert_page


@pytest.fixture(scope="module")
def setup():
    return load_setup()


def _game(setup, challenge, seed, kind="greedy"):
    ch = setup.challenges.get(challenge)
    market = draw_market(seed, setup.tileset, setup.ruleset)
    return ch, market, play_policy(setup, market, ch, kind)


def _panels(page: str) -> dict[int, str]:
    parts = re.split(r"<div class='panel' data-round='(\d+)'>", page)
    return {int(parts[i]): parts[i + 1] for i in range(1, len(parts), 2)}


def _cells(svg: str, new_only: bool) -> list[tuple[int, int]]:
    pattern = r'data-cell="(-?\d+),(-?\d+)" data-new="1"' if new_only else r'data-cell="(-?\d+),(-?\d+)"'
    return [(int(x), int(y)) for x, y in re.findall(pattern, svg)]


@pytest.mark.parametrize("challenge,seed", [("sharp-boundary", 1), ("lost-world", 2), ("desert-of-death", 3)])
def test_each_round_panel_outlines_exactly_the_tiles_placed_that_round(setup, challenge, seed):
    ch, market, layout = _game(setup, challenge, seed)
    page = desert_page(setup, layout, ch, {"seed": seed, "score": None}, market, "greedy")
    panels = _panels(page)
    assert sorted(panels) == [rp.number for rp in layout.rounds]
    placed = [layout.start_at]
    for rp in layout.rounds:
        svg = re.search(r"<svg.*?</svg>", panels[rp.number], flags=re.S).group(0)
        # The record is the truth: the outlined tiles are this round's, every earlier tile is drawn plain.
        assert sorted(_cells(svg, True)) == sorted(tp.at for tp in rp.tiles), (challenge, rp.number)
        placed += [tp.at for tp in rp.tiles]
        assert sorted(_cells(svg, False)) == sorted(placed)
        table = panels[rp.number].split("</svg>", 1)[1]
        for tp in rp.tiles:
            assert f"{tp.tile} at {tp.at} rotation {tp.rotation}" in table
        assert table.count("token) at") == len(rp.pawns)


def test_final_score_lines_are_the_referees(setup):
    ch, market, layout = _game(setup, "lost-world", 2)
    ev = evaluate(setup, layout, ch, market)
    page = desert_page(setup, layout, ch, {"seed": 2, "score": None}, market)
    final = page.split("Final score (the referee's)", 1)[1]
    assert f"{ev['score']} points" in final
    for line in ev["lines"]:
        assert f"<td>{line['points']}</td>" in final and line["label"] in final


def test_desert_page_is_html_and_every_picture_is_svg_that_renders(setup, tmp_path):
    ch, market, layout = _game(setup, "sharp-boundary", 1)
    page = desert_page(setup, layout, ch, {"seed": 1, "score": None}, market)
    html.parser.HTMLParser().feed(page)
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")  # nothing to fetch
    svgs = re.findall(r"<svg.*?</svg>", page, flags=re.S)
    assert len(svgs) == len(layout.rounds) + 1  # the chart and one play area per round
    assert 'class="chart"' in svgs[0]
    for k, svg in enumerate(svgs):
        ET.fromstring(svg)
        png = tmp_path / f"{k}.png"
        cairosvg.svg2png(bytestring=svg.encode(), write_to=str(png))
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_desert_game_html_bad_path_exits_2_before_the_game(run_cli, tmp_path):
    res = run_cli("desert", "game", "--challenge", "lost-world", "--seed", "1", "--html", tmp_path / "no" / "x.html")
    assert res.code == 2 and "--html" in res.err and "Traceback" not in res.err
    res = run_cli("desert", "game", "--challenge", "lost-world", "--seed", "1", "--html", tmp_path)
    assert res.code == 2 and "folder" in res.err


def test_desert_game_html_shows_the_game_it_printed(run_cli, tmp_path):
    out = tmp_path / "game.html"
    res = run_cli("desert", "game", "--challenge", "lost-world", "--seed", "2", "--time-limit", "0.2",
                  "--online", "greedy", "--html", out, "--json", "-q")
    assert res.code == 0, res.err
    data = json.loads(res.out)
    page = out.read_text()
    html.parser.HTMLParser().feed(page)
    assert data["html_file"] == str(out)
    assert f"Perfect foresight: {data['score']} points" in page
    assert sorted(_panels(page)) == [r["round"] for r in data["layout"]["rounds"]]


def test_the_game_page_opens_with_the_stand_in_notice(setup):
    """The HTML page is a Desert answer too: the stand-in notice comes before the verdict."""
    ch, market, layout = _game(setup, "lost-world", 2)
    page = desert_page(setup, layout, ch, {"seed": 2, "score": None}, market)
    assert page.index("STAND-IN DATA:") < page.index("class='verdict'>", page.index("STAND-IN DATA:") + 1)
