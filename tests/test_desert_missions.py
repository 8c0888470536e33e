"""The three solo missions on hand-made play areas, the stars, and the data's provenance."""
import pathlib
import re

import pytest

from solver.desert.referee import evaluate
from solver.desert.setup import load_setup
from solver.desert.layout import load_layout
from solver.desert.missions import Challenge

ROOT = pathlib.Path(__file__).resolve().parent.parent
LAYOUTS = ROOT / "instances" / "desert" / "layouts"
SHARED = ROOT.parent / "shared"
SHEET = SHARED / "seeds" / "railroad-tiles-desert.txt"
CORE_NOTES = SHARED / "rules" / "railroad-tiles-core.md"


@pytest.fixture(scope="module")
def setup():
    return load_setup()


def mission(setup, name, cid):
    ev = evaluate(setup, load_layout(LAYOUTS / name), setup.challenges.get(cid))
    assert ev["legal"], ev["violation"]
    return ev["missions"][cid], ev


def test_sharp_boundary_met_when_desert_tiles_beside_regular_tiles_share_a_row(setup):
    m, ev = mission(setup, "sheet-example.toml", "sharp-boundary")
    assert m["met"] and "row y=1" in m["reason"]
    assert ev["mission_met"]


def test_sharp_boundary_not_met_when_they_span_rows_and_columns(setup):
    m, ev = mission(setup, "boundary-and-landmarks-split.toml", "sharp-boundary")
    assert not m["met"]
    assert "(0, 1)" in m["reason"] and "(1, 2)" in m["reason"] and "not a single row or column" in m["reason"]
    assert ev["stars"] == 0


def test_lost_world_met_when_landmark_tiles_form_one_group(setup):
    m, _ = mission(setup, "sheet-example.toml", "lost-world")
    assert m["met"] and "5 Landmarks" in m["reason"]


def test_lost_world_not_met_when_landmarks_touch_only_diagonally(setup):
    m, _ = mission(setup, "boundary-and-landmarks-split.toml", "lost-world")
    assert not m["met"] and "2 separate groups" in m["reason"]


def test_desert_of_death_met_when_every_pawned_desert_tile_touches_a_regular_tile(setup):
    m, _ = mission(setup, "camel-network.toml", "desert-of-death")
    assert m["met"] and "2 pawns" in m["reason"]


def test_desert_of_death_not_met_for_a_camel_away_from_regular_tiles(setup):
    m, ev = mission(setup, "camel-far-from-core.toml", "desert-of-death")
    assert not m["met"] and "camel on D03 at (0, 2)" in m["reason"]
    assert not ev["mission_met"] and ev["stars"] == 0


def test_stars_need_the_mission_and_the_thresholds():
    ch = Challenge("x", "X", "landmarks-one-group", "", (45, 55, 65))
    assert [ch.stars(s, True) for s in (44, 45, 54, 55, 64, 65, 90)] == [0, 1, 1, 2, 2, 3, 3]
    assert ch.stars(90, False) == 0


# ----------------------------------------------------------------------------- provenance
def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


@pytest.mark.skipif(not SHEET.exists(), reason="shared/ not beside the repository")
def test_challenges_quote_the_sheet_missions_and_thresholds(setup):
    sheet = _norm(SHEET.read_text())
    rows = re.findall(r"\| (Sharp Boundary|The Lost World|Desert of Death) \| (.+?) \| (\d+) \| (\d+) \| (\d+) \|", sheet)
    assert len(rows) == 3
    by_name = {c.name: c for c in setup.challenges.items.values()}
    for name, text, *th in rows:
        ch = by_name[name]
        assert _norm(ch.quote) == _norm(text)
        assert list(ch.thresholds) == [int(t) for t in th]


@pytest.mark.skipif(not (SHEET.exists() and CORE_NOTES.exists()), reason="shared/ not beside the repository")
def test_every_quoted_rule_is_in_its_source(setup):
    texts = {"rule-sheet": _norm(SHEET.read_text()), "core-notes": _norm(CORE_NOTES.read_text())}
    for rule in setup.ruleset.rules.values():
        if rule.source == "assumed":
            assert len(rule.note) > 20, rule.key
            continue
        quote, hay = rule.note, texts.get(rule.source)
        if rule.source == "reading":
            # a named reading quotes the sentence that reads two ways (sheet or core notes)
            assert len(rule.note) > 20, rule.key
            quote, hay = rule.quote, texts["rule-sheet"] + " " + texts["core-notes"]
        for part in quote.split("..."):
            part = _norm(part.replace(" - ", " ").strip(" |"))
            if part:
                # the sheet's list items are quoted joined by " - "
                assert part.replace("- ", "") in hay.replace("- ", ""), (rule.key, part)


def test_every_assumed_value_is_printed_with_results(setup):
    keys = {a["key"] for a in setup.assumptions()}
    for rule in setup.ruleset.rules.values():
        assert (rule.source in ("assumed", "reading")) == (rule.key in keys), rule.key
    assert "mission_failed_stars" in keys and "catalogue" in keys
