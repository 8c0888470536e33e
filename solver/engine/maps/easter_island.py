"""Easter Island: what the sheet changes (../shared/seeds/easter-island-and-zoo.txt)."""
from __future__ import annotations

from solver.engine.ruleset import Ruleset
from solver.engine.moves import EndBuild, IssueShares, Pass, SelectAction


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


    # -- reading end-of-game ------------------------------------------------------------------------
    def plays_on(self, state) -> bool:
        return getattr(state.rules, "end_of_game", "at-clear") == "round-track"

    def after_clear_problem(self, state) -> str | None:
        """Reading end-of-game=round-track: the game runs to the end of the round track, so the clear stands
        only if rounds `state.round`..last_round can be played out legally with income never below the floor.

        The reading defines the play-out as the sheet leaves it: each round after the clear is shares (any
        count), an action (none, where allowed, or any legal one), no build, and a pass for every shipment.
        After the clear no cube is left and none comes back ("This map does not use the goods display"), so
        nothing can be shipped and income never rises again, and the clear can never be undone (track is
        never removed). Laying track or raising the locomotive after the clear only spends cash or adds
        expenses; the reading leaves them out of the play-out. The search below is exact for that play-out
        (every share count and action, memoised on everything the later rounds read), judged by this
        referee's own moves and end of round.
        """
        if not self.plays_on(state) or state.round > state.last_round:
            return None
        probe = state.clone()
        probe.phase, probe.playing_out = "shares", True
        found = self._play_out(probe, {})
        if found is None:
            return (f"the clear in round {state.round - 1} does not stand: the game runs to the end of the round "
                    f"track (round {state.last_round}; reading end-of-game=round-track) and no play of the "
                    f"rounds after it keeps income at or above {state.scenario.income_floor}")
        state.after_clear = tuple(found)
        return None

    def _play_out(self, s, seen: dict, prune: bool = True) -> list[str] | None:
        """The rounds from `s` (phase "shares") to the last, as texts, played without losing; None if none.
        `prune=False` tries every share count and action (tests compare the two)."""
        if s.round > s.last_round:
            return []
        key = (s.round, s.cash, s.income, s.shares, s.locomotive, s.blockers, tuple(sorted(s.new_city_supply)))
        if key in seen:
            return seen[key]
        seen[key] = None
        sc = s.scenario
        # Below every income-reduction bracket (income never rises after the clear) more cash, more income and
        # fewer shares are never worse, so where no action is allowed: no action (an action only costs, or
        # raises the locomotive's expenses, or moves blockers no later round needs), and no more shares than
        # keep this round's cash from going short (a share issued beyond that is better issued next round: $1
        # richer, the same otherwise). Where an action must be selected (strict-action=on), a share more may
        # pay for it, so every count is tried. Above a bracket's floor a shortfall can leave more income than the reduction
        # would, so every count and action is tried there.
        calm = prune and all(low > s.income for low, _, _ in sc.income_reduction)
        most = sc.max_shares - s.shares
        for k in range(0, most + 1):
            a = s.child(IssueShares(k))
            actions = [m for m in self.candidate_moves(a) if a.why_illegal(m) is None]  # none first
            optional = bool(actions) and actions[0] == SelectAction(None)
            if calm and optional:
                actions = actions[:1]
            short = False
            for act in actions:
                b = a.child(act)
                b.apply(EndBuild())
                while b.phase == "ship":
                    b.apply(Pass())
                short = short or b.accounts.get("shortfall", 0) > 0
                if b.lost:
                    continue
                rest = self._play_out(b, seen, prune)
                if rest is not None:
                    seen[key] = [f"round {s.round}: {IssueShares(k)}, {act}"] + rest
                    return seen[key]
            if calm and optional and not short:
                break  # no action, not short with k shares: more shares this round are never better
        return None


def ruins_connected(state) -> bool:
    ruins = list(state.board.cities)
    net = state.network()
    if any(r not in net for r in ruins):
        return len(ruins) <= 1
    import networkx as nx
    comp = nx.node_connected_component(net, ruins[0])
    return all(r in comp for r in ruins)
