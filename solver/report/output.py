"""Writing results: whole files or nothing, and the assumptions block every report ends with.

Output paths are checked before any long work by trying what the write will
do (a probe file created and removed in the target folder, an existing file
opened for appending), never by reading permission bits: root passes every
bit test and ordinary users are not root. A write that fails later anyway
(disk full, the folder changed meanwhile) is an InputError naming the path,
so the CLI prints one message and exits 2, and no temporary file is left.
"""
from __future__ import annotations

import contextlib
import json
import os
import pathlib
import stat
import tempfile
from typing import Callable, Iterable

from solver.board.errors import InputError

PROBE_PREFIX = ".aos-solve-probe."


def _stat(path: pathlib.Path, where: str) -> os.stat_result | None:
    """What is at `path` (None: nothing); a folder on the way we may not look into is an InputError.

    pathlib's exists()/is_dir() raise PermissionError there, which was the traceback of issue 28.
    """
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as err:
        raise InputError(f"cannot look into the folder {_blocking_folder(path)} ({err.strerror})", where) from None


def _blocking_folder(path: pathlib.Path) -> pathlib.Path:
    """The folder whose entries may not be looked up: the nearest one on the way that can itself be."""
    for up in pathlib.Path(path).parents:
        try:
            os.stat(up)
            return up
        except OSError:
            continue
    return _folder_of(pathlib.Path(path))


def exists(path: str | pathlib.Path, where: str) -> bool:
    """Whether something is at `path`; a folder on the way we may not look into is an InputError."""
    return _stat(pathlib.Path(path), where) is not None


def _folder_of(path: pathlib.Path) -> pathlib.Path:
    return path.parent if str(path.parent) else pathlib.Path(".")


def _is_dir(st: os.stat_result | None) -> bool:
    return st is not None and stat.S_ISDIR(st.st_mode)


def check_writable_folder(folder: str | pathlib.Path, where: str) -> None:
    """Create and remove a probe file in `folder`: the one honest test that files can be made there."""
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=PROBE_PREFIX)
    except OSError as err:
        raise InputError(f"cannot write into the folder {folder} ({err.strerror})", where) from None
    os.close(fd)
    os.unlink(probe)


def _check_existing_file(path: pathlib.Path, where: str) -> None:
    """An existing file is rewritten only if it may be opened for writing (opened, nothing written)."""
    try:
        with open(path, "ab"):
            pass
    except OSError as err:
        raise InputError(f"the file exists and cannot be overwritten ({err.strerror})", where) from None


def check_output_path(path: str | pathlib.Path | None, option: str) -> None:
    """Before any long work: can the file `path` be written? Exit-2 message naming the option and path if not."""
    if path is None:
        return
    path = pathlib.Path(path)
    where = f"{option} {path}"
    st = _stat(path, where)
    if _is_dir(st):
        raise InputError("is a folder; give a file name", where)
    parent = _folder_of(path)
    pst = _stat(parent, where)
    if pst is None:
        raise InputError(f"the folder {parent} does not exist", where)
    if not _is_dir(pst):
        raise InputError(f"{parent} is not a folder", where)
    check_writable_folder(parent, where)
    if st is not None:
        _check_existing_file(path, where)


def check_output_paths(*pairs: tuple[str, str | pathlib.Path | None]) -> None:
    """check_output_path for each (option, path) given; None paths are skipped."""
    for option, path in pairs:
        check_output_path(path, option)


def check_output_folder(folder: str | pathlib.Path, where: str, files: Iterable[str] = (),
                        folders: Iterable[str] = ()) -> None:
    """Before any long work: `folder` can be made (or is a folder we may write into), and so can what goes in it.

    `files`: names inside it the command will rewrite or append to (an existing one must open for
    writing); `folders`: subfolders it will make or fill (an existing one is probed too).
    """
    folder = pathlib.Path(folder)
    st = _stat(folder, where)
    if st is not None and not _is_dir(st):
        raise InputError("is a file, not a folder", where)
    if st is None:  # made with its parents: the nearest existing ancestor must take a new entry
        for up in folder.parents:
            ust = _stat(up, where)
            if ust is not None:
                if not _is_dir(ust):
                    raise InputError(f"{up} is a file, not a folder", where)
                check_writable_folder(up, where)
                return
        return
    check_writable_folder(folder, where)
    for name in files:
        path = folder / name
        fst = _stat(path, str(path))
        if _is_dir(fst):
            raise InputError("is a folder; the command writes a file of that name here", str(path))
        if fst is not None:
            _check_existing_file(path, str(path))
    for name in folders:
        path = folder / name
        sst = _stat(path, str(path))
        if sst is not None and not _is_dir(sst):
            raise InputError("is a file; the command writes a folder of that name here", str(path))
        if sst is not None:
            check_writable_folder(path, str(path))


def write_atomic_with(path: str | pathlib.Path, write: Callable[[pathlib.Path], None], suffix: str = ".tmp") -> None:
    """`write(tmp)` fills a temporary file beside `path`, which then replaces `path` in one rename.

    A reader never sees half a file; any OS error becomes an InputError naming `path`, with the
    temporary file removed. `suffix`: the temporary file's ending (matplotlib picks the format by it).
    """
    path = pathlib.Path(path)
    where = str(path)
    parent = _folder_of(path)
    if _is_dir(_stat(path, where)):
        raise InputError("is a folder; give a file name", where)
    if _stat(parent, where) is None:
        raise InputError(f"the folder {parent} does not exist", where)
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{path.name}.", suffix=suffix)
    except OSError as err:
        raise InputError(f"cannot write into the folder {parent} ({err.strerror})", where) from None
    os.close(fd)
    try:
        write(pathlib.Path(tmp))
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except OSError as err:
        raise InputError(f"cannot write the file ({err.strerror or err})", where) from None
    finally:
        with contextlib.suppress(OSError):
            if os.path.exists(tmp):
                os.unlink(tmp)


def write_atomic(path: str | pathlib.Path, text: str) -> None:
    """Write `text` through a temporary file and rename, so a reader never sees half a file."""
    write_atomic_with(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def open_for_append(path: str | pathlib.Path):
    """The file `path` opened for appending records (text); an OS error is an InputError naming it."""
    try:
        return open(path, "a", encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot write the file ({err.strerror or err})", str(path)) from None


def dumps(data) -> str:
    return json.dumps(data, indent=2, sort_keys=False) + "\n"


def assumptions_block(instance, rules=None, uses=None, extra=()) -> list[str]:
    """The text block: readings in force (with `rules`), then the assumptions the answer used.

    `uses`: the key prefixes the answer's computation read (solver/board/provenance.py,
    `assumptions_used`); None lists every assumed entry. `extra`: more assumed
    items as {"key", "note"} dicts (command-line values such as --rounds).
    """
    from solver.board.provenance import assumptions_used, grouped
    lines = []
    if rules is not None:
        from solver.engine.readings import text_lines
        lines += text_lines(rules, instance.scenario.ruleset)
    lines.append("Assumptions this answer depends on:")
    items = [(p.key, p.note) for p in assumptions_used(instance.provenance, uses)]
    items += [(e["key"], e["note"]) for e in extra]
    lines += [f"  - {k}: {n}" for k, n in grouped(instance, items)] or ["  - none"]
    return lines


def assumptions_json(instance, rules=None, uses=None, extra=()) -> dict:
    """The JSON twin of `assumptions_block`: assumed_values, and with `rules` the readings and rule fields."""
    from solver.board.provenance import assumptions_used
    out = {"assumed_values": [p.to_json() for p in assumptions_used(instance.provenance, uses)] + list(extra)}
    if rules is not None:
        from solver.engine.readings import rules_json, stated
        out["readings"] = stated(rules, instance.scenario.ruleset)
        out["rules"] = rules_json(rules, instance.scenario.ruleset)
    return out
