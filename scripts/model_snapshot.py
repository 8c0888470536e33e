"""Save the CP-SAT relaxation and restriction models' Proto text on fixed setups, to compare before and
after a refactoring of models/solo_game (the model must stay identical, variable for variable):

    python scripts/model_snapshot.py OUT_DIR   # then: diff -r BEFORE AFTER

Easter Island (four setups of the full board, two tiny boards; readings strict-action, idle-actions,
clear-and-under, end-of-game varied): the relaxation for 4 and 6 rounds and without its link layer, the
restriction hard and soft; the Zoo (two full-board setups, the tiny board): the relaxation for 5 and 8 rounds.
"""
from __future__ import annotations

import dataclasses
import hashlib
import pathlib
import sys

from models.solo_game import build_relaxation
from models.solo_game.restriction import build_restriction
from solver.engine.setup import draw_setup
from solver.engine.state import GameState, Rules
from solver.games import load_instance
from solver.solo.island_plans import plan_spec
from solver.solo.relaxation import game_spec
from solver.solo.zoo import potential_graph

ROOT = pathlib.Path(__file__).resolve().parent.parent
ISLAND = [("instances/easter-island.toml", "easy", 1, {}), ("instances/easter-island.toml", "hard", 2, {}),
          ("instances/easter-island.toml", "normal", 3, dict(strict_action=True, idle_actions=True)),
          ("instances/easter-island.toml", "easy", 4, dict(clear_when_under=True, end_of_game="round-track")),
          ("instances/tiny/tiny-island.toml", "easy", 3, {}),
          ("instances/tiny/tiny-island-cash.toml", "easy", 2, dict(strict_action=True))]
ZOO = [("instances/zoo.toml", 1, {}), ("instances/zoo.toml", 2, dict(feed_new_cities=False, idle_actions=True)),
       ("instances/tiny/tiny-zoo.toml", 4, {})]


def main(out: pathlib.Path) -> None:
    out.mkdir(parents=True, exist_ok=True)

    def dump(name: str, model) -> None:
        text = str(model.Proto())
        (out / f"{name}.txt").write_text(text)
        print(name, len(text), hashlib.sha1(text.encode()).hexdigest()[:12])

    for path, difficulty, seed, readings in ISLAND:
        inst = load_instance(ROOT / path)
        rules = Rules(**readings)
        state = GameState.new(inst, draw_setup(inst, difficulty, seed, rules=rules), rules)
        tag = f"{pathlib.Path(path).stem}-{difficulty}-{seed}-{len(readings)}"
        spec = game_spec(state, network_tiles=6)  # a fixed network bound: no Steiner solve
        for last in (4, 6):
            dump(f"relax-{tag}-R{last}", build_relaxation(spec, last).model)
        dump(f"relax-weak-{tag}", build_relaxation(dataclasses.replace(spec, link_pairs=(), join=()), 5).model)
        plan = plan_spec(state)
        for soft in (False, True):
            dump(f"restrict-{tag}-soft{int(soft)}", build_restriction(plan, 5, soft=soft).model)
    for path, seed, readings in ZOO:
        inst = load_instance(ROOT / path)
        rules = Rules(**readings)
        state = GameState.new(inst, draw_setup(inst, "standard", seed, rules=rules), rules)
        spec = game_spec(state, zoo_graph=potential_graph(inst, rules))
        for last in (5, 8):
            dump(f"relax-{pathlib.Path(path).stem}-{seed}-R{last}", build_relaxation(spec, last).model)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: python scripts/model_snapshot.py OUT_DIR", file=sys.stderr)
        sys.exit(2)
    main(pathlib.Path(sys.argv[1]))
