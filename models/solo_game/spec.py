"""The numbers the time-expanded solo-game model is built from (plain values, no engine objects).

A map adapter (solver/solo/relaxation.py) fills a `SoloSpec` from a game
state at the start of a round; models/solo_game/relaxation.py turns it into
a CP-SAT model. Keeping the spec plain keeps the model free of the engine and
makes every number the model uses visible in one place; the one rule it carries
as a function, the income reduction, is the engine's own (solver/engine/economy.py),
handed in so that the model and the referee read the table the same way.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Dest:
    """One place a good from `origin` may end: a lower bound on what any shipment there needs."""

    stop: object                 # the destination stop (a Hex)
    links: int                   # fewest links of any route over any network (a lower bound)
    tiles: int                   # fewest NEW track hexes any route needs (existing track free; a lower bound)
    need: int = 0                # least locomotive over any network without the Feeding discount (Zoo)
    need_discount: int = 0       # the same with the discount (Zoo)
    town: bool = False           # a town: a good may end there only once it is urbanized


@dataclass(frozen=True)
class Item:
    """Goods that leave one stop: one cube (Easter Island) or the food of one area (Zoo, `count` pieces)."""

    key: str
    origin: object
    count: int                   # how many may be shipped (1 for a cube)
    must_ship: bool              # Easter Island: every cube must leave the map
    dests: tuple[Dest, ...]
    stop_at: frozenset = frozenset()  # cities where the good must end when its route reaches them (its colour)


@dataclass(frozen=True)
class Stack:
    """A moai: the bottom and top cube items on one ruin (Easter Island, top cube only)."""

    stop: object
    bottom: str                  # Item.key
    top: str


@dataclass
class SoloSpec:
    first_round: int             # the round the state is at (phase 'shares')
    # economy at the start of first_round
    cash: int
    income: int
    shares: int
    locomotive: int
    blockers: frozenset          # blocked action spaces (Easter Island)
    bonus_tiles: int             # Zoo: bonus tiles in hand
    new_city_tiles: int          # new city tiles left
    urbanized: frozenset         # towns already urbanized
    # rules
    share_price: int
    max_shares: int
    max_locomotive: int
    action_costs: dict           # action name -> cost
    action_optional: bool        # may a round go without an action?
    blocker_cycle: bool          # Easter Island's action blockers
    rapa_nui_cash: int
    income_floor: int
    income_reduction: Callable   # income -> its loss: the engine's rule (solver/engine/economy.py), handed in
    tile_limit: int
    engineer_tile_limit: int
    tile_cost: int               # least cost of the first tile on an empty hex (any terrain, any tile kind)
    engineer_tile_cost: int | None  # Zoo: the Engineer's tile cost, else None
    bonus_from_exits: bool       # Zoo: a round whose shipments use an exit gives a bonus tile
    bonus_tiles_pay: bool
    feeding_discount: int        # Zoo: Feeding lowers one danger in one shipment a round
    shipments_per_round: int
    # goods and the clear condition
    items: list[Item] = field(default_factory=list)
    stacks: list[Stack] = field(default_factory=list)
    towns: tuple = ()            # towns that could be urbanized
    must_feed: tuple = ()        # Zoo: areas that must receive a shipment
    network_tiles: int = 0       # Easter Island: new track hexes any network joining all ruins needs
    danger_rules: bool = False   # Zoo: locomotive must cover the route's danger
    # the stop-level network: every link any network could have, with the fewest NEW hexes it needs
    stops: tuple = ()
    link_pairs: tuple = ()       # (a, b, new hexes): a < b by str
    teleport_exits: tuple = ()   # Zoo: exits, joined to each other by teleports (no link)
    join: tuple = ()             # Easter Island: stops every plan must join into one network (the ruins)
    complex_tiles: bool = True   # may one hex carry two tracks (crossing / two non-crossing tracks)?
    double_cost: int = 1         # the least a second track on a hex adds (board's complex extras, upgrade)
    route_order: bool = True     # order the stops of each route (no detached cycles): stronger, larger
    idle_actions: bool = False   # reading idle-actions=allowed: an action with nothing to do may be selected
    clear_when_under: bool = False  # reading clear-and-under=cleared: no income floor in the clearing round
    notes: list[str] = field(default_factory=list)
