"""The shares proof engines: lower bounds on the shares any play clearing by round R ends with.

The cost half of an answer ("Fewest shares at R rounds: N, proved (ENGINE)"). Each engine answers one
question, "at least how many shares does every legal play from this position that clears by round R hold
when it clears?", with a `SharesBound` (`lower` None: nothing proved). Only `lower` is a claim; the
soundness fuzzer (solver/solo/soundness.py) checks it against the exhaustive truth (solver/solo/exhaustive.py,
`fewest_shares=True`) for every engine of SHARES_ENGINES, alone and as the answer asked it.

`fewest_shares` asks the engines in the registry's order until one meets the plan's shares (then the
answer is proved) and keeps the best bound and the engine it rests on. To add an engine: a class with
`name` and `bound` here, one line in SHARES_ENGINES, a case in tests/test_shares_bounds.py.
"""
from __future__ import annotations

import dataclasses
import time

from solver.solo.proofs.base import Position, SharesBound, SharesEngine
from solver.solo.proofs.cashflow import CashFlowShares
from solver.solo.proofs.relaxation import relaxation_spec

__all__ = ["ISSUED", "RELAXATION_SHARES", "SHARES_ENGINES", "IssuedShares", "RelaxationShares", "SharesBound",
           "SharesEngine", "ask_shares", "fewest_shares"]


ISSUED = "shares already issued"


class IssuedShares:
    """The shares held at the position. Every legal play keeps them: the rules issue shares and never buy
    them back (a share is only ever added in the shares phase), so a play ends with at least as many."""

    name = ISSUED

    def bound(self, position: Position, rounds: int, params) -> SharesBound:
        n = position.state.shares
        return SharesBound(self.name, rounds, n, "proved",
                           (f"{n} shares are held at the start and shares are never bought back",))


RELAXATION_SHARES = "relaxation"


class RelaxationShares:
    """The CP-SAT relaxation of the game (models/solo_game, its argument next to the model) minimising the
    shares issued, without its stop-level network layer (fewer constraints: still a relaxation). OPTIMAL or
    the model's proven objective bound count, nothing else.

    Budget: `params.shares_bound_time` CP-SAT units (0 by default: not asked in the default mode); the old
    `--shares-cp-time` budget (`shares_time` > 0) and the Zoo give it the --cp-time units as before; the deep mode
    (`--prove`) up to `prove_time`, at most `deep_cap` units."""

    name = RELAXATION_SHARES
    deep_cap = 30.0

    def budget(self, params, ruleset: str = "easter-island") -> float:
        units = params.shares_bound_time
        if params.shares_time > 0 or ruleset == "zoo":  # the Zoo keeps the --cp-time units it had before issue 45
            units = max(units, params.deterministic_time)
        if params.prove:
            units = max(units, min(params.prove_time, self.deep_cap))
        return units

    def bound(self, position: Position, rounds: int, params) -> SharesBound:
        from solver.solo.relaxation import min_shares_bound
        units = self.budget(params, position.ruleset)
        if units <= 0:
            return SharesBound(self.name, rounds, None, "not asked")
        spec = relaxation_spec(position)
        low, status = min_shares_bound(spec, rounds, dataclasses.replace(params, deterministic_time=units))
        reasons = ()
        if low is not None:
            reasons = (f"the CP-SAT relaxation of the game (models/solo_game) minimising shares for a clear by round "
                       f"{rounds} ({status} within {units:g} units): at least {low} shares",)
        return SharesBound(self.name, rounds, low, status, reasons)


# The registry, in the order the engines are asked (cheapest first).
SHARES_ENGINES: tuple[SharesEngine, ...] = (
    IssuedShares(),     # the shares held at the position (shares are never bought back)
    CashFlowShares(),   # cashflow.py: the least track's price against the most money any play can have
    RelaxationShares(),  # the CP-SAT relaxation's minimum
)


def ask_shares(engine: SharesEngine, position: Position, rounds: int, params) -> SharesBound:
    """One engine's bound, asked once per position, round count and budget (kept in `position.cache`)."""
    key = ("shares bound", engine.name, rounds, params)
    if key not in position.cache:
        position.cache[key] = engine.bound(position, rounds, params)
    return position.cache[key]


def fewest_shares(position: Position, rounds: int, plan_shares: int, params, track_cost: int | None = None) -> dict:
    """The answer's shares record at `rounds` (its proved minimum round count): the best lower bound of the
    engines asked in order until one meets the plan's shares, what it rests on, and the plan's shares."""
    best: SharesBound | None = None
    asked = []
    for engine in SHARES_ENGINES:
        wall, cpu = time.monotonic(), time.process_time()
        b = ask_shares(engine, position, rounds, params)
        asked.append({"engine": b.engine, "lower_bound": b.lower, "status": b.status,
                      "seconds": round(time.monotonic() - wall, 3), "cpu_seconds": round(time.process_time() - cpu, 3)})
        if b.lower is not None and (best is None or b.lower > best.lower):
            best = b
        if best is not None and best.lower >= plan_shares:
            break
    low = best.lower if best is not None else None
    relax = next((a["status"] for a in asked if a["engine"] == RELAXATION_SHARES), "not asked")
    return {"rounds": rounds, "lower_bound": low, "upper_bound": plan_shares,
            "proved": low is not None and low == plan_shares,
            "lower_bound_source": best.engine if best is not None else None,
            "reasons": list(best.reasons) if best is not None else [],
            "engines": asked, "relaxation": relax, "plan_track_cost": track_cost}
