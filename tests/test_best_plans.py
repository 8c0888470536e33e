"""The record of the best plans (results/best-plans, solver/batch/records.py, issue 44).

Every recorded plan is replayed by the referee and must clear in the round, with the shares and cash,
its index row states; and the record only ever changes to a plan that clears and is better.
"""
from __future__ import annotations

import copy
import json
import pathlib

import pytest

from solver.batch import records
from solver.board.errors import InputError
from solver.engine.plan import load_plan, plan_from_json
from solver.engine.setup import draw_setup
from tests.conftest import ROOT
from tests.helpers import instance

BEST = ROOT / "results" / "best-plans"
ROWS = records.read_index(BEST)


# -- results/best-plans -------------------------------------------------------------

def test_the_record_of_best_plans_is_not_empty():
    assert ROWS, "results/best-plans/index.csv lists no plan"


@pytest.mark.parametrize("row", ROWS, ids=[r["file"] for r in ROWS])
def test_every_recorded_plan_clears_in_its_recorded_round_with_its_recorded_shares_and_cash(row):
    key = records.key_of(row)
    assert row["file"] == key.file_name(), "the plan file is not named after its setup"
    inst = records.instance_for(key)
    plan = load_plan(str(BEST / row["file"]), inst)
    records.check_plan_is_for(key, inst, plan, row["file"])  # the seed's cubes, the readings, the difficulty
    got = records.score(inst, plan)
    assert got is not None, f"{row['file']} no longer clears under today's referee"
    assert got == records.row_score(row), f"{row['file']}: the referee finds {got.text()}, the index says " \
                                          f"{records.row_score(row).text()}"


def test_every_plan_file_of_the_record_is_in_its_index_once():
    files = sorted(p.name for p in BEST.glob("*.json"))
    listed = [r["file"] for r in ROWS]
    assert sorted(listed) == files
    assert len({records.key_of(r) for r in ROWS}) == len(ROWS)


# -- compare and offer on the tiny island ---------------------------------------------

TINY_PLAN = json.loads((ROOT / "tests" / "plans" / "tiny-island-cleared.json").read_text())


@pytest.fixture(scope="module")
def tiny():
    """The tiny island and a seed that draws the cubes of tests/plans/tiny-island-cleared.json."""
    inst = instance("tiny/tiny-island.toml")
    wanted = plan_from_json(TINY_PLAN, inst).setup
    seed = next(s for s in range(5000) if draw_setup(inst, "easy", s) == wanted)
    return inst, records.SetupKey("easter-island", "easy", seed, "default", "no-purple")


def plan(inst, edit=None):
    data = copy.deepcopy(TINY_PLAN)
    if edit:
        edit(data)
    return plan_from_json(data, inst)


def one_more_share(data):
    data["rounds"][0]["shares"] = 1


def first_round_only(data):
    data["rounds"] = data["rounds"][:1]


def test_plans_are_ordered_by_rounds_then_shares_then_cash():
    s = records.Score
    assert records.compare(s(8, 6, 0), s(9, 2, 99)) == records.BETTER
    assert records.compare(s(8, 6, 0), s(8, 7, 99)) == records.BETTER
    assert records.compare(s(8, 6, 10), s(8, 6, 9)) == records.BETTER
    assert records.compare(s(8, 6, 9), s(8, 6, 9)) == records.SAME
    assert records.compare(s(8, 6, 8), s(8, 6, 9)) == records.REGRESSION
    assert records.compare(s(9, 2, 99), s(8, 6, 0)) == records.REGRESSION
    assert records.compare(None, s(8, 6, 0)) == records.REGRESSION
    assert records.compare(s(8, 6, 0), None) == records.NEW
    assert records.compare(None, None) == records.NONE


def test_a_plan_is_scored_by_the_referee_replay(tiny):
    inst, _ = tiny
    assert records.score(inst, plan(inst)) == records.Score(2, 2, 1)  # check-plan: round 2, 2 shares, $1
    assert records.score(inst, plan(inst, one_more_share)) == records.Score(2, 3, 4)
    assert records.score(inst, plan(inst, first_round_only)) is None


def test_a_first_plan_that_clears_becomes_the_record(tiny, tmp_path):
    inst, key = tiny
    out = records.offer(tmp_path, key, plan(inst), inst)
    assert (out.status, out.updated) == (records.NEW, True)
    assert out.column() == "new (record updated)"
    rec = records.load_record(tmp_path, key, inst)
    assert rec.file == tmp_path / key.file_name()
    assert records.row_score(rec.row) == records.Score(2, 2, 1) == records.score(inst, rec.plan)


def test_a_plan_that_does_not_clear_is_never_recorded(tiny, tmp_path):
    inst, key = tiny
    out = records.offer(tmp_path, key, plan(inst, first_round_only), inst)
    assert (out.status, out.updated) == (records.NONE, False)
    assert records.read_index(tmp_path) == [] and not list(tmp_path.glob("*.json"))


def test_a_worse_plan_is_reported_as_a_regression_and_the_record_is_kept(tiny, tmp_path):
    inst, key = tiny
    records.offer(tmp_path, key, plan(inst), inst)
    before = (tmp_path / key.file_name()).read_text()
    for worse in (plan(inst, one_more_share), plan(inst, first_round_only), None):
        out = records.offer(tmp_path, key, worse, inst)
        assert (out.status, out.updated) == (records.REGRESSION, False)
        assert out.kept() == records.Score(2, 2, 1)
        assert (tmp_path / key.file_name()).read_text() == before
    assert "REGRESSION" in records.regression_line(key, out)
    assert records.record_summary([(key, out)])[0].startswith("record of the best plans: 1 regressions")


def test_a_better_plan_replaces_the_record(tiny, tmp_path):
    inst, key = tiny
    records.offer(tmp_path, key, plan(inst, one_more_share), inst)
    out = records.offer(tmp_path, key, plan(inst), inst)
    assert (out.status, out.updated, out.record) == (records.BETTER, True, records.Score(2, 3, 4))
    assert out.column() == "better (record updated)"
    assert [r["shares"] for r in records.read_index(tmp_path)] == [2]


def test_the_same_plan_again_is_same_and_writes_nothing(tiny, tmp_path):
    inst, key = tiny
    records.offer(tmp_path, key, plan(inst), inst)
    stamp = (tmp_path / records.INDEX).stat().st_mtime_ns
    out = records.offer(tmp_path, key, plan(inst), inst)
    assert (out.status, out.updated) == (records.SAME, False)
    assert (tmp_path / records.INDEX).stat().st_mtime_ns == stamp


def test_no_update_compares_without_writing(tiny, tmp_path):
    inst, key = tiny
    out = records.offer(tmp_path, key, plan(inst), inst, update=False)
    assert (out.status, out.updated) == (records.NEW, False)
    assert out.column() == "new (not recorded: --no-update)"
    assert not list(tmp_path.iterdir())


def test_a_plan_for_other_cubes_is_refused(tiny, tmp_path):
    inst, key = tiny
    other = records.SetupKey(key.map, key.difficulty, key.seed + 1, key.readings, key.bag)
    assert draw_setup(inst, "easy", other.seed) != draw_setup(inst, "easy", key.seed)
    with pytest.raises(InputError, match="cubes are not those seed"):
        records.offer(tmp_path, other, plan(inst), inst)
    assert not list(tmp_path.glob("*.json"))


def test_a_recorded_plan_that_no_longer_clears_is_reported_and_replaced(tiny, tmp_path):
    inst, key = tiny
    records.offer(tmp_path, key, plan(inst), inst)
    data = copy.deepcopy(TINY_PLAN)
    first_round_only(data)
    (tmp_path / key.file_name()).write_text(json.dumps(data))  # as if the referee had changed under it
    out = records.offer(tmp_path, key, plan(inst, one_more_share), inst)
    assert (out.status, out.updated) == (records.BROKEN, True)
    assert "RECORD BROKEN" in records.regression_line(key, out)
    assert records.score(inst, records.load_record(tmp_path, key, inst).plan) == records.Score(2, 3, 4)


def test_a_bad_index_row_is_one_error_naming_the_line(tmp_path):
    (tmp_path / records.INDEX).write_text(",".join(records.INDEX_FIELDS) + "\n"
                                          "x.json,easter-island,,easy,1,default,no-purple,eight,6,0\n")
    with pytest.raises(InputError, match=r"line 2.*rounds must be a whole number"):
        records.read_index(tmp_path)


def test_setup_file_names_follow_the_benchmark_setups():
    k = records.SetupKey
    assert k("easter-island", "easy", 23, "default", "no-purple").file_name() == "easter-island-easy-seed-23.json"
    assert k("zoo", "standard", 1, "default", "", "setup").file_name() == "zoo-seed-1.json"
    assert k("zoo", "standard", 1, "default", "", "dangers").file_name() == "zoo-dangers-seed-1.json"
    assert (k("easter-island", "hard", 2, "strict-action=on", "red=20,blue=20").file_name()
            == "easter-island-hard-seed-2-strict-action-on-bag-red-20-blue-20.json")


def test_the_95th_percentile_is_the_nearest_rank():
    assert records.percentile(list(range(1, 21)), 0.95) == 19
    assert records.percentile(list(range(1, 101)), 0.95) == 95
    assert records.percentile([7], 0.95) == 7
    assert records.percentile([], 0.95) is None


def test_goal_figures_count_settled_setups_and_shares():
    rows = [{"proof": "counting bound", "shares": 2, "seconds": 1.0},
            {"proof": "unknown", "shares": 13, "seconds": 30.0},
            {"proof": "obstacle (no search)", "shares": "", "seconds": 2.0}]
    text = records.goal_figures(rows)
    assert "2 of 3 setups settled" in text
    assert "median 7.5, 95th percentile 13" in text and "median 2.00, max 30.00" in text
    assert "CPU" not in text  # rows without the CPU column (older runs) print wall times only
    for row, cpu in zip(rows, (0.5, 20.0, 1.0)):
        row["cpu_seconds"] = cpu
    assert "CPU seconds: median 1.00, max 20.00" in records.goal_figures(rows)


def test_an_index_row_names_the_setup_it_was_filed_under():
    """A setup's key from an index row round-trips (what the test above replays is what was filed)."""
    key = records.SetupKey("zoo", "standard", 3, "exit-pairs=strict", "", "dangers")
    row = {"map": key.map, "variant": key.variant, "difficulty": key.difficulty, "seed": "3",
           "readings": key.readings, "bag": key.bag}
    assert records.key_of(row) == key
    assert pathlib.Path(key.file_name()).suffix == ".json"
