"""The scenarios a batch can run, each as one function: (difficulty, seed, time limit) -> record.

A record is a JSON-ready dict with at least `verdict` and `proved`; the rest
(min rounds, shares, cash, cost, score, stars) is whatever the report can use.
Adding a scenario is adding an entry here.
"""
from __future__ import annotations

import importlib
import pathlib
from dataclasses import dataclass

from solver.board.errors import InputError


@dataclass(frozen=True)
class BatchScenario:
    name: str
    difficulties: tuple[str, ...]   # difficulty or challenge names
    solver: str                     # "module:function"
    kind: str                       # "clear" (rounds/shares/cash) or "score" (points/stars)

    def difficulties_for(self, options: dict) -> tuple[str, ...]:
        """The difficulties of the board file given with --instance, else the shipped ones."""
        if options.get("instance") and self.kind == "clear":
            from solver.games import load_instance
            inst = load_instance(options["instance"])
            if inst.scenario.ruleset != self.name:
                raise InputError(f"a {inst.scenario.ruleset} board, not a {self.name} one", f"--instance {inst.path}")
            return tuple(inst.difficulties)
        return self.difficulties

    def solve(self, difficulty: str, seed: int, time_limit: float, options: dict) -> dict:
        module, func = self.solver.split(":")
        return getattr(importlib.import_module(module), func)(difficulty, seed, time_limit, **options)


SCENARIOS = {
    "easter-island": BatchScenario("easter-island", ("easy", "normal", "hard"),
                                   "solver.solo.easter_island:batch_solve", "clear"),
    "zoo": BatchScenario("zoo", ("standard",), "solver.solo.zoo:batch_solve", "clear"),
    "desert": BatchScenario("desert", ("sharp-boundary", "lost-world", "desert-of-death"),
                            "solver.batch.scenarios:desert_batch_solve", "score"),
}


def scenario(name: str) -> BatchScenario:
    if name not in SCENARIOS:
        raise InputError(f"unknown scenario {name!r} (known: {', '.join(SCENARIOS)})", "SCENARIO")
    return SCENARIOS[name]


def desert_batch_solve(challenge: str, seed: int, time_limit: float, **_ignored) -> dict:
    """A Desert solo game as a batch record: proved when the layout solver finished (optimal or infeasible)."""
    from solver.desert.game import solve_seed

    record = solve_seed(challenge, seed, time_limit)
    record["proved"] = record.get("proof") in ("optimal", "infeasible")
    record["verdict"] = ("mission met" if record.get("mission_met") else
                         "mission not met" if record["proved"] else "unknown")
    return record
