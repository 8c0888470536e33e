"""A broken board file gives one clear message naming the file and the key or line, and exit code 2.

Each hand-made corruption below changes one thing in a copy of a real
instance file; the property tests at the end feed randomly mutated copies and
check that the loader never crashes: the file loads, or the CLI prints a
single `aos-solve: error:` line naming the file and exits with code 2.
"""
from __future__ import annotations

from tests.helpers import says

import contextlib
import io
import json
import os
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import cli
from solver.board.errors import InputError
from solver.games import load_instance
from tests.conftest import INSTANCES, ROOT

EI = INSTANCES / "easter-island.toml"
ZOO = INSTANCES / "zoo.toml"
FEATURES = ROOT / "tests" / "data" / "all-features.toml"
GRAPH = ROOT / "tests" / "data" / "graph-map.toml"


def edit(text: str, old: str, new: str) -> str:
    """Replace `old`, which must occur exactly once (so a test cannot silently change nothing)."""
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
    return text.replace(old, new)


def line_of(text: str, needle: str) -> int:
    """The one line that is `needle` (or, failing that, the one line containing it)."""
    lines = text.splitlines()
    hits = [i for i, line in enumerate(lines, 1) if line.strip() == needle.strip()]
    hits = hits or [i for i, line in enumerate(lines, 1) if needle in line]
    assert len(hits) == 1, f"{needle!r} is on lines {hits}"
    return hits[0]


@pytest.fixture
def broken(tmp_path, run_cli):
    """Write a corrupted copy and validate it; check the shape of the failure and return stderr."""

    def _check(source, old, new, *expected: str, lines: tuple[str, ...] = ()) -> str:
        text = edit(source.read_text(encoding="utf-8"), old, new)
        path = tmp_path / source.name
        path.write_text(text, encoding="utf-8")
        result = run_cli("map", "validate", path)
        assert result.code == 2, (result.out, result.err)
        assert result.out == ""
        err = result.err
        assert err.startswith(f"aos-solve: error: {path}"), err
        assert err.endswith("\n") and err.count("\n") == 1, f"not one paragraph: {err!r}"
        assert "Traceback" not in err
        for fragment in expected:
            assert says(err, fragment), f"{fragment!r} not in {err!r}"
        for needle in lines:
            assert f"line {line_of(text, needle)}" in err, f"line of {needle!r} not in {err!r}"
        return err

    return _check


# -- one corruption at a time ------------------------------------------------------

def test_bad_toml_syntax(broken):
    broken(EI, "[scenario]\n", "[scenario\n", "not valid TOML", lines=("[scenario",))
    broken(ZOO, 'name = "Lion"', 'name = "Lion', "not valid TOML", lines=('name = "Lion',))


def test_unknown_terrain_letter(broken):
    err = broken(EI, "\nx x x x . ^ ^ . x x x x x x\n", "\nx x x x . ^ Q . x x x x x x\n",
                 "unknown terrain letter 'Q'", "row 1, column 7", "key 'grid.picture'",
                 lines=("x x x x . ^ Q",))
    assert says(err, "'^' mountain")  # it says what the legend knows


def test_unknown_terrain_in_the_legend(broken):
    broken(FEATURES, 'legend = { M = "mountain" }', 'legend = { M = "volcano" }',
           "unknown terrain 'volcano'", "key 'grid.legend.M'", lines=("legend = {",))


def test_city_off_the_map(broken):
    broken(EI, 'hex = "G3"', 'hex = "A1"', "key 'cities[0].hex'", "Yellow 1", "A1 is off the map",
           lines=('hex = "A1"',))
    broken(ZOO, 'hex = "F5"', 'hex = "M1"', "key 'cities[0].hex'", "M1 is off the map", lines=('hex = "M1"',))


def test_city_on_water(broken):
    broken(ZOO, 'hex = "F5"', 'hex = "F3"', "stands on water", lines=('hex = "F3"',))


def test_two_features_on_one_hex(broken):
    err = broken(EI, 'hex = "B5"', 'hex = "G3"', "key 'cities[1].hex'", "shares its hex with city 'Yellow 1'")
    # The line named is the second city's, not the first's (both now say G3).
    text = edit(EI.read_text(), 'hex = "B5"', 'hex = "G3"')
    second = [i for i, ln in enumerate(text.splitlines(), 1) if ln == 'hex = "G3"'][1]
    assert f"(line {second})" in err
    broken(ZOO, 'hex = "F1"', 'hex = "F5"', "key 'exits[0].hex'", "shares its hex with city 'Lion'")


def test_danger_of_minus_one(broken):
    broken(ZOO, "danger = 6", "danger = -1", "key 'cities[0].danger'", "danger level", "-1",
           lines=("danger = -1",))


def test_danger_of_the_wrong_type(broken):
    broken(ZOO, "danger = 6", 'danger = "high"', "key 'cities[0].danger'", "'high'", lines=('danger = "high"',))


def test_hexside_between_non_neighbours(broken):
    broken(FEATURES, 'between = ["C2", "C3"]', 'between = ["C2", "E3"]', "key 'impassable[1].between'",
           "C2 and E3 are not neighbours", lines=('between = ["C2", "E3"]',))
    broken(EI, "[scenario]\n", '[[impassable]]\nbetween = ["D2", "G3"]\nsource = "assumed"\nreason = "x"\n\n[scenario]\n',
           "key 'impassable[0].between'", "not neighbours", lines=('between = ["D2", "G3"]',))


def test_hexside_needs_two_hexes(broken):
    broken(FEATURES, 'between = ["C2", "C3"]', 'between = ["C2"]', "expected 'between = [HEX, HEX]'")


def test_missing_source(broken):
    err = broken(EI, 'source = "assumed"\nreason = "Position assumed: no printed board is available, so the hex is a '
                     'reconstruction (see [grid]). The sheet states the ruin itself, not where it lies: place one moai',
                 'reason = "Position assumed: no printed board is available, so the hex is a reconstruction (see '
                 '[grid]). The sheet states the ruin itself, not where it lies: place one moai',
                 "key 'cities[0].source'", "'source' must be one of rule-sheet, printed-board, assumed")
    first_city = line_of(EI.read_text(), 'name = "Yellow 1"') - 1  # the [[cities]] header
    assert f"line {first_city}" in err


def test_unknown_source(broken):
    broken(ZOO, 'rounds = { value = 10, source = "assumed"', 'rounds = { value = 10, source = "guess"',
           "key 'scenario.rounds.source'", "(got 'guess')", lines=("rounds = {",))


def test_rule_sheet_value_without_quote(broken):
    broken(EI, 'start_income = { value = 0, source = "rule-sheet", quote = "Place one player disc ... on space 0 of '
               'the income track" }', 'start_income = { value = 0, source = "rule-sheet" }',
           "key 'scenario.start_income.quote'", "a rule-sheet value needs 'quote'", lines=("start_income =",))


def test_assumed_value_without_reason(broken):
    broken(EI, 'hex = "I2"\nsource = "assumed"\nreason = "Urbanization needs towns; 4 towns (one per black new city) '
               'spread over the island."', 'hex = "I2"\nsource = "assumed"',
           "key 'towns[0].reason'", "an assumed value needs 'reason'")
    broken(ZOO, 'action_cost = { value = 0, source = "assumed", reason = "The Zoo section gives no action cost '
                '(the $8 is Easter Island\'s); base actions are free." }',
           'action_cost = { value = 0, source = "assumed", reason = "  " }',
           "key 'scenario.action_cost.reason'", lines=("action_cost =",))


def test_value_without_provenance_table(broken):
    broken(EI, 'rounds = { value = 12, source = "assumed"', 'rounds = 12 \n#{ value = 12, source = "assumed"',
           "key 'scenario.rounds'", "expected an inline table { value = ..., source = ...", lines=("rounds = 12",))


def test_grid_without_provenance(broken):
    broken(ZOO, '[grid]\nsource = "assumed"\n', "[grid]\n", "key 'grid.source'")


def test_unknown_colour(broken):
    broken(EI, 'hex = "G3"\ncolour = "yellow"', 'hex = "G3"\ncolour = "green"', "key 'cities[0].colour'",
           "unknown colour 'green'", lines=('colour = "green"',))
    broken(EI, "bag = { value = { red = 20,", "bag = { value = { green = 3, red = 20,", "key 'scenario.bag'",
           "unknown colour 'green' in the bag", lines=("bag = {",))
    broken(EI, 'new_cities = { value = ["black", "black", "black", "black"]',
           'new_cities = { value = ["black", "black", "black", "white"]', "unknown colour(s) ['white']",
           lines=("new_cities =",))


def test_difficulty_names_a_stop_that_does_not_exist(broken):
    broken(EI, '"Blue 6" = 1 }', '"Blue 7" = 1 }', "key 'difficulty.hard.cubes'", "'Blue 7' is not a stop",
           lines=('"Blue 7" = 1',))


def test_difficulty_with_zero_cubes(broken):
    broken(ZOO, '"Tiger" = 2 }', '"Tiger" = 0 }', "key 'difficulty.standard.cubes'", "1 or more, got 0")


def test_difficulty_needs_more_cubes_than_the_bag_holds(broken):
    broken(FEATURES, "bag = { value = { red = 5, blue = 5 }", "bag = { value = { red = 1, blue = 1 }",
           "key 'difficulty.test.cubes'", "needs 3 cubes but the bag holds only 2", lines=('cubes = {',))


def test_missing_required_scenario_value(broken):
    text = EI.read_text()
    start_cash = next(ln for ln in text.splitlines() if ln.startswith("start_cash ="))
    err = broken(EI, start_cash + "\n", "", "key 'scenario.start_cash'", "missing required value 'start_cash'")
    assert f"in the table that starts on line {line_of(text, '[scenario]')}" in err
    broken(ZOO, 'ruleset = "zoo"\n', "", "key 'scenario.ruleset'", "expected the name of the map's ruleset")
    broken(ZOO, "[scenario]\n", "[scenery]\n", "unknown key 'scenery'", lines=("[scenery]",))


def test_misspelt_keys_are_not_ignored(broken):
    broken(EI, 'hex = "G3"\ncolour = "yellow"', 'hex = "G3"\ncolor = "yellow"', "key 'cities[0].color'",
           "unknown key 'color'", lines=('color = "yellow"',))
    broken(EI, "rounds = { value = 12,", "round = { value = 12,", "key 'scenario.round'", lines=("round = { value = 12,",))
    broken(EI, 'rounds = { value = 12, source = "assumed", reason', 'rounds = { value = 12, source = "assumed", reasn',
           "key 'scenario.rounds.reasn'", lines=("rounds = {",))
    broken(EI, "[difficulty.hard]\ncubes =", "[difficulty.hard]\ncube =", "key 'difficulty.hard.cube'")
    broken(EI, "[[towns]]\nname = \"Anakena\"", "[[town]]\nname = \"Anakena\"", "unknown key 'town'")
    broken(GRAPH, "[graph]\n", '[[cities]]\nname = "C"\nhex = "A1"\n\n[graph]\n', "has no [cities]")


def test_missing_cost_for_a_terrain_on_the_board(broken):
    text = EI.read_text()
    mountain = next(ln for ln in text.splitlines() if ln.startswith("mountain ="))
    broken(EI, mountain + "\n", "", "key 'scenario.track_cost.mountain'", "the board has mountain hexes but no cost")


def test_wrong_types(broken):
    broken(EI, "rounds = { value = 12,", 'rounds = { value = "twelve",', "key 'scenario.rounds'",
           "expected a whole number, got 'twelve'", lines=("rounds = {",))
    broken(EI, "max_shares = { value = 15,", "max_shares = { value = 1.5,", "expected a whole number, got 1.5")
    broken(EI, "rounds = { value = 12,", "rounds = { value = true,", "expected a whole number, got True")
    broken(ZOO, "bonus_tiles_pay_cost = { value = true,", 'bonus_tiles_pay_cost = { value = "yes",',
           "key 'scenario.bonus_tiles_pay_cost'", "expected true or false")
    broken(EI, 'actions = { value = ["engineer", "locomotive", "urbanization", "rapa-nui"]',
           'actions = { value = "engineer"', "key 'scenario.actions'", "expected a list")
    broken(EI, 'hex = "G3"', "hex = 7", "key 'cities[0].hex'", "expected a hex name like 'C4', got 7",
           lines=("hex = 7",))
    broken(EI, 'name = "Anakena"', "name = 5", "key 'towns[0].name'", "expected a non-empty text 'name'")
    broken(EI, 'colour = "yellow"\nnumber = "1"\n', 'colour = "yellow"\nnumber = ["1"]\n',
           "key 'cities[0].number'")
    broken(FEATURES, "numbers = [1, 2]", "numbers = 12", "key 'zones[0].numbers'", "expected a list of numbers")
    broken(FEATURES, 'colour = "purple"', 'colour = ["purple"]', "key 'zones[0].colour'", "unknown colour")
    broken(FEATURES, 'picture = """\n. . ~ ~ . . w\n . ^ . . M . w\n. . . w w . .\n x . . . . . .\n"""',
           "picture = 3", "key 'grid.picture'", "expected a multi-line string", lines=("picture = 3",))
    broken(EI, 'bag = { value = { red = 20,', 'bag = { value = { red = -20,', "the bag's count of red")


def test_negative_and_zero_numbers(broken):
    broken(EI, "rounds = { value = 12,", "rounds = { value = 0,", "must be 1 or more, got 0")
    broken(EI, "start_cash = { value = 10,", "start_cash = { value = -1,", "key 'scenario.start_cash'",
           "must be 0 or more, got -1")


def test_inconsistent_numbers(broken):
    broken(EI, "start_locomotive = { value = 2,", "start_locomotive = { value = 7,",
           "key 'scenario.start_locomotive'", "above its maximum 6")
    broken(EI, "start_shares = { value = 2,", "start_shares = { value = 16,", "above the maximum 15")


def test_unknown_ruleset_and_action(broken):
    broken(ZOO, 'ruleset = "zoo"', 'ruleset = "zo"', "key 'scenario.ruleset'", "unknown ruleset 'zo'",
           lines=('ruleset = "zo"',))
    broken(ZOO, '"urbanization", "feeding"]', '"urbanization", "feeding", "juggling"]', "unknown action(s) ['juggling']")
    broken(ZOO, "[scenario.track_cost]\n", "[scenario.track_cost]\nswamp = { value = 3, source = \"assumed\", "
                "reason = \"x\" }\n", "key 'scenario.track_cost.swamp'", "unknown terrain 'swamp'")


def test_two_stops_with_one_name(broken):
    broken(EI, 'name = "Hanga Roa"', 'name = "Anakena"', "key 'towns[1].name'", "'Anakena' is already used")
    broken(ZOO, 'name = "Tiger"', 'name = "lion"', "key 'cities[9].name'", "already used", lines=('name = "lion"',))


def test_public_track_problems(broken):
    broken(FEATURES, 'hexes = ["A1", "A2", "B3", "B4", "C4"]', 'hexes = ["A1", "A2", "B3", "C4"]',
           "key 'track[0].hexes'", "B3 and C4 are not neighbours")
    broken(FEATURES, 'hexes = ["A1", "A2", "B3", "B4", "C4"]', 'hexes = ["A1", "A2", "B3", "B4"]',
           "must start and end at a stop; B4 is none")
    broken(FEATURES, 'hexes = ["A1", "A2", "B3", "B4", "C4"]', 'hexes = ["A1", "A2", "B3", "A4", "B4", "C4"]',
           "A4, which is off the map")


def test_zone_problems(broken):
    broken(FEATURES, 'hexes = ["D3", "E3"]', "hexes = []", "key 'zones[0].hexes'", "non-empty list of hexes")
    broken(FEATURES, 'hexes = ["F3", "G3"]', 'hexes = ["F3", "F2"]', "key 'organs[0].hexes'",
           "shares its hex with city 'Blue City'")


def test_graph_map_problems(broken):
    broken(GRAPH, '["Cerebellum", "Stem"]', '["Cerebellum", "Spine"]', "key 'graph.edges[2]'",
           "unknown node 'Spine'", lines=("edges = [",))
    broken(GRAPH, '["Cortex", "Cerebellum"]]', '["Cortex", "Cortex"]]', "an edge must join two different nodes")
    broken(GRAPH, 'nodes = ["Cortex", "Thalamus",', 'nodes = ["Cortex", "Cortex",', "node names must be unique")


def test_meta_problems(broken):
    broken(ZOO, 'name = "Zoo"\n', "", "key 'meta.name'", "expected a map name")
    broken(ZOO, "[meta]\n", "[[meta]]\n", "expected a table [meta]")


def test_missing_file(run_cli, tmp_path):
    path = tmp_path / "nowhere.toml"
    r = run_cli("map", "validate", path)
    assert r.code == 2 and r.err.startswith(f"aos-solve: error: {path}: cannot read the file")


def test_empty_file(run_cli, tmp_path):
    path = tmp_path / "empty.toml"
    path.write_text("")
    r = run_cli("map", "validate", path)
    assert r.code == 2 and r.err == f'aos-solve: error: {path}, key "meta": expected a table [meta]\n'


def test_not_utf8(run_cli, tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(EI.read_bytes().replace(b"# Easter Island (Rapa Nui)", b"# \xc9aster Island", 1))
    r = run_cli("map", "validate", path)
    assert r.code == 2 and "not UTF-8 text" in r.err and "line 1)" in r.err


def test_error_from_the_installed_command_has_no_traceback(tmp_path):
    """The real console entry point (a subprocess), not the in-process runner."""
    import subprocess
    import sys
    path = tmp_path / "zoo.toml"
    path.write_text(edit(ZOO.read_text(), "danger = 6", "danger = -1"))
    done = subprocess.run([sys.executable, "-c", "from solver.cli import main; main()", "map", "validate", str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f'aos-solve: error: {path}, key "cities[0].danger" (line ')
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


# -- property-based: mutated files ---------------------------------------------------

SOURCES = {p.name: p.read_text(encoding="utf-8") for p in (EI, ZOO, FEATURES, GRAPH,
                                                           INSTANCES / "tiny" / "tiny-island.toml",
                                                           INSTANCES / "tiny" / "tiny-zoo.toml")}
EXAMPLES = int(os.environ.get("AOS_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                derandomize="AOS_FUZZ_EXAMPLES" not in os.environ,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

TOML_CHARS = list("=[]{}\"'.,#-~^x0123456789aZ \n\t") + ["\\", '"""', "true", "-1", "1e3", "é"]
STRING = re.compile(r'"[^"\n]*"')
NUMBER = re.compile(r"(?<![A-Za-z])-?\d+")
ASSIGN = re.compile(r"^(\s*[\w\"' .-]+?\s*=\s*)(.+)$", re.M)


@st.composite
def mutation(draw, text: str) -> str:
    """One random corruption of a TOML text."""
    kind = draw(st.sampled_from(["delete-line", "duplicate-line", "replace-char", "swap-strings",
                                 "swap-values", "change-number", "truncate"]))
    lines = text.split("\n")
    if kind == "delete-line":
        i = draw(st.integers(0, len(lines) - 1))
        return "\n".join(lines[:i] + lines[i + 1:])
    if kind == "duplicate-line":
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines)))
        return "\n".join(lines[:j] + [lines[i]] + lines[j:])
    if kind == "replace-char":
        i = draw(st.integers(0, max(0, len(text) - 1)))
        c = draw(st.sampled_from(TOML_CHARS) | st.characters(blacklist_categories=("Cs",)))
        return text[:i] + c + text[i + 1:]
    if kind == "truncate":
        return text[:draw(st.integers(0, len(text)))]
    if kind == "swap-strings":
        spans = [m.span() for m in STRING.finditer(text)]
    elif kind == "change-number":
        spans = [m.span() for m in NUMBER.finditer(text)]
        if spans:
            a, b = draw(st.sampled_from(spans))
            n = draw(st.sampled_from([-1, 0, 1, 7, 99, 10**12]) | st.integers(-20, 50))
            return text[:a] + str(n) + text[b:]
        return text
    else:
        spans = [m.span(2) for m in ASSIGN.finditer(text)]
    if len(spans) < 2:
        return text
    (a, b), (c, d) = sorted(draw(st.lists(st.sampled_from(spans), min_size=2, max_size=2, unique=True)))
    return text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]


@st.composite
def mutated_file(draw) -> tuple[str, str]:
    name = draw(st.sampled_from(sorted(SOURCES)))
    text = SOURCES[name]
    for _ in range(draw(st.integers(1, 3))):
        text = draw(mutation(text))
    return name, text


def run_quietly(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.run([str(a) for a in args])  # any exception escaping here fails the test
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("mutants")


def check_mutant(scratch, name: str, text: str) -> None:
    path = scratch / name
    path.write_text(text, encoding="utf-8")
    code, out, err = run_quietly(["map", "validate", path])
    assert "Traceback" not in err and "Traceback" not in out
    if code == 0:
        assert out.startswith(f"{path}: valid")
        load_instance(path)
        # What loads must also show and draw.
        code, out, err = run_quietly(["map", "show", path, "--json"])
        assert code == 0, err
        json.loads(out)
        svg = scratch / "mutant.svg"
        code, out, err = run_quietly(["map", "render", path, "-o", svg])
        assert code == 0, err
        ET.parse(svg)
    else:
        assert code == 2, (code, out, err)
        assert err.startswith(f"aos-solve: error: {path}"), err
        assert err.count("\n") == 1, f"not a single message: {err!r}"
        with pytest.raises(InputError):
            load_instance(path)


@FUZZ
@given(mutant=mutated_file())
def test_mutated_files_load_or_fail_cleanly(scratch, mutant):
    check_mutant(scratch, *mutant)


@FUZZ
@given(data=st.data())
def test_swapped_values_load_or_fail_cleanly(scratch, data):
    """Many mutations of one kind: values of one key moved to another (wrong types, wrong ranges)."""
    name = data.draw(st.sampled_from(sorted(SOURCES)))
    text = SOURCES[name]
    spans = [m.span(2) for m in ASSIGN.finditer(text)] + [m.span() for m in STRING.finditer(text)]
    for _ in range(data.draw(st.integers(1, 4))):
        (a, b), (c, d) = sorted(data.draw(st.lists(st.sampled_from(spans), min_size=2, max_size=2, unique=True)))
        if b > c:  # overlapping spans: skip
            continue
        text = text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
        spans = [m.span(2) for m in ASSIGN.finditer(text)] + [m.span() for m in STRING.finditer(text)]
    check_mutant(scratch, name, text)


def test_loader_errors_are_input_errors_even_for_odd_values(tmp_path):
    """Values of every TOML type in every scenario slot: never anything but InputError."""
    odd = ['"x"', "-3", "3.5", "true", "[]", "[1, 2]", "{}", '{ value = "x" }', "1979-05-27",
           '{ value = [], source = "assumed", reason = "r" }', '{ value = {}, source = "assumed", reason = "r" }']
    base = EI.read_text()
    keys = [m.group(1).split("=")[0].strip() for m in re.finditer(r"^(\w+ = \{ value)", base, re.M)]
    assert len(keys) > 15
    path = tmp_path / "odd.toml"
    for key in keys:
        line = next(ln for ln in base.splitlines() if ln.startswith(f"{key} = "))
        for value in odd:
            path.write_text(base.replace(line + "\n", f"{key} = {value}\n", 1))
            try:
                load_instance(path)
            except InputError as err:
                assert str(err).startswith(str(path))
