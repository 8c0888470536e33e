"""The link search (solver/solo/link_search.py, its argument in its module text) as a proof engine.

Easter Island only, and only in the deep mode (`--prove`): it may take minutes on the real board.
NO_CLEAR at R proves that no play clears by R (so the bound is R + 1); MAY_CLEAR hands its abstract
clear to the plan side (solver/solo/link_plans.decode), which proposes a plan the referee judges.
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.engine.plan import Plan
from solver.engine.scenario import Scenario
from solver.engine.state import GameState
from solver.solo import link_plans, link_search
from solver.solo.proofs.base import MAY_CLEAR, NO_CLEAR, OPEN, Position, Verdict
from solver.solo.settings import SolveParams

LINK_SEARCH = link_search.NAME  # the engine's name: the proof source of an answer it settles


@dataclass(frozen=True)
class LinkPattern:
    """The link search's "may clear" (base.Pattern): an abstract clear, round by round, and the link bounds
    it was priced with; the plan side (solver/solo/link_plans.decode) lays real track for it."""

    rounds: list                    # the abstract rounds of the clear (link_search.SearchResult.pattern)
    bounds: link_search.LinkBounds

    def realise(self, state0: GameState, scenario: Scenario) -> tuple[Plan | None, str]:
        return link_plans.decode(state0, scenario, self.rounds, self.bounds)


class LinkSearch:
    """Exhaustive search over an abstract game of links: money, locomotive, blockers, moai order, hexsides."""

    name = LINK_SEARCH
    cheap = False
    work = 200_000           # abstract positions per question (deep mode)
    packing_cap = 30.0       # most deterministic time per packing model, whatever --prove-time says

    def prove(self, position: Position, last_round: int, params: SolveParams) -> Verdict:
        if position.ruleset != "easter-island":
            return Verdict(OPEN, self.name, "the link search knows the Easter Island rules only")
        if not params.prove:
            return Verdict(OPEN, self.name, "the link search is asked in the deep mode only (--prove)")
        lower = max(position.known_bound, position.state.round)
        if last_round < lower:
            return Verdict(OPEN, self.name, f"not asked: rounds below {lower} are already proved not enough")
        packing = min(params.prove_time, self.packing_cap)
        key = ("link bounds", packing)
        if key not in position.cache:
            position.cache[key] = link_search.LinkBounds(position.state, packing)
        bounds = position.cache[key]
        found = link_search.prove_by(position.state, last_round, work=self.work, packing_time=packing,
                                     bounds=bounds)
        log = ({"last_round": last_round, "status": found.status.value, "positions": found.nodes},)
        if found.status == link_search.Status.NO_CLEAR:
            reasons = (f"the link search (money, locomotive, action blockers, moai order, hexsides, the order "
                       f"in which shared hexes are laid, town tiles and the assumed complex tiles, a crossing "
                       f"being two straights and an upgrade counting as a tile, over every set of links) finds "
                       f"no play that clears by round {last_round}: at least {last_round + 1} rounds",)
            return Verdict(NO_CLEAR, self.name, found.detail, bound=last_round + 1, reasons=reasons, log=log)
        if found.status == link_search.Status.MAY_CLEAR:
            return Verdict(MAY_CLEAR, self.name, found.detail, pattern=LinkPattern(found.pattern, bounds),
                           log=log)
        return Verdict(OPEN, self.name, found.detail, log=log)
