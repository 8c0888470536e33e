"""The three Desert solo challenges: missions and star thresholds (from challenges.toml)."""
from __future__ import annotations

import dataclasses
import pathlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.board.errors import InputError
from solver.desert.ruleset import DATA, Rule, read_toml
from solver.desert.tiles import CORE, DESERT, DIRS, PAWN_KINDS, neighbour, orthogonal_groups

if TYPE_CHECKING:
    from solver.desert.area import PlayArea

DEFAULT_CHALLENGES = DATA / "challenges.toml"
MISSIONS = ("boundary-in-one-line", "landmarks-one-group", "desert-pawns-touch-core")


@dataclass(frozen=True)
class Challenge:
    id: str
    name: str
    mission: str
    quote: str
    thresholds: tuple[int, ...]
    pawn_kinds: tuple[str, ...] = ()
    inclusive: bool = True  # reading thresholds_inclusive: a star at a score of at least (else above) its threshold
    group: str = "landmark-tiles"  # reading lost_world_group: what the Lost World's group runs through

    def reaches(self, score: int, threshold: int) -> bool:
        return score >= threshold if self.inclusive else score > threshold

    def stars(self, score: int, met: bool, failed_stars: int = 0) -> int:
        if not met:
            return failed_stars
        return sum(1 for t in self.thresholds if self.reaches(score, t))


@dataclass
class Challenges:
    items: dict[str, Challenge]
    failed_stars: int
    failed_rule: Rule
    path: pathlib.Path

    def get(self, cid: str, where: str = "--challenge") -> Challenge:
        if cid not in self.items:
            raise InputError(f"unknown challenge {cid!r}; expected one of {', '.join(self.items)}", where)
        return self.items[cid]


def load_challenges(path: str | pathlib.Path | None = None) -> Challenges:
    path = pathlib.Path(path) if path else DEFAULT_CHALLENGES
    data = read_toml(path)
    stars = data.get("stars", {})
    fs = stars.get("mission_failed_stars")
    if not isinstance(fs, int) or isinstance(fs, bool) or fs < 0:
        raise InputError("`mission_failed_stars` must be a whole number >= 0", f"{path}: [stars]")
    if stars.get("source") != "assumed" or not stars.get("reason"):
        raise InputError("needs source = \"assumed\" and a `reason`", f"{path}: [stars]")
    items: dict[str, Challenge] = {}
    for i, c in enumerate(data.get("challenge", [])):
        where = f"{path}: challenge[{i}]"
        for key in ("id", "name", "mission", "quote"):
            if not isinstance(c.get(key), str):
                raise InputError(f"missing `{key}` (a string)", where)
        if c["mission"] not in MISSIONS:
            raise InputError(f"unknown mission {c['mission']!r}; expected one of {', '.join(MISSIONS)}", f"{where}.mission")
        th = c.get("thresholds")
        if not (isinstance(th, list) and th and all(isinstance(v, int) for v in th) and th == sorted(th)):
            raise InputError("`thresholds` must be increasing whole numbers (1, 2, 3 stars)", f"{where}.thresholds")
        kinds = tuple(c.get("pawn_kinds", ()))
        if any(k not in PAWN_KINDS for k in kinds):
            raise InputError(f"pawn kinds must be among {', '.join(PAWN_KINDS)}", f"{where}.pawn_kinds")
        if c["mission"] == "desert-pawns-touch-core" and not kinds:
            raise InputError("this mission needs `pawn_kinds`", where)
        items[c["id"]] = Challenge(c["id"], c["name"], c["mission"], c["quote"], tuple(th), kinds)
    if not items:
        raise InputError("no [[challenge]] entries", str(path))
    return Challenges(items, fs, Rule("mission_failed_stars", fs, "assumed", stars["reason"]), path)


def under_readings(challenges: Challenges, rs) -> Challenges:
    """The challenges as the ruleset's readings read them (death_pawn_kinds,
    thresholds_inclusive, lost_world_group)."""
    items = {}
    for cid, ch in challenges.items.items():
        kinds = ch.pawn_kinds
        if ch.mission == "desert-pawns-touch-core" and rs["death_pawn_kinds"] == "all":
            kinds = tuple(k for k in PAWN_KINDS if k in kinds or k == "train")
        items[cid] = dataclasses.replace(ch, pawn_kinds=kinds, inclusive=rs["thresholds_inclusive"] == "at-least",
                                         group=rs["lost_world_group"])
    return dataclasses.replace(challenges, items=items)


# ----------------------------------------------------------------------------- checks
@dataclass
class MissionResult:
    met: bool
    reason: str


def check(challenge: Challenge, area: "PlayArea") -> MissionResult:
    return {
        "boundary-in-one-line": _boundary,
        "landmarks-one-group": _landmarks,
        "desert-pawns-touch-core": _pawns,
    }[challenge.mission](challenge, area)


def boundary_tiles(area: "PlayArea") -> list[tuple[int, int]]:
    """Desert tiles with at least one orthogonally adjacent regular (core) tile."""
    out = []
    for cell, p in area.grid.items():
        if p.tile.kind != DESERT:
            continue
        if any((nb := area.grid.get(neighbour(cell, d))) is not None and nb.tile.kind == CORE for d in DIRS):
            out.append(cell)
    return sorted(out)


def _boundary(ch: Challenge, area: "PlayArea") -> MissionResult:
    cells = boundary_tiles(area)
    if not cells:
        return MissionResult(True, "no Desert tile touches a regular tile")
    rows = {c[1] for c in cells}
    cols = {c[0] for c in cells}
    if len(rows) == 1:
        return MissionResult(True, f"{_n(len(cells), 'Desert tile')} next to regular tiles, all in row y={cells[0][1]}")
    if len(cols) == 1:
        return MissionResult(True, f"{_n(len(cells), 'Desert tile')} next to regular tiles, all in column x={cells[0][0]}")
    return MissionResult(
        False,
        f"the Desert tiles next to regular tiles, {_cells(cells)}, span rows {_list(sorted(rows))} "
        f"and columns {_list(sorted(cols))}: not a single row or column",
    )


def _landmarks(ch: Challenge, area: "PlayArea") -> MissionResult:
    cells = {c for c, p in area.grid.items() if p.tile.landmarks}
    if not cells:
        return MissionResult(True, "no Landmark in the play area")
    n = sum(len(area.grid[c].tile.landmarks) for c in cells)
    if ch.group == "desert-tiles":
        # reading lost_world_group = desert-tiles: the group may run through Desert tiles without a Landmark
        desert = {c for c, p in area.grid.items() if p.tile.kind == DESERT}
        groups = [g for g in orthogonal_groups(desert | cells) if set(g) & cells]
        if len(groups) == 1:
            return MissionResult(True, f"{_n(n, 'Landmark')} on {_n(len(cells), 'tile')}, all in one orthogonally "
                                       "adjacent group of Desert tiles")
        return MissionResult(False, f"the Landmark tiles lie in {len(groups)} separate groups of Desert tiles: "
                             + "; ".join(_cells(sorted(set(g) & cells)) for g in groups))
    groups = orthogonal_groups(cells)
    if len(groups) == 1:
        return MissionResult(True, f"{_n(n, 'Landmark')} on {_n(len(cells), 'tile')} forming one orthogonally adjacent group")
    return MissionResult(
        False,
        f"the Landmark tiles form {len(groups)} separate groups: " + "; ".join(_cells(g) for g in groups),
    )


def _pawns(ch: Challenge, area: "PlayArea") -> MissionResult:
    bad = []
    count = 0
    for p in area.pawns:
        if p.kind not in ch.pawn_kinds:
            continue
        placed = area.grid[p.cell]
        if placed.tile.kind != DESERT:
            continue
        count += 1
        if not any(
            (nb := area.grid.get(neighbour(p.cell, d))) is not None and nb.tile.kind == CORE for d in DIRS
        ):
            bad.append(f"{p.kind} on {placed.tile.id} at {p.cell}")
    if bad:
        return MissionResult(False, "Desert tiles holding a pawn touch no regular tile: " + "; ".join(bad))
    if not count:
        return MissionResult(True, f"no pawn ({'/'.join(ch.pawn_kinds)}) on a Desert tile")
    return MissionResult(True, f"{_n(count, 'pawn')} ({'/'.join(ch.pawn_kinds)}) on Desert tiles, each next to a regular tile")


def status(ch: Challenge, area: "PlayArea", finished: bool) -> dict:
    """The mission now: "met", "still possible" or "lost for good", with why (issue 40).

    Lost for good only with an argument that no later placement helps: the game is over;
    Sharp Boundary is not met (a Desert tile next to a regular tile stays next to it, so
    the set of such tiles only grows and never returns to one line); a Desert of Death pawn
    sits on a Desert tile whose four neighbours are all taken and none regular (pawns and
    tiles are never removed).  Otherwise a missed mission is "still possible" (not proved
    lost: e.g. a Landmark tile placed between two groups joins them)."""
    res = check(ch, area)
    if res.met:
        return {"status": "met", "reason": res.reason}
    if finished:
        return {"status": "lost for good", "reason": f"the game is over: {res.reason}"}
    if ch.mission == "boundary-in-one-line":
        return {"status": "lost for good", "reason": res.reason + "; a Desert tile next to a regular tile stays "
                "next to it, so no later tile brings them back to one line"}
    if ch.mission == "desert-pawns-touch-core":
        for p in area.pawns:
            if p.kind not in ch.pawn_kinds or area.grid[p.cell].tile.kind != DESERT:
                continue
            nbs = [area.grid.get(neighbour(p.cell, d)) for d in DIRS]
            if all(nb is not None for nb in nbs) and not any(nb.tile.kind == CORE for nb in nbs):
                return {"status": "lost for good", "reason": f"the {p.kind} on {area.grid[p.cell].tile.id} at "
                        f"{p.cell} sits on a Desert tile whose four neighbours are all taken, none regular"}
    return {"status": "still possible", "reason": res.reason + " (not met now; not proved lost)"}


def _cells(cells) -> str:
    return ", ".join(f"({x}, {y})" for x, y in cells)


def _list(vals) -> str:
    vals = [str(v) for v in vals]
    return vals[0] if len(vals) == 1 else ", ".join(vals[:-1]) + " and " + vals[-1]


def _n(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"
