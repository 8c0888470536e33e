"""Build advice: the cheapest track that makes a better delivery possible next turn.

"Better": a delivery next turn earning the player more income than the best
single delivery the current track allows next turn (the goods as this turn
leaves them, before goods growth, whose draws are random; the locomotive or
power plants as after this turn; no action assumed, so no Engineer tile and no
Interurban Express).

Why a complete search and not a Steiner tree per pair: only complete links
carry goods, so the cheapest build that enables a delivery is made of new
complete links (track left over could be removed for less). The search lists
every new complete link of the map's build graph (the graph `build-cost` gives
the Steiner solver: the map's tile and town costs, taken hexes out, own and
others' links already usable), every combination of them within the tile limit
(3; Synapses: 2 discs) and the cash, cheapest first, and judges each with the
map's rules (`apply_build`: track rules and contiguity; then the shipment
search). The first combination that gives a better delivery is the proven
minimum: every cheaper one was tried and judged. (A Steiner optimum per
good-and-destination pair does not bound this: the cheapest join of a pair is
often free over links the player already has, while the better delivery needs
a dearer, longer route of own links.)

Not searched (as in `build-cost`): extending the player's incomplete track,
complex tiles, urbanization, the Engineer's shared placement in Synapses.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.board.errors import InputError
from solver.engine.shipping import shipments

MAX_LINK_TILES = 4   # a link longer than the tile limit cannot be built in one turn anyway


@dataclass
class Advice:
    status: str                   # proven / none / last-turn
    cost: int | None = None
    pieces: list = field(default_factory=list)     # tiles (hexes) or discs (neurons)
    links: list = field(default_factory=list)
    delivery: str = ""
    income: int = 0
    baseline: int = 0
    limit: int = 0
    unit: str = "tile"
    cash: int = 0
    builds_judged: int = 0
    notes: list = field(default_factory=list)

    def to_json(self) -> dict:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Option:
    cost: int              # track tiles (or discs) and fees, without town tiles
    pieces: tuple          # track hexes or neurons: one link each
    links: tuple           # paths, or ("lung disc",)
    text: str
    towns: tuple = ()      # (town, cost) of the town tiles it needs: one tile per town however many links


def is_last_turn(state) -> bool:
    """No turn follows this one: the state says it is the final turn, or its round is the last for its player
    count (`last_round`: map_rules.rounds_by_players, an assumption with its reason)."""
    return state.final_turn or state.round >= state.ruleset.last_round(state.instance, state.player_count)


def next_turn(state):
    """The position at the start of next turn's shipping; it is the final turn (End of an Era in Kansas City)
    when its round is the last for the player count."""
    nxt = state.clone()
    nxt.round = state.round + 1
    nxt.action = None
    nxt.final_turn = nxt.round >= state.ruleset.last_round(state.instance, state.player_count)
    nxt.shipments_done = 0
    nxt.locomotive_raised = False
    nxt.ruleset.start_next_round(nxt)
    nxt.locomotive = nxt.ruleset.link_capacity(nxt)
    return nxt


def best_delivery(state) -> tuple[int, object]:
    rs, best, move = state.ruleset, 0, None
    for m in shipments(state):
        gain = rs.income_split(state, m).get(state.active, 0)
        if gain > best:
            best, move = gain, m
    return best, move


def advise(state, max_builds: int = 20000) -> Advice:
    """The cheapest build (within the tile limit and cash) for a better delivery next turn."""
    rs, inst = state.ruleset, state.instance
    if is_last_turn(state):
        return Advice("last-turn", notes=["this is the final turn: there is no next turn to build for"])
    nxt = next_turn(state)
    baseline, _ = best_delivery(nxt)
    limit, unit = rs.advice_limit(nxt)
    cash = nxt.me.cash
    options = _disc_options(nxt, limit) if inst.board.nodes else _link_options(nxt, limit)
    combos = _combinations(options, limit, cash)
    judged = 0
    found = None
    for cost, combo in combos:
        if found is not None and cost > found[0]:
            break
        judged += 1
        if judged > max_builds:
            return Advice("unknown", baseline=baseline, limit=limit, unit=unit, cash=cash, builds_judged=judged - 1,
                          notes=[f"stopped after {max_builds} builds without a better delivery; nothing is proven"])
        try:
            hyp = _apply(nxt, combo)
        except InputError:
            continue   # the rules refuse this build (e.g. Kansas City contiguity)
        gain, move = best_delivery(hyp)
        if gain > baseline and (found is None or gain > found[2]):
            found = (cost, combo, gain, move, hyp)
    if found is None:
        return Advice("none", baseline=baseline, limit=limit, unit=unit, cash=cash, builds_judged=judged,
                      notes=[f"no build of at most {limit} {unit}s costing at most ${cash} gives a delivery earning "
                             f"more than +{baseline} (all {judged} judged by the rules)"])
    cost, combo, gain, move, hyp = found
    pieces = sorted({str(p) for o in combo for p in o.pieces} | {str(t) for o in combo for t, _ in o.towns})
    return Advice("proven", cost, pieces, [o.text for o in combo], _route_text(hyp, move), gain, baseline, limit,
                  unit, cash, judged,
                  [f"every cheaper build within {limit} {unit}s and ${cash} was judged and gives no delivery "
                   f"earning more than +{baseline}"])


def _combinations(options: list, limit: int, cash: int) -> list:
    """Every set of options with disjoint pieces, at most `limit` tiles (track pieces plus distinct town
    tiles) and cost <= cash, cheapest first. Depth-first over the options in a fixed order, cut as soon
    as a partial set is over the limit or the cash (adding options never lowers either)."""
    options = sorted(options, key=lambda o: (o.cost, len(o.pieces), o.text))
    out = []

    def grow(start: int, combo: tuple, pieces: frozenset, towns: dict, cost: int):
        for i in range(start, len(options)):
            o = options[i]
            if pieces & set(o.pieces):
                continue
            new_towns = {**towns, **dict(o.towns)}
            new_cost = cost + o.cost + sum(c for t, c in o.towns if t not in towns)
            tiles = len(pieces) + len(o.pieces) + len(new_towns)
            if tiles > limit or new_cost > cash:
                continue
            nxt = combo + (o,)
            out.append((new_cost, nxt))
            grow(i + 1, nxt, pieces | set(o.pieces), new_towns, new_cost)

    grow(0, (), frozenset(), {}, 0)
    out.sort(key=lambda t: (t[0], len(t[1]), [o.text for o in t[1]]))
    return out


def _apply(state, combo):
    rs = state.ruleset
    if state.board.nodes:
        return rs.apply_discs(state, [p for o in combo for p in o.pieces])
    paths = [o.links[0] for o in combo if o.links and o.links[0] != "lung disc"]
    lung = any(o.links == ("lung disc",) for o in combo)
    return rs.apply_build(state, paths, lung_disc=lung)


def _link_options(state, limit: int) -> list:
    """Every new complete link of the build graph: stop, 0..limit free track hexes, another stop."""
    rs, inst = state.ruleset, state.instance
    g, _, _ = rs.build_graph(inst, state)
    is_stop = rs.is_build_stop(inst)
    label = inst.board.label
    towns = inst.board.towns
    out: dict = {}
    flags = ("own", "other", "public", "interurban")

    def add(path, weight):
        key = frozenset(path) if len(path) > 2 else frozenset(path) | {"direct"}
        if key in out or path[0] == path[-1]:
            return
        middle = tuple(path[1:-1])
        paid = tuple((h, g.nodes[h].get("cost", 0)) for h in (path[0], path[-1])
                     if h in towns and g.nodes[h].get("cost", 0) > 0)
        cost = sum(g.nodes[h].get("cost", 0) for h in middle) + weight
        text = " - ".join(label(h) if is_stop(h) else str(h) for h in path)
        out[key] = Option(cost, middle, (tuple(path),), text, paid)

    def walk(path, weight):
        cur = path[-1]
        for n in g.neighbors(cur):
            data = g.edges[cur, n]
            if n in path or any(data.get(k) for k in flags):
                continue
            if data.get("lung_disc"):
                if len(path) == 1:
                    key = frozenset((cur, n, "lung"))
                    if key not in out:
                        out[key] = Option(data.get("weight", 0), (), ("lung disc",), "the lung disc")
                continue
            w = weight + data.get("weight", 0)
            if is_stop(n):
                if len(path) > 1 or cur in towns or n in towns:   # a town tile alone may join two stops
                    add(path + [n], w)
            elif len(path) - 1 < min(limit, MAX_LINK_TILES):
                walk(path + [n], w)

    for s in sorted((n for n in g.nodes if is_stop(n)), key=str):
        walk([s], 0)
    return list(out.values())


def _disc_options(state, limit: int) -> list:
    """Synapses: one disc on each neuron the placement rules allow now (not numbered, not the player's, the
    discs of this round counted); with the Engineer also on a neuron that holds other players' discs (the
    shared placement, at most one a round: `apply_discs` refuses a second)."""
    rs, inst = state.ruleset, state.instance
    out = []
    for n in sorted(inst.board.nodes):
        if rs.placement_problem(state, state.active, n) is not None:
            continue
        shared = " shared" if rs.discs_on(state, n) else ""
        out.append(Option(rs.placement_cost(inst, n), (n,), (n,),
                          f"disc on {n}{shared} (${rs.placement_cost(inst, n)})"))
    return out


def _route_text(state, move) -> str:
    label = state.board.label
    out = label(move.route[0])
    for i, h in enumerate(move.route[1:]):
        out += (" ~ " if i in move.teleports else " > ") + label(h)
    return f"{move.colour} {out}"
