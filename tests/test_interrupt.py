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
