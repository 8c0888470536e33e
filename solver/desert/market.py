"""The seeded solo market: each round's three columns and the active placement tokens.

Procedure (deterministic for a seed): shuffle the core bag, the desert bag and
the token stack with ``random.Random(f"desert-market:{seed}")`` in that order;
each round fills the solo columns (sizes from the ruleset, in that order) top
to bottom from the bag the ruleset's column mix names; untaken columns are
discarded.  Round r reveals token r; the active area holds the last
``active_area_size`` revealed tokens.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from solver.board.errors import InputError
from solver.desert.ruleset import Ruleset
from solver.desert.tiles import TileSet


@dataclass(frozen=True)
class RoundOffer:
    number: int  # 1-based
    columns: tuple[tuple[str, ...], ...]  # tile ids, one tuple per column
    tokens: tuple[str, ...]  # active placement tokens this round


@dataclass(frozen=True)
class Market:
    seed: int
    rounds: tuple[RoundOffer, ...]

    def to_json(self) -> dict:
        return {
            "seed": self.seed,
            "rounds": [
                {"round": r.number, "columns": [list(c) for c in r.columns], "tokens": list(r.tokens)}
                for r in self.rounds
            ],
        }


def draw_market(seed: int, tileset: TileSet, ruleset: Ruleset, rounds: int | None = None) -> Market:
    if not isinstance(seed, int) or seed < 0:
        raise InputError(f"a seed is a whole number >= 0 (got {seed!r})", "--seed")
    n_rounds = ruleset["rounds"] if rounds is None else rounds
    rng = random.Random(f"desert-market:{seed}")
    bags = {"core": tileset.bag("core"), "desert": tileset.bag("desert")}
    rng.shuffle(bags["core"])
    rng.shuffle(bags["desert"])
    tokens = ruleset.token_stack()
    rng.shuffle(tokens)
    window = ruleset["active_area_size"]
    offers = []
    for r in range(1, n_rounds + 1):
        columns = []
        for size in ruleset["solo_columns"]:
            col = []
            for bag in ruleset["column_mix"][str(size)]:
                if not bags[bag]:
                    raise InputError(f"the {bag} bag ran out in round {r}", "ruleset/catalogue")
                col.append(bags[bag].pop())
            columns.append(tuple(col))
        revealed = tokens[: min(r, len(tokens))]
        offers.append(RoundOffer(r, tuple(columns), tuple(revealed[-window:])))
    return Market(seed, tuple(offers))
