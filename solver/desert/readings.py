"""The Desert's named readings: where the sheet reads two ways, which way the answer took.

They live in the ruleset file as entries with ``source = "reading"``: the sheet's sentence
(``quote``), the default (``value``) and why (``reason``), the name on the command line
(``name``), the implemented values with what each means (``options``) and the values that
are named but refused (``not_implemented``).  ``--reading NAME=VALUE`` on the Desert
commands sets one; every answer states the readings it was made under, the ones changed
from the file marked.
"""
from __future__ import annotations

import dataclasses

from solver.board.errors import InputError
from solver.desert.ruleset import Rule, Ruleset, value_name


def readings(rs: Ruleset) -> list[Rule]:
    return [r for r in rs.rules.values() if r.source == "reading"]


def by_name(rs: Ruleset, name: str) -> Rule | None:
    name = name.strip()
    return next((r for r in readings(rs) if name in (r.name, r.key)), None)


def apply(rs: Ruleset, items: list[str] | tuple[str, ...], where: str = "--reading") -> Ruleset:
    """The ruleset with each ``NAME=VALUE`` reading set; unknown names and values are refused
    with the allowed ones named."""
    if not items:
        return rs
    rules = dict(rs.rules)
    for item in items:
        name, sep, text = item.partition("=")
        rule = by_name(rs, name)
        if not sep or rule is None:
            known = ", ".join(r.name for r in readings(rs))
            raise InputError(f"expected NAME=VALUE with a Desert reading NAME ({known}); got {item!r}", where)
        text = text.strip()
        options = dict(rule.options)
        if text not in options:
            other = f"; not implemented: {rule.not_implemented}" if rule.not_implemented else ""
            raise InputError(f"reading {rule.name!r} has no value {text!r} (allowed: {', '.join(options)}{other})", where)
        rules[rule.key] = dataclasses.replace(rule, value=_typed(rule.value, text))
    return Ruleset(rules, rs.path, rs.extra)


def _typed(default, text: str):
    if isinstance(default, bool):
        return text == "true"
    if isinstance(default, int):
        return int(text)
    return text


def stated(rs: Ruleset) -> list[dict]:
    """Every reading with the value taken, what it means, and whether it is the file's default."""
    out = []
    for r in readings(rs):
        v = value_name(r.value)
        out.append({"name": r.name, "key": r.key, "value": v, "default": r.default, "changed": v != r.default,
                    "means": dict(r.options).get(v, "")})
    return out


def registry(rs: Ruleset) -> list[dict]:
    """The readings as `aos-solve readings` lists them (the same keys as the other maps')."""
    return [{"name": r.name, "field": r.key, "maps": ["desert"], "sheet": "railroad-tiles-desert.txt",
             "quote": r.quote, "default": r.default, "why_default": r.note,
             "values": [{"name": n, "means": m} for n, m in r.options]
             + ([{"name": "(not implemented)", "means": r.not_implemented}] if r.not_implemented else [])}
            for r in readings(rs)]
