"""Play on from a position: replay a plan prefix with the referee and hand the solvers the state reached.

A prefix is a plan file (as `--plan-out` writes it) whose rounds stop before the
game ends. Every round in it is replayed by the rules engine; the solvers then
search from the state at the start of the next round, and every plan they
return (prefix included) is replayed again before it is printed.
"""
from __future__ import annotations

from solver.board.errors import InputError
from solver.engine.plan import Plan, load_plan, plan_from_json, replay
from solver.solo.answer import shares_line
from solver.solo.round_search import Node


def position_from(instance, path: str) -> tuple[Plan, Node]:
    """The prefix plan and the position after its last round (bad input: InputError naming the file)."""
    return _position(instance, load_plan(path, instance), path)


def position_from_json(instance, data, where: str) -> tuple[Plan, Node]:
    """As position_from, for a plan already read (the app's "play along"): no file to write first."""
    return _position(instance, plan_from_json(data, instance, where), where)


def _position(instance, plan: Plan, path: str) -> tuple[Plan, Node]:
    result = replay(instance, plan)
    if result.error is not None:
        raise InputError(f"the plan prefix is not legal: {result.error}", path)
    state = result.state
    if state.cleared_round is not None:
        raise InputError(f"the game is already cleared in round {state.cleared_round}; nothing is left to solve",
                         path)
    if state.lost:
        raise InputError(f"the game is already lost: {state.lost}", path)
    if state.is_terminal():
        raise InputError(f"the round limit is reached after {len(plan.rounds)} round(s)", path)
    return plan, Node(state, list(plan.rounds))


def solo_extras(answer, start: Node | None) -> tuple[dict, list[str]]:
    """JSON fields and text lines for the proof source, the shares bounds and the starting position."""
    shares = answer.search.shares
    data = {"proof_source": answer.search.proof_source, "shares_bounds": shares,
            "from_round": start.state.round if start is not None else None}
    lines = []
    if start is not None:
        lines.append(f"From the position at the start of round {start.state.round} (the plan prefix replayed by "
                     f"the referee): cash ${start.state.cash}, income {start.state.income}, "
                     f"{start.state.shares} shares, locomotive {start.state.locomotive}")
    if shares:
        data["shares_line"] = shares_line(shares)
        lines.append(data["shares_line"])
    return data, lines
