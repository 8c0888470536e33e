"""The layout problem and the model's variable containers, keyed by domain objects."""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import NamedTuple

from ortools.sat.python import cp_model

from solver.desert.layout import Layout, PawnPlay, RoundPlay, TilePlay, token_allows
from solver.desert.missions import Challenge
from solver.desert.ruleset import Ruleset
from solver.desert.tiles import (
    DESERT,
    DIRS,
    EMPTY,
    HIGHWAY,
    PAWN_KINDS,
    RAILROAD,
    TRAIL,
    Tile,
    TileSet,
    neighbour,
    opposite,
)

Cell = tuple[int, int]
Border = tuple[Cell, int]  # (cell, 1=east or 2=south): the edge between two cells
PAIRS = tuple(itertools.combinations(DIRS, 2))


class Item(NamedTuple):
    """Copies of one tile type offered in one round and column."""

    round: int
    column: int  # 0-based index of the column in the round's offer
    tile: str


class Opp(NamedTuple):
    """One pawn placement allowed by one active token in one round."""

    round: int
    slot: int
    token: str


@dataclass
class Offer:
    round: int
    columns: list[list[str]]
    tokens: list[str]


@dataclass
class LayoutProblem:
    tileset: TileSet
    ruleset: Ruleset
    challenge: Challenge | None
    offers: list[Offer]
    width: int
    height: int
    choose_columns: bool = False  # False: each offer has one column, which is taken
    # Only cells with x + y <= max_diagonal (None: the whole box).  With n tiles in all and
    # the play area touching the box's first row and column (the model's translation
    # symmetry break), every cell has x + y <= n - 1: a connected set whose bounding box
    # spans x+1 columns and y+1 rows has at least x + y + 1 cells.  So an n x n box cut at
    # that diagonal holds EVERY layout of n tiles: a proof there is a proof for the game.
    max_diagonal: int | None = None

    @property
    def cells(self) -> list[Cell]:
        return [
            (x, y)
            for y in range(self.height)
            for x in range(self.width)
            if self.max_diagonal is None or x + y <= self.max_diagonal
        ]


def border(cell: Cell, d: int) -> Border:
    """Canonical name of the edge on side ``d`` of ``cell``."""
    if d in (1, 2):
        return (cell, d)
    return (neighbour(cell, d), opposite(d))


@dataclass
class LayoutModel:
    """The model and its variables, keyed by domain objects."""

    model: cp_model.CpModel
    problem: LayoutProblem
    take: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)  # (round, column)
    place: dict[tuple[Item, Cell, int], cp_model.IntVar] = field(default_factory=dict)  # (item, cell, rotation)
    start: dict[tuple[Cell, int], cp_model.IntVar] = field(default_factory=dict)  # (cell, rotation)
    occupied: dict[Cell, cp_model.IntVar] = field(default_factory=dict)
    desert: dict[Cell, cp_model.IntVar] = field(default_factory=dict)
    side: dict[tuple[Cell, int, str], cp_model.IntVar] = field(default_factory=dict)
    order: dict[Cell, cp_model.IntVar] = field(default_factory=dict)
    parent: dict[tuple[Cell, int], cp_model.IntVar] = field(default_factory=dict)
    first_desert: dict[Cell, cp_model.IntVar] = field(default_factory=dict)
    pawn: dict[tuple[Opp, Cell, int, str], cp_model.IntVar] = field(default_factory=dict)  # (opp, cell, rep side, kind)
    points: dict[Opp, cp_model.IntVar] = field(default_factory=dict)
    opps: list[Opp] = field(default_factory=list)
    terms: dict[str, cp_model.LinearExpr] = field(default_factory=dict)  # score lines
    objective: cp_model.LinearExpr | None = None
    line_bounds: object | None = None  # bounds.LineBounds: the combinatorial bound per score line


def _opportunities(problem: LayoutProblem) -> list[Opp]:
    return [Opp(o.round, s, tok) for o in problem.offers for s, tok in enumerate(o.tokens)]


def _kinds_for(token: str, rs: Ruleset) -> list[str]:
    return [k for k in PAWN_KINDS if token_allows(token, k, rs)]

