"""The best pawn placement of one round, exactly: which of this round's active tokens
place a pawn, of which kind, on which free pinpoint.

A round's pawns come after its tiles, so the networks are fixed while they are
placed.  Then a pawn's points (scoring.pawn_points) depend only on its kind and its
network: a camel scores the Desert Stations of its trail network (capped), whatever
else is placed; the m new cars (trains, travelers) of one network with e pawns of their
kind already there score min(cap, per * (e + 1)) + ... + min(cap, per * (e + m)), in any
order.  So the round's points are a sum over (kind, network) groups, and the best
assignment is found exactly by

* per kind, the best points of n new pawns (n up to the tokens allowing it) by a small
  knapsack over its networks (camels: the n best pinpoints, at most the camel supply);
* every way to give each token a kind it allows (or none): at most 5^3 ways.

Among equal points fewer pawns win (a camel that scores 0 keeps its pinpoint and its
pawn for later), then fewer camels, then the first way in token order.
"""
from __future__ import annotations

import itertools
from typing import Callable

from solver.desert import network, scoring
from solver.desert.area import Pawn, PlayArea, token_allows
from solver.desert.tiles import PAWN_KINDS

Pin = tuple[tuple[int, int], int]


def best_assignment(
    area: PlayArea, tokens, allowed: Callable[[tuple[int, int], str], bool] = lambda cell, kind: True
) -> list[tuple[Pin, str, str]]:
    """The pawns to place now, as ((cell, pinpoint), kind, token), in token order."""
    rs = area.ruleset
    tokens = list(tokens)
    if not tokens:
        return []
    cap, per = rs["pawn_points_cap"], rs["pawn_points_per_connected"]
    ccap, cper = rs["camel_points_cap"], rs["camel_points_per_station"]
    kinds = [k for k in PAWN_KINDS if any(token_allows(t, k, rs) for t in tokens)]
    pins = {k: [(c, i) for c, i in area.free_pinpoints(k) if allowed(c, k)] for k in kinds}
    most = {k: sum(1 for t in tokens if token_allows(t, k, rs)) for k in kinds}
    best: dict[str, list[tuple[int, list[Pin]]]] = {}  # kind -> per n: (points, pinpoints)
    uf_all = uf_trail = None
    for k in kinds:
        if not pins[k]:
            continue
        if k == "camel":
            uf_trail = uf_trail or network.build(area, trail_only=True)
            stations = network.component_counts(uf_trail, network.desert_stations(area))
            vals = []
            for c, i in pins[k]:
                node = scoring.pawn_node(area, Pawn(c, i, k, "", 0))
                n_st = stations.get(uf_trail.find(node), 0) if node in uf_trail.parent else 0
                vals.append((min(ccap, cper * n_st), (c, i)))
            vals.sort(key=lambda v: (-v[0], v[1]))
            supply = max(0, rs["camel_pawns"] - area.camels())
            row = [(0, [])]
            for n in range(1, min(most[k], supply, len(vals)) + 1):
                row.append((row[-1][0] + vals[n - 1][0], row[-1][1] + [vals[n - 1][1]]))
            best[k] = row
            continue
        uf_all = uf_all or network.build(area, trail_only=False)
        groups: dict = {}
        for c, i in pins[k]:
            root = uf_all.find(scoring.pawn_node(area, Pawn(c, i, k, "", 0)))
            groups.setdefault(root, []).append((c, i))
        have: dict = {}
        for p in area.pawns:
            if p.kind == k:
                root = uf_all.find(scoring.pawn_node(area, p))
                have[root] = have.get(root, 0) + 1
        # knapsack over the networks: row[n] = best (points, pinpoints) with n new pawns
        row = [(0, [])] + [None] * most[k]
        for root in sorted(groups):
            g, e = sorted(groups[root]), have.get(root, 0)
            new = list(row)
            for n, entry in enumerate(row):
                if entry is None:
                    continue
                gain = 0
                for m in range(1, min(len(g), most[k] - n) + 1):
                    gain += min(cap, per * (e + m))
                    cand = (entry[0] + gain, entry[1] + g[:m])
                    if new[n + m] is None or cand[0] > new[n + m][0]:
                        new[n + m] = cand
            row = new
        best[k] = [e for e in row if e is not None]  # reachable counts are a prefix
    options = [[None] + [k for k in kinds if k in best and token_allows(t, k, rs)] for t in tokens]
    top = None
    for combo in itertools.product(*options):
        need: dict[str, int] = {}
        for k in combo:
            if k is not None:
                need[k] = need.get(k, 0) + 1
        if any(n >= len(best[k]) for k, n in need.items()):
            continue
        pts = sum(best[k][n][0] for k, n in need.items())
        key = (pts, -sum(need.values()), -need.get("camel", 0))
        if top is None or key > top[0]:
            top = (key, combo, need)
    if top is None:
        return []
    _, combo, need = top
    chosen = {k: list(best[k][n][1]) for k, n in need.items()}
    out = []
    for token, k in zip(tokens, combo):
        if k is not None:
            out.append((chosen[k].pop(0), k, token))
    return out
