"""A turn from before its shipping: the build (and, in Portugal's first turn, the free simple track), then
the best shipping phase after it (game.phase "build" or "before-actions").

Searched (the same space as the build advice, solver/multi/advice.py): no build, and every set of new
complete links of the map's build graph within the tile limit (3, 4 when the state's action is Engineer;
Synapses: 2 discs) and the cash, each judged by the map's track rules (`apply_build`, `apply_discs`); in
Portugal's first turn before actions one more tile, the free simple track, on a tile next to a city that its
link starts from (base rules: "New track must start at a city or town"; the player has no track yet). For
each build, every legal two-step shipping phase after it (solver/multi/turn.py). Best: OBJECTIVE, with the
build paid from cash. Not searched: the auction and share issues before the build (the state's cash is
what the player builds with), the action (none assumed unless the state names it), extending incomplete
track, complex tiles, urbanization, other players' builds and deliveries this turn.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.board.errors import InputError
from solver.multi import advice as _advice
from solver.multi.turn import best_key, replay_turn

BUILD_PHASES = ("build", "before-actions")
SEARCHED = ("searched: no build and every set of new complete links within the tile limit and the cash, each "
            "judged by the track rules (Synapses: discs on every neuron the placement rules allow, the "
            "discs placed this round counted, with the Engineer one shared disc on a neuron holding other "
            "players' discs), then every legal two-step shipping after it; not searched: the "
            "auction and share issues (the state's cash is what is built with), the action (none assumed "
            "unless named), extending incomplete track, complex tiles, urbanization, other players' moves")


@dataclass
class BuildTurn:
    build_cost: int
    free_saved: int
    pieces: list
    links: list
    result: object               # TurnResult of the shipping after the build (replayed by the rules)
    builds_judged: int
    others: list = field(default_factory=list)   # (cost, pieces, key) of runner-up builds
    limit: int = 0
    unit: str = "tile"
    capped: bool = False
    no_build: tuple = ()         # (income, cash) after the turn without building

    @property
    def key(self):
        return self.result.key


def _limit(state) -> tuple[int, str]:
    rs, inst = state.ruleset, state.instance
    limit, unit = rs.advice_limit(state)
    if state.action == "engineer" and not inst.board.nodes:
        limit = inst.scenario.engineer_tile_limit
    return limit, unit


def _free_saving(state, combo) -> int:
    """Portugal's free simple track: the dearest tile of the build next to a city its link starts from."""
    rs, board = state.ruleset, state.board
    best = 0
    for o in combo:
        if not o.links or o.links[0] == "lung disc" or board.nodes:
            continue
        path = o.links[0]
        for end, tile in ((path[0], path[1]), (path[-1], path[-2])):
            if len(path) > 2 and board.is_stop(end) and tile in o.pieces:
                best = max(best, rs.tile_cost_at(state.instance, tile))
    return best


def search_build_turn(state, runner_ups: int = 3, max_builds: int = 5000) -> BuildTurn:
    rs, inst = state.ruleset, state.instance
    free = rs.free_tracks(state) if hasattr(rs, "free_tracks") else 0
    limit, unit = _limit(state)
    cash = state.me.cash
    if inst.board.nodes:
        options = _advice._disc_options(state, limit)
    else:
        options = _advice._link_options(state, limit + free)
    bonus = max((rs.tile_cost_at(inst, h) for h in inst.board.terrain if inst.board.buildable(h)), default=0)
    combos = [(0, ())] + _advice._combinations(options, limit + free, cash + (bonus if free else 0))
    capped = len(combos) > max_builds
    found, seen = [], set()
    judged = 0
    for cost, combo in combos[:max_builds]:
        saved = _free_saving(state, combo) if free else 0
        pieces = {p for o in combo for p in o.pieces} | {t for o in combo for t, _ in o.towns}
        if len(pieces) > limit + (1 if saved else 0) or cost - saved > cash:
            continue
        try:
            hyp = _advice._apply(state, combo) if combo else state.clone()
        except InputError:
            continue
        judged += 1
        sig = signature(hyp)
        if sig in seen:
            continue   # the same deliveries with the same incomes as a build no dearer: not better
        seen.add(sig)
        _pay(hyp, cost - saved, free)
        key, moves = best_key(hyp)
        found.append((key, cost - saved, saved, combo, moves))
    found.sort(key=lambda f: (-f[0][0], -f[0][1], f[1], len(f[3]), [o.text for o in f[3]]))
    no_build = next(f[0] for f in found if not f[3])
    key, price, saved, combo, moves = found[0]
    # the referee: the build again through the rules, then the shipping replayed from it
    hyp = _advice._apply(state, combo) if combo else state.clone()
    _pay(hyp, price, free)
    result = replay_turn(hyp, moves)
    result.cash_before = state.me.cash
    others = [(p, [o.text for o in c] or ["no build"], k) for k, p, _, c, _ in found[1:runner_ups + 1]]
    pieces = sorted({str(p) for o in combo for p in o.pieces} | {str(t) for o in combo for t, _ in o.towns})
    return BuildTurn(price, saved, pieces, [o.text for o in combo],
                     result, judged, others, limit, unit, capped, no_build)


def signature(state) -> frozenset:
    """What a build can change in this turn's shipping: every delivery the shipment search finds, with the
    player's income and cost from it, from the position now and after each non-delivery first step
    (a locomotive raise may open Finland's Sweden; a power plant lengthens Kansas City's deliveries). A
    delivery first only removes goods (goods growth comes after shipping), so any second step is one of
    these deliveries; two builds with the same signature allow the same shipping phases with the same
    incomes, and the dearer one ends with less cash."""
    from solver.engine.moves import UpgradeLocomotive
    from solver.engine.shipping import shipments
    rs = state.ruleset
    out = set()
    positions = [state]
    for move in [UpgradeLocomotive()] + list(rs.step_moves(state)):
        if rs.why_illegal(state, move) is None:
            nxt = state.clone()
            rs.apply(nxt, move)
            positions.append(nxt)
    for i, pos in enumerate(positions):
        for m in shipments(pos):
            split = rs.income_split(pos, m)
            out.add((i, str(m), tuple(sorted((str(k), v) for k, v in split.items())), rs.delivery_cost(pos, m)))
    return frozenset(out)


def _pay(hyp, price: int, free: int) -> None:
    hyp.me.cash -= price
    hyp.cash = hyp.me.cash
    if free:
        hyp.me.extra["free_track_used"] = True
    hyp.turn_phase = "shipping"
    hyp.shipments_done = 0


def advise(state, max_builds: int = 5000):
    """Build advice for next turn, a one-turn look-ahead: from the position this turn leaves (after its income
    phase; goods as it leaves them, before goods growth), next turn's build and then its best two-step shipping
    (deliveries, a locomotive raise, a Kansas City power plant), every build of the build search above judged
    by its (income, cash) after next turn's income phase, the build paid from cash. Not building is one of the
    candidates, so a build is advised only when it ends next turn better than building nothing and, say,
    raising the locomotive or buying a power plant instead. Next turn is the final one (End of an Era) when its
    round is the last for the player count. No action is assumed (no Engineer tile, no Interurban Express)."""
    if _advice.is_last_turn(state):
        return _advice.Advice("last-turn", notes=["this is the final turn: there is no next turn to build for"])
    nxt = _advice.next_turn(state)
    nxt.turn_phase = "build"
    plan = search_build_turn(nxt, max_builds=max_builds)
    steps = "; then ".join(s.text for s in plan.result.steps)
    common = dict(limit=plan.limit, unit=plan.unit, cash=nxt.me.cash, builds_judged=plan.builds_judged,
                  baseline=plan.no_build[0], baseline_cash=plan.no_build[1], income=plan.key[0],
                  income_cash=plan.key[1], delivery=steps, next_final_turn=nxt.final_turn)
    space = (f"every build of at most {plan.limit} {plan.unit}s and ${nxt.me.cash}, each with every legal two-step "
             f"shipping next turn ({plan.builds_judged} builds judged by the rules; not searched: next turn's "
             "action, share issues, goods growth, other players' moves, extending incomplete track, complex "
             "tiles, urbanization)")
    if plan.capped:
        return _advice.Advice("unknown", notes=[f"stopped after {max_builds} builds; nothing is proven"], **common)
    if not plan.links:
        return _advice.Advice("none", notes=[f"no build ends next turn better than building nothing ({space}): "
                                             f"next turn {steps or 'pass'}"], **common)
    return _advice.Advice("proven", plan.build_cost, plan.pieces, plan.links,
                          notes=[f"best over {space}"], **common)
