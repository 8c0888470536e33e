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


def assumptions_block(instance, rules=None) -> list[str]:
    lines = ["Assumptions this answer depends on:"]
    for p in instance.assumptions():
        lines.append(f"  - {p.key}: {p.note}")
    if rules is not None:
        lines.append(f"  - rule switches: {', '.join(rules.describe())}")
    return lines


def assumptions_json(instance, rules=None) -> dict:
    out = {"assumed_values": [p.to_json() for p in instance.assumptions()]}
    if rules is not None:
        out["rules"] = dict(rules.__dict__)
    return out
