"""`aos-solve network`: the cheapest track joining stops, checked by the rules engine."""
import json
from solver.report.words import readable
import xml.etree.ElementTree as ET

import pytest

from solver.board.hexgrid import Hex
from solver.games import load_instance
from solver.engine.maps.easter_island import ruins_connected
from solver.engine.state import GameState
from tests.conftest import INSTANCES


def engine_state_with(inst, links) -> GameState:
    """Lay the network's links tile by tile through the engine (unlimited cash and tiles)."""
    from solver.engine.moves import EndBuild, IssueShares, SelectAction, path_to_tiles
    state = GameState.new(inst, {})
    state.apply(IssueShares(0))
    state.apply(SelectAction(None))
    for link in links:
        for tile in path_to_tiles([Hex.parse(h) for h in link.split("-")]):
            state.cash, state.tiles_laid = 10 ** 6, -10 ** 6
            state.apply(tile)
    state.apply(EndBuild())
    return state


@pytest.mark.parametrize("board", ["tiny/tiny-island.toml", "easter-island.toml"])
def test_network_joining_all_ruins_is_proven_and_buildable(run_cli, tmp_path, board):
    svg = tmp_path / "net.svg"
    res = run_cli("network", INSTANCES / board, "--connect", "ruins", "--json", "--svg", svg)
    assert res.code == 0, res.err
    data = json.loads(res.out)
    assert data["status"] == "optimal" and data["lower_bound"] == data["cost"]
    inst = load_instance(INSTANCES / board)
    state = engine_state_with(inst, data["links"])
    # The engine agrees on the price and that every ruin is joined.
    assert state.spent_on_track == data["cost"]
    assert ruins_connected(state)
    ET.parse(svg)


def test_network_text_report_says_proven_minimum(run_cli):
    res = run_cli("network", INSTANCES / "tiny/tiny-island.toml", "--connect", "Red 1,Red 2")
    assert res.code == 0
    assert "$7 (proven minimum" in res.out  # B1 plain $3 + D1 mountain $4, or the route round the bottom


def test_network_unknown_stop_exits_2(run_cli):
    res = run_cli("network", INSTANCES / "tiny/tiny-island.toml", "--connect", "Red 1,Atlantis")
    assert res.code == 2 and readable("'Atlantis' is not a stop") in res.err
