"""The wrong answers of issue 15, each pinned: Kansas City costs and deliveries, Finland zones, Human Body
bones, provenance of invented positions, reachable states."""
from __future__ import annotations

import json

import pytest

from solver.games import load_instance
from solver.multi.state import load_state
from tests.conftest import INSTANCES

KC, KC_STATE = INSTANCES / "kansas-city.toml", INSTANCES / "states" / "kansas-city.toml"
FIN, FIN_STATE = INSTANCES / "finland.toml", INSTANCES / "states" / "finland.toml"
PT, PT_STATE = INSTANCES / "portugal.toml", INSTANCES / "states" / "portugal.toml"
HB, HB_STATE = INSTANCES / "human-body.toml", INSTANCES / "states" / "human-body.toml"
MAPS = ["finland", "portugal", "synapses", "human-body", "kansas-city"]


def write(tmp_path, text, name="state.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def kc_text(**changes) -> str:
    text = KC_STATE.read_text()
    for old, new in changes.values():
        assert old in text
        text = text.replace(old, new)
    return text


# -- Kansas City ----------------------------------------------------------------------

def test_kc_own_links_through_a_town_cost_nothing(run_cli):
    # Independence-Lee's Summit-Harrisonville are Joseph's links; Lee's Summit is a town with his tile.
    res = run_cli("build-cost", KC, "--connect", "Independence,Harrisonville", "--state", KC_STATE, "--json")
    data = json.loads(res.out)
    assert res.code == 0 and data["cost"] == 0 and data["tiles"] == []


def test_kc_town_with_a_tile_pays_no_town_base_again():
    # "Town tile: $1 per track leaving the town plus $1": the $1 base is paid with the first track only.
    from solver.games import ruleset_for
    inst = load_instance(KC)
    rs = ruleset_for("kansas-city")
    town = inst.board.stop_by_name("Lee's Summit")
    bare, _, _ = rs.build_graph(inst)
    built, _, _ = rs.build_graph(inst, load_state(inst, KC_STATE))
    assert bare.nodes[town]["cost"] == 1 and built.nodes[town]["cost"] == 0
    fresh = inst.board.stop_by_name("Liberty")     # nobody's track reaches Liberty yet
    assert built.nodes[fresh]["cost"] == 1


def test_kc_interurban_transfer_alone_is_no_delivery(run_cli, tmp_path):
    # "This movement does not count for links": with no power plant and no Express, a red good on
    # Kansas City MO moved across to Kansas City KS (red) uses no link at all.
    text = kc_text(pp=("power_plants = 2", "power_plants = 0"), longest=("longest_delivery = 2", "longest_delivery = 0"),
                   action=('action = "interurban-express"\n', ""))
    path = write(tmp_path, text)
    res = run_cli("deliveries", KC, "--state", path, "--check", "red Kansas City MO~Kansas City KS")
    assert res.code == 1 and "at least one link" in res.out
    res = run_cli("deliveries", KC, "--state", path, "--json")
    assert all(r["links"] >= 1 for r in json.loads(res.out)["deliveries"])


def test_kc_power_plant_option_counts_the_express_link(run_cli):
    res = run_cli("deliveries", KC, "--state", KC_STATE, "--json")
    [option] = json.loads(res.out)["instead_of_a_delivery"]
    assert "deliveries up to 7 links" in option     # 3 power plants x 2 + 1 (Interurban Express)


def test_kc_final_turn_must_be_stated_when_the_round_count_is_assumed(run_cli, tmp_path):
    # End of an Era applies in the final turn; with an assumed 10 rounds a shorter game would silently miss it.
    text = kc_text(final=("final_turn = false\n", ""))
    res = run_cli("deliveries", KC, "--state", write(tmp_path, text))
    assert res.code == 2 and "game.final_turn" in res.err and "assumed" in res.err


def test_kc_deliveries_ranked_by_the_turn_they_allow(run_cli):
    # Boom or Bust: the 5-link Express delivery first leaves nothing legal (+5); the 3-link one first and
    # then the Express delivery earns +8. The list puts the 3-link delivery first.
    res = run_cli("deliveries", KC, "--state", KC_STATE, "--json")
    rows = json.loads(res.out)["deliveries"]
    assert rows[0]["links"] == 3 and rows[0]["good"] == "red"
    five = next(r for r in rows if r["links"] == 5)
    assert five["best_turn_after"]["income"] < rows[0]["best_turn_after"]["income"]


# -- Finland zones (map_rules.zone_reading = end-only) ---------------------------------

def _russia_junction(tmp_path, russia_goods: str) -> str:
    text = FIN_STATE.read_text()
    text = text.replace('"Russia" = ["red", "blue", "yellow", "purple", "black"]', f'"Russia" = {russia_goods}')
    text = text.replace('"Lahti-H3-Russia"]', '"Lahti-H3-Russia", "Kuopio-H1-H2-Russia"]')
    return write(tmp_path, text)


@pytest.mark.parametrize("russia", ["[]", '["black"]'])
def test_finland_no_good_passes_through_a_zone(run_cli, tmp_path, russia):
    # "Track may not be built from a zone. Track built to a zone comprises a Completed Railroad Link."
    # Read end-only: empty or not, Russia joins Lahti and Kuopio for no good.
    res = run_cli("deliveries", FIN, "--state", _russia_junction(tmp_path, russia), "--check",
                  "purple Lahti>Russia>Kuopio")
    assert res.code == 1 and "never passes through a zone" in res.out


def test_finland_build_never_joins_two_stops_through_a_zone(run_cli, tmp_path):
    # B2 (the direct Oulu-Tampere hex) holds Green's open track; the old answer ran Oulu-B1-Sweden-A3-Tampere.
    text = FIN_STATE.read_text().replace('links = ["Tampere-B2-Oulu"]', "").replace(
        "[players.Green]", '[players.Green]\nlinks = ["Oulu-B2"]')
    res = run_cli("build-cost", FIN, "--connect", "Oulu,Tampere", "--state", write(tmp_path, text), "--json")
    data = json.loads(res.out)
    assert res.code == 0
    sweden = {"A1", "A2"}
    assert not any(set(link.split("-")) & sweden for link in data["links"])
    assert any("never a junction" in n for n in data["notes"])


def test_finland_build_cost_uses_other_players_links(run_cli):
    # Red's complete link Tampere-B2-Oulu carries Kelly's goods (Red earns the income).
    res = run_cli("build-cost", FIN, "--connect", "Oulu,Tampere", "--state", FIN_STATE, "--json")
    data = json.loads(res.out)
    assert data["cost"] == 0 and data["tiles"] == []


def test_finland_build_cost_for_a_blue_good_avoids_helsinki(run_cli):
    # The $6 Tampere-Lahti network runs over the public track through Helsinki (blue), where a blue good
    # must stop ("They cannot deliver the Blue Good from Tampere to Lahti").
    res = run_cli("build-cost", FIN, "--connect", "Tampere,Lahti", "--json")
    assert json.loads(res.out)["cost"] == 6
    res = run_cli("build-cost", FIN, "--connect", "Tampere,Lahti", "--good", "blue", "--json")
    data = json.loads(res.out)
    assert res.code == 0 and data["cost"] == 8
    assert not any("D6" in link.split("-") for link in data["links"])


# -- Human Body bones (map_rules.bone_reading = town) -----------------------------------

def test_human_body_a_bone_ends_a_link(run_cli):
    # Alice's track Right lung-E4-Heart crosses the bone E4: read as a town, it is two links (2 income).
    res = run_cli("deliveries", HB, "--state", HB_STATE, "--json")
    rows = json.loads(res.out)["deliveries"]
    [row] = [r for r in rows if r["route"][0].startswith("Heart") and r["route"][-1].startswith("Right lung")]
    assert row["links"] == 2 and row["income"] == 2 and row["route"][1].startswith("Bone E4")


def test_human_body_bone_costs_3_in_every_case():
    from solver.games import ruleset_for
    inst = load_instance(HB)
    rs = ruleset_for("human-body")
    g, _, _ = rs.build_graph(inst, load_state(inst, HB_STATE))
    bone = inst.board.stop_by_name("Bone E4")   # already holds Alice's bone tile
    bare = inst.board.stop_by_name("Bone E6")
    # passing over Alice's existing links through E4 is free; every new track laid to E4 costs $3
    assert g.nodes[bone]["cost"] == 0 and g.nodes[bare]["cost"] == 3
    new = [d["weight"] for n, d in g[bone].items() if d.get("new_track")]
    assert new and all(w == 3 for w in new)


# -- provenance -------------------------------------------------------------------------

@pytest.mark.parametrize("name, keys", [("finland", {"zones[0]", "zones[1]", "track[0]", "track[1]"}),
                                        ("portugal", {"impassable[0]", "impassable[1]"})])
def test_map_validate_lists_invented_positions_as_assumed(run_cli, name, keys):
    res = run_cli("map", "validate", INSTANCES / f"{name}.toml", "--json")
    listed = {p["key"] for p in json.loads(res.out)["assumed_positions"]}
    assert keys <= listed


@pytest.mark.parametrize("name", MAPS)
def test_no_invented_position_is_tagged_rule_sheet(name):
    inst = load_instance(INSTANCES / f"{name}.toml")
    positions = [p for p in inst.provenance if not p.key.startswith(("scenario.", "map_rules.", "difficulty."))]
    assert positions and all(p.source == "assumed" for p in positions)


def test_assumptions_named_are_those_the_answer_used(run_cli):
    res = run_cli("deliveries", PT, "--state", PT_STATE, "--json")
    keys = {p["key"] for p in json.loads(res.out)["assumed_values"]}
    assert "scenario.new_cities" not in keys and "impassable[0]" not in keys and "cities[0]" in keys
    res = run_cli("build-cost", PT, "--connect", "Lisboa,Setúbal", "--json")
    data = json.loads(res.out)
    keys = {p["key"] for p in data["assumed_values"]}
    assert data["cost"] == 4 and {"impassable[0]", "impassable[1]"} <= keys and "scenario.new_cities" not in keys


# -- reachable states ---------------------------------------------------------------------

def test_portugal_old_sample_cannot_occur(run_cli, tmp_path):
    # Round 1 before actions (Ana's free track unused), yet complete links, locomotive 2 and emptied cities.
    old = """[game]
map = "Portugal"
players = 3
active = "Ana"
round = 1
phase = "before-actions"

[goods]
"Lisboa" = ["red", "yellow", "purple", "red"]
"Porto" = ["blue", "red", "purple"]
"Coimbra" = ["yellow", "blue"]
"Évora" = ["blue", "purple"]

[players.Ana]
locomotive = 2
links = ["Lisboa-C6-D6-Évora"]
free_track_used = false

[players.Bea]
links = ["Porto-B3-B4-Coimbra"]
free_track_used = true

[players.Caio]
"""
    res = run_cli("deliveries", PT, "--state", write(tmp_path, old))
    assert res.code == 2 and "setup count" in res.err and "Traceback" not in res.err
    fixed = INSTANCES / "states" / "portugal-first-turn.toml"
    assert run_cli("deliveries", PT, "--state", fixed).code == 0


@pytest.mark.parametrize("change, key, words", [
    (('"Lisboa" = ["red", "yellow", "purple"]', '"Lisboa" = ["red", "yellow", "purple", "red", "blue"]'),
     "goods.Lisboa", "setup puts 4"),
    (("locomotive = 2\nincome = 4", "locomotive = 4\nincome = 4"), "players.Ana.locomotive", "cannot be reached"),
    (('links = ["Porto-B3-B4-Coimbra"]', 'links = ["Porto-B3-A4-B5-A5-A6-A7"]'), "players.Bea.links",
     "at most 5"),
])
def test_states_are_checked_against_setup_counts_and_turn_limits(run_cli, tmp_path, change, key, words):
    text = PT_STATE.read_text().replace("round = 3", "round = 1")
    assert change[0] in text
    text = text.replace(*change).replace('"Lisboa-C6-D6-Évora", "Évora-E7-Faro", "Coimbra-C5-Lisboa"',
                                         '"Lisboa-C6-D6-Évora"')
    res = run_cli("deliveries", PT, "--state", write(tmp_path, text))
    assert res.code == 2 and key in res.err and words in res.err, res.err


def test_kc_at_most_one_power_plant_a_turn(run_cli, tmp_path):
    text = kc_text(pp=("power_plants = 2", "power_plants = 5"))
    res = run_cli("deliveries", KC, "--state", write(tmp_path, text))
    assert res.code == 2 and "players.Joseph.power_plants" in res.err


def test_synapses_build_cost_uses_other_players_links(run_cli, tmp_path):
    # Green's disc D joins Blue 3 and Red 5; Grey may move goods over it, so joining them costs Grey nothing.
    text = (INSTANCES / "states" / "synapses.toml").read_text().replace('active = "Purple"', 'active = "Grey"')
    res = run_cli("build-cost", INSTANCES / "synapses.toml", "--connect", "Blue 3,Red 5", "--state",
                  write(tmp_path, text), "--json")
    data = json.loads(res.out)
    assert res.code == 0 and data["cost"] == 0 and data["discs"] == []


def test_finland_zone_reading_city_is_a_named_switch(run_cli, tmp_path):
    # The other reading, switched on in the board file: an empty Russia is passed through.
    board = write(tmp_path, FIN.read_text(encoding="utf-8").replace('zone_reading = { value = "end-only"',
                                                                    'zone_reading = { value = "city"'), "fin.toml")
    res = run_cli("deliveries", board, "--state", _russia_junction(tmp_path, "[]"), "--check",
                  "purple Lahti>Russia>Kuopio")
    assert res.code == 0, res.out
    res = run_cli("deliveries", board, "--state", _russia_junction(tmp_path, "[]"), "--json")
    assert "zone-reading=city (the board file's map_rules.zone_reading)" in json.loads(res.out)["readings"]
