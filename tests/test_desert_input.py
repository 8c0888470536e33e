"""Broken input: exit code 2 and one clear message naming the file and the key or line."""
from tests.helpers import says
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "instances" / "desert"

START = "[start]\nat = [0, 0]\nrotation = 0\n"


def write(tmp_path, text, name="layout.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def fails_cleanly(res, *needles):
    assert res.code == 2, (res.code, res.out, res.err)
    assert "Traceback" not in res.err + res.out
    msg = res.err.strip()
    assert msg.startswith("aos-solve: error:") and msg.count("\n") == 0, msg
    for n in needles:
        assert says(msg, n), (n, msg)
    return msg


def test_tile_placed_on_another(run_cli, tmp_path):
    p = write(tmp_path, START + """
[[round]]
tiles = [
  { tile = "C16", at = [1, 0], rotation = 0 },
  { tile = "C17", at = [1, 0], rotation = 0 },
]
""")
    fails_cleanly(run_cli("desert", "score", p), str(p), "round[0].tiles[1].at", "placed on another")


def test_tile_placed_on_the_start_tile(run_cli, tmp_path):
    p = write(tmp_path, START + '[[round]]\ntiles = [ { tile = "C16", at = [0, 0], rotation = 0 } ]\n')
    fails_cleanly(run_cli("desert", "score", p), "round[0].tiles[0].at", "START")


def test_rotation_5(run_cli, tmp_path):
    p = write(tmp_path, START + '[[round]]\ntiles = [ { tile = "C16", at = [1, 0], rotation = 5 } ]\n')
    fails_cleanly(run_cli("desert", "score", p), str(p), "round[0].tiles[0].rotation", "0, 1, 2 or 3")


def test_unknown_tile_id(run_cli, tmp_path):
    p = write(tmp_path, START + '[[round]]\ntiles = [ { tile = "Z99", at = [1, 0], rotation = 0 } ]\n')
    fails_cleanly(run_cli("desert", "score", p), str(p), "round[0].tiles[0].tile", "unknown tile id 'Z99'")


def test_pawn_on_a_missing_pinpoint(run_cli, tmp_path):
    p = write(tmp_path, START + """
[[round]]
tiles = [ { tile = "C16", at = [1, 0], rotation = 0 } ]
pawns = [ { at = [1, 0], pinpoint = 3, token = "traveler" } ]
""")
    fails_cleanly(run_cli("desert", "score", p), str(p), "round[0].pawns[0].pinpoint", "missing pinpoint", "C16")


def test_pawn_where_no_tile_is(run_cli, tmp_path):
    p = write(tmp_path, START + '[[round]]\ntiles = []\npawns = [ { at = [4, 4], pinpoint = 0, token = "car" } ]\n')
    fails_cleanly(run_cli("desert", "score", p), "round[0].pawns[0].at", "no tile at (4, 4)")


def test_broken_toml_names_the_line(run_cli, tmp_path):
    p = write(tmp_path, START + "[[round]]\ntiles = [ { tile = 'C16', at = [1, 0] \n")
    msg = fails_cleanly(run_cli("desert", "score", p), str(p), "not valid TOML")
    assert "line" in msg


def test_missing_layout_file(run_cli, tmp_path):
    fails_cleanly(run_cli("desert", "score", tmp_path / "nope.toml"), "nope.toml", "file not found")


def test_unknown_key_in_layout(run_cli, tmp_path):
    p = write(tmp_path, START + '[[round]]\ntiles = [ { tile = "C16", at = [1, 0], rotaton = 1 } ]\n')
    fails_cleanly(run_cli("desert", "score", p), "round[0].tiles[0]", "unknown key `rotaton`")


def test_unknown_challenge(run_cli):
    fails_cleanly(
        run_cli("desert", "score", DATA / "layouts" / "sheet-example.toml", "--challenge", "sahara"),
        "--challenge",
        "unknown challenge 'sahara'",
    )


def test_ruleset_value_without_provenance(run_cli, tmp_path):
    text = (DATA / "ruleset.toml").read_text().replace(
        'reason = "The openings penalty is not public; -1 per railroad or highway end that leads nowhere (no tile, or an empty side)."\n',
        "",
    )
    rules = write(tmp_path, text, "rules.toml")
    fails_cleanly(
        run_cli("desert", "score", DATA / "layouts" / "sheet-example.toml", "--ruleset", rules),
        str(rules),
        "[openings_penalty]",
        "reason",
    )


def test_catalogue_with_the_wrong_count(run_cli, tmp_path):
    text = (DATA / "desert-tiles.toml").read_text().replace('id = "D06"\nname = "trail cross"\ncount = 1', 'id = "D06"\nname = "trail cross"\ncount = 2')
    cat = write(tmp_path, text, "desert.toml")
    fails_cleanly(
        run_cli(
            "desert", "score", DATA / "layouts" / "sheet-example.toml",
            "--catalogue", DATA / "core-tiles.toml", "--catalogue", cat,
        ),
        str(cat),
        "add up to 45",
        "44",
    )


def test_catalogue_pinpoint_on_the_wrong_route(run_cli, tmp_path):
    text = (DATA / "core-tiles.toml").read_text().replace(
        'name = "railroad straight, train"\ncount = 6\nsides = { N = "railroad", E = "empty", S = "railroad", W = "empty" }\nroutes = [{ sides = ["N", "S"] }]\npinpoints = [{ pawn = "train", route = 0 }]',
        'name = "railroad straight, train"\ncount = 6\nsides = { N = "railroad", E = "empty", S = "railroad", W = "empty" }\nroutes = [{ sides = ["N", "S"] }]\npinpoints = [{ pawn = "camel", route = 0 }]',
    )
    cat = write(tmp_path, text, "core.toml")
    fails_cleanly(
        run_cli(
            "desert", "score", DATA / "layouts" / "sheet-example.toml",
            "--catalogue", cat, "--catalogue", DATA / "desert-tiles.toml",
        ),
        str(cat),
        "tile[0] (id C01).pinpoints[0]",
        "camel pinpoint",
    )


def test_solve_needs_tiles_or_seed(run_cli):
    fails_cleanly(run_cli("desert", "solve", "--challenge", "lost-world"), "--tiles", "--seed")


def test_tiles_file_with_unknown_tile(run_cli, tmp_path):
    p = write(tmp_path, '[[round]]\ntiles = ["C16", "Q1"]\ntokens = ["camel"]\n', "tiles.toml")
    fails_cleanly(run_cli("desert", "solve", "--challenge", "lost-world", "--tiles", p), str(p), "round[0].tiles", "'Q1'")


def test_tiles_file_with_unknown_token(run_cli, tmp_path):
    p = write(tmp_path, 'tiles = ["C16"]\ntokens = ["horse"]\n', "tiles.toml")
    fails_cleanly(run_cli("desert", "solve", "--challenge", "lost-world", "--tiles", p), str(p), "tokens")


@pytest.mark.parametrize("seed", ["-1"])
def test_negative_seed(run_cli, seed):
    fails_cleanly(run_cli("desert", "game", "--challenge", "lost-world", "--seed", seed), "--seed")
