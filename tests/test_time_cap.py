"""Rule protected: --time-limit tells the truth (issue 34, item 3; issue 42). The work budgets bound a
reproducible solve; --time-limit is the wall-clock time of the whole solve, which stops every search once it
runs out, and an answer it cut short says so, in text and JSON, and still claims only what was proved."""
from __future__ import annotations

import json
import time

from solver import interrupt
from tests.conftest import INSTANCES


def test_the_cap_bites_only_when_it_runs_out():
    with interrupt.wall_clock_cap(60) as cap:
        assert not interrupt.past_cap()
    assert cap["hit"] is False
    with interrupt.wall_clock_cap(0.01) as cap:
        time.sleep(0.02)
        assert interrupt.past_cap()
    assert cap["hit"] is True
    assert not interrupt.past_cap()  # no cap outside the block


def test_a_capped_solve_says_so_and_claims_only_what_it_proved(run_cli):
    args = ("easter-island", "-d", "easy", "--seed", "1", "--wall-clock", "--time-limit", "0.1", "-q")
    r = run_cli(*args, "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["time_cap"]["hit"] is True and data["time_cap"]["seconds"] == 0.1
    assert data["verdict"] in ("clearable", "unknown")  # cut short: never a "not clearable" it did not prove
    if data["verdict"] == "clearable":
        assert data["plan"] is not None  # replayed by the referee like every plan
    text = run_cli(*args).out
    assert "Stopped at the time limit (0.1 s, --time-limit)" in text


def test_the_cap_is_the_time_limit_in_reproducible_mode_too(run_cli):
    """--time-limit means wall-clock seconds in both modes (issue 42); the budgets decide when spent first."""
    r = run_cli("easter-island", "--instance", INSTANCES / "tiny" / "tiny-island.toml", "-d", "hard", "--json", "-q")
    cap = json.loads(r.out)["time_cap"]
    assert cap == {"seconds": 300.0, "hit": False,
                   "bounds_the_time": "the work budgets --work, --cp-time and --plan-cp-time (reproducible)"}
