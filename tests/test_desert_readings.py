"""The Desert's named readings (issue 33, item 3): listed with their sentence and default,
settable with --reading, each implemented value changing what the referee (and the model)
judge; and the Desert answers read as answers (issue 34's part for the Desert commands):
the answer first, readings and only the assumptions used after it, no Python reprs."""
from __future__ import annotations

import json
import pathlib
import re

import pytest

from models.desert_layout import LayoutProblem, Offer, solve
from solver.desert import missions, readings
from solver.desert.area import Pawn, PlayArea
from solver.desert.referee import evaluate
from solver.desert.setup import load_setup
from solver.desert.missions import Challenge
from solver.desert.ruleset import load_ruleset

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHEET = pathlib.Path("/work/shared/seeds/railroad-tiles-desert.txt")
LAYOUTS = ROOT / "instances" / "desert" / "layouts"


@pytest.fixture(scope="module")
def setup():
    return load_setup()


def test_every_reading_has_its_sentence_default_reason_and_values():
    rs = load_ruleset()
    names = set()
    sheet = re.sub(r"\s+", " ", SHEET.read_text()) if SHEET.exists() else None
    for r in readings.readings(rs):
        assert r.name and r.quote and r.note and r.options, r.key
        assert r.default in dict(r.options)
        names.add(r.name)
        if sheet is not None and r.key != "policy_start_rotation":
            for part in r.quote.split(" ... "):
                assert part.strip(" .") in sheet, (r.key, part)
    # the readings the issue names, by their names
    assert {"death-pawn-kinds", "lost-world-landmarks", "lost-world-group", "thresholds", "catalogue-features",
            "star-places-train"} <= names


def test_readings_desert_lists_them(run_cli):
    res = run_cli("readings", "desert")
    assert res.code == 0
    for name in ("death-pawn-kinds", "lost-world-group", "thresholds", "great-oasis-surround"):
        assert name in res.out
    assert "Each Desert tile containing a pawn (Car, Traveler, or Camel)" in res.out
    js = json.loads(run_cli("readings", "desert", "--json").out)
    assert {r["name"] for r in js} >= {"death-pawn-kinds", "thresholds"}
    assert all(r["quote"] and r["default"] and r["values"] for r in js)


def test_an_unknown_reading_or_value_is_refused_naming_the_allowed_ones(run_cli):
    res = run_cli("desert", "score", LAYOUTS / "sheet-example.toml", "--reading", "thresholds=sometimes")
    assert res.code == 2 and "at-least, above" in res.err
    res = run_cli("desert", "score", LAYOUTS / "sheet-example.toml", "--reading", "station-supply=allowed")
    assert res.code == 2 and "not implemented" in res.err
    res = run_cli("desert", "score", LAYOUTS / "sheet-example.toml", "--reading", "nosuch=1")
    assert res.code == 2 and "death-pawn-kinds" in res.err


def test_thresholds_reading_decides_a_score_equal_to_a_threshold():
    at_least = Challenge("c", "C", "boundary-in-one-line", "", (45, 55, 65), inclusive=True)
    above = Challenge("c", "C", "boundary-in-one-line", "", (45, 55, 65), inclusive=False)
    assert at_least.stars(55, True) == 2 and above.stars(55, True) == 1
    s = load_setup(readings=["thresholds=above"])
    assert not s.challenges.get("lost-world").inclusive


def test_death_pawn_kinds_reading_decides_a_train_on_a_lonely_desert_tile(setup):
    # a train pawn on a Desert tile that touches no regular tile: outside the mission by default
    area = PlayArea(setup.tileset, setup.ruleset)
    area.place(setup.tileset.start, (0, 0), 0)
    desert = next(t for t in setup.tileset.tiles.values() if t.kind == "desert")
    area.place(desert, (0, 5), 1)
    area.pawns.append(Pawn((0, 5), 0, "train", "star", 1))
    listed = setup.challenges.get("desert-of-death")
    assert "train" not in listed.pawn_kinds and missions.check(listed, area).met
    every = load_setup(readings=["death-pawn-kinds=all"]).challenges.get("desert-of-death")
    assert "train" in every.pawn_kinds and not missions.check(every, area).met


def test_lost_world_group_reading_referee_and_model_agree():
    """Two Landmark tiles and a plain Desert tile: under each reading the model's layout meets the
    referee's mission and scores what the model says; the looser reading is never below the default."""
    found = {}
    for group in ("landmark-tiles", "desert-tiles"):
        s = load_setup(readings=[f"lost-world-group={group}"])
        ch = s.challenges.get("lost-world")
        offers = [Offer(1, [["D12", "D02"]], []), Offer(2, [["D11"]], [])]
        sol = solve(LayoutProblem(s.tileset, s.ruleset, ch, offers, 4, 4), time_limit=60, workers=1)
        assert sol.status == "optimal", group
        ev = evaluate(s, sol.layout, ch)
        assert ev["legal"] and ev["mission_met"] and ev["score"] == sol.objective, group
        found[group] = sol.objective
    assert found["desert-tiles"] >= found["landmark-tiles"]


def test_a_lost_world_group_may_run_through_desert_tiles_under_the_reading(setup):
    area = PlayArea(setup.tileset, setup.ruleset)
    for tid, cell in (("D12", (0, 0)), ("D02", (0, 1)), ("D11", (0, 2))):
        area.place(setup.tileset.get(tid), cell, 1)
    assert not missions.check(setup.challenges.get("lost-world"), area).met
    loose = load_setup(readings=["lost-world-group=desert-tiles"]).challenges.get("lost-world")
    assert missions.check(loose, area).met


REPRS = re.compile(r"\{'|\['|\[\d+, \d|\bTrue\b|\bFalse\b|\bNone\b|': ")


def test_score_text_puts_the_answer_first_and_lists_only_the_assumptions_used(run_cli):
    res = run_cli("desert", "score", LAYOUTS / "sheet-example.toml")
    lines = res.out.splitlines()
    assert lines[0].startswith("STAND-IN DATA:")  # the stand-in notice, then the answer
    assert lines[1].startswith("Score: 11 points, legal; The Lost World")
    assert not REPRS.search(res.out), REPRS.search(res.out)
    # no pawn placed, no seed: no pawn, token or market assumption
    for key in ("pawn_points_per_connected", "placement_tokens", "untaken_columns", "play_area_bound"):
        assert key not in res.out
    assert "rectangle_points_per_tile 1" in res.out and "Readings:" in res.out
    assert lines.index(next(l for l in lines if l.startswith("Readings:"))) > lines.index("Missions")
    js = json.loads(run_cli("desert", "score", LAYOUTS / "sheet-example.toml", "--json").out)
    keys = {a["key"] for a in js["assumptions"]}
    assert "rectangle_points_per_tile" in keys and "placement_tokens" not in keys
    assert {r["name"] for r in js["readings"]} >= {"lost-world-group", "thresholds"}


def test_pawn_assumptions_appear_once_pawns_are_placed(run_cli):
    res = run_cli("desert", "score", LAYOUTS / "camel-network.toml")
    assert "pawn_network" in res.out and not REPRS.search(res.out), REPRS.search(res.out)


def test_mission_reasons_and_score_details_have_no_reprs(setup):
    area = PlayArea(setup.tileset, setup.ruleset)
    area.place(setup.tileset.start, (0, 0), 0)
    for cell in ((0, 1), (1, 2)):
        area.place(next(t for t in setup.tileset.tiles.values() if t.kind == "desert"), cell, 1)
    area.place(next(t for t in setup.tileset.tiles.values() if t.kind == "core"), (1, 1), 1)
    why = missions.check(setup.challenges.get("sharp-boundary"), area).reason
    assert "span rows 1 and 2" in why and not REPRS.search(why)
