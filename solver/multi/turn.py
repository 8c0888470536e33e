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
from solver.multi.choices import Deliver, base_of, variants

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
    ahead: tuple | None = None  # look-ahead: ((income, cash) after next turn's best shipping, its moves)

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
    """Every legal shipping step now, as the rules judge it; a delivery once per choice it leaves the player
    (which zone good is removed, whose parallel link carries a hop: solver/multi/choices.py)."""
    rs = state.ruleset
    proposals = [v for m in shipments(state) for v in variants(state, m)]
    proposals += [UpgradeLocomotive()] + list(rs.step_moves(state)) + [Pass()]
    return [m for m in proposals if rs.why_illegal(state, m) is None]


def steps_left(state) -> int:
    """Shipping steps still to play this turn (game.phase shipping: 2; shipping-second: 1)."""
    return state.scenario.shipments_per_round - state.shipments_done


def sequences(state, depth: int | None = None):
    """Every legal sequence of the remaining shipping steps, each move judged from the position before it."""
    depth = steps_left(state) if depth is None else depth
    if depth <= 0:
        yield ()
        return
    rs = state.ruleset
    for move in legal_steps(state):
        one = state.clone()
        rs.apply(one, move)
        for rest in sequences(one, depth - 1):
            yield (move,) + rest


def best_key(state) -> tuple[tuple[int, int], tuple]:
    """The best (income, cash) after this turn's income phase over every legal sequence of the remaining
    steps, and its moves (the look-ahead's inner search; no replay objects)."""
    rs, best = state.ruleset, None
    for moves in sequences(state):
        st = state.clone()
        for m in moves:
            rs.apply(st, m)
        acc = rs.income_phase(st)
        key = (acc["income"], acc["cash"])
        if best is None or key > best[0]:
            best = (key, moves)
    return best if best is not None else ((state.me.income, state.me.cash), ())


def step_text(state, move) -> str:
    label = state.board.label
    if isinstance(move, Ship):
        out = label(move.route[0])
        for i, h in enumerate(move.route[1:]):
            out += (" ~ " if i in move.teleports else " > ") + label(h)
        extra = ""
        if isinstance(move, Deliver):
            if move.removes:
                extra += f", removing a {move.removes} good from {label(move.route[-1])}"
            for i, owner in move.credit:
                extra += (f", over {owner or 'public track'}'s link {label(move.route[i])} > "
                          f"{label(move.route[i + 1])}")
        return f"deliver {move.colour} {out}{extra}"
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
    horizon: int = 1
    myopic_best: TurnResult | None = None   # horizon 2: the best of this turn alone, when it differs
    next_sequences: int = 0      # horizon 2: next-turn sequences compared


def search_turn(state, runner_ups: int = 3, horizon: int = 1) -> TurnAnswer:
    """Every legal sequence of the remaining shipping steps (two from the start of shipping, one after the
    first); the best by OBJECTIVE (a complete search: the proof). `horizon=2` ranks this turn's plans by the
    best shipping phase of the next turn from the position each leaves (LOOK_AHEAD), then by this turn."""
    rs = state.ruleset
    if state.scenario.shipments_per_round != 2:
        raise ValueError("the turn search covers two shipping steps")
    results: list[TurnResult] = [replay_turn(state, moves) for moves in sequences(state)]
    if not results or steps_left(state) <= 0:
        raise IllegalTurn("no legal shipping phase (not even two passes)" if steps_left(state) > 0
                          else "both shipping steps of this turn are used")
    nxt_count = 0
    if horizon >= 2:
        from solver.multi.advice import is_last_turn, next_turn
        for r in results:
            if is_last_turn(state):
                r.ahead = (r.key, ())
                continue
            nxt = next_turn(r.state)
            r.ahead = best_key(nxt)
            nxt_count += 1

    def order(r: TurnResult, ahead: bool = True):
        first = (-r.ahead[0][0], -r.ahead[0][1]) if ahead and r.ahead is not None else ()
        return first + (-r.key[0], -r.key[1], sum(isinstance(m, Pass) for m in r.moves), [str(m) for m in r.moves])

    results.sort(key=order)
    best = results[0]
    myopic = min(results, key=lambda r: order(r, False))
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
    if horizon >= 2 and myopic is not best and myopic not in others:
        others.append(myopic)
    return TurnAnswer(best, others, len(results), _order_note(state, best, results), horizon,
                      myopic if horizon >= 2 and _as_set(myopic.moves) != _as_set(best.moves) else None,
                      nxt_count)


LOOK_AHEAD = ("--horizon 2 searched: every legal plan of this turn's shipping, then from the position each "
              "leaves (after this turn's income phase) every legal two-step shipping of the next turn, with "
              "the goods this turn leaves; plans are ranked by income, then cash, after next turn's income "
              "phase. Not searched: other players' moves (their deliveries in between take goods), goods "
              "growth draws, next turn's actions, share issues and builds, later turns, victory points")


def _as_set(moves) -> tuple:
    return tuple(sorted(str(m) for m in moves))


def _order_note(state, best: TurnResult, results: list) -> str | None:
    """Does the other order of the best plan's two steps do worse (or break a rule)?"""
    if len(best.moves) != 2:
        return None
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
        keys = [replay_turn(state, (first,) + rest).key for rest in sequences(one)]
        base = base_of(first)
        out[base] = max(keys + ([out[base]] if base in out else []))
    return out
