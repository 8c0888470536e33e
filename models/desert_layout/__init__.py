"""CP-SAT model of a Railroad Tiles Desert solo game's layout.

Given the tiles offered each round (one column per round when the tiles are
fixed, or the three market columns when the solver also chooses the column),
the active placement tokens of each round, a challenge and a bounded play area,
:func:`build_model` builds a model whose solutions are legal games (tile
positions, rotations, placement order, pawns) meeting the mission, scored
exactly as :mod:`solver.desert.scoring` scores them.  The solver never judges
its own answers: :func:`solve` turns a solution into a layout file that the
independent referee replays.

How the rules are encoded (each constraint below names the rule it encodes):

* Placement order.  Every tile gets an order number inside its round's band;
  each tile but the start tile has a *parent*, a neighbour with a smaller order
  number (it touched the play area when placed).  The parent must be of the
  same kind (the Desert same-kind rule), except for the one *first Desert
  tile*.  Following parents from any Desert tile ends at the first Desert tile,
  which therefore is the earliest one.
* Networks at the time a pawn is placed are certified by flows: a pawn scores
  one point per unit of flow that reaches, through routes present by its
  round, a Desert Station (camels: through trails only) or an earlier pawn of
  its kind (cars, trains, travelers).  Flows never overstate a network, and the
  solver maximises, so the points are exact.
* Active landmarks send one unit of flow each through trails to a Desert Station.
* Landmark sets: with set points growing by non-decreasing steps (checked by the
  ruleset loader), the best split into sets of different types scores
  ``sum_j step_j * c_(j)`` (counts sorted down), which equals the minimum over
  all ways to pair the steps with the types; so ``points <= sum`` for every pairing.
* The largest rectangle is a chosen block of rows x columns that is fully occupied.
* Symmetry: the play area touches the box's first row and column; in a square box
  the start tile keeps rotation 0 (turning the whole play area changes nothing).
* Bounds: each score term also gets a static upper bound from the offered tiles
  (one column per round at most) and the tokens, as its variable's domain, and a
  few redundant aggregate constraints; CP-SAT's LP alone did not link the terms.

* The per-line bounds of bounds.py (max over column choices: rectangle, cities, landmark
  sets, a timed pawn bound with the camel-reach bound) bound the objective and each line.

:mod:`models.desert_layout.lns` improves a legal layout by re-placing windows of two rounds
with the rest pinned (a restriction: better layouts, never a bound).

:func:`solve` always starts from a complete, legal hint (a given layout, such as a
policy's, or the start tile alone), settled by first solving the model with that
layout pinned.
"""
from models.desert_layout.problem import Border, Cell, Item, LayoutModel, LayoutProblem, Offer, Opp, border  # noqa: F401
from models.desert_layout.build import build_model  # noqa: F401
from models.desert_layout.solve import LayoutSolution, extract, hint_from_layout, solve  # noqa: F401
