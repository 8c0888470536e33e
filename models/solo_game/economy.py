"""The parts of the solo game a relaxation and a restriction share, modelled EXACTLY as the engine plays them.

Shares, the action (with Easter Island's blocker cycle), the locomotive and its
steps, urbanizing, and the money of solver/engine/ruleset.py `end_round` (the pure
functions of solver/engine/economy.py; the reduction table is the engine's own,
`spec.income_reduction`). Each
function adds its variables to a `SoloModel` (models/solo_game/relaxation.py)
and its constraints to `m`; both models call them, so the economy is written
once and a proof and a plan speak about the same game.
"""
from __future__ import annotations

NONE = "none"


def bounds(spec, rounds: list[int]) -> tuple[int, int, int, int]:
    """(imax, imin, cmax, xmin): domains wide enough for every value the game can reach."""
    n_rounds = len(rounds)
    imax = max(spec.income, 0) + spec.shipments_per_round * spec.max_locomotive * n_rounds + 1
    imin = spec.income_floor
    cmax = spec.cash + spec.share_price * spec.max_shares + n_rounds * (imax + spec.rapa_nui_cash) + 1
    xmin = -(spec.max_shares + spec.max_locomotive + 1)  # cash after build >= 0, income >= floor handled below
    return imax, imin, cmax, xmin


def add_shares_and_actions(m, sm, spec, rounds: list[int], playing: dict | None = None):
    """Shares issued per round and the action chosen per round (blockers exact); returns act(r, a).

    `playing[r]`: a literal, false once the game is over; a round that is not played selects no action
    even where an action is mandatory (the rounds after a clear do not exist in the game).
    """
    actions = list(spec.action_costs)
    # -- shares: "any number, $5 each, at most 15 in the game" ------------------------------------------
    left = spec.max_shares - spec.shares
    for r in rounds:
        sm.shares[r] = m.NewIntVar(0, max(0, left), f"shares_{r}")
    sm.total_shares = m.NewIntVar(0, max(0, left), "total_shares")
    m.Add(sm.total_shares == sum(sm.shares.values()))

    # -- the action: one a round, or none where the map allows it ----------------------------------------
    for r in rounds:
        for a in actions + [NONE]:
            sm.action[r, a] = m.NewBoolVar(f"act_{r}_{a}")
        m.AddExactlyOne(sm.action[r, a] for a in actions + [NONE])
        if not spec.action_optional:
            # base rules: an action is selected every round (Zoo; Easter Island under strict-action),
            # every round that is played
            if playing is None:
                m.Add(sm.action[r, NONE] == 0)
            else:
                m.Add(sm.action[r, NONE] == 0).OnlyEnforceIf(playing[r])
    act = lambda r, a: sm.action.get((r, a), 0)  # noqa: E731

    # -- Easter Island's action blockers: exact ---------------------------------------------------------
    if spec.blocker_cycle:
        blocked = {(rounds[0], a): int(a in spec.blockers) for a in actions}
        for r in rounds:
            # "You cannot select an action that has an action blocker on it."
            for a in actions:
                if isinstance(blocked[r, a], int):
                    if blocked[r, a]:
                        m.Add(sm.action[r, a] == 0)
                else:
                    m.AddImplication(blocked[r, a], sm.action[r, a].Not())
            # full: the chosen action completes the set ("If all action spaces are already selected ...
            # remove the 3 action blockers and your player disc"), else it gets a blocker.
            completes = []
            for a in actions:
                f = m.NewBoolVar(f"completes_{r}_{a}")
                others = [blocked[r, b] for b in actions if b != a]
                m.AddImplication(f, sm.action[r, a])
                for o in others:
                    if isinstance(o, int):
                        if not o:
                            m.Add(f == 0)
                    else:
                        m.AddImplication(f, o)
                m.Add(f >= sm.action[r, a] + sum(others) - len(others))
                completes.append(f)
            full = m.NewBoolVar(f"cycle_done_{r}")
            m.Add(full == sum(completes))
            for a in actions:
                b = m.NewBoolVar(f"blocked_{r + 1}_{a}")
                held = blocked[r, a]
                m.Add(b <= held + sm.action[r, a])
                m.Add(b <= 1 - full)
                m.Add(b >= held + sm.action[r, a] - full)
                blocked[r + 1, a] = b
    return act


def add_idle_rounds(m, sm, rounds: list[int], steps: list[int], playing: dict) -> None:
    """A round after the clear (playing false): no shares, no action, no shipment, no locomotive step."""
    for r in rounds:
        idle = playing[r].Not()
        m.Add(sm.shares[r] == 0).OnlyEnforceIf(idle)
        m.Add(sm.action[r, NONE] == 1).OnlyEnforceIf(idle)
        for k in steps:
            m.Add(sm.ship[r, k] + sm.upgrade[r, k] == 0).OnlyEnforceIf(idle)


def add_locomotive(m, sm, spec, rounds: list[int], steps: list[int], act) -> dict:
    """The locomotive by round and step, the ship/upgrade choice of each step; returns loco_at[r, k]."""
    # -- locomotive: the Locomotive action and the locomotive step (at most once a turn), max 6 ---------------
    loco_at = {}
    for r in rounds:
        sm.loco[r] = m.NewIntVar(1, spec.max_locomotive, f"loco_{r}")
    m.Add(sm.loco[rounds[0]] == spec.locomotive)
    for r in rounds:
        for k in steps:
            sm.ship[r, k] = m.NewBoolVar(f"ship_{r}_{k}")
            sm.upgrade[r, k] = m.NewBoolVar(f"up_{r}_{k}")
            sm.links[r, k] = m.NewIntVar(0, spec.max_locomotive, f"links_{r}_{k}")
            # "In each round a player either moves one good or raises the locomotive level by 1"
            m.Add(sm.ship[r, k] + sm.upgrade[r, k] <= 1)
        # "the locomotive may be raised at most once a turn" (the step; the action is separate)
        m.Add(sum(sm.upgrade[r, k] for k in steps) <= 1)
        if "locomotive" in spec.action_costs and getattr(spec, "idle_actions", False):
            # idle-actions=allowed: the action may be taken at the maximum, where it raises nothing
            raised = m.NewBoolVar(f"loco_action_raises_{r}")
            at_max = m.NewBoolVar(f"loco_at_max_{r}")
            m.Add(sm.loco[r] == spec.max_locomotive).OnlyEnforceIf(at_max)
            m.Add(sm.loco[r] <= spec.max_locomotive - 1).OnlyEnforceIf(at_max.Not())
            m.Add(raised == 0).OnlyEnforceIf(at_max)
            m.Add(raised == act(r, "locomotive")).OnlyEnforceIf(at_max.Not())
            level = sm.loco[r] + raised
        else:
            if "locomotive" in spec.action_costs:
                # the Locomotive action is refused at the maximum
                m.Add(sm.loco[r] <= spec.max_locomotive - 1).OnlyEnforceIf(sm.action[r, "locomotive"])
            level = sm.loco[r] + act(r, "locomotive")
        for k in steps:
            v = m.NewIntVar(1, spec.max_locomotive, f"loco_{r}_{k}")
            m.Add(v == level)
            loco_at[r, k] = v
            level = level + sm.upgrade[r, k]
        end = m.NewIntVar(1, spec.max_locomotive, f"loco_end_{r}")
        m.Add(end == level)
        nxt = r + 1
        if nxt in sm.loco:
            m.Add(sm.loco[nxt] == end)
        else:
            sm.loco[nxt] = end
        for k in steps:
            # a shipment of L links needs locomotive >= L, and has at least one link
            m.Add(sm.links[r, k] <= loco_at[r, k])
            m.Add(sm.links[r, k] <= spec.max_locomotive * sm.ship[r, k])
            m.Add(sm.links[r, k] >= sm.ship[r, k])
    return loco_at


def add_urbanization(m, sm, spec, rounds: list[int], act) -> dict:
    """urb[r, town]: the town becomes a new city in round r."""
    # -- urbanization: one new city per Urbanization action, within the supply --------------------------
    urb = {}
    for r in rounds:
        for t in spec.towns:
            urb[r, t] = m.NewBoolVar(f"urb_{r}_{t}")
        m.Add(sum(urb[r, t] for t in spec.towns) <= act(r, "urbanization"))
    for t in spec.towns:
        m.Add(sum(urb[r, t] for r in rounds) <= 1)
    m.Add(sum(urb.values()) <= spec.new_city_tiles)
    if "urbanization" in spec.action_costs and not getattr(spec, "idle_actions", False):
        for r in rounds:
            # "no new city tiles are left" refuses the action
            m.Add(sum(urb[q, t] for q in rounds if q < r for t in spec.towns) <= spec.new_city_tiles - 1
                  ).OnlyEnforceIf(sm.action[r, "urbanization"])
    return urb


def add_money(m, sm, spec, rounds: list[int], steps: list[int], act, playing: dict | None = None,
              floor_binds: dict | None = None) -> None:
    """Cash and income round by round, exactly as the engine's end_round (sm.spend: the track paid).

    `playing[r]`: a literal, false once the game is over (a plan that clears early); the income floor
    binds only while it is true, since nothing is played or lost after the clear, and a round that is
    not played leaves cash and income as they were (no income, no expenses: the round does not exist).
    """
    actions = list(spec.action_costs)
    imax, floor, cmax, xmin = bounds(spec, rounds)
    # an unplayed round still evaluates its (discarded) accounts from an income >= floor: one round of
    # expenses and shortfall below that
    imin = floor if playing is None else 2 * floor - spec.max_shares - spec.max_locomotive - 1
    # -- money, exactly as solver/engine/economy.py `settle` (the engine's end_round) -------------------------
    # the reduction is the engine's own function, handed in by the solver layer (models import no engine)
    table = [spec.income_reduction(v) for v in range(imin, imax + 1)]
    issued_before = spec.shares
    sm.cash[rounds[0]] = spec.cash
    sm.income[rounds[0]] = spec.income
    cash, income = spec.cash, spec.income
    for r in rounds:
        after_shares = cash + spec.share_price * sm.shares[r]
        cost = sum(spec.action_costs[a] * sm.action[r, a] for a in actions)
        # "you must be able to pay the $8 before you receive that cash"
        m.Add(after_shares >= cost)
        after_action = after_shares - cost + spec.rapa_nui_cash * act(r, "rapa-nui")
        # every tile is paid when laid: cash never goes below 0 in the build
        after_build = m.NewIntVar(0, cmax, f"cash_after_build_{r}")
        m.Add(after_build == after_action - sm.spend[r])
        issued_before = issued_before + sm.shares[r]
        collected = income + sum(sm.links[r, k] for k in steps)
        # "Collect income, then pay expenses (shares + locomotive); what cannot be paid lowers income."
        x = m.NewIntVar(xmin - 10_000, cmax + imax, f"after_expenses_{r}")
        m.Add(x == after_build + collected - issued_before - sm.loco[r + 1])
        new_cash = m.NewIntVar(0, cmax + imax, f"cash_{r + 1}")
        m.AddMaxEquality(new_cash, [x, 0])
        short = m.NewIntVar(xmin - 10_000, 0, f"shortfall_{r}")
        m.AddMinEquality(short, [x, 0])
        # "income below -10 ends the game": a plan that clears never falls below the floor
        low = m.NewIntVar(imin, imax, f"income_before_reduction_{r}")
        m.Add(low == collected + short)
        if floor_binds is not None:
            # `floor_binds[r]`: a literal, or None where the floor never binds in round r
            if floor_binds.get(r) is not None:
                m.Add(low >= floor).OnlyEnforceIf(floor_binds[r])
        elif playing is not None:
            m.Add(low >= floor).OnlyEnforceIf(playing[r])
        index = m.NewIntVar(0, imax - imin, f"income_index_{r}")
        m.Add(index == low - imin)
        loss = m.NewIntVar(0, max(table), f"income_reduction_{r}")
        m.AddElement(index, table, loss)
        new_income = m.NewIntVar(imin - max(table), imax, f"income_{r + 1}")
        m.Add(new_income == low - loss)
        if playing is not None:
            # after the clear: the accounts above are not kept; cash and income stand still
            kept_cash = m.NewIntVar(0, cmax + imax, f"cash_kept_{r + 1}")
            kept_income = m.NewIntVar(imin - max(table), imax, f"income_kept_{r + 1}")
            m.Add(kept_cash == new_cash).OnlyEnforceIf(playing[r])
            m.Add(kept_income == new_income).OnlyEnforceIf(playing[r])
            m.Add(kept_cash == cash).OnlyEnforceIf(playing[r].Not())
            m.Add(kept_income == income).OnlyEnforceIf(playing[r].Not())
            new_cash, new_income = kept_cash, kept_income
        sm.cash[r + 1], sm.income[r + 1] = new_cash, new_income
        cash, income = new_cash, new_income
