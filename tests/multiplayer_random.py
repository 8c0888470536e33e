"""Random small multiplayer states for the brute-force check of `turn` (issue 41's "Done when").

A state is the map's sample state with its goods, the active player's money, locomotive (Kansas City: power
plants, Delivery marker, action, final turn), round and a random subset of the player's links redrawn from a
seed, written as a STATE file and read by the state loader (the referee): a draw the loader refuses is
counted and skipped, never judged. The truth is the independent exhaustive search of
tests/test_multiplayer_exhaustive.py (its own route walk, the ruleset's why_illegal only).
"""
from __future__ import annotations

import random
import tomllib
from pathlib import Path

from solver.board.errors import InputError
from solver.multi.state import load_state

ROOT = Path(__file__).resolve().parent.parent
MAPS = ["finland", "portugal", "synapses", "human-body", "kansas-city"]
COLOURS = ["red", "blue", "yellow", "purple", "black"]


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return '"' + v.replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise TypeError(v)


def dump(data: dict) -> str:
    out = []
    for table, body in data.items():
        if table == "players":
            for name, spec in body.items():
                out.append(f'[players."{name}"]')
                out += [f"{k} = {_value(v)}" for k, v in spec.items()]
                out.append("")
            continue
        out.append(f"[{table}]")
        out += [f'"{k}" = {_value(v)}' if table in ("goods", "new_cities") else f"{k} = {_value(v)}"
                for k, v in body.items()]
        out.append("")
    return "\n".join(out)


def random_state_text(instance, name: str, seed: int) -> str:
    rng = random.Random(f"{name}-{seed}")
    data = tomllib.loads((ROOT / "instances" / "states" / f"{name}.toml").read_text())
    game, rs = data["game"], instance.ruleset
    active = game["active"]
    me = data["players"][active]
    board = instance.board
    places = sorted(c.name for c in board.cities.values())
    if name == "kansas-city":
        places += sorted(t.name for t in board.towns.values())
    goods = {k: v for k, v in data.get("goods", {}).items() if k not in places}   # zones keep theirs
    for p in places:
        n = rng.choice([0, 0, 1, 1, 2])
        if n:
            goods[p] = [rng.choice(COLOURS) for _ in range(n)]
    data["goods"] = goods
    me["cash"] = rng.randint(0, 12)
    me["income"] = rng.randint(0, 8)
    links = me.get("links")
    if links:
        keep = [lk for lk in links if rng.random() < 0.8]
        me["links"] = keep or links[:1]
    if name == "kansas-city":
        pp = rng.randint(0, 3)
        me["power_plants"] = pp
        me["longest_delivery"] = rng.randint(0, 2 * pp)
        game["round"] = rng.randint(pp + 1, 9)
        game["final_turn"] = rng.random() < 0.25
        game.pop("action", None)
        if rng.random() < 0.5:
            game["action"] = "interurban-express"
    elif name == "finland":
        me["locomotive"] = rng.randint(4, 5)    # Sweden is open in the sample: someone reached the box
    elif name != "human-body":                  # Human Body: the round fixes the breath and the covered tile
        me["locomotive"] = rng.randint(1, min(4, 2 * game["round"] - 1))
    if name == "synapses":
        discs = me.get("discs", [])
        me["discs"] = [d for d in discs if rng.random() < 0.8]
        if rng.random() < 0.5:      # the build phase: discs, the round's discs so far, the Engineer's shared disc
            game["phase"] = "build"
            game["action"] = rng.choice(["engineer", "engineer", "production"])
            me["discs_this_round"] = [d for d in me["discs"] if rng.random() < 0.3][:2]
    return dump(data)


class BruteForceTimeout(Exception):
    pass


def truth_and_answer(state, brute_seconds: float | None = None):
    """(the solver's (income, cash), the independent brute force's, the CPU seconds of each, the (income, cash)
    of doing nothing): `turn`'s shipping search against the exhaustive route walk; in Synapses' build phase
    `search_build_turn` against every disc placement."""
    import time
    from solver.multi.phases import BUILD_PHASES, search_build_turn
    from solver.multi.turn import search_turn
    from tests.test_multiplayer_exhaustive import _best
    from tests.test_multiplayer_turn_choices import brute_force_discs
    build = state.turn_phase in BUILD_PHASES
    t0 = time.process_time()
    answer = search_build_turn(state).key if build else search_turn(state).best.key
    t1 = time.process_time()
    if brute_seconds:
        import signal

        def stop(*_):
            raise BruteForceTimeout()
        old = signal.signal(signal.SIGALRM, stop)
        signal.setitimer(signal.ITIMER_REAL, brute_seconds)
    try:
        truth = brute_force_discs(state) if build else _best(state)
    finally:
        if brute_seconds:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    t2 = time.process_time()
    idle = state.clone()
    acc = state.ruleset.income_phase(idle)
    return answer, truth, t1 - t0, t2 - t1, (acc["income"], acc["cash"])


def random_states(instance, name: str, count: int, first_seed: int, tmp: Path):
    """Yield (seed, state) for `count` states the loader accepts, and the number it refused."""
    seed, made, refused = first_seed, 0, 0
    while made < count:
        path = tmp / f"{name}-{seed}.toml"
        path.write_text(random_state_text(instance, name, seed))
        try:
            state = load_state(instance, path)
        except InputError:
            refused += 1
            seed += 1
            continue
        made += 1
        yield seed, state, refused
        seed += 1
