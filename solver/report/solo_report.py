"""Reports for the solo solvers: the same layout for every map, as text and as JSON.

Order (as users asked): verdict within the round limit, minimum rounds and
its proof, the chosen plan's shares and cash, the proven cheapest network next
to what the plan spent, the plan round by round, the picture, assumptions.
"""
from __future__ import annotations

import re

from solver.board.instance import Instance
from solver.board.provenance import grouped
from solver.report.output import assumptions_json
from solver.engine.plan import Plan, replay
from solver.solo.answer import Answer
from solver.engine.setup import setup_to_json
from solver.report.round_words import left_words, money_words, round_heading, round_steps
from solver.report.words import money, plural


def plan_rounds_detail(instance: Instance, plan: Plan) -> list[dict]:
    """Replay the plan and describe every round: moves, tile costs and money."""
    steps: dict[int, list[tuple[str, int]]] = {}   # round -> (step text, spent on track before the step)

    def observe(index, step, state) -> None:
        steps.setdefault(index, []).append((step.text, state.spent_on_track))

    result = replay(instance, plan, observe)
    out, spent_before = [], 0
    for i, (rnd, after) in enumerate(zip(plan.rounds, result.round_states), start=1):
        spent = after["spent_on_track"] - spent_before
        spent_before = after["spent_on_track"]
        row = {"round": i, **rnd.to_json(), "build_costs": _build_costs(rnd.build, steps.get(i, [])),
               "track_cost": spent, **after.get("last_round", {}),
               "cash": after["cash"], "income": after["income"], "shares_total": after["shares"],
               "locomotive": after["locomotive"], "goods_left": after["goods"]}
        if after.get("fed"):
            row["fed"] = after["fed"]
        out.append(row)
    return out


def _build_costs(builds: list, steps: list[tuple[str, int]]) -> list[dict]:
    """What each build of a round cost: the referee's spending across the steps the build became."""
    costs = []
    for build in builds:
        text, cost = str(build), 0
        for k, (step, spent) in enumerate(steps[:-1]):
            if step == text or step.startswith(text + ": "):
                cost += steps[k + 1][1] - spent
        costs.append({"build": text, "cost": cost})
    return costs


def answer_uses(answer: Answer) -> tuple[set[str], list[dict]]:
    """The instance keys this answer's computation read, and assumed values from elsewhere (readings, CLI).

    A proof without search reads only what its obstacles name (a purple cube
    with no purple city reads the bag, not the round track); a network or a
    bound reads the board's geometry and the tile limits; a plan reads every
    number the engine uses.
    """
    from solver.engine.readings import BY_NAME
    question = answer.scenario
    instance, rules, difficulty = question.instance, question.rules, question.difficulty
    drawn = question.seed is not None  # a drawn setup read the bag; one from a file or a plan did not
    uses: set[str] = {f"difficulty.{difficulty}"} if difficulty else set()  # where the cubes start
    extra: list[dict] = []
    ruleset = instance.scenario.ruleset
    if drawn and BY_NAME["bag"].applies_to(ruleset):
        if rules.bag == "no-purple":
            uses.add("scenario.bag")
        elif rules.bag == "full":
            extra.append({"key": "reading bag=full", "source": "assumed",
                          "note": "the base game's 96 cubes split red/blue/yellow/purple 20 each, black 16: the "
                                  "usual split, which no sheet prints"})
        else:
            extra.append({"key": "reading bag", "source": "assumed",
                          "note": f"cubes drawn from the bag {rules.bag} given on the command line"})
    for reason in answer.impossible:
        if "new city" in reason or "black" in reason:
            uses.add("towns")  # a black cube's destination may be a new city on a town
    if answer.network is not None or answer.extra_networks:
        uses |= {"grid", "towns", "exits", "scenario.track_cost"}
    if answer.bound_reasons or answer.verdict != "not clearable" or not answer.impossible:
        uses |= {"grid", "towns", "exits", "scenario.tile_limit", "scenario.engineer_tile_limit",
                 "scenario.actions", "scenario.shipments_per_round", "scenario.rounds"}
    if answer.plan is not None:
        # the engine reads every scenario number; the bag only if the cubes were drawn from it
        uses |= {"grid", "cities", "towns", "exits"} | {
            f"scenario.{k}" for k in instance.scenario.__dataclass_fields__ if k != "bag"}
    if answer.round_limit != instance.scenario.rounds:
        uses.discard("scenario.rounds")
        extra.append({"key": "--rounds", "source": "assumed",
                      "note": f"round limit {answer.round_limit} given on the command line "
                              f"(the instance says {instance.scenario.rounds})"})
    return uses, extra


def answer_json(answer: Answer) -> dict:
    """The answer as JSON, with the question it answers (`answer.scenario`: board, setup, readings, seed)."""
    question = answer.scenario
    instance, setup, rules, seed = question.instance, question.setup, question.rules, question.seed
    difficulty = question.difficulty
    net = answer.network
    out = {
        "scenario": question.name, "difficulty": difficulty, "seed": seed,
        "setup": setup_to_json(instance, setup),
        "verdict": answer.verdict, "verdict_proof": answer.verdict_proof,
        "round_limit": answer.round_limit,
        "min_rounds": answer.upper_bound if answer.min_rounds_proved else None,
        "min_rounds_proved": answer.min_rounds_proved,
        "rounds_lower_bound": answer.lower_bound, "rounds_upper_bound": answer.upper_bound,
        "bound_reasons": answer.bound_reasons, "impossible": answer.impossible,
        "plan_shares": answer.end_state["shares"] if answer.end_state else None,
        "plan_cash": answer.end_state["cash"] if answer.end_state else None,
        "plan_track_spent": answer.end_state["spent_on_track"] if answer.end_state else None,
        "network": None if net is None else {
            "joins": answer.network_label, "cost": net.cost, "lower_bound": net.lower_bound, "status": net.status,
            "tiles": net.tiles, "hexes": [str(h) for h in net.hexes],
            "links": ["-".join(str(h) for h in link) for link in net.links]},
        "plan": answer.plan.to_json(instance) if answer.plan else None,
        "rounds": plan_rounds_detail(instance, answer.plan) if answer.plan else [],
        "blocker_lock": replay(instance, answer.plan).lock if answer.plan else None,
        "search": answer.search.to_json(), "seconds": round(answer.seconds, 3),
        **assumptions_json(instance, rules, *answer_uses(answer)),
    }
    if answer.extra_networks:
        out["extra_networks"] = [{"joins": label, "cost": n.cost, "lower_bound": n.lower_bound, "status": n.status,
                                  "tiles": n.tiles, "links": ["-".join(str(h) for h in link) for link in n.links]}
                                 for label, n in answer.extra_networks]
    return out


def headline(data: dict) -> str:
    """The answer in one line: the verdict, the rounds with their proof status, the plan's shares and cash."""
    limit = data["round_limit"]
    if data["verdict"] == "not clearable":
        return f"Answer: NOT CLEARABLE within {plural(limit, 'round')} (proved: {_proof_name(data)})"
    if data["verdict"] == "clearable":
        rounds = (f"in {data['min_rounds']} rounds, the proved minimum ({_proof_name(data)})"
                  if data["min_rounds_proved"] else
                  f"in {data['rounds_upper_bound']} rounds; the minimum is not proved (at least "
                  f"{data['rounds_lower_bound']})")
        return (f"Answer: CLEARABLE {rounds}; the plan issues {plural(data['plan_shares'], 'share')} in all and ends "
                f"with {money(data['plan_cash'])}")
    return (f"Answer: UNKNOWN within {plural(limit, 'round')}: no plan found and no proof that none exists "
            f"(at least {plural(data['rounds_lower_bound'], 'round')} needed)")


def _proof_name(data: dict) -> str:
    return data.get("proof_source") or (data.get("search") or {}).get("proof_source") or "see below"


def _plain(text: str) -> str:
    """Module paths out of a sentence a player reads ("beam search (solver/solo/round_search.py)")."""
    return re.sub(r" ?\((?:solver|models)/[^)]*\)", "", text)


def _network_status(net: dict, data: dict) -> str:
    if net["status"] != "optimal":
        return f"best found, lower bound {money(net['lower_bound'])}"
    over = []
    if "complex tiles could make it cheaper" in net["joins"]:
        over.append("networks of simple tiles")
    if data.get("scenario") == "zoo":
        over.append("at the sheet's tile cost, without Engineer's cheaper tiles or bonus tiles")
    return "proven minimum" + (f" over {', '.join(over)}" if over else "")


def _joins(net: dict) -> str:
    return re.sub(r" ?\(?,? ?simple tiles; complex tiles could make it cheaper\)?", "", net["joins"]).replace(
        " (track only)", "").replace("(track only", "(track only)").replace("()", "")


def answer_text(data: dict, instance: Instance, rules, verbose: bool = False, extra_lines=()) -> str:
    """The answer first, then the plan, then what it rests on; the searches' details only with `verbose`."""
    L = [headline(data)]
    title = f"{instance.board.name}, {data['difficulty']}"
    title += f", seed {data['seed']}" if data["seed"] is not None else ", setup from file"
    L.append(title)
    L.append(data["setup_text"] if data.get("setup_text") else "Setup (bottom cube first): " + ", ".join(
        f"{instance.board.label(_hex(k))}: {'/'.join(v)}" for k, v in data["setup"].items()))
    changed = [f"{d['name']}={d['value']}" for d in data["readings"] if not d["default"]]
    L.append("Readings: " + ("the defaults" if not changed else "the defaults except " + ", ".join(changed))
             + " (listed at the end)")
    cap = data.get("time_cap") or {}
    if cap.get("hit"):
        L.append(f"Stopped at the time limit ({cap['seconds']:g} s, --time-limit) before the work was done: this "
                 "answer is what was found and proved by then; a larger --time-limit may find or prove more.")
    L.append("")
    L.append(f"Verdict within {plural(data['round_limit'], 'round')}: {data['verdict'].upper()}")
    L.append(f"  because {_plain(data['verdict_proof'])}")
    for reason in data["impossible"]:
        L.append(f"  - {_plain(reason)}")
    L.append("Minimum rounds to clear: " + (
        f"{data['min_rounds']} (proved: the plan meets the lower bound)" if data["min_rounds_proved"] else
        ("none" if data["verdict"] == "not clearable" and data["rounds_upper_bound"] is None and data["impossible"]
         else f"unknown, between {data['rounds_lower_bound']} and {data['rounds_upper_bound'] or '?'}")))
    for reason in data["bound_reasons"]:
        L.append(f"  lower bound: {_plain(reason)}")
    if data.get("proof_source"):
        L.append(f"Proof source: {data['proof_source']}")
    L.extend(extra_lines)
    if not data["min_rounds_proved"]:
        L.extend(_relaxation_lines((data.get("search") or {}).get("relaxation") or []))
    if data["plan"]:
        L.append(f"Plan found: clears in round {data['rounds_upper_bound']}, issuing "
                 f"{plural(data['plan_shares'], 'share')} in all (start included), ending with "
                 f"{money(data['plan_cash'])}; the search keeps, among the plans it compared, the one with the fewest "
                 "shares, then the most cash (not proven least); track no shipment or clear condition uses is "
                 "removed, and the plan replayed by the referee")
    lock = data.get("blocker_lock")
    if lock:
        L.append(f"Blocker lock from round {lock['round']} of the plan: {lock['reason']}")
    for net in ([data["network"]] if data["network"] else []) + data.get("extra_networks", []):
        if net["status"] == "infeasible":
            L.append(f"Cheapest network joining {_joins(net)}: none exists (proven)")
            continue
        spent = (f"; the plan spent {money(data['plan_track_spent'])} on track"
                 if data["plan"] and net is data["network"] else "")
        L.append(f"Cheapest network joining {_joins(net)}: {money(net['cost'])} ({_network_status(net, data)}, "
                 f"{plural(net['tiles'], 'tile')}){spent}")
    if data["rounds"]:
        L.append("")
        L.append("Plan, round by round:")
        for r in data["rounds"]:
            L.extend(_round_lines(instance.board, r))
    L.append("")
    L.append("Assumptions this answer depends on:")
    for note in data.get("answer_notes", []):
        L.append(f"  - {note}")
    for what, note in grouped(instance, [(item["key"], item["note"]) for item in data["assumed_values"]]):
        L.append(f"  - {what}: {note}")
    if not data["assumed_values"] and not data.get("answer_notes"):
        L.append("  - none")
    L.append("Readings of the rule sheets (* = not the default):")
    for d in data["readings"]:
        mark = "" if d["default"] else f"*  (default: {d['default_value']})"
        L.append(f"  - {d['name']}={d['value']}{mark}: {d['means']}")
    if verbose:
        L.append("")
        L.extend(_how_found(data))
    else:
        L.append("(--verbose: which searches and models ran, with their budgets)")
    return "\n".join(L)


def _round_lines(board, r: dict) -> list[str]:
    """A round as the player does it (solver/report/round_words.py: the same words as the plan page's panels)."""
    L = [" " + round_heading(board, r)]
    L += [f"   {step}" for step in round_steps(board, r)]
    L.append(f"   then {money_words(r)}")
    L.append(f"   left: {left_words(r)}")
    return L


def _how_found(data: dict) -> list[str]:
    """The --verbose section: which search found the plan, what the models were asked, the budgets and time."""
    search = data.get("search") or {}
    L = ["How it was found (--verbose):"]
    if search.get("plan_source"):
        L.append(f"  plan from: {search['plan_source']}; replayed by the referee")
    removed = search.get("idle_track_removed") or []
    if removed:
        L.append(f"  idle track removed before printing: {'; '.join(removed)}")
    runs = search.get("beam_variants") or []
    if len(runs) > 1:  # Easter Island: the first beam missed the bound, so its variants ran
        found = [f"town {r['town']}, {r['variant']}: {r['rounds']} rounds" for r in runs[1:] if r.get("rounds")]
        L.append(f"  beam variants run after the first beam missed the bound: {len(runs) - 1}; "
                 + ("shorter plans from " + "; ".join(found) if found else "none found a shorter plan"))
    for attempt in search.get("squeeze") or []:
        L.append(f"  squeeze: {attempt.get('started_from', 'the best plan')} asked to clear by round "
                 f"{attempt['last_round']}, repaired by the CP-SAT plan model (models/solo_game/restriction.py)"
                 + (f" over {attempt['links']}" if attempt.get("links") else "") + ": "
                 + ("a better plan" if attempt.get("improved") else
                    f"nothing better (the model's status: {attempt['status'].lower()})"))
    if "round_plans_tried" in search:
        L.append(f"  round plans tried by the beam search: {search['round_plans_tried']}"
                 + (" (reproducible mode: --work bounds them)" if search.get("deterministic") else ""))
    cap = data.get("time_cap") or {}
    if cap:
        L.append(f"  what bounds the time: {cap['bounds_the_time']}; wall-clock cap {cap['seconds']:g} s")
    L.append(f"  seconds: {data['seconds']:.1f}")
    return L


def _relaxation_lines(log: list[dict]) -> list[str]:
    """Why the relaxation did not close the gap: a round count it could not decide, or one it admits."""
    out = []
    for entry in log:
        if entry["relaxation"] == "unknown":
            budget = entry.get("cp_time")
            larger = f"--cp-time {4 * budget:g} (it had {budget:g})" if budget else "a larger --cp-time"
            out.append(f"  not decided: whether any play clears by round {entry['rounds']}; the relaxation of the "
                       f"game gave no answer within its work budget; {larger} may settle it")
        elif entry["relaxation"] == "feasible":
            out.append(f"  not decided: the relaxation of the game admits clearing by round {entry['rounds']}, so it "
                       "cannot raise the bound; no plan that clears then was found (a larger --work or "
                       "--plan-cp-time may find one)")
    return out


def _hex(name: str):
    from solver.board.hexgrid import Hex
    return Hex.parse(name)
