"""Railroad Tiles Desert at the table (issue 40): advice from the lookahead policy, anywhere on the table, in
the record's own frame, under the player's readings, saying when the mission is lost; a ceiling that holds with
objective tiles and settles star levels; objective tiles limited as the referee's data file says."""
from __future__ import annotations

import json
import tomllib

import pytest

from solver.desert import objectives, scoring
from solver.desert_play.advise import advise
from solver.desert_play.ceiling import ceiling
from solver.desert.referee import evaluate
from solver.desert.setup import load_setup
from solver.desert_play.policies import play_policy
from solver.desert.layout import Layout, RoundPlay, TilePlay, parse_layout, replay
from solver.desert.market import draw_market


@pytest.fixture(scope="module")
def setup():
    return load_setup()


def highway_line() -> Layout:
    """A legal record whose highway line is 7 tiles wide (x 3..9), start tile at (3, 3) as `game --out` writes."""
    rounds = [RoundPlay(1, tiles=[TilePlay("C17", (4, 3), 0), TilePlay("C17", (5, 3), 0), TilePlay("C17", (6, 3), 0)]),
              RoundPlay(2, tiles=[TilePlay("C17", (7, 3), 0), TilePlay("C16", (8, 3), 0), TilePlay("C16", (9, 3), 0)])]
    return Layout((3, 3), 0, rounds, "desert-of-death")


def test_advice_places_tiles_beyond_a_six_wide_box(setup):
    """The game's play area has no edge: on a record 7 tiles wide the advice still places the column's tiles
    (the old 6x6 box left every column at "placed: 0")."""
    lay = highway_line()
    ch = setup.challenges.get("desert-of-death")
    assert evaluate(setup, lay, ch)["legal"]
    data = advise(setup, lay, [["C18", "D06"], ["C05", "D23", "D22"], ["C04", "C19", "C01", "D01"]], ["car", "car"],
                  ch, policy="greedy")
    assert all(c["placed"] > 0 for c in data["columns"])
    assert data["tiles"] and data["tiles_left_out"] == 0


def test_advice_positions_are_in_the_records_frame_with_sides_in_words(setup, run_cli, tmp_path):
    """Positions are the record's own (start tile at (3, 3) in a `game --out` record), every advised tile touches
    the record's tiles there, and the text says so and names the sides by compass direction."""
    lay = highway_line()
    path = tmp_path / "line.toml"
    path.write_text(lay.to_toml("a 7-wide highway line"))
    res = run_cli("desert", "advise", "--area", path, "--policy", "greedy", "--columns", "C18,D06",
                  "--tokens", "car,car")
    assert res.code == 0, res.err
    assert "the start tile is at (3, 3)" in res.out and "from the start tile at (0, 0)" not in res.out
    assert "north" in res.out and "quarter turn" in res.out
    js = json.loads(run_cli("desert", "advise", "--area", path, "--policy", "greedy", "--columns", "C18,D06",
                            "--tokens", "car,car", "--json").out)
    cells = {(3, 3)} | {tuple(t.at) for rp in lay.rounds for t in rp.tiles}
    first = tuple(js["tiles"][0]["at"])
    assert any((first[0] + dx, first[1] + dy) in cells for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
    assert set(js["tiles"][0]["side_kinds"]) == {"north", "east", "south", "west"}


def broken_boundary(setup):
    """The greedy policy's Sharp Boundary game played without the mission (seed 2): the rounds until the
    mission is broken, and the market."""
    market = draw_market(2, setup.tileset, setup.ruleset)
    game = play_policy(setup, market, None, "greedy")
    ch = setup.challenges.get("sharp-boundary")
    from solver.desert import missions
    for k in range(1, 8):
        prefix = Layout(game.start_at, game.start_rotation, game.rounds[:k], ch.id, game.seed)
        if not missions.check(ch, replay(prefix, setup.tileset, setup.ruleset, market).area).met:
            return prefix, market, ch
    raise AssertionError("the greedy game (seed 2) no longer breaks Sharp Boundary before round 8: pick another")


def test_advice_says_a_lost_mission_and_no_star_level_is_left(setup):
    """Sharp Boundary broken for good (a Desert tile next to a regular tile stays so): the advice says so and
    leaves no star level reachable."""
    prefix, market, ch = broken_boundary(setup)
    record = Layout(prefix.start_at, prefix.start_rotation,
                    [RoundPlay(rp.number, tokens=list(market.rounds[rp.number - 1].tokens), tiles=rp.tiles,
                               pawns=rp.pawns) for rp in prefix.rounds], ch.id)
    offer = market.rounds[len(record.rounds)]
    data = advise(setup, record, [list(c) for c in offer.columns], list(offer.tokens), ch, policy="greedy")
    assert data["mission"]["status"] == "lost for good"
    assert data["stars_reachable"]["levels"] == []


def test_ceiling_settles_star_levels_once_the_mission_is_lost_and_after_the_last_round(setup):
    """No star level is "still open" after Sharp Boundary is broken for good, nor after round 8."""
    prefix, market, ch = broken_boundary(setup)
    c = ceiling(setup, market, prefix, ch)
    assert c["mission"]["status"] == "lost for good"
    assert all(v.startswith("out of reach") for v in c["stars"].values())
    for game in (play_policy(setup, market, ch, "greedy"), play_policy(setup, market, None, "greedy")):
        done = ceiling(setup, market, game, ch)
        assert done["rounds_left"] == 0 and "still open" not in done["stars"].values()


def with_objective_tiles(setup, seed: int) -> tuple[Layout, object]:
    """The greedy policy's game (no challenge) with one tile of each objective added in round 8 where it
    scores most (objective points first)."""
    market = draw_market(seed, setup.tileset, setup.ruleset)
    lay = play_policy(setup, market, None, "greedy", box=None)
    for oid in sorted(setup.tileset.objectives):
        area = replay(lay, setup.tileset, setup.ruleset, market).area
        best = None
        for cell, ot in area.legal_spots(setup.tileset.get(oid)):
            trial = area.copy()
            trial.place(ot, cell, 8)
            val = (objectives.points(trial), scoring.score_total(trial))
            if best is None or val > best[0]:
                best = (val, cell, ot.rotation)
        lay.rounds[-1].tiles.append(TilePlay(oid, best[1], best[2]))
    return lay, market


def test_ceiling_counts_objectives_and_objective_tile_landmarks(setup):
    """A referee-accepted record with all three objectives met: the ceiling (every round played) is at least its
    score, and its objectives line at least the objectives scored (before, the bound had no objectives line)."""
    lay, market = with_objective_tiles(setup, 5)
    ev = evaluate(setup, lay, None, market)
    assert ev["legal"], ev["violation"]
    scored = next(line["points"] for line in ev["lines"] if line["key"] == "objectives")
    assert scored == 15
    for k in (7, 8):
        c = ceiling(setup, market, Layout(lay.start_at, lay.start_rotation, lay.rounds[:k], None, lay.seed), None)
        assert c["ceiling"] >= ev["score"] and c["lines"]["objectives"] >= scored


def test_a_second_tile_of_one_objective_is_refused(setup):
    """The data file allows one tile of each objective in a play area (objective_tiles_in_play, assumed: the sheet
    is silent); the referee refused nothing before, so 4 Markets could count one another."""
    lay, market = with_objective_tiles(setup, 5)
    area = replay(lay, setup.tileset, setup.ruleset, market).area
    market_tile = next(t for t in setup.tileset.objectives.values() if t.objective == "desert-market")
    cell, ot = area.legal_spots(market_tile)[0]
    lay.rounds[-1].tiles.append(TilePlay(market_tile.id, cell, ot.rotation))
    ev = evaluate(setup, lay, None, market)
    assert not ev["legal"] and "objective_tiles_in_play" in ev["violation"]


def test_route_side_reading_makes_an_all_empty_tile_unplaceable_after_the_first_desert_tile(setup):
    """same-kind-contact: the default (any shared side) lets C19, all four sides empty, go next to a core tile's
    empty side after the first Desert tile; under route-side no side of it can connect."""
    route = load_setup(readings=("same-kind-contact=route-side",))
    lay = Layout((0, 0), 0, [RoundPlay(1, tiles=[TilePlay("C01", (0, 1), 0), TilePlay("D06", (0, -1), 0)])])
    for s, expect in ((setup, True), (route, False)):
        area = replay(lay, s.tileset, s.ruleset).area
        assert bool(area.legal_spots(s.tileset.get("C19"))) is expect


def test_advise_takes_readings_and_prints_them(run_cli):
    """`--reading` works on advise, and the readings used are printed with the advice (the changed one marked)."""
    res = run_cli("desert", "advise", "--policy", "greedy", "--columns", "C21,D06", "--tokens", "camel",
                  "--reading", "same-kind-contact=route-side")
    assert res.code == 0, res.err
    assert "same-kind-contact route-side (set; default adjacent)" in res.out and "first-desert-tile" in res.out
    bad = run_cli("desert", "advise", "--columns", "C21,D06", "--reading", "first-desert-tile=anywhere")
    assert bad.code == 2 and "not implemented" in bad.err


def test_lookahead_advice_is_seeded_and_judges_columns_on_imagined_futures(setup):
    """The default advice is the lookahead: the same seed gives the same values, the values are means over the
    futures played (not the greedy estimate), and the real later rounds are never read."""
    ch = setup.challenges.get("desert-of-death")
    market = draw_market(5, setup.tileset, setup.ruleset)
    offer = market.rounds[5]
    game = play_policy(setup, market, ch, "greedy", box=None)
    record = Layout(game.start_at, 0, [RoundPlay(rp.number, tokens=list(market.rounds[rp.number - 1].tokens),
                                                 tiles=rp.tiles, pawns=rp.pawns) for rp in game.rounds[:5]], ch.id)
    args = (setup, record, [list(c) for c in offer.columns], list(offer.tokens), ch)
    a = advise(*args, futures=2, time_budget=None, seed=1)
    b = advise(*args, futures=2, time_budget=None, seed=1)
    g = advise(*args, policy="greedy")
    assert a["policy"] == "lookahead" and a["lookahead"]["futures"] == 2
    assert [c["value"] for c in a["columns"]] == [c["value"] for c in b["columns"]]
    assert [c["value"] for c in a["columns"]] != [c["value"] for c in g["columns"]]
    assert "imagined future" in a["value_basis"]
    parse_layout(tomllib.loads(a["record"]), "record")


def test_lookahead_work_budget_stops_the_futures_the_same_way_on_every_machine(setup):
    """The deterministic budget (the benchmark's): a next future only if the work so far plus one more future's
    mean work fits, work counted in tiles offered to the placer, never read off a clock."""
    ch = setup.challenges.get("desert-of-death")
    market = draw_market(5, setup.tileset, setup.ruleset)
    offer = market.rounds[5]
    game = play_policy(setup, market, ch, "greedy", box=None)
    record = Layout(game.start_at, 0, [RoundPlay(rp.number, tokens=list(market.rounds[rp.number - 1].tokens),
                                                 tiles=rp.tiles, pawns=rp.pawns) for rp in game.rounds[:5]], ch.id)
    args = (setup, record, [list(c) for c in offer.columns], list(offer.tokens), ch)
    one = advise(*args, futures=1, time_budget=None, seed=1)
    w1 = one["lookahead"]["work"]
    assert w1 > 0
    cut = advise(*args, futures=4, time_budget=None, seed=1, work_budget=w1)
    assert cut["lookahead"]["futures"] == 1 and cut["lookahead"]["cut_by_work"]
    assert [c["value"] for c in cut["columns"]] == [c["value"] for c in one["columns"]]
    assert "work budget" in cut["value_basis"]
    room = advise(*args, futures=2, time_budget=None, seed=1, work_budget=10 * w1)
    assert room["lookahead"]["futures"] == 2 and not room["lookahead"]["cut_by_work"]
    assert w1 < room["lookahead"]["work"] <= 10 * w1
