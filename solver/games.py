"""Every map the tool knows, and the one way to load a board file with its rules.

This module sits above the engine and the multiplayer rules: it names every
ruleset, hands the right one to the board reader (which knows no rules), and
finds the instance files shipped with the repository. Everything that loads a
board goes through `load_instance` here.
"""
from __future__ import annotations

import pathlib
from pathlib import Path

from solver.board.errors import InputError
from solver.board.instance import Instance, read_instance
from solver.engine.maps.easter_island import EasterIsland
from solver.engine.maps.zoo import Zoo
from solver.engine.ruleset import Ruleset
from solver.multi.maps.finland import Finland
from solver.multi.maps.human_body import HumanBody
from solver.multi.maps.kansas_city import KansasCity
from solver.multi.maps.portugal import Portugal
from solver.multi.maps.synapses import Synapses

#: one object per map; rulesets hold no state, so one of each serves every game
RULESETS: dict[str, Ruleset] = {
    "base": Ruleset(), "easter-island": EasterIsland(), "zoo": Zoo(), "finland": Finland(), "portugal": Portugal(),
    "synapses": Synapses(), "human-body": HumanBody(), "kansas-city": KansasCity(),
}

REPO = pathlib.Path(__file__).resolve().parent.parent


def ruleset_for(name: str) -> Ruleset:
    if name not in RULESETS:
        raise InputError(f"unknown ruleset {name!r} (known: {', '.join(RULESETS)})", "scenario.ruleset")
    return RULESETS[name]


def load_instance(path: str | pathlib.Path) -> Instance:
    """Read a board file and attach its map's ruleset (exit-2 errors name the file and key)."""
    return read_instance(path, RULESETS)


def default_instance(name: str) -> Path:
    """instances/NAME.toml in the working folder, else beside the installed package."""
    for base in (Path.cwd(), REPO):
        path = base / "instances" / f"{name}.toml"
        if path.exists():
            return path
    raise InputError(f"cannot find instances/{name}.toml; give the board file with --instance", "--instance")


#: the rulesets played alone from a difficulty's setup (`aos-solve easter-island`, `aos-solve zoo`)
SOLO = ("easter-island", "zoo")


def board_warnings(inst: Instance) -> list[str]:
    """What a valid board still lacks to be solved (shown by `map validate` and the board editor)."""
    out = []
    if inst.scenario.ruleset in SOLO and not inst.difficulties:
        out.append(f"no difficulty: `aos-solve {inst.scenario.ruleset}` needs at least one "
                   "([difficulty.NAME] with the cubes on each stop; the board editor's Difficulties)")
    return out
