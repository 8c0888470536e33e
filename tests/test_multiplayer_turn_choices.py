"""Issue 41: every choice the sheet gives is searched by `turn`, checked by a brute force written apart from
the solver (every set of discs or every path of tiles, each judged by the ruleset, then the exhaustive
shipping of tests/test_multiplayer_exhaustive.py)."""
from __future__ import annotations

import itertools
import json

from solver.board.errors import InputError
from solver.games import load_instance
from solver.multi.phases import search_build_turn
from solver.multi.state import load_state
from tests.conftest import INSTANCES
from tests.test_multiplayer_exhaustive import _best

SYN = INSTANCES / "synapses.toml"

SYN_STATE = """
[game]
map = "Synapses"
players = 3
active = "Purple"
round = {round}
phase = "build"
action = "{action}"

[goods]
"Blue 3" = ["red"]
"Yellow 1" = ["red"]

[players.Purple]
locomotive = 2
cash = {cash}
income = 0
shares = 2
discs = {discs}
discs_this_round = {this_round}

[players.Green]
locomotive = 2
discs = ["D"]

[players.Grey]
"""


def syn_state(tmp_path, action="engineer", cash=6, discs="[]", this_round="[]", rnd=2):
    path = tmp_path / "syn.toml"
    path.write_text(SYN_STATE.format(action=action, cash=cash, discs=discs, this_round=this_round, round=rnd))
    return path


def brute_force_discs(state, reuse=True) -> tuple[int, int]:
    """Every ordered choice of up to 2 neurons (all of them, whatever their discs), placed one by one through
    the ruleset's placement rules (`apply_discs`), paid from cash, then the exhaustive two-step shipping.

    Two orders of the same neurons that the rules both allow end in states that differ only in the order of
    the `discs` and `discs_this_round` lists, which the ruleset reads as sets (links from the set of discs,
    membership, counts); their cash is the same sum. So the shipping of a placement is searched once per
    (set of discs, set of this round's discs, shared disc, cash) and reused: every legal order is still
    tried, none is skipped before the rules judge it (reuse=False searches each order again: the check)."""
    rs, inst = state.ruleset, state.instance
    best = None
    done: dict = {}
    neurons = sorted(inst.board.nodes)
    for k in range(0, rs.rule(inst, "discs_per_round") + 1):
        for combo in itertools.permutations(neurons, k):
            cost = sum(rs.placement_cost(inst, n) for n in combo)
            if cost > state.me.cash:
                continue
            try:
                hyp = rs.apply_discs(state, list(combo))
            except InputError:
                continue
            hyp.me.cash -= cost
            hyp.cash = hyp.me.cash
            hyp.turn_phase, hyp.shipments_done = "shipping", 0
            extra = hyp.me.extra
            same = (frozenset(extra.get("discs", [])), frozenset(extra.get("discs_this_round", [])),
                    extra.get("shared_this_round"), hyp.me.cash)
            if same not in done or not reuse:
                done[same] = _best(hyp)
            key = done[same]
            best = key if best is None or key > best else best
    return best


def test_synapses_engineer_shared_disc_is_searched(run_cli, tmp_path):
    """The Engineer may put a disc on a neuron holding another player's disc: sharing Green's D ($3) gives
    Purple the Blue 3 - Red 5 link; before issue 41 the search left it out and built nothing."""
    path = syn_state(tmp_path)
    res = run_cli("turn", SYN, "--state", path, "--json", "--no-advice")
    assert res.code == 0, res.err
    data = json.loads(res.out)
    assert data["build"]["discs"] == ["D"]
    assert (data["best"]["income_after_turn"], data["best"]["cash_after_turn"]) == (1, 0)
    state = load_state(load_instance(SYN), path)
    assert search_build_turn(state).key == brute_force_discs(state)


def test_brute_force_reusing_a_placement_in_another_order_loses_nothing(tmp_path):
    """brute_force_discs searches the shipping of two orders of the same discs once: the same best as
    searching every order (with the Engineer's shared disc and without)."""
    inst = load_instance(SYN)
    for action in ("engineer", "production"):
        state = load_state(inst, syn_state(tmp_path, action=action, cash=8))
        assert brute_force_discs(state) == brute_force_discs(state, reuse=False)


def test_synapses_shared_disc_only_with_the_engineer(tmp_path):
    """Without the Engineer a neuron with another player's disc is not open to Purple."""
    state = load_state(load_instance(SYN), syn_state(tmp_path, action="production"))
    answer = search_build_turn(state)
    assert "D" not in answer.pieces
    assert answer.key == brute_force_discs(state)


def test_synapses_discs_placed_this_round_count_toward_two(tmp_path):
    """"only 2 discs can be placed in one round": with 2 placed this round no disc is left; with one, one."""
    inst = load_instance(SYN)
    full = load_state(inst, syn_state(tmp_path, cash=20, discs='["E", "F"]', this_round='["E", "F"]'))
    answer = search_build_turn(full)
    assert answer.pieces == [] and answer.limit == 0
    assert answer.key == brute_force_discs(full)
    one = load_state(inst, syn_state(tmp_path, cash=20, discs='["E"]', this_round='["E"]'))
    answer = search_build_turn(one)
    assert len(answer.pieces) <= 1 and answer.limit == 1
    assert answer.key == brute_force_discs(one)


KC = INSTANCES / "kansas-city.toml"

KC_ROUND_ONE = """
[game]
map = "Kansas City Interurban"
players = 3
active = "Joseph"
round = {round}
phase = "{phase}"
final_turn = false

[goods]
"Kansas City KS" = ["blue"]
"Kansas City MO" = ["red"]
"Lawrence" = ["red"]
"Independence" = ["red"]

[players.Joseph]
cash = 20
shares = 2
income = 0
locomotive = 1
links = {links}

[players.Rosa]

[players.Tom]
"""


def kc_state(tmp_path, rnd=1, phase="build", links="[]"):
    path = tmp_path / "kc.toml"
    path.write_text(KC_ROUND_ONE.format(round=rnd, phase=phase, links=links))
    return path


def test_kansas_city_first_build_uses_one_starting_hex(run_cli, tmp_path):
    """"Railroads must begin at one of the 8 starting hexes ... In later turns the remaining starting hexes may
    be built on": before issue 41 the best round-1 build here used E5 and F5 (two starting hexes)."""
    inst = load_instance(KC)
    starts = {str(h) for h in inst.ruleset.starting_hexes(inst)}
    res = run_cli("turn", KC, "--state", kc_state(tmp_path), "--json", "--no-advice")
    assert res.code == 0, res.err
    tiles = json.loads(res.out)["build"]["tiles"]
    assert tiles and len(starts & set(tiles)) == 1


def test_kansas_city_round_one_state_with_two_starting_hexes_is_refused(run_cli, tmp_path):
    """The state loader (the referee) refuses round-1 track on two starting hexes, and allows it later."""
    two = '["Kansas City KS-E5-Harrisonville", "Kansas City MO-F5-Harrisonville"]'
    res = run_cli("turn", KC, "--state", kc_state(tmp_path, phase="shipping", links=two))
    assert res.code == 2 and "starting hexes" in res.err and "Traceback" not in res.err
    res = run_cli("turn", KC, "--state", kc_state(tmp_path, rnd=2, phase="shipping", links=two), "--no-advice")
    assert res.code == 0, res.err


KC_SAMPLE = INSTANCES / "states" / "kansas-city.toml"


def kc_sample(tmp_path, **changes):
    text = KC_SAMPLE.read_text()
    for old, new in changes.values():
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "kc-sample.toml"
    path.write_text(text)
    return path


def test_look_ahead_applies_end_of_an_era_when_next_turn_is_the_last(run_cli, tmp_path):
    """Round 9 of 10 (3 players): next turn is the final turn, so Boom or Bust's marker does not forbid the
    2-link delivery then. Before issue 41 `next_turn` always said "not final": the plan of this turn alone
    was valued at income 11 after next turn instead of 14."""
    path = kc_sample(tmp_path, rnd=("round = 4", "round = 9"))
    res = run_cli("turn", KC, "--state", path, "--horizon", "2", "--no-advice", "--json")
    assert res.code == 0, res.err
    ahead = json.loads(res.out)["look_ahead"]
    assert ahead["this_turn_best_after_next_turn"] == [14, 29]
    assert (ahead["income_after_next_turn"], ahead["cash_after_next_turn"]) == (15, 18)


def test_last_round_follows_the_player_count(tmp_path):
    """rounds_by_players (assumed: the base game's 3p 10, 4p 8, 5p 7, 6p 6): with 4 players round 7's next
    turn is the final one; with 3 players it is not."""
    from solver.multi.advice import next_turn
    inst = load_instance(KC)
    three = load_state(inst, kc_sample(tmp_path, rnd=("round = 4", "round = 7")))
    assert not next_turn(three).final_turn
    four = load_state(inst, kc_sample(tmp_path, rnd=("round = 4", "round = 7"), n=("players = 3", "players = 4"),
                                      p=("[players.Tom]", "[players.Tom]\n[players.Ann]")))
    assert next_turn(four).final_turn


def test_a_round_after_the_last_for_the_player_count_is_refused(run_cli, tmp_path):
    path = kc_sample(tmp_path, rnd=("round = 4", "round = 9"), n=("players = 3", "players = 4"),
                     p=("[players.Tom]", "[players.Tom]\n[players.Ann]"))
    res = run_cli("turn", KC, "--state", path)
    assert res.code == 2 and "last round 8" in res.err


def _every_build_then_best(nxt):
    """Every candidate build (no dedupe, no early stop) applied by the rules and paid, then the exhaustive
    two-step shipping of the independent search: {combo texts: (income, cash)}."""
    from solver.multi import advice as adv
    rs = nxt.ruleset
    limit, _ = rs.advice_limit(nxt)
    options = adv._disc_options(nxt, limit) if nxt.board.nodes else adv._link_options(nxt, limit)
    out = {}
    for cost, combo in [(0, ())] + adv._combinations(options, limit, nxt.me.cash):
        try:
            hyp = adv._apply(nxt, combo) if combo else nxt.clone()
        except InputError:
            continue
        hyp.me.cash -= cost
        hyp.cash = hyp.me.cash
        hyp.turn_phase, hyp.shipments_done = "shipping", 0
        out[tuple(o.text for o in combo)] = _best(hyp)
    return out


def test_kc_advice_weighs_next_turns_power_plant(tmp_path):
    """Issue 41: without the Express Joseph's old advice was "$4 E5, income +3 (best now +0)", counting single
    deliveries only: next turn a power plant and a delivery without building end at income 13 (not "+0"), E5
    at 14, Olathe - C5 - D5 - Kansas City KS at 16. The advice now compares every build (and none) by next
    turn's best shipping; the independent search over every build agrees."""
    from solver.multi.advice import next_turn
    from solver.multi.phases import advise
    from solver.multi.turn import search_turn
    path = kc_sample(tmp_path, act=('action = "interurban-express"\n', ""))
    state = load_state(load_instance(KC), path)
    after = search_turn(state).best.state
    tip = advise(after)
    truth = _every_build_then_best(next_turn(after))
    assert (tip.baseline, tip.baseline_cash) == truth[()] == (13, 19)
    assert (tip.income, tip.income_cash) == max(truth.values())
    e5 = [k for k in truth if k in (("Kansas City KS (D4) - E5 - Harrisonville (E6)",),
                                     ("Kansas City MO (E4) - E5 - Harrisonville (E6)",))]
    assert len(e5) == 2 and all(truth[k] < (tip.income, tip.income_cash) for k in e5)
    assert "E5" not in tip.pieces and tip.income == 16


def test_advice_after_each_sample_turn_is_the_best_build_for_next_turn():
    """On every sample the advice's (income, cash) after next turn is the best of every candidate build
    (and no build), each judged by the rules and the independent exhaustive shipping."""
    from solver.multi.advice import next_turn
    from solver.multi.phases import advise
    from solver.multi.turn import search_turn
    for name in ["portugal", "human-body", "kansas-city"]:   # Finland and Synapses: 10-20 s each, left out
        inst = load_instance(INSTANCES / f"{name}.toml")
        after = search_turn(load_state(inst, INSTANCES / "states" / f"{name}.toml")).best.state
        tip = advise(after)
        truth = _every_build_then_best(next_turn(after))
        assert (tip.income, tip.income_cash) == max(truth.values()), name
        assert (tip.baseline, tip.baseline_cash) == truth[()], name


# -- impossible states (issue 41): one message naming the rule, exit 2 --------------------------------------

FIN = INSTANCES / "finland.toml"
FIN_SAMPLE = INSTANCES / "states" / "finland.toml"


def _write(tmp_path, src, **changes):
    text = src.read_text()
    for old, new in changes.values():
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / "bad.toml"
    path.write_text(text)
    return path


def _refused(run_cli, board, path, words):
    res = run_cli("turn", board, "--state", path)
    assert res.code == 2 and words in res.err and "Traceback" not in res.err, res.err
    assert res.out == ""


def test_kc_longest_delivery_beyond_its_power_plants_is_refused(run_cli, tmp_path):
    """2 links a power plant, Express's extra link moves the marker 1 less: 1 plant never makes a 6."""
    path = _write(tmp_path, KC_SAMPLE, pp=("power_plants = 2", "power_plants = 1"),
                  longest=("longest_delivery = 2", "longest_delivery = 6"))
    _refused(run_cli, KC, path, "longest delivery 6 needs 3 power plants")


def test_finland_sweden_open_below_the_four_links_box_is_refused(run_cli, tmp_path):
    """Sweden opens when the first locomotive reaches the '4 links' box; locomotives never go down."""
    path = _write(tmp_path, FIN_SAMPLE, loco=("locomotive = 4", "locomotive = 3"))
    _refused(run_cli, FIN, path, "every locomotive here is below 4")


def test_finland_closed_sweden_needs_its_box_cubes(run_cli, tmp_path):
    """A closed Sweden keeps the box's 5 cubes: without them a raise to 4 would open an empty Sweden."""
    path = _write(tmp_path, FIN_SAMPLE, loco=("locomotive = 4", "locomotive = 3"),
                  open=("sweden_open = true\nfour_links_box = []", "sweden_open = false"),
                  goods=('"Sweden" = ["red", "blue", "yellow", "purple", "black"]\n', ""))
    _refused(run_cli, FIN, path, "markers.four_links_box")


def test_a_link_looping_back_into_its_own_stop_is_refused(run_cli, tmp_path):
    """A link is the track between two stops (base rules), never from a stop back to itself."""
    path = _write(tmp_path, FIN_SAMPLE, link=('"Lahti-F3-Vantaa"', '"Lahti-F3-F4-Lahti"'))
    res = run_cli("turn", FIN, "--state", path)
    assert res.code == 2 and "loops back into its own stop" in res.err, res.err


def test_turn_agrees_with_the_brute_force_on_random_small_states(tmp_path):
    """A few of benchmarks/multiplayer_brute_force.py's random states per map (the benchmark runs 200): the
    solver's (income, cash) equals the independent brute force's exactly (Synapses: build phases too)."""
    import pytest as _pytest
    from tests.multiplayer_random import MAPS, random_states, truth_and_answer
    for name in MAPS:
        inst = load_instance(INSTANCES / f"{name}.toml")
        for seed, state, _ in random_states(inst, name, 4, 1, tmp_path):
            answer, truth, *_ = truth_and_answer(state)
            if answer != truth:
                _pytest.fail(f"{name} seed {seed}: solver {answer}, brute force {truth}")


def test_answers_write_moves_in_words_with_one_transfer_notation(run_cli):
    """`deliveries` and `turn` both write an interurban transfer as "~"; `--check` and the look-ahead name the
    move in words, not the engine's "ship E4 red E4-H4-..." notation."""
    res = run_cli("deliveries", KC, "--state", KC_SAMPLE)
    assert "Kansas City KS (D4) ~ Kansas City MO (E4)" in res.out
    res = run_cli("deliveries", KC, "--state", KC_SAMPLE, "--check", "red Kansas City MO>Independence")
    assert res.out.startswith("LEGAL: deliver red Kansas City MO (E4) > Independence (H4)") or \
        res.out.startswith("ILLEGAL: deliver red Kansas City MO (E4) > Independence (H4)")
    res = run_cli("turn", KC, "--state", KC_SAMPLE, "--horizon", "2", "--no-advice")
    line = next(x for x in res.out.splitlines() if "next turn then:" in x)
    assert "deliver purple" in line and "ship " not in line and "~" in line
