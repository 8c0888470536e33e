"""A round of a plan as what the player does, in order, in words: one text for the CLI and the plan page.

    Round 8: Urbanization: a black city on Hanga Roa (F5)
      build K5-L5-L4 ($3)
      ship black Red 5 -> Hanga Roa (3 links: C3-D2-G3-F5)

The words come from a round's detail row (solver.report.solo_report.plan_rounds_detail:
the plan's round as JSON plus what the referee's replay counted, e.g. each build's
cost); nothing here judges legality.
"""
from __future__ import annotations

from solver.board.hexgrid import Hex
from solver.report.words import money, plural

ACTION_WORDS = {"engineer": "Engineer (one more tile this round)", "locomotive": "Locomotive (+1 link)",
                "urbanization": "Urbanization", "rapa-nui": "Rapa Nui", "feeding": "Feeding",
                "production": "Production", "first-move": "First Move", "first-build": "First Build",
                "turn-order-pass": "Turn Order Pass", "interurban-express": "Interurban Express"}


def stop_name(board, name: str) -> str:
    """A stop by its printed name ("Yellow 1"); a hex without a stop by its hex name."""
    try:
        h = Hex.parse(name)
    except (ValueError, AttributeError):
        return str(name)
    for table in (board.cities, board.towns, board.exits):
        if h in table and table[h].name:
            return table[h].name
    return str(h)


def stop_label(board, name: str) -> str:
    """"Yellow 2 (B5)" for a stop, "B5" for a bare hex."""
    named = stop_name(board, name)
    return named if named == str(name) else f"{named} ({name})"


def action_words(board, r: dict) -> str:
    """The action with its target: "Rapa Nui on Yellow 2 (B5)", "Urbanization: a black city on Vaihu (K7)"."""
    action = r.get("action")
    if not action:
        return "no action"
    words = ACTION_WORDS.get(action, action.replace("-", " ").capitalize())
    if r.get("target"):
        words += f" on {stop_label(board, r['target'])}"
    placed = [b.split() for b in r.get("build", []) if b.startswith("urbanize ")]
    if placed:
        words += ": " + ", ".join(f"a {w[2]} city on {stop_label(board, w[1])}" for w in placed if len(w) == 3)
    return words


def build_words(r: dict) -> list[str]:
    """Each build as a path with its cost ("build B5-B4-C3 ($3)"); urbanizing is said with the action."""
    costs = {c["build"]: c["cost"] for c in r.get("build_costs", [])}
    out = []
    for b in r.get("build", []):
        if b.startswith("urbanize "):
            continue
        cost = costs.get(b)
        out.append(f"build {b}" + (f" ({money(cost)})" if cost is not None else ""))
    return out


def ship_words(board, s) -> str | None:
    """A shipment: "ship blue Blue 3 -> Yellow 1 (1 link: H4-G3)"; the Zoo's feeding keeps its own text."""
    if isinstance(s, dict) and s.get("text"):
        return s["text"]
    if isinstance(s, dict):
        route = s["route"]
        hexes = route.replace("~", "-").split("-")
        links = route.count("-")
        extra = "".join([", through an exit" if "~" in route else "",
                         f", discount at {stop_label(board, s['discount'])}" if s.get("discount") else ""])
        return (f"ship {s['cube']} {stop_name(board, s['from'])} -> {stop_name(board, hexes[-1])} "
                f"({plural(links, 'link')}: {route}{extra})")
    if s == "locomotive":
        return "locomotive +1 instead of a shipment"
    if s == "pass":
        return None
    return str(s)


def round_heading(board, r: dict) -> str:
    """"Round 3: issue 1 share; Rapa Nui on Yellow 2 (B5)"."""
    parts = [f"issue {plural(r['shares'], 'share')}"] if r.get("shares") else []
    parts.append(action_words(board, r))
    return f"Round {r['round']}: " + "; ".join(parts)


def round_steps(board, r: dict) -> list[str]:
    """What to do this round after the action, in order: builds, notes (the Zoo's bonus tiles), shipments."""
    out = build_words(r) + list(r.get("notes", []))
    out += [w for w in (ship_words(board, s) for s in r.get("ship", [])) if w]
    return out


def money_words(r: dict) -> str:
    collected, expenses = r.get("income_collected"), r.get("expenses")
    return (f"income {money(collected) if collected is not None else '?'}, expenses "
            f"{money(expenses) if expenses is not None else '?'}"
            + (f", shortfall {money(r['shortfall'])}" if r.get("shortfall") else "")
            + (f", income reduction {r['income_reduction']}" if r.get("income_reduction") else "")
            + f" -> cash {money(r['cash'])}, income {r['income']}, locomotive {r['locomotive']}")


def left_words(r: dict) -> str:
    left = r.get("goods_left") or {}
    return r["left_text"] if r.get("left_text") else (
        ", ".join(f"{k} {'/'.join(v)}" for k, v in left.items()) if left else "nothing")
