"""The lookahead policy: each column of this round judged by playing imagined futures with the
rollout policy of `desert game` (issue 40).

What the player knows at the table: the play area so far, this round's columns and active
tokens, the tiles already seen (placed, and shown this round) and the placement tokens in
the active area.  An *imagined future* is one way the rest of the game could come: the
tiles not yet seen shuffled into the solo columns (the sheet's core/expansion mix), and the
placement tokens not yet seen shuffled behind the active ones (the tokens that left the
active area earlier, if the record does not say which, are taken from the same shuffle:
unseen to the player, so drawn like the future ones).

For each column: its tiles are placed greedily and its pawns exactly (as every policy does,
solver.desert_play.policies), then each imagined future is played to the end with the rollout policy
(each later round's column chosen on its own imagined rollouts, greedy placement; the last
round's column on the final score), and the column's value is the mean final score (pawn
points once, as the referee counts them: the future is played to its end; mission missed:
-100).  The same futures for
every column (common random numbers), each seeded by ``seed``, the round and its index: the
advice is the same on every run unless the time budget cuts the futures short, which the
answer says.
"""
from __future__ import annotations

import random
import time
from collections import Counter

from solver.desert import missions, scoring
from solver.desert.area import PlayArea
from solver.desert.market import Market, RoundOffer
from solver.desert.setup import Setup
from solver.desert_play.policies import (
    PAWN_BONUS, pawn_bonus_of, place_pawns, play_column, rollout_value, sample_future)

INNER_ROLLOUTS = 2       # imagined rollouts per column inside an imagined future (the rollout policy uses 4)
MISSED = 100             # the rollout policy's penalty for a missed mission
# Work units of one tile offered to the greedy placer: 1 in a rollout (spots pre-ranked, ROLLOUT_PRUNE), UNPRUNED
# when every spot is tried (a column chosen in a play-out): about 4x the CPU on this machine (round 7's play-outs,
# all unpruned, cost about 8 ms a tile, round 1's, mostly pruned, about 2 ms).
UNPRUNED = 4
# The value of a future played to the end: its final score (False), or with pawn points counted twice as the
# rollout policy's own estimate does (True; the first measured variant, results/desert-advise-pawnx2.md).
PAWN_WEIGHT_X2 = False


def imagine(setup: Setup, number: int, seen: list[str], tokens: list[str], rng: random.Random,
            known_reveals: list[str] | None = None) -> tuple[list[str], list[RoundOffer]]:
    """One imagined future after round ``number``: the reveal order of every round (the
    active tokens last) and the offers of rounds ``number + 1 ..``."""
    rs, ts = setup.ruleset, setup.tileset
    bags = {"core": ts.bag("core"), "desert": ts.bag("desert")}
    for t in seen:
        tile = ts.get(t)
        if tile is not None and not tile.objective and t in bags[tile.kind]:
            bags[tile.kind].remove(t)
    for b in ("core", "desert"):
        rng.shuffle(bags[b])
    pool = Counter(rs.token_stack())
    pool.subtract(Counter(tokens))
    gone = list(known_reveals or [])
    pool.subtract(Counter(gone))
    hidden = sorted(pool.elements())
    rng.shuffle(hidden)
    unknown = max(0, number - len(tokens) - len(gone))
    order = gone + hidden[:unknown] + list(tokens) + hidden[unknown:]
    window = rs["active_area_size"]
    out = []
    for r in range(number + 1, rs["rounds"] + 1):
        cols = tuple(tuple(bags[b].pop() for b in rs["column_mix"][str(size)] if bags[b]) for size in rs["solo_columns"])
        out.append(RoundOffer(r, cols, tuple(order[:r][-window:])))
    return order, out


def _as_market(setup: Setup, number: int, seen: list[str], order: list[str], future: list[RoundOffer]) -> Market:
    """A market the rollout policy's own imagination can read: the seen tiles as round 1's
    only column (so later shuffles leave them out), one reveal a round, then ``future``."""
    window = setup.ruleset["active_area_size"]
    past = [RoundOffer(r, (tuple(seen),) if r == 1 else ((),), tuple(order[:r][-window:]))
            for r in range(1, number + 1)]
    return Market(0, tuple(past + future))


def play_out(setup: Setup, area: PlayArea, market: Market, number: int, ch, key: str,
             rollouts: int = INNER_ROLLOUTS, work: list[int] | None = None) -> float:
    """Play the rounds after ``number`` of ``market`` with the rollout policy; the final value.
    ``work[0]`` grows by the tiles offered to every column tried and every inner rollout (the
    deterministic measure of the effort that ``column_values``'s work budget counts)."""
    last = setup.ruleset["rounds"]
    work = work if work is not None else [0]
    for offer in market.rounds[number:]:
        best = None
        if offer.number == last:
            for k, col in enumerate(offer.columns):
                trial = area.copy()
                play_column(trial, list(col), offer.number, ch, None, None)
                place_pawns(trial, offer.tokens, ch, None, offer.number)
                work[0] += UNPRUNED * len(col)
                met = ch is None or missions.check(ch, trial).met
                val = scoring.score_total(trial) - (0 if met else 1000)
                if best is None or val > best[0]:
                    best = (val, trial)
        else:
            futures = []
            for i in range(rollouts):
                rng = random.Random(f"desert-lookahead-inner:{key}:{offer.number}:{i}")
                rounds = sample_future(setup, market, offer.number, rng)
                futures.append([(o, rng.randrange(len(o.columns))) for o in rounds])
            for k, col in enumerate(offer.columns):
                trial = area.copy()
                play_column(trial, list(col), offer.number, ch, None, None)
                place_pawns(trial, offer.tokens, ch, None, offer.number)
                val = sum(rollout_value(trial.copy(), f, ch, None) for f in futures) / len(futures)
                work[0] += UNPRUNED * len(col) + sum(len(o.columns[j]) for f in futures for o, j in f)
                if best is None or val > best[0]:
                    best = (val, trial)
        area = best[1]
    met = ch is None or missions.check(ch, area).met
    # the future is played to the end: its final score (pawn points once, as the referee counts them)
    return scoring.score_total(area) + (pawn_bonus_of(area) if PAWN_WEIGHT_X2 else 0) - (0 if met else MISSED)


def column_values(setup: Setup, area: PlayArea, number: int, columns: list[list[str]], tokens: list[str], ch,
                  seen: list[str], futures: int = 8, time_budget: float | None = 3.0, seed: int = 0,
                  known_reveals: list[str] | None = None, work_budget: int | None = None) -> dict:
    """Each column played now (greedy tiles, exact pawns) and judged by the mean over imagined
    futures played out with the rollout policy.  Futures are added one at a time for every
    column until ``futures`` or the CPU-time budget is spent (at least one).  ``work_budget``
    is the deterministic limit (the same futures on every machine): a next future is started
    only if the work so far plus one more future's mean work stays within it, work counted as
    the tiles offered to the greedy placer in every imagined round (``play_out``, ``UNPRUNED``)."""
    t0 = time.process_time()
    trials = []
    for col in columns:
        trial = area.copy()
        tiles = play_column(trial, list(col), number, ch, None, None)
        pawns = place_pawns(trial, tuple(tokens), ch, None, number)
        trials.append((trial, tiles, pawns))
    totals = [0.0] * len(columns)
    used, cut, cut_work, work = 0, False, False, [0]
    for i in range(futures):
        if i and time_budget is not None and time.process_time() - t0 > time_budget:
            cut = True
            break
        if i and work_budget is not None and work[0] + work[0] / used > work_budget:
            cut_work = True
            break
        rng = random.Random(f"desert-lookahead:{seed}:{number}:{i}")
        order, future = imagine(setup, number, seen, tokens, rng, known_reveals)
        market = _as_market(setup, number, seen, order, future)
        for k, (trial, _, _) in enumerate(trials):
            totals[k] += play_out(setup, trial.copy(), market, number, ch, f"{seed}:{number}:{i}", work=work)
        used += 1
    return {"values": [t / used for t in totals], "plays": trials, "futures": used, "futures_asked": futures,
            "cut_by_time": cut, "cut_by_work": cut_work, "work": work[0], "cpu_seconds": round(time.process_time() - t0, 2),
            "basis": (f"mean final score over {used} imagined future{'' if used == 1 else 's'} played out with the rollout policy"
                      + (f", pawn points x{1 + PAWN_BONUS:g}" if PAWN_WEIGHT_X2 else "")
                      + f" (mission missed: -{MISSED})")}
