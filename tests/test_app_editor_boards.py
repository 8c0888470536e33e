"""A board made in the editor (blank grid, stops, two difficulties, round limit) solves from the CLI and the app."""
from __future__ import annotations

import io
import json
import tomllib

import pytest

from solver.cli import run
from tests.test_app_api import app, client, cli_json, strip, wait  # noqa: F401  (fixtures)

SETUPS = {"easy": {"A1": ["red", "blue"], "C1": ["red"]},
          "hard": {"A1": ["red", "blue"], "C1": ["red", "red"], "E1": ["blue"]}}


def editor_board(client) -> dict:
    """A 5x2 Easter Island grid made as the page makes it: three ruins, a town, easy and hard, 8 rounds."""
    model = client.post("/api/editor/blank", json={"ruleset": "easter-island", "columns": 5, "rows": 2}).get_json()
    assert model["difficulties"] == {} and model["rounds"] == 12
    doc = model["doc"]
    doc["cities"] = [{"hex": h, "name": n, "colour": c, "number": num, "region": "western",
                      "source": "printed-board"}
                     for h, n, c, num in (("A1", "Red 1", "red", "1"), ("C1", "Blue 1", "blue", "1"),
                                          ("E1", "Red 2", "red", "2"))]
    doc["towns"] = [{"hex": "C2", "name": "Town", "source": "printed-board"}]
    check = client.post("/api/editor/check", json={"model": model}).get_json()
    assert check["ok"] and check["warnings"] and "no difficulty" in check["warnings"][0]
    model["difficulties"] = {"easy": {"cubes": {"Red 1": 2, "Blue 1": 1}, "quote": ""},
                             "hard": {"cubes": {"Red 1": 2, "Blue 1": 2, "Red 2": 1},
                                      "quote": "Hard: one more cube on Blue 1 and one on Red 2."}}
    model["rounds"] = "8"
    model["edition"] = "hand-drawn test board"
    check = client.post("/api/editor/check", json={"model": model}).get_json()
    assert check["ok"] and check["warnings"] == [], check
    assert "easy: 3 cubes on 2 stops" in check["summary"] and "8 rounds" in check["summary"]
    return model


def test_editor_difficulties_and_rounds_are_written_with_their_source(client):
    """Difficulties set in the editor land in [difficulty.NAME] (rule-sheet with a quote, else assumed) and the
    round limit in scenario.rounds (printed-board); a board with none is valid but warned about."""
    model = editor_board(client)
    text = client.post("/api/editor/save", json={"model": model}).get_data(as_text=True)
    doc = tomllib.loads(text)
    assert doc["difficulty"]["easy"]["cubes"] == {"value": {"Red 1": 2, "Blue 1": 1}, "source": "assumed",
                                                  "reason": "Set in the board editor (no rule-sheet sentence given)."}
    assert doc["difficulty"]["hard"]["cubes"]["source"] == "rule-sheet"
    assert doc["scenario"]["rounds"] == {"value": 8, "source": "printed-board", "board": "hand-drawn test board"}
    # reopened, the difficulties come back as the editor shows them, and saving again keeps them as they were
    reopened = client.post("/api/editor/open", data={"file": (io.BytesIO(text.encode()), "mine.toml")},
                           content_type="multipart/form-data").get_json()
    assert reopened["difficulties"] == model["difficulties"] and reopened["rounds"] == 8
    again = client.post("/api/editor/save", json={"model": reopened}).get_data(as_text=True)
    assert tomllib.loads(again)["difficulty"] == doc["difficulty"]
    bad = dict(model, difficulties={"two words": {"cubes": {}}})
    answer = client.post("/api/editor/save", json={"model": bad})
    assert answer.status_code == 400 and answer.get_json()["field"] == "difficulties"
    bad = dict(model, difficulties={"easy": {"cubes": {"Nowhere": 1}}})
    check = client.post("/api/editor/check", json={"model": bad}).get_json()
    assert not check["ok"] and "Nowhere" in check["error"]


def test_map_validate_warns_about_a_board_without_difficulties(client, tmp_path, capsys):
    model = editor_board(client)
    model["difficulties"] = {}
    path = tmp_path / "bare.toml"
    path.write_bytes(client.post("/api/editor/save", json={"model": model}).get_data())
    capsys.readouterr()
    assert run(["map", "validate", str(path)]) == 0
    assert "warning: no difficulty" in capsys.readouterr().out
    assert run(["easter-island", "--instance", str(path), "-d", "easy"]) == 2
    assert "no difficulty to set up" in capsys.readouterr().err


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_editor_board_solves_from_the_cli_and_the_app(client, capsys, tmp_path, difficulty):
    """The saved file is a board `aos-solve easter-island --instance` solves, each difficulty, and the app's answer
    for the uploaded file is the CLI's."""
    model = editor_board(client)
    path = tmp_path / "editor-board.toml"
    path.write_bytes(client.post("/api/editor/save", json={"model": model}).get_data())
    setup = tmp_path / "setup.json"
    setup.write_text(json.dumps(SETUPS[difficulty]))
    expected = cli_json(capsys, "easter-island", "--instance", str(path), "-d", difficulty, "--setup", str(setup),
                        "--json", "--quiet")
    assert expected["verdict"] == "clearable" and expected["plan"] and expected["round_limit"] == 8, expected["verdict"]
    assert len(expected["rounds"]) <= 8
    board = client.post("/api/boards", data={"file": (io.BytesIO(path.read_bytes()), path.name)},
                        content_type="multipart/form-data").get_json()
    assert set(board["difficulties"]) == {"easy", "hard"}
    start = client.post("/api/solve", json={"tab": f"t-editor-{difficulty}", "board": board["id"],
                                            "difficulty": difficulty, "setup": SETUPS[difficulty]})
    assert start.status_code == 202, start.get_json()
    job = wait(client, start.get_json()["id"])
    assert job["state"] == "done", job
    assert strip(job["answer"]) == strip(expected)
