"""What a worker process does: the same calls as `aos-solve easter-island/zoo --json --html --plan-out`.

The answer is built exactly as the command line builds it (the solve service
solver.solo.service.solve, the map's answer_json, solo_extras, plan_page), so the app's JSON is
the CLI's `--json` twin (tests/test_app_api.py compares them). Every plan in it was replayed by
the referee inside the solver, and plan_page replays it again to draw the panels.
"""
from __future__ import annotations

import threading
import time
import traceback

from solver import interrupt
from solver.app import checks
from solver.board.errors import InputError
from solver.games import load_instance

# Loaded here so that the forkserver's preload imports them once for every worker.
import solver.solo.easter_island  # noqa: F401,E402
import solver.solo.zoo  # noqa: F401,E402
import solver.report.plan_pages  # noqa: F401,E402


def run(conn, kind: str, request: dict) -> None:
    """Worker entry: send progress, then ("done", answer, page, plan) or ("error", message)."""
    interrupt.install()  # SIGTERM (a worker that lingers, the server closing) raises Interrupted at once
    cancel = threading.Event()  # SIGUSR1 (Cancel): the service stops searching, answers with what it found and proved
    interrupt.install_cut_short(cancel.set)
    try:
        if kind != "solo":
            raise InputError(f"unknown kind of job {kind!r}", "kind")
        data, page, plan = solve(request, lambda phase, bounds: conn.send(("progress", phase, bounds,
                                                                           time.monotonic())), cancel)
        conn.send(("done", data, page, plan))
    except InputError as err:
        conn.send(("error", str(err)))
    except interrupt.Interrupted:
        conn.send(("cancelled",))
    except Exception as err:  # a bug: the page gets one line, the server's log the traceback
        traceback.print_exc()
        conn.send(("failed", f"internal error ({type(err).__name__}); the server log has the details"))
    finally:
        conn.close()


def solve(request: dict, progress=None, cancel=None) -> tuple[dict, str, dict | None]:
    """One solo solve from a request the server checked: board path, map, setup or seed or plan prefix.

    `progress` and `cancel` go to the solve service (solver.solo.service.solve): the worker's notes to the
    page and its Cancel."""
    from solver.engine.readings import make_rules
    from solver.engine.scenario import Scenario
    from solver.engine.setup import draw_setup, setup_from_mapping
    from solver.report.plan_pages import plan_page
    from solver.solo.position import position_from_json, solo_extras
    from solver.solo import service

    inst = load_instance(request["board_path"])
    ruleset = inst.scenario.ruleset
    if ruleset == "easter-island":
        from solver.report.solo_report import answer_json as to_json
    elif ruleset == "zoo":
        from solver.report.zoo_report import zoo_answer_json as to_json
    else:
        raise InputError(f"the app solves Easter Island and Zoo boards, not {ruleset}", "board")
    given = checks.settings(request)
    rounds = given["rounds"]
    settings = checks.solve_settings(given, ruleset)
    start = None
    if request.get("prefix") is not None:
        try:
            prefix, start = position_from_json(inst, request["prefix"], "the plan so far")
        except InputError as err:  # named as the page names it
            raise InputError(str(err), "play along") from None
        cubes, seed, rules, difficulty = prefix.setup, None, prefix.rules, prefix.difficulty
    else:
        difficulty = request["difficulty"]
        rules = make_rules(ruleset, request.get("readings") or [], where="readings")
        seed = request.get("seed")
        if request.get("setup") is not None:
            cubes, seed = setup_from_mapping(inst, difficulty, request["setup"], "setup", rules), None
        else:
            seed = 1 if seed in (None, "") else checks.seed(seed)
            cubes = draw_setup(inst, difficulty, seed, rules=rules) if ruleset == "easter-island" \
                else draw_setup(inst, difficulty, seed)
    answer = service.solve(Scenario(inst, difficulty, cubes, rules, seed=seed, rounds=rounds), settings, start,
                           progress=progress, cancel=cancel)
    data = to_json(answer)
    extra, _ = solo_extras(answer, start)
    data.update(extra)
    data["time_cap"] = answer.time_cap
    plan = answer.plan.to_json(inst) if answer.plan else None
    return data, plan_page(inst, answer.plan, data), plan

