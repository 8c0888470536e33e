"""Every proved answer names what proved it, the same in text, JSON and batch records (issue 28).

One case per proof source that exists today (solver/solo/answer.py, PROOF_SOURCES): an obstacle
seen before any search (a cube with no city of its colour, an area no food can reach), the
counting bound, and the CP-SAT relaxation (the boards of tests/test_solo_relaxation.py, whose
truth is established there by exhaustive search).
"""
from __future__ import annotations

import json

import pytest

from solver.solo.answer import COUNTING, OBSTACLE, PROOF_SOURCES, RELAXATION
from solver.solo.proofs.links import LINK_SEARCH
from tests.conftest import INSTANCES

FAST = ("--work", "2000", "--cp-time", "5")
RED_1 = '"Red 1" = ["red"]\n'  # locomotive board: minimum 2 by the relaxation; cash board: not clearable by it


def _answer(run_cli, tmp_path, command: str, board: str, *extra: str) -> tuple[dict, str]:
    """The JSON and the text answer of one command line."""
    args = [command, "--instance", INSTANCES / "tiny" / board, *extra, *FAST]
    if "--setup" in extra:
        i = extra.index("--setup")
        (tmp_path / "setup.toml").write_text(extra[i + 1])
        args[args.index(extra[i + 1])] = tmp_path / "setup.toml"
    as_json, as_text = run_cli(*args, "--json"), run_cli(*args)
    assert as_json.code == 0 and as_text.code == 0, as_json.err + as_text.err
    return json.loads(as_json.out), as_text.out


CASES = [  # (id, command, board, options, verdict, proof source)
    ("island cube without its city", "easter-island", "tiny-island.toml", ("-d", "easy"), "not clearable", OBSTACLE),
    ("zoo area no food reaches", "zoo", "tiny-zoo-locked.toml", (), "not clearable", OBSTACLE),
    ("island plan meets the counting bound", "easter-island", "tiny-island-locomotive.toml", ("-d", "easy"),
     "clearable", COUNTING),
    ("zoo counting bound past the round limit", "zoo", "tiny-zoo.toml", ("--rounds", "2"), "not clearable", COUNTING),
    ("zoo plan meets the counting bound", "zoo", "tiny-zoo.toml", (), "clearable", COUNTING),
    ("island locomotive and blockers", "easter-island", "tiny-island-locomotive.toml",
     ("-d", "easy", "--setup", RED_1), "clearable", RELAXATION),
    ("island cash", "easter-island", "tiny-island-cash.toml", ("-d", "easy", "--setup", RED_1),
     "not clearable", RELAXATION),
    ("island cash, deep mode", "easter-island", "tiny-island-cash.toml",
     ("-d", "easy", "--setup", RED_1, "--prove", "--prove-time", "5"), "not clearable", LINK_SEARCH),
]


@pytest.mark.parametrize("command,board,options,verdict,source", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_proof_source_is_what_proved_the_answer_in_text_and_json(run_cli, tmp_path, command, board, options,
                                                                      verdict, source):
    data, text = _answer(run_cli, tmp_path, command, board, *options)
    assert data["verdict"] == verdict and data["proof_source"] == source
    assert f"Proof source: {source}\n" in text + "\n"
    assert text.count("Proof source:") == 1


def test_every_source_there_is_has_a_case_above():
    assert {c[-1] for c in CASES} == set(PROOF_SOURCES)


def test_an_obstacle_is_not_called_a_counting_bound():
    """The answer of issue 28: the tiny island's yellow cube has no yellow city, found without search."""
    from solver.solo.easter_island import analyse
    from solver.engine.setup import draw_setup
    from solver.engine.state import Rules
    from solver.games import load_instance

    inst = load_instance(INSTANCES / "tiny" / "tiny-island.toml")
    answer = analyse(inst, "easy", draw_setup(inst, "easy", 1, rules=Rules()), Rules(), time_limit=10, budget=100)
    assert answer.verdict == "not clearable" and answer.impossible and answer.lower_bound == 0
    assert answer.search.proof_source == OBSTACLE


def test_batch_records_and_the_report_name_the_proof_source(run_cli, tmp_path):
    for board, diff in (("tiny-island.toml", "easy"), ("tiny-island-locomotive.toml", "easy")):
        r = run_cli("batch", "easter-island", "--instance", INSTANCES / "tiny" / board, "--difficulty", diff,
                    "--seeds", "1", "--workers", "1", "-q", "--out", tmp_path / board)
        assert r.code == 0, r.err
        rec = [json.loads(line) for line in (tmp_path / board / "results.jsonl").read_text().splitlines()]
        assert [x["proof_source"] for x in rec] == [OBSTACLE if board == "tiny-island.toml" else COUNTING]
    run = tmp_path / "tiny-island.toml"
    r = run_cli("report", run, "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["groups"][0]["proof_sources"] == {OBSTACLE: 1}


def test_a_relaxation_proof_is_named_in_the_batch_record():
    """Batch records take the source from the answer (solver.solo.relaxation.proof_record), as text and JSON do."""
    from solver.solo.easter_island import analyse
    from solver.solo.relaxation import proof_record
    from solver.solo.settings import SolveParams
    from solver.engine.state import Rules
    from solver.games import load_instance
    from tests.helpers import H

    inst = load_instance(INSTANCES / "tiny" / "tiny-island-cash.toml")
    answer = analyse(inst, "easy", {H("A1"): ["red"]}, Rules(), time_limit=30, budget=2000,
                     params=SolveParams(workers=1, deterministic_time=5.0))
    record = {**answer.batch_record(), **proof_record(answer)}
    assert record["verdict"] == "not clearable" and record["proved"] and record["proof_source"] == RELAXATION
