"""Play on from a position: replay a plan prefix with the referee and hand the solvers the state reached.

A prefix is a plan file (as `--plan-out` writes it) whose rounds stop before the
game ends. Every round in it is replayed by the rules engine; the solvers then
search from the state at the start of the next round, and every plan they
return (prefix included) is replayed again before it is printed.
"""
from __future__ import annotations

from solver.board.errors import InputError
from solver.engine.plan import Plan, load_plan, replay
from solver.solo.answer import shares_line
from solver.solo.round_search import Node


def position_from(instance, path: str) -> tuple[Plan, Node]:
    """The prefix plan and the position after its last round (bad input: InputError naming the file)."""
    plan = load_plan(path, instance)
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
    shares = answer.search.get("shares")
    data = {"proof_source": answer.search.get("proof_source"), "shares_bounds": shares,
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


DETERMINISTIC_HELP = ("Reproducible mode (default): the plan search stops after --work round plans instead of at a "
                      "clock, and CP-SAT runs with --cp-workers workers (default 1) and the deterministic time limit "
                      "--cp-time (max_deterministic_time), so the same command gives the same answer. "
                      "--wall-clock: stop the plan search at --time-limit seconds instead.")


def solve_mode(deterministic: bool, work: int, cp_time: float, cp_workers: int, plan_time: float = 10.0,
               shares_time: float = 0.0, prove: bool = False, prove_time: float = 600.0):
    """(beam budget or None, CP-SAT parameters) for the solvers."""
    from solver.solo.relaxation import SolveParams
    if work < 1:
        raise InputError(f"expected at least 1 round plan, got {work}", "--work")
    if cp_time <= 0:
        raise InputError(f"expected a positive deterministic time, got {cp_time}", "--cp-time")
    if cp_workers < 1:
        raise InputError(f"expected at least 1 worker, got {cp_workers}", "--cp-workers")
    if not 0 <= plan_time < float("inf"):
        raise InputError(f"expected a finite deterministic time of 0 or more, got {plan_time}", "--plan-cp-time")
    if not 0 <= shares_time < float("inf"):
        raise InputError(f"expected a finite deterministic time of 0 or more, got {shares_time}", "--shares-cp-time")
    if not 0 < prove_time < float("inf"):
        raise InputError(f"expected a positive finite deterministic time, got {prove_time}", "--prove-time")
    return (work if deterministic else None), SolveParams(workers=cp_workers, deterministic_time=cp_time,
                                                          plan_time=plan_time, shares_time=shares_time,
                                                          prove=prove, prove_time=prove_time)


def cap_seconds(time_limit: float, deterministic: bool) -> float:  # noqa: ARG001 - the same in both modes
    """The wall-clock cap: --time-limit itself, in both modes (a player asking for 5 s gets an answer in about
    5 s, saying what was found by then). In reproducible mode the work budgets decide the answer whenever they
    are spent first; the slowest Easter Island solves of results/easter-island.csv take about 110 s, so the
    default 60 s can cut those short, and the answer says so."""
    return time_limit


def cap_record(cap: dict, deterministic: bool) -> dict:
    """Whether the --time-limit cap stopped the solve: then the answer is what was found and proved by then."""
    return {"seconds": cap["seconds"], "hit": cap["hit"],
            "bounds_the_time": "the wall clock (--wall-clock)" if not deterministic else
            "the work budgets --work, --cp-time and --plan-cp-time (reproducible)"
            + ("; the --time-limit stopped the solve first" if cap["hit"] else "")}
