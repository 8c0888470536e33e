"""The plan side of the link search: turn an abstract clear into a real plan, which the referee judges.

An abstract clear (solver/solo/link_search.py) says, round by round, the action, the shares, the
shipments and their routes, and which pairs of stops must be joined by then. This module proposes
real track for it: first one chain of hexes per pair of the final network from the packing model
(models/link_packing.pack_paths, one track a hex, so no complex tile is needed), tiles laid as late as
each round's tile limit allows (a pair's chain is finished by the round its first shipment needs it);
else (`_decode_hexes`) the shipments' links as chains that may share a hex as a complex tile of the
tile set, with each round's links within the tiles laid by then and short extra links of the model's
choice joining every ruin, laid hex by hex (`_schedule`); then the fewest shares that keep each round
legal, more only to avoid a shortfall. Nothing here decides legality: every round is
replayed by the referee (solver.engine.plan.replay), and a plan is returned only if the referee
says it clears.
"""
from __future__ import annotations

from solver.engine.moves import BuildPath, LayTile, Pass, Ship, TownTrack, UpgradeLocomotive, UpgradeTile, Urbanize
from solver.engine.plan import Plan, RoundPlan, replay
from solver.engine.scenario import Scenario
from solver.engine.track_tiles import tile_set_of
from solver.solo.link_nogoods import first_use, round_limits, tile_rules, town_lasts
from solver.solo.link_search import LinkBounds, Pos, is_crossing
from models.link_packing import PackingBoard, pack_paths

OPTIONAL_HEXES = 2  # the decoder's extra links for the clear: pairs whose cheapest link alone needs at most this many
HEXES_TIME = 60.0   # deterministic time of the general decoder's packing (a larger model: every candidate link)


def decode(state0, scenario: Scenario, pattern: list, bounds: LinkBounds,
           deterministic_time: float = 10.0) -> tuple[Plan | None, str]:
    """(a referee-checked plan that follows the abstract clear `pattern` from the game's start, or None;
    what stopped it)."""
    if state0.round != 1 or state0.track:
        return None, "decoding starts from the first round only"
    final: Pos = pattern[-1][1]
    pairs = sorted(tuple(sorted(p)) for p in final.links)
    one_track = PackingBoard(bounds.board.cost, bounds.board.old, bounds.board.stops, bounds.board.towns,
                             bounds.board.passable, two_tracks=False)
    chains = pack_paths(one_track, pairs, deterministic_time)
    if chains is None:
        return _decode_hexes(state0, scenario, pattern, bounds,
                             max(deterministic_time, HEXES_TIME))
    rounds = len(pattern)
    due = first_use(pattern)
    for p in pairs:
        due.setdefault(p, rounds)  # completion pairs: by the clearing round
    limits = round_limits(state0, pattern)
    # tiles laid as late as possible: fill rounds from the last, each with the last unlaid tiles of pairs due
    # no earlier than it (a chain is laid from its first stop on, so later rounds take its far end)
    laid = {p: len(chains[p]) - 2 for p in pairs}   # tiles of each chain not yet given a round
    plan_tiles: dict = {}                           # (round, pair) -> (first, last) tile index laid
    for r in range(rounds, 0, -1):
        room = limits[r - 1]
        for p in sorted(pairs, key=lambda q: (-due[q], q)):
            if due[p] < r or laid[p] == 0 or room == 0:
                continue
            k = min(room, laid[p])
            plan_tiles[r, p] = (laid[p] - k + 1, laid[p])
            laid[p] -= k
            room -= k
    if any(laid.values()):
        return None, "the tile limits cannot lay the chains by the rounds that need them"
    builds = []
    for r in range(1, rounds + 1):
        build = []
        for p in pairs:
            span = plan_tiles.get((r, p))
            chain = chains[p]
            if span is None:
                if len(chain) == 2 and due[p] == r:  # a town tile's own track
                    town, stop = (p if p[0] in state0.board.towns else (p[1], p[0]))
                    build.append(TownTrack(town, stop))
                continue
            first, last = span
            build.append(BuildPath(tuple(chain[first - 1:last + 2])))
        builds.append(build)
    return _with_shares(scenario, state0, _rounds(state0, pattern, builds))


def _with_shares(scenario: Scenario, state0, plan_rounds: list[RoundPlan]) -> tuple[Plan | None, str]:
    instance = scenario.instance
    """Each round with the fewest shares the referee accepts, more while a shortfall would follow."""
    done: list[RoundPlan] = []
    for rp in plan_rounds:
        chosen = None
        for k in range(0, state0.scenario.max_shares + 1):
            rp.shares = k
            result = replay(instance, _plan(scenario, state0, done + [rp]))
            if result.error is not None:
                continue
            if chosen is None:
                chosen = k
            if not result.state.accounts.get("shortfall"):
                chosen = k
                break
        if chosen is None:
            rp.shares = state0.scenario.max_shares - sum(r.shares for r in done) - state0.shares
            error = replay(instance, _plan(scenario, state0, done + [rp])).error
            return None, f"round {len(done) + 1} is refused by the referee: {error}"
        rp.shares = chosen
        done.append(rp)
    plan = _plan(scenario, state0, done)
    result = replay(instance, plan)
    if result.error is None and result.state.cleared_round is not None:
        return plan, "the referee replays it: it clears"
    return None, f"the referee: {result.error or 'it does not clear'}"


def _plan(scenario: Scenario, state0, rounds) -> Plan:
    """The question's plan, judged under the first state's rules and round limit."""
    return Plan(scenario.instance.board.name, scenario.difficulty, state0.rules, scenario.setup,
                [RoundPlan(**vars(r)) for r in rounds],
                state0.round_limit)


def _decode_hexes(state0, scenario: Scenario, pattern: list, bounds: LinkBounds,
                  deterministic_time: float) -> tuple[Plan | None, str]:
    """The general decoder, when the one above finds no track: the shipments' links as chains that may
    share a hex as a complex tile of the tile set (with complex tiles on), each round's links within
    the tiles laid by then, and any further links (short ones, chosen by the model) that join every
    ruin for the clear; laid hex by hex (LayTile, UpgradeTile, TownTrack moves)."""
    board = state0.board
    due = first_use(pattern)
    required = sorted(due)
    ruins = sorted(board.cities)
    per_hex = 1 if bounds.board.two_tracks else 2   # LinkBounds.single counts half hexes doubled
    spare = sorted(p for p in (tuple(sorted(q)) for q in bounds.single)
                   if p not in due and bounds.single[frozenset(p)][0] <= per_hex * OPTIONAL_HEXES)
    pairs = required + spare
    for p in spare:
        due[p] = len(pattern)
    limits = round_limits(state0, pattern)
    budgets = tuple(([i for i, p in enumerate(pairs) if due[p] <= r], sum(limits[:r]), r)
                    for r in range(1, len(pattern) + 1))
    order = tuple(due[p] for p in pairs)
    rules = tile_rules(state0, town_lasts(pattern))
    why = ""
    # first with links due in different rounds sharing a hex only as a crossing; then, if no such track
    # exists, sharing a non-crossing pair too, the later link's track to one of its ends laid with it
    for mode in ({"due": order, "town_tiles": rules["town_tiles"]}, {"order": order, **rules}):
        found: dict = {}
        chains = pack_paths(bounds.board, pairs, deterministic_time,
                            tile_exists=bounds.tile_exists if bounds.board.two_tracks else None, budgets=budgets,
                            optional=frozenset(range(len(required), len(pairs))), join=tuple(ruins),
                            crossing=bounds.is_crossing, schedule=found, **mode)
        if chains is None:
            why = ("no track found for the abstract clear: its links with tiles of the tile set, each "
                   "round's links within the tiles laid by then, a network joining every ruin")
            continue
        builds, why = _schedule(state0, pattern, chains, due, limits, found)
        if builds is not None:
            return _with_shares(scenario, state0, _rounds(state0, pattern, builds))
    return None, why


def _schedule(state0, pattern: list, chains: dict, due: dict, limits: list,
              found: dict | None = None) -> tuple[list | None, str]:
    """Each round's tile placements: as few and as late as the tile limits allow, every track joined to a
    stop or to track laid before it (the rule a placement must meet). A hex with two tracks is one
    placement when they are a non-crossing pair; a crossing may be laid as its earlier straight and
    upgraded when the other is due (base rules: 'Upgrading a simple tile to a crossing: $3').
    `found`: the packing's own laying order (pack_paths' `schedule`): which crossings it splits, and the
    rounds by which its point-8 labels lay hexes."""
    board = state0.board
    on_hex: dict = {}      # hex -> [(track, pair)]
    direct = []            # pairs joined by a town tile's own track alone
    for p in sorted(chains):
        c = chains[p]
        if len(c) == 2:
            direct.append(p)
        for i in range(1, len(c) - 1):
            on_hex.setdefault(c[i], []).append(((c[i - 1], c[i + 1]), p))
    # items: (hex, part) -> tracks laid together; part 1 is the upgrade of a crossing
    items: dict = {}
    item_of: dict = {}     # (hex, pair) -> item
    for h, tracks in on_hex.items():
        later = max(tracks, key=lambda t: (due[t[1]], t[1]))[1]
        split = h in found["split"] if found else h not in (chains[later][1], chains[later][-2])
        if (len(tracks) == 2 and is_crossing(h, tracks[0][0], tracks[1][0], tile_set_of(state0))
                and due[tracks[0][1]] != due[tracks[1][1]] and split):
            # a crossing of links due in different rounds: a straight, then an upgrade (else laid whole, as
            # the packing chose, or where the later track touches its own end stop and is joined at once)
            first, second = sorted(tracks, key=lambda t: (due[t[1]], t[1]))
            items[h, 0], items[h, 1] = [first[0]], [second[0]]
            item_of[h, first[1]], item_of[h, second[1]] = (h, 0), (h, 1)
        else:
            items[h, 0] = [t for t, _ in tracks]
            for _, p in tracks:
                item_of[h, p] = (h, 0)
    deadline = {k: len(pattern) for k in items}
    for p, c in chains.items():
        for h in c[1:-1]:
            deadline[item_of[h, p]] = min(deadline[item_of[h, p]], due[p])
    for h, r in (found or {}).get("early", {}).items():
        if (h, 0) in deadline:
            deadline[h, 0] = min(deadline[h, 0], r)
    # an item due by round d needs, on each of its chains, the items toward one end laid by d too: the end
    # that pulls fewer items forward (the nearer one on a tie)
    changed = True
    while changed:
        changed = False
        for k in items:
            if k[1] == 1 and deadline[k[0], 0] > deadline[k]:
                deadline[k[0], 0] = deadline[k]   # an upgrade needs the tile under it
                changed = True
        for p, c in chains.items():
            inner = [item_of[h, p] for h in c[1:-1]]
            for i, k in enumerate(inner):
                before, after = inner[:i], inner[i + 1:]
                pulled = [sum(deadline[g] > deadline[k] for g in side) for side in (before, after)]
                for g in (before if (pulled[0], len(before)) <= (pulled[1], len(after)) else after):
                    if deadline[g] > deadline[k]:
                        deadline[g] = deadline[k]
                        changed = True
    order = {k: n for n, k in enumerate(sorted(items, key=lambda k: (k[1], str(k[0]))))}
    laid: dict = {}        # hex -> tracks laid on it

    def joinable(h, track):
        return any(board.is_stop(side) or any(h in t for t in laid.get(side, ())) for side in track)

    def ready(k):
        h, part = k
        if part == 1 and h not in laid:
            return False
        return all(joinable(h, t) for t in items[k])

    cities = [{town for town, _ in pos.cities} for _, pos in pattern]
    done: set = set()
    builds = []
    for r in range(1, len(pattern) + 1):
        cap = limits[r - 1]
        need = 0
        for q in range(len(pattern), r - 1, -1):   # tiles this round so that later rounds can keep up
            left = sum(1 for k in items if k not in done and deadline[k] <= q)
            need = max(need, left - sum(limits[r:q]))
        steps = [TownTrack(a, b) if a in board.towns else TownTrack(b, a) for a, b in direct if due[(a, b)] == r]
        used = len(steps)
        touched: set = set()
        while used < need or any(k not in done and deadline[k] <= r for k in items):
            choice = sorted((k for k in items if k not in done and ready(k)), key=lambda k: (deadline[k], order[k]))
            if not choice:
                return None, f"round {r}: no remaining tile can be joined to a stop or to laid track"
            k = choice[0]
            h, part = k
            towns = {s for t in items[k] for s in t if s in board.towns and s not in cities[r - 1]} - touched
            if used + 1 + len(towns) > cap:
                return None, f"round {r}: the tile limit ({cap}) cannot lay the track due by then"
            used += 1 + len(towns)
            touched |= towns
            done.add(k)
            laid.setdefault(h, []).extend(items[k])
            (a, b), *more = items[k]
            if part == 1:
                steps.append(UpgradeTile(h, a, b))
            else:
                steps.append(LayTile(h, a, b, second=(more[0][0], more[0][1]) if more else None))
        builds.append(steps)
    return builds, ""


def _rounds(state0, pattern: list, builds: list) -> list[RoundPlan]:
    """The abstract clear's actions and shipments with the scheduled tiles, new cities first."""
    new_cities = {}
    for r, (record, pos) in enumerate(pattern, start=1):
        for town, colour in pos.cities:
            new_cities.setdefault(town, (r, colour))
    out = []
    for r, ((record, pos), steps) in enumerate(zip(pattern, builds), start=1):
        name, target, k, moves, _ = record
        build = [Urbanize(town, colour) for town, (q, colour) in new_cities.items() if q == r] + steps
        ship = [Ship(m[2][0], m[1], tuple(m[2])) if m[0] == "ship"
                else UpgradeLocomotive() if m[0] == "locomotive" else Pass() for m in moves]
        out.append(RoundPlan(0, name, target, build, ship))
    return out
