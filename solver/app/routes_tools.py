"""The Desert advice and the board editor's API (docs/app.md).

The advice is solver.desert_play.advise.advise, the function behind `aos-solve desert
advise`; the editor's checks are solver.games.load_instance, the reader behind
`aos-solve map validate`.
"""
from __future__ import annotations

import tomllib
from html import escape

from flask import Blueprint, Response, jsonify

from solver.board.errors import InputError
from solver.app.routes_solo import body

tools = Blueprint("tools", __name__)
_setup_cache: dict = {}


def _desert():
    if "setup" not in _setup_cache:
        from solver.desert.setup import load_setup
        _setup_cache["setup"] = load_setup()
    return _setup_cache["setup"]


SIDE_STYLE = {"railroad": 'stroke="#3b3b3b" stroke-width="4"', "highway": 'stroke="#7f8c8d" stroke-width="7"',
              "desert-trail": 'stroke="#b5651d" stroke-width="3" stroke-dasharray="3 3"'}
KIND_FILL = {"core": "#e9efe4", "desert": "#f3dfa8"}


def tile_picture(tile, size: int = 56) -> str:
    """A small picture of a catalogue tile for the palette: its sides' routes to the centre, landmarks, its id."""
    mids = [(size / 2, 0), (size, size / 2), (size / 2, size), (0, size / 2)]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size + 12}" '
           f'viewBox="0 0 {size} {size + 12}" font-family="sans-serif">',
           f'<rect width="{size}" height="{size}" fill="{KIND_FILL.get(tile.kind, "#ddd")}" stroke="#555"/>']
    for d, side in enumerate(tile.sides):
        style = SIDE_STYLE.get(side)
        if style:
            x, y = mids[d]
            out.append(f'<line x1="{x}" y1="{y}" x2="{size / 2}" y2="{size / 2}" {style}/>')
    if tile.landmarks:
        out.append(f'<circle cx="{size * 0.75}" cy="{size * 0.25}" r="6" fill="#fff" stroke="#a60"/>')
    if tile.cities:
        out.append(f'<rect x="4" y="4" width="9" height="9" fill="#c33"/>')
    out.append(f'<text x="{size / 2}" y="{size + 10}" font-size="10" text-anchor="middle">{escape(tile.id)}</text>')
    return "".join(out) + "</svg>"


@tools.get("/api/desert/catalogue")
def desert_catalogue():
    setup = _desert()
    from solver.desert.assumptions import data_notice
    tiles = sorted(setup.tileset.tiles.values(), key=lambda t: t.id)
    return jsonify({
        "data_notice": data_notice(setup),
        "tiles": [{"id": t.id, "kind": t.kind, "count": t.count, "svg": tile_picture(t)} for t in tiles],
        "tokens": ["car", "train", "traveler", "camel", "star"],
        "challenges": [{"id": c.id, "name": c.name} for c in setup.challenges.items.values()],
        "rounds": setup.ruleset["rounds"], "columns": len(setup.ruleset["solo_columns"]),
    })


@tools.post("/api/desert/advise")
def desert_advise():
    """One round's advice: {record (layout TOML of the game so far, or empty), columns, tokens, challenge}."""
    from solver.desert_play.advise import advise
    from solver.desert.layout import Layout, parse_layout
    from solver.report.desert_render import render_svg
    data = body()
    setup = _desert()
    text = data.get("record") or ""
    if not isinstance(text, str):
        raise InputError("expected the game so far as layout TOML text", "record")
    if text.strip():
        try:
            record = parse_layout(tomllib.loads(text), "the game so far")
        except tomllib.TOMLDecodeError as err:
            raise InputError(f"not valid TOML: {err}", "record") from None
    else:
        record = Layout(source="the game so far")
    if record.seed is not None:
        raise InputError("the record names a seed: advice is for the columns you see, without a seed", "record")
    cid = data.get("challenge") or record.challenge
    ch = setup.challenges.get(cid, "challenge") if cid else None
    record.challenge = ch.id if ch else None
    columns = data.get("columns")
    if not isinstance(columns, list) or not all(isinstance(c, list) and all(isinstance(t, str) for t in c)
                                                for c in columns):
        raise InputError("expected the columns as lists of tile ids", "columns")
    columns = [c for c in columns if c]
    tokens = data.get("tokens") or []
    if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
        raise InputError("expected the active tokens as a list of names", "tokens")
    futures, budget = data.get("futures", 8), data.get("time", 3.0)   # as `desert advise --futures --time`
    if not isinstance(futures, int) or isinstance(futures, bool) or futures < 1:
        raise InputError("expected the futures as a whole number >= 1", "futures")
    if not isinstance(budget, (int, float)) or isinstance(budget, bool) or not 0 <= budget < float("inf"):
        raise InputError("expected the time as a number of CPU seconds >= 0 (0: no budget)", "time")
    try:
        advice = advise(setup, record, columns, tokens, ch, futures=futures, time_budget=budget or None)
    except InputError as err:  # the CLI's option names become the page's fields
        field = {"--columns": "columns", "--tokens": "tokens", "--area": "record"}.get(err.where, err.where)
        raise InputError(str(err).removeprefix(f"{err.where}: "), field) from None
    area = advice.pop("_area")
    placed = {tuple(t["at"]) for t in advice["tiles"]}
    advice["svg"] = render_svg(area, f"after round {advice['round']}: {advice['score_after']} points", placed)
    from solver.desert.assumptions import data_notice, flat, used
    # the readings and assumed values this answer used, as `desert advise --json` gives them
    basis = used(setup, {"always", "tokens", "pawns", "policy"} | ({"missions", "stars"} if ch else set()),
                 [ch.mission] if ch else [])
    advice.update(readings=basis["readings"], assumptions=flat(basis))
    return jsonify({"data_notice": data_notice(setup), **advice})


# ----------------------------------------------------------------------------- the board editor
@tools.post("/api/editor/open")
def editor_open():
    """A board file (uploaded) as the editor's model; errors name the uploaded file."""
    from flask import request
    from solver.app.editor import model_from_toml
    upload = request.files.get("file")
    if upload is None:
        raise InputError("choose a board file (TOML) to open", "open")
    name = upload.filename or "board.toml"
    return jsonify(model_from_toml(upload.read(), name))


@tools.post("/api/editor/blank")
def editor_blank():
    from solver.app.editor import blank_model
    data = body()
    return jsonify(blank_model(data.get("ruleset", "easter-island"), data.get("columns", 8), data.get("rows", 6)))


@tools.post("/api/editor/check")
def editor_check():
    """Live validation: the model as a board file, read by the loader of `map validate` (its message, or ok)."""
    from solver.app.editor import check_model
    return jsonify(check_model(body().get("model")))


@tools.post("/api/editor/save")
def editor_save():
    """The board file to download; refused (400, the validator's message) unless `map validate` accepts it."""
    from solver.app.editor import check_model
    result = check_model(body().get("model"))
    if not result["ok"]:
        raise InputError(result["error"], "save")
    name = result["file_name"]
    return Response(result["toml"], mimetype="application/toml",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
