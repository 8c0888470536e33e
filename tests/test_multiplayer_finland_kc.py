"""Finland and Kansas City Interurban: the sheets' worked examples and special rules."""
from __future__ import annotations

import dataclasses
import json

import pytest

from solver.games import load_instance
from solver.engine.moves import Ship, UpgradeLocomotive
from solver.multi.state import load_state
from tests.conftest import INSTANCES

FIN, FIN_STATE = INSTANCES / "finland.toml", INSTANCES / "states" / "finland.toml"
KC, KC_STATE = INSTANCES / "kansas-city.toml", INSTANCES / "states" / "kansas-city.toml"


def _state(board, text, tmp_path):
    path = tmp_path / "state.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _route(rows, *names):
    return [r for r in rows if [x.split(" (")[0] for x in r["route"]] == list(names)]


def _fin_state():
    inst = load_instance(FIN)
    return inst, load_state(inst, FIN_STATE)


def _ship(state, colour, *names):
    board = state.board
    stops = tuple(board.stop_by_name(n) or board.area_by_name(n).hexes[0] for n in names)
    return Ship(stops[0], colour, stops)


# -- Finland -------------------------------------------------------------------------

def test_finland_kelly_purple_lahti_to_tampere_needs_4_links_and_earns_2(run_cli):
    res = run_cli("deliveries", FIN, "--state", FIN_STATE, "--json")
    assert res.code == 0, res.err
    rows = json.loads(res.out)["deliveries"]
    [row] = [r for r in _route(rows, "Lahti", "Vantaa", "Helsinki", "Espoo", "Tampere") if r["good"] == "purple"]
    assert row["links"] == 4 and row["income"] == 2 and row["public_links"] == 2


def test_finland_purple_needs_a_4_link_locomotive():
    inst, state = _fin_state()
    move = _ship(state, "purple", "Lahti", "Vantaa", "Helsinki", "Espoo", "Tampere")
    assert state.ruleset.shipment_problem(state, move) is None
    state.me.locomotive = 3
    state.locomotive = state.ruleset.link_capacity(state)
    assert "locomotive 4" in state.ruleset.shipment_problem(state, move)


def test_finland_blue_tampere_to_lahti_must_stop_at_helsinki(run_cli):
    res = run_cli("deliveries", FIN, "--state", FIN_STATE, "--json")
    rows = json.loads(res.out)["deliveries"]
    assert not [r for r in rows if r["good"] == "blue" and r["from"].startswith("Tampere")
                and r["route"][-1].startswith("Lahti")]
    res = run_cli("deliveries", FIN, "--state", FIN_STATE, "--check", "blue Tampere>Espoo>Helsinki>Vantaa>Lahti")
    assert res.code == 1 and "Helsinki" in res.out and "first city of its colour" in res.out


def test_finland_public_track_earns_no_income():
    inst, state = _fin_state()
    move = _ship(state, "blue", "Tampere", "Espoo", "Helsinki")
    assert state.ruleset.income_split(state, move) == {"Kelly": 1, None: 1}


def test_finland_russia_accepts_any_colour_until_empty_and_loses_a_good_per_delivery():
    inst, state = _fin_state()
    russia = inst.board.area_by_name("Russia").hexes[0]
    move = _ship(state, "purple", "Lahti", "Russia")
    assert state.ruleset.shipment_problem(state, move) is None
    state.apply(move)
    assert len(state.goods[russia]) == 4
    state.goods[russia] = []
    assert "does not accept" in state.ruleset.shipment_problem(state, _ship(state, "red", "Lahti", "Russia"))


def test_finland_sweden_opens_when_first_player_reaches_4_links(tmp_path):
    inst = load_instance(FIN)
    text = FIN_STATE.read_text().replace("sweden_open = true", "sweden_open = false").replace(
        "four_links_box = []", 'four_links_box = ["red", "blue", "yellow", "purple", "black"]').replace(
        '"Sweden" = ["red", "blue", "yellow", "purple", "black"]\n', "").replace("locomotive = 4", "locomotive = 3")
    state = load_state(inst, _state(inst, text, tmp_path))
    sweden = inst.board.area_by_name("Sweden").hexes[0]
    assert not state.ruleset.accepts(state, sweden, "red")
    state.apply(UpgradeLocomotive())
    assert state.markers["sweden_open"] and len(state.goods[sweden]) == 5
    assert state.ruleset.accepts(state, sweden, "red")


def test_finland_sweden_closed_while_someone_is_at_4_links_is_a_bad_state(run_cli, tmp_path):
    text = FIN_STATE.read_text().replace("sweden_open = true", "sweden_open = false").replace(
        '"Sweden" = ["red", "blue", "yellow", "purple", "black"]\n', "")
    res = run_cli("deliveries", FIN, "--state", _state(None, text, tmp_path))
    assert res.code == 2 and "markers.sweden_open" in res.err and "Traceback" not in res.err


def test_finland_no_track_from_a_zone(run_cli, tmp_path):
    text = FIN_STATE.read_text().replace('links = ["Tampere-B2-Oulu"]', 'links = ["Tampere-B2-Oulu", "Russia-H4"]')
    res = run_cli("deliveries", FIN, "--state", _state(None, text, tmp_path))
    assert res.code == 2 and "from a zone" in res.err and "players.Red.links[1]" in res.err


def test_finland_track_to_a_zone_completes_a_link():
    inst, state = _fin_state()
    russia = inst.board.area_by_name("Russia").hexes[0]
    assert any(link.complete and russia in link.ends and link.owner == "Kelly" for link in state.links())


def test_finland_impassable_lakes_raise_the_build_cost(run_cli):
    from solver.games import ruleset_for
    from models.network import cheapest_network
    inst = load_instance(FIN)
    rs = ruleset_for("finland")
    stops = [inst.board.stop_by_name("Tampere"), inst.board.stop_by_name("Kuopio")]
    costs = []
    for board in (inst.board, dataclasses.replace(inst.board, impassable=frozenset())):
        i2 = dataclasses.replace(inst, board=board)
        g, md, _ = rs.build_graph(i2)
        costs.append(cheapest_network(i2, stops, graph=(g, md), graph_key=("test", len(board.impassable)),
                                      is_stop=rs.is_build_stop(i2)).cost)
    assert costs[0] > costs[1]


def test_finland_track_across_a_lake_is_a_bad_state(run_cli, tmp_path):
    text = FIN_STATE.read_text().replace('links = ["Tampere-B2-Oulu"]', 'links = ["Tampere-B2-Oulu", "Oulu-D1-E1"]')
    res = run_cli("deliveries", FIN, "--state", _state(None, text, tmp_path))
    assert res.code == 2 and "impassable" in res.err


def test_finland_setup_counts():
    from solver.games import ruleset_for
    inst = load_instance(FIN)
    counts = ruleset_for("finland").setup_counts(inst)
    assert counts["Russia"] == 5 and counts["Helsinki"] == 2
    assert inst.map_rules["four_links_cubes"] == 5
    assert {inst.board.label(h).split(" (")[0]: n for h, n in inst.difficulties["standard"].cubes.items()} == \
        {k: v for k, v in counts.items() if k != "Russia"}


# -- Kansas City ------------------------------------------------------------------------

def _kc(tmp_path=None, **changes):
    text = KC_STATE.read_text()
    for old, new in changes.items():
        text = text.replace(old, new)
    return text


def test_kc_joseph_express_5_link_delivery_moves_marker_to_4(run_cli):
    res = run_cli("deliveries", KC, "--state", KC_STATE, "--json")
    assert res.code == 0, res.err
    data = json.loads(res.out)
    assert data["link_capacity"] == 5
    [row] = [r for r in data["deliveries"] if r["links"] == 5]
    assert row["good"] == "purple" and row["route"][-1].startswith("Olathe")
    assert "Delivery marker moves from 2 to 4" in row["effects"]


def test_kc_without_express_the_5_link_delivery_is_illegal(run_cli, tmp_path):
    text = KC_STATE.read_text().replace('action = "interurban-express"', 'action = "engineer"')
    res = run_cli("deliveries", KC, "--state", _state(None, text, tmp_path), "--json")
    data = json.loads(res.out)
    assert data["link_capacity"] == 4 and all(r["links"] <= 4 for r in data["deliveries"])


def test_kc_boom_or_bust_and_end_of_an_era(run_cli, tmp_path):
    res = run_cli("deliveries", KC, "--state", KC_STATE, "--json")
    assert all(r["links"] >= 2 for r in json.loads(res.out)["deliveries"])
    text = KC_STATE.read_text().replace("final_turn = false", "final_turn = true")
    res = run_cli("deliveries", KC, "--state", _state(None, text, tmp_path), "--json")
    assert any(r["links"] == 1 for r in json.loads(res.out)["deliveries"])


def test_kc_only_own_links():
    inst = load_instance(KC)
    state = load_state(inst, KC_STATE)
    move = Ship(inst.board.stop_by_name("Kansas City KS"), "yellow",
                (inst.board.stop_by_name("Kansas City KS"), inst.board.stop_by_name("Leavenworth")))
    state.me.extra["longest_delivery"] = 0
    assert "active player's links" in state.ruleset.shipment_problem(state, move)


def test_kc_interurban_transfer_costs_1_and_no_link():
    inst = load_instance(KC)
    state = load_state(inst, KC_STATE)
    b = inst.board.stop_by_name
    move = Ship(b("Lawrence"), "purple", (b("Lawrence"), b("Kansas City KS"), b("Kansas City MO"), b("Independence"),
                                         b("Lee's Summit"), b("Harrisonville"), b("Olathe")), (1,))
    rs = state.ruleset
    assert rs.shipment_problem(state, move) is None
    assert rs.locomotive_need(state, move)[0] == 5 and rs.delivery_cost(state, move) == 1
    assert rs.income_split(state, move) == {"Joseph": 5}
    assert rs.virtual_hops(state)  # without the transfer the route does not exist
    cash = state.cash
    state.apply(move)
    assert state.cash == cash - 1 and state.me.extra["longest_delivery"] == 4


def test_kc_power_plants_and_no_engine_track():
    inst = load_instance(KC)
    state = load_state(inst, KC_STATE)
    rs = state.ruleset
    assert rs.link_capacity(state) == 2 * 2 + 1
    assert "no Engine track" in rs.why_illegal(state, UpgradeLocomotive())
    assert any("$5" in o for o in rs.options(state))
    assert rs.expenses(inst, state.me) == 3 + 2
    assert rs.production_cubes(inst) == 4


def test_kc_costs_and_starting_hexes(run_cli):
    from solver.board.hexgrid import Hex
    inst = load_instance(KC)
    from solver.games import ruleset_for
    rs = ruleset_for("kansas-city")
    assert len(rs.starting_hexes(inst)) == 8
    assert rs.tile_cost_at(inst, Hex.parse("C4")) == 4      # starting hex
    assert rs.tile_cost_at(inst, Hex.parse("C2")) == 3      # river
    assert rs.tile_cost_at(inst, Hex.parse("A1")) == 2      # plain
    res = run_cli("build-cost", KC, "--connect", "St. Joseph,Lawrence", "--json")
    data = json.loads(res.out)
    assert res.code == 0 and data["status"] == "optimal" and data["cost"] == 12
    assert data["also_joins"] == ["Kansas City KS (D4)"]


def test_kc_no_track_between_the_two_kansas_city_hexes(run_cli, tmp_path):
    text = KC_STATE.read_text().replace('links = ["Kansas City KS-D3-D2-Leavenworth"]',
                                        'links = ["Kansas City KS-D3-E3-Kansas City MO"]')
    res = run_cli("deliveries", KC, "--state", _state(None, text, tmp_path))
    assert res.code == 2 and "cannot be joined" in res.err


def test_kc_track_contiguous_back_to_kansas_city(run_cli, tmp_path):
    text = KC_STATE.read_text().replace('[players.Tom]', '[players.Tom]\nlinks = ["Leavenworth-C1-B2"]')
    res = run_cli("deliveries", KC, "--state", _state(None, text, tmp_path))
    assert res.code == 2 and "contiguous back to Kansas City" in res.err


def test_kc_setup_counts():
    from solver.games import ruleset_for
    inst = load_instance(KC)
    counts = ruleset_for("kansas-city").setup_counts(inst)
    assert counts["Kansas City MO"] == 3 and counts["Kansas City KS"] == 2 and counts["St. Joseph"] == 3
    assert counts["Olathe"] == 2 and counts["Liberty"] == 1


@pytest.mark.parametrize("change, key", [
    (("power_plants = 2", "power_plants = -1"), "players.Joseph.power_plants"),
    (('"Independence" = ["blue"]', '"C5" = ["blue"]'), "goods.C5"),
    (('"Independence" = ["blue"]', '"Z9" = ["blue"]'), "goods.Z9"),
])
def test_kc_bad_states_exit_2(run_cli, tmp_path, change, key):
    text = KC_STATE.read_text().replace(*change)
    res = run_cli("deliveries", KC, "--state", _state(None, text, tmp_path))
    assert res.code == 2 and key in res.err and "Traceback" not in res.err
