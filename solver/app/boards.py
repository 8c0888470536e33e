"""The boards the app knows: the shipped solo maps and the files a user uploaded.

The browser never names a server path: it picks a shipped map by name or
uploads a file, which the server keeps in a folder of its own under an id.
Every board is read by `solver.games.load_instance`, the loader of every command.
"""
from __future__ import annotations

import pathlib
import re
import shutil
import tempfile
import threading

from solver.board.errors import InputError
from solver.games import default_instance, load_instance

SHIPPED = ("easter-island", "zoo")
SOLO_RULESETS = ("easter-island", "zoo")
MAX_UPLOADS = 100


class Boards:
    def __init__(self):
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix="aos-solve-app-"))
        self.uploads: dict[str, tuple[str, pathlib.Path]] = {}   # id -> (file name as uploaded, stored path)
        self.lock = threading.Lock()

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def path(self, board_id: str) -> pathlib.Path:
        if board_id in SHIPPED:
            return pathlib.Path(default_instance(board_id))
        with self.lock:
            entry = self.uploads.get(board_id)
        if entry is None:
            raise InputError(f"unknown board {board_id!r}: pick a shipped map or upload a board file", "board")
        return entry[1]

    def load(self, board_id: str):
        return load_instance(self.path(board_id))

    def upload(self, filename: str, data: bytes, solo_only: bool = True) -> tuple[str, object]:
        """Store an uploaded board file after the loader accepts it; errors name the uploaded file, not ours."""
        name = _safe_name(filename)
        if not name.endswith((".toml", ".json")):
            raise InputError("a board file is TOML text (a .toml file, as `aos-solve map validate` reads); "
                             f"{_kind(data)} cannot be a board", name)
        with self.lock:
            if len(self.uploads) >= MAX_UPLOADS:
                raise InputError(f"{MAX_UPLOADS} boards are uploaded already; restart the app for more", name)
            board_id = f"u{len(self.uploads) + 1}"
        where = self.folder / board_id
        where.mkdir()
        path = where / name
        path.write_bytes(data)
        try:
            inst = load_instance(path)
        except InputError as err:
            shutil.rmtree(where, ignore_errors=True)
            raise InputError(str(err).replace(str(path), name)) from None
        if solo_only and inst.scenario.ruleset not in SOLO_RULESETS:
            shutil.rmtree(where, ignore_errors=True)
            raise InputError(f"a {inst.scenario.ruleset} board: the app sets up and solves Easter Island and Zoo "
                             "boards", name)
        with self.lock:
            self.uploads[board_id] = (name, path)
        return board_id, inst

    def listing(self) -> list[dict]:
        out = [{"id": b, "name": b.replace("-", " ").title(), "shipped": True} for b in SHIPPED]
        with self.lock:
            out += [{"id": k, "name": v[0], "shipped": False} for k, v in self.uploads.items()]
        return out


def _safe_name(filename: str) -> str:
    """The uploaded file's own name, made safe for a path (its extension kept: the message names it as sent)."""
    base = pathlib.PurePath(filename or "board.toml").name
    base = re.sub(r"[^A-Za-z0-9._-]", "_", base)[:80] or "board.toml"
    return base if "." in base else base + ".toml"


def _kind(data: bytes) -> str:
    """What an upload that is not a board file looks like, in words."""
    for magic, what in ((b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"), (b"GIF8", "a GIF image"),
                        (b"%PDF", "a PDF document"), (b"PK\x03\x04", "a zip archive")):
        if data.startswith(magic):
            return f"this file is {what}, which"
    return "a file with another extension"
