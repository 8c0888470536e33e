"""Checks of a solve's settings, shared by the server (answers at once) and the worker (the same numbers).

Light on purpose: the server imports it without loading any solver.
"""
from __future__ import annotations

import math

from solver.board.errors import InputError
from solver.solo.settings import Settings

# The command line's defaults (solver.solo.settings.Settings), so an app solve is a CLI solve.
DEFAULTS = {key: getattr(Settings, key) for key in ("time_limit", "work", "cp_time", "cp_workers", "plan_cp_time",
                                                    "shares_cp_time")}
ISLAND_ONLY = ("plan_cp_time", "shares_cp_time")  # the Zoo's command has no such options: its defaults stand
# The lowest value each accepts, as the CLI's options and Settings.check do.
LOWEST = {"time_limit": 0.1, "work": 1, "cp_time": None, "cp_workers": 1, "plan_cp_time": 0.0, "shares_cp_time": 0.0}
KINDS = {"time_limit": float, "work": int, "cp_time": float, "cp_workers": int, "plan_cp_time": float,
         "shares_cp_time": float}


def number(request: dict, key: str):
    """The setting `key` of a request (the CLI's default when missing), checked as the CLI checks it."""
    value = request.get(key)
    if value in (None, ""):
        return DEFAULTS[key]
    kind = KINDS[key]
    if isinstance(value, bool):
        raise InputError(f"expected a number, got {value!r}", key)
    try:
        value = kind(float(value)) if kind is int and float(value).is_integer() else kind(value)
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"expected {'a whole number' if kind is int else 'a number'}, got {value!r}", key) from None
    if not math.isfinite(value):
        raise InputError(f"expected a finite number, got {value}", key)
    low = LOWEST[key]
    if key == "cp_time" and value <= 0:
        raise InputError(f"expected a positive deterministic time, got {value}", key)
    if low is not None and value < low:
        raise InputError(f"expected at least {low}, got {value}", key)
    return value


def settings(request: dict) -> dict:
    """Every setting of a solve request, checked (bad ones raise InputError naming the field)."""
    out = {key: number(request, key) for key in DEFAULTS}
    out["rounds"] = None if request.get("rounds") in (None, "") else rounds(request["rounds"])
    return out


def solve_settings(given: dict, ruleset: str) -> Settings:
    """The one settings type from the checked form (`settings`), as the map's command would build it."""
    return Settings(**{key: given[key] for key in DEFAULTS
                       if ruleset == "easter-island" or key not in ISLAND_ONLY}).check()


def rounds(value) -> int:
    if isinstance(value, bool):
        raise InputError(f"expected a whole number of rounds, got {value!r}", "rounds")
    try:
        value = int(value)
    except (TypeError, ValueError):
        raise InputError(f"expected a whole number of rounds, got {value!r}", "rounds") from None
    if value < 1:
        raise InputError(f"expected at least 1 round, got {value}", "rounds")
    return value


def seed(value) -> int:
    """A seed as `--seed N` takes it: a whole number 0 or more (1e400, 2.5 or "x" are one message, never a 500)."""
    if isinstance(value, bool):
        raise InputError(f"expected a whole number, got {value!r}", "seed")
    if isinstance(value, float):
        if not math.isfinite(value) or not value.is_integer():
            raise InputError(f"expected a whole number 0 or more, got {value!r}", "seed")
    try:
        value = int(value)
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"expected a whole number, got {value!r}", "seed") from None
    if value >= 2 ** 63:
        raise InputError(f"expected a seed below 2**63, got {value}", "seed")
    if value < 0:
        raise InputError(f"expected a seed of 0 or more, got {value}", "seed")
    return value
