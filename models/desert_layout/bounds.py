"""Combinatorial upper bounds per score line, from the tiles and tokens alone.

For every way to take one column per round (3^8 = 6561 ways in a full game), each
score line gets an upper bound that holds for ANY legal layout of exactly those
tiles, whatever their positions:

* rectangle: at most the tiles placed (start tile included); inside a W x H box also
  at most the largest a x b <= that count with a <= W, b <= H (a rectangle is a block).
* city groups: at most the icons of all city tiles, and nothing when there are fewer
  city tiles than the smallest scoring group.
* landmarks: the set points of ALL landmarks of the taken tiles as if all were active
  (being active only removes landmarks; the best split is monotone in the counts).
* pawns: two relaxations, the smaller counts:
  (a) per placement opportunity (round, token slot), the most any kind its token allows
      can score then: a camel at most min(cap, stations possible by then, its network's
      reach), a Desert Station needing one trail side and one railroad/highway side of
      tiles already placed (the reach: see ``camel reach`` below); the j-th car/train/traveler at most min(cap, j), j limited by the earlier
      opportunities allowing that kind and by its pinpoints placed by then;
  (b) per kind, its placements at most min(opportunities allowing it, its pinpoints,
      the camel supply), the j-th scoring at most as in (a) at the end of the game.
  (c) both at once, timed: see ``_timed_pawn_bound``.
* openings: a penalty, so at most 0.

Camel reach (the trail-degree bound).  A camel scores the Desert Stations of its
trail-only network.  That network is connected; its nodes are route sides; it is made
of k pure-trail routes, route i reaching s_i trail sides (a trail side of a route that
also has railroad/highway sides joins the network only through a trail-trail border, as
a piece with s = 1), joined by trail-to-trail borders.  Joining k pieces takes at least
k - 1 such borders, each using up two trail sides that then face a trail side, not a
railroad/highway side; a Desert Station is a trail side facing a railroad/highway side,
and each side is at most one station.  So the stations of the network number at most
sum(s_i) - 2(k - 1) = 2 + sum(s_i - 2) <= 2 + sum over ALL pure-trail routes placed so
far of max(0, s_i - 2): straights and curves add nothing, a T adds 1, a cross adds 2.

Summing the lines for one column choice and taking the maximum over all choices
gives ``total``: an upper bound on the score of every legal layout of the market
(with ``box``: of every layout inside the box).  It couples the lines through the
column choice, which the LP relaxation of the CP-SAT model does only fractionally.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from solver.desert.area import token_allows
from solver.desert.ruleset import Ruleset
from solver.desert.scoring import landmark_sets
from solver.desert.tiles import HIGHWAY, PAWN_KINDS, RAILROAD, TRAIL, Tile, TileSet


@dataclass
class LineBounds:
    total: int  # max over column choices of the summed line bounds
    lines: dict[str, int] = field(default_factory=dict)  # max over column choices of each line alone
    choices: int = 0  # column choices enumerated
    best_choice: tuple[int, ...] = ()  # a choice reaching ``total`` (0-based column per round)


@dataclass(frozen=True)
class _Column:
    """What one column's tiles add, whatever their positions."""

    tiles: int
    city_tiles: int
    icons: int
    marks: tuple[int, ...]  # per landmark type
    pins: tuple[int, ...]  # per pawn kind (PAWN_KINDS order)
    trail_sides: int
    rh_sides: int
    trail_excess: int  # sum of max(0, s - 2) over pure-trail routes (camel reach, see above)


def column_summary(tiles: list[Tile], types: list[str]) -> _Column:
    return _Column(
        tiles=len(tiles),
        city_tiles=sum(1 for t in tiles if t.cities > 0),
        icons=sum(t.cities for t in tiles if t.cities > 0),
        marks=tuple(sum(1 for t in tiles for x in t.landmarks if x.type == typ) for typ in types),
        pins=tuple(sum(1 for t in tiles for p in t.pinpoints if p.pawn == k) for k in PAWN_KINDS),
        trail_sides=sum(1 for t in tiles for s in t.sides if s == TRAIL),
        rh_sides=sum(1 for t in tiles for s in t.sides if s in (RAILROAD, HIGHWAY)),
        trail_excess=sum(
            max(0, len(rt.sides) - 2) for t in tiles for rt in t.routes if all(t.sides[d] == TRAIL for d in rt.sides)
        ),
    )


def camel_reach(trail_excess: int) -> int:
    """Most Desert Stations one trail network can hold, given the summed excess of the
    pure-trail routes placed (argument in the module docstring)."""
    return 2 + trail_excess


def _largest_block(n: int, box: tuple[int, int] | None) -> int:
    if box is None:
        return n
    return max(a * b for a in range(1, box[0] + 1) for b in range(1, box[1] + 1) if a * b <= n) if n else 0


_CACHE: dict = {}


def line_bounds(
    tileset: TileSet,
    ruleset: Ruleset,
    columns: list[list[list[str]]],
    tokens: list[list[str]],
    box: tuple[int, int] | None = None,
    parts: tuple[str, ...] = ("reach", "timed"),
) -> LineBounds:
    """Upper bounds per line and in total; ``columns[r]`` are round r's offered columns
    (one column when the tiles are fixed), ``tokens[r]`` its active tokens.  Remembered
    for the last few markets (the model and the benchmark ask for the same one).  ``parts``
    leaves out the camel-reach or the timed pawn bound (for the benchmark's ablation)."""
    key = (id(tileset), id(ruleset), tuple(tuple(tuple(c) for c in cols) for cols in columns),
           tuple(tuple(t) for t in tokens), tuple(box) if box else None, tuple(parts))
    if key not in _CACHE:
        if len(_CACHE) > 16:
            _CACHE.clear()
        # the tile set and ruleset are kept alive with the entry, so their ids are not reused
        _CACHE[key] = (tileset, ruleset, _line_bounds(tileset, ruleset, columns, tokens, box, parts))
    lb = _CACHE[key][2]
    return LineBounds(lb.total, dict(lb.lines), lb.choices, lb.best_choice)


def _line_bounds(tileset, ruleset, columns, tokens, box, parts) -> LineBounds:
    rs = ruleset
    types = list(rs["landmark_types"])
    start = column_summary([tileset.start], types)
    per_round = [[column_summary([tileset.get(t) for t in col], types) for col in cols] for cols in columns]
    opps = [(r, tok) for r, toks in enumerate(tokens) for tok in toks]
    kinds_of = [[k for k in PAWN_KINDS if token_allows(tok, k, rs)] for _, tok in opps]
    cap, per = rs["pawn_points_cap"], rs["pawn_points_per_connected"]
    ccap, cper = rs["camel_points_cap"], rs["camel_points_per_station"]
    set_pts = rs["landmark_set_points"]

    def core_points(j: int) -> int:
        return min(cap, per * j)

    fixed_kind, n_wild, wild_kinds = _token_split(kinds_of)
    memo: dict = {}
    best = LineBounds(total=-10**9)
    line_max = {"pawns": 0, "rectangle": 0, "cities": 0, "landmarks": 0, "openings": 0}
    n = 0
    rows = []  # (cheap total, cheap pawns, the other lines, per-round pins and reach, choice)
    for choice in itertools.product(*[range(len(c)) for c in per_round]):
        n += 1
        cols = [start] + [per_round[r][k] for r, k in enumerate(choice)]
        # cumulative by the end of round r (index r+1 in cols; index 0 = the start tile)
        tiles = icons = city_tiles = trail = rh = excess = 0
        marks = [0] * len(types)
        pins = [0] * len(PAWN_KINDS)
        by_round = []
        for c in cols:
            tiles += c.tiles
            icons += c.icons
            city_tiles += c.city_tiles
            trail += c.trail_sides
            rh += c.rh_sides
            excess += c.trail_excess
            marks = [a + b for a, b in zip(marks, c.marks)]
            pins = [a + b for a, b in zip(pins, c.pins)]
            # Desert Stations one camel can reach by then: at most the stations there can
            # be (a trail side facing a railroad/highway side) and its network's reach.
            reach = camel_reach(excess) if "reach" in parts else trail
            by_round.append((list(pins), min(trail, rh, reach)))
        rect = rs["rectangle_points_per_tile"] * _largest_block(tiles, box)
        cities = rs["city_points_per_icon"] * icons if city_tiles >= rs["city_min_group"] else 0
        lms, _ = landmark_sets(dict(zip(types, marks)), set_pts)
        # pawns (a): per opportunity
        seen = {k: 0 for k in PAWN_KINDS}
        per_opp = 0
        for (r, _), kinds in zip(opps, kinds_of):
            p_by, stations = by_round[r + 1]
            best_here = 0
            for k in kinds:
                have = p_by[PAWN_KINDS.index(k)]
                if have == 0:
                    continue
                if k == "camel":
                    best_here = max(best_here, min(ccap, cper * stations))
                else:
                    best_here = max(best_here, core_points(min(seen[k] + 1, have)))
            for k in kinds:
                seen[k] += 1
            per_opp += best_here
        # pawns (b): per kind over the whole game
        final_pins, final_stations = by_round[-1]
        per_kind = _per_kind_bound(tuple(final_pins), min(ccap, cper * final_stations), fixed_kind, n_wild, wild_kinds,
                                   rs["camel_pawns"], cap, per, memo)
        pawns = min(per_opp, per_kind)
        for key, val in (("rectangle", rect), ("cities", cities), ("landmarks", lms)):
            line_max[key] = max(line_max[key], val)
        rows.append((pawns + rect + cities + lms, pawns, rect + cities + lms, tuple(map(tuple_round, by_round)), tuple(choice)))
    # pawns (c): the timed bound (exact for relaxations (a) and (b) together, so never above
    # min((a), (b))).  It costs more, so choices are refined best-first and the search stops
    # when no unrefined choice's cheaper bound can beat the best refined one: branch and bound.
    opp_rounds = [r for r, _ in opps]
    timed_memo: dict = {}

    def refined(row) -> int:
        if "timed" not in parts:
            return row[1]
        key = row[3]
        if key not in timed_memo:
            timed_memo[key] = _timed_pawn_bound(kinds_of, opp_rounds, key, rs["camel_pawns"], cap, per, ccap, cper)
        return min(row[1], timed_memo[key])

    rows.sort(key=lambda e: -e[0])
    for row in rows:
        if row[0] <= best.total:
            break
        total = row[2] + refined(row)
        if total > best.total:
            best = LineBounds(total, {}, 0, row[4])
    rows.sort(key=lambda e: -e[1])
    for row in rows:
        if row[1] <= line_max["pawns"]:
            break
        line_max["pawns"] = max(line_max["pawns"], refined(row))
    best.lines = line_max
    best.choices = n
    return best


def _token_split(kinds_of: list[list[str]]) -> tuple[tuple[int, ...], int, tuple[str, ...]]:
    """Tokens that allow one kind only place that kind; the others (stars) are shared out:
    per kind its single-kind tokens, the wild tokens and the kinds they allow (n_wild -1:
    mixed wild tokens, each then counted for every kind)."""
    fixed_kind = tuple(sum(1 for ks in kinds_of if ks == [k]) for k in PAWN_KINDS)
    wild = [ks for ks in kinds_of if len(ks) > 1]
    n_wild = len(wild)
    wild_kinds = tuple(sorted(set().union(*wild))) if wild else ()
    if any(set(ks) != set(wild_kinds) for ks in wild):
        n_wild, wild_kinds = -1, ()
    return fixed_kind, n_wild, wild_kinds


def holdings_bound(ruleset: Ruleset, held: list[_Column], opps: list[tuple[int, list[str]]]) -> tuple[int, dict]:
    """The line bound for one way the game can go, given as HOLDINGS: ``held[i]`` a summary
    that is at least (field by field) what the tiles placed by the end of round i hold
    (``held[0]``: the start tile), ``opps`` the placement opportunities (round i >= 1, the
    pawn kinds its token allows).  Every line bound above only grows with each field of the
    holdings (more tiles, icons, landmarks, pinpoints, trail and railroad/highway sides,
    trail excess; the landmark sets are monotone in the counts) and with the kinds each
    opportunity allows, so a field-by-field upper estimate of the tiles gives a bound on
    every layout of those tiles, wherever they lie.  Returns (total, lines)."""
    rs = ruleset
    types = list(rs["landmark_types"])
    cap, per = rs["pawn_points_cap"], rs["pawn_points_per_connected"]
    ccap, cper = rs["camel_points_cap"], rs["camel_points_per_station"]
    last = held[-1]
    rect = rs["rectangle_points_per_tile"] * last.tiles
    cities = rs["city_points_per_icon"] * last.icons if last.city_tiles >= rs["city_min_group"] else 0
    lms, _ = landmark_sets(dict(zip(types, last.marks)), rs["landmark_set_points"])
    by_round = [(tuple(h.pins), min(h.trail_sides, h.rh_sides, camel_reach(h.trail_excess))) for h in held]
    kinds_of = [ks for _, ks in opps]
    seen = {k: 0 for k in PAWN_KINDS}
    per_opp = 0
    for (r, kinds) in opps:
        p_by, stations = by_round[r]
        best_here = 0
        for k in kinds:
            have = p_by[PAWN_KINDS.index(k)]
            if have:
                best_here = max(best_here, min(ccap, cper * stations) if k == "camel" else
                                min(cap, per * min(seen[k] + 1, have)))
        for k in kinds:
            seen[k] += 1
        per_opp += best_here
    fixed_kind, n_wild, wild_kinds = _token_split(kinds_of)
    per_kind = _per_kind_bound(by_round[-1][0], min(ccap, cper * by_round[-1][1]), fixed_kind, n_wild, wild_kinds,
                               rs["camel_pawns"], cap, per, {})
    timed = _timed_pawn_bound(kinds_of, [r - 1 for r, _ in opps], by_round, rs["camel_pawns"], cap, per, ccap, cper)
    pawns = min(per_opp, per_kind, timed)
    lines = {"pawns": pawns, "rectangle": rect, "cities": cities, "landmarks": lms, "openings": 0}
    return pawns + rect + cities + lms, lines


def tuple_round(entry) -> tuple:
    pins, stations = entry
    return (tuple(pins), stations)


def _timed_pawn_bound(kinds_of, opp_rounds, by_round, camel_supply, cap, per, ccap, cper) -> int:
    """Most pawn points when the opportunities are taken in order, each placing at most one
    pawn of a kind its token allows: the j-th car/train/traveler needs j pinpoints of its
    kind on the tiles taken by its round and scores at most min(cap, per * j) (its network
    holds at most the j pawns of its kind placed so far); the j-th camel needs j camel
    pinpoints by then and j <= the camel supply, and scores at most its round's reach.
    A dynamic programme over the counts placed per kind: the exact maximum of this
    relaxation (the order of the tokens inside a round changes no count, so no value)."""
    states = {(0,) * len(PAWN_KINDS): 0}
    camel = PAWN_KINDS.index("camel")
    for kinds, r in zip(kinds_of, opp_rounds):
        pins, stations = by_round[r + 1]
        cam_val = min(ccap, cper * stations)
        new = dict(states)
        for st, v in states.items():
            for k in kinds:
                i = PAWN_KINDS.index(k)
                j = st[i] + 1
                if i == camel:
                    if j > min(pins[i], camel_supply) or cam_val == 0:
                        continue
                    gain = cam_val
                else:
                    if j > pins[i]:
                        continue
                    gain = min(cap, per * j)
                ns = st[:i] + (j,) + st[i + 1:]
                if new.get(ns, -1) < v + gain:
                    new[ns] = v + gain
        states = new
    return max(states.values())


def _per_kind_bound(pins, camel_value, fixed, n_wild, wild_kinds, camel_supply, cap, per, memo) -> int:
    """Most pawn points when each opportunity places at most one pawn of a kind its token
    allows: kind k gets at most its single-kind tokens plus the wild (star) tokens given
    to it, at most its pinpoints (camels: the supply), the j-th car/train/traveler scoring
    at most min(cap, per * j) and a camel at most ``camel_value``.  Every way to share out
    the wild tokens is tried (the exact maximum of this relaxation, which ignores timing)."""
    key = (pins, camel_value)
    if key in memo:
        return memo[key]

    def value(k_index: int, m: int) -> int:
        k = PAWN_KINDS[k_index]
        m = min(m, pins[k_index])
        if k == "camel":
            return min(m, camel_supply) * camel_value
        return sum(min(cap, per * j) for j in range(1, m + 1))

    if n_wild < 0:  # each wild token counted for every kind: still an upper bound
        best = sum(value(i, 10**6) for i in range(len(PAWN_KINDS)))
    else:
        idx = [PAWN_KINDS.index(k) for k in wild_kinds]
        best = 0
        for split in _compositions(n_wild, len(idx)):
            extra = dict(zip(idx, split))
            best = max(best, sum(value(i, fixed[i] + extra.get(i, 0)) for i in range(len(PAWN_KINDS))))
    memo[key] = best
    return best


def _compositions(n: int, parts: int):
    if parts == 0:
        if n == 0:
            yield ()
        return
    if parts == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _compositions(n - first, parts - 1):
            yield (first,) + rest
