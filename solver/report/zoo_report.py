"""The Zoo answer as JSON and text: readings, feedings round by round, bonus tiles (split from solver/solo/zoo.py)."""
from __future__ import annotations

from solver.board.hexgrid import Hex
from solver.report.words import plural
from solver.board.instance import Instance
from solver.engine.moves import Pass, Ship
from solver.engine.plan import Plan, round_moves
from solver.solo.answer import Answer
from solver.engine.state import Rules


# -- the report ------------------------------------------------------------------------------

def readings(instance: Instance, rules: Rules, limit: int) -> list[str]:
    """The numbers and planner choices this answer rests on, in words (the readings: solver/engine/readings.py)."""
    s = instance.scenario
    out = [f"round limit: {limit}" + ("" if limit == s.rounds else f" (given on the command line; "
                                                                       f"the instance says {s.rounds})"),
           f"starting money: ${s.start_cash} cash, {s.start_shares} shares issued, income {s.start_income}, "
           f"locomotive {s.start_locomotive} (at most {s.max_locomotive}); shares ${s.share_price} each, "
           f"at most {s.max_shares}",
           "the planner never urbanizes (a new city is one more area to feed, or a destination nobody needs); "
           "the bounds allow for urbanizing"]
    return out


def plan_feedings(instance: Instance, plan: Plan) -> list[dict]:
    """Replay the plan and describe, round by round, each feeding and the bonus tiles."""
    state = plan.new_state(instance)
    rs = state.ruleset
    board = instance.board
    out = []
    for i, rnd in enumerate(plan.rounds, start=1):
        ships, used = [], 0
        before = state.bonus_tiles
        exit_used = False
        for step in round_moves(rnd, i):
            move = step.move
            if getattr(move, "bonus", False):
                used += 1
            if isinstance(move, Ship):
                need, why = rs.locomotive_need(state, move)
                dest = move.route[-1]
                links = len(move.route) - 1 - len(move.teleports)
                exits = [h for h in move.route if h in board.exits]
                exit_used = exit_used or bool(exits)
                ships.append({
                    "from": str(move.origin), "to": str(dest), "area": board.label(dest),
                    "newly_fed": dest not in state.fed, "route": route_text_of(move), "links": links,
                    "teleport": ([str(move.route[move.teleports[0]]), str(move.route[move.teleports[0] + 1])]
                                 if move.teleports else None),
                    "exits_passed": [str(h) for h in exits], "discount": str(move.discount) if move.discount else None,
                    "locomotive_needed": need, "locomotive": state.locomotive, "why": why})
            state.apply(move)
        while state.phase == "ship" and state.round == i:
            state.apply(Pass())
        earned = state.bonus_tiles - before + used
        out.append({"round": i, "feedings": ships, "bonus_tiles_used": used, "bonus_tiles_earned": earned,
                    "bonus_tiles_in_hand": state.bonus_tiles, "fed": sorted(str(h) for h in state.fed),
                    "exit_used": exit_used})
    return out


def route_text_of(move: Ship) -> str:
    from solver.engine.moves import route_text
    return route_text(move.route, move.teleports)


def zoo_answer_json(answer: Answer) -> dict:
    """answer_json and the Zoo's own fields (food, notes, feedings), from the answer and its scenario alone."""
    from solver.report.solo_report import answer_json
    data = answer_json(answer)
    instance, setup, rules = answer.scenario.instance, answer.scenario.setup, answer.scenario.rules
    board = instance.board
    food = ", ".join(f"{board.cities[h].name} {len(setup.get(h, []))}" for h in sorted(board.cities))
    data["setup_text"] = (f"Food on each animal area (colours do not matter in the Zoo): {food}")
    data["answer_notes"] = readings(instance, rules, answer.round_limit)
    data["animal_areas"] = [board.label(h) for h in sorted(board.cities)]  # the printed animal areas
    if answer.plan is not None:
        details = plan_feedings(instance, answer.plan)
        for row, info in zip(data["rounds"], details):
            ships = iter(info["feedings"])
            new_ship = []
            for entry in row["ship"]:
                if isinstance(entry, dict):
                    f = next(ships)
                    text = (f"feed {f['area']} from {board.label(_hx(f['from']))}: {f['route']} "
                            f"({plural(f['links'], 'link')}"
                            + (f", teleport {f['teleport'][0]}~{f['teleport'][1]}" if f["teleport"] else "")
                            + (f", Feeding discount at {board.label(_hx(f['discount']))}" if f["discount"] else "")
                            + f", needs locomotive {f['locomotive_needed']} ({f['why']}), has {f['locomotive']})"
                            + ("" if f["newly_fed"] else " - already fed, for income"))
                    new_ship.append({**entry, **{k: v for k, v in f.items() if k not in entry}, "text": text})
                else:
                    new_ship.append(entry)
            row["ship"] = new_ship
            notes = []
            if info["bonus_tiles_used"]:
                notes.append(f"bonus tiles laid: {info['bonus_tiles_used']}")
            if info["bonus_tiles_earned"]:
                notes.append(f"an exit was used: +{info['bonus_tiles_earned']} bonus tile "
                             f"({info['bonus_tiles_in_hand']} in hand)")
            row["notes"] = notes
            row["bonus_tiles_earned"] = info["bonus_tiles_earned"]
            row["bonus_tiles_used"] = info["bonus_tiles_used"]
            row["bonus_tiles_in_hand"] = info["bonus_tiles_in_hand"]
            row["fed"] = info["fed"]
            left = {board.label(_hx(k)): len(v) for k, v in row["goods_left"].items()}
            row["food_left"] = left
            row["left_text"] = (", ".join(f"{k} {n}" for k, n in left.items()) or "no food") + \
                f"; fed {len(info['fed'])} of {len(data['animal_areas'])}"
    return data


def _hx(name: str) -> Hex:
    return Hex.parse(name)
