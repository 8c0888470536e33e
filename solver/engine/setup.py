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

Setup = dict[Hex, list[str]]  # stop -> cubes, bottom first


def difficulty_of(instance: Instance, name: str):
    if not isinstance(name, str) or name not in instance.difficulties:
        known = ", ".join(instance.difficulties) or "none"
        raise InputError(f"unknown difficulty {name!r} (this map has: {known})", "--difficulty")
    return instance.difficulties[name]


def draw_setup(instance: Instance, difficulty: str, seed: int, bag: dict[str, int] | None = None) -> Setup:
    """Draw every cube from the bag, stop by stop in board order, bottom cube first."""
    diff = difficulty_of(instance, difficulty)
    bag = [c for c, n in sorted((bag or instance.scenario.bag).items()) for _ in range(n)]
    need = sum(diff.cubes.values())
    if need > len(bag):
        raise InputError(f"the difficulty needs {need} cubes but the bag holds {len(bag)}", "scenario.bag")
    rng = random.Random(seed)
    rng.shuffle(bag)
    out: Setup = {}
    for h in sorted(diff.cubes):
        out[h] = [bag.pop() for _ in range(diff.cubes[h])]
    return out


def setup_from_mapping(instance: Instance, difficulty: str, mapping: dict, where: str) -> Setup:
    """Check a {stop: [bottom, ..., top]} mapping against the difficulty and the bag."""
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
    for colour, n in counts.items():
        if n > instance.scenario.bag.get(colour, 0):
            raise InputError(f"{n} {colour} cubes, but the bag holds only {instance.scenario.bag.get(colour, 0)}",
                             where)
    return out


def load_setup(path: str, instance: Instance, difficulty: str) -> Setup:
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
    table = data.get("setup", data) if isinstance(data, dict) else data
    return setup_from_mapping(instance, difficulty, table, path)


def setup_to_json(instance: Instance, setup: Setup) -> dict[str, list[str]]:
    return {str(h): list(cubes) for h, cubes in sorted(setup.items())}


#: more cubes of one colour than any bag could hold (the base game has 96 cubes in all)
MAX_BAG_COUNT = 1000


def parse_bag(text: str) -> dict[str, int]:
    """'red=20,blue=20,yellow=20' -> a bag that replaces the instance's (reported as an assumption)."""
    bag: dict[str, int] = {}
    for part in text.split(","):
        colour, _, count = part.partition("=")
        colour = colour.strip()
        if colour not in COLOURS or not count.strip().isdigit():
            raise InputError(f"expected COLOUR=COUNT pairs like 'red=20,blue=20' with colours "
                             f"{', '.join(COLOURS)}; got {part!r}", "--bag")
        bag[colour] = int(count)
        if bag[colour] > MAX_BAG_COUNT:
            raise InputError(f"{bag[colour]} {colour} cubes is more than a bag can hold (at most {MAX_BAG_COUNT} "
                             "of a colour)", "--bag")
    return bag
