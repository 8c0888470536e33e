"""The house of the proof engines: each engine a module behind one interface (base.py), one registry.

A proof engine answers "can any legal play from this position clear by round R?" with a `Verdict`
(NO_CLEAR is a proof, OPEN is none, MAY_CLEAR hands a pattern to the plan side). The map solvers
(solver/solo/easter_island.py, solver/solo/zoo.py) decide only the order: the cheap engines before the
plan search (`bound_before_search`), the others after it while the plan misses the bound
(`raise_bound`). Whichever engine raised the bound last is the answer's proof source.

The cost half asks the same way: the shares engines (shares.py, registry SHARES_ENGINES, interface
base.SharesEngine: `name` and `bound`) answer "at least how many shares at a clear by round R?", and
`fewest_shares` asks them in order and names the engine the answer's shares line rests on.

To add an engine: a module here with a class that has `name`, `cheap` and `prove` (base.ProofEngine),
one line in ENGINES, a case in tests/test_proof_engines.py against exhaustive search, and a line in
docs/architecture.md. The soundness fuzzer (solver/solo/soundness.py) then checks its claims on every
tiny board by itself.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver import progress
from solver.solo.proofs.base import (MAY_CLEAR, NO_CLEAR, OPEN, Pattern, Position, ProofEngine, SharesBound,
                                     SharesEngine, Verdict)
from solver.solo.proofs.counting import CountingBound
from solver.solo.proofs.links import LinkSearch
from solver.solo.proofs.relaxation import Relaxation
from solver.solo.proofs.shares import SHARES_ENGINES, ask_shares, fewest_shares

__all__ = ["Bound", "ENGINES", "MAY_CLEAR", "NO_CLEAR", "OPEN", "Pattern", "Position", "ProofEngine", "SHARES_ENGINES",
           "SharesBound", "SharesEngine", "Verdict", "ask", "ask_shares", "bound_before_search", "fewest_shares",
           "raise_bound"]

# The registry, in the order the engines are asked (cheap ones before the plan search, the rest after it).
ENGINES: tuple[ProofEngine, ...] = (
    CountingBound(),   # counting.py: cubes, tiles and actions counted (both maps)
    # links.py: the link search (solver/solo/link_search.py): Easter Island, deep mode only; asked before the
    # relaxation there, as it also yields patterns for the plan side and is quick on small boards
    LinkSearch(),
    Relaxation(),      # relaxation.py: the CP-SAT relaxation of the game (models/solo_game)
)


def ask(engine: ProofEngine, position: Position, last_round: int) -> Verdict:
    """One question to one engine, recorded on the position (the answer's search record and the fuzzer read it)."""
    verdict = engine.prove(position, last_round, position.params)
    position.asked.append({"engine": verdict.engine, "last_round": last_round, "status": verdict.status,
                           "bound": verdict.bound})
    return verdict


@dataclass
class Bound:
    """What the engines asked so far prove about the rounds needed."""

    lower: int | None                 # no play clears before this round; None: no number of rounds suffices
    source: str | None                # the engine that proved it (the answer's proof source)
    reasons: list[str] = field(default_factory=list)   # its argument, a line each
    proof: Verdict | None = None      # that engine's verdict
    patterns: list[Verdict] = field(default_factory=list)  # MAY_CLEAR verdicts with a pattern (the plan side)


def bound_before_search(position: Position, limit: int) -> Bound:
    """The cheap engines, asked about the round limit: the bound the plan search aims at."""
    best = Bound(position.state.round, None)
    for engine in ENGINES:
        if not engine.cheap:
            continue
        verdict = ask(engine, position, limit)
        if verdict.status == NO_CLEAR and verdict.bound is None:
            return Bound(None, engine.name, list(verdict.reasons or (verdict.detail,)), verdict)
        if verdict.bound is not None and (best.source is None or verdict.bound > best.lower):
            best = Bound(verdict.bound, engine.name, list(verdict.reasons), verdict)
    position.known_bound = best.lower
    return best


def raise_bound(answer, position: Position, bound: Bound, limit: int) -> Bound:
    """Ask the other engines in turn, while the best plan misses the bound, whether a play clears one round sooner.

    Each is asked about the round before the best plan's (without a plan: the round limit). A NO_CLEAR,
    or a higher `bound` found on the way, raises the bound: its reasons join the answer's bound reasons,
    answer.lower_bound follows, and the engine becomes the proof source. Each engine's log is kept in
    answer.search under its name (SearchLog.engine_log)."""
    for engine in ENGINES:
        if engine.cheap:
            continue
        lower = bound.lower
        if answer.upper_bound == lower or lower > limit:
            break  # settled: a plan meets the bound, or no play clears by the round limit
        top = (answer.upper_bound - 1) if answer.upper_bound else limit
        position.known_bound = lower
        progress.note("proving how many rounds are needed", method=f"proof engine: {engine.name}",
                      rounds=progress.rounds_text(lower, answer.upper_bound, limit))
        verdict = ask(engine, position, top)
        if verdict.log:
            answer.search.engine_log(verdict.engine, list(verdict.log))
        raised = verdict.bound if verdict.bound is not None else (top + 1 if verdict.status == NO_CLEAR else lower)
        if raised > lower:
            bound = Bound(raised, engine.name, bound.reasons + list(verdict.reasons), verdict, bound.patterns)
            answer.bound_reasons.extend(verdict.reasons)
            answer.lower_bound = raised
        if verdict.status == MAY_CLEAR and verdict.pattern is not None:
            bound.patterns.append(verdict)
    position.known_bound = bound.lower
    return bound
