"""`aos-solve map validate|show|render` on the two solo maps, the tiny boards and two format test boards."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from solver.games import load_instance
from solver.report.render import CITY_FILL, TERRAIN_FILL
from tests.conftest import INSTANCES, ROOT

SVG = "{http://www.w3.org/2000/svg}"
PLANS = ROOT / "tests" / "plans"
BOARDS = {
    "easter-island": INSTANCES / "easter-island.toml",
    "zoo": INSTANCES / "zoo.toml",
    "tiny-island": INSTANCES / "tiny" / "tiny-island.toml",
    "tiny-zoo": INSTANCES / "tiny" / "tiny-zoo.toml",
    "all-features": ROOT / "tests" / "data" / "all-features.toml",
    "graph-map": ROOT / "tests" / "data" / "graph-map.toml",
}
HEX_BOARDS = [k for k in BOARDS if k != "graph-map"]


# -- validate --------------------------------------------------------------------------

@pytest.mark.parametrize("board", BOARDS)
def test_validate_succeeds_and_counts_features(run_cli, board):
    path = BOARDS[board]
    inst = load_instance(path)
    r = run_cli("map", "validate", path)
    assert r.code == 0 and r.err == ""
    assert r.out.splitlines()[0] == f"{path}: valid ({inst.board.name})"
    assert f"  cities: {len(inst.board.cities)}\n" in r.out
    j = run_cli("map", "validate", path, "--json")
    assert j.code == 0
    data = json.loads(j.out)
    assert data["valid"] is True and data["file"] == str(path) and data["map"] == inst.board.name
    assert data["cities"] == len(inst.board.cities) and data["assumed"] == len(inst.assumptions())
    assert data["difficulties"] == list(inst.difficulties)


def test_validate_numbers_of_the_solo_maps(run_cli):
    ei = json.loads(run_cli("map", "validate", BOARDS["easter-island"], "--json").out)
    assert (ei["cities"], ei["towns"], ei["exits"]) == (12, 4, 0)
    assert ei["difficulties"] == ["easy", "normal", "hard"]
    zoo = json.loads(run_cli("map", "validate", BOARDS["zoo"], "--json").out)
    assert (zoo["cities"], zoo["exits"]) == (10, 4)  # "This map has 4 exit hexes."
    features = json.loads(run_cli("map", "validate", BOARDS["all-features"], "--json").out)
    assert (features["areas"], features["impassable_sides"], features["public_track"]) == (2, 2, 1)
    graph = json.loads(run_cli("map", "validate", BOARDS["graph-map"], "--json").out)
    assert (graph["nodes"], graph["edges"], graph["hexes_on_map"]) == (4, 4, 0)


# -- show ------------------------------------------------------------------------------

@pytest.mark.parametrize("board", BOARDS)
def test_show_lists_every_feature(run_cli, board):
    path = BOARDS[board]
    b = load_instance(path).board
    r = run_cli("map", "show", path)
    assert r.code == 0 and r.err == ""
    for h, city in b.cities.items():
        assert f"hex {h}, name {city.name}" in r.out
        if city.danger is not None:
            assert f"name {city.name}, danger {city.danger}" in r.out
        if city.colour:
            assert f"name {city.name}, colour {city.colour}" in r.out
    for h, town in b.towns.items():
        assert f"hex {h}, name {town.name}" in r.out
    for h, ex in b.exits.items():
        assert f"hex {h}, name {ex.name}" in r.out
    for area in b.areas:
        assert f"kind {area.kind}, name {area.name}, hexes {' '.join(str(h) for h in area.hexes)}" in r.out
    for side in b.impassable:
        assert "|".join(sorted(str(h) for h in side)) in r.out
    for path_ in b.public_track:
        assert "-".join(str(h) for h in path_) in r.out
    for node in b.nodes:
        assert node in r.out
    assert "Assumptions this answer depends on:" in r.out


@pytest.mark.parametrize("board", HEX_BOARDS)
def test_show_picture_has_every_hex_in_its_place(run_cli, board):
    """The text picture puts each hex's letter where the odd-r layout says (odd rows shifted)."""
    b = load_instance(BOARDS[board]).board
    lines = run_cli("map", "show", BOARDS[board]).out.splitlines()
    start = lines.index(next(ln for ln in lines if ln.startswith("Legend:"))) + 2  # after the column header
    rows = max(h.row for h in b.terrain) + 1
    area_hexes = {h for a in b.areas for h in a.hexes}
    letter = {"plain": ".", "river": "~", "mountain": "^", "water": "w", "off-map": " "}
    for r in range(rows):
        line = lines[start + r]
        assert line.startswith(f"{r + 1:>3} ")
        for h, terrain in b.terrain.items():
            if h.row != r:
                continue
            x = 4 + (1 if r % 2 else 0) + 2 * h.col
            expected = ("C" if h in b.cities else "t" if h in b.towns else "E" if h in b.exits
                        else "O" if h in area_hexes else letter[terrain])
            got = line[x] if x < len(line) else " "
            assert got == expected, f"{h}: {got!r} != {expected!r} in {line!r}"


@pytest.mark.parametrize("board", BOARDS)
def test_show_json_twin(run_cli, board):
    path = BOARDS[board]
    inst = load_instance(path)
    b = inst.board
    r = run_cli("map", "show", path, "--json")
    assert r.code == 0
    data = json.loads(r.out)
    assert data["map"] == b.name
    assert {c["hex"]: (c["name"], c["colour"], c["danger"]) for c in data["cities"]} == {
        str(h): (c.name, c.colour, c.danger) for h, c in b.cities.items()}
    assert {t["hex"] for t in data["towns"]} == {str(h) for h in b.towns}
    assert {e["hex"]: e["name"] for e in data["exits"]} == {str(h): e.name for h, e in b.exits.items()}
    assert [a["name"] for a in data["areas"]] == [a.name for a in b.areas]
    assert len(data["impassable"]) == len(b.impassable)
    assert len(data["public_track"]) == len(b.public_track)
    assert data["terrain"] == {str(h): t for h, t in b.terrain.items() if t != "off-map"}
    assert data["nodes"] == list(b.nodes)
    assert [a["key"] for a in data["assumed_values"]] == [p.key for p in inst.assumptions()]


def test_show_easter_island_sheet_facts(run_cli):
    data = json.loads(run_cli("map", "show", BOARDS["easter-island"], "--json").out)
    regions = {}
    for c in data["cities"]:
        regions.setdefault(c["region"], []).append(c["name"])
    assert len(regions["western"]) == 8  # "the 8 ruins in the western part of the map"
    assert sorted(regions["central-eastern"]) == ["Blue 3", "Blue 4"]
    assert sorted(regions["eastern"]) == ["Blue 5", "Blue 6"]


# -- render ----------------------------------------------------------------------------

def render(run_cli, tmp_path, board, *extra):
    out = tmp_path / f"{board}.svg"
    r = run_cli("map", "render", BOARDS[board], "-o", out, *extra)
    assert r.code == 0, r.err
    assert r.out == f"wrote {out}\n"
    root = ET.parse(out).getroot()  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    return root


def texts(root) -> list[str]:
    return [el.text or "" for el in root.iter(f"{SVG}text")]


def fills(root, tag="polygon") -> list[str]:
    return [el.get("fill") for el in root.iter(f"{SVG}{tag}")]


@pytest.mark.parametrize("board", HEX_BOARDS)
def test_render_draws_every_feature(run_cli, tmp_path, board):
    b = load_instance(BOARDS[board]).board
    root = render(run_cli, tmp_path, board)
    words = texts(root)
    assert root.find(f"{SVG}title").text == b.name
    # Every hex on the map is drawn and labelled with its name, so a transcription error shows.
    on_map = [h for h in b.terrain if b.on_map(h)]
    for h in on_map:
        assert str(h) in words, h
    for terrain in ("mountain", "river", "water"):
        count = sum(1 for t in b.terrain.values() if t == terrain)
        assert fills(root).count(TERRAIN_FILL[terrain]) == count, terrain
    for city in b.cities.values():
        assert city.name in words
        if city.danger is not None:
            assert str(city.danger) in words
    dangers = [c.danger for c in b.cities.values() if c.danger is not None]
    danger_circles = [c for c in root.iter(f"{SVG}circle") if c.get("stroke") == "#b00"]
    assert len(danger_circles) == len(dangers)
    for colour in {c.colour for c in b.cities.values()}:
        assert CITY_FILL[colour] in fills(root)
    for town in b.towns.values():
        assert town.name in words
    assert words.count("EXIT") == len(b.exits)
    for ex in b.exits.values():
        assert ex.name in words
    for area in b.areas:
        assert area.name in words
    impassable = [ln for ln in root.iter(f"{SVG}line") if ln.get("stroke") == "#000" and ln.get("stroke-width") == "4"]
    assert len(impassable) == len(b.impassable)
    public = [p for p in root.iter(f"{SVG}polyline") if p.get("stroke-dasharray")]
    assert len(public) == len(b.public_track)
    assert not list(root.iter(f"{SVG}path"))  # no built track without a plan


def test_render_features_board_has_impassable_sides_and_public_track(run_cli, tmp_path):
    root = render(run_cli, tmp_path, "all-features")
    impassable = [ln for ln in root.iter(f"{SVG}line") if ln.get("stroke-width") == "4"]
    assert len(impassable) == 2
    track = [p for p in root.iter(f"{SVG}polyline")]
    assert len(track) == 1 and len(track[0].get("points").split()) == 5  # A1-A2-B3-B4-C4
    assert {"Lakeland", "Heart", "North gate", "Hamlet", "Danger Den", "3"} <= set(texts(root))


def test_render_graph_map(run_cli, tmp_path):
    b = load_instance(BOARDS["graph-map"]).board
    root = render(run_cli, tmp_path, "graph-map")
    assert set(b.nodes) <= set(texts(root))
    assert len(list(root.iter(f"{SVG}line"))) == len(b.edges)
    assert len(list(root.iter(f"{SVG}circle"))) == len(b.nodes)


def test_render_with_a_plan_draws_track_cubes_and_shipments(run_cli, tmp_path):
    root = render(run_cli, tmp_path, "tiny-island", "--plan", PLANS / "tiny-island-cleared.json")
    # Two track tiles (B1 and D1), each a curve through its hex.
    tiles = [p for p in root.iter(f"{SVG}path") if p.get("stroke") == "#222"]
    assert len(tiles) == 2
    assert len({p.get("d").split(" Q")[1].split()[0] for p in tiles}) == 2  # two different hexes
    # Three shipments, numbered 1 to 3 at their destinations.
    words = texts(root)
    assert {"1", "2", "3"} <= set(words)
    # The plan clears the island: no cubes are left to draw.
    assert not [r for r in root.iter(f"{SVG}rect") if r.get("width") == "7"]


def test_render_zoo_plan_shows_fed_areas_and_the_teleport(run_cli, tmp_path):
    root = render(run_cli, tmp_path, "tiny-zoo", "--plan", PLANS / "tiny-zoo-cleared.json")
    fed = [c for c in root.iter(f"{SVG}circle") if c.get("fill") == "#0a0"]
    assert len(fed) == 5
    teleports = [ln for ln in root.iter(f"{SVG}line") if ln.get("stroke-dasharray") == "3 3"]
    assert len(teleports) == 2  # rounds 1 and 3 each jump between the exits once
    cubes = [r for r in root.iter(f"{SVG}rect") if r.get("width") == "7"]
    assert len(cubes) == 5  # A1 1, E1 2, G1 2 pieces of food left


def test_render_with_an_illegal_plan_fails(run_cli, tmp_path):
    r = run_cli("map", "render", BOARDS["tiny-island"], "-o", tmp_path / "x.svg",
                "--plan", PLANS / "illegal" / "tiny-island" / "non-top-cube.json")
    assert r.code == 2
    assert "the plan is not legal: round 1" in r.err and "only the top cube" in r.err
    assert not (tmp_path / "x.svg").exists()


def test_render_into_a_missing_folder_fails(run_cli, tmp_path):
    r = run_cli("map", "render", BOARDS["zoo"], "-o", tmp_path / "no" / "such" / "x.svg")
    assert r.code == 2 and "does not exist" in r.err


def test_render_of_a_broken_board_fails_without_writing(run_cli, tmp_path):
    board = tmp_path / "broken.toml"
    board.write_text(BOARDS["zoo"].read_text().replace("danger = 6", "danger = -1"))
    out = tmp_path / "x.svg"
    r = run_cli("map", "render", board, "-o", out)
    assert r.code == 2 and "cities[0].danger" in r.err
    assert not out.exists()
