"""The numbers of the designer's report, and the sentences that say them (solver/batch/designer_report.py lays them out).

Per scenario, difficulty and reading set: how many setups are clearable, proved
not clearable or undecided, with a 95% interval for the share clearable that
counts the undecided setups both ways (so an interval from 1 answered setup of
50 says "we do not know", not "100%"); the minimum rounds as a distribution in
which an unproved setup appears with its bounds; the fewest shares with their
proof status; and the hardest setups. Every sentence is written for a person:
words and numbers with their units, never a Python value.
"""
from __future__ import annotations

import math
import statistics
from collections import Counter


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (good at 0% and 100%, unlike the normal one)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # rounded: a person reads 1, not 0.9999999999999999 (report.json)
    return round(max(0.0, centre - half), 6), round(min(1.0, centre + half), 6)


def plural(k: int, one: str, many: str | None = None) -> str:
    return f"{k} {one if k == 1 else (many or one + 's')}"


def pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def num(x) -> str:
    """A number as a person writes it: 9, 9.5 (never 9.0 or 0.9999999999999999)."""
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.1f}".rstrip("0").rstrip(".") if abs(x - round(x)) > 1e-9 else str(round(x))
    return str(x)


def title(name: str) -> str:
    return name.replace("-", " ").title()


def best_rounds(r: dict) -> int | None:
    """The rounds a setup needs as far as we know: the proved minimum, else the best plan's rounds."""
    return r.get("min_rounds") if r.get("min_rounds") is not None else r.get("rounds_upper_bound")


def summarise(records: list[dict], kind: str) -> dict:
    """The group's numbers (JSON-ready: lists and counts; sentences are made from them)."""
    n = len(records)
    status = Counter(r.get("status", "failed") for r in records)
    out: dict = {"setups": n, "solved": status["solved"], "unknown": status["unknown"], "failed": status["failed"],
                 "wall_cap_hit": sum(1 for r in records if (r.get("wall_cap") or {}).get("hit")),
                 "seconds": [r["seconds"] for r in records if isinstance(r.get("seconds"), (int, float))]}
    if kind == "score":
        return _summarise_scores(records, out)
    clear = [r for r in records if r.get("verdict") == "clearable"]
    not_clear = [r for r in records if r.get("verdict") == "not clearable"]
    undecided = n - len(clear) - len(not_clear)
    lo, _ = wilson(len(clear), n)
    _, hi = wilson(len(clear) + undecided, n)
    proved = [r for r in clear if r.get("min_rounds") is not None]
    open_ = [r for r in clear if r.get("min_rounds") is None]
    out.update({
        "clearable": len(clear), "not_clearable": len(not_clear), "verdict_unknown": undecided,
        "share_clearable": round(len(clear) / n, 6) if n else None,
        "share_not_clearable": round(len(not_clear) / n, 6) if n else None,
        "share_unknown": round(undecided / n, 6) if n else None,
        # the share clearable among all such setups, the undecided ones counted both ways
        "ci95": [lo, hi],
        "min_rounds_proved": len(proved),
        "min_rounds": [r["min_rounds"] for r in proved],
        "rounds_open": [[r.get("rounds_lower_bound"), r.get("rounds_upper_bound")] for r in open_],
        "rounds_upper_bounds_unproved": [r["rounds_upper_bound"] for r in open_ if r.get("rounds_upper_bound")],
        "rounds_no_plan": [r.get("rounds_lower_bound") for r in records
                           if r.get("verdict") not in ("clearable", "not clearable")
                           and r.get("rounds_lower_bound") is not None and r.get("status") != "failed"],
        "track_cost": [r["track_cost"] for r in clear if r.get("track_cost") is not None],
        "shares": [r["shares"] for r in clear if r.get("shares") is not None],
        # fewest shares at the minimum round count: proved values, and (lower, upper) where not proved
        "min_shares_proved": [r["shares_upper_bound"] for r in proved if r.get("shares_proved")],
        "min_shares_bounds": [[r.get("shares_lower_bound"), r.get("shares_upper_bound")] for r in proved
                              if not r.get("shares_proved") and r.get("shares_upper_bound") is not None],
        "plan_shares_rounds_open": [r["shares"] for r in open_ if r.get("shares") is not None],
        "proof_sources": dict(Counter(r.get("proof_source") or "none" for r in records)),
    })
    rounds_all = [best_rounds(r) for r in clear if best_rounds(r) is not None]
    out["median_rounds"] = statistics.median(rounds_all) if rounds_all else None
    out["median_min_rounds_proved"] = statistics.median(out["min_rounds"]) if out["min_rounds"] else None
    reasons = Counter(reason.split(":")[1].strip() if ":" in reason else reason
                      for r in not_clear for reason in (r.get("impossible") or [])[:1])
    out["not_clearable_reasons"] = dict(reasons.most_common(5))
    out["hardest"] = [_hard(r) for r in sorted(clear, key=_hardness)[:5]]
    return out


def _hardness(r: dict) -> tuple:
    """Most rounds first, then fewest spare shares (the share limit less the shares issued), then seed."""
    spare = (r["shares_limit"] - r["shares"]) if r.get("shares_limit") is not None and r.get("shares") is not None \
        else -(r.get("shares") or 0)
    return -(best_rounds(r) or 0), spare, r["seed"]


def _hard(r: dict) -> dict:
    return {"seed": r["seed"], "rounds": best_rounds(r), "proved": r.get("min_rounds") is not None,
            "rounds_lower_bound": r.get("rounds_lower_bound"), "shares": r.get("shares"),
            "shares_limit": r.get("shares_limit"), "shares_proved": bool(r.get("shares_proved")),
            "cash": r.get("cash"), "plan_page": r.get("plan_page")}


def _summarise_scores(records: list[dict], out: dict) -> dict:
    n = len(records)
    scores = [r["score"] for r in records if isinstance(r.get("score"), (int, float))]
    out["scores"] = scores
    out["median_score"] = statistics.median(scores) if scores else None
    out["stars"] = [r.get("stars") or 0 for r in records if r.get("status") != "failed"]
    for stars in (1, 2, 3):
        k = sum(1 for r in records if (r.get("stars") or 0) >= stars)
        lo, hi = wilson(k, n)
        out[f"reach_{stars}_stars"] = {"count": k, "share": k / n if n else 0.0, "ci95": [lo, hi]}
    out["hardest"] = [{"seed": r["seed"], "score": r.get("score"), "stars": r.get("stars") or 0,
                       "plan_page": r.get("plan_page")}
                      for r in sorted(records, key=lambda r: (r.get("score") or 0, r["seed"]))[:5]]
    return out


# -- sentences ------------------------------------------------------------------------------------------


def headline(difficulty: str, s: dict, kind: str) -> str:
    """One line: the difficulty's answer under one reading set."""
    name = title(difficulty)
    n = s["setups"]
    if kind == "score":
        r3 = s["reach_3_stars"]
        return (f"{name}: 3 stars reached in {r3['count']} of {plural(n, 'setup')} ({pct(r3['share'])}, "
                f"95% CI {pct(r3['ci95'][0])} to {pct(r3['ci95'][1])}), median best score "
                f"{num(s['median_score'])} points; the best layout proved on {s['solved']} of {n}.")
    c, nc, u = s["clearable"], s["not_clearable"], s["verdict_unknown"]
    text = (f"{name}: clearable in {c} of {plural(n, 'setup')} ({pct(s['share_clearable'])}, 95% CI "
            f"{pct(s['ci95'][0])} to {pct(s['ci95'][1])}), proved not clearable in {nc} ({pct(s['share_not_clearable'])}), "
            f"undecided {u} ({pct(s['share_unknown'])})")
    if s["min_rounds"]:
        lo, hi = min(s["min_rounds"]), max(s["min_rounds"])
        span = f"{lo} rounds" if lo == hi else f"{lo} to {hi} rounds"
        text += (f"; minimum {span} where proved (median {num(s['median_min_rounds_proved'])}), "
                 f"proved on {s['min_rounds_proved']} of {plural(c, 'clearable setup')}")
    elif c:
        text += f"; the minimum rounds proved on none of the {c} clearable"
    return text + "."


def _grouped(pairs: list, fmt) -> str:
    """'8 rounds on 12 setups, 9 rounds on 3 setups': equal values counted, in order (None, unknown, first)."""
    def key(k):
        return tuple(-1 if x is None else x for x in k) if isinstance(k, tuple) else (-1 if k is None else k)
    counts = Counter(tuple(p) if isinstance(p, list) else p for p in pairs)
    return ", ".join(f"{fmt(k)} on {plural(v, 'setup')}" for k, v in sorted(counts.items(), key=lambda kv: key(kv[0])))


def _span(values: list, unit: str) -> str:
    lo, hi = min(values), max(values)
    return plural(lo, unit) if lo == hi else f"{lo} to {plural(hi, unit)}"


def _between(k: tuple, unit: str) -> str:
    lo, hi = k
    if lo is None:
        return f"at most {plural(hi, unit)} (no lower bound recorded)"
    return plural(hi, unit) if lo == hi else f"between {lo} and {plural(hi, unit)}"


def rounds_lines(s: dict) -> list[str]:
    """The minimum rounds as a distribution; every clearable setup appears, the unproved ones by their bounds."""
    parts = []
    if s["min_rounds"]:
        parts.append(_grouped(s["min_rounds"], lambda k: plural(k, "round")) + " (proved)")
    if s["rounds_open"]:
        parts.append(_grouped(s["rounds_open"], lambda k: _between(k, "round"))
                     + " (a plan of the higher count, the lower not ruled out)")
    if s["rounds_no_plan"]:
        parts.append(_grouped(s["rounds_no_plan"], lambda k: f"at least {plural(k, 'round')}")
                     + " (undecided: no plan found)")
    if not parts:
        return []
    return ["- Minimum rounds: " + "; ".join(parts) + "."]


def shares_lines(s: dict) -> list[str]:
    parts = []
    if s["min_shares_proved"]:
        parts.append(_grouped(s["min_shares_proved"], lambda k: plural(k, "share")) + " (proved)")
    bounds = s["min_shares_bounds"]
    if len({tuple(b) for b in bounds}) > 3:  # many different pairs: their ranges, not a long list
        lows = [b[0] for b in bounds if b[0] is not None]
        highs = [b[1] for b in bounds]
        low = (f"lower bound{'s' if len(set(lows)) > 1 else ''} {_span(lows, 'share')}" if lows
               else "no lower bound recorded")
        parts.append(f"open on {plural(len(bounds), 'setup')}: {low}, the best plans issue {_span(highs, 'share')} "
                     f"(median {num(statistics.median(highs))})")
    elif bounds:
        parts.append(_grouped(bounds, lambda k: _between(k, "share"))
                     + " (the best plan's shares, above the proved lower bound)")
    if not parts and not s["plan_shares_rounds_open"]:
        return []
    text = "- Fewest shares at the minimum rounds: " + ("; ".join(parts) if parts else "none proved") + "."
    if s["plan_shares_rounds_open"]:
        v = s["plan_shares_rounds_open"]
        text += (f" Where the minimum rounds are open, the best plan issues {min(v)} to {plural(max(v), 'share')}"
                 f" ({plural(len(v), 'setup')}; not a minimum)." if min(v) != max(v) else
                 f" Where the minimum rounds are open, the best plan issues {plural(v[0], 'share')}"
                 f" ({plural(len(v), 'setup')}; not a minimum).")
    return [text]


def proofs_line(s: dict) -> str:
    named = {k: v for k, v in s["proof_sources"].items() if k != "none"}
    if not named:
        return f"- Proofs: none of the {plural(s['setups'], 'setup')} has a proof source recorded."
    rest = s["setups"] - sum(named.values())
    return ("- Proved by: " + ", ".join(f"{k} on {plural(v, 'setup')}" for k, v in sorted(named.items()))
            + (f"; {rest} without a finished proof." if rest else "."))


def change_sentence(name: str, diffs: list[tuple[str, dict, dict, int]]) -> str:
    """What a reading set changes against the default, per difficulty, on the seeds both ran.

    `diffs`: (difficulty, summary under the set, summary under the default, setups clearable under the
    default that the set proves not clearable), each summary over the shared seeds."""
    parts = []
    for diff, s, d, lost in diffs:
        n = s["setups"]
        text = (f"{title(diff)} {pct(s['share_clearable'])} clearable ({s['clearable']} of {n}; default "
                f"{pct(d['share_clearable'])}), proved not clearable on {s['not_clearable']} of {n}")
        if s["verdict_unknown"]:
            text += f", undecided on {s['verdict_unknown']}"
        same = (s["clearable"], s["not_clearable"], s["median_min_rounds_proved"]) == (
            d["clearable"], d["not_clearable"], d["median_min_rounds_proved"])
        if same and not lost:
            text += ", as under the default"
        if lost:
            text += f"; {plural(lost, 'setup')} clearable under the default {'is' if lost == 1 else 'are'} " \
                    "proved not clearable under it"
        if s["median_min_rounds_proved"] is not None and d["median_min_rounds_proved"] is not None \
                and s["median_min_rounds_proved"] != d["median_min_rounds_proved"]:
            text += (f"; median proved minimum {num(s['median_min_rounds_proved'])} rounds "
                     f"(default {num(d['median_min_rounds_proved'])})")
        parts.append(text)
    return f"{name}: " + "; ".join(parts) + "."


def seconds_text(x: float) -> str:
    return f"{x:.2f} s" if x < 1 else f"{x:.1f} s" if x < 10 else f"{x:.0f} s"


def timing_text(seconds: list[float]) -> str:
    if not seconds:
        return "no solve timed"
    return f"median {seconds_text(statistics.median(seconds))} a solve, longest {seconds_text(max(seconds))}"


def mode_text(meta: dict) -> str:
    """How the answers were bounded, from run.json."""
    mode = meta.get("mode")
    if not mode and meta.get("scenario") == "desert":
        limit = meta.get("time_limit")
        return ("These records were made before batch settings were recorded as work units: the layout model "
                "ran in deterministic mode" + (f" with {num(limit)} work units" if isinstance(limit, (int, float))
                                               else "") + " (each record says whether the layout model's own wall-clock cap "
                "stopped a step).")
    if not mode:
        limit = meta.get("time_limit")
        return ("These records were made before batch solves were reproducible: each solve had a wall-clock limit"
                + (f" of {num(limit)} s" if isinstance(limit, (int, float)) else "")
                + ", so the machine's load may have decided some answers (an undecided setup may be one the solver "
                  "ran out of time on).")
    if "work" in mode:
        text = (f"Reproducible mode: the plan search tried at most {mode['work']:,} round plans per beam variant; "
                f"CP-SAT ran with {plural(mode['cp_workers'], 'worker')} and these deterministic work units: "
                f"{num(mode['cp_time'])} per relaxation model, {num(mode['plan_cp_time'])} for the plan model, "
                f"{num(mode['shares_cp_time'])} for fewer shares")
    else:
        text = (f"Reproducible mode: the layout model ran with {plural(mode['cp_workers'], 'worker')} and "
                f"{num(mode['cp_time'])} deterministic work units")
    if mode.get("prove"):
        text += "; deep proof mode (--prove: every proof engine run to the end with its own budget)"
    cap = meta.get("wall_cap_seconds")
    text += (". The same command gives the same answers on any machine, loaded or not, and on a Dask cluster"
             + (f"; a wall-clock cap of {num(cap)} s a solve is only a safety net" if cap else "") + ".")
    return text
