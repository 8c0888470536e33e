"""The play area and the referee.

A *layout file* records a solo game as it was played: the start tile, then per
round the tiles placed (in order: tile id, position, rotation) and the pawns
placed after them (position, pinpoint index, placement token).  The referee
replays it placement by placement and reports the first illegal one and why.

Broken input (unknown tile id, rotation outside 0..3, a tile placed on another,
a pawn on a missing pinpoint, ...) is an :class:`InputError`; breaking a game
rule (sides that do not match, a tile touching nothing, the Desert same-kind
rule, a token not in the active area, ...) makes the layout *illegal*.
"""
from __future__ import annotations

import pathlib
from dataclasses import dataclass, field

from solver.board.errors import InputError
from solver.desert.ruleset import Ruleset, read_toml
from solver.desert import network, scoring, tokens as token_stack
from solver.desert.area import Pawn, Placed, PlayArea, token_allows  # noqa: F401  (re-exported)
from solver.desert.tiles import PAWN_KINDS, STAR, TileSet

Cell = tuple[int, int]


# ----------------------------------------------------------------------------- layout files
@dataclass
class TilePlay:
    tile: str
    at: Cell
    rotation: int
    where: str = ""


@dataclass
class PawnPlay:
    at: Cell
    pinpoint: int
    token: str
    where: str = ""


@dataclass
class RoundPlay:
    number: int
    column: int | None = None  # 1-based, with a seed
    tokens: list[str] | None = None
    tiles: list[TilePlay] = field(default_factory=list)
    pawns: list[PawnPlay] = field(default_factory=list)
    where: str = ""


@dataclass
class Layout:
    start_at: Cell = (0, 0)
    start_rotation: int = 0
    rounds: list[RoundPlay] = field(default_factory=list)
    challenge: str | None = None
    seed: int | None = None
    source: str = "<layout>"

    def normalised(self) -> "Layout":
        """The same layout shifted so that its smallest x and y are 0 (the solver's box starts there)."""
        cells = [self.start_at] + [tp.at for rp in self.rounds for tp in rp.tiles]
        dx, dy = -min(c[0] for c in cells), -min(c[1] for c in cells)
        out = Layout((self.start_at[0] + dx, self.start_at[1] + dy), self.start_rotation, [], self.challenge,
                     self.seed, self.source)
        for rp in self.rounds:
            out.rounds.append(RoundPlay(
                rp.number, rp.column, rp.tokens,
                [TilePlay(tp.tile, (tp.at[0] + dx, tp.at[1] + dy), tp.rotation) for tp in rp.tiles],
                [PawnPlay((pp.at[0] + dx, pp.at[1] + dy), pp.pinpoint, pp.token) for pp in rp.pawns]))
        return out

    def to_toml(self, comment: str = "") -> str:
        lines = []
        for c in comment.splitlines():
            lines.append(f"# {c}".rstrip())
        if self.challenge:
            lines.append(f'challenge = "{self.challenge}"')
        if self.seed is not None:
            lines.append(f"seed = {self.seed}")
        lines += ["", "[start]", f"at = [{self.start_at[0]}, {self.start_at[1]}]", f"rotation = {self.start_rotation}", ""]
        for rp in self.rounds:
            lines.append("[[round]]")
            lines.append(f"number = {rp.number}")
            if rp.column is not None:
                lines.append(f"column = {rp.column}")
            if rp.tokens is not None:
                lines.append("tokens = [" + ", ".join(f'"{t}"' for t in rp.tokens) + "]")
            lines.append("tiles = [")
            for tp in rp.tiles:
                lines.append(f'  {{ tile = "{tp.tile}", at = [{tp.at[0]}, {tp.at[1]}], rotation = {tp.rotation} }},')
            lines.append("]")
            lines.append("pawns = [")
            for pp in rp.pawns:
                lines.append(f'  {{ at = [{pp.at[0]}, {pp.at[1]}], pinpoint = {pp.pinpoint}, token = "{pp.token}" }},')
            lines.append("]")
            lines.append("")
        return "\n".join(lines)


def _int(val, where: str, what: str) -> int:
    if not isinstance(val, int) or isinstance(val, bool):
        raise InputError(f"{what} must be a whole number (got {val!r})", where)
    return val


# A game places at most 1 + 8 x 4 = 33 tiles, so a play area never spans more than 33
# cells; coordinates are limited so that a typo such as (10000, -10000) is refused at
# once instead of making the rectangle search scan a huge empty box.
COORD_LIMIT = 100


def _cell(val, where: str) -> Cell:
    if not (isinstance(val, list) and len(val) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in val)):
        raise InputError(f"`at` must be [x, y], two whole numbers (got {val!r})", where)
    if any(abs(v) > COORD_LIMIT for v in val):
        raise InputError(
            f"`at` {val} is outside the play-area coordinates -{COORD_LIMIT}..{COORD_LIMIT} "
            "(a game places at most 33 tiles)", where)
    return (val[0], val[1])


def _check_keys(table: dict, known: set[str], where: str) -> None:
    for key in table:
        if key not in known:
            raise InputError(f"unknown key `{key}`; expected one of {', '.join(sorted(known))}", where)


def parse_layout(data: dict, source: str) -> Layout:
    """Read a layout from parsed TOML; checks shapes and types (not the rules)."""
    if not data:
        raise InputError("the layout file is empty: expected [start] and one [[round]] per round played", source)
    _check_keys(data, {"challenge", "seed", "start", "round"}, source)
    lay = Layout(source=source)
    if "challenge" in data:
        if not isinstance(data["challenge"], str):
            raise InputError("`challenge` must be a challenge id string", f"{source}: challenge")
        lay.challenge = data["challenge"]
    if "seed" in data:
        lay.seed = _int(data["seed"], f"{source}: seed", "`seed`")
    start = data.get("start", {})
    if not isinstance(start, dict):
        raise InputError("[start] must be a table with `at` and `rotation`", f"{source}: start")
    _check_keys(start, {"at", "rotation"}, f"{source}: [start]")
    lay.start_at = _cell(start.get("at", [0, 0]), f"{source}: start.at")
    lay.start_rotation = _int(start.get("rotation", 0), f"{source}: start.rotation", "`rotation`")
    if not 0 <= lay.start_rotation <= 3:
        raise InputError(f"rotation must be 0, 1, 2 or 3 quarter turns (got {lay.start_rotation})", f"{source}: start.rotation")
    rounds = data.get("round", [])
    if not isinstance(rounds, list):
        raise InputError("`round` must be an array of tables ([[round]])", f"{source}: round")
    for i, r in enumerate(rounds):
        where = f"{source}: round[{i}]"
        if not isinstance(r, dict):
            raise InputError("each [[round]] must be a table", where)
        _check_keys(r, {"number", "column", "tokens", "tiles", "pawns"}, where)
        rp = RoundPlay(number=_int(r.get("number", i + 1), f"{where}.number", "`number`"), where=where)
        if rp.number != i + 1:
            raise InputError(f"rounds must be numbered 1, 2, ... in order (expected {i + 1}, got {rp.number})", f"{where}.number")
        if "column" in r:
            rp.column = _int(r["column"], f"{where}.column", "`column`")
        if "tokens" in r:
            if not isinstance(r["tokens"], list) or not all(isinstance(t, str) for t in r["tokens"]):
                raise InputError("`tokens` must be a list of token names", f"{where}.tokens")
            for t in r["tokens"]:
                if t not in PAWN_KINDS + (STAR,):
                    raise InputError(f"unknown token {t!r}; expected one of {', '.join(PAWN_KINDS + (STAR,))}", f"{where}.tokens")
            rp.tokens = list(r["tokens"])
        tiles = r.get("tiles", [])
        if not isinstance(tiles, list):
            raise InputError("`tiles` must be a list of { tile, at, rotation }", f"{where}.tiles")
        for j, tp in enumerate(tiles):
            tw = f"{where}.tiles[{j}]"
            if not isinstance(tp, dict):
                raise InputError("each tile must be a table { tile, at, rotation }", tw)
            _check_keys(tp, {"tile", "at", "rotation"}, tw)
            if not isinstance(tp.get("tile"), str):
                raise InputError("`tile` must be a tile id string", f"{tw}.tile")
            rot = _int(tp.get("rotation", 0), f"{tw}.rotation", "`rotation`")
            if not 0 <= rot <= 3:
                raise InputError(f"rotation must be 0, 1, 2 or 3 quarter turns clockwise (got {rot})", f"{tw}.rotation")
            rp.tiles.append(TilePlay(tp["tile"], _cell(tp.get("at"), f"{tw}.at"), rot, tw))
        pawns = r.get("pawns", [])
        if not isinstance(pawns, list):
            raise InputError("`pawns` must be a list of { at, pinpoint, token }", f"{where}.pawns")
        for j, pp in enumerate(pawns):
            pw = f"{where}.pawns[{j}]"
            if not isinstance(pp, dict):
                raise InputError("each pawn must be a table { at, pinpoint, token }", pw)
            _check_keys(pp, {"at", "pinpoint", "token"}, pw)
            token = pp.get("token")
            if token not in PAWN_KINDS + (STAR,):
                raise InputError(f"`token` must be one of {', '.join(PAWN_KINDS + (STAR,))} (got {token!r})", f"{pw}.token")
            rp.pawns.append(
                PawnPlay(_cell(pp.get("at"), f"{pw}.at"), _int(pp.get("pinpoint"), f"{pw}.pinpoint", "`pinpoint`"), token, pw)
            )
        lay.rounds.append(rp)
    return lay


def load_layout(path: str | pathlib.Path) -> Layout:
    path = pathlib.Path(path)
    return parse_layout(read_toml(path), str(path))


# ----------------------------------------------------------------------------- the referee
@dataclass
class Replay:
    area: PlayArea
    legal: bool = True
    violation: str | None = None
    notes: list[str] = field(default_factory=list)

    def fail(self, message: str) -> None:
        if self.legal:
            self.legal = False
            self.violation = message


def replay(layout: Layout, tileset: TileSet, ruleset: Ruleset, market=None, observe=None) -> Replay:
    """Replay a layout; pawn points are scored at the moment each pawn is placed.

    ``market`` (a :class:`~solver.desert.market.Market`) is the seed's market when the
    layout names a seed; then every round must name the column taken and use its tiles
    and its active tokens. ``observe(round_play, area, tokens)``, if given, sees the play
    area after each round, so pictures of a game come from this one referee loop.
    """
    area = PlayArea(tileset, ruleset)
    rep = Replay(area)
    start = tileset.start.rotated(layout.start_rotation)
    area.place(start, layout.start_at, 0)
    if not layout.rounds:
        raise InputError(
            "the layout records no round ([[round]] with its tiles and pawns); an empty layout is not a game", layout.source
        )
    if len(layout.rounds) > ruleset["rounds"]:
        raise InputError(f"a game has {ruleset['rounds']} rounds, the layout lists {len(layout.rounds)}", layout.source)
    if market is None and any(rp.tokens is None and rp.pawns for rp in layout.rounds):
        rep.notes.append("pawn tokens not checked: the layout names neither a seed nor the active tokens of each round")
    copies_used: dict[str, int] = {}
    for rp in layout.rounds:
        tokens = rp.tokens
        offer = market.rounds[rp.number - 1] if market is not None else None
        _check_round_record(rp, ruleset, tileset, rep)
        if offer is not None:
            if rp.column is None:
                raise InputError("with a seed, each round must name the `column` taken (1, 2 or 3)", rp.where)
            if not 1 <= rp.column <= len(offer.columns):
                raise InputError(f"`column` must be 1..{len(offer.columns)} (got {rp.column})", f"{rp.where}.column")
            if tokens is not None and sorted(tokens) != sorted(offer.tokens):
                raise InputError(
                    f"`tokens` {_words(tokens)} differ from the seed's active tokens {_words(offer.tokens)}", f"{rp.where}.tokens"
                )
            tokens = list(offer.tokens)
            supply = list(offer.columns[rp.column - 1])
        # tiles, in order
        for tp in rp.tiles:
            tt = tileset.get(tp.tile)
            if tt is None or tt.id == tileset.start.id:
                raise InputError(f"unknown tile id {tp.tile!r} (not in the loaded catalogues)", f"{tp.where}.tile")
            if tp.at in area.grid:
                raise InputError(
                    f"a tile placed on another: {tp.at} already holds {area.grid[tp.at].tile.id}", f"{tp.where}.at"
                )
            ot = tt.rotated(tp.rotation)
            where = f"round {rp.number}, {tp.tile} at {tp.at} rotation {tp.rotation} ({tp.where})"
            copies_used[tp.tile] = copies_used.get(tp.tile, 0) + 1
            if copies_used[tp.tile] > tt.count:
                rep.fail(
                    f"{where}: copy number {copies_used[tp.tile]} of tile {tp.tile}, but the catalogue "
                    f"({tileset.sources.get(tp.tile, 'loaded catalogue')}) has {tt.count} "
                    f"[catalogue count: each physical tile is placed at most once]"
                )
            if tt.objective:
                in_play = sum(1 for c in area.grid.values() if c.tile.objective == tt.objective) + 1
                if in_play > ruleset["objective_tiles_in_play"]:
                    rep.fail(f"{where}: objective tile number {in_play} of {tt.objective}; a play area holds "
                             f"{ruleset['objective_tiles_in_play']} of each objective [ruleset objective_tiles_in_play]")
            if offer is not None and not tt.objective:  # objective tiles come from outside the market
                if tp.tile in supply:
                    supply.remove(tp.tile)
                else:
                    rep.fail(f"{where}: tile {tp.tile} is not (or no longer) in column {rp.column} of this round's market")
            why = area.placement_problem(ot, tp.at)
            if why:
                rep.fail(f"{where}: {why}")
            area.place(ot, tp.at, rp.number)
            n_st = len(_stations(area))
            if n_st > ruleset["desert_station_tokens"]:
                rep.fail(f"{where}: needs Desert Station number {n_st}, the game has {ruleset['desert_station_tokens']} [ruleset desert_station_tokens]")
        if offer is not None and supply and not ruleset["taken_tiles_optional"]:
            rep.fail(f"round {rp.number}: tiles {_words(supply)} of the taken column were not placed [ruleset taken_tiles_optional]")
        # pawns, in order, after the tiles
        left = list(tokens) if tokens is not None else None
        for pp in rp.pawns:
            placed = area.grid.get(pp.at)
            if placed is None:
                raise InputError(f"a pawn on a missing pinpoint: no tile at {pp.at} by round {rp.number}", f"{pp.where}.at")
            pins = placed.tile.pinpoints
            if not 0 <= pp.pinpoint < len(pins):
                raise InputError(
                    f"a pawn on a missing pinpoint: {placed.tile.id} has "
                    + (f"pinpoints 0..{len(pins) - 1}" if pins else "no pinpoints")
                    + f" (got {pp.pinpoint})",
                    f"{pp.where}.pinpoint",
                )
            if (pp.at, pp.pinpoint) in area.used_pins:
                raise InputError(f"pinpoint {pp.pinpoint} of {placed.tile.id} at {pp.at} already holds a pawn", pp.where)
            kind = pins[pp.pinpoint].pawn
            where = f"round {rp.number}, {kind} on {placed.tile.id} at {pp.at} ({pp.where})"
            if not token_allows(pp.token, kind, ruleset):
                rep.fail(f"{where}: a {pp.token} token cannot place a {kind} pawn [ruleset star_any_pawn, star_places_train]")
            if left is not None:
                if pp.token in left:
                    left.remove(pp.token)
                else:
                    rep.fail(f"{where}: no unused {pp.token} token in this round's active area ({_words(tokens)})")
            if kind == "camel" and area.camels() >= ruleset["camel_pawns"]:
                rep.fail(f"{where}: the game has only {ruleset['camel_pawns']} camel pawns [ruleset camel_pawns]")
            pawn = Pawn(pp.at, pp.pinpoint, kind, pp.token, rp.number)
            pawn.points = scoring.pawn_points(area, pawn)
            area.pawns.append(pawn)
            area.used_pins.add((pp.at, pp.pinpoint))
        if market is None:
            _check_token_order(layout, rp.number, ruleset, rep)
        if observe is not None:
            observe(rp, area, tokens)
    return rep


def _words(items) -> str:
    return ", ".join(map(str, items)) if items else "none"


def active_slots(round_no: int, ruleset: Ruleset) -> int:
    """Tokens in the active area in round ``round_no``: one more revealed each round, at most the area's size."""
    return min(round_no * ruleset["tokens_revealed_per_round"], ruleset["active_area_size"])


def _check_round_record(rp: RoundPlay, ruleset: Ruleset, tileset: TileSet, rep: Replay) -> None:
    """What the rules fix about a round whatever the seed: the tokens of the active area and the
    number of tiles one column can hold."""
    slots = active_slots(rp.number, ruleset)
    swap = ruleset["desert_token_swap"]
    if rp.tokens is not None:
        if len(rp.tokens) > slots:
            rep.fail(
                f"round {rp.number} ({rp.where}): {len(rp.tokens)} active tokens ({_words(rp.tokens)}), but the active area "
                f"holds {slots} in round {rp.number} [ruleset active_area_size, tokens_revealed_per_round]"
            )
        if swap["remove"] in rp.tokens:
            rep.fail(
                f"round {rp.number} ({rp.where}): a {swap['remove']} token, but the Desert expansion removes them: "
                f"'Remove the 3 Placement tokens with a Train Pinpoint from the game' [ruleset desert_token_swap]"
            )
    if len(rp.pawns) > slots:
        rep.fail(
            f"round {rp.number} ({rp.where}): {len(rp.pawns)} pawns placed, but the active area holds {slots} "
            f"tokens in round {rp.number}, one placement each [ruleset active_area_size, tokens_revealed_per_round]"
        )
    for pp in rp.pawns:
        if pp.token == swap["remove"]:
            rep.fail(
                f"round {rp.number} ({pp.where}): placed with a {pp.token} token, but the Desert expansion removes "
                f"them [ruleset desert_token_swap]"
            )
    # what one column holds (objective tiles are not from the market: ruleset objective_placement)
    kinds = [tileset.get(tp.tile).kind for tp in rp.tiles
             if tileset.get(tp.tile) is not None and not tileset.get(tp.tile).objective]
    if not column_fits(kinds, ruleset):
        rep.fail(
            f"round {rp.number} ({rp.where}): {len(kinds)} tiles ({kinds.count('core')} core + "
            f"{kinds.count('desert')} desert), but one solo column holds at most {column_shapes(ruleset)} "
            "[ruleset solo_columns, column_mix]"
        )


def _check_token_order(layout: Layout, upto: int, ruleset: Ruleset, rep: Replay) -> None:
    """Rounds 1..upto's active tokens and pawn tokens must be windows of one reveal order of
    the token stack (a seed's market is such an order by construction)."""
    if not rep.legal:
        return  # the first broken rule is already named
    rounds = layout.rounds[:upto]
    listed = [rp.tokens for rp in rounds]
    used = [[pp.token for pp in rp.pawns] for rp in rounds]
    stack, window = ruleset.token_stack(), ruleset["active_area_size"]
    if token_stack.explained(stack, window, listed, used):
        return
    rp = rounds[-1]
    rep.fail(
        f"round {rp.number} ({rp.where}): {token_stack.why(stack, window, listed, used, rp.number)}: 'each round one "
        "more is revealed and the revealed ones slide along the active area' [ruleset placement_tokens, "
        "desert_token_swap, active_area_size, tokens_revealed_per_round]"
    )


def column_fits(kinds: list[str], ruleset: Ruleset) -> bool:
    """Could tiles of these kinds (core/desert) all come from one solo column?"""
    mix = ruleset["column_mix"]
    return any(all(mix[str(s)].count(b) >= kinds.count(b) for b in ("core", "desert")) for s in ruleset["solo_columns"])


def column_shapes(ruleset: Ruleset) -> str:
    mix = ruleset["column_mix"]
    return ", ".join(f"{s} tiles ({mix[str(s)].count('core')} core + {mix[str(s)].count('desert')} desert)"
                     for s in ruleset["solo_columns"])


def _stations(area: PlayArea):
    return network.desert_stations(area)
