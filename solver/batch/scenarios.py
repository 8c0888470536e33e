"""The scenarios a batch can run, each as one function: (difficulty, seed, mode, options) -> record.

A record is a JSON-ready dict with at least `verdict` and `proved`; the rest
(min rounds, shares, cash, cost, score, stars) is whatever the report can use.
Adding a scenario is adding an entry here.

Every batch solve runs in the solvers' reproducible mode (`Mode`): the plan
search stops after a number of round plans and CP-SAT after a number of its
deterministic work units with a fixed number of workers, so the machine's load
or a cluster changes how long a solve takes, never its answer. The runner's
wall-clock cap (solver/batch/wallcap.py) is only a safety net.
"""
from __future__ import annotations

import dataclasses
import importlib
import pathlib
from dataclasses import dataclass

from solver.board.errors import InputError
from solver.solo.settings import Settings

#: the single commands' wall-clock allowance for the network optimizers inside a solve (`aos-solve
#: easter-island`'s --time-limit default): they finish with proof on the shipped boards, so it bounds
#: nothing there, and a batch record equals the single command's answer for the same seed
SOLO_NETWORK_SECONDS = 60.0


@dataclass(frozen=True)
class Mode:
    """What bounds a batch solve: work units only (the answer depends on these and nothing else).

    The defaults are `aos-solve easter-island`'s and `aos-solve zoo`'s own (benchmarks/easter_island.py
    measures them); `cp_time` None is the scenario's default (1 unit per relaxation model for the solo
    maps, 20 units of the layout model for the Desert). `prove` asks for the solvers' deep proof mode."""

    work: int = Settings.work                      # round plans per beam variant (solo maps)
    cp_time: float | None = None  # CP-SAT deterministic units: per relaxation model (solo), the layout model (Desert)
    plan_cp_time: float = Settings.plan_cp_time      # the CP-SAT plan model (solo maps); 0 skips it
    shares_cp_time: float = Settings.shares_cp_time  # the plan model once it only looks for fewer shares (solo maps)
    cp_workers: int = Settings.cp_workers            # fixed, so CP-SAT repeats its search
    prove: bool = Settings.prove                     # the deep proof mode (issue 29)

    def cp_units(self, kind: str) -> float:
        return self.cp_time if self.cp_time is not None else (20.0 if kind == "score" else 1.0)

    def check(self) -> None:
        """Exit-2 errors naming the option, before any solve."""
        if self.work < 1:
            raise InputError(f"expected at least 1 round plan, got {self.work}", "--work")
        for value, flag, least in ((self.cp_time, "--cp-time", None), (self.plan_cp_time, "--plan-cp-time", 0),
                                   (self.shares_cp_time, "--shares-cp-time", 0)):
            if value is None:
                continue
            if not (value > 0 if least is None else value >= 0) or value == float("inf") or value != value:
                raise InputError(f"expected a finite number of work units {'above' if least is None else 'of'} 0"
                                 f"{'' if least is None else ' or more'}, got {value:g}", flag)
        if self.cp_workers < 1:
            raise InputError(f"expected at least 1 worker, got {self.cp_workers}", "--cp-workers")

    def as_json(self, kind: str) -> dict:
        """The settings as run.json and every record name them (what the answers depend on)."""
        out = {"reproducible": True, "cp_time": self.cp_units(kind), "cp_workers": self.cp_workers,
               "prove": self.prove}
        if kind == "clear":
            out.update(work=self.work, plan_cp_time=self.plan_cp_time, shares_cp_time=self.shares_cp_time)
        return out

    def settings(self) -> Settings:
        """A solo solve's settings (the one settings type): the same as the map's command with these options."""
        return Settings(work=self.work, cp_time=self.cp_units("clear"), cp_workers=self.cp_workers,
                        plan_cp_time=self.plan_cp_time, shares_cp_time=self.shares_cp_time, prove=self.prove)

    def solver_params(self):
        """(beam budget, SolveParams) for solver.solo's analyse, the deep mode (`prove`) included."""
        settings = self.settings()
        return settings.budget, settings.params()


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

    def solve(self, difficulty: str, seed: int, mode: Mode, options: dict, plans_dir: str | None = None,
              reading_set: str = "default") -> dict:
        """One record; with ``plans_dir`` its plan page is written there first (whole or not at all)."""
        module, func = self.solver.split(":")
        solve = getattr(importlib.import_module(module), func)
        if plans_dir is None:
            return solve(self.name, difficulty, seed, mode, **options)
        page = pathlib.Path(plans_dir) / page_name(self.name, difficulty, seed, reading_set)
        if self.kind == "clear":
            return solve(self.name, difficulty, seed, mode, **options, on_answer=_solo_page_writer(self.name, page))
        return solve(self.name, difficulty, seed, mode, **options, page=page)


def solo_batch_solve(name: str, difficulty: str, seed: int, mode: Mode, instance: str | None = None,
                     readings: dict | None = None, shuffle_dangers: bool = False, on_answer=None,
                     **_ignored) -> dict:
    """An Easter Island or Zoo setup drawn with the seed under the readings, solved in reproducible mode.

    The same solve service as the single commands (solver.solo.service.solve), with the batch's work
    budget and CP-SAT parameters and no wall-clock cap of its own.
    ``on_answer(answer)`` may add fields (the plan pages); the answer carries its scenario."""
    from solver.engine.readings import make_rules
    from solver.engine.scenario import Scenario
    from solver.engine.setup import draw_setup, setup_to_json
    from solver.games import default_instance, load_instance
    from solver.solo import service
    from solver.solo.relaxation import proof_record

    solver = service.solver_for(name)
    inst = load_instance(instance or default_instance(name))
    if shuffle_dangers:
        inst = solver.shuffled_dangers(inst, seed)
    rules = make_rules(name, [f"{k}={v}" for k, v in (readings or {}).items()])
    setup = draw_setup(inst, difficulty, seed, rules=rules)
    if name == "easter-island":
        prove_networks(inst)
    # the runner keeps its own wall-clock cap (wallcap.py): the service adds none
    settings = dataclasses.replace(mode.settings(), time_limit=SOLO_NETWORK_SECONDS)
    answer = service.solve(Scenario(inst, difficulty, setup, rules, seed=seed), settings, capped=False)
    kept = on_answer(answer) if on_answer else {}
    record = {**answer.batch_record(), **proof_record(answer), "round_limit": inst.scenario.rounds,
              "shares_limit": inst.scenario.max_shares, **kept}
    if name == "zoo":
        record["dangers"] = {inst.board.cities[h].name: inst.board.cities[h].danger for h in sorted(inst.board.cities)}
    else:
        record["setup"] = setup_to_json(inst, setup)
    return record


def prove_networks(inst) -> None:
    """Prove, without a clock, the networks solver.solo.easter_island asks for under wall-clock limits.

    analyse() asks models.network.cheapest_network for the cheapest network joining the ruins (a third
    of its time limit), the fewest tiles joining them (a quarter) and, for the beam's targets, the
    cheapest network joining the ruins and each town (at most 5 s each). Under load those limits can
    bite, the networks found differ, and so do the beam's plans: on this machine at a load of 20,
    easy seed 1 came out "unknown" after 1147 s in a batch and "clearable in 8 rounds" in 7 s of CPU
    alone. cheapest_network keeps proved networks for the life of the process and returns a proved one
    whatever limit a later call gives, so proving them here first makes the answer independent of the
    load. (The lasting fix is work limits inside the solver: solver/solo/easter_island.py, the lead's.)"""
    from models.network import cheapest_network
    ruins = sorted(inst.board.cities)
    cheapest_network(inst, ruins, time_limit=None)
    cheapest_network(inst, ruins, unit_cost=True, time_limit=None, degree_limited=False)
    for town in sorted(inst.board.towns):
        cheapest_network(inst, ruins + [town], time_limit=None)


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
    def on_answer(answer) -> dict:
        from solver.report.plan_pages import plan_page
        if name == "zoo":
            from solver.report.zoo_report import zoo_answer_json
            data = zoo_answer_json(answer)
        else:
            from solver.report.solo_report import answer_json
            data = answer_json(answer)
        return _kept(page, lambda: plan_page(answer.scenario.instance, answer.plan, data))
    return on_answer


SCENARIOS = {
    "easter-island": BatchScenario("easter-island", ("easy", "normal", "hard"),
                                   "solver.batch.scenarios:solo_batch_solve", "clear"),
    "zoo": BatchScenario("zoo", ("standard",), "solver.batch.scenarios:solo_batch_solve", "clear"),
    "desert": BatchScenario("desert", ("sharp-boundary", "lost-world", "desert-of-death"),
                            "solver.batch.scenarios:desert_batch_solve", "score"),
}


def scenario(name: str) -> BatchScenario:
    if name not in SCENARIOS:
        raise InputError(f"unknown scenario {name!r} (known: {', '.join(SCENARIOS)})", "SCENARIO")
    return SCENARIOS[name]


def desert_batch_solve(name: str, challenge: str, seed: int, mode: Mode, page: pathlib.Path | None = None,
                       **_ignored) -> dict:
    """A Desert solo game as a batch record: proved when the layout solver finished (optimal or infeasible).

    The layout model runs in deterministic mode with `mode.cp_units` units (the game's own wall-clock
    cap is recorded as `wall_capped`). With ``page``, the game's page (as `desert game --html` writes
    it) is written there."""
    from solver.desert.setup import load_setup
    from solver.desert_play.game import run_game
    from solver.desert.market import draw_market

    setup = load_setup()
    game = run_game(challenge, seed, mode.cp_units("score"), setup=setup, deterministic=True)
    record = {k: v for k, v in game.items() if not k.startswith("_")}
    if page is not None:
        from solver.report.desert_page import game_page
        market = draw_market(seed, setup.tileset, setup.ruleset)
        record.update(_kept(page, lambda: game_page(setup, setup.challenges.get(challenge), game, market)))
    record["proved"] = record.get("proof") in ("optimal", "infeasible")
    record["verdict"] = ("mission met" if record.get("mission_met") else
                         "mission not met" if record["proved"] else "unknown")
    return record
