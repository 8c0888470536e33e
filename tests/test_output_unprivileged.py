"""Writing where you may not, as an ordinary user: one message and exit 2, before any solve (issue 28).

Root writes anywhere, and the suite runs as root in CI, so every case here runs
the command in a child process that is NOT privileged: uid 65534 (nobody) with
an interpreter that user can run, else root stripped of every capability (the
permission bits then bind it as they bind a user: the folders are root's, mode
555 or 444). Only a runner that is neither root nor able to drop privileges
skips. The child's stderr is a terminal, so a solve that started would show its
progress line (and a batch its bar): none may appear, and the command must be
done within seconds (the Easter Island setup, hard seed 14, takes about 110 s).
"""
from __future__ import annotations

import ctypes
import errno
import functools
import os
import pathlib
import pty
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time

import pytest

from tests.conftest import INSTANCES, ROOT

NOBODY = 65534
SITE = sysconfig.get_paths()["purelib"]
BOOT = (f"import site, sys; sys.path.insert(0, {str(ROOT)!r}); site.addsitedir({SITE!r}); "
        "from solver.cli import main; main(sys.argv[1:])")
PROGRESS = re.compile(r"\[\s*\d+\.\d s\]|\d+/\d+ \[|solve/s")  # solver/progress.py's line, tqdm's bar
QUICK = 30.0  # seconds: start-up and the checks; any solve here takes longer or shows progress
ZOO_RUN = ROOT / "results" / "batch-zoo" / "results.jsonl"


def _become_nobody() -> None:
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


def _drop_capabilities() -> None:
    """Empty the bounding set: after exec, root holds no capability (no CAP_DAC_OVERRIDE)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in range(64):
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP; EINVAL past the last capability
            break


def _works(argv: list[str], preexec) -> bool:
    try:
        return subprocess.run(argv + ["-c", BOOT.replace("main(sys.argv[1:])", "import ortools")],
                              preexec_fn=preexec, cwd="/", capture_output=True, timeout=120).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@functools.lru_cache(maxsize=1)
def unprivileged() -> tuple[list[str], object, str] | str:
    """(interpreter argv, preexec function, how) for an unprivileged child; a str says why there is none."""
    if os.geteuid() != 0:
        return [sys.executable, "-I"], None, f"uid {os.geteuid()} (not root)"
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    for py in dict.fromkeys([sys.executable, getattr(sys, "_base_executable", sys.executable),
                             f"/usr/bin/python{version}", shutil.which(f"python{version}") or ""]):
        if py and _works([py, "-I", "-S"], _become_nobody):
            return [py, "-I", "-S"], _become_nobody, f"uid {NOBODY} (nobody), {py}"
    if _works([sys.executable, "-I"], _drop_capabilities):
        return [sys.executable, "-I"], _drop_capabilities, "root without capabilities"
    return "root, but neither uid 65534 can run Python nor can capabilities be dropped"


class Result:
    def __init__(self, code: int, out: str, err: str, seconds: float):
        self.code, self.out, self.err, self.seconds = code, out, err, seconds

    @property
    def lines(self) -> list[str]:
        return [line.strip() for line in re.split(r"\r?\n", self.err) if line.strip()]


@pytest.fixture(scope="module")
def place():
    """A folder every user may read and enter (pytest's tmp_path is root's alone); removed afterwards."""
    runner = unprivileged()
    if isinstance(runner, str):
        pytest.skip(runner)
    base = pathlib.Path(tempfile.mkdtemp(prefix="aos-issue28-"))
    base.chmod(0o755)
    (base / "mpl").mkdir(mode=0o777)
    (base / "mpl").chmod(0o777)
    yield base
    for folder, dirs, _ in os.walk(base):
        for d in dirs:
            os.chmod(os.path.join(folder, d), 0o755)
    shutil.rmtree(base)


def run_as_user(place: pathlib.Path, *args, timeout: float = 150.0) -> Result:
    """`aos-solve ARGS` as the unprivileged user, stderr on a terminal (so progress would show)."""
    argv, preexec, _ = unprivileged()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(place), "LANG": "C.UTF-8",
           "MPLCONFIGDIR": str(place / "mpl"), "COLUMNS": "100"}
    master, slave = pty.openpty()
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # EIO: the child closed the terminal
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    t0 = time.monotonic()
    proc = subprocess.Popen(argv + ["-c", BOOT, *map(str, args)], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=slave, cwd=place, env=env, preexec_fn=preexec)
    os.close(slave)
    reader.start()
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"still running after {timeout:g} s: the output path was not checked before the solve")
    finally:
        reader.join(timeout=5)
        os.close(master)
    return Result(proc.returncode, out.decode(), b"".join(chunks).decode(errors="replace"),
                  time.monotonic() - t0)


def folder(place: pathlib.Path, name: str, mode: int | None = None) -> pathlib.Path:
    """A fresh folder of root's; `mode` None: one the unprivileged user may write into."""
    path = place / name
    path.mkdir()
    path.chmod(0o777 if mode is None else mode)
    return path


def test_the_child_really_cannot_write_a_read_only_folder(place):
    """Without this the cases below would prove nothing: the child must be refused like a user."""
    ro = folder(place, "sanity", 0o555)
    argv, preexec, how = unprivileged()
    probe = subprocess.run(argv + ["-c", f"open({str(ro / 'x')!r}, 'w')"], preexec_fn=preexec, cwd=place,
                           capture_output=True, text=True, timeout=60)
    assert probe.returncode != 0 and "PermissionError" in probe.stderr, (how, probe.stderr)
    assert os.listdir(ro) == []


def _batch_run(ro: pathlib.Path) -> None:
    shutil.copy(ZOO_RUN, ro / "results.jsonl")


# The seven commands of issue 28: (id, args given the read-only folder, prepare the folder first).
EI = INSTANCES / "easter-island.toml"
CASES = [
    ("map render --out", lambda ro: ["map", "render", EI, "--out", ro / "board.svg"], None),
    ("easter-island --svg", lambda ro: ["easter-island", "-d", "hard", "--seed", "14", "--svg", ro / "plan.svg"], None),
    ("easter-island --plan-out",
     lambda ro: ["easter-island", "-d", "hard", "--seed", "14", "--plan-out", ro / "plan.json"], None),
    ("zoo --plan-out", lambda ro: ["zoo", "--seed", "18", "--plan-out", ro / "plan.json"], None),
    ("network --svg", lambda ro: ["network", EI, "--connect", "all-stops", "--svg", ro / "net.svg"], None),
    ("batch --out", lambda ro: ["batch", "easter-island", "--seeds", "1-1000", "--workers", "1", "--out", ro], None),
    ("report DIR", lambda ro: ["report", ro], _batch_run),
]


@pytest.mark.parametrize("mode", [0o555, 0o444], ids=["r-x", "r--"])
@pytest.mark.parametrize("name,args,prepare", CASES, ids=[c[0] for c in CASES])
def test_a_read_only_output_folder_is_one_message_and_exit_2_before_any_solve(place, name, args, prepare, mode):
    ro = folder(place, f"{name.replace(' ', '_')}-{mode:o}")
    if prepare:
        prepare(ro)
    ro.chmod(mode)
    before = sorted(os.listdir(ro))
    r = run_as_user(place, *args(ro))
    assert r.code == 2, (r.code, r.err)
    assert "Traceback" not in r.err and not PROGRESS.search(r.err), r.err
    assert len(r.lines) == 1 and r.lines[0].startswith("aos-solve: error: ") and str(ro) in r.lines[0], r.err
    assert r.out == ""
    assert r.seconds < QUICK, f"{r.seconds:.1f} s: the check came after work"
    assert sorted(os.listdir(ro)) == before  # no probe, temporary or half-written file left


def test_a_read_only_results_file_stops_a_resumed_batch_before_any_solve(place):
    run = folder(place, "resume")
    _batch_run(run)
    (run / "results.jsonl").chmod(0o444)
    r = run_as_user(place, "batch", "zoo", "--seeds", "1-1000", "--workers", "1", "--out", run)
    assert r.code == 2 and len(r.lines) == 1 and str(run / "results.jsonl") in r.lines[0], r.err
    assert "cannot be overwritten" in r.lines[0] and not PROGRESS.search(r.err) and r.seconds < QUICK
    assert sorted(os.listdir(run)) == ["results.jsonl"]


def test_a_read_only_plans_folder_stops_a_keep_plans_batch_before_any_solve(place):
    run = folder(place, "plans-run")
    folder(run, "plans", 0o555)
    r = run_as_user(place, "batch", "zoo", "--seeds", "1-1000", "--workers", "1", "--keep-plans", "--out", run)
    assert r.code == 2 and len(r.lines) == 1 and str(run / "plans") in r.lines[0], r.err
    assert not PROGRESS.search(r.err) and r.seconds < QUICK
    assert sorted(os.listdir(run)) == ["plans"]


def test_a_read_only_report_file_stops_the_report_before_any_plot(place):
    run = folder(place, "report-file")
    _batch_run(run)
    (run / "report.md").write_text("an old report\n")
    (run / "report.md").chmod(0o444)
    r = run_as_user(place, "report", run)
    assert r.code == 2 and len(r.lines) == 1 and str(run / "report.md") in r.lines[0], r.err
    assert sorted(os.listdir(run)) == ["report.md", "results.jsonl"]  # no plot, no temporary file
    assert (run / "report.md").read_text() == "an old report\n"


def test_the_report_writes_where_it_may(place):
    """The same command in a folder the user may write: the checks refuse only what they must."""
    run = folder(place, "report-ok")
    _batch_run(run)
    r = run_as_user(place, "report", run)
    assert r.code == 0, r.err
    assert {"report.md", "report.html", "report.json", "zoo-standard.png"} <= set(os.listdir(run))
    assert not [n for n in os.listdir(run) if n.startswith(".")]  # probes and temporary files removed


def test_a_write_that_fails_late_is_one_message_and_no_temporary_file(tmp_path, monkeypatch):
    """Disk full (or the folder changed) after the checks: one InputError naming the file, nothing left."""
    from solver.board.errors import InputError
    from solver.report import output

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(output.os, "replace", full)
    with pytest.raises(InputError, match="No space left on device") as err:
        output.write_atomic(tmp_path / "plan.json", "{}")
    assert str(tmp_path / "plan.json") in str(err.value)
    assert os.listdir(tmp_path) == []


def test_a_map_render_that_fails_late_exits_2_with_one_message(run_cli, tmp_path, monkeypatch):
    from solver.report import output

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(output.os, "replace", full)
    out = tmp_path / "board.svg"
    r = run_cli("map", "render", EI, "--out", out)
    assert r.code == 2 and r.err.strip().count("\n") == 0 and str(out) in r.err, r.err
    assert os.listdir(tmp_path) == []


def test_a_batch_record_that_cannot_be_written_is_one_message(tmp_path):
    """A full disk mid-batch: the records so far stay whole, and the error names results.jsonl."""
    from solver.batch.runner import make_batch
    from solver.batch.scenarios import Mode
    from solver.board.errors import InputError

    b = make_batch("zoo", "all", "1", Mode(), str(tmp_path / "run"), {})

    class Full:
        def write(self, _):
            raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(InputError, match="results.jsonl"):
        b.record(Full(), {"key": "zoo/standard/1/default"})
    assert b.done == {}
