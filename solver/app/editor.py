"""The board editor's model: a board file as data the page edits, written back as a board file.

The model is the whole file (`doc`, as TOML reads it) plus its terrain as rows
of names. The page paints terrain and places cities, towns, exits and
impassable sides; every feature it places carries `source = "printed-board"`
(transcribed from the printed board), and painting any terrain marks the
grid the same way; everything else keeps the source it had. The check is the
loader behind `aos-solve map validate` (solver.games.load_instance) on the file
as it would be saved, so its messages are the command's.

Each difficulty's setup (`difficulties`: name -> {"cubes": {stop name: count},
"quote": the rule sheet's sentence or ""}) and the round limit (`rounds`) are
fields of the model that `to_toml` writes into `[difficulty.NAME]` and
`scenario.rounds`. A difficulty left as it was read keeps its entry (and its
source); a changed one is `rule-sheet` with its quote when one is given, else
`assumed` ("set in the board editor"). A round limit changed in the editor is
read off the printed round track: `printed-board` (with the edition typed in).
"""
from __future__ import annotations

import copy
import os
import pathlib
import re
import tempfile
import tomllib

from solver.board.errors import InputError
from solver.games import board_warnings, default_instance, load_instance

TERRAINS = ("plain", "river", "mountain", "water", "off-map")
LETTER = {"plain": ".", "river": "~", "mountain": "^", "water": "w", "off-map": "x"}
DEFAULT_LEGEND = {v: k for k, v in LETTER.items()}
FEATURES = ("cities", "towns", "exits")
MAX_SIDE = 60   # columns or rows of a blank grid: larger than any printed board


def _terrain_rows(doc: dict) -> list[list[str]]:
    grid = doc.get("grid") or {}
    legend = {**DEFAULT_LEGEND, **(grid.get("legend") or {})}
    rows = []
    for line in str(grid.get("picture", "")).split("\n"):
        letters = line.split()
        if letters:
            rows.append([legend.get(letter, "plain") for letter in letters])
    return rows


def model_from_toml(data: bytes, name: str) -> dict:
    """An uploaded board file as the editor's model (the loader's message if it is not TOML at all)."""
    name = pathlib.PurePath(name).name or "board.toml"
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (byte {err.start}); save the file as UTF-8", "open") from None
    except tomllib.TOMLDecodeError as err:
        raise InputError(f"{name}: not valid TOML: {err}", "open") from None
    if "graph" in doc:
        raise InputError(f"{name}: a map without hexes ([graph]); the editor paints hex grids", "open")
    return {"file_name": name, "doc": doc, "terrain": _terrain_rows(doc), "grid_edited": False,
            "difficulties": _difficulties(doc), "rounds": _value((doc.get("scenario") or {}).get("rounds")),
            "edition": ""}


def _value(entry):
    return entry.get("value") if isinstance(entry, dict) else entry


def _difficulties(doc: dict) -> dict:
    """The file's difficulties as the editor edits them: name -> {"cubes": {stop: count}, "quote"}."""
    out = {}
    table = doc.get("difficulty")
    if not isinstance(table, dict):
        return out
    for name, spec in table.items():
        entry = spec.get("cubes") if isinstance(spec, dict) else None
        cubes = _value(entry)
        if isinstance(cubes, dict):
            quote = entry.get("quote", "") if isinstance(entry, dict) and entry.get("source") == "rule-sheet" else ""
            out[str(name)] = {"cubes": dict(cubes), "quote": quote}
    return out


def blank_model(ruleset: str, columns, rows) -> dict:
    """A blank grid of plain hexes with the numbers of a shipped map of this ruleset (its scenario)."""
    if ruleset not in ("easter-island", "zoo"):
        raise InputError(f"expected easter-island or zoo, got {ruleset!r}", "ruleset")
    sizes = []
    for value, what in ((columns, "columns"), (rows, "rows")):
        try:
            value = int(value)
        except (TypeError, ValueError):
            raise InputError(f"expected a whole number, got {value!r}", what) from None
        if not 1 <= value <= MAX_SIDE:
            raise InputError(f"expected 1 to {MAX_SIDE} {what}, got {value}", what)
        sizes.append(value)
    shipped = tomllib.loads(pathlib.Path(default_instance(ruleset)).read_text(encoding="utf-8"))
    doc = {"meta": {"name": "New board"},
           "grid": {"source": "printed-board", "picture": ""},
           "scenario": shipped["scenario"]}
    if "map_rules" in shipped:
        doc["map_rules"] = shipped["map_rules"]
    return {"file_name": "new-board.toml", "doc": doc, "terrain": [["plain"] * sizes[0] for _ in range(sizes[1])],
            "grid_edited": True, "difficulties": {}, "rounds": _value(doc["scenario"].get("rounds")), "edition": ""}


def _write_setups(model: dict, doc: dict) -> None:
    """The model's difficulties and round limit into the file's `[difficulty.NAME]` and `scenario.rounds`."""
    edition = str(model.get("edition") or "").strip()
    if "difficulties" in model:
        wanted = model["difficulties"]
        if not isinstance(wanted, dict):
            raise InputError("expected the difficulties as {name: {cubes: {stop: count}}}", "difficulties")
        before = _difficulties(doc)
        old = doc.get("difficulty") if isinstance(doc.get("difficulty"), dict) else {}
        table = {}
        for name, spec in wanted.items():
            name = str(name).strip()
            if not re.fullmatch(r"[A-Za-z0-9_-]+", name):
                raise InputError(f"a difficulty's name is one word (letters, digits, - or _), got {name!r}",
                                 "difficulties")
            cubes = spec.get("cubes") if isinstance(spec, dict) else None
            if not isinstance(cubes, dict):
                raise InputError(f"difficulty {name}: expected its cubes as {{stop: count}}", "difficulties")
            cubes = {str(k): v for k, v in cubes.items() if v}
            quote = str(spec.get("quote") or "").strip()
            if before.get(name) == {"cubes": cubes, "quote": quote} and name in old:
                table[name] = old[name]          # as read: keeps its source
            elif quote:
                table[name] = {"cubes": {"value": cubes, "source": "rule-sheet", "quote": quote}}
            else:
                table[name] = {"cubes": {"value": cubes, "source": "assumed",
                                         "reason": "Set in the board editor (no rule-sheet sentence given)."}}
        if table:
            doc["difficulty"] = table
        else:
            doc.pop("difficulty", None)
    rounds = model.get("rounds")
    scenario = doc.get("scenario")
    if rounds not in (None, "") and isinstance(scenario, dict) and rounds != _value(scenario.get("rounds")):
        text = str(rounds).strip()
        if isinstance(rounds, bool) or not text.isdigit() or int(text) < 1:
            raise InputError(f"the round limit is a whole number 1 or more, got {rounds!r}", "rounds")
        number = int(text)
        entry = {"value": number, "source": "printed-board"}
        if edition:
            entry["board"] = edition
        scenario["rounds"] = entry


def to_toml(model: dict) -> tuple[str, str]:
    """(file name, board file text) of the model: its terrain written back into the grid picture."""
    import tomli_w
    if not isinstance(model, dict) or not isinstance(model.get("doc"), dict):
        raise InputError("expected the editor's model (open a board file or start a blank grid)", "model")
    doc = copy.deepcopy(model["doc"])
    terrain = model.get("terrain")
    if not isinstance(terrain, list) or not terrain or not all(isinstance(r, list) and r for r in terrain):
        raise InputError("the grid has no rows", "grid")
    bad = sorted({t for row in terrain for t in row if t not in TERRAINS})
    if bad:
        raise InputError(f"unknown terrain {bad} (expected {', '.join(TERRAINS)})", "grid")
    grid = doc.setdefault("grid", {})
    legend = {**DEFAULT_LEGEND, **(grid.get("legend") or {})}
    letters = {}
    for letter, name in legend.items():
        letters.setdefault(name, letter)
    grid["picture"] = "\n" + "\n".join((" " if r % 2 else "") + " ".join(letters[t] for t in row)
                                      for r, row in enumerate(terrain)) + "\n"
    if model.get("grid_edited"):
        for key in ("quote", "reason", "sheet"):
            grid.pop(key, None)
        grid["source"] = "printed-board"
    _write_setups(model, doc)
    for kind in FEATURES + ("impassable",):
        if kind in doc and not doc[kind]:
            del doc[kind]
    name = pathlib.PurePath(str(model.get("file_name") or "board.toml")).name
    name = re.sub(r"[^A-Za-z0-9._-]", "_", name) or "board.toml"
    if not name.endswith(".toml"):
        name += ".toml"
    return name, tomli_w.dumps(doc, multiline_strings=True)


def check_model(model) -> dict:
    """{"ok": True, "toml", "file_name", "summary"} when `map validate` accepts the file, else {"ok": False, "error"}."""
    name, text = to_toml(model)
    with tempfile.TemporaryDirectory(prefix="aos-solve-editor-") as tmp:
        path = os.path.join(tmp, name)
        pathlib.Path(path).write_text(text, encoding="utf-8")
        try:
            inst = load_instance(path)
        except InputError as err:
            return {"ok": False, "error": str(err).replace(path, name), "file_name": name}
    b = inst.board
    summary = (f"{name}: valid ({b.name}): {sum(1 for h in b.terrain if b.on_map(h))} hexes on the map, "
               f"{len(b.cities)} cities, {len(b.towns)} towns, {len(b.exits)} exits, "
               f"{len(b.impassable)} impassable sides, {len(inst.assumptions())} assumed values; "
               f"{inst.scenario.rounds} rounds; " +
               ("; ".join(f"{d.name}: {sum(d.cubes.values())} cubes on {len(d.cubes)} stops"
                          for d in inst.difficulties.values()) or "no difficulty yet"))
    return {"ok": True, "toml": text, "file_name": name, "summary": summary, "warnings": board_warnings(inst)}
