"""The Desert's online policies (greedy, rollout, random) and the beam of perfect foresight:
how a player would place a column's tiles and pawns.  They know no model; every layout they
make is judged by the referee (solver.desert.referee.evaluate)."""
from __future__ import annotations

import random

from solver.desert import missions, scoring
from solver.desert.area import Pawn, PlayArea, token_allows
from solver.desert.layout import Layout, PawnPlay, RoundPlay, TilePlay
from solver.desert.market import Market, RoundOffer
from solver.desert.missions import Challenge
from solver.desert.pawns import best_assignment
from solver.desert.referee import evaluate
from solver.desert.setup import Setup
from solver.desert.tiles import CORE, DESERT, DIRS, PAWN_KINDS, Tile, neighbour


def _in_box(area: PlayArea, cell, box: tuple[int, int] | None) -> bool:
    """Inside the assumed play-area box; ``box`` None: anywhere (the game's table has no edge)."""
    if box is None:
        return True
    xs = [c[0] for c in area.grid] + [cell[0]]
    ys = [c[1] for c in area.grid] + [cell[1]]
    return max(xs) - min(xs) < box[0] and max(ys) - min(ys) < box[1]


def _mission_allows_tile(ch: Challenge | None, area: PlayArea, cell, tile: Tile) -> bool:
    """Placement filters that keep a mission from being broken for good."""
    if ch is None:
        return True
    if ch.mission == "boundary-in-one-line":
        trial = area.copy()
        trial.place(tile, cell, 0)
        return missions.check(ch, trial).met
    if ch.mission == "landmarks-one-group" and tile.landmarks:
        marked = [c for c, p in area.grid.items() if p.tile.landmarks]
        return not marked or any(neighbour(cell, d) in marked for d in DIRS)
    return True


def _mission_allows_pawn(ch: Challenge | None, area: PlayArea, cell, kind: str) -> bool:
    if ch is None or ch.mission != "desert-pawns-touch-core" or kind not in ch.pawn_kinds:
        return True
    if area.grid[cell].tile.kind != DESERT:
        return True
    return any((nb := area.grid.get(neighbour(cell, d))) is not None and nb.tile.kind == CORE for d in DIRS)


# A named valuation choice of the policies, not a rule: when they compare columns (the
# greedy round choice, the rollouts' end values, the beam), pawn points already scored
# weigh 1 + PAWN_BONUS (the referee counts them once).  Measured with
# `benchmarks/desert.py --compare-policy`; see results/desert.md.
PAWN_BONUS = 1.0


def pawn_bonus_of(area: PlayArea, bonus: float | None = None) -> float:
    return (PAWN_BONUS if bonus is None else bonus) * sum(p.points for p in area.pawns)


def potential(area: PlayArea) -> float:
    """End-of-game score of the area now, plus a little for free pinpoints (future pawns)."""
    base = scoring.score_total(area)
    free = sum(1 for c, p in area.grid.items() for i in range(len(p.tile.pinpoints)) if (c, i) not in area.used_pins)
    return base + 0.3 * free


def _stand(area: PlayArea, cell, idx: int, kind: str, token, round_no: int) -> PawnPlay:
    """Stand a pawn on a pinpoint, scored as the referee scores it, and name the play."""
    pawn = Pawn(cell, idx, kind, token, round_no)
    pawn.points = scoring.pawn_points(area, pawn)
    area.pawns.append(pawn)
    area.used_pins.add((cell, idx))
    return PawnPlay(cell, idx, token)


def place_pawns(area: PlayArea, tokens, ch: Challenge | None, rng: random.Random | None, round_no: int) -> list[PawnPlay]:
    """The best pawn placement of this round's active tokens, exactly (solver.desert.pawns);
    with ``rng``: random tokens' pawns on random free pinpoints (the random baseline)."""
    rs = area.ruleset
    plays = []
    if rng is None:
        for (cell, idx), kind, token in best_assignment(area, tokens, lambda c, k: _mission_allows_pawn(ch, area, c, k)):
            plays.append(_stand(area, cell, idx, kind, token, round_no))
        return plays
    for token in tokens:
        options = []
        for kind in PAWN_KINDS:
            if not token_allows(token, kind, rs):
                continue
            if kind == "camel" and area.camels() >= rs["camel_pawns"]:
                continue
            for cell, idx in area.free_pinpoints(kind):
                if rng is None and not _mission_allows_pawn(ch, area, cell, kind):
                    continue
                options.append((cell, idx, kind))
        if not options:
            continue
        cell, idx, kind = rng.choice(options)
        plays.append(_stand(area, cell, idx, kind, token, round_no))
    return plays


def _local_key(area: PlayArea, cell, tile: Tile) -> tuple[int, int]:
    """Cheap pre-ranking of a spot: sides touching the play area, then fewest open ends."""
    touching = opened = 0
    for d in DIRS:
        if neighbour(cell, d) in area.grid:
            touching += 1
        elif tile.sides[d] in ("railroad", "highway"):
            opened += 1
    return touching, -opened


def play_column(area: PlayArea, tiles: list[str], round_no: int, ch, box, rng, prune: int | None = None) -> list[TilePlay]:
    ts = area.tileset
    left = list(tiles)
    plays = []
    if rng is not None:
        rng.shuffle(left)
        for tid in left:
            spots = [(c, ot) for c, ot in area.legal_spots(ts.get(tid)) if _in_box(area, c, box)]
            if spots:
                c, ot = rng.choice(spots)
                area.place(ot, c, round_no)
                plays.append(TilePlay(tid, c, ot.rotation))
        return plays
    while left:
        best = None
        for tid in sorted(set(left)):
            spots = [(c, ot) for c, ot in area.legal_spots(ts.get(tid)) if _in_box(area, c, box)]
            if prune is not None and len(spots) > prune:
                spots = sorted(spots, key=lambda e: _local_key(area, e[0], e[1]), reverse=True)[:prune]
            for c, ot in spots:
                if not _mission_allows_tile(ch, area, c, ot):
                    continue
                trial = area.copy()
                trial.place(ot, c, round_no)
                val = potential(trial)
                key = (val, -c[1], -c[0], tid, ot.rotation)
                if best is None or key > best[0]:
                    best = (key, tid, c, ot)
        if best is None:
            break  # the rest cannot be placed: left out
        _, tid, c, ot = best
        area.place(ot, c, round_no)
        plays.append(TilePlay(tid, c, ot.rotation))
        left.remove(tid)
    return plays


def play_policy(
    setup: Setup, market: Market, ch: Challenge | None, kind: str = "greedy", rng_seed: int = 0, rollouts: int = 4,
    trace: list | None = None, box: tuple[int, int] | None | str = "ruleset",
) -> Layout:
    """Play the game round by round seeing only the current market.

    greedy: for each column, place its tiles greedily (best end-of-game score estimate
    after each tile, never breaking the mission) and its pawns greedily; take the column
    with the best result.  rollout: as greedy, but each column is judged by playing the
    rest of the game greedily on ``rollouts`` imagined futures (unseen tiles and tokens
    reshuffled), never the real one.  random: a random column, random legal spots,
    random pawns.  The last round of a whole game is chosen, by both, on the referee's
    final score of each column (mission met first).  ``trace``, if given, gets one entry a
    round: the column taken and the value of each column, and what the value is.
    """
    rs = setup.ruleset
    # the assumed 6x6 box (its layouts hint the boxed CP-SAT model); box=None: anywhere on the table
    box = tuple(rs["play_area_bound"]) if box == "ruleset" else box
    area = PlayArea(setup.tileset, rs)
    area.place(setup.tileset.start, (0, 0), 0)
    layout = Layout(start_at=(0, 0), start_rotation=0, challenge=ch.id if ch else None, seed=market.seed)
    rng = random.Random(f"desert-random-policy:{market.seed}:{rng_seed}") if kind == "random" else None
    for offer in market.rounds:
        if rng is not None:
            k = rng.randrange(len(offer.columns))
            trial = area.copy()
            tiles = play_column(trial, list(offer.columns[k]), offer.number, ch, box, rng)
            pawns = place_pawns(trial, offer.tokens, ch, rng, offer.number)
            best = (0, k, trial, tiles, pawns)
            values, basis = [None] * len(offer.columns), "random column"
        elif offer.number == rs["rounds"] == len(market.rounds):
            best, values = _final_round(setup, market, layout, area, offer, ch, box)
            basis = "the referee's final score (mission not met: -1000)"
        elif kind == "rollout":
            # the same imagined futures for every column (common random numbers)
            futures = []
            for i in range(rollouts):
                imagine = random.Random(f"desert-rollout:{market.seed}:{offer.number}:{i}")
                rounds = sample_future(setup, market, offer.number, imagine)
                futures.append([(o, imagine.randrange(len(o.columns))) for o in rounds])
            best, values = None, []
            for k, col in enumerate(offer.columns):
                trial = area.copy()
                tiles = play_column(trial, list(col), offer.number, ch, box, None)
                pawns = place_pawns(trial, offer.tokens, ch, None, offer.number)
                val = sum(rollout_value(trial.copy(), f, ch, box) for f in futures) / len(futures)
                values.append(val)
                if best is None or val > best[0]:
                    best = (val, k, trial, tiles, pawns)
            basis = (f"mean final score over {rollouts} imagined futures, pawn points x{1 + PAWN_BONUS:g} "
                     "(mission broken: -100)")
        else:
            values = []
            best = _greedy_round(area, offer, ch, box, values=values)
            basis = f"end-of-game estimate: score now + 0.3 a free pinpoint + pawn points x{PAWN_BONUS:g} again"
        _, k, area, tiles, pawns = best
        layout.rounds.append(RoundPlay(offer.number, column=k + 1, tiles=tiles, pawns=pawns))
        if trace is not None:
            trace.append({"round": offer.number, "column": k + 1,
                          "values": [None if v is None else round(v, 2) for v in values], "value": basis})
    return layout


def _final_round(setup: Setup, market: Market, layout: Layout, area: PlayArea, offer: RoundOffer, ch, box):
    """The last round: every column played out (tiles and pawns as in the other rounds) and
    the finished game judged by the referee; the best (legal, mission met, score) wins."""
    best, values = None, []
    for k, col in enumerate(offer.columns):
        trial = area.copy()
        tiles = play_column(trial, list(col), offer.number, ch, box, None)
        pawns = place_pawns(trial, offer.tokens, ch, None, offer.number)
        lay = Layout(layout.start_at, layout.start_rotation,
                     layout.rounds + [RoundPlay(offer.number, column=k + 1, tiles=tiles, pawns=pawns)],
                     layout.challenge, market.seed)
        ev = evaluate(setup, lay, ch, market)
        val = ev["score"] - (0 if ev["legal"] and (ch is None or ev["mission_met"]) else 1000)
        values.append(val)
        if best is None or val > best[0]:
            best = (val, k, trial, tiles, pawns)
    return best, values


def sample_future(setup: Setup, market: Market, upto: int, rng: random.Random) -> list[RoundOffer]:
    """Rounds after ``upto`` as the player could imagine them at round ``upto``: the
    tiles not yet seen, shuffled into the solo columns, and the placement tokens not yet
    revealed, shuffled behind the revealed ones."""
    rs = setup.ruleset
    bags = {"core": setup.tileset.bag("core"), "desert": setup.tileset.bag("desert")}
    for o in market.rounds[:upto]:
        for col in o.columns:
            for t in col:
                bag = bags[setup.tileset.get(t).kind]
                if t in bag:
                    bag.remove(t)
    for b in bags.values():
        rng.shuffle(b)
    revealed = [market.rounds[i].tokens[-1] for i in range(upto)]  # one token revealed a round
    hidden = rs.token_stack()
    for t in revealed:
        hidden.remove(t)
    rng.shuffle(hidden)
    order = revealed + hidden
    window = rs["active_area_size"]
    out = []
    for r in range(upto + 1, len(market.rounds) + 1):
        cols = tuple(
            tuple(bags[b].pop() for b in rs["column_mix"][str(size)] if bags[b]) for size in rs["solo_columns"]
        )
        out.append(RoundOffer(r, cols, tuple(order[:r][-window:])))
    return out


def _greedy_round(area: PlayArea, offer: RoundOffer, ch, box, prune: int | None = None,
                  values: list | None = None) -> tuple[float, int, PlayArea, list, list]:
    best = None
    for k, col in enumerate(offer.columns):
        trial = area.copy()
        tiles = play_column(trial, list(col), offer.number, ch, box, None, prune)
        pawns = place_pawns(trial, offer.tokens, ch, None, offer.number)
        # potential is the end-of-game score, which already holds every pawn's points
        val = potential(trial) + pawn_bonus_of(trial)
        if values is not None:
            values.append(val)
        if best is None or val > best[0]:
            best = (val, k, trial, tiles, pawns)
    return best


ROLLOUT_PRUNE = 4  # spots per tile fully evaluated inside rollouts (after the cheap pre-ranking)


def rollout_value(area: PlayArea, future: list[tuple[RoundOffer, int]], ch, box) -> float:
    """Final score after playing the imagined rounds: each round's (pre-drawn) column is
    placed greedily (spots pre-ranked cheaply), pawns greedily."""
    for offer, k in future:
        play_column(area, list(offer.columns[k]), offer.number, ch, box, None, ROLLOUT_PRUNE)
        place_pawns(area, offer.tokens, ch, None, offer.number)
    met = ch is None or missions.check(ch, area).met
    # the final score counts every pawn's points once (its pawn lines)
    return scoring.score_total(area) + pawn_bonus_of(area) - (0 if met else 100)


def beam_policy(
    setup: Setup, market: Market, ch: Challenge | None, width: int = 6, pawn_bonus: float | None = None
) -> Layout:
    """A perfect-foresight heuristic: beam search over the columns of every round.

    Each partial game is extended by every column (tiles and pawns placed greedily as in
    the online policy); the ``width`` best by points so far plus the end-of-game estimate
    survive.  Used to hint the CP-SAT model with a good starting layout.
    """
    rs = setup.ruleset
    box = tuple(rs["play_area_bound"])
    area = PlayArea(setup.tileset, rs)
    area.place(setup.tileset.start, (0, 0), 0)
    beam = [(0.0, area, [])]
    for offer in market.rounds:
        children = []
        for _, parent, rounds in beam:
            for k, col in enumerate(offer.columns):
                trial = parent.copy()
                tiles = play_column(trial, list(col), offer.number, ch, box, None)
                pawns = place_pawns(trial, offer.tokens, ch, None, offer.number)
                # pawn points are among its score lines, plus the bonus (PAWN_BONUS unless given)
                val = potential(trial) + pawn_bonus_of(trial, pawn_bonus)
                children.append((val, trial, rounds + [RoundPlay(offer.number, column=k + 1, tiles=tiles, pawns=pawns)]))
        children.sort(key=lambda e: -e[0])
        beam, seen = [], set()
        for child in children:
            key = (round(child[0], 6), tuple(sorted((c, p.tile.id, p.tile.rotation) for c, p in child[1].grid.items())))
            if key not in seen:
                seen.add(key)
                beam.append(child)
            if len(beam) == width:
                break

    # The final layout is picked by the referee: replayed and scored, mission checked.
    best = None
    for _, _, rounds in beam:
        lay = Layout(start_at=(0, 0), start_rotation=0, rounds=rounds, challenge=ch.id if ch else None, seed=market.seed)
        ev = evaluate(setup, lay, ch, market)
        key = (ev["legal"], ch is None or ev["mission_met"], ev["score"])
        if best is None or key > best[0]:
            best = (key, lay)
    return best[1]


def greedy_layout(setup: Setup, offers: list[RoundOffer], ch: Challenge | None, box) -> Layout:
    """Fixed tiles laid out greedily round by round (tiles, then pawns), inside ``box``."""
    area = PlayArea(setup.tileset, setup.ruleset)
    area.place(setup.tileset.start, (0, 0), 0)
    layout = Layout(challenge=ch.id if ch else None)
    for o in offers:
        tiles = play_column(area, list(o.columns[0]), o.number, ch, box, None)
        pawns = place_pawns(area, o.tokens, ch, None, o.number)
        layout.rounds.append(RoundPlay(o.number, None, list(o.tokens), tiles, pawns))
    return layout
