"""What a solo solver found and what it proved: the one record every report and batch line is made from."""
from __future__ import annotations

from dataclasses import dataclass, field

from models.network import Network
from solver.engine.plan import Plan
from solver.engine.scenario import Scenario
from solver.solo.proofs import ENGINES
from solver.solo.proofs.counting import CountingBound
from solver.solo.proofs.relaxation import Relaxation
from solver.solo.search_log import SearchLog

# What proved an answer (its verdict "not clearable" or its minimum rounds): Answer.search.proof_source,
# printed as "Proof source: ..." and kept as `proof_source` in JSON and batch records. One name per proof,
# so a table of proof sources counts what really settled each setup: an obstacle seen before any search,
# or the name of the proof engine that proved the bound (solver/solo/proofs, registry ENGINES).
OBSTACLE = "obstacle (no search)"  # a cube, ruin or area no plan can serve, seen before any search
COUNTING = CountingBound.name      # rounds counted from tiles, cubes and income (solver/solo/proofs/counting.py)
RELAXATION = Relaxation.name       # the CP-SAT relaxation of the game (models/solo_game) was INFEASIBLE
PROOF_SOURCES = (OBSTACLE, *(engine.name for engine in ENGINES))


@dataclass
class Answer:
    """What a solo solver found and what it proved."""

    verdict: str                      # clearable / not clearable / unknown
    verdict_proof: str                # what the verdict rests on
    round_limit: int
    lower_bound: int                  # proven lower bound on the rounds to clear
    upper_bound: int | None           # rounds of the best plan found (replayed by the referee)
    min_rounds_proved: bool
    plan: Plan | None = None
    end_state: dict | None = None
    network: Network | None = None    # proven cheapest network the clear condition needs
    network_label: str = ""
    bound_reasons: list[str] = field(default_factory=list)
    impossible: list[str] = field(default_factory=list)
    seconds: float = 0.0
    search: SearchLog = field(default_factory=SearchLog)  # how the answer was found (JSON: search.to_json())
    extra_networks: list = field(default_factory=list)  # (label, Network): other proven networks worth showing
    scenario: Scenario | None = None  # the question answered (set by the solvers' analyse), so reports need no more
    time_cap: dict | None = None      # whether the wall-clock cap stopped the solve (solver.solo.service.solve)

    def batch_record(self) -> dict:
        """The JSON-ready fields a batch keeps for one solve."""
        end = self.end_state or {}
        return {
            "verdict": self.verdict,
            "proved": self.verdict == "not clearable" or (self.verdict == "clearable" and self.min_rounds_proved),
            "min_rounds": self.upper_bound if self.min_rounds_proved else None,
            "rounds_lower_bound": self.lower_bound, "rounds_upper_bound": self.upper_bound,
            "shares": end.get("shares"), "cash": end.get("cash"), "track_cost": end.get("spent_on_track"),
            "network_cost": self.network.cost if self.network else None, "impossible": self.impossible,
        }

    def min_rounds_text(self) -> str:
        if self.verdict == "not clearable":
            return "none (not clearable)"
        if self.min_rounds_proved:
            return f"{self.upper_bound} (proved: the plan meets the lower bound)"
        if self.upper_bound is not None:
            return f"unknown: between {self.lower_bound} and {self.upper_bound}"
        return f"unknown: at least {self.lower_bound}"


def shares_line(shares: dict) -> str:
    """The answer's one line on the cost half: "Fewest shares at R rounds: N, proved (ENGINE)" where the best
    shares bound (solver/solo/proofs/shares.py) meets the plan's shares, else both and what the bound rests on.
    `shares`: the record of solver.solo.proofs.shares.fewest_shares (answer.search.shares)."""
    low, high = shares["lower_bound"], shares["upper_bound"]
    rounds = f"{shares['rounds']} round" + ("" if shares["rounds"] == 1 else "s")
    source = shares.get("lower_bound_source") or "no engine"
    why = "; ".join(shares.get("reasons") or ())
    track = f"; the plan's track cost ${shares['plan_track_cost']}" if shares.get("plan_track_cost") is not None else ""
    if shares["proved"]:
        return f"Fewest shares at {rounds}: {high}, proved ({source}: {why}){track}"
    low_text = f"{low} ({source}: {why})" if low is not None else "unknown (no shares engine proved a bound)"
    relax = shares.get("relaxation")
    note = f"; the relaxation's minimum: {relax}" if relax not in (None, "optimal", "bound", "not asked") else ""
    return f"Fewest shares at {rounds}: between {low_text} and {high} (the plan){note}{track}"
