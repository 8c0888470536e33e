"""Recorded games as regression tests (issue 43, item 7): every witness plan replays to its recorded end state.

tests/plans/expected.csv holds, for every plan file kept beside the tests and results and the plan
example of the docs, what the referee made of it when it was recorded (scripts/witness_plans.py): cash,
income, shares, locomotive, spending, cubes left and delivered, areas fed and the round's accounts after
each round, and where the game ended (cleared in which round, not cleared, or the first illegal step and
why) with its links and new cities. A change of the rules engine that changes any recorded game fails
here, naming the plan and the row; if the change is meant, rewrite the file with the script and say why
in the commit. (The record of the best plans is replayed by tests/test_best_plans.py.)
"""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT

_spec = importlib.util.spec_from_file_location("witness_plans", ROOT / "scripts" / "witness_plans.py")
witness = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(witness)

EXPECTED = witness.read_expected()
PLANS = witness.plan_files()


def _recorded(name: str) -> list[dict]:
    return [r for r in EXPECTED if r["plan"] == name]


@pytest.mark.parametrize("name", PLANS)
def test_every_witness_plan_replays_to_its_recorded_end_state(name):
    want = _recorded(name)
    assert want, f"{name} has no rows in tests/plans/expected.csv: run scripts/witness_plans.py"
    got = witness.as_text(witness.witness_rows(name))
    for w, g in zip(want, got):
        assert g == w, f"{name}, {w['row']}: the referee's replay differs from the recorded game"
    assert [r["row"] for r in got] == [r["row"] for r in want], f"{name} now plays a different number of rounds"


def test_every_recorded_plan_is_still_kept_and_every_kept_plan_is_recorded():
    assert sorted({r["plan"] for r in EXPECTED}) == sorted(PLANS)


def test_the_witnesses_cover_both_solo_maps_clears_and_every_illegal_plan():
    ends = {r["plan"]: r["outcome"] for r in EXPECTED if r["row"] == "end"}
    cleared = {name for name, o in ends.items() if o.startswith("cleared in round")}
    assert len(cleared) >= 14
    readings = set()
    for name in cleared - {witness.DOC}:
        readings |= {f"{k}={v}" for k, v in (json.loads((ROOT / name).read_text()).get("readings") or {}).items()}
    # the readings that change the rules most, each in a game that clears
    assert {"strict-action=on", "bag=full", "end-of-game=round-track", "incomplete-track=owner-lost",
            "exit-pairs=strict", "zoo-exits=stops", "feed-new-cities=off"} <= readings
    assert sum(o.startswith("ILLEGAL: ") for o in ends.values()) == len(list((ROOT / "tests" / "plans" / "illegal")
                                                                            .glob("*/*.json")))
    boards = {r["board"] for r in EXPECTED}
    assert {"instances/easter-island.toml", "instances/zoo.toml", "instances/tiny/tiny-zoo.toml"} <= boards


def test_a_changed_recorded_value_is_caught(tmp_path, monkeypatch):
    """The comparison can fail: one recorded cash figure off by one is a difference, in the test's own check."""
    rows = [dict(r) for r in EXPECTED]
    end = next(r for r in rows if r["plan"] == "tests/plans/tiny-island-cleared.json" and r["row"] == "end")
    end["cash"] = str(int(end["cash"]) + 1)
    bad = tmp_path / "expected.csv"
    bad.write_text(witness._text(rows), encoding="utf-8")
    monkeypatch.setattr(witness, "EXPECTED", bad)
    assert witness.main(["--check"]) == 1
    got = witness.as_text(witness.witness_rows("tests/plans/tiny-island-cleared.json"))
    assert end not in got


def test_the_script_check_mode_passes_on_the_recorded_file():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "witness_plans.py"), "--check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "as recorded" in done.stdout
