"""The CP-SAT relaxation of the solo game (models/solo_game/relaxation.py) as a proof engine.

Its argument that every legal play maps into the model is written next to the model; its INFEASIBLE
at round R proves that no play clears by R, and the model is monotone in R (point 7 there), so one
INFEASIBLE settles every round below. The default answer asks it once, at the question's round, with
`SolveParams.deterministic_time`; the deep mode (`SolveParams.prove`) gives each model
`prove_time` units and, when the question's round stays open, walks up from the best known bound
(`Position.known_bound`) to the first round it cannot rule out.
"""
from __future__ import annotations

import dataclasses

from solver.solo.proofs.base import NO_CLEAR, OPEN, Position, Verdict
from solver.solo.relaxation import game_spec, rounds_relaxation

RELAXATION = "relaxation"  # the engine's name: the proof source of an answer it settles


def relaxation_spec(position: Position):
    """The relaxation's numbers for the position (models/solo_game SoloSpec), built once per position."""
    if "relaxation spec" not in position.cache:
        state = position.state
        if position.ruleset == "zoo":
            spec = game_spec(state, zoo_graph=position.zoo_graph)
        else:
            tiles = (position.tiles_net.lower_bound or 0) if position.start is None and position.tiles_net else None
            spec = game_spec(state, network_tiles=tiles, time_limit=max(1.0, position.time_limit / 4))
        position.cache["relaxation spec"] = spec
    return position.cache["relaxation spec"]


class Relaxation:
    """Time-expanded CP-SAT relaxation: cash, income, shares, locomotive, blockers, tiles per round."""

    name = RELAXATION
    cheap = False

    def prove(self, position: Position, last_round: int, params) -> Verdict:
        lower = max(position.known_bound, position.state.round)
        if last_round < lower:  # settled before this engine was asked: it proves nothing here
            return Verdict(OPEN, self.name, f"not asked: rounds below {lower} are already proved not enough")
        spec = relaxation_spec(position)
        if params.prove:
            params = dataclasses.replace(params, deterministic_time=params.prove_time)
        raised, log = rounds_relaxation(spec, lower, last_round, params, walk_up=params.prove)
        zoo = position.ruleset == "zoo"
        reasons = ()
        if raised > lower:
            reasons = (f"the CP-SAT relaxation of the game (models/solo_game) is infeasible for "
                       f"{'feeding every area' if zoo else 'clearing'} by round {raised - 1}: at least {raised} rounds",)
        if raised > last_round:
            detail = (f"no way to clear by round {last_round} exists even in the CP-SAT relaxation of the game "
                      "(models/solo_game: cash, income, locomotive, blockers and tiles per round)")
            return Verdict(NO_CLEAR, self.name, detail, bound=raised, reasons=reasons, log=tuple(log))
        last = log[-1]["relaxation"] if log else "not asked"
        detail = f"the CP-SAT relaxation of the game (models/solo_game) is {last} by round {last_round}"
        return Verdict(OPEN, self.name, detail, bound=raised if raised > lower else None, reasons=reasons,
                       log=tuple(log))
