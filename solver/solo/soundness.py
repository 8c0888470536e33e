"""The soundness fuzzer: random tiny boards, the truth by exhaustive search, every solver claim checked.

A board is a few hexes in one or two rows (3 to 8) with random terrain, stops, towns, cubes, cash,
share limit, prices ($0 terrain, town fees and complex extras, prices above the base, actions out of
reach, a redirect price or none), round limit (1 to 5) and readings (every named reading of the map, any
value). The truth comes from
solver.solo.exhaustive (the engine alone). The claims of `aos-solve easter-island` and `aos-solve zoo`
(the same `analyse` the commands call, with small reproducible budgets) are checked against it:
- a proved minimum equals the truth, and "not clearable" is said only when nothing clears;
- every lower bound is <= the truth, every plan's round count >= it;
- every plan replays through the referee and clears in the round it claims;
- the same for the deep mode's answer (`--prove`, the engines together, claims named "deep: ...");
- every proof engine's claims (solver/solo/proofs): each verdict the answer asked for, and each engine of
  the registry ENGINES asked on its own about every round up to the board's limit: a NO_CLEAR by R
  needs truth > R, a bound needs truth >= bound. A newly registered engine is judged with no change here.
"""
from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from solver.board.hexgrid import Hex
from solver.engine.plan import replay
from solver.engine.readings import for_map, make_rules
from solver.engine.state import GameState
from solver.games import load_instance
from solver.solo.exhaustive import earliest_clear

_SCENARIO = '''max_locomotive = {{ value = 6, source = "assumed", reason = "fuzz" }}
share_price = {{ value = 5, source = "assumed", reason = "fuzz" }}
tile_limit = {{ value = 3, source = "assumed", reason = "fuzz" }}
engineer_tile_limit = {{ value = 4, source = "assumed", reason = "fuzz" }}
income_reduction = {{ value = [[11, 20, 2], [21, 30, 4], [31, 40, 6], [41, 49, 8], [50, 999, 10]], source = "assumed", reason = "fuzz" }}
income_floor = {{ value = -10, source = "assumed", reason = "fuzz" }}
shipments_per_round = {{ value = 2, source = "assumed", reason = "fuzz" }}
'''


@dataclass
class Board:
    """One random tiny game: its board file text, the setup (stop name -> cubes) and its readings."""

    ruleset: str
    text: str
    setup: dict[str, list[str]]
    readings: list[str]
    rounds: int
    seed: int

    def start(self):
        """(instance, rules, setup, the game's first state) of this board (the loader's error if it refuses it)."""
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "board.toml"
            path.write_text(self.text)
            inst = load_instance(path)
        rules = make_rules(self.ruleset, self.readings)
        setup = {_hex_named(inst, name): list(c) for name, c in self.setup.items()}
        return inst, rules, setup, GameState.new(inst, setup, rules, round_limit=self.rounds)


def random_board(seed: int, wide: bool = False, tight: bool = False) -> Board:
    """A random tiny game. Its board: one row of 3 to 6 hexes or two rows of 2 to 4, with 2 to 4 stops and,
    on two-row boards mostly, towns; its prices: random (base prices on some boards; otherwise $0 terrain,
    town fees and complex extras, prices above the base, an upgrade that counts as a tile or not, actions
    priced out of reach, other share prices); 1 to 5 rounds; every named reading of the map at a random value.
    `wide`: 3 rows of 4 or 5 hexes, 3 or 4 stops and 1 or 2 tiles a round, where links cross and share
    hexes and the order in which tiles are laid matters (the link search's point 8).
    `tight`: money is tight: $2 to $8 at the start, room for 2 to 4 shares more, track at $2 to $6 a hex,
    shares at $3 to $7 and 1 to 3 rounds, so plays must issue shares (drawn with a second generator: the
    rest of the board is the one `random_board(seed)` makes)."""
    rng = random.Random(seed)
    money = random.Random(seed * 7919 + 45) if tight else None
    ruleset = rng.choice(["easter-island", "zoo"])
    if wide:
        width, rows = rng.randint(4, 5), 3
    elif rng.random() < 0.55:
        width, rows = rng.randint(3, 6), 1
    else:
        width, rows = rng.randint(2, 4), 2
    hexes = [Hex(c, r) for r in range(rows) for c in range(width)]  # 3 to 8 hexes (wide: 12 to 15)
    terrain = {h: rng.choice(["plain", "plain", "plain", "mountain"]) for h in hexes}
    n_stops = rng.randint(3, 4) if wide else rng.randint(2, min(4, len(hexes) - 1))
    stops = rng.sample(hexes, n_stops)
    rest = [h for h in hexes if h not in stops]
    n_towns = 0
    if rest and rng.random() < (0.6 if rows == 2 else 0.35):
        n_towns = 1 if len(rest) < 3 or rng.random() < 0.7 else 2
    towns = rng.sample(rest, n_towns)
    lines = ["[meta]", f'name = "Fuzz {seed}"', "", "[grid]", 'source = "assumed"', 'reason = "fuzz board"',
             'picture = """']
    for r in range(rows):
        row = []
        for c in range(width):
            h = Hex(c, r)
            row.append("^" if terrain[h] == "mountain" and h not in stops else ".")
        lines.append((" " if r % 2 else "") + " ".join(row))
    lines.append('"""')
    colours = ["red", "blue"]
    city_colour = [rng.choice(colours) for _ in stops]
    names, setup = [], {}
    for i, h in enumerate(stops):
        name = f"S{i}"
        names.append(name)
        lines += ["", "[[cities]]", f'name = "{name}"', f'hex = "{h}"']
        if ruleset == "easter-island":
            lines += [f'colour = "{city_colour[i]}"', f'number = "{i + 1}"', 'region = "western"']
        else:
            lines += [f"danger = {rng.randint(0, 2)}"]
        lines += ['source = "assumed"', 'reason = "fuzz"']
    for i, town in enumerate(towns):
        lines += ["", "[[towns]]", f'name = "T{i}"', f'hex = "{town}"', 'source = "assumed"', 'reason = "fuzz"']
    base = rng.random() < 0.3   # the base prices (as before issue 39), else random ones
    pick = (lambda b, choices: b) if base else (lambda b, choices: rng.choice(choices))  # noqa: E731
    cash = rng.randint(6, 20) if base else rng.choice([0, 2, 4] + list(range(6, 21)))
    max_shares = rng.choice([2, 3, 4])
    a = lambda v: f'{{ value = {v}, source = "assumed", reason = "fuzz" }}'  # noqa: E731
    rounds = rng.choice([2, 2, 3] if wide else [1, 2, 2, 3, 3, 4, 5])
    share_price = pick(5, [3, 5, 5, 7])
    if money is not None:
        cash, max_shares = money.choice([0, 2, 4, 6]), money.choice([3, 4, 4])
        rounds, share_price = money.choice([1, 2, 2, 3]), money.choice([3, 4, 5])
    lines += ["", "[scenario]", f'ruleset = "{ruleset}"', f"rounds = {a(rounds)}", f"start_cash = {a(cash)}",
              f"start_shares = {a(2)}", f"start_income = {a(0)}",
              f"start_locomotive = {a(2 if ruleset == 'easter-island' else 1)}", f"max_shares = {a(max_shares)}"]
    scenario = _SCENARIO.format().rstrip().replace("share_price = { value = 5", f"share_price = {{ value = {share_price}")
    if wide:
        limit = rng.randint(1, 2)
        scenario = scenario.replace("tile_limit = { value = 3", f"tile_limit = {{ value = {limit}").replace(
            "engineer_tile_limit = { value = 4", f"engineer_tile_limit = {{ value = {limit + 1}")
    lines.append(scenario)
    if ruleset == "easter-island":
        lines += [f"action_cost = {a(pick(8, [0, 4, 8, 8, 12, 99]))}",
                  f'actions = {a(["engineer", "locomotive", "urbanization", "rapa-nui"])}',
                  f'new_cities = {a(["black"])}', f"rapa_nui_cash = {a(pick(5, [0, 5, 9]))}",
                  f"bag = {a('{ red = 20, blue = 20 }')}"]
        for i, name in enumerate(names):
            if rng.random() < 0.7 or i == 0:
                # mostly colours some other city has (a cube of no other city's colour never leaves)
                others = [c for j, c in enumerate(city_colour) if j != i] or colours
                setup[name] = [rng.choice(others if rng.random() < 0.85 else colours) for _ in range(rng.randint(1, 2))]
    else:
        lines += [f"action_cost = {a(pick(0, [0, 0, 3, 99]))}",
                  f'actions = {a(["engineer", "locomotive", "urbanization", "feeding"])}',
                  f'new_cities = {a(["black"])}', f"bag = {a('{ red = 20 }')}", f"feeding_discount = {a(1)}",
                  f"new_city_danger = {a(1)}", f"food_per_area = {a(1)}",
                  f"bonus_tiles_pay_cost = {a('true')}"]
        for name in names:
            if rng.random() < 0.7:
                setup[name] = ["red"]
        setup.setdefault(names[0], ["red"])
    plain = rng.choice([2, 3, 4]) if base else rng.choice([0, 1, 2, 3, 4, 6])
    mountain = rng.choice([4, 5]) if base else rng.choice([0, 2, 4, 5, 7])
    if money is not None:
        plain, mountain = money.choice([1, 2, 3]), money.choice([2, 4, 5])
    lines += ["", "[scenario.track_cost]", f"plain = {a(plain)}", f"mountain = {a(mountain)}",
              f"town_base = {a(pick(1, [0, 1, 2]))}", f"town_per_track = {a(pick(1, [0, 1, 2]))}"]
    if ruleset == "zoo":
        lines.append(f"engineer = {a(pick(2, [0, 1, 2, 3]))}")
    counts = ", ".join(f'"{k}" = {len(v)}' for k, v in setup.items())
    diff = "easy" if ruleset == "easter-island" else "standard"
    lines += ["", f"[difficulty.{diff}]", f"cubes = {{ value = {{ {counts} }}, source = \"assumed\", reason = \"fuzz\" }}"]
    lines += ["", "[map_rules]", f"complex_crossing_extra = {a(pick(2, [0, 1, 2, 4]))}",
              f"complex_noncrossing_extra = {a(pick(1, [0, 1, 2, 3]))}",
              f"upgrade_to_crossing_cost = {a(pick(3, [0, 1, 3, 5]))}",
              f"upgrade_counts_as_tile = {a(pick('true', ['true', 'false']))}"]
    readings = []
    for r in for_map(ruleset):
        if r.name == "bag":
            continue
        if rng.random() < 0.35:
            readings.append(f"{r.name}={rng.choice(r.values).name}")
    if rng.random() < 0.7:  # the base rule "Redirecting an incomplete track: $2" at a random price (drawn last,
        lines.append(f"redirect_cost = {a(rng.choice([0, 1, 2, 2, 5]))}")  # so the boards before it are the same)
    return Board(ruleset, "\n".join(lines) + "\n", setup, readings, rounds, seed)


@dataclass
class Outcome:
    seed: int
    ruleset: str
    settled: bool
    truth: int | None = None
    claims: dict = field(default_factory=dict)     # claim kind -> count checked
    false: list = field(default_factory=list)      # (claim, detail) of every false claim
    error: str | None = None                       # the board was refused by the loader (not a claim)
    limit: int | None = None                       # the board's round limit (the truth searched up to it)
    shares: int | None = None                      # fewest shares at a clear in round `truth` (None: not settled)


def check_board(board: Board, max_nodes: int = 8_000, budget: int = 200, deep: bool = True) -> Outcome:
    """The truth for one board and every claim of the solver on it: the answer of the default mode and
    (`deep`) of the deep mode, each with the proof engines together, and every engine alone."""
    from solver.solo.settings import SolveParams
    out = Outcome(board.seed, board.ruleset, False)
    try:
        inst, rules, setup, state = board.start()
    except Exception as err:  # noqa: BLE001 - a generator slip is reported, never hidden
        out.error = f"board refused: {err}"
        return out
    truth = earliest_clear(state, max_nodes=max_nodes, fewest_shares=True)
    if not truth.settled:
        return out
    out.settled, out.truth, out.limit = True, truth.earliest, board.rounds
    out.shares = truth.fewest_shares if truth.shares_settled else None
    params = SolveParams(workers=1, deterministic_time=2.0, plan_time=2.0)
    if board.ruleset == "easter-island":
        from solver.solo.easter_island import analyse
    else:
        from solver.solo.zoo import analyse
    diff = "easy" if board.ruleset == "easter-island" else "standard"
    answer = analyse(inst, diff, setup, rules, rounds=board.rounds, time_limit=30, budget=budget, params=params)
    _judge(out, inst, answer, truth.earliest)
    _judge_shares(out, answer)
    if deep:
        # the deep mode (`--prove`): every engine asked together, each with its own small budget
        import dataclasses
        deep_params = dataclasses.replace(params, prove=True, prove_time=params.deterministic_time)
        answer = analyse(inst, diff, setup, rules, rounds=board.rounds, time_limit=30, budget=budget,
                         params=deep_params)
        _judge(out, inst, answer, truth.earliest, prefix="deep: ")
        _judge_shares(out, answer, prefix="deep: ")
    _judge_verdicts(out, engines_alone(inst, state, rules, params, board.rounds), truth.earliest)
    if out.shares is not None:
        for b in shares_engines_alone(inst, state, rules, params, truth.earliest):
            _claim(out, f"{b.engine} shares: bound", b.lower is None or b.lower <= out.shares,
                   f"{b.engine} says at least {b.lower} shares by round {b.rounds}; truth {out.shares}")
    return out


def shares_engines_alone(inst, state, rules, params, rounds: int) -> list:
    """Every shares engine (solver/solo/proofs/shares.py) asked on its own at `rounds`, in the default and the
    deep mode (`--prove`, small budget): their SharesBound answers."""
    import dataclasses
    from solver.solo.proofs.shares import SHARES_ENGINES, ask_shares
    out = []
    for mode in (params, dataclasses.replace(params, prove=True, prove_time=params.deterministic_time)):
        if inst.scenario.ruleset == "zoo":
            from solver.solo.zoo import proof_position
            position = proof_position(inst, state, rules, None, mode)
        else:
            from solver.solo.easter_island import proof_position
            position = proof_position(inst, state, rules, None, mode, time_limit=30)
        out += [ask_shares(engine, position, rounds, mode) for engine in SHARES_ENGINES]
    return out


def _judge_shares(out: Outcome, answer, prefix: str = "") -> None:
    """The answer's fewest-shares claims (answer.search.shares, at its proved minimum round count) against
    the exhaustive fewest shares at the true minimum (only where the answer's round count is the truth)."""
    shares = getattr(getattr(answer, "search", None), "shares", None)
    if not shares or out.shares is None or shares.get("rounds") != out.truth:
        return
    low = shares.get("lower_bound")
    _claim(out, prefix + "shares lower bound", low is None or low <= out.shares,
           f"shares lower bound {low} > truth {out.shares} at {out.truth} rounds")
    if shares.get("proved"):
        _claim(out, prefix + "fewest shares proved", shares["upper_bound"] == out.shares,
               f"fewest shares proved {shares['upper_bound']}, truth {out.shares} at {out.truth} rounds")


def engines_alone(inst, state, rules, params, last_round: int) -> list[dict]:
    """Every registered proof engine asked on its own (no bound from another engine) about each round from
    the state's up to `last_round`, in the default mode and in the deep mode (`--prove`, here with a small
    budget); the verdicts as answer.search.proofs records them."""
    import dataclasses
    from solver.solo.proofs import ENGINES, ask
    asked = []
    for mode in (params, dataclasses.replace(params, prove=True, prove_time=params.deterministic_time)):
        if inst.scenario.ruleset == "zoo":
            from solver.solo.zoo import proof_position
            position = proof_position(inst, state, rules, None, mode)
        else:
            from solver.solo.easter_island import proof_position
            position = proof_position(inst, state, rules, None, mode, time_limit=30)
        for engine in ENGINES:
            for last in range(state.round, last_round + 1):
                ask(engine, position, last)
        asked += position.asked
    return asked


def _hex_named(inst, name: str):
    for h, city in inst.board.cities.items():
        if city.name == name:
            return h
    raise KeyError(name)


def _claim(out: Outcome, kind: str, ok: bool, detail: str) -> None:
    out.claims[kind] = out.claims.get(kind, 0) + 1
    if not ok:
        out.false.append((kind, detail))


def _judge(out: Outcome, inst, answer, truth: int | None, prefix: str = "") -> None:
    """The answer's own claims (`prefix` names the mode, "deep: " for `--prove`) and its engines' verdicts."""
    if answer.verdict == "not clearable":
        _claim(out, prefix + "not clearable", truth is None, f"said not clearable; clears in round {truth}")
    if truth is not None:
        _claim(out, prefix + "lower bound", answer.lower_bound <= truth,
               f"lower bound {answer.lower_bound} > truth {truth}")
    if answer.min_rounds_proved and answer.verdict == "clearable":
        _claim(out, prefix + "proved minimum", answer.upper_bound == truth,
               f"proved minimum {answer.upper_bound}, truth {truth}")
    if answer.plan is not None:
        result = replay(inst, answer.plan)
        cleared = result.state.cleared_round
        _claim(out, prefix + "plan replays", result.error is None and cleared is not None,
               f"plan: {result.error or 'does not clear'}")
        if cleared is not None:
            _claim(out, prefix + "plan rounds",
                   truth is not None and cleared >= truth and cleared == answer.upper_bound,
                   f"plan clears in {cleared}, answer says {answer.upper_bound}, truth {truth}")
    _judge_verdicts(out, getattr(getattr(answer, "search", None), "proofs", None) or [], truth)


def _judge_verdicts(out: Outcome, verdicts: list[dict], truth: int | None) -> None:
    """The claims of proof-engine verdicts, kind named after the engine: "ENGINE: no clear by R" holds when
    nothing clears by R (truth None: nothing clears by the board's limit, so only R up to it is checked);
    "ENGINE: bound" holds when the truth is not below it."""
    from solver.solo.proofs import NO_CLEAR
    for v in verdicts:
        engine, last, bound = v["engine"], v["last_round"], v.get("bound")
        if v["status"] == NO_CLEAR and (truth is not None or out.limit is None or last <= out.limit):
            _claim(out, f"{engine}: no clear", truth is None or truth > last,
                   f"{engine} says no play clears by round {last}; truth {truth}")
        if bound is not None and truth is not None:
            _claim(out, f"{engine}: bound", bound <= truth, f"{engine} bound {bound} > truth {truth}")
