"""Easter Island: what the sheet changes (../shared/seeds/easter-island-and-zoo.txt)."""
from __future__ import annotations

from solver.engine.ruleset import Ruleset
from solver.engine.moves import SelectAction


class EasterIsland(Ruleset):
    name = "easter-island"
    # Translator's note: the designer allows choosing no action (not paying $8).
    action_optional = True
    # "You may transport only the top cube of any moai"
    top_cube_only = True

    def available_actions(self, state) -> list[str]:
        # "You cannot select an action that has an action blocker on it."
        return [a for a in state.scenario.actions if a not in state.blockers]

    def action_variants(self, state, name: str) -> list:
        if name == "rapa-nui":
            targets = [SelectAction(name, h) for h, cubes in sorted(state.goods.items())
                       if len(cubes) >= self._least_moai(state)]
            # idle-actions=allowed: the stunt may be staged with no moai to turn (nothing turns, no $5)
            return targets + ([SelectAction(name)] if state.rules.idle_actions else [])
        return [SelectAction(name)]

    targeted_actions = frozenset({"rapa-nui"})

    def _check_SelectAction(self, state, move: SelectAction) -> str | None:
        if move.name in state.blockers:
            return f"action '{move.name}' has an action blocker on it until every action has been selected"
        problem = super()._check_SelectAction(state, move)
        if problem:
            return problem
        if move.name == "rapa-nui":
            if move.target is None:
                if state.rules.idle_actions:
                    return None
                return "Rapa Nui needs the moai to turn upside down (action rapa-nui HEX; reading idle-actions=refused)"
            held = len(state.goods.get(move.target, []))
            if held < self._least_moai(state):
                if held == 1:
                    return (f"the moai on {move.target} is a single-cube remnant, and Rapa Nui needs an intact "
                            "two-cube moai under the reading rapa-nui-remnant=refused")
                return f"there is no moai on {move.target} to turn upside down"
        return None

    @staticmethod
    def _least_moai(state) -> int:
        """Cubes Rapa Nui needs on its ruin: "a single-cube remnant" is a moai (reading rapa-nui-remnant)."""
        return 1 if state.rules.rapa_nui_remnant else 2

    def on_action(self, state, move: SelectAction) -> None:
        super().on_action(state, move)
        if move.name == "rapa-nui":
            if move.target is None:
                return  # idle-actions=allowed: no moai turned, no stunt, no $5
            # "Turn the moai upside down (swap the top and bottom cubes), and gain $5"
            state.goods[move.target].reverse()
            state.cash += state.scenario.rapa_nui_cash

    def advance_round_marker(self, state) -> None:
        # "If all action spaces are already selected at this point, remove the 3 action
        # blockers and your player disc ... Otherwise, replace your player disc on the
        # action space with an action blocker"
        if state.action is None:
            return
        selected = state.blockers | {state.action}
        state.blockers = frozenset() if selected >= set(state.scenario.actions) else frozenset(selected)

    def blocker_lock(self, state) -> str | None:
        """Why the blocker cycle can never complete again (so the blocked actions stay blocked), or None.

        The cycle resets only once every action space has been selected. An unblocked action that can
        never be selected again (Locomotive at its maximum, no new city tile left, nothing left for
        Rapa Nui to turn over: none of these ever reverts on this map, where cubes are only removed)
        stops it for good. Cash is not a reason: it can always be earned later.
        """
        if not state.blockers:
            return None
        free = [a for a in state.scenario.actions if a not in state.blockers]
        never = {name: why for name in free if (why := self._never_selectable(state, name))}
        if not never:
            return None
        blocked = ", ".join(sorted(state.blockers))
        why = "; ".join(f"{name}: {text}" for name, text in never.items())
        left = [a for a in free if a not in never]
        tail = (f"; only {', '.join(left)} can still be selected (once each, then blocked too)" if left
                else "; no action can be selected again")
        return (f"the blocker cycle can never complete ({why}), so the blocked action(s) {blocked} can never be "
                f"selected again" + tail)

    def _never_selectable(self, state, name: str) -> str | None:
        probe = state.clone()
        probe.cash, probe.phase = 10 ** 9, "action"  # cash can be earned later: not a lasting reason
        variants = self.action_variants(probe, name)
        if not variants:
            return "nothing is left for it to act on"
        problems = [self._check_SelectAction(probe, m) for m in variants]
        if any(p is None for p in problems):
            return None
        return problems[0]

    def is_cleared(self, state) -> bool:
        # "all of the ruins (cities) are connected into a single network and no statues (cubes) remain"
        if any(state.goods.values()):
            return False
        return ruins_connected(state)


def ruins_connected(state) -> bool:
    ruins = list(state.board.cities)
    net = state.network()
    if any(r not in net for r in ruins):
        return len(ruins) <= 1
    import networkx as nx
    comp = nx.node_connected_component(net, ruins[0])
    return all(r in comp for r in ruins)
