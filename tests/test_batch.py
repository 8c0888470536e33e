"""Batch runs: resumable after a real kill, the same answers on a Dask cluster, progress on terminals only."""
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

from solver.batch.runner import load_results
from tests.conftest import INSTANCES, ROOT

TINY = str(INSTANCES / "tiny" / "tiny-island.toml")
ANSWER_FIELDS = ("verdict", "proved", "min_rounds", "rounds_lower_bound", "rounds_upper_bound", "shares", "cash",
                 "track_cost", "setup", "status")


def batch_cmd(out, seeds="1-24", *extra):
    return [sys.executable, "-m", "solver", "batch", "easter-island", "--instance", TINY, "--difficulty", "all",
            "--seeds", seeds, "--time-limit", "20", "--out", str(out), *extra]


def answers(path: pathlib.Path) -> dict:
    return {k: {f: r.get(f) for f in ANSWER_FIELDS} for k, r in load_results(path / "results.jsonl").items()}


def raw_keys(path: pathlib.Path) -> list[str]:
    return [json.loads(line)["key"] for line in (path / "results.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    out = tmp_path_factory.mktemp("whole")
    subprocess.run(batch_cmd(out, "1-24", "--workers", "2", "--quiet"), check=True, cwd=ROOT, timeout=600)
    return out


def test_killed_batch_resumes_without_duplicates_and_with_the_same_answers(tmp_path, uninterrupted):
    out = tmp_path / "run"
    proc = subprocess.Popen(batch_cmd(out, "1-24", "--workers", "2", "--quiet"), cwd=ROOT,
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = out / "results.jsonl"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if results.exists() and len(results.read_text().splitlines()) >= 4:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # a real kill of the batch and its workers
    proc.wait()
    partial = len(results.read_text().splitlines())
    assert 4 <= partial < 48, "the kill should land mid-run"
    # A torn last line, as a kill mid-write would leave, must be dropped on resume.
    with results.open("a") as fh:
        fh.write('{"key": "easter-island/easy/9", "verd')
    subprocess.run(batch_cmd(out, "1-24", "--workers", "2", "--quiet"), check=True, cwd=ROOT, timeout=600)
    keys = raw_keys(out)
    assert len(keys) == len(set(keys)) == 48  # every seed of both difficulties exactly once
    assert answers(out) == answers(uninterrupted)


def test_rerunning_a_finished_batch_adds_nothing(uninterrupted, tmp_path):
    before = (uninterrupted / "results.jsonl").read_text()
    subprocess.run(batch_cmd(uninterrupted, "1-24", "--workers", "2", "--quiet"), check=True, cwd=ROOT, timeout=600)
    assert (uninterrupted / "results.jsonl").read_text() == before


def test_dask_cluster_gives_the_same_answers_as_the_process_pool(tmp_path, uninterrupted, run_cli):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        res = run_cli("batch", "easter-island", "--instance", TINY, "--difficulty", "all", "--seeds", "1-24",
                      "--time-limit", "20", "--out", tmp_path / "dask", "--scheduler", cluster.scheduler_address,
                      "--quiet")
    assert res.code == 0, res.err
    assert answers(tmp_path / "dask") == answers(uninterrupted)


def _on_a_terminal(cmd) -> str:
    import fcntl
    import pty
    import struct
    import termios
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.execv(cmd[0], cmd)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a terminal has a size
    chunks = []
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.waitpid(pid, 0)
    return b"".join(chunks).decode(errors="replace")


def test_progress_bar_shows_on_a_terminal_only(tmp_path):
    shown = _on_a_terminal(batch_cmd(tmp_path / "a", "1-3", "--workers", "1"))
    assert "solve" in shown and "solved=" in shown
    quiet = _on_a_terminal(batch_cmd(tmp_path / "b", "1-3", "--workers", "1", "--quiet"))
    assert "solved=" not in quiet
    piped = subprocess.run(batch_cmd(tmp_path / "c", "1-3", "--workers", "1"), cwd=ROOT, capture_output=True,
                           text=True, timeout=300)
    assert piped.returncode == 0 and "solved=" not in piped.stderr


def test_report_numbers_agree_with_the_json_lines_and_plots_are_images(uninterrupted, run_cli):
    from matplotlib.image import imread

    from solver.batch.designer_report import wilson
    res = run_cli("report", uninterrupted, "--json")
    assert res.code == 0, res.err
    report = json.loads(res.out)
    records = list(load_results(uninterrupted / "results.jsonl").values())
    for group in report["groups"]:
        mine = [r for r in records if r["difficulty"] == group["difficulty"]]
        clear = sum(1 for r in mine if r["verdict"] == "clearable")
        not_clear = sum(1 for r in mine if r["verdict"] == "not clearable")
        undecided = len(mine) - clear - not_clear
        assert group["setups"] == len(mine)
        assert (group["clearable"], group["not_clearable"], group["verdict_unknown"]) == (clear, not_clear, undecided)
        assert group["share_clearable"] == pytest.approx(clear / len(mine), abs=1e-6)
        # the interval of the share clearable counts the undecided setups both ways
        assert group["ci95"] == pytest.approx([wilson(clear, len(mine))[0], wilson(clear + undecided, len(mine))[1]],
                                              abs=1e-6)
        assert sorted(group["min_rounds"]) == sorted(r["min_rounds"] for r in mine if r.get("min_rounds"))
        if group["plot"]:
            image = imread(uninterrupted / group["plot"])
            assert image.ndim == 3 and image.shape[0] > 100
    assert (uninterrupted / "report.md").read_text().count("![") == sum(1 for g in report["groups"] if g["plot"])


def test_wilson_interval_matches_a_known_value():
    from solver.batch.designer_report import wilson
    lo, hi = wilson(87, 100)
    assert (round(lo, 3), round(hi, 3)) == (0.790, 0.922)


def test_bad_seed_range_and_unknown_scenario_exit_2(run_cli, tmp_path):
    assert run_cli("batch", "easter-island", "--seeds", "5-1", "--out", tmp_path).code == 2
    res = run_cli("batch", "chess", "--seeds", "1-2", "--out", tmp_path)
    assert res.code == 2 and "unknown scenario" in res.err
