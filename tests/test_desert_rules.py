"""The referee and the scorer, one test per rule (Desert sheet and assumed core values)."""
import itertools
import pathlib
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.desert import scoring
from solver.desert.referee import evaluate
from solver.desert.setup import load_setup
from solver.desert.layout import load_layout, parse_layout
from solver.desert.ruleset import DEFAULT_RULESET, load_ruleset
from solver.desert.catalogue import load_catalogues
from solver.desert.setup import Setup

ROOT = pathlib.Path(__file__).resolve().parent.parent
LAYOUTS = ROOT / "instances" / "desert" / "layouts"


@pytest.fixture(scope="module")
def setup():
    return load_setup()


def judge(setup, text: str, challenge: str | None = None):
    lay = parse_layout(tomllib.loads(text), "<test>")
    ch = setup.challenges.get(challenge) if challenge else None
    return evaluate(setup, lay, ch)


def line(ev, key):
    return next(l["points"] for l in ev["lines"] if l["key"] == key)


START = "[start]\nat = [0, 0]\nrotation = 0\n"


# ----------------------------------------------------------------------------- landmarks
def test_sheet_example_five_landmarks_four_active_score_set_of_3_plus_set_of_1(setup):
    ev = evaluate(setup, load_layout(LAYOUTS / "sheet-example.toml"), None)
    assert ev["legal"], ev["violation"]
    facts = ev["facts"]["landmarks"]
    assert facts["total"] == 5
    assert facts["active"] == {"pyramid": 2, "sphinx": 1, "obelisk": 1}  # the oasis is not active
    assert sorted(len(s) for s in facts["sets"]) == [1, 3]
    assert line(ev, "landmarks") == 6 + 1


def test_landmark_set_points_from_sheet_example_counts():
    pts, sets = scoring.landmark_sets({"pyramid": 2, "sphinx": 1, "obelisk": 1, "oasis": 0}, [1, 3, 6, 10])
    assert pts == 7
    assert sorted(map(len, sets)) == [1, 3]


def _best_split(counts: tuple[int, ...], points) -> int:
    """Every way of splitting landmarks into sets of different types (brute force)."""
    if not any(counts):
        return 0
    best = 0
    present = [i for i, c in enumerate(counts) if c]
    first = present[0]  # the set holding one landmark of the first type present
    others = present[1:]
    for k in range(len(others) + 1):
        for extra in itertools.combinations(others, k):
            members = (first,) + extra
            rest = tuple(c - (i in members) for i, c in enumerate(counts))
            best = max(best, points[len(members) - 1] + _best_split(rest, points))
    return best


def test_landmark_sets_are_the_best_split_into_different_types():
    points = [1, 3, 6, 10]
    types = ["oasis", "pyramid", "obelisk", "sphinx"]
    for counts in itertools.product(range(4), repeat=4):
        got, sets = scoring.landmark_sets(dict(zip(types, counts)), points)
        assert got == _best_split(counts, points), counts
        assert all(len(set(s)) == len(s) for s in sets)  # a set holds different landmarks


# ----------------------------------------------------------------------------- Desert placement rules
CORE_ROW = """
[[round]]
number = 1
tiles = [ { tile = "C16", at = [1, 0], rotation = 0 } ]
"""


def test_first_desert_tile_is_placed_freely(setup):
    # The pyramid tile touches only regular tiles (the start tile): allowed for the first Desert tile.
    ev = judge(setup, START + CORE_ROW + """
[[round]]
number = 2
tiles = [ { tile = "D08", at = [0, 1], rotation = 0 } ]
""")
    assert ev["legal"], ev["violation"]


def test_later_desert_tile_must_touch_a_desert_tile(setup):
    # The second Desert tile (sphinx, trail west onto the start's highway) touches only the start tile.
    ev = judge(setup, START + """
[[round]]
number = 1
tiles = [
  { tile = "D08", at = [0, 1], rotation = 0 },
  { tile = "D10", at = [1, 0], rotation = 3 },
]
""")
    assert not ev["legal"]
    assert "D10" in ev["violation"] and "same kind" in ev["violation"]


def test_later_core_tile_must_touch_a_core_tile(setup):
    # After the first Desert tile, a city block below it touches only that Desert tile.
    ev = judge(setup, START + """
[[round]]
number = 1
tiles = [
  { tile = "D08", at = [0, 1], rotation = 0 },
  { tile = "C19", at = [0, 2], rotation = 0 },
]
""")
    assert not ev["legal"]
    assert "C19" in ev["violation"] and "core tile" in ev["violation"]


def test_core_tiles_before_any_desert_tile_only_touch_the_play_area(setup):
    ev = judge(setup, START + CORE_ROW + """
[[round]]
number = 2
tiles = [ { tile = "C17", at = [2, 0], rotation = 0 } ]
""")
    assert ev["legal"], ev["violation"]


def test_touching_sides_must_match(setup):
    # A highway north-south: its empty west side touches the start's highway east side.
    ev = judge(setup, START + """
[[round]]
number = 1
tiles = [ { tile = "C05", at = [1, 0], rotation = 0 } ]
""")
    assert not ev["legal"]
    assert "touching sides must match" in ev["violation"]


def test_new_tile_must_touch_the_play_area(setup):
    ev = judge(setup, START + """
[[round]]
number = 1
tiles = [ { tile = "C19", at = [3, 3], rotation = 0 } ]
""")
    assert not ev["legal"]
    assert "touches no tile" in ev["violation"]


def test_desert_station_forced_where_trail_meets_railroad_or_highway(setup):
    ev = evaluate(setup, load_layout(LAYOUTS / "sheet-example.toml"), None)
    assert ev["facts"]["landmarks"]["desert_stations"] == 4  # four trails end on the railroads above
    # Trail to trail is no station: only the start tile's railroad meets a trail here.
    ev = evaluate(setup, load_layout(LAYOUTS / "camel-far-from-core.toml"), None)
    assert ev["facts"]["landmarks"]["desert_stations"] == 1


def test_camel_scores_desert_stations_reached_only_through_trails(setup):
    # Camel on the trail under the start tile: one station on its trail (start's railroad).
    # A second trail network meets the start's highway: reachable through the start's
    # station, not through trails -- it must not count.
    ev = judge(setup, START + """
[[round]]
number = 1
tokens = ["car"]
tiles = [
  { tile = "D01", at = [0, 1], rotation = 0 },
  { tile = "D19", at = [-1, 1], rotation = 0 },
]

[[round]]
number = 2
tokens = ["car", "camel"]
tiles = [
  { tile = "D10", at = [-1, 0], rotation = 1 },
]
pawns = [ { at = [0, 1], pinpoint = 0, token = "camel" } ]
""")
    assert ev["legal"], ev["violation"]
    assert ev["facts"]["landmarks"]["desert_stations"] == 2
    assert [p["points"] for p in ev["pawns"]] == [1]


def test_camel_points_are_capped_at_5(setup):
    ev = evaluate(setup, load_layout(LAYOUTS / "camel-network.toml"), None)
    assert ev["legal"], ev["violation"]
    assert ev["facts"]["landmarks"]["desert_stations"] == 6
    camels = [p["points"] for p in ev["pawns"] if p["kind"] == "camel"]
    assert camels == [5, 5]


def test_desert_trails_are_not_openings(setup, tmp_path):
    layout = load_layout(LAYOUTS / "camel-network.toml")
    ev = evaluate(setup, layout, None)
    # 6 railroad ends north of the top row, the start's highway west, the last highway east.
    assert ev["facts"]["openings"] == 8
    assert line(ev, "openings") == -8
    # The same play area with trails counted would have 4 more (the open trail ends).
    text = DEFAULT_RULESET.read_text().replace(
        '[trails_are_openings]\nvalue = false', '[trails_are_openings]\nvalue = true'
    )
    (tmp_path / "rules.toml").write_text(text)
    rs = load_ruleset(tmp_path / "rules.toml")
    other = Setup(rs, load_catalogues(rs), setup.challenges)
    assert evaluate(other, layout, None)["facts"]["openings"] == 12


def test_star_token_may_place_a_camel(setup):
    ev = evaluate(setup, load_layout(LAYOUTS / "camel-network.toml"), None)
    assert any(p["token"] == "star" and p["kind"] == "camel" for p in ev["pawns"])


def test_pawn_needs_an_active_token_of_its_kind(setup):
    base = START + """
[[round]]
number = 1
tokens = [{tokens}]
tiles = [ {{ tile = "D01", at = [0, 1], rotation = 0 }} ]
pawns = [ {{ at = [0, 1], pinpoint = 0, token = "{token}" }} ]
"""
    assert judge(setup, base.format(tokens='"camel"', token="camel"))["legal"]
    ev = judge(setup, base.format(tokens='"car"', token="car"))
    assert not ev["legal"] and "cannot place a camel" in ev["violation"]
    ev = judge(setup, base.format(tokens='"car"', token="camel"))
    assert not ev["legal"] and "no unused camel token" in ev["violation"]


def test_core_pawn_scores_pawns_of_its_kind_in_its_network(setup):
    # Assumed rule: 1 point per pawn of its kind in its network, itself included.
    ev = evaluate(setup, load_layout(LAYOUTS / "camel-network.toml"), None)
    assert [p["points"] for p in ev["pawns"] if p["kind"] == "traveler"] == [1, 2]


def test_city_groups_of_at_least_two_tiles_score_their_icons(setup):
    ev = judge(setup, START + """
[[round]]
number = 1
tiles = [
  { tile = "C20", at = [1, 0], rotation = 1 },   # city, highway west-east
  { tile = "C19", at = [1, 1], rotation = 0 },   # city block
  { tile = "C28", at = [2, 1], rotation = 0 },   # two city icons
]

[[round]]
number = 2
tiles = [
  { tile = "C20", at = [-1, 0], rotation = 1 },  # a city alone: no group
]
""")
    assert ev["legal"], ev["violation"]
    assert line(ev, "cities") == 1 + 1 + 2


# ----------------------------------------------------------------------------- rectangle
def _brute_rectangle(cells):
    best = 0
    xs = sorted({c[0] for c in cells})
    ys = sorted({c[1] for c in cells})
    for x0, x1 in itertools.combinations_with_replacement(xs, 2):
        for y0, y1 in itertools.combinations_with_replacement(ys, 2):
            if all((x, y) in cells for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)):
                best = max(best, (x1 - x0 + 1) * (y1 - y0 + 1))
    return best


@settings(max_examples=150, deadline=None)
@given(st.sets(st.tuples(st.integers(-2, 4), st.integers(-2, 4)), min_size=1, max_size=30))
def test_largest_rectangle_without_gaps(cells):
    size, box = scoring.largest_rectangle(cells)
    assert size == _brute_rectangle(cells)
    x0, y0, x1, y1 = box
    assert all((x, y) in cells for x in range(x0, x1 + 1) for y in range(y0, y1 + 1))


def test_the_policies_quick_total_is_the_scorers_total(setup):
    """score_total (the policies' fast valuation) equals final_score's total, round by round,
    on random and greedy games of every challenge."""
    from dataclasses import replace

    from solver.desert_play.policies import play_policy
    from solver.desert.layout import replay
    from solver.desert.market import draw_market

    checked = 0
    for seed, kind in [(0, "random"), (1, "greedy"), (2, "random"), (3, "random")]:
        mk = draw_market(seed, setup.tileset, setup.ruleset)
        ch = setup.challenges.get(["sharp-boundary", "lost-world", "desert-of-death"][seed % 3])
        lay = play_policy(setup, mk, ch, kind)
        for k in range(1, len(lay.rounds) + 1):
            area = replay(replace(lay, rounds=lay.rounds[:k]), setup.tileset, setup.ruleset, mk).area
            assert scoring.score_total(area) == scoring.final_score(area).total, (seed, kind, k)
            checked += 1
    assert checked == 32
