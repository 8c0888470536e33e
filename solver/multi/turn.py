"""The best shipping phase of one multiplayer player: two steps, searched exhaustively, replayed by the rules.

A shipping phase has two steps ("Move goods: two rounds"); each step is a
delivery, a locomotive raise (once a turn; Kansas City has none), a power plant
(Kansas City, once a turn) or a pass. The search tries every legal first step
and, from the position it leaves, every legal second step: the moves come from
the shared shipment search (solver/engine/shipping.py) and the map's ruleset decides
each one, so the search proposes nothing the rules did not allow. The income
phase (collect income, pay expenses, income reduction) is the ruleset's
`income_phase`.

"Best" (OBJECTIVE): the most income for the player after this turn's income
phase (income after shipping, less any expense shortfall, less the income
reduction), then the most cash after expenses. It is a one-turn horizon: a
locomotive raise or power plant is worth it only when the second step uses it
within this turn; what other players gain is shown, not weighed.

Every plan printed is replayed from the loaded position by `replay_turn` (the
ruleset's `why_illegal` and `apply`), independently of the search's own copies.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.engine.moves import Pass, Ship, UpgradeLocomotive
from solver.engine.shipping import shipments

OBJECTIVE = ("the most income after this turn's income phase (income after shipping, less any expense "
             "shortfall, less the income reduction), then the most cash; one turn ahead, other players' gains "
             "not weighed")


@dataclass
class StepResult:
    move: object
    text: str
    income: int = 0            # the active player's income gained
    links: int = 0
    cost: int = 0              # cash paid (transfer fee, power plant)
    others: dict = field(default_factory=dict)
    effects: list = field(default_factory=list)


@dataclass
class TurnResult:
    """A shipping phase replayed by the rules, with the income phase after it."""

    steps: list
    income_before: int
    cash_before: int
    income_after_shipping: int
    accounts: dict
    end_effects: list
    state: object              # the position after the income phase

    @property
    def key(self) -> tuple[int, int]:
        """What the objective compares, exactly (integers): (income, cash) after the income phase."""
        return self.accounts["income"], self.accounts["cash"]

    @property
    def moves(self) -> tuple:
        return tuple(s.move for s in self.steps)

    def to_json(self) -> dict:
        return {"steps": [{"step": s.text, "move": str(s.move), "income": s.income, "links": s.links,
                           "cost": s.cost, "others_income": s.others, "effects": s.effects} for s in self.steps],
                "income_before": self.income_before, "income_after_shipping": self.income_after_shipping,
                "income_collected": self.accounts["income_collected"], "expenses": self.accounts["expenses"],
                "shortfall": self.accounts["shortfall"], "income_reduction": self.accounts["income_reduction"],
                "income_after_turn": self.accounts["income"], "cash_before": self.cash_before,
                "cash_after_turn": self.accounts["cash"], "board_effects": self.end_effects}


class IllegalTurn(Exception):
    pass


def legal_steps(state) -> list:
    """Every legal shipping step now, as the rules judge it."""
    rs = state.ruleset
    proposals = list(shipments(state)) + [UpgradeLocomotive()] + list(rs.step_moves(state)) + [Pass()]
    return [m for m in proposals if rs.why_illegal(state, m) is None]


def step_text(state, move) -> str:
    label = state.board.label
    if isinstance(move, Ship):
        out = label(move.route[0])
        for i, h in enumerate(move.route[1:]):
            out += (" ~ " if i in move.teleports else " > ") + label(h)
        return f"deliver {move.colour} {out}"
    if isinstance(move, UpgradeLocomotive):
        return f"raise the locomotive {state.me.locomotive} -> {state.me.locomotive + 1}"
    if isinstance(move, Pass):
        return "pass"
    return state.ruleset.step_text(state, move)


def _describe(state, move) -> StepResult:
    rs = state.ruleset
    out = StepResult(move, step_text(state, move))
    if isinstance(move, Ship):
        split = rs.income_split(state, move)
        out.income = split.get(state.active, 0)
        out.links = rs.locomotive_need(state, move)[0]
        out.cost = rs.delivery_cost(state, move)
        out.others = {str(k): v for k, v in sorted(split.items(), key=lambda kv: str(kv[0]))
                      if k not in (None, state.active)}
        out.effects = rs.effects(state, move)
    else:
        out.cost = rs.step_cost(state, move)
        out.effects = rs.step_effects(state, move)
    return out


def replay_turn(state, moves) -> TurnResult:
    """Play `moves` from `state` through the ruleset (the referee), then the income phase.

    Raises IllegalTurn naming the step and the rule when a move is not legal."""
    rs = state.ruleset
    st = state.clone()
    steps = []
    for i, move in enumerate(moves, 1):
        problem = rs.why_illegal(st, move)
        if problem is not None:
            raise IllegalTurn(f"step {i} ({move}): {problem}")
        steps.append(_describe(st, move))
        rs.apply(st, move)
    after_shipping = st.me.income
    accounts = rs.income_phase(st)
    return TurnResult(steps, state.me.income, state.me.cash, after_shipping, accounts, rs.turn_effects(st), st)


@dataclass
class TurnAnswer:
    best: TurnResult
    others: list                 # runner-up plans (distinct sets of steps), best first
    sequences: int               # every legal two-step sequence tried
    order_note: str | None       # why the order of the best plan matters, if it does


def search_turn(state, runner_ups: int = 3) -> TurnAnswer:
    """Every legal two-step shipping phase; the best by OBJECTIVE (a complete search: the proof)."""
    rs = state.ruleset
    steps = state.scenario.shipments_per_round
    if steps != 2:
        raise ValueError("the turn search covers two shipping steps")
    results: list[TurnResult] = []
    for first in legal_steps(state):
        one = state.clone()
        rs.apply(one, first)
        for second in legal_steps(one):
            results.append(replay_turn(state, (first, second)))
    if not results:
        raise IllegalTurn("no legal shipping phase (not even two passes)")

    def order(r: TurnResult):
        return (-r.key[0], -r.key[1], sum(isinstance(m, Pass) for m in r.moves), [str(m) for m in r.moves])

    results.sort(key=order)
    best = results[0]
    seen = {_as_set(best.moves)}
    others = []
    for r in results[1:]:
        k = _as_set(r.moves)
        if k in seen:
            continue
        seen.add(k)
        others.append(r)
        if len(others) >= runner_ups:
            break
    return TurnAnswer(best, others, len(results), _order_note(state, best, results))


def _as_set(moves) -> tuple:
    return tuple(sorted(str(m) for m in moves))


def _order_note(state, best: TurnResult, results: list) -> str | None:
    """Does the other order of the best plan's two steps do worse (or break a rule)?"""
    a, b = best.moves
    if a == b:
        return None
    swapped = next((r for r in results if r.moves == (b, a)), None)
    if swapped is None:
        try:
            replay_turn(state, (b, a))
        except IllegalTurn as err:
            return f"the other order is not legal: {err}"
        return None
    if swapped.key < best.key:
        return (f"the other order ends with income {swapped.key[0]} and ${swapped.key[1]} instead of "
                f"{best.key[0]} and ${best.key[1]}")
    return None


def difference(best: TurnResult, other: TurnResult) -> str:
    di, dc = other.key[0] - best.key[0], other.key[1] - best.key[1]
    return f"income {di:+d}, cash {dc:+d} against the best"


def first_step_values(state) -> dict:
    """For each legal first delivery: the best turn that starts with it ((income, cash) after the turn).
    Deliveries are ranked by this where the order of deliveries matters (Kansas City's Boom or Bust)."""
    rs = state.ruleset
    out = {}
    for first in legal_steps(state):
        if not isinstance(first, Ship):
            continue
        one = state.clone()
        rs.apply(one, first)
        keys = [replay_turn(state, (first, second)).key for second in legal_steps(one)]
        out[first] = max(keys)
    return out
