"""The one interface every proof engine implements: given a position and a round R, can any play clear by R?

An engine answers with a `Verdict`: NO_CLEAR (a proof: no legal play from the position clears by
round R), OPEN (no proof either way), or MAY_CLEAR (the engine found a pattern that may clear by R;
`pattern` goes to the plan side, which must still find a plan the referee replays). Only NO_CLEAR and
`bound` are claims; the soundness fuzzer (solver/solo/soundness.py) checks both against exhaustive
search on thousands of tiny boards, for every engine in the registry.

Readings that only remove clears keep every engine sound with no change: reading end-of-game=round-track
(Easter Island: the game plays on to the end of the round track, and a clear stands only if the rounds after
it keep income at or above the floor) counts a clear in round c only where the default end-of-game=at-clear
counts the same play's clear in round c, so "no play clears by R" and every lower bound proved without it
hold under it. The engines read the other readings they depend on from `Position.rules`.

Redirecting track (base rules: "Redirecting an incomplete track: $2"; the referee's `redirect HEX KEPT NEW`,
priced by the board file's map_rules.redirect_cost, counting as a tile of the turn) only adds plays, and every
engine stays a relaxation with no change. A redirect turns the simple tile at the open end of an incomplete
link: until then that tile carried nothing and belonged to no complete link, and the hex already held track
(it was counted as a new hex, and its placement as a tile, when first laid). So a play with redirects maps
into each engine as it is: the hexes holding track by each round and the tiles counted by each round are the
play's own (a redirect is one more counted placement on a hex already counted, and adds a track at a town it
runs into as any tile does); the money spent by each round is the play's own and at least the engines'
charges (a redirect costs >= 0 more); each complete link exists from the round the play completes it (by a
redirect or a new tile), which is the round the engines read; where an argument names the round a hex's
track was laid (the link search's laying order and town tiles, points 8 and 9, on cumulative budgets), the
round of its last redirect or its first placement are both no later than the round its link is first used,
and the tiles counted by then include it. The soundness fuzzer's truth (solver/solo/exhaustive.py) explores
redirects wherever a board prices them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:  # types only: each module below imports nothing of the proofs package (no cycle)
    from models.network import Network
    from solver.board.instance import Instance
    from solver.engine.plan import Plan
    from solver.engine.scenario import Scenario
    from solver.engine.state import GameState, Rules
    from solver.solo.round_search import Node
    from solver.solo.settings import SolveParams
    from solver.solo.zoo_routes import Needs, StopGraph

NO_CLEAR = "no clear"    # proved: no legal play clears by round R
OPEN = "open"            # nothing proved either way
MAY_CLEAR = "may clear"  # a pattern that may clear by round R (not a proof of anything)
STATUSES = (NO_CLEAR, OPEN, MAY_CLEAR)


@runtime_checkable
class Pattern(Protocol):
    """What a MAY_CLEAR verdict hands the plan side: a way to clear that the engine could not exclude.
    The pattern realises itself as a proposed plan; only the referee's replay of that plan counts."""

    def realise(self, state0: GameState, scenario: Scenario) -> tuple[Plan | None, str]:
        """(a referee-checked plan from `state0` that follows the pattern, or None; what stopped it)."""
        ...


@dataclass(frozen=True)
class Verdict:
    """An engine's answer for one round count R."""

    status: str                     # NO_CLEAR, OPEN or MAY_CLEAR
    engine: str                     # the engine's name: the answer's proof source when it settles the answer
    detail: str                     # one sentence for the answer (what was proved, or why it stays open)
    pattern: Pattern | None = None  # MAY_CLEAR: what the plan side should try to realise
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

    instance: Instance               # its ruleset attached
    state: GameState                 # at the start of a round (phase "shares")
    rules: Rules                     # the readings
    start: Node | None               # a plan prefix's end, or None (the setup itself)
    params: SolveParams              # budgets; `prove` for the deep mode
    time_limit: float = 60.0         # wall-clock seconds the map solver gives network proofs
    tiles_net: Network | None = None     # Easter Island: fewest tiles joining all ruins
    needs: Needs | None = None           # Zoo: least locomotive and tiles over any network
    zoo_graph: StopGraph | None = None   # Zoo: the any-network stop graph (solver.solo.zoo.potential_graph)
    known_bound: int = 1             # rounds below this are already proved not enough (by engines asked before)
    cache: dict = field(default_factory=dict)
    asked: list = field(default_factory=list)  # every verdict given here (answer.search.proofs, the fuzzer)

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
class SharesEngine(Protocol):
    """A shares engine (proofs/shares.py, registry SHARES_ENGINES): the cost half's counterpart of ProofEngine."""

    name: str   # the answer's shares line names it where its bound is the best ("proved (NAME: why)")

    def bound(self, position: Position, rounds: int, params: SolveParams) -> SharesBound:
        """A lower bound on the shares of every legal play from `position` that clears by round `rounds`.
        Deterministic for equal params."""
        ...


@runtime_checkable
class ProofEngine(Protocol):
    """A proof engine. `cheap` engines are asked before the plan search (their bound tells the search where
    to stop) and in every mode; the others after it, only while the best plan misses the bound."""

    name: str
    cheap: bool

    def prove(self, position: Position, last_round: int, params: SolveParams) -> Verdict:
        """Can any legal play from `position` clear by round `last_round`? Deterministic for equal params;
        `params.prove` (the deep mode) asks the engine to run to the end with its large budget."""
        ...
