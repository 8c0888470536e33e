"""Idle track out of a plan: a link no shipment and no clear condition needs is not laid.

A search builds toward networks it may not finish using: a branch toward a cube another route
delivered, a tile laid for a shortcut never taken. Such track costs money and, in the answer, reads
as a mistake. This step drops it, one build step (or the tail of a build path) at a time, and asks
the referee (solver.engine.plan.replay) whether the plan without it is still legal, still clears in
the same round with no more shares, and ends with at least as much cash. Only then is the cut
kept. Then a share the plan issued for that track is given back the same way (fewer shares rank
first, as in the search). So a solver never judges its own legality here either: every cut plan is replayed.

At the end no single build step can be dropped and no build path cut shorter without the referee
refusing the plan (a shipment loses its route, the ruins are no longer joined, a later build has
nothing to extend) or the plan clearing later: every tile left serves a shipment, the clear
condition or track that does.
"""
from __future__ import annotations

import dataclasses

from solver.board.instance import Instance
from solver.engine.moves import BuildPath, BuildStep, Urbanize
from solver.engine.plan import Plan, Replay, replay


@dataclasses.dataclass
class Pruned:
    plan: Plan
    check: Replay                                     # the referee's replay of `plan`
    removed: list[str] = dataclasses.field(default_factory=list)  # "round 8: D2-E3-D4", for the answer


def _cuts(entry: BuildStep) -> list[BuildStep | None]:
    """What a build step may become, smallest first: nothing, then the path with fewer tiles."""
    if isinstance(entry, Urbanize):
        return []  # a new city is not track
    if not isinstance(entry, BuildPath):
        return [None]  # one tile
    hexes = entry.hexes
    # a path is anchor, tiles..., and the hex the last tile points to: keep 1 .. n-1 of its n tiles
    return [None] + [BuildPath(hexes[:keep + 2], entry.bonus) for keep in range(1, len(hexes) - 2)]


def _key(check: Replay) -> tuple:
    s = check.state
    return s.cleared_round, s.shares, -s.cash


def _no_worse(check: Replay, target: Replay) -> bool:
    """Legal, clears, and no worse by the answer's ranking: rounds, then fewest shares, then most cash."""
    return check.error is None and check.state.cleared_round is not None and _key(check) <= _key(target)


def prune_idle_track(instance: Instance, plan: Plan, check: Replay | None = None, fixed: int = 0) -> Pruned:
    """The plan without build steps (or path tails) that nothing uses; `check`: the plan's replay, if known.
    `fixed`: the first rounds are the game as played (a `--from` prefix): they are never changed.

    A plan the referee refuses, or one that does not clear, is returned as it is."""
    check = check or replay(instance, plan)
    if check.error is not None or check.state.cleared_round is None:
        return Pruned(plan, check)
    removed: list[str] = []
    changed = True
    while changed:
        changed = False
        for r in range(len(plan.rounds) - 1, fixed - 1, -1):
            i = len(plan.rounds[r].build) - 1
            while i >= 0:
                entry = plan.rounds[r].build[i]
                for cut in _cuts(entry):
                    build = list(plan.rounds[r].build)
                    if cut is None:
                        del build[i]
                    else:
                        build[i] = cut
                    rounds = list(plan.rounds)
                    rounds[r] = dataclasses.replace(plan.rounds[r], build=build)
                    trial = dataclasses.replace(plan, rounds=rounds)
                    trial_check = replay(instance, trial)
                    if _no_worse(trial_check, check):
                        dropped = entry if cut is None else f"{entry} cut to {cut}"
                        removed.append(f"round {r + 1}: {dropped}")
                        plan, check, changed = trial, trial_check, True
                        break
                i -= 1
    # Shares the plan no longer needs (the track it paid for is gone): one fewer at a time, latest first.
    for r in range(len(plan.rounds) - 1, fixed - 1, -1):
        while plan.rounds[r].shares > 0:
            rounds = list(plan.rounds)
            rounds[r] = dataclasses.replace(plan.rounds[r], shares=plan.rounds[r].shares - 1)
            trial = dataclasses.replace(plan, rounds=rounds)
            trial_check = replay(instance, trial)
            if not (_no_worse(trial_check, check) and trial_check.state.shares < check.state.shares):
                break
            removed.append(f"round {r + 1}: one share fewer")
            plan, check = trial, trial_check
    return Pruned(plan, check, removed)
