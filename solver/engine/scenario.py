"""The question a solo solve answers, as one value: which board, which setup, which rules, how many rounds.

Before this value the board, difficulty, setup, readings, seed and round limit travelled as loose
arguments, and every report needed all of them again beside the answer. A `Scenario` travels with
the answer instead (`solver.solo.answer.Answer.scenario`), so a report needs only the answer.

Not to be confused with `Instance.scenario` (solver/board/instance.py): that is the board file's
`[scenario]` table of numbers; this is one question asked about a board.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.board.instance import Instance
from solver.engine.plan import Plan, RoundPlan
from solver.engine.setup import Setup
from solver.engine.state import Rules


@dataclass(frozen=True, eq=False)
class Scenario:
    """One solo question: a board (with its ruleset), a difficulty and the setup played, the rules
    (readings), the seed that drew the setup (None when it was read from a file or a plan prefix) and
    the round limit asked for (None: the board's round track)."""

    instance: Instance
    difficulty: str
    setup: Setup
    rules: Rules = field(default_factory=Rules)
    seed: int | None = None
    rounds: int | None = None

    @property
    def name(self) -> str:
        """The map's name (the ruleset the board file names): `easter-island`, `zoo`."""
        return self.instance.scenario.ruleset

    @property
    def round_limit(self) -> int:
        return self.rounds or self.instance.scenario.rounds

    def plan(self, rounds: list[RoundPlan]) -> Plan:
        """A plan for this question (the referee replays it with these rules and this round limit)."""
        return Plan(self.instance.board.name, self.difficulty, self.rules, self.setup, rounds,
                    round_limit=self.round_limit)


def as_scenario(question: Scenario | Instance, difficulty: str | None = None, setup: Setup | None = None,
                rules: Rules | None = None, rounds: int | None = None) -> Scenario:
    """The question itself, or one made from the loose arguments the solvers took before (tests, benchmarks)."""
    if isinstance(question, Scenario):
        if (difficulty, setup, rules, rounds) != (None, None, None, None):
            raise TypeError("give either a Scenario or the loose arguments, not both")
        return question
    return Scenario(question, difficulty, setup, rules if rules is not None else Rules(), rounds=rounds)
