"""Wrong input over every command: exit 2 with one message naming what and where, never a traceback.

Each case runs the real command line in-process (an exception escaping `cli.run`
fails the case), before any long work starts: the checks under test come first.
Run alone: `python -m pytest tests/test_bad_input_sweep.py` (well under a minute).
"""
from __future__ import annotations
from solver.report.words import readable

import json
import pathlib
import shutil

import pytest

from tests.conftest import INSTANCES, ROOT

EI = str(INSTANCES / "easter-island.toml")
ZOO = str(INSTANCES / "zoo.toml")
TINY = str(INSTANCES / "tiny" / "tiny-island.toml")
TINY_PLAN = ROOT / "tests" / "plans" / "tiny-island-cleared.json"
READ_ONLY = "/proc"  # a folder nobody, root included, can create files in


@pytest.fixture
def files(tmp_path):
    """A few things to point options at: a folder, a plain file, bad batch folders, odd files."""
    f = {"dir": tmp_path / "a-folder", "file": tmp_path / "a-file.txt"}
    f["dir"].mkdir()
    f["file"].write_text("not a folder")
    corrupt = tmp_path / "corrupt-run"
    corrupt.mkdir()
    (corrupt / "run.json").write_text("{not json")
    f["corrupt"] = corrupt
    listrun = tmp_path / "list-run"
    listrun.mkdir()
    (listrun / "run.json").write_text("[1, 2]")
    f["list-run"] = listrun
    latin = tmp_path / "latin1-run"
    latin.mkdir()
    (latin / "results.jsonl").write_bytes(b'{"key": "caf\xe9"}\n')
    f["latin1-run"] = latin
    setup = tmp_path / "setup.toml"
    setup.write_bytes(b"[setup]\n# caf\xe9\n")
    f["latin1-setup"] = setup
    return f


def plan_with(tmp_path, change) -> str:
    plan = json.loads(TINY_PLAN.read_text())
    change(plan)
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan))
    return str(path)


def _ship(plan):
    return plan["rounds"][0]["ship"][0]


# (name, args builder, what the message must mention)
CASES = [
    # -- output paths, checked before the solve -------------------------------------------------------------
    ("render --out is a folder", lambda f, t: ["map", "render", TINY, "--out", f["dir"]], "is a folder"),
    ("render --out under a file", lambda f, t: ["map", "render", TINY, "--out", f["file"] / "x.svg"], "not a folder"),
    ("render --out missing folder", lambda f, t: ["map", "render", TINY, "--out", t / "no" / "x.svg"], "does not exist"),
    ("render --out read-only", lambda f, t: ["map", "render", TINY, "--out", f"{READ_ONLY}/x.svg"], "cannot write"),
    ("easter-island --svg folder", lambda f, t: ["easter-island", "--svg", f["dir"]], "--svg"),
    ("easter-island --plan-out under a file",
     lambda f, t: ["easter-island", "--plan-out", f["file"] / "p.json"], "--plan-out"),
    ("zoo --svg read-only", lambda f, t: ["zoo", "--svg", f"{READ_ONLY}/z.svg"], "--svg"),
    ("zoo --plan-out folder", lambda f, t: ["zoo", "--plan-out", f["dir"]], "--plan-out"),
    ("easter-island --html folder", lambda f, t: ["easter-island", "--html", f["dir"]], "--html"),
    ("zoo --html read-only", lambda f, t: ["zoo", "--html", f"{READ_ONLY}/z.html"], "--html"),
    ("network --svg folder", lambda f, t: ["network", EI, "--svg", f["dir"]], "--svg"),
    # -- batch folders and options ----------------------------------------------------------------------------
    ("batch --out is a file", lambda f, t: ["batch", "easter-island", "--seeds", "1", "--out", f["file"]], "is a file"),
    ("batch --out read-only", lambda f, t: ["batch", "easter-island", "--seeds", "1", "--out", f"{READ_ONLY}/run"],
     "cannot write"),
    ("batch corrupt run.json", lambda f, t: ["batch", "easter-island", "--seeds", "1", "--out", f["corrupt"]],
     "run.json"),
    ("batch run.json not an object", lambda f, t: ["batch", "easter-island", "--seeds", "1", "--out", f["list-run"]],
     "JSON object"),
    ("batch results.jsonl not UTF-8", lambda f, t: ["batch", "easter-island", "--seeds", "1", "--out", f["latin1-run"]],
     "UTF-8"),
    ("batch malformed scheduler", lambda f, t: ["batch", "easter-island", "--seeds", "1", "--out", t / "r",
                                               "--scheduler", "tcp//nowhere"], "--scheduler"),
    ("batch bad bag", lambda f, t: ["batch", "easter-island", "--seeds", "1", "--out", t / "r", "--bag", "red=x"],
     "--bag"),
    ("batch bag for the zoo", lambda f, t: ["batch", "zoo", "--seeds", "1", "--out", t / "r", "--bag", "red=2"],
     "--bag"),
    ("batch zoo board for easter-island", lambda f, t: ["batch", "easter-island", "--seeds", "1", "--out", t / "r",
                                                         "--instance", ZOO], "not a easter-island"),
    # -- limits -----------------------------------------------------------------------------------------------
    ("giant bag", lambda f, t: ["easter-island", "--bag", "red=1000000000000"], "--bag"),
    ("giant seed range", lambda f, t: ["batch", "easter-island", "--seeds", "1-1000000000000", "--out", t / "r"],
     "--seeds"),
    ("too many workers", lambda f, t: ["batch", "easter-island", "--seeds", "1", "--out", t / "r",
                                       "--workers", "100000"], "--workers"),
    # -- smaller cases ----------------------------------------------------------------------------------------
    ("setup file not UTF-8", lambda f, t: ["easter-island", "--setup", f["latin1-setup"]], "UTF-8"),
    ("report of results not UTF-8", lambda f, t: ["report", f["latin1-run"]], "UTF-8"),
    ("shipment with an unknown key", lambda f, t: ["check-plan", TINY, plan_with(t, lambda p: _ship(p).update(via="B1"))],
     "unknown field"),
    ("target on an action that takes none",
     lambda f, t: ["check-plan", TINY, plan_with(t, lambda p: p["rounds"][0].update(target="A1"))], "names no hex"),
    ("shipment cube of the wrong type", lambda f, t: ["check-plan", TINY, plan_with(t, lambda p: _ship(p).update(cube=5))],
     "'cube'"),
    ("off-board hex in a route",
     lambda f, t: ["check-plan", TINY, plan_with(t, lambda p: _ship(p).update(route="A1-Z99"))], "not on the board"),
    ("off-board hex in a build path",
     lambda f, t: ["check-plan", TINY, plan_with(t, lambda p: p["rounds"][0]["build"].__setitem__(0, "A1-Q7-C1"))],
     "not on the board"),
]


@pytest.mark.parametrize("name,args,mention", CASES, ids=[c[0] for c in CASES])
def test_bad_input_exits_2_with_one_message(run_cli, files, tmp_path, name, args, mention):
    r = run_cli(*args(files, tmp_path))
    assert r.code == 2, (name, r.code, r.out[-500:], r.err[-500:])
    # one style for every error, an option out of its declared range included
    assert r.err.startswith("aos-solve: error: ") and r.err.count("\n") == 1, r.err
    assert readable(mention) in r.err, r.err
    assert "Traceback" not in r.out + r.err


def test_batch_checks_leave_nothing_half_written(run_cli, tmp_path):
    """A refused batch writes no run.json or results file."""
    out = tmp_path / "r"
    r = run_cli("batch", "easter-island", "--seeds", "1", "--out", out, "--scheduler", "tcp//x")
    assert r.code == 2 and not out.exists()


def test_map_render_has_a_json_twin(run_cli, tmp_path):
    out = tmp_path / "board.svg"
    r = run_cli("map", "render", TINY, "--out", out, "--plan", TINY_PLAN, "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["wrote"] == str(out) and data["shipments"] == 3 and out.read_text().startswith("<svg")


def test_report_into_a_folder_it_cannot_write_exits_2(run_cli, tmp_path, monkeypatch):
    """Root may write anywhere, so the unwritable folder is simulated where the probe asks the system."""
    run = tmp_path / "run"
    run.mkdir()
    shutil.copy(ROOT / "results" / "batch-zoo" / "results.jsonl", run / "results.jsonl")
    import tempfile

    def refuse(*a, **k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    r = run_cli("report", run)
    assert r.code == 2 and "cannot write into the folder" in r.err, r.err
    assert not (run / "report.md").exists()
