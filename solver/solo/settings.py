"""The settings of one solo solve, in one type, and the CP-SAT parameters the solvers read from them.

Before this module the same settings had three shapes: the command line's options turned into
(budget, SolveParams) by `solve_mode`, the app's checked request dict, and a batch's `Mode`. `Settings`
is the one shape; the app's form and a batch's `Mode` are thin adapters onto it, and its defaults are
the command line's (benchmarks/easter_island.py measures them). Light on purpose (no solver imports):
the command line's options and the app's server read the defaults from here.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from solver.board.errors import InputError


@dataclass(frozen=True)
class SolveParams:
    """CP-SAT in deterministic mode: a fixed number of workers and a deterministic time limit."""

    workers: int = 1
    deterministic_time: float = 5.0    # CP-SAT's deterministic time units (not seconds: wall time varies with load)
    seed: int = 0
    plan_time: float = 10.0            # the same units for the plan model (the restriction); 0 skips it
    # the plan model's units once it only looks for fewer shares (rounds settled, or the squeeze failed);
    # 0 (the default) skips that run and the relaxation's fewest-shares bound: the answer keeps the beam's
    # shares. 10 units give fewer shares on 11 of 12 setups (2 fewer at the median) but take about 7 s
    # each, most of a whole answer's time (results/shares-probe.csv; the goal is a median under 10 s).
    shares_time: float = 0.0
    # The relaxation's fewest-shares bound (solver/solo/proofs/shares.py) at the proved minimum round count while
    # the plan holds more shares than the position: CP-SAT units. 0 by default: with 1 unit it cost 1.8-2 s CPU an
    # answer and proved nothing above the start's shares on Easter Island seeds 1-3 (unknown on 14 of 15 setups,
    # results/shares-bounds.csv); the deep mode (`--prove`) and --shares-cp-time > 0 still ask it.
    shares_bound_time: float = 0.0
    # The deep mode (`--prove`): every proof engine (solver/solo/proofs) runs to the end, each call with its
    # own deterministic budget `prove_time` (the relaxation: CP-SAT units per model) instead of the default's.
    prove: bool = False
    prove_time: float = 600.0
    # The plan optimizer (solver/solo/economy_search.py): positions kept per round of its beam; 0 skips it.
    economy_width: int = 60

    def cp_solver(self):
        """A CP-SAT solver with these parameters; Ctrl-C stops its search (solver/interrupt.py), which is
        never read as a time-out."""
        from solver import interrupt
        solver = interrupt.cp_solver()
        solver.parameters.num_workers = self.workers
        solver.parameters.max_deterministic_time = self.deterministic_time
        solver.parameters.random_seed = self.seed
        return solver

    def for_shares(self) -> "SolveParams":
        """The parameters of a plan-model run that looks for fewer shares, not fewer rounds."""
        return dataclasses.replace(self, plan_time=self.shares_time)


@dataclass(frozen=True)
class Settings:
    """What a player sets for one solo solve (`aos-solve easter-island`/`zoo`'s options, the app's form).

    Reproducible (`deterministic`, the default): the plan search stops after `work` round plans and CP-SAT
    runs with `cp_workers` workers for `cp_time`/`plan_cp_time` deterministic units, so the same question
    gets the same answer; `time_limit` is the wall-clock cap over the whole solve in both modes."""

    time_limit: float = 300.0
    deterministic: bool = True
    work: int = 10000
    cp_time: float = 1.0
    cp_workers: int = 1
    plan_cp_time: float = 10.0
    shares_cp_time: float = 0.0
    prove: bool = False
    prove_time: float = 600.0

    def check(self) -> "Settings":
        """Itself, or an exit-2 error naming the option (before any solve)."""
        if self.work < 1:
            raise InputError(f"expected at least 1 round plan, got {self.work}", "--work")
        if self.cp_time <= 0:
            raise InputError(f"expected a positive deterministic time, got {self.cp_time}", "--cp-time")
        if self.cp_workers < 1:
            raise InputError(f"expected at least 1 worker, got {self.cp_workers}", "--cp-workers")
        if not 0 <= self.plan_cp_time < float("inf"):
            raise InputError(f"expected a finite deterministic time of 0 or more, got {self.plan_cp_time}",
                             "--plan-cp-time")
        if not 0 <= self.shares_cp_time < float("inf"):
            raise InputError(f"expected a finite deterministic time of 0 or more, got {self.shares_cp_time}",
                             "--shares-cp-time")
        if not 0 < self.prove_time < float("inf"):
            raise InputError(f"expected a positive finite deterministic time, got {self.prove_time}", "--prove-time")
        return self

    @property
    def budget(self) -> int | None:
        """Round plans the beam may try (None: wall-clock mode, where the clock stops it)."""
        return self.work if self.deterministic else None

    def params(self) -> SolveParams:
        """The CP-SAT parameters the solvers read."""
        return SolveParams(workers=self.cp_workers, deterministic_time=self.cp_time, plan_time=self.plan_cp_time,
                           shares_time=self.shares_cp_time, prove=self.prove, prove_time=self.prove_time)

    def cap_seconds(self) -> float:
        """The wall-clock cap: --time-limit itself, in both modes (a player asking for 5 s gets an answer in
        about 5 s, saying what was found by then). In reproducible mode the work budgets decide the answer
        whenever they are spent first; the slowest Easter Island solves of results/easter-island.csv take
        about 110 s, so a 60 s cap can cut those short, and the answer says so."""
        return self.time_limit

    def cap_record(self, cap: dict) -> dict:
        """Whether the --time-limit cap stopped the solve: then the answer is what was found and proved by then."""
        return {"seconds": cap["seconds"], "hit": cap["hit"],
                "bounds_the_time": "the wall clock (--wall-clock)" if not self.deterministic else
                "the work budgets --work, --cp-time and --plan-cp-time (reproducible)"
                + ("; the --time-limit stopped the solve first" if cap["hit"] else "")}
