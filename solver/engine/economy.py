"""The round's money as pure functions: the referee's `end_round` applies them, and the searches and
bounds that argue about money (solver/solo/link_search.py, economy_search.py, the relaxation's spec)
call them, so the base rules' end of a round is written once.

Base rules (../shared/rules/age-of-steam-base.md): "Collect income, then pay expenses" ($1 a share
issued, $1 a locomotive level); "what cannot be paid lowers income" by the shortfall; income below the
scenario's floor ends the game; then income falls by the income reduction table's loss for its bracket.
"""
from __future__ import annotations

from dataclasses import dataclass


def expenses(shares: int, locomotive: int) -> int:
    """The round's expenses: one dollar for each share issued and each locomotive level."""
    return shares + locomotive


def cover(balance: int, income: int) -> tuple[int, int, int]:
    """(cash, income, shortfall) once the expenses are paid from `balance` (cash after income and
    expenses, perhaps negative): what cannot be paid lowers income and leaves no cash."""
    shortfall = max(0, -balance)
    return balance + shortfall, income - shortfall, shortfall


def below_floor(income: int, floor: int) -> bool:
    """Does this income (after the shortfall, before the reduction) end the game?"""
    return income < floor


def income_reduction(table, income: int) -> int:
    """The loss of the first (low, high, loss) bracket of `table` holding `income`, else 0."""
    for low, high, loss in table:
        if low <= income <= high:
            return loss
    return 0


@dataclass(frozen=True)
class RoundMoney:
    """One round's accounts, as `settle` computes them."""

    collected: int      # the income collected
    expenses: int
    shortfall: int
    cash: int           # after expenses (never below 0)
    income_floored: int  # income after the shortfall: the value the floor judges
    reduction: int
    income: int         # after the reduction: next round's income

    def lost(self, floor: int) -> bool:
        return below_floor(self.income_floored, floor)


def settle(cash: int, income: int, shares: int, locomotive: int, table) -> RoundMoney:
    """The end of a round from the cash after the build: collect `income`, pay the expenses for `shares`
    and `locomotive`, cover the shortfall from income, then apply the reduction `table`."""
    owed = expenses(shares, locomotive)
    left, floored, shortfall = cover(cash + income - owed, income)
    loss = income_reduction(table, floored)
    return RoundMoney(income, owed, shortfall, left, floored, loss, floored - loss)
