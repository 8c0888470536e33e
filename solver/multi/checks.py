"""A STATE file must be a position the game can reach: the setup counts, the phase and the turn limits.

Checked after the map's own rules (solver/engine/maps/ and solver/multi/maps/): what the turn order of the
base game allows by round `r` (base rules, ../shared/rules/age-of-steam-base.md):
- goods: before goods growth first runs (round 1) no stop holds more than its
  setup count, and before any action of round 1 every stop holds exactly it;
- track: at most one turn's tile limit (4 with the Engineer) per round built,
  none yet in the phase before actions (Portugal's free simple track aside);
- locomotive: at most +1 by the Locomotive action and +1 in shipping per round.
A failure names the key and stops with exit code 2 (the caller's `fail`).
"""
from __future__ import annotations

#: game.phase: round start (Portugal's free simple track), the build phase, shipping before its first step
#: ("shipping") or before its second ("shipping-second", with game.first_step)
PHASES = ("before-actions", "build", "shipping", "shipping-second")
FIRST_STEPS = ("delivery", "locomotive", "power-plant", "pass")


def check_reachable(state, fail) -> None:
    rs, inst, rnd = state.ruleset, state.instance, state.round
    s = inst.scenario
    before = state.turn_phase == "before-actions"
    if before and state.action is not None:
        fail(f"the phase is before-actions, so no action is selected yet (got {state.action!r})", "game.action")
    _check_goods(state, fail, before)
    now = 0 if before else (s.engineer_tile_limit if state.action in ("engineer", None) else s.tile_limit)
    for name, p in state.players.items():
        key = f"players.{name}"
        tiles = {h for path, complete in p.links for h in (path[1:-1] if complete else path[1:])
                 if h not in inst.board.towns}
        most = (rnd - 1) * s.engineer_tile_limit + now + rs.free_tiles_allowed(state, p)
        if len(tiles) > most:
            where = "before the actions of round 1" if before and rnd == 1 else f"by round {rnd}"
            fail(f"{name} has {len(tiles)} track tiles, but at most {most} can be built {where} "
                 f"({s.engineer_tile_limit} a turn with the Engineer)", f"{key}.links")
        raises = 2 * (rnd - 1) + _raises_this_turn(state, name)
        if p.locomotive > s.start_locomotive + raises:
            fail(f"{name}'s locomotive {p.locomotive} cannot be reached by round {rnd} in the phase "
                 f"{state.turn_phase} (start {s.start_locomotive}, at most +1 by the Locomotive action and +1 "
                 "in shipping per turn, and this turn only what has happened by this phase)", f"{key}.locomotive")
        if before and rnd == 1 and p.income != s.start_income:
            fail(f"before the actions of round 1 every income is the start income {s.start_income}",
                 f"{key}.income")
    rs.check_reachable(state, fail, before)


def _raises_this_turn(state, name: str) -> int:
    """Locomotive raises this turn before the state's phase: the Locomotive action ("+1 locomotive level at
    once") once actions are selected (the active player's action if the state names it; another player's
    is unknown), and the shipping raise only once a shipping step is done."""
    if state.turn_phase == "before-actions":
        return 0
    action = state.action if name == state.active else None
    out = 1 if action in (None, "locomotive") else 0
    if state.turn_phase == "shipping-second" and (name != state.active or state.first_step == "locomotive"):
        out += 1
    return out


def _check_goods(state, fail, before: bool) -> None:
    if state.round != 1:
        return  # goods growth has run: any count may have grown
    rs, inst = state.ruleset, state.instance
    counts = rs.setup_counts(inst)
    for stop, cubes in state.goods.items():
        name = _name(state, stop)
        top = rs.round_one_goods_limit(state, name, counts.get(name, 0), before)
        if len(cubes) > top:
            fail(f"{name} holds {len(cubes)} goods in round 1, but setup puts {counts.get(name, 0)} there and "
                 "goods growth has not run yet", f"goods.{name}")
    if before:
        for name, want in counts.items():
            stop = _stop(state, name)
            have = len(state.goods.get(stop, [])) if stop is not None else 0
            if have != want:
                fail(f"before the actions of round 1 {name} holds its setup count {want}, not {have}",
                     f"goods.{name}")


def _name(state, stop) -> str:
    if stop in state.area_stops:
        return state.area_stops[stop].name
    feature = state.board.cities.get(stop) or state.board.towns.get(stop)
    return feature.name if feature is not None else str(stop)


def _stop(state, name: str):
    for h in list(state.board.cities) + list(state.board.towns):
        if _name(state, h) == name:
            return h
    for h, area in state.area_stops.items():
        if area.name == name:
            return h
    return None
