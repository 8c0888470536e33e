"""`aos-solve desert advise`: the online greedy policy's choice for the round a player sees, scored by the referee."""
from __future__ import annotations

from tests.helpers import says

import json
import tomllib

import pytest

from solver.cli import run
from solver.desert_play.advise import advise
from solver.desert.referee import evaluate
from solver.desert.setup import load_setup
from solver.desert_play.policies import play_policy
from solver.desert.layout import Layout, parse_layout
from solver.desert.market import draw_market


@pytest.fixture(scope="module")
def setup():
    return load_setup()


def test_round_by_round_greedy_advice_is_the_greedy_policy_of_desert_game(setup):
    """Asked round by round with a seed's columns, `--policy greedy` takes the columns `desert game`'s greedy
    policy takes on an unboxed table, and the kept record scores what the policy's layout scores (both replayed
    by the referee)."""
    ch = setup.challenges.get("lost-world", "--challenge")
    market = draw_market(3, setup.tileset, setup.ruleset)
    policy = play_policy(setup, market, ch, "greedy", box=None)
    record = Layout(challenge=ch.id)
    for offer, played in zip(market.rounds, policy.rounds):
        data = advise(setup, record, [list(c) for c in offer.columns], list(offer.tokens), ch, policy="greedy")
        assert data["column"] == played.column, f"round {offer.number}"
        assert [(t["tile"], tuple(t["at"]), t["rotation"]) for t in data["tiles"]] == \
            [(t.tile, t.at, t.rotation) for t in played.tiles]
        record = parse_layout(tomllib.loads(data["record"]), "record")
    final = evaluate(setup, policy, ch, market)
    assert data["finished"] and data["score_after"] == final["score"]
    assert data["stars"] == final["stars"]


def test_advice_cli_writes_a_record_that_desert_score_accepts(tmp_path, capsys):
    record = tmp_path / "game.toml"
    code = run(["desert", "advise", "--futures", "1", "--columns", "C21,D06", "--columns", "C19,D23,D22", "--columns",
                "C04,C19,C01,D01", "--tokens", "camel", "--challenge", "lost-world", "--out", str(record), "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["round"] == 1 and data["record_file"] == str(record)
    assert run(["desert", "score", str(record), "--json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert scored["legal"] and scored["score"] == data["score_after"]
    # round 2 from the record: the token stack must go on from round 1's tokens
    assert run(["desert", "advise", "--policy", "greedy", "--area", str(record), "--columns", "C02,D01",
                "--tokens", "camel,star"]) == 0
    assert "Round 2 of 8" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--columns", "C21,NOPE"], "--columns: column 1: unknown tile id 'NOPE'"),
    (["--columns", "C21,C02,C03,C04,C05"], "one solo column holds at most"),
    (["--columns", "C21,D06", "--tokens", "camel,car"], "2 active tokens in round 1"),
    (["--columns", "C21,D06", "--tokens", "dragon"], "unknown token(s) ['dragon']"),
    (["--columns", "C21,D06", "--work", "-1"], "--work must be >= 0, got -1"),
])
def test_bad_advice_input_is_one_message_and_exit_2(args, message, capsys):
    assert run(["desert", "advise", *args]) == 2
    err = capsys.readouterr().err
    assert says(err, message) and "Traceback" not in err
