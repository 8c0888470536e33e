"""The Desert's data as one value (ruleset, catalogues, challenges under the readings), and the
tiles files a layout question is asked with.  Domain: the play above models/ and the models
both read it (the models never import the play)."""
from __future__ import annotations

import pathlib
from dataclasses import dataclass

from solver.board.errors import InputError
from solver.desert import missions, readings as desert_readings, tokens as token_stack
from solver.desert.catalogue import load_catalogues
from solver.desert.layout import active_slots, column_fits, column_shapes
from solver.desert.market import RoundOffer
from solver.desert.missions import Challenges, load_challenges
from solver.desert.ruleset import Ruleset, load_ruleset, read_toml
from solver.desert.tiles import PAWN_KINDS, STAR, TileSet


@dataclass
class Setup:
    """Everything loaded from the data files."""

    ruleset: Ruleset
    tileset: TileSet
    challenges: Challenges

    def assumptions(self) -> list[dict]:
        rules = self.ruleset.assumptions() + [self.challenges.failed_rule]
        out = [{"key": r.key, "value": r.value, "reason": r.note} for r in rules]
        for path, stand_in in self.tileset.stand_in.items():
            if stand_in:
                out.append(
                    {
                        "key": "catalogue",
                        "value": pathlib.Path(path).name,
                        "reason": "STAND-IN tile drawings (the real ones are not published); results are about the stand-in",
                    }
                )
        return out


def load_setup(ruleset: str | None = None, catalogues: tuple[str, ...] | None = None, challenges: str | None = None,
               readings: tuple[str, ...] | list[str] = ()) -> Setup:
    """The data files, with the named readings ``NAME=VALUE`` set (solver.desert.readings)."""
    rs = desert_readings.apply(load_ruleset(ruleset), readings)
    return Setup(rs, load_catalogues(rs, catalogues or None), missions.under_readings(load_challenges(challenges), rs))


# ----------------------------------------------------------------------------- tiles files
def load_tiles_file(path: str | pathlib.Path, setup: Setup) -> tuple[list[RoundOffer], str | None]:
    """A multiset of tiles to lay out: `[[round]] tiles = [...], tokens = [...]`, or flat
    `tiles` and `tokens` for a single round."""
    path = pathlib.Path(path)
    data = read_toml(path)
    rounds = data.get("round")
    if rounds is None:
        rounds = [{"tiles": data.get("tiles"), "tokens": data.get("tokens", [])}]
        base = str(path)
    elif not isinstance(rounds, list):
        raise InputError("`round` must be an array of tables ([[round]])", f"{path}: round")
    else:
        base = None
    offers = []
    if len(rounds) > setup.ruleset["rounds"]:
        raise InputError(f"a game has {setup.ruleset['rounds']} rounds, the file lists {len(rounds)}", str(path))
    for i, r in enumerate(rounds):
        where = base or f"{path}: round[{i}]"
        if not isinstance(r, dict):
            raise InputError("each [[round]] must be a table", where)
        tiles = r.get("tiles")
        if not isinstance(tiles, list) or not all(isinstance(t, str) for t in tiles):
            raise InputError("`tiles` must be a list of tile ids", f"{where}.tiles" if base is None else f"{path}: tiles")
        for t in tiles:
            tt = setup.tileset.get(t)
            if tt is None or tt.id == setup.tileset.start.id:
                raise InputError(f"unknown tile id {t!r} (not in the loaded catalogues)", f"{where}.tiles" if base is None else f"{path}: tiles")
        tokens = r.get("tokens", [])
        if not isinstance(tokens, list) or any(t not in PAWN_KINDS + (STAR,) for t in tokens):
            raise InputError(
                f"`tokens` must be a list of {', '.join(PAWN_KINDS + (STAR,))}", f"{where}.tokens" if base is None else f"{path}: tokens"
            )
        # The same record rules as a played game: what one column holds, the active area's tokens.
        tw = f"{where}.tiles" if base is None else f"{path}: tiles"
        kw = f"{where}.tokens" if base is None else f"{path}: tokens"
        kinds = [setup.tileset.get(t).kind for t in tiles]
        if not column_fits(kinds, setup.ruleset):
            raise InputError(
                f"{kinds.count('core')} core + {kinds.count('desert')} desert tiles in one round; one solo column holds "
                f"at most {column_shapes(setup.ruleset)} [ruleset solo_columns, column_mix]", tw)
        if len(tokens) > active_slots(i + 1, setup.ruleset):
            raise InputError(
                f"{len(tokens)} active tokens in round {i + 1}; the active area holds {active_slots(i + 1, setup.ruleset)} "
                "then [ruleset active_area_size, tokens_revealed_per_round]", kw)
        if setup.ruleset["desert_token_swap"]["remove"] in tokens:
            raise InputError("train tokens are removed by the Desert expansion [ruleset desert_token_swap]", kw)
        offers.append(RoundOffer(i + 1, (tuple(tiles),), tuple(tokens)))
        # the rounds' tokens so far must be windows of one reveal order of the token stack
        stack, window = setup.ruleset.token_stack(), setup.ruleset["active_area_size"]
        listed = [list(o.tokens) for o in offers]
        if not token_stack.explained(stack, window, listed, [[] for _ in listed]):
            raise InputError(
                f"round {i + 1}: {token_stack.why(stack, window, listed, [[] for _ in listed], i + 1)} [ruleset "
                "placement_tokens, desert_token_swap, active_area_size, tokens_revealed_per_round]", kw)
    ch = data.get("challenge")
    if ch is not None and not isinstance(ch, str):
        raise InputError("`challenge` must be a challenge id", f"{path}: challenge")
    return offers, ch
