"""Where every game number comes from.

Every value in an instance file is tagged `rule-sheet` (with the sentence it
rests on), `printed-board`, or `assumed` (with the reason). Reports list the
assumptions their answers depend on, so they are collected as files load.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

SOURCES = ("rule-sheet", "printed-board", "assumed")


@dataclass(frozen=True)
class Provenance:
    key: str          # where in the file, e.g. "scenario.rounds" or "cities[3]"
    source: str       # one of SOURCES
    note: str         # the quote (rule-sheet), board edition (printed-board) or reason (assumed)
    sheet: str = ""   # which rule document, for rule-sheet

    def describe(self) -> str:
        if self.source == "assumed":
            return f"{self.key}: assumed - {self.note}"
        where = f" ({self.sheet})" if self.sheet else ""
        return f"{self.key}: {self.source}{where} - \"{self.note}\""

    def to_json(self) -> dict[str, str]:
        out = {"key": self.key, "source": self.source, "note": self.note}
        if self.sheet:
            out["sheet"] = self.sheet
        return out


def read_provenance(table: dict[str, Any], key: str, fail) -> Provenance:
    """Read `source` plus `quote`/`reason`/`board` from a TOML table.

    `fail(message, key)` raises the loader's error so the message names the file.
    """
    source = table.get("source")
    if source not in SOURCES:
        fail(f"'source' must be one of {', '.join(SOURCES)} (got {source!r})", f"{key}.source")
    if source == "rule-sheet":
        note = table.get("quote")
        if not isinstance(note, str) or not note.strip():
            fail("a rule-sheet value needs 'quote': the sentence it rests on", f"{key}.quote")
    elif source == "assumed":
        note = table.get("reason")
        if not isinstance(note, str) or not note.strip():
            fail("an assumed value needs 'reason': why it was chosen", f"{key}.reason")
    else:
        note = table.get("board", "printed board")
        if not isinstance(note, str):
            fail("'board' must name the board edition transcribed", f"{key}.board")
    sheet = table.get("sheet", "")
    if not isinstance(sheet, str):
        fail("'sheet' must be a file name", f"{key}.sheet")
    return Provenance(key, source, note.strip(), sheet)


def concerns(key: str, prefix: str) -> bool:
    """Does the entry at `key` belong to `prefix`? ('towns' covers 'towns[2]', 'scenario' covers 'scenario.bag')."""
    return key == prefix or key.startswith(prefix + ".") or key.startswith(prefix + "[")


def assumptions_used(entries, uses) -> list[Provenance]:
    """The assumed entries among `entries` that a computation read, given the key prefixes it read.

    An answer states the prefixes its computation touched (the board's geometry
    is "grid", the towns "towns", a number "scenario.rounds", a map rule
    "map_rules.rada", ...), so that it lists only the assumptions it depends on,
    not every assumed entry of the file. `uses=None` means "everything".
    """
    if uses is None:
        return [p for p in entries if p.source == "assumed"]
    return [p for p in entries if p.source == "assumed" and any(concerns(p.key, u) for u in uses)]


_INDEXED = re.compile(r"^(?:graph\.)?(cities|towns|exits|zones|organs|impassable|track)\[(\d+)\](.*)$")
_WORDS = {"towns": ("town", "towns"), "exits": ("exit", "exits"), "zones": ("zone", "zones"),
          "organs": ("organ", "organs"), "impassable": ("impassable hexside", "impassable hexsides"),
          "track": ("public track", "public tracks")}
_CITY_WORDS = {"easter-island": ("ruin", "ruins"), "zoo": ("animal area", "animal areas")}


def _feature_name(instance, kind: str, index: int) -> str | None:
    board = instance.board
    if kind in ("cities", "towns", "exits"):
        features = list(getattr(board, kind).values())
        return features[index].name if index < len(features) else None
    if kind in ("zones", "organs"):
        areas = [a for a in board.areas if a.kind == kind.rstrip("s")]
        return areas[index].name if index < len(areas) else None
    return None  # hexsides and public track have no names


def _first_sentence(note: str) -> str:
    head, dot, _ = note.partition(". ")
    return head + "." if dot else note


def grouped(instance, items) -> list[tuple[str, str]]:
    """Assumed entries as a person reads them: one line per reason, naming the features it covers.

    `items`: (key, note) pairs. Entries sharing a note (the 12 ruins whose places were reconstructed)
    become one ("12 ruins (Red 1, ...)", note) instead of twelve lines of `cities[0]` to `cities[11]`."""
    by_note: dict[str, list[str]] = {}
    for key, note in items:
        by_note.setdefault(note, []).append(key)
    # Notes that open with the same sentence (the Easter Island ruins: "Position assumed: no printed board ...",
    # each then quoting the sheet's line about that ruin) are said once; the board file keeps each full reason.
    firsts: dict[str, list[str]] = {}
    for note in by_note:
        firsts.setdefault(_first_sentence(note), []).append(note)
    merged: dict[str, list[str]] = {}
    for note, keys in by_note.items():
        first = _first_sentence(note)
        if len(firsts[first]) > 1 and len(first) >= 30:
            merged.setdefault(first + " (each entry's full reason is in the board file)", []).extend(keys)
        else:
            merged.setdefault(note, []).extend(keys)
    by_note = merged
    ruleset = getattr(getattr(instance, "scenario", None), "ruleset", "")
    out = []
    for note, keys in by_note.items():
        kinds: dict[str, list[str]] = {}
        plain = []
        for key in keys:
            m = _INDEXED.match(key)
            if m is None:
                plain.append(key)
                continue
            kind, index, rest = m.group(1), int(m.group(2)), m.group(3)
            name = _feature_name(instance, kind, index)
            kinds.setdefault(kind, []).append((name or f"#{index + 1}") + (f" {rest.lstrip('.')}" if rest else ""))
        parts = list(plain)
        for kind, names in kinds.items():
            one, many = _CITY_WORDS.get(ruleset, ("city", "cities")) if kind == "cities" else _WORDS[kind]
            if kind in ("impassable", "track"):
                parts.append(f"{len(names)} {one if len(names) == 1 else many}")
            elif len(names) == 1:
                parts.append(f"{one} {names[0]}")
            else:
                parts.append(f"{len(names)} {many} ({', '.join(names)})")
        out.append(("; ".join(parts), note))
    return out
