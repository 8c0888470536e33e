"""The JSON API of Easter Island and the Zoo: boards, setups, solves, play along (docs/app.md).

Setups are checked by the same function as `--setup FILE` (setup_from_mapping)
and drawn by the same function as `--seed N` (draw_setup); a solve is a worker
process running the CLI's calls (solver/app/work.py).
"""
from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request

from solver.app import checks
from solver.board.board import COLOURS
from solver.board.errors import InputError

solo = Blueprint("solo", __name__)


def _jobs():
    return current_app.extensions["aos_jobs"]


def _boards():
    return current_app.extensions["aos_boards"]


def body() -> dict:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise InputError("expected a JSON object in the request body", "request")
    return data


def _text(data: dict, key: str, default=None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or not value:
        raise InputError(f"expected a name, got {value!r}", key)
    return value


def _readings(data: dict) -> list[str]:
    """Readings as NAME=VALUE items (the CLI's --reading), from a list or a {name: value} table."""
    value = data.get("readings") or []
    if isinstance(value, dict):
        value = [f"{k}={v}" for k, v in value.items()]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError("expected readings as a list of NAME=VALUE or a table of name = value", "readings")
    return value


def board_info(board_id: str, inst) -> dict:
    """Everything the page needs to set up a board by clicking: its picture with click targets, its stops,
    difficulties (cubes per stop), the cube colours and the named readings with their values."""
    from solver.engine.readings import bag_for, for_map
    from solver.engine.state import Rules
    from solver.report.render import render_board, with_click_targets
    board, ruleset = inst.board, inst.scenario.ruleset
    stops = []
    for table, kind in ((board.cities, "city"), (board.towns, "town"), (board.exits, "exit")):
        for h, feature in sorted(table.items()):
            stops.append({"hex": str(h), "name": feature.name, "label": board.label(h), "kind": kind,
                          "colour": getattr(feature, "colour", None)})
    return {
        "id": board_id, "name": board.name, "ruleset": ruleset, "rounds": inst.scenario.rounds,
        "actions": list(inst.scenario.actions),
        "difficulties": {name: {str(h): n for h, n in sorted(d.cubes.items())} for name, d in inst.difficulties.items()},
        "colours": list(COLOURS), "default_bag": bag_for(inst, Rules()),
        "food_only": ruleset == "zoo",
        "stops": stops,
        "readings": [{"name": r.name, "default": r.default, "quote": r.quote, "sheet": r.sheet,
                      "values": [{"name": v.name, "means": v.text} for v in r.values]} for r in for_map(ruleset)],
        "svg": with_click_targets(inst, render_board(inst, None, (), title=board.name)),
    }


@solo.get("/api/boards")
def boards_list():
    return jsonify({"boards": _boards().listing()})


@solo.post("/api/boards")
def boards_upload():
    upload = request.files.get("file")
    if upload is None:
        raise InputError("choose a board file (TOML) to upload", "upload")
    data = upload.read()
    try:
        board_id, inst = _boards().upload(upload.filename or "board.toml", data)
    except InputError as err:
        raise InputError(str(err), "upload") from None
    return jsonify(board_info(board_id, inst))


@solo.get("/api/boards/<board_id>")
def boards_get(board_id: str):
    inst = _boards().load(board_id)
    return jsonify(board_info(board_id, inst))


def _setup_request(data: dict):
    from solver.engine.readings import make_rules
    board_id = _text(data, "board")
    inst = _boards().load(board_id)
    difficulty = _text(data, "difficulty")
    from solver.engine.setup import difficulty_of
    difficulty_of(inst, difficulty)
    rules = make_rules(inst.scenario.ruleset, _readings(data), where="readings")
    return board_id, inst, difficulty, rules


@solo.post("/api/setup/check")
def setup_check():
    """Live check of a clicked setup: the same checks as `--setup FILE` (counts per stop, the bag's colours)."""
    from solver.engine.setup import setup_from_mapping, setup_to_json
    data = body()
    _, inst, difficulty, rules = _setup_request(data)
    setup = setup_from_mapping(inst, difficulty, data.get("setup"), "setup", rules)
    return jsonify({"ok": True, "setup": setup_to_json(inst, setup)})


@solo.post("/api/setup/draw")
def setup_draw():
    """Draw the cubes with a seed, as `--seed N` does (under the bag reading chosen)."""
    from solver.engine.setup import draw_setup, setup_to_json
    data = body()
    _, inst, difficulty, rules = _setup_request(data)
    seed = checks.seed(data.get("seed", 1))
    setup = draw_setup(inst, difficulty, seed, rules=rules) if inst.scenario.ruleset == "easter-island" \
        else draw_setup(inst, difficulty, seed)
    return jsonify({"seed": seed, "setup": setup_to_json(inst, setup)})


SETTINGS = ("time_limit", "work", "cp_time", "cp_workers", "plan_cp_time", "shares_cp_time", "rounds")


def _tab(data: dict) -> str:
    tab = data.get("tab")
    if not isinstance(tab, str) or not 1 <= len(tab) <= 64:
        raise InputError("the page did not say which tab it is (reload the page)", "tab")
    return tab


@solo.post("/api/solve")
def solve():
    """Start a solve in a worker process; 202 with the job, then poll /api/jobs/ID."""
    data = body()
    board_id, inst, difficulty, rules = _setup_request(data)
    checks.settings(data)                              # bad settings: a message at the field now, no worker
    request_ = {"board_path": str(_boards().path(board_id)), "difficulty": difficulty,
                "readings": _readings(data), **{k: data[k] for k in SETTINGS if data.get(k) not in (None, "")}}
    if data.get("setup") is not None:
        from solver.engine.setup import setup_from_mapping
        setup_from_mapping(inst, difficulty, data["setup"], "setup", rules)   # bad setup: message now, no worker
        request_["setup"] = data["setup"]
    else:
        request_["seed"] = checks.seed(data.get("seed", 1))
    title = f"{inst.board.name}, {difficulty}"
    return _start(_tab(data), title, request_)


def _start(tab: str, title: str, request_: dict):
    from solver.app.jobs import JobError
    try:
        job = _jobs().start(tab, "solo", title, request_)
    except JobError as err:
        return jsonify({"error": str(err), "field": "solve"}), 409
    return jsonify(job.view()), 202


@solo.post("/api/play-along")
def play_along():
    """Solve from a position: a plan prefix (the rounds played so far, as the plan file writes them), replayed by
    the referee and solved on from there; the same path as `--from PLAN-PREFIX`."""
    data = body()
    board_id = _text(data, "board")
    inst = _boards().load(board_id)
    prefix = data.get("prefix")
    if not isinstance(prefix, dict):
        raise InputError("expected the plan so far (a plan file's JSON object)", "play along")
    from solver.engine.plan import plan_from_json, replay
    plan = plan_from_json(prefix, inst, "play along")
    result = replay(inst, plan)                      # checked here too, so a bad edit answers at once
    if result.error is not None:
        raise InputError(f"the plan so far is not legal: {result.error}", "play along")
    checks.settings(data)
    request_ = {"board_path": str(_boards().path(board_id)), "prefix": prefix,
                **{k: data[k] for k in SETTINGS if data.get(k) not in (None, "")}}
    return _start(_tab(data), f"{inst.board.name}, from round {len(plan.rounds) + 1}", request_)


@solo.post("/api/play-along/check")
def play_along_check():
    """Live check of the rounds as played (marked on the board or typed): the referee replays them; the state
    after the last one, or the referee's message naming the illegal step."""
    from solver.engine.plan import plan_from_json, replay
    data = body()
    inst = _boards().load(_text(data, "board"))
    prefix = data.get("prefix")
    if not isinstance(prefix, dict):
        raise InputError("expected the plan so far (a plan file's JSON object)", "play along")
    plan = plan_from_json(prefix, inst, "play along")
    result = replay(inst, plan)
    if result.error is not None:
        raise InputError(f"the rounds as played are not legal: {result.error}", "play along")
    s = result.state
    return jsonify({"ok": True, "rounds": len(plan.rounds), "cash": s.cash, "income": s.income,
                    "shares": s.shares, "locomotive": s.locomotive,
                    "goods": {str(h): list(c) for h, c in sorted(s.goods.items()) if c},
                    "tracks": sorted({str(h) for h, _ in s.all_tracks()})})


@solo.get("/api/jobs/<job_id>")
def job_get(job_id: str):
    job = _jobs().get(job_id)
    if job is None:
        return jsonify({"error": f"no solve {job_id!r} (the server keeps the last 50)", "field": None}), 404
    return jsonify(job.view())


@solo.post("/api/jobs/<job_id>/cancel")
def job_cancel(job_id: str):
    """Cut the solve short and keep what it found (`?now=1`: the page is closing, stop it without waiting)."""
    job = _jobs().cancel(job_id, wait=0 if request.args.get("now") else None)
    if job is None:
        return jsonify({"error": f"no solve {job_id!r}", "field": None}), 404
    return jsonify(job.view())


@solo.get("/api/jobs/<job_id>/plan.json")
def job_plan(job_id: str):
    from solver.report.output import dumps
    job = _jobs().get(job_id)
    if job is None or job.plan is None:
        return jsonify({"error": "this solve has no plan (yet)", "field": None}), 404
    return Response(dumps(job.plan), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="plan-{job_id}.json"'})


@solo.get("/api/jobs/<job_id>/page.html")
def job_page(job_id: str):
    job = _jobs().get(job_id)
    if job is None or job.page is None:
        return jsonify({"error": "this solve has no answer page (yet)", "field": None}), 404
    headers = {"Content-Disposition": f'attachment; filename="plan-{job_id}.html"'} if request.args.get("download") \
        else {}
    return Response(job.page, mimetype="text/html", headers=headers)
