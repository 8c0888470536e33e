"""Small helpers to set up game states for rule tests."""
from __future__ import annotations

from solver.board.hexgrid import Hex
from solver.games import load_instance
from solver.engine.moves import EndBuild, IssueShares, SelectAction, Ship, path_to_tiles, parse_route
from solver.engine.state import GameState, Rules
from tests.conftest import INSTANCES

H = Hex.parse


def instance(name: str):
    return load_instance(INSTANCES / name)


def new_state(inst, setup: dict[str, list[str]], rules: Rules = Rules(), cash: int | None = None) -> GameState:
    state = GameState.new(inst, {H(k): v for k, v in setup.items()}, rules)
    if cash is not None:
        state.cash = cash
    return state


def to_build(state: GameState, action: str | None = None, shares: int = 0) -> GameState:
    state.apply(IssueShares(shares))
    state.apply(SelectAction(action))
    return state


def lay(state: GameState, *paths: str) -> None:
    for path in paths:
        for tile in path_to_tiles([H(x) for x in path.split("-")]):
            state.apply(tile)


def ship(origin: str, colour: str, route: str, discount: str | None = None) -> Ship:
    hexes, teleports = parse_route(route)
    return Ship(H(origin), colour, hexes, teleports, H(discount) if discount else None)


def to_ship(state: GameState) -> GameState:
    state.apply(EndBuild())
    return state


def says(text: str, fragment: str) -> bool:
    """Whether an error message says `fragment`, in the one readable style (values in double quotes,
    solver.report.words.readable): single and double quotes are treated alike."""
    from solver.report.words import readable
    return readable(fragment).replace("'", '"') in text.replace("'", '"')
