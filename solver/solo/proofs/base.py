"""The one interface every proof engine implements: given a position and a round R, can any play clear by R?

An engine answers with a `Verdict`: NO_CLEAR (a proof: no legal play from the position clears by
round R), OPEN (no proof either way), or MAY_CLEAR (the engine found a pattern that may clear by R;
`pattern` goes to the plan side, which must still find a plan the referee replays). Only NO_CLEAR and
`bound` are claims; the soundness fuzzer (solver/solo/soundness.py) checks both against exhaustive
search on thousands of tiny boards, for every engine in the registry.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

NO_CLEAR = "no clear"    # proved: no legal play clears by round R
OPEN = "open"            # nothing proved either way
MAY_CLEAR = "may clear"  # a pattern that may clear by round R (not a proof of anything)
STATUSES = (NO_CLEAR, OPEN, MAY_CLEAR)


@dataclass(frozen=True)
class Verdict:
    """An engine's answer for one round count R."""

    status: str                     # NO_CLEAR, OPEN or MAY_CLEAR
    engine: str                     # the engine's name: the answer's proof source when it settles the answer
    detail: str                     # one sentence for the answer (what was proved, or why it stays open)
    pattern: object | None = None   # MAY_CLEAR: what the plan side should try to realise
    # Optional by-products (an engine may leave them empty):
    bound: int | None = None        # a proven lower bound on the clearing round found on the way (every round
                                    # below it is NO_CLEAR); None with NO_CLEAR and no bound: no round suffices
    reasons: tuple[str, ...] = ()   # the argument behind `bound`, a line each (the answer's bound reasons)
    log: tuple[dict, ...] = ()      # what the engine asked, kept in the answer's search record under its name

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"unknown verdict status {self.status!r}")


@dataclass
class Position:
    """What every engine may read: the game from the start of a round on, and what is already proven about it.

    The map solvers build it (solver.solo.easter_island.proof_position, solver.solo.zoo.proof_position);
    engines read fields and may keep what they build once per position in `cache`."""

    instance: object                 # solver.board.instance.Instance, its ruleset attached
    state: object                    # solver.engine.state.GameState at the start of a round (phase "shares")
    rules: object                    # solver.engine.state.Rules: the readings
    start: object | None             # solver.solo.round_search.Node of a plan prefix, or None (the setup itself)
    params: object                   # solver.solo.relaxation.SolveParams (budgets; `prove` for the deep mode)
    time_limit: float = 60.0         # wall-clock seconds the map solver gives network proofs
    tiles_net: object | None = None  # Easter Island: models.network.Network, fewest tiles joining all ruins
    needs: object | None = None      # Zoo: solver.solo.zoo.Needs, least locomotive and tiles over any network
    zoo_graph: object | None = None  # Zoo: the any-network StopGraph (solver.solo.zoo.potential_graph)
    known_bound: int = 1             # rounds below this are already proved not enough (by engines asked before)
    cache: dict = field(default_factory=dict)
    asked: list = field(default_factory=list)  # every verdict given here (answer.search["proofs"], the fuzzer)

    @property
    def ruleset(self) -> str:
        return self.instance.scenario.ruleset

    @property
    def goods(self) -> dict:
        """The cubes (or food) still on the board: stop -> list, bottom first."""
        return {h: list(c) for h, c in self.state.goods.items() if c}


@dataclass(frozen=True)
class SharesBound:
    """A shares engine's (proofs/shares.py) lower bound on the shares at a clear by round `rounds`."""

    engine: str
    rounds: int
    lower: int | None           # every play clearing by `rounds` ends with at least this many; None: no claim
    status: str                 # what the engine finished: "proved", "not asked", or its model's status
    reasons: tuple[str, ...] = ()


@runtime_checkable
class ProofEngine(Protocol):
    """A proof engine. `cheap` engines are asked before the plan search (their bound tells the search where
    to stop) and in every mode; the others after it, only while the best plan misses the bound."""

    name: str
    cheap: bool

    def prove(self, position: Position, last_round: int, params) -> Verdict:
        """Can any legal play from `position` clear by round `last_round`? Deterministic for equal params;
        `params.prove` (the deep mode) asks the engine to run to the end with its large budget."""
        ...
