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

    def solve(self, difficulty: str, seed: int, time_limit: float, options: dict, plans_dir: str | None = None,
              reading_set: str = "default") -> dict:
        """One record; with ``plans_dir`` its plan page is written there first (whole or not at all)."""
        module, func = self.solver.split(":")
        solve = getattr(importlib.import_module(module), func)
        if plans_dir is None:
            return solve(difficulty, seed, time_limit, **options)
        page = pathlib.Path(plans_dir) / page_name(self.name, difficulty, seed, reading_set)
        if self.kind == "clear":
            return solve(difficulty, seed, time_limit, **options, on_answer=_solo_page_writer(self.name, page))
        return solve(difficulty, seed, time_limit, **options, page=page)


def page_name(scenario: str, difficulty: str, seed: int, reading_set: str) -> str:
    """The file name of a setup's plan page: scenario, difficulty, seed, and the reading set unless default."""
    slug = "" if reading_set in ("default", "unrecorded") else "-" + "".join(
        c if c.isalnum() or c == "-" else "_" for c in reading_set)
    return f"{scenario}-{difficulty}-seed-{seed}{slug}.html"


def _kept(page: pathlib.Path, write) -> dict:
    """Write a plan page atomically; the record names it relative to the run folder (plans/NAME)."""
    from solver.report.output import write_atomic
    try:
        write_atomic(page, write())
    except (OSError, InputError) as err:
        return {"plan_page_error": str(err)}
    return {"plan_page": f"{page.parent.name}/{page.name}"}


def _solo_page_writer(name: str, page: pathlib.Path):
    """The solo solvers' on_answer hook: the same round-by-round page as `--html`, from the referee's replay."""
    def on_answer(inst, difficulty, setup, answer, rules, seed) -> dict:
        from solver.report.plan_pages import plan_page
        if name == "zoo":
            from solver.report.zoo_report import zoo_answer_json
            data = zoo_answer_json(inst, difficulty, setup, answer, rules, seed)
        else:
            from solver.report.solo_report import answer_json
            data = answer_json(inst, name, difficulty, setup, answer, rules, seed)
        return _kept(page, lambda: plan_page(inst, answer.plan, data))
    return on_answer


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


def desert_batch_solve(challenge: str, seed: int, time_limit: float, page: pathlib.Path | None = None,
                       **_ignored) -> dict:
    """A Desert solo game as a batch record: proved when the layout solver finished (optimal or infeasible).

    With ``page``, the game's page (as `desert game --html` writes it) is written there."""
    from solver.desert.game import load_setup, run_game
    from solver.desert.market import draw_market

    setup = load_setup()
    game = run_game(challenge, seed, time_limit, setup=setup)
    record = {k: v for k, v in game.items() if not k.startswith("_")}
    if page is not None:
        from solver.report.desert_page import game_page
        market = draw_market(seed, setup.tileset, setup.ruleset)
        record.update(_kept(page, lambda: game_page(setup, setup.challenges.get(challenge), game, market)))
    record["proved"] = record.get("proof") in ("optimal", "infeasible")
    record["verdict"] = ("mission met" if record.get("mission_met") else
                         "mission not met" if record["proved"] else "unknown")
    return record
