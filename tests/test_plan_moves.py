"""Plans are made of moves: notation is read once where a plan comes in and written where it goes out.

A plan file's rounds are parsed into move values (BuildPath, Urbanize, the tile moves, Ship,
UpgradeLocomotive, Pass) when it is loaded, the referee plays those values, and saving writes the
same notation back: the files on disk do not change by passing through the solver.
"""
from __future__ import annotations

import json
import pathlib

import pytest

from solver.batch import records
from solver.engine.moves import BuildPath, LayTile, Pass, Ship, UpgradeLocomotive, Urbanize
from solver.engine.plan import RoundPlan, plan_from_json, replay, round_moves
from solver.games import load_instance
from tests.conftest import INSTANCES, ROOT
from tests.helpers import H

BEST = ROOT / "results" / "best-plans"
PLANS = sorted((ROOT / "tests" / "plans").glob("*.json")) + sorted((ROOT / "tests" / "plans" / "illegal").rglob("*.json"))


def _boards() -> dict:
    out = {}
    for path in sorted(INSTANCES.glob("*.toml")) + sorted((INSTANCES / "tiny").glob("*.toml")):
        try:
            inst = load_instance(path)
        except Exception:  # noqa: BLE001 - a board of another game family
            continue
        out.setdefault(inst.board.name, inst)
    return out


BOARDS = _boards()


def _written_back(data: dict, inst) -> list:
    plan = plan_from_json(data, inst, "plan")
    return [r.to_json() for r in plan.rounds]


@pytest.mark.parametrize("path", PLANS, ids=lambda p: str(p.relative_to(ROOT / "tests" / "plans")))
def test_a_plan_file_reads_into_moves_and_writes_back_the_same_rounds(path: pathlib.Path):
    data = json.loads(path.read_text(encoding="utf-8"))
    expected = [{"shares": 0, "action": None, **r, "build": r.get("build", []), "ship": r.get("ship", [])}
                for r in data["rounds"]]
    assert json.dumps(_written_back(data, BOARDS[data["map"]])) == json.dumps(expected)


@pytest.mark.parametrize("row", records.read_index(BEST), ids=lambda r: r["file"])
def test_every_recorded_best_plan_writes_back_byte_for_byte(row):
    inst = records.instance_for(records.key_of(row))
    data = json.loads((BEST / row["file"]).read_text(encoding="utf-8"))
    assert json.dumps(_written_back(data, inst)) == json.dumps(data["rounds"])


def test_a_loaded_round_holds_moves_not_text():
    inst = BOARDS["Tiny Zoo"]
    data = json.loads((ROOT / "tests" / "plans" / "tiny-zoo-cleared.json").read_text())
    plan = plan_from_json(data, inst, "plan")
    for rnd in plan.rounds:
        assert all(not isinstance(step, str) for step in rnd.build + rnd.ship)
        assert all(isinstance(step, (Ship, UpgradeLocomotive, Pass)) for step in rnd.ship)


def test_a_bonus_path_lays_every_tile_from_the_hand_and_says_so_by_name():
    path = BuildPath((H("A1"), H("B1"), H("C1"), H("D1")), bonus=True)
    assert str(path) == "bonus A1-B1-C1-D1"
    assert path.tiles() == [LayTile(H("B1"), H("A1"), H("C1"), bonus=True), LayTile(H("C1"), H("B1"), H("D1"), bonus=True)]
    assert not any(t.bonus for t in BuildPath(path.hexes).tiles())


def test_the_referee_plays_a_rounds_moves_as_they_are_and_refuses_text():
    rnd = RoundPlan(0, "urbanization", None, [Urbanize(H("C2"), "black"), BuildPath((H("A1"), H("B1"), H("C1")))],
                    [Ship(H("A1"), "red", (H("A1"), H("C1"))), UpgradeLocomotive()])
    texts = [s.text for s in round_moves(rnd, 1)]
    assert texts == ["shares 0", "action urbanization", "urbanize C2 black", "A1-B1-C1: tile B1 A1 C1", "build done",
                     "ship A1 red A1-C1", "locomotive"]
    with pytest.raises(TypeError):
        round_moves(RoundPlan(0, None, None, ["A1-B1-C1"]), 1)


def test_a_targeted_action_keeps_its_hex_through_a_plan_file():
    inst = BOARDS["Easter Island"]
    data = json.loads((ROOT / "tests" / "plans" / "easter-island-easy-two-rounds.json").read_text())
    plan = plan_from_json(data, inst, "plan")
    assert [r.target for r in plan.rounds if r.target is not None] == [H(r["target"]) for r in data["rounds"]
                                                                       if r.get("target")]
    again = plan_from_json(plan.to_json(inst), inst, "plan")
    assert again.rounds == plan.rounds
    assert replay(inst, again).error == replay(inst, plan).error
