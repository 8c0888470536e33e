"""Ctrl-C stops a solver library's search at once and is never reported as a finished answer."""
from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

from tests.conftest import ROOT

# A CP-SAT model that keeps a single worker busy far longer than the test waits.
BUSY_SOLVE = textwrap.dedent("""
    import sys
    from ortools.sat.python import cp_model
    from solver import interrupt
    interrupt.install()
    m = cp_model.CpModel()
    xs = [m.NewIntVar(0, 100, f"x{i}") for i in range(60)]
    m.AddAllDifferent(xs)
    for i in range(59):
        m.Add(xs[i] * 3 + xs[i + 1] * 5 != 77)
    m.Maximize(sum(xs[i] * ((i * 37) % 11) for i in range(60)))
    s = interrupt.cp_solver()
    s.parameters.max_time_in_seconds = 60
    s.parameters.num_workers = 1
    print("solving", flush=True)
    try:
        status = interrupt.solve_cp(s, m)
    except interrupt.Interrupted:
        print("interrupted", flush=True)
        sys.exit(130)
    print("finished", s.StatusName(status), flush=True)
""")


def test_ctrl_c_stops_a_cp_sat_solve_at_once_and_raises():
    proc = subprocess.Popen([sys.executable, "-c", BUSY_SOLVE], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "solving"
    time.sleep(1.0)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    waited = time.monotonic() - sent
    assert proc.returncode == 130, (out, err)
    assert out.strip() == "interrupted" and "finished" not in out
    assert waited < 10, f"the solve went on for {waited:.1f} s after Ctrl-C (its limit is 60 s)"
    assert err == "", err  # CP-SAT printed nothing of its own about the signal


def test_a_single_solve_shows_its_phase_on_a_terminal_only():
    """Progress goes to stderr on a terminal, never into piped or --json output, and --quiet hides it."""
    from tests.test_batch import _on_a_terminal
    cmd = [sys.executable, "-m", "solver", "easter-island", "--instance",
           str(ROOT / "instances" / "tiny" / "tiny-island.toml"), "--difficulty", "easy"]
    assert "proving the cheapest network" in _on_a_terminal(cmd)
    assert "proving the cheapest network" not in _on_a_terminal(cmd + ["--quiet"])
    piped = subprocess.run(cmd + ["--json"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert piped.returncode == 0 and "beam search" not in piped.stderr + piped.stdout


def test_ctrl_c_during_a_solve_prints_no_answer_and_exits_130():
    cmd = [sys.executable, "-m", "solver", "easter-island", "--difficulty", "easy", "--seed", "3", "--json",
           "--bag", "red=20,blue=20,yellow=20,black=16"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(4.0)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (proc.returncode, out[-300:], err[-300:])
    assert out == "" and err.strip().endswith("aos-solve: interrupted"), (out[-300:], err[-300:])
    assert "Traceback" not in err
    assert time.monotonic() - sent < 10


def _desert_batch(out, seeds, env=None):
    cmd = [sys.executable, "-m", "solver", "batch", "desert", "--challenge", "sharp-boundary", "--seeds", seeds,
           "--cp-time", "4", "--workers", "1", "--quiet", "--out", str(out)]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _answers(out) -> dict:
    from solver.batch.runner import load_results
    keep = ("score", "stars", "verdict", "proof", "bound", "layout", "mission_met")
    return {k: {f: r.get(f) for f in keep} for k, r in load_results(out / "results.jsonl").items()}


def test_a_batch_interrupted_in_a_cp_sat_solve_resumes_to_the_uninterrupted_answers(tmp_path):
    """The interrupted seed is not recorded; the resumed run then equals a run never interrupted."""
    import os
    whole = _desert_batch(tmp_path / "whole", "1-2")  # the reference, alongside (deterministic mode)
    trace = tmp_path / "solves.log"
    env = {**os.environ, "AOS_TRACE_SOLVES": str(trace)}
    cut = _desert_batch(tmp_path / "cut", "1-2", env)
    results = tmp_path / "cut" / "results.jsonl"
    deadline = time.monotonic() + 400
    # Wait for the first seed to be recorded, then for the second seed's CP-SAT solve to be running.
    while time.monotonic() < deadline and not (results.exists() and results.read_text().count("\n") >= 1):
        time.sleep(0.2)
    starts = trace.read_text().count("start")
    while time.monotonic() < deadline and not (trace.read_text().count("start") > starts
                                               and trace.read_text().endswith("start\n")):
        time.sleep(0.1)
    assert trace.read_text().endswith("start\n"), "no CP-SAT solve of the second seed was seen running"
    cut.send_signal(signal.SIGINT)
    out, err = cut.communicate(timeout=60)
    assert cut.returncode == 130 and "interrupted" in err, (cut.returncode, err[-500:])
    assert [k.split("/")[2] for k in _answers(tmp_path / "cut")] == ["1"]  # the cut-short seed 2 was not kept
    resumed = _desert_batch(tmp_path / "cut", "1-2")
    assert resumed.wait(timeout=400) == 0
    assert whole.wait(timeout=400) == 0
    assert _answers(tmp_path / "cut") == _answers(tmp_path / "whole")


def test_every_cp_sat_solve_is_built_and_run_through_the_interrupt_module():
    # docs/architecture.md: "build every CP-SAT solver with interrupt.cp_solver() and solve with
    # interrupt.solve_cp()", so Ctrl-C and the wall-clock cap reach every search (issue 39: three did not)
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    bypass = []
    for path in sorted((root / "solver").rglob("*.py")) + sorted((root / "models").rglob("*.py")):
        if path.name == "interrupt.py":
            continue
        for n, line in enumerate(path.read_text().splitlines(), start=1):
            code = line.split("#", 1)[0]
            if re.search(r"CpSolver\(\)", code) or re.search(r"\bsolver\.Solve\((?!\))", code):
                bypass.append(f"{path.relative_to(root)}:{n}: {line.strip()}")
    assert bypass == []
