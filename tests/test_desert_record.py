"""A layout is a game record: with or without a seed, the referee checks what the rules fix
about it (active tokens, no train tokens, what one column holds, copies, supplies); empty
files, far-away coordinates and bad time limits are broken input (exit 2)."""
import json
import pathlib

import pytest

from solver.desert.referee import evaluate
from solver.desert.setup import Setup, load_setup
from solver.desert.catalogue import load_catalogues
from solver.desert.layout import parse_layout
from solver.desert.ruleset import DEFAULT_RULESET, load_ruleset

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "instances" / "desert"
START = "[start]\nat = [0, 0]\nrotation = 0\n"


@pytest.fixture(scope="module")
def setup():
    return load_setup()


def judge(setup, text: str):
    import tomllib

    return evaluate(setup, parse_layout(tomllib.loads(text), "<test>"), None)


def write(tmp_path, text, name="layout.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def refused(run_cli, path, *needles):
    res = run_cli("desert", "score", path)
    assert res.code == 1, (res.code, res.out, res.err)
    assert "Legal: NO" in res.out
    for n in needles:
        assert n in res.out, (n, res.out)


ONE_TILE = '[[round]]\nnumber = 1\ntiles = [ { tile = "C17", at = [1, 0], rotation = 0 } ]\n'


def test_active_area_holds_one_token_in_round_1_and_never_more_than_three(run_cli, tmp_path):
    p = write(tmp_path, START + ONE_TILE + 'tokens = ["car", "camel", "star", "traveler", "car"]\n')
    refused(run_cli, p, "5 active tokens", "[ruleset active_area_size, tokens_revealed_per_round]")
    p = write(tmp_path, START + ONE_TILE + 'tokens = ["car", "camel"]\n', "two.toml")
    refused(run_cli, p, "2 active tokens", "holds 1 in round 1")


def test_pawns_per_round_limited_by_the_active_area_without_tokens_listed(setup):
    ev = judge(setup, START + """
[[round]]
number = 1
tiles = [ { tile = "C17", at = [1, 0], rotation = 0 }, { tile = "C17", at = [2, 0], rotation = 0 } ]
pawns = [ { at = [1, 0], pinpoint = 1, token = "car" }, { at = [2, 0], pinpoint = 1, token = "car" } ]
""")
    assert not ev["legal"] and "2 pawns placed" in ev["violation"] and "active_area_size" in ev["violation"]


def test_train_tokens_are_removed_by_the_desert_expansion(run_cli, tmp_path):
    p = write(tmp_path, START + ONE_TILE + 'tokens = ["train"]\npawns = [ { at = [1, 0], pinpoint = 0, token = "train" } ]\n')
    refused(run_cli, p, "train token", "[ruleset desert_token_swap]")


def test_a_star_places_a_train_only_in_the_star_places_train_reading(setup, tmp_path):
    text = START + ONE_TILE + 'tokens = ["star"]\npawns = [ { at = [1, 0], pinpoint = 0, token = "star" } ]\n'
    ev = judge(setup, text)
    assert ev["legal"], ev["violation"]
    assert [p["kind"] for p in ev["pawns"]] == ["train"]
    rules = DEFAULT_RULESET.read_text().replace("[star_places_train]\nvalue = true", "[star_places_train]\nvalue = false")
    (tmp_path / "rules.toml").write_text(rules)
    rs = load_ruleset(tmp_path / "rules.toml")
    other = Setup(rs, load_catalogues(rs), setup.challenges)
    ev = judge(other, text)
    assert not ev["legal"] and "star_places_train" in ev["violation"]


def test_a_round_places_at_most_what_one_solo_column_holds(run_cli, tmp_path):
    tiles = ", ".join(f'{{ tile = "C17", at = [{x}, 0], rotation = 0 }}' for x in range(1, 10))
    p = write(tmp_path, START + f"[[round]]\nnumber = 1\ntiles = [ {tiles} ]\n")
    refused(run_cli, p, "9 tiles", "[ruleset solo_columns, column_mix]")
    # 4 regular tiles: the 4-tile column holds 3 regular + 1 Desert
    tiles = ", ".join(f'{{ tile = "C17", at = [{x}, 0], rotation = 0 }}' for x in range(1, 5))
    p = write(tmp_path, START + f"[[round]]\nnumber = 1\ntiles = [ {tiles} ]\n", "four.toml")
    refused(run_cli, p, "4 tiles (4 core + 0 desert)")


def test_a_tile_is_placed_at_most_as_often_as_the_catalogue_has_copies(run_cli, tmp_path):
    # D06 (the trail cross) exists once in the stand-in catalogue
    p = write(tmp_path, START + """
[[round]]
number = 1
tiles = [ { tile = "D06", at = [0, 1], rotation = 0 }, { tile = "D06", at = [0, 2], rotation = 0 } ]
""")
    refused(run_cli, p, "copy number 2 of tile D06", "has 1", "catalogue count")


def test_empty_layout_file_is_an_error_not_a_score(run_cli, tmp_path):
    for name, text in (("empty.toml", ""), ("comments.toml", "# nothing\n"), ("start-only.toml", START)):
        p = write(tmp_path, text, name)
        res = run_cli("desert", "score", p)
        assert res.code == 2, (name, res.code, res.out)
        assert str(p) in res.err and ("empty" in res.err or "no round" in res.err), res.err
        assert "Score" not in res.out


def test_far_coordinates_are_refused_at_once_naming_file_and_key(run_cli, tmp_path):
    p = write(tmp_path, START + '[[round]]\nnumber = 1\ntiles = [ { tile = "C17", at = [10000, -10000], rotation = 0 } ]\n')
    res = run_cli("desert", "score", p)
    assert res.code == 2
    assert str(p) in res.err and "round[0].tiles[0].at" in res.err and "-100..100" in res.err


@pytest.mark.parametrize("command", ["solve", "game"])
@pytest.mark.parametrize("limit", ["nan", "inf", "-1", "0"])
def test_time_limit_must_be_finite_and_positive(run_cli, command, limit):
    res = run_cli("desert", command, "--challenge", "lost-world", "--seed", "1", "--time-limit", limit)
    assert res.code == 2, (res.code, res.out, res.err)
    assert "--time-limit" in res.err and "Traceback" not in res.err


def test_tiles_file_rounds_obey_the_column_and_token_rules(run_cli, tmp_path):
    p = write(tmp_path, '[[round]]\ntiles = ["C16", "D05", "D16", "C05"]\ntokens = ["camel"]\n', "tiles.toml")
    res = run_cli("desert", "solve", "--challenge", "lost-world", "--tiles", p, "--time-limit", "1")
    assert res.code == 2 and "solo_columns" in res.err and "round[0].tiles" in res.err
    p = write(tmp_path, '[[round]]\ntiles = ["C16"]\ntokens = ["camel", "star"]\n', "tokens.toml")
    res = run_cli("desert", "solve", "--challenge", "lost-world", "--tiles", p, "--time-limit", "1")
    assert res.code == 2 and "active_area_size" in res.err


def test_same_solve_command_twice_gives_the_same_layout_and_score(run_cli):
    args = ("desert", "solve", "--challenge", "lost-world", "--tiles", DATA / "tiles" / "small.toml",
            "--time-limit", "1", "--json")
    runs = []
    for _ in range(2):
        res = run_cli(*args)
        assert res.code == 0, res.err
        d = json.loads(res.out)
        runs.append((d["score"], d["bound"], d["status"], json.dumps(d["layout"], sort_keys=True)))
    assert runs[0] == runs[1]


def test_help_says_what_deterministic_mode_costs(run_cli):
    for command in ("solve", "game"):
        res = run_cli("desert", command, "--help")
        text = " ".join(res.out.split())
        assert "--deterministic" in text and "1 worker" in text and "Cost" in text
