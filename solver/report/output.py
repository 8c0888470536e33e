"""Writing results: whole files or nothing, and the assumptions block every report ends with."""
from __future__ import annotations

import json
import os
import pathlib
import tempfile

from solver.board.errors import InputError


def check_output_path(path: str | pathlib.Path | None, option: str) -> None:
    """Before any long work: can `path` be written? Exit-2 message naming the option and path if not.

    Root ignores permission bits, so the folder is probed by creating (and
    removing) a temporary file in it rather than by asking os.access.
    """
    if path is None:
        return
    path = pathlib.Path(path)
    where = f"{option} {path}"
    if path.is_dir():
        raise InputError("is a folder; give a file name", where)
    parent = path.parent if str(path.parent) else pathlib.Path(".")
    if not parent.exists():
        raise InputError(f"the folder {parent} does not exist", where)
    if not parent.is_dir():
        raise InputError(f"{parent} is not a folder", where)
    check_writable_folder(parent, where)
    if path.exists() and not os.access(path, os.W_OK):
        raise InputError("the file exists and cannot be overwritten", where)


def check_writable_folder(folder: pathlib.Path, where: str) -> None:
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".aos-solve-probe.")
    except OSError as err:
        raise InputError(f"cannot write into the folder {folder} ({err.strerror})", where) from None
    os.close(fd)
    os.unlink(probe)


def write_atomic(path: str | pathlib.Path, text: str) -> None:
    """Write through a temporary file and rename, so a reader never sees half a file."""
    path = pathlib.Path(path)
    if path.parent and not path.parent.exists():
        raise InputError(f"the folder {path.parent} does not exist", str(path))
    if path.is_dir():
        raise InputError("is a folder; give a file name", str(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as err:
        raise InputError(f"cannot write into the folder {path.parent} ({err.strerror})", str(path)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def dumps(data) -> str:
    return json.dumps(data, indent=2, sort_keys=False) + "\n"


def assumptions_block(instance, rules=None, uses=None, extra=()) -> list[str]:
    """The text block: readings in force (with `rules`), then the assumptions the answer used.

    `uses`: the key prefixes the answer's computation read (solver/board/provenance.py,
    `assumptions_used`); None lists every assumed entry. `extra`: more assumed
    items as {"key", "note"} dicts (command-line values such as --rounds).
    """
    from solver.board.provenance import assumptions_used
    lines = []
    if rules is not None:
        from solver.engine.readings import text_lines
        lines += text_lines(rules, instance.scenario.ruleset)
    lines.append("Assumptions this answer depends on:")
    items = [(p.key, p.note) for p in assumptions_used(instance.provenance, uses)]
    items += [(e["key"], e["note"]) for e in extra]
    lines += [f"  - {k}: {n}" for k, n in items] or ["  - none"]
    return lines


def assumptions_json(instance, rules=None, uses=None, extra=()) -> dict:
    """The JSON twin of `assumptions_block`: assumed_values, and with `rules` the readings and rule fields."""
    from solver.board.provenance import assumptions_used
    out = {"assumed_values": [p.to_json() for p in assumptions_used(instance.provenance, uses)] + list(extra)}
    if rules is not None:
        from solver.engine.readings import rules_json, stated
        out["readings"] = stated(rules, instance.scenario.ruleset)
        out["rules"] = rules_json(rules)
    return out
