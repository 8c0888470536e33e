"""The cubes on the board at the start: drawn from the bag with a seed, or read from a file."""
from __future__ import annotations

import json
import pathlib
import random
import tomllib
from collections import Counter

from solver.board.board import COLOURS
from solver.board.errors import InputError
from solver.board.hexgrid import Hex
from solver.board.instance import Instance
from solver.engine.readings import BY_NAME, bag_for, parse_bag as _parse_bag
from solver.engine.state import Rules

Setup = dict[Hex, list[str]]  # stop -> cubes, bottom first


def difficulty_of(instance: Instance, name: str):
    if not isinstance(name, str) or name not in instance.difficulties:
        if not instance.difficulties:
            raise InputError(f"this board has no difficulty to set up (asked for {name!r}): add a "
                             "[difficulty.NAME] table with the cubes on each stop (the board editor's Difficulties)",
                             "--difficulty")
        known = ", ".join(instance.difficulties)
        raise InputError(f"unknown difficulty {name!r} (this map has: {known})", "--difficulty")
    return instance.difficulties[name]


def draw_setup(instance: Instance, difficulty: str, seed: int, bag: dict[str, int] | None = None,
               rules: Rules = Rules()) -> Setup:
    """Draw every cube from the bag, stop by stop in board order, bottom cube first.

    The bag is `bag` if given, else the one the `bag` reading in `rules` names.
    """
    diff = difficulty_of(instance, difficulty)
    bag = [c for c, n in sorted((bag or bag_for(instance, rules)).items()) for _ in range(n)]
    need = sum(diff.cubes.values())
    if need > len(bag):
        raise InputError(f"the difficulty needs {need} cubes but the bag holds {len(bag)}", "scenario.bag")
    rng = random.Random(seed)
    rng.shuffle(bag)
    out: Setup = {}
    for h in sorted(diff.cubes):
        out[h] = [bag.pop() for _ in range(diff.cubes[h])]
    return out


def setup_from_mapping(instance: Instance, difficulty: str, mapping: dict, where: str,
                       rules: Rules = Rules()) -> Setup:
    """Check a {stop: [bottom, ..., top]} mapping against the difficulty and the bag the readings name."""
    diff = difficulty_of(instance, difficulty)
    if not isinstance(mapping, dict):
        raise InputError("expected a table of stop = [bottom cube, top cube]", where)
    out: Setup = {}
    for name, cubes in mapping.items():
        h = instance.board.stop_by_name(str(name))
        if h is None:
            raise InputError(f"{name!r} is not a stop on {instance.board.name}", f"{where}, key '{name}'")
        if not isinstance(cubes, list) or not all(isinstance(c, str) for c in cubes):
            raise InputError("expected a list of cube colours, bottom first", f"{where}, key '{name}'")
        bad = [c for c in cubes if c not in COLOURS]
        if bad:
            raise InputError(f"unknown cube colour(s) {bad} (expected {', '.join(COLOURS)})", f"{where}, key '{name}'")
        if h in out:
            raise InputError(f"{name!r} is given twice", where)
        out[h] = list(cubes)
    for h, n in diff.cubes.items():
        got = len(out.get(h, []))
        if got != n:
            raise InputError(f"{instance.board.label(h)} holds {n} cube(s) in {difficulty}, the setup gives {got}",
                             where)
    extra = [instance.board.label(h) for h in out if h not in diff.cubes and out[h]]
    if extra:
        raise InputError(f"no cubes start on {', '.join(extra)} in {difficulty}", where)
    counts = Counter(c for cubes in out.values() for c in cubes)
    bag = bag_for(instance, rules)
    for colour, n in counts.items():
        if n > bag.get(colour, 0):
            hint = (f" under the reading bag={rules.bag} (--reading bag=full draws from the full base bag)"
                    if BY_NAME["bag"].applies_to(instance.scenario.ruleset) else "")
            raise InputError(f"{n} {colour} cubes, but the bag holds only {bag.get(colour, 0)}{hint}", where)
    return out


def read_setup_table(path: str):
    """A setup file's table (TOML, or JSON by its suffix; an optional [setup] wraps it), or an exit-2 error."""
    p = pathlib.Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot read the setup file ({err.strerror})", path) from None
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (byte {err.start}); save the file as UTF-8", path) from None
    try:
        data = json.loads(text) if p.suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as err:
        raise InputError(f"not valid {'JSON' if p.suffix == '.json' else 'TOML'}: {err}", path) from None
    return data.get("setup", data) if isinstance(data, dict) else data


def load_setup(path: str, instance: Instance, difficulty: str, rules: Rules = Rules()) -> Setup:
    return setup_from_mapping(instance, difficulty, read_setup_table(path), path, rules)


def setup_to_json(instance: Instance, setup: Setup) -> dict[str, list[str]]:
    return {str(h): list(cubes) for h, cubes in sorted(setup.items())}


def parse_bag(text: str) -> dict[str, int]:
    """'red=20,blue=20,yellow=20' -> a bag that replaces the instance's (reported as a reading)."""
    return _parse_bag(text, "--bag")
