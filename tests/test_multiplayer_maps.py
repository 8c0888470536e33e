"""Portugal, Synapses and Human Body rules; every multiplayer map validates, renders and answers."""
from __future__ import annotations

import json

import pytest

from solver.games import load_instance
from solver.games import ruleset_for
from solver.engine.moves import Ship
from solver.multi.state import load_state
from tests.conftest import INSTANCES

MAPS = ["finland", "portugal", "synapses", "human-body", "kansas-city"]
CONNECT = {"finland": "Tampere,Lahti", "portugal": "Lisboa,Setúbal", "synapses": "Blue 2,Red 3",
           "human-body": "Brain,Kidney", "kansas-city": "St. Joseph,Lawrence"}


def board(name):
    return INSTANCES / f"{name}.toml"


def sample(name):
    return INSTANCES / "states" / f"{name}.toml"


def write(tmp_path, text, name="state.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", MAPS)
def test_each_map_validates_renders_and_answers(run_cli, tmp_path, name):
    res = run_cli("map", "validate", board(name))
    assert res.code == 0, res.err
    res = run_cli("map", "render", board(name), "-o", tmp_path / "map.svg")
    assert res.code == 0, res.err
    assert (tmp_path / "map.svg").read_text().startswith("<svg")
    res = run_cli("deliveries", board(name), "--state", sample(name), "--json")
    assert res.code == 0, res.err
    assert json.loads(res.out)["deliveries"]
    for extra in ([], ["--state", sample(name)]):
        res = run_cli("build-cost", board(name), "--connect", CONNECT[name], "--json", *extra)
        assert res.code == 0, res.err
        data = json.loads(res.out)
        assert data["status"] in ("optimal", "feasible") and data["cost"] is not None
    res = run_cli("build-cost", board(name), "--connect", CONNECT[name])
    assert "proven minimum" in res.out or "not proven" in res.out


def test_a_solo_map_is_refused_by_the_multiplayer_commands(run_cli):
    res = run_cli("deliveries", INSTANCES / "zoo.toml", "--state", sample("finland"))
    assert res.code == 2 and "not a multiplayer map" in res.err


def test_state_for_another_map_is_refused(run_cli):
    res = run_cli("deliveries", board("portugal"), "--state", sample("finland"))
    assert res.code == 2 and "game.map" in res.err


# -- Portugal --------------------------------------------------------------------------

def test_portugal_rada_de_lisboa_is_impassable(run_cli):
    import dataclasses

    from models.network import cheapest_network
    inst = load_instance(board("portugal"))
    rs = ruleset_for("portugal")
    stops = [inst.board.stop_by_name("Lisboa"), inst.board.stop_by_name("Setúbal")]
    costs = []
    for b in (inst.board, dataclasses.replace(inst.board, impassable=frozenset())):
        i2 = dataclasses.replace(inst, board=b)
        g, md, _ = rs.build_graph(i2)
        costs.append(cheapest_network(i2, stops, graph=(g, md), graph_key=("pt", len(b.impassable)),
                                      is_stop=rs.is_build_stop(i2)).cost)
    assert costs == [4, 2]


def test_portugal_setup_counts():
    inst = load_instance(board("portugal"))
    counts = ruleset_for("portugal").setup_counts(inst)
    assert counts["Lisboa"] == 4 and counts["Porto"] == 3 and counts["Faro"] == 2


def test_portugal_free_simple_track_in_the_first_turn_only(run_cli, tmp_path):
    args = ("build-cost", board("portugal"), "--connect", "Lisboa,Setúbal", "--json", "--state")
    first_turn = sample("portugal-first-turn")
    first = json.loads(run_cli(*args, first_turn).out)
    later = json.loads(run_cli(*args, write(tmp_path, first_turn.read_text().replace(
        'round = 1\nphase = "before-actions"', "round = 2").replace("free_track_used = false", ""))).out)
    assert later["cost"] == 4 and first["cost"] == 2
    # every placement of the free tile that could save more was solved exactly: the $2 is proven
    assert first["status"] == "optimal" and first["lower_bound"] == 2


def test_portugal_lisboa_refilled_to_3():
    inst = load_instance(board("portugal"))
    state = load_state(inst, sample("portugal"))
    rs = state.ruleset
    lisboa = inst.board.stop_by_name("Lisboa")
    state.goods[lisboa] = ["red"]
    assert rs.lisboa_refill(state) == 2
    state.goods[lisboa] = ["red"] * 4
    assert rs.lisboa_refill(state) == 0


# -- Synapses --------------------------------------------------------------------------

def test_synapses_central_neuron_costs_6(run_cli):
    inst = load_instance(board("synapses"))
    rs = ruleset_for("synapses")
    costs = {n: rs.placement_cost(inst, n) for n in inst.board.nodes if n not in inst.board.cities}
    assert max(costs.values()) == 6 and [n for n, c in costs.items() if c == 6] == ["B"]
    assert costs["A"] == 5  # the sheet's example A: "Its placement cost is therefore $5."
    res = run_cli("build-cost", board("synapses"), "--connect", "Blue 3,Red 3", "--json")
    data = json.loads(res.out)
    assert data["status"] == "optimal"
    # every disc costs its connections
    assert data["cost"] == sum(costs[d] for d in data["discs"])


def _syn_state(tmp_path, **discs):
    lines = ['[game]\nmap = "Synapses"\nplayers = 3\nactive = "P"\nround = 2\n', '[goods]\n"Blue 3" = ["red"]\n']
    for name in ("P", "Q", "R"):
        d = discs.get(name, [])
        lines.append(f"[players.{name}]\nlocomotive = 3\ndiscs = {json.dumps(d)}\n")
    inst = load_instance(board("synapses"))
    return inst, load_state(inst, write(tmp_path, "\n".join(lines)))


def test_synapses_placement_rules(tmp_path):
    inst, state = _syn_state(tmp_path, P=["A"], Q=["B"])
    rs = state.ruleset
    assert "number printed" in rs.placement_problem(state, "P", "Blue 3")
    assert "two of his own discs" in rs.placement_problem(state, "P", "A")
    assert "Engineer" in rs.placement_problem(state, "P", "B")
    state.action = "engineer"
    assert rs.placement_problem(state, "P", "B") is None
    state.me.extra["shared_this_round"] = True
    assert "one disc on an occupied neuron" in rs.placement_problem(state, "P", "B")
    state.me.extra["discs_this_round"] = ["A", "C"]
    assert "only 2 discs" in rs.placement_problem(state, "P", "E")
    assert rs.end_points(state, "P") == 2


def test_synapses_urbanization_only_on_empty_uncoloured_neurons(tmp_path):
    inst, state = _syn_state(tmp_path, P=["A"])
    rs = state.ruleset
    assert "cannot be urbanized" in rs.urbanize_problem(state, "A")
    assert "coloured" in rs.urbanize_problem(state, "Blue 2")
    assert rs.urbanize_problem(state, "E") is None


def test_synapses_neurons_may_repeat_within_a_shipment(tmp_path):
    # A tiny graph where the only legal way passes neuron X twice on different synapses.
    text = '''[meta]\nname = "Synapses"\n[graph]\nsource = "assumed"\nreason = "test"
nodes = ["P", "Q", "R", "X", "Y", "Z"]
edges = [["P", "X"], ["X", "Q"], ["Q", "Y"], ["Y", "X"], ["X", "Z"], ["Z", "R"]]
cities = [{ node = "P", colour = "red" }, { node = "Q", colour = "blue" }, { node = "R", colour = "yellow" }]
'''
    src = board("synapses").read_text()
    text += src[src.index("[scenario]"):]
    path = write(tmp_path, text, "tiny.toml")
    inst = load_instance(path)
    state_text = ('[game]\nmap = "Synapses"\nplayers = 3\nactive = "A"\nround = 2\n[goods]\nP = ["yellow"]\n'
                  '[players.A]\nlocomotive = 3\ndiscs = ["X", "Y", "Z"]\n[players.B]\n[players.C]\n')
    state = load_state(inst, write(tmp_path, state_text))
    move = Ship("P", "yellow", ("P", "Q", "R"))
    assert state.ruleset.shipment_problem(state, move) is None
    state_text = state_text.replace('"X", "Y", "Z"', '"X", "Z"')
    state = load_state(inst, write(tmp_path, state_text))
    assert "only once per shipment" in state.ruleset.shipment_problem(state, move)


@pytest.mark.parametrize("discs, key, words", [
    ({"P": ["A"], "Q": ["A"], "R": ["A"], "S": ["A"]}, "players", "only 3 players"),
    ({"P": ["A", "A"]}, "players.P.discs", "two of his own discs"),
    ({"P": ["Blue 2"]}, "players.P.discs", "number printed"),
    ({"P": ["Nowhere"]}, "players.P.discs", "not a neuron"),
])
def test_synapses_bad_states(run_cli, tmp_path, discs, key, words):
    lines = ['[game]\nmap = "Synapses"\nplayers = 3\nactive = "P"\n']
    for name in ("P", "Q", "R"):
        lines.append(f"[players.{name}]\ndiscs = {json.dumps(discs.get(name, []))}\n")
    if "S" in discs:  # four discs on one neuron in a 3-player game: list the fourth with a player of 3
        lines = ['[game]\nmap = "Synapses"\nplayers = 3\nactive = "P"\n',
                 '[players.P]\ndiscs = ["A"]\n', '[players.Q]\ndiscs = ["A"]\n', '[players.R]\ndiscs = ["A"]\n']
        res = run_cli("deliveries", board("synapses"), "--state", write(tmp_path, "\n".join(lines)))
        assert res.code == 0  # three discs, three players: allowed
        lines[0] = lines[0].replace("players = 3", "players = 2")
        res = run_cli("deliveries", board("synapses"), "--state", write(tmp_path, "\n".join(lines)))
        assert res.code == 2 and "game.players" in res.err  # Synapses is for 3-5 players
        return
    res = run_cli("deliveries", board("synapses"), "--state", write(tmp_path, "\n".join(lines)))
    assert res.code == 2 and key in res.err and words in res.err and "Traceback" not in res.err


def test_synapses_more_discs_on_a_neuron_than_players_is_refused(tmp_path):
    from solver.board.errors import InputError
    inst = load_instance(board("synapses"))
    rs = ruleset_for("synapses")
    text = '[game]\nmap = "Synapses"\nplayers = 3\nactive = "P"\n' + "".join(
        f'[players.{n}]\ndiscs = ["A"]\n' for n in "PQR")
    state = load_state(inst, write(tmp_path, text))
    state.player_count = 2  # a disc count above the player count

    class R:
        def fail(self, m, k=None):
            raise InputError(m, k)
    with pytest.raises(InputError, match="only 2 players"):
        rs.read_player_extras(state, R())


def test_synapses_goods_on_an_uncoloured_neuron_are_refused(run_cli, tmp_path):
    text = sample("synapses").read_text().replace('"Red 5" = ["blue"]', '"A" = ["blue"]')
    res = run_cli("deliveries", board("synapses"), "--state", write(tmp_path, text))
    assert res.code == 2 and "goods.A" in res.err


# -- Human Body ------------------------------------------------------------------------

def _hb(tmp_path=None, text=None):
    inst = load_instance(board("human-body"))
    path = sample("human-body") if text is None else write(tmp_path, text)
    return inst, load_state(inst, path)


def test_human_body_setup_counts():
    inst = load_instance(board("human-body"))
    counts = ruleset_for("human-body").setup_counts(inst)
    assert counts["Heart"] == 4 and counts["Brain"] == 2


def test_human_body_inhale_exhale_and_kidney(tmp_path):
    inst, state = _hb()
    rs = state.ruleset
    heart, lung, kidney = (inst.board.area_by_name(n).hexes[0] for n in ("Heart", "Left lung", "Kidney"))
    assert rs.accepts(state, heart, "blue") and not rs.accepts(state, heart, "red")      # exhale: red -> blue
    assert rs.accepts(state, kidney, "yellow") and rs.accepts(state, kidney, "blue")
    assert not rs.accepts(state, kidney, "red")
    text = sample("human-body").read_text().replace("round = 2", "round = 1").replace('tile_covers = "red"',
                                                                                     'tile_covers = "blue"')
    text = text.replace("locomotive = 3", "locomotive = 2")   # round 1: only the action has raised it yet
    inst, state = _hb(tmp_path, text)
    assert rs.accepts(state, lung, "red") and not rs.accepts(state, lung, "blue")        # inhale: blue -> red
    assert rs.accepts(state, kidney, "red") and rs.accepts(state, kidney, "yellow")


def test_human_body_face_down_tile_must_match_the_round(run_cli, tmp_path):
    text = sample("human-body").read_text().replace('tile_covers = "red"', 'tile_covers = "blue"')
    res = run_cli("deliveries", board("human-body"), "--state", write(tmp_path, text))
    assert res.code == 2 and "markers.tile_covers" in res.err


def test_human_body_organs_are_one_city_for_several_players(tmp_path):
    inst, state = _hb()
    heart = inst.board.area_by_name("Heart").hexes[0]
    owners = {lk.owner for lk in state.links() if heart in lk.ends}
    assert owners == {"Alice", "Bob"}  # both joined the Heart at different hexes
    # a good goes Right lung > Bone E4 > Heart > Kidney across two players' links meeting at the organ
    lung_r, kidney = (inst.board.area_by_name(n).hexes[0] for n in ("Right lung", "Kidney"))
    bone = inst.board.stop_by_name("Bone E4")
    state.goods[lung_r] = ["yellow"]
    move = Ship(lung_r, "yellow", (lung_r, bone, heart, kidney))
    assert state.ruleset.shipment_problem(state, move) is None
    assert state.ruleset.income_split(state, move) == {"Alice": 2, "Bob": 1}


def test_human_body_no_track_on_an_organ(run_cli, tmp_path):
    text = sample("human-body").read_text().replace('"Heart-F6-Kidney"', '"Heart-G5-G4"')
    text = text.replace('"Heart-G5-G4"', '"Heart-F5-G4"')
    res = run_cli("deliveries", board("human-body"), "--state", write(tmp_path, text))
    assert res.code == 2 and "never built on a stop, zone or organ" in res.err


def test_human_body_lung_disc_link_and_costs(run_cli):
    inst, state = _hb()
    a, b = (inst.board.area_by_name(n).hexes[0] for n in ("Left lung", "Right lung"))
    assert any(set(lk.ends) == {a, b} and lk.owner == "Alice" for lk in state.links())
    data = json.loads(run_cli("build-cost", board("human-body"), "--connect", "Left lung,Right lung",
                              "--json").out)
    assert data["cost"] == 3 and data["status"] == "optimal" and data["tiles"] == []
    from solver.board.hexgrid import Hex
    rs = ruleset_for("human-body")
    assert rs.tile_cost_at(inst, Hex.parse("E4")) == 3 == rs.tile_cost_at(inst, Hex.parse("B2"))  # bone, plain


def test_human_body_grey_disc_in_3_player_games(run_cli, tmp_path):
    rs = ruleset_for("human-body")
    inst = load_instance(board("human-body"))
    assert rs.blocked_actions(inst, 3, 1) == {"urbanization"}
    assert rs.blocked_actions(inst, 3, 2) == {"engineer"}
    assert rs.blocked_actions(inst, 4, 1) == set()
    text = sample("human-body").read_text().replace("round = 2", 'round = 2\naction = "engineer"')
    res = run_cli("deliveries", board("human-body"), "--state", write(tmp_path, text))
    assert res.code == 2 and "grey disc" in res.err
