"""`aos-solve desert score | solve | game`: text report, --json twin, SVG, exit codes."""
import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "instances" / "desert"
EXAMPLE = DATA / "layouts" / "sheet-example.toml"


def test_help_of_each_command(run_cli):
    for cmd in ("score", "solve", "game"):
        res = run_cli("desert", cmd, "--help")
        assert res.code == 0
        assert "--json" in res.out and "--svg" in res.out


def test_score_text_and_json_agree(run_cli, tmp_path):
    res = run_cli("desert", "score", EXAMPLE, "--svg", tmp_path / "a.svg")
    assert res.code == 0, res.err
    assert "Legal: yes" in res.out
    total = int(re.search(r"^\s+total\s+(-?\d+)", res.out, re.M).group(1))
    assert "The Lost World" in res.out and "Assumptions" in res.out
    assert "rectangle_points_per_tile" in res.out  # an assumption the score depends on
    assert (tmp_path / "a.svg").read_text().startswith("<svg")
    js = json.loads(run_cli("desert", "score", EXAMPLE, "--json").out)
    assert js["score"] == total and js["legal"] is True
    assert js["challenge"] == "lost-world" and js["stars"] == 0
    keys = {a["key"] for a in js["assumptions"]}
    assert keys >= {"openings_penalty", "rectangle_points_per_tile"}
    # only what the answer used: no pawn placed, no search
    assert not keys & {"pawn_points_per_connected", "play_area_bound"}


def test_score_reports_the_first_illegal_placement_with_exit_1(run_cli, tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text(
        '[start]\nat = [0, 0]\nrotation = 0\n[[round]]\ntiles = [\n'
        '  { tile = "C05", at = [1, 0], rotation = 0 },\n  { tile = "C19", at = [5, 5], rotation = 0 },\n]\n'
    )
    res = run_cli("desert", "score", p)
    assert res.code == 1
    assert "Legal: NO" in res.out
    assert "first illegal placement: round 1, C05 at (1, 0)" in res.out  # the first one, not the second


def test_solve_tiles_writes_a_layout_the_scorer_replays(run_cli, tmp_path):
    out, svg = tmp_path / "found.toml", tmp_path / "found.svg"
    res = run_cli(
        "desert", "solve", "--challenge", "lost-world", "--tiles", DATA / "tiles" / "small.toml",
        "--time-limit", "4", "--json", "--out", out, "--svg", svg,
    )
    assert res.code == 0, res.err
    js = json.loads(res.out)
    assert js["status"] in ("optimal", "feasible")
    assert js["mission_met"] and js["bound"] >= js["score"]
    assert set(js["star_reach"]) == {"1", "2", "3"}
    assert svg.read_text().startswith("<svg")
    again = json.loads(run_cli("desert", "score", out, "--json").out)
    assert again["legal"] and again["score"] == js["score"]
    text = run_cli("desert", "solve", "--challenge", "lost-world", "--tiles", DATA / "tiles" / "small.toml", "--time-limit", "4")
    assert "Solver:" in text.out and "Replayed by the referee" in text.out and "Assumptions" in text.out


def test_game_prints_foresight_online_and_random(run_cli, tmp_path):
    out = tmp_path / "best.toml"
    online_out = tmp_path / "online.toml"
    res = run_cli("desert", "game", "--challenge", "desert-of-death", "--seed", "3", "--time-limit", "1", "--json", "--out", out,
                  "--online-out", online_out)
    assert res.code == 0, res.err
    js = json.loads(res.out)
    # the online policy's own game: its choice each round with the value of each column, and its layout
    rounds = js["online"]["rounds"]
    assert [t["round"] for t in rounds] == list(range(1, 9))
    assert all(len(t["values"]) == 3 and 1 <= t["column"] <= 3 and t["value"] for t in rounds)
    assert all(t["values"][t["column"] - 1] == max(v for v in t["values"] if v is not None) for t in rounds)
    assert [r["column"] for r in js["online"]["layout"]["rounds"]] == [t["column"] for t in rounds]
    replayed = json.loads(run_cli("desert", "score", online_out, "--json").out)
    assert replayed["legal"] and replayed["score"] == js["online"]["score"]
    for key in ("challenge", "seed", "score", "stars", "proof", "bound", "seconds", "mission_met", "online", "random", "assumptions"):
        assert key in js
    assert js["proof"] in ("optimal", "feasible", "infeasible", "unknown")
    assert js["model_consistent"]
    # the bound rests on no assumed play-area box: the game's play area is unbounded
    from solver.desert.setup import load_setup
    from solver.desert.market import draw_market
    from models.desert_layout.bounds import line_bounds
    setup = load_setup()
    market = draw_market(3, setup.tileset, setup.ruleset)
    cols = [[list(c) for c in o.columns] for o in market.rounds]
    toks = [list(o.tokens) for o in market.rounds]
    assert js["bound"] == line_bounds(setup.tileset, setup.ruleset, cols, toks, None).total
    if js["score"] is not None:
        assert js["score"] >= js["online"]["score"] or not js["online"]["mission_met"]
        # the layout behind the perfect-foresight score replays against the seed's market
        again = json.loads(run_cli("desert", "score", out, "--json").out)
        assert again["legal"] and again["score"] == js["score"] and again["mission_met"]
    assert js["online"]["policy"] == "rollout" and js["greedy"]["score"] is not None
    text = run_cli("desert", "game", "--challenge", "desert-of-death", "--seed", "3", "--time-limit", "1", "--online", "greedy")
    assert "Perfect foresight" in text.out and "Online policy (greedy" in text.out and "Random legal placer" in text.out
    assert text.out.splitlines()[1].startswith("Best score found: ")  # after the stand-in notice
    assert "round by round" in text.out and "    round 8: column " in text.out and "online policy's play area" in text.out
    bad = run_cli("desert", "game", "--challenge", "desert-of-death", "--seed", "3", "--online", "oracle")
    assert bad.code == 2 and "--online" in bad.err


def test_solve_seed_is_plain_json(tmp_path):
    from solver.desert_play.game import solve_seed

    res = solve_seed("sharp-boundary", 5, 3.0)
    json.dumps(res)  # serialisable as it is, for batch runs
    assert res["challenge"] == "sharp-boundary" and res["seed"] == 5
    assert {"score", "stars", "proof", "bound", "seconds", "mission_met"} <= set(res)


def test_a_mid_game_ceiling_holds_for_the_game_and_rules_out_star_levels(run_cli, tmp_path):
    """desert ceiling: after k rounds of a seeded game, the line bound over the columns taken and the
    rounds left is at least the final score of the game played on from there."""
    from solver.desert_play.ceiling import ceiling
    from solver.desert.referee import evaluate
    from solver.desert.setup import load_setup
    from solver.desert_play.policies import play_policy
    from solver.desert.layout import Layout
    from solver.desert.market import draw_market

    setup = load_setup()
    ch = setup.challenges.get("lost-world")
    market = draw_market(5, setup.tileset, setup.ruleset)
    game = play_policy(setup, market, ch, "greedy")
    final = evaluate(setup, game, ch, market)["score"]
    seen = []
    for k in (4, 7, 8):
        prefix = Layout(game.start_at, game.start_rotation, game.rounds[:k], game.challenge, game.seed)
        c = ceiling(setup, market, prefix, ch)
        assert c["ceiling"] >= final and c["after_round"] == k
        seen.append(c["ceiling"])
    assert seen == sorted(seen, reverse=True)  # more rounds fixed, never a higher ceiling
    path = tmp_path / "five.toml"
    path.write_text(Layout(game.start_at, game.start_rotation, game.rounds[:5], game.challenge, game.seed).to_toml("5 rounds"))
    res = run_cli("desert", "ceiling", path)
    assert res.code == 0 and res.out.splitlines()[1].startswith("Ceiling: at most ") and "The Lost World:" in res.out
    low = run_cli("desert", "ceiling", path, "--json")
    js = json.loads(low.out)
    assert js["ceiling"] >= final and set(js["stars"]) == {"1", "2", "3"}
    unseeded = tmp_path / "no-seed.toml"
    unseeded.write_text(path.read_text().replace("seed = 5", ""))
    real = run_cli("desert", "ceiling", unseeded, "--json")  # a real game: the rounds left are any draw
    assert real.code == 0, real.err
    assert json.loads(real.out)["ceiling"] >= final and json.loads(real.out)["draw"].startswith("any")
