"""Issue 41: each multiplayer map lists exactly the readings its answers use (solver/multi/readings.py), and
the readings the sheets leave open are named switches in the board files: Boom or Bust's marker, Human Body's
lung disc and new track to a bone against the tile limit."""
from __future__ import annotations

import json

import pytest

from solver.games import load_instance
from solver.multi.state import load_state
from tests.conftest import INSTANCES
from tests.test_multiplayer_exhaustive import _best

MAPS = ["finland", "portugal", "synapses", "human-body", "kansas-city"]
WANT = {"finland": {"zone-reading", "complex-tiles"}, "portugal": {"complex-tiles"}, "synapses": set(),
        "human-body": {"bone-reading", "bone-track-tile", "lung-disc-tile", "complex-tiles"},
        "kansas-city": {"complex-tiles", "boom-or-bust-marker"}}


@pytest.mark.parametrize("name", MAPS)
def test_readings_lists_exactly_the_readings_the_answers_state(run_cli, name):
    """`readings MAP` and every `turn` answer name the same readings; Synapses (no hexes) has no complex tiles,
    and on the hex maps complex-tiles defaults to refused, as the state loader (one track a hex) does."""
    res = run_cli("readings", name, "--json")
    assert res.code == 0, res.err
    listed = {r["name"]: r for r in json.loads(res.out)}
    assert set(listed) == WANT[name]
    if "complex-tiles" in listed:
        assert listed["complex-tiles"]["default"] == "refused"
    res = run_cli("turn", INSTANCES / f"{name}.toml", "--state", INSTANCES / "states" / f"{name}.toml",
                  "--json", "--no-advice")
    stated = {line.split("=")[0] for line in json.loads(res.out)["readings"]}
    assert stated == WANT[name]


def test_a_reading_value_the_engine_does_not_model_is_refused(run_cli, tmp_path):
    board = tmp_path / "kc.toml"
    board.write_text((INSTANCES / "kansas-city.toml").read_text().replace(
        '[map_rules]\n', '[map_rules]\ncomplex_tiles = { value = "allowed", source = "assumed", reason = "test" }\n'))
    res = run_cli("turn", board, "--state", INSTANCES / "states" / "kansas-city.toml")
    assert res.code == 2 and "map_rules.complex_tiles" in res.err


def _kc_board(tmp_path, value):
    text = (INSTANCES / "kansas-city.toml").read_text()
    old = 'boom_or_bust_marker = { value = "each-delivery"'
    assert old in text
    board = tmp_path / f"kc-{value}.toml"
    board.write_text(text.replace(old, f'boom_or_bust_marker = {{ value = "{value}"'))
    return board


def test_boom_or_bust_marker_each_delivery_or_end_of_turn(run_cli, tmp_path):
    """Joseph's Express delivery of 5 links moves the marker to 4. each-delivery (default): a 3-link delivery
    after it is illegal, so the order matters; end-of-turn: the marker moves after both, so either order is
    legal. The best turn is the same (the short delivery first is legal under both), and both answers equal
    the independent exhaustive search under the same reading."""
    keys, notes = {}, {}
    for value in ("each-delivery", "end-of-turn"):
        board = _kc_board(tmp_path, value)
        res = run_cli("turn", board, "--state", INSTANCES / "states" / "kansas-city.toml", "--json", "--no-advice")
        assert res.code == 0, res.err
        data = json.loads(res.out)
        assert f"boom-or-bust-marker={value} (the board file's map_rules.boom_or_bust_marker)" in data["readings"]
        best = data["best"]
        keys[value] = (best["income_after_turn"], best["cash_after_turn"])
        notes[value] = data["order_matters"]
        state = load_state(load_instance(board), INSTANCES / "states" / "kansas-city.toml")
        assert keys[value] == _best(state)
    assert keys["end-of-turn"] == keys["each-delivery"]
    assert "Boom or Bust" in notes["each-delivery"] and notes["end-of-turn"] is None
    res = run_cli("deliveries", _kc_board(tmp_path, "end-of-turn"), "--state", INSTANCES / "states" / "kansas-city.toml")
    assert "at the end of the turn" in res.out


def _hb(tmp_path, **values):
    text = (INSTANCES / "human-body.toml").read_text()
    for key, (old, new) in values.items():
        assert f'{key} = {{ value = "{old}"' in text
        text = text.replace(f'{key} = {{ value = "{old}"', f'{key} = {{ value = "{new}"')
    board = tmp_path / "hb.toml"
    board.write_text(text)
    return load_state(load_instance(board), INSTANCES / "states" / "human-body.toml")


def _tiles(option):
    return len(option.pieces) + len(option.towns)


def test_human_body_bone_track_and_lung_disc_against_the_tile_limit(tmp_path):
    """bone-track-tile counted (default): new track to Bone E4 (Alice's track already reaches it) counts one
    tile; free: it is paid but counts none. lung-disc-tile free (default): the disc counts no tile; counted:
    one. Judged on the build candidates `turn` and the advice search."""
    from solver.multi.advice import _link_options
    default = _hb(tmp_path)
    bone = next(b for b in default.board.towns if default.board.label(b).startswith("Bone E4"))
    to_bone = [o for o in _link_options(default, 3) if o.links[0] != "lung disc" and bone in (o.links[0][0], o.links[0][-1])]
    assert to_bone and all(bone in dict(o.towns) for o in to_bone)
    free = _hb(tmp_path, bone_track_tile=("counted", "free"), lung_disc_tile=("free", "counted"))
    for o in _link_options(free, 3):
        if o.links[0] == "lung disc":
            assert _tiles(o) == 1
        elif bone in (o.links[0][0], o.links[0][-1]):
            assert bone not in dict(o.towns)
    lung_default = [o for o in _link_options(_hb(tmp_path, lung_disc_tile=("free", "free")), 3)
                    if o.links[0] == "lung disc"]
    assert all(_tiles(o) == 0 for o in lung_default)
