"""The app's JSON API (solver/app/): the CLI's --json answers, checked input, solves in worker processes."""
from __future__ import annotations

import io
import json
import time

import pytest

from solver.cli import run
from tests.conftest import INSTANCES

TINY = INSTANCES / "tiny" / "tiny-island.toml"
SETUP = {"A1": ["red", "blue"], "C1": ["red"]}          # tests/data/tiny-island-setup.toml
VOLATILE = {"seconds"}   # wall-clock times (and every *_seconds) differ from run to run


@pytest.fixture(scope="module")
def app():
    from solver.app.server import close_app, create_app
    application = create_app()
    application.config["TESTING"] = True
    yield application
    close_app(application)


@pytest.fixture
def client(app):
    return app.test_client()


def upload(client, path=TINY, name=None):
    data = {"file": (io.BytesIO(path.read_bytes()), name or path.name)}
    return client.post("/api/boards", data=data, content_type="multipart/form-data")


def wait(client, job_id: str, limit: float = 120) -> dict:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        job = client.get(f"/api/jobs/{job_id}").get_json()
        if job["state"] != "running":
            return job
        time.sleep(0.1)
    raise AssertionError(f"solve {job_id} still running after {limit} s")


def strip(data):
    if isinstance(data, dict):
        return {k: strip(v) for k, v in data.items() if k not in VOLATILE and not k.endswith("_seconds")}
    if isinstance(data, list):
        return [strip(v) for v in data]
    return data


def cli_json(capsys, *args) -> dict:
    capsys.readouterr()
    assert run(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def test_app_answer_is_the_cli_json_answer(client, capsys, tmp_path):
    """The API mirrors `aos-solve easter-island --json`: the same calls, the same answer (times aside)."""
    board = upload(client).get_json()
    assert board["ruleset"] == "easter-island" and board["difficulties"]["easy"] == {"A1": 2, "C1": 1}
    assert 'data-hex="A1"' in board["svg"] and 'data-stop="Red 1 (A1)"' in board["svg"]
    start = client.post("/api/solve", json={"tab": "t-cli", "board": board["id"], "difficulty": "easy",
                                            "setup": SETUP})
    assert start.status_code == 202
    job = wait(client, start.get_json()["id"])
    assert job["state"] == "done", job
    setup_file = tmp_path / "setup.json"
    setup_file.write_text(json.dumps(SETUP))
    expected = cli_json(capsys, "easter-island", "--instance", str(TINY), "-d", "easy", "--setup", str(setup_file),
                        "--json", "--quiet")
    assert strip(job["answer"]) == strip(expected)
    # the plan download is the CLI's --plan-out file; the page has the start and a panel per round
    plan = client.get(f"/api/jobs/{job['id']}/plan.json")
    assert plan.headers["Content-Disposition"].startswith("attachment")
    assert plan.get_json() == expected["plan"]
    page = client.get(f"/api/jobs/{job['id']}/page.html").get_data(as_text=True)
    assert page.count("class='panel'") == len(expected["rounds"]) + 1


def test_play_along_is_the_cli_from_answer(client, capsys, tmp_path):
    """Solving from a round is `--from PLAN-PREFIX`: the prefix replayed by the referee, the same answer."""
    board = upload(client).get_json()
    plan = json.loads((INSTANCES.parent / "tests" / "plans" / "tiny-island-cleared.json").read_text())
    prefix = {**plan, "rounds": plan["rounds"][:1]}
    start = client.post("/api/play-along", json={"tab": "t-from", "board": board["id"], "prefix": prefix})
    assert start.status_code == 202, start.get_json()
    job = wait(client, start.get_json()["id"])
    assert job["state"] == "done", job
    assert job["answer"]["from_round"] == 2
    prefix_file = tmp_path / "prefix.json"
    prefix_file.write_text(json.dumps(prefix))
    expected = cli_json(capsys, "easter-island", "--instance", str(TINY), "--from", str(prefix_file), "--json",
                        "--quiet")
    assert strip(job["answer"]) == strip(expected)


def test_an_illegal_prefix_is_refused_at_once_naming_the_step(client):
    board = upload(client).get_json()
    plan = json.loads((INSTANCES.parent / "tests" / "plans" / "tiny-island-cleared.json").read_text())
    bad = {**plan, "rounds": [{**plan["rounds"][0], "ship": [{"from": "A1", "cube": "yellow", "route": "A1-C1"}]}]}
    answer = client.post("/api/play-along", json={"tab": "t-bad", "board": board["id"], "prefix": bad})
    assert answer.status_code == 400
    error = answer.get_json()
    assert error["field"] == "play along" and "not legal" in error["error"] and "round 1" in error["error"]


def test_a_setup_the_difficulty_does_not_allow_names_the_stop(client):
    board = upload(client).get_json()
    answer = client.post("/api/setup/check", json={"board": board["id"], "difficulty": "easy",
                                                   "setup": {"A1": ["red"], "C1": ["red"]}})
    assert answer.status_code == 400
    error = answer.get_json()
    assert error["field"] == "setup" and "Red 1 (A1) holds 2 cube(s) in easy" in error["error"]
    answer = client.post("/api/solve", json={"tab": "t-setup", "board": board["id"], "difficulty": "easy",
                                             "setup": {"A1": ["red", "pink"], "C1": ["red"]}})
    assert answer.status_code == 400 and "pink" in answer.get_json()["error"]


def test_a_bad_upload_names_the_uploaded_file_and_the_server_answers_on(client):
    data = {"file": (io.BytesIO(b"[meta]\nname = 'x'\n[grid\n"), "my-board.toml")}
    answer = client.post("/api/boards", data=data, content_type="multipart/form-data")
    assert answer.status_code == 400
    error = answer.get_json()
    assert error["field"] == "upload" and "my-board.toml" in error["error"] and "/tmp" not in error["error"]
    assert "Traceback" not in error["error"]
    assert client.get("/api/boards").status_code == 200


def test_bad_requests_get_one_message_never_a_traceback(client):
    for url, body in (("/api/solve", "not json"), ("/api/setup/draw", "[1]")):
        answer = client.post(url, data=body, content_type="application/json")
        assert answer.status_code == 400 and "JSON object" in answer.get_json()["error"]
    answer = client.post("/api/setup/draw", json={"board": "easter-island", "difficulty": "impossible"})
    assert answer.status_code == 400 and "unknown difficulty" in answer.get_json()["error"]
    answer = client.post("/api/setup/draw", json={"board": "easter-island", "difficulty": "easy", "seed": -3})
    assert answer.status_code == 400 and answer.get_json()["field"] == "seed"
    answer = client.post("/api/solve", json={"tab": "t", "board": "easter-island", "difficulty": "easy",
                                             "readings": {"bag": "rainbow"}})
    assert answer.status_code == 400 and "bag" in answer.get_json()["error"]
    assert client.get("/api/jobs/nope").status_code == 404
    assert client.get("/api/boards/../../etc/passwd").status_code == 404


def test_one_solve_per_tab_and_cancel_keeps_what_was_found(app, client):
    """A second solve in the same tab is refused; Cancel cuts the solve short within seconds, the worker ends,
    and the job keeps the answer found so far (its bounds, and its plan when it had one), replayed as any other."""
    start = client.post("/api/solve", json={"tab": "t-cancel", "board": "easter-island", "difficulty": "hard",
                                            "seed": 1})
    assert start.status_code == 202
    job_id = start.get_json()["id"]
    again = client.post("/api/solve", json={"tab": "t-cancel", "board": "easter-island", "difficulty": "hard",
                                            "seed": 2})
    assert again.status_code == 409 and "already running in this tab" in again.get_json()["error"]
    end = time.monotonic() + 60
    while not client.get(f"/api/jobs/{job_id}").get_json()["progress"] and time.monotonic() < end:
        time.sleep(0.1)
    assert client.get(f"/api/jobs/{job_id}").get_json()["progress"], "no progress within 60 s"
    t0 = time.monotonic()
    view = client.post(f"/api/jobs/{job_id}/cancel").get_json()
    assert view["state"] == "cancelled" and time.monotonic() - t0 < 10
    process = app.extensions["aos_jobs"].jobs[job_id].process
    process.join(timeout=5)
    assert not process.is_alive()
    assert view["message"].startswith("stopped"), view["message"]
    answer = view["answer"]
    if answer is not None:           # cut short in time: the answer so far, said in the message
        assert answer["time_cap"]["hit"] and answer["verdict"] in ("clearable", "unknown", "not clearable")
        assert ("best plan" in view["message"]) == (answer["plan"] is not None)
        plan = client.get(f"/api/jobs/{job_id}/plan.json")
        assert plan.status_code == (200 if view["has_plan"] else 404)
    again = client.post("/api/solve", json={"tab": "t-cancel", "board": "easter-island", "difficulty": "hard",
                                            "seed": 2})
    assert again.status_code == 202
    client.post(f"/api/jobs/{again.get_json()['id']}/cancel?now=1")


def test_a_solve_nobody_asks_about_is_stopped():
    """A tab closed while solving stops polling: the watchdog stops its worker, freeing the slot."""
    from solver.app import jobs as jobs_module
    table = jobs_module.Jobs(abandon=1.0)
    from solver.games import default_instance
    job = table.start("t-gone", "solo", "hard", {"board_path": str(default_instance("easter-island")),
                                                  "difficulty": "hard", "seed": 3})
    end = time.monotonic() + 20
    while job.state == "running" and time.monotonic() < end:
        time.sleep(0.2)
    assert job.state == "cancelled" and "stopped asking" in job.message
    assert not job.process.is_alive()
    table.shutdown()


def test_zoo_answer_is_the_cli_json_answer(client, capsys):
    """The Zoo goes through the same path: drawn with a seed, solved as `aos-solve zoo --seed N --json`."""
    tiny_zoo = INSTANCES / "tiny" / "tiny-zoo.toml"
    board = upload(client, tiny_zoo).get_json()
    assert board["food_only"] is True
    difficulty = next(iter(board["difficulties"]))
    start = client.post("/api/solve", json={"tab": "t-zoo", "board": board["id"], "difficulty": difficulty,
                                            "seed": 4})
    assert start.status_code == 202, start.get_json()
    job = wait(client, start.get_json()["id"])
    assert job["state"] == "done", job
    expected = cli_json(capsys, "zoo", "--instance", str(tiny_zoo), "-d", difficulty, "--seed", "4", "--json",
                        "--quiet")
    assert strip(job["answer"]) == strip(expected)


def test_desert_advice_api_is_the_advise_command(client, capsys):
    columns = [["C21", "D06"], ["C19", "D23", "D22"], ["C04", "C19", "C01", "D01"]]
    answer = client.post("/api/desert/advise", json={"record": "", "columns": columns, "tokens": ["camel"],
                                                     "challenge": "lost-world", "futures": 2, "time": 0})
    assert answer.status_code == 200, answer.get_json()
    data = answer.get_json()
    assert data.pop("svg").startswith("<svg")
    # 2 futures and no CPU budget: the same advice on any load (a budget can cut the futures short)
    args = ["desert", "advise", "--tokens", "camel", "--challenge", "lost-world", "--json", "--futures", "2",
            "--time", "0"]
    for col in columns:
        args += ["--columns", ",".join(col)]
    assert strip(data) == strip(cli_json(capsys, *args))
    # the kept record goes on to round 2; a bad record or tile is a message at its field
    again = client.post("/api/desert/advise", json={"record": data["record"], "columns": [["C02", "D01"]],
                                                    "tokens": ["camel", "star"]}).get_json()
    assert again["round"] == 2
    bad = client.post("/api/desert/advise", json={"record": "[[round]\n", "columns": columns, "tokens": []})
    assert bad.status_code == 400 and bad.get_json()["field"] == "record"
    bad = client.post("/api/desert/advise", json={"record": "", "columns": [["XX1"]], "tokens": []})
    assert bad.status_code == 400 and bad.get_json()["field"] == "columns" and "XX1" in bad.get_json()["error"]


def test_desert_page_and_advice_open_with_the_stand_in_notice(client):
    """The app's Desert page (the catalogue call) and every advice carry the stand-in notice first (before, the
    app never said the tiles are stand-ins)."""
    cat = client.get("/api/desert/catalogue").get_json()
    assert cat["data_notice"]["text"].startswith("STAND-IN DATA:")
    answer = client.post("/api/desert/advise", json={"record": "", "columns": [["C21", "D06"]], "tokens": ["camel"]})
    assert next(iter(json.loads(answer.data))) == "data_notice"


def test_editor_saves_only_what_map_validate_accepts(client, tmp_path):
    opened = client.post("/api/editor/open", data={"file": (io.BytesIO(TINY.read_bytes()), "tiny.toml")},
                         content_type="multipart/form-data").get_json()
    model = opened
    model["doc"]["towns"] = []                      # a blank town list: dropped from the file
    model["doc"]["cities"].append({"name": "Red 1", "hex": "E2", "source": "printed-board"})
    check = client.post("/api/editor/check", json={"model": model}).get_json()
    assert not check["ok"] and "Red 1" in check["error"] and "tiny.toml" in check["error"]
    save = client.post("/api/editor/save", json={"model": model})
    assert save.status_code == 400 and save.get_json()["field"] == "save"
    model["doc"]["cities"][-1]["name"] = "Red 9"
    model["terrain"][1][4] = "mountain"
    model["grid_edited"] = True
    save = client.post("/api/editor/save", json={"model": model})
    assert save.status_code == 200 and save.headers["Content-Disposition"] == 'attachment; filename="tiny.toml"'
    path = tmp_path / "tiny.toml"
    path.write_bytes(save.get_data())
    assert run(["map", "validate", str(path)]) == 0
    blank = client.post("/api/editor/blank", json={"ruleset": "zoo", "columns": 99, "rows": 3})
    assert blank.status_code == 400 and blank.get_json()["field"] == "columns"


@pytest.mark.parametrize("settings, field", [({"time_limit": "soon"}, "time_limit"), ({"time_limit": 0}, "time_limit"),
                                             ({"work": 0}, "work"), ({"cp_time": -1}, "cp_time"),
                                             ({"rounds": "many"}, "rounds"), ({"time_limit": "nan"}, "time_limit")])
def test_bad_settings_are_refused_at_the_field_before_any_worker_starts(app, client, settings, field):
    running = len(app.extensions["aos_jobs"].jobs)
    answer = client.post("/api/solve", json={"tab": "t-set", "board": "easter-island", "difficulty": "easy",
                                             "seed": 1, **settings})
    assert answer.status_code == 400 and answer.get_json()["field"] == field
    assert len(app.extensions["aos_jobs"].jobs) == running


@pytest.mark.parametrize("seed", ["1e400", "2.5", "-1e400", "\"1e400\"", "1e30"])
def test_a_seed_out_of_range_is_one_message_not_a_server_error(client, seed):
    """JSON reads 1e400 as infinity: the seed field says what it expects (status 400), never a 500."""
    body = '{"board": "easter-island", "difficulty": "easy", "seed": %s}' % seed
    for url in ("/api/setup/draw", "/api/solve"):
        answer = client.post(url, data=body.replace("{", '{"tab": "t-seed", ', 1), content_type="application/json")
        assert answer.status_code == 400, (url, seed, answer.get_json())
        assert answer.get_json()["field"] == "seed"


def test_an_upload_that_is_not_a_board_file_is_named_as_sent(client):
    """An image uploaded by mistake is refused under its own name (not "pic.png.toml"), saying what it is."""
    png = b"\x89PNG\r\n\x1a\n" + bytes(64)
    answer = client.post("/api/boards", data={"file": (io.BytesIO(png), "pic.png")}, content_type="multipart/form-data")
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert "pic.png" in error and "pic.png.toml" not in error and "PNG image" in error


def test_the_app_has_a_favicon(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml" and b"<svg" in icon.data
    assert 'rel="icon"' in client.get("/").get_data(as_text=True)
