"""The choices a player makes with a delivery, tried by the search instead of fixed by the code.

A delivery (`Ship`) may leave the player a choice the rules do not make:
- which good is removed from a Finland zone it reaches ("When a Good is moved to the Russia zone, remove one
  of the Goods in the Russia zone": the sheet does not say which, so the player picks);
- whose link carries a hop where several players' (or public) links join the same two stops and the player
  has none of their own (the player chooses the track the good moves over, so who earns the income).
`Deliver` is that delivery with its choices made; `variants` lists every distinct one, so the turn search
(solver/multi/turn.py) tries each and the advice says which is best. A plain `Ship` keeps the old defaults
(the bottom zone cube; the active player's own link, else public track, else the first owner by name).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from solver.engine.moves import Ship


@dataclass(frozen=True)
class Deliver(Ship):
    removes: str | None = None        # the zone good removed (Finland)
    credit: tuple = ()                # (hop index, owner or None) for hops with several carriers

    def __str__(self) -> str:
        text = super().__str__()
        if self.removes:
            text += f" removing {self.removes}"
        for i, owner in self.credit:
            text += f" hop{i}:{owner if owner is not None else 'public'}"
        return text

    def base(self) -> Ship:
        return Ship(self.origin, self.colour, self.route, self.teleports, self.discount)


def base_of(move):
    return move.base() if isinstance(move, Deliver) else move


def carriers(state, a, b) -> list:
    """Who may carry a good from a to b: the owners of the usable links (None: public track)."""
    rs = state.ruleset
    return sorted({link.owner for link in rs.usable_links(state, a, b)}, key=lambda o: (o is not None, str(o)))


def variants(state, move: Ship) -> list:
    """Every distinct choice the player has with this delivery (the move itself when there is none)."""
    rs = state.ruleset
    removals = rs.removal_choices(state, move)
    hops = []
    for i, (a, b) in enumerate(zip(move.route, move.route[1:])):
        if i in move.teleports or not rs.credit_choices:
            continue
        owners = carriers(state, a, b)
        if state.active in owners or len(owners) < 2:
            continue   # the player's own link, or only one carrier: nothing to choose
        hops.append([(i, o) for o in owners])
    if not removals and not hops:
        return [move]
    out = []
    for removes in (removals or [None]):
        for credit in itertools.product(*hops):
            out.append(Deliver(move.origin, move.colour, move.route, move.teleports, move.discount, removes,
                               tuple(credit)))
    return out
