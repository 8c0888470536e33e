"""A time-expanded CP-SAT model of the solo Age of Steam game (Easter Island, Zoo).

`build_relaxation` is the RELAXATION (its INFEASIBLE is a proof); the argument
for why every real plan maps into it is written at the top of relaxation.py.
"""
from models.solo_game.relaxation import SoloModel, build_relaxation
from models.solo_game.spec import Dest, Item, SoloSpec, Stack

__all__ = ["Dest", "Item", "SoloModel", "SoloSpec", "Stack", "build_relaxation"]
