"""One pipeline for both solo maps: obstacles, the cheap bound, plan finders, proof engines, realising their
patterns, settling. A map fills in its stages (Stages); the order, the referee's word on every plan (offer),
the verdict and what it rests on are the same for both, so they are written once, here.

    obstacles      the map's proofs without search ("not clearable", proof source OBSTACLE)
    cheap bound    the cheap proof engines (solver/solo/proofs: counting) before any search
    cannot plan    a map's reason its finders cannot look (Easter Island: complex tiles only)
    find           plan finders, each proposal through `offer`
    proof engines  the other engines raise the bound while the best plan misses it (proofs.raise_bound)
    realise        plans from the engines' "may clear" patterns, through `offer`
    improve        plan finders after the proofs (fewer rounds, then fewer shares)
    settle         the verdict, the fewest shares at a proved minimum, the log's last entries
"""
from __future__ import annotations

import time
from typing import Protocol

from solver import interrupt
from solver.engine.plan import replay
from solver.engine.scenario import Scenario
from solver.engine.state import GameState
from solver.solo.answer import OBSTACLE, Answer
from solver.solo.proofs import Position, bound_before_search, raise_bound
from solver.solo.proofs.shares import fewest_shares
from solver.solo.prune import prune_idle_track
from solver.solo.round_search import Node
from solver.solo.settings import SolveParams


class Stages(Protocol):
    """What a map fills in. The texts are the answer's words for the map's clear condition."""

    cleared: str             # "a plan clears it in round {rounds}"
    no_play: str             # "no legal play clears by round {limit}"
    obstacle: tuple[str, str]  # ("obstacle", "no plan can overcome"): "N obstacles no plan can overcome"
    beam_words: str          # how the no-plan text names the beam width ("beam", "beam up to")
    singular_round: bool     # "at least 1 round is needed" (else "rounds are needed" always)
    # The order each map's answers have always listed these log entries in (answer JSON unchanged):
    plan_source_first: bool  # plan_source before idle_track_removed
    proof_source_first: bool  # proof_source before shares

    def obstacles(self, p: "Pipeline") -> list[str]: ...
    def position(self, p: "Pipeline") -> Position: ...
    def dress(self, p: "Pipeline", answer: Answer, early: bool) -> None: ...
    def cannot_plan(self, p: "Pipeline") -> Answer | None: ...
    def open_log(self, p: "Pipeline") -> None: ...
    def find(self, p: "Pipeline") -> None: ...
    def realise(self, p: "Pipeline") -> None: ...
    def improve(self, p: "Pipeline") -> None: ...
    def fewer_shares(self, p: "Pipeline") -> None: ...


def _rank(check) -> tuple:
    """Fewest rounds, then fewest shares, then most cash."""
    s = check.state
    return s.cleared_round, s.shares, -s.cash


class Pipeline:
    """One solve: the question, its budgets, and what the stages found so far."""

    def __init__(self, stages: Stages, scenario: Scenario, *, time_limit: float, beam_width: int,
                 budget: int | None, params: SolveParams | None, start: Node | None, relax: bool):
        self.t0 = time.monotonic()
        self.stages, self.scenario = stages, scenario
        self.time_limit, self.beam_width, self.budget = time_limit, beam_width, budget
        self.params = params or SolveParams()
        self.start, self.relax = start, relax
        self.limit = scenario.round_limit
        self.deadline = self.t0 + time_limit
        self.played = len(start.rounds) if start is not None else 0  # a --from prefix: never pruned
        self.prefix = list(start.rounds) if start is not None else []
        self.goods = scenario.setup if start is None else {h: list(c) for h, c in start.state.goods.items() if c}
        self.allowance = budget  # deterministic mode: round plans allowed so far (a finder may grant more)
        self.state0: GameState | None = None
        self.position: Position | None = None
        self.bound = None
        self.answer: Answer | None = None
        self.best_key: tuple | None = None

    @property
    def lower(self) -> int:
        return self.bound.lower

    # -- budgets --------------------------------------------------------------------------
    def over(self) -> bool:
        if interrupt.past_cap():  # the --time-limit cap (or Cancel in the app): stop with what was found
            return True
        if self.budget is not None:
            return self.answer.search.round_plans_tried >= self.allowance
        return time.monotonic() > self.deadline

    @property
    def planner_deadline(self) -> float:
        return self.deadline if self.budget is None else float("inf")

    def work_left(self) -> int:
        return max(0, self.allowance - self.answer.search.round_plans_tried)

    # -- the referee's word ------------------------------------------------------------------
    def offer(self, rounds: list, source: str) -> bool:
        """Replay a proposed plan (whole rounds, a --from prefix included) with the referee; keep it, without
        idle track, if it clears and beats the best so far (rounds, shares, cash); say whether it did."""
        answer, instance = self.answer, self.scenario.instance
        plan = self.scenario.plan(rounds)
        check = replay(instance, plan)  # the referee, not the finder, says whether it clears
        if check.error is not None or check.state.cleared_round is None:
            answer.search.referee_rejected = check.error or "did not clear"
            return False
        if self.best_key is not None and _rank(check)[:2] > self.best_key[:2]:
            return False
        pruned = prune_idle_track(instance, plan, check, fixed=self.played)  # compared, and kept, without idle track
        key = _rank(pruned.check)
        if self.best_key is not None and key >= self.best_key:
            return False
        self.best_key = key
        answer.plan, answer.end_state = pruned.plan, pruned.check.state.summary()
        answer.upper_bound = pruned.check.state.cleared_round
        if self.stages.plan_source_first:
            answer.search.plan_source = source
        answer.search.idle_track_removed = pruned.removed
        answer.search.plan_source = source
        return True

    # -- the run ------------------------------------------------------------------------------
    def run(self) -> Answer:
        stages, limit = self.stages, self.limit
        impossible = stages.obstacles(self)
        if impossible:
            noun, verb = stages.obstacle
            n = len(impossible)
            return self._settled_early(f"proof without search: {n} {noun}{'' if n == 1 else 's'} {verb}", 0,
                                       OBSTACLE, impossible=impossible)
        start = self.start
        self.state0 = start.state if start is not None else GameState.new(self.scenario.instance, self.scenario.setup,
                                                                          self.scenario.rules)
        self.position = stages.position(self)
        self.bound = bound_before_search(self.position, limit)
        lower, reasons = self.bound.lower, self.bound.reasons
        if lower is None or lower > limit:
            why = "; ".join(reasons)
            text = (f"proof: no number of rounds suffices ({why})" if lower is None else
                    f"proof: at least {lower} rounds are needed ({why}) but the round limit is {limit}")
            return self._settled_early(text, lower or limit + 1, self.bound.source, reasons=reasons, proofs=True)
        early = stages.cannot_plan(self)
        if early is not None:
            return early
        answer = self.answer = Answer("unknown", "", limit, lower, None, False, bound_reasons=reasons)
        stages.dress(self, answer, early=False)
        stages.open_log(self)
        stages.find(self)
        if self.relax and answer.upper_bound != self.lower:
            self.bound = raise_bound(answer, self.position, self.bound, limit)
            answer.lower_bound = self.bound.lower
            stages.realise(self)
        stages.improve(self)
        self.settle()
        return answer

    def _settled_early(self, text: str, lower: int, source: str, impossible: list[str] | None = None,
                       reasons: list[str] | None = None, proofs: bool = False) -> Answer:
        answer = Answer("not clearable", text, self.limit, lower, None, False, impossible=impossible or [],
                        bound_reasons=reasons if reasons is not None else [])
        self.stages.dress(self, answer, early=True)
        answer.search.proof_source = source
        if proofs:
            answer.search.proofs = self.position.asked
        answer.seconds = time.monotonic() - self.t0
        return answer

    # -- settling -----------------------------------------------------------------------------
    def settle_verdict(self) -> None:
        """The verdict from the referee-checked plan (clearable; minimum proved when it meets the bound) or
        from a bound past the round limit (not clearable)."""
        answer, bound, limit = self.answer, self.bound, self.limit
        if answer.plan is not None:
            answer.verdict = "clearable"
            answer.verdict_proof = self.stages.cleared.format(rounds=answer.upper_bound) + ", replayed by the referee"
            answer.min_rounds_proved = answer.upper_bound == bound.lower
        elif bound.lower > limit:
            answer.verdict = "not clearable"
            answer.impossible.append(bound.proof.detail)
            answer.verdict_proof = (f"proof by the {bound.source} engine: {self.stages.no_play.format(limit=limit)}, "
                                    "the round limit")

    def log_proof_source(self) -> None:
        """The engine that proved the verdict or the minimum (None when neither is proved)."""
        answer = self.answer
        answer.search.proof_source = (self.bound.source if (answer.min_rounds_proved
                                                            or answer.verdict == "not clearable") else None)

    def shares_bounds(self) -> None:
        """At the minimum round count: the fewest shares (the shares engines' best lower bound,
        solver/solo/proofs/shares.py, vs the plan's), then the plan's track cost."""
        end = self.answer.end_state
        self.answer.search.shares = fewest_shares(self.position, self.answer.upper_bound, end["shares"], self.params,
                                                  end["spent_on_track"])

    def settle(self) -> None:
        answer, stages = self.answer, self.stages
        self.settle_verdict()
        if stages.proof_source_first:
            self.log_proof_source()
        if answer.plan is not None and answer.min_rounds_proved and self.relax:
            self.shares_bounds()
            stages.fewer_shares(self)
        if not stages.proof_source_first:
            self.log_proof_source()
        if answer.verdict == "unknown":
            answer.verdict_proof = self._no_plan_text()
        answer.search.proofs = self.position.asked
        if self.params.prove:
            answer.search.prove_time = self.params.prove_time  # the deep mode
        answer.seconds = time.monotonic() - self.t0

    def _no_plan_text(self) -> str:
        limit, lower, stages = self.limit, self.lower, self.stages
        needed = "round is needed" if lower == 1 and stages.singular_round else "rounds are needed"
        return (f"no plan found within {limit} round{'' if limit == 1 else 's'} by the search ("
                + (f"budget {self.budget} round plans" if self.budget is not None else
                   f"time limit {self.time_limit:g} s") + f", {stages.beam_words} {self.beam_width}); at least {lower} "
                + needed)
