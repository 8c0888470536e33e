"""Stand-in data announced first (issue 40, item 6): the Desert tile catalogues and the solo round are stand-ins
(shared/rules/railroad-tiles-core.md, "Must be assumed"), so every Desert answer opens with it, text and JSON;
a real catalogue loads with --catalogue FILE (kind by kind), checked, its faults exit 2 naming file and key."""
from __future__ import annotations

import json
import pathlib

import pytest

from tests.test_desert_input import DATA, fails_cleanly, write

LAYOUT = DATA / "layouts" / "sheet-example.toml"
TILES = DATA / "tiles" / "small.toml"
ADVISE = ("desert", "advise", "--columns", "C21,D06", "--columns", "C19,D23,D22", "--tokens", "camel",
          "--policy", "greedy")


def game_record(tmp_path) -> pathlib.Path:
    """A two-round record (no seed) for `desert ceiling`: the advice followed twice."""
    from solver.desert_play.advise import advise
    from solver.desert.setup import load_setup
    from solver.desert.layout import Layout, parse_layout
    import tomllib

    setup = load_setup()
    first = advise(setup, Layout(), [["C21", "D06"], ["C19", "D23", "D22"]], ["camel"], None, policy="greedy")
    path = tmp_path / "so-far.toml"
    path.write_text(first["record"])
    return path


@pytest.mark.parametrize("name", ["score", "solve", "ceiling", "advise"])
def test_every_desert_answer_opens_with_the_stand_in_notice(run_cli, tmp_path, name):
    """The first line of the text answer and the first key of the JSON twin say the data are stand-ins (before,
    the app never said it and the CLI said it last, among 40 lines of assumptions)."""
    args = {"score": ("desert", "score", LAYOUT),
            "solve": ("desert", "solve", "--challenge", "lost-world", "--tiles", TILES, "--time-limit", "1"),
            "ceiling": ("desert", "ceiling", game_record(tmp_path)),
            "advise": ADVISE}[name]
    text = run_cli(*args)
    assert text.code == 0, text.err
    first = text.out.splitlines()[0]
    assert first.startswith("STAND-IN DATA:") and "core-tiles.toml" in first and "columns of 2, 3, 4" in first
    js = json.loads(run_cli(*args, "--json").out)
    assert next(iter(js)) == "data_notice" and js["data_notice"]["text"] == first


def test_game_answer_opens_with_the_notice(run_cli):
    res = run_cli("desert", "game", "--challenge", "lost-world", "--seed", "3", "--time-limit", "1",
                  "--online", "greedy")
    assert res.code == 0, res.err
    assert res.out.splitlines()[0].startswith("STAND-IN DATA:")


def real(tmp_path, name: str, kind_file: str) -> pathlib.Path:
    """A stand-in copied and marked real (stand_in = false), as a player with the box would write it."""
    text = (DATA / kind_file).read_text().replace("stand_in = true", "stand_in = false")
    return write(tmp_path, text, name)


def test_a_real_catalogue_replaces_its_stand_in_and_leaves_the_notice(run_cli, tmp_path):
    """--catalogue FILE replaces the stand-in of its kind only; once every catalogue is real the notice names
    only the assumed solo round."""
    core = real(tmp_path, "my-core.toml", "core-tiles.toml")
    one = run_cli("desert", "score", LAYOUT, "--catalogue", core, "--json")
    assert one.code == 0, one.err
    cats = json.loads(one.out)["data_notice"]["stand_in_catalogues"]
    assert cats == ["desert-tiles.toml", "objective-tiles.toml"]
    args = ["desert", "score", LAYOUT, "--catalogue", core,
            "--catalogue", real(tmp_path, "my-desert.toml", "desert-tiles.toml"),
            "--catalogue", real(tmp_path, "my-objectives.toml", "objective-tiles.toml")]
    allreal = run_cli(*args)
    assert allreal.code == 0, allreal.err
    first = allreal.out.splitlines()[0]
    assert first.startswith("STAND-IN DATA:") and "stand-ins (" not in first and "solo round is assumed" in first
    assert json.loads(run_cli(*args, "--json").out)["data_notice"]["stand_in_catalogues"] == []


@pytest.mark.parametrize("change,needles", [
    (lambda t: t.replace('kind = "core"', 'kind = "deserts"'), ["[catalogue].kind", "core, desert or objective"]),
    (lambda t: t.replace('provenance = "', 'provenance = " " #'), ["[catalogue].provenance", "provenance"]),
    (lambda t: t.replace('sides = { N = "railroad", E = "empty", S = "railroad", W = "empty" }',
                         'sides = { N = "rail", E = "empty", S = "railroad", W = "empty" }', 1),
     ["tile[0] (id C01).sides.N", "unknown side kind 'rail'"]),
    (lambda t: t.replace("[start]", "[begin]", 1), ["no [start] tile"]),
])
def test_a_broken_catalogue_exits_2_naming_file_and_key(run_cli, tmp_path, change, needles):
    cat = write(tmp_path, change((DATA / "core-tiles.toml").read_text()), "core.toml")
    fails_cleanly(run_cli("desert", "score", LAYOUT, "--catalogue", cat), str(cat), *needles)


def test_two_catalogues_of_one_kind_are_refused(run_cli, tmp_path):
    a, b = real(tmp_path, "a.toml", "core-tiles.toml"), real(tmp_path, "b.toml", "core-tiles.toml")
    fails_cleanly(run_cli("desert", "score", LAYOUT, "--catalogue", a, "--catalogue", b), str(b), "second core")
    fails_cleanly(run_cli("desert", "score", LAYOUT, "--catalogue", tmp_path / "none.toml"), "none.toml",
                  "file not found")
