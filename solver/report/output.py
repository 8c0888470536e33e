"""Writing results: whole files or nothing, and the assumptions block every report ends with."""
from __future__ import annotations

import json
import os
import pathlib
import tempfile

from solver.board.errors import InputError


def write_atomic(path: str | pathlib.Path, text: str) -> None:
    """Write through a temporary file and rename, so a reader never sees half a file."""
    path = pathlib.Path(path)
    if path.parent and not path.parent.exists():
        raise InputError(f"the folder {path.parent} does not exist", str(path))
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
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
