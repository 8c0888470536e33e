"""Build advice helpers: the candidate builds of the next turn and the position at its start.

The advice itself (`solver/multi/phases.py` `advise`) is a one-turn look-ahead: every candidate build, not
building among them, judged by the income and cash after next turn's best two-step shipping (deliveries, a
locomotive raise, a Kansas City power plant), so a build is advised only when it beats spending nothing and
raising the locomotive or buying a power plant instead.

Candidates: only complete links carry goods, so a useful build is made of new complete links (track left over
could be removed for less). `_link_options` lists every new complete link of the map's build graph (the graph
`build-cost` gives the Steiner solver: the map's tile and town costs, taken hexes out, own and others' links
already usable); `_disc_options` every disc the Synapses placement rules allow; `_combinations` every set of
them within the tile limit (3; Synapses: 2 discs) and the cash, cheapest first; `_apply` judges each with the
map's rules (`apply_build`: track rules and contiguity; `apply_discs`).

Not searched (as in `build-cost`): extending the player's incomplete track, complex tiles, urbanization.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.board.errors import InputError
from solver.engine.shipping import shipments

MAX_LINK_TILES = 4   # a link longer than the tile limit cannot be built in one turn anyway


@dataclass
class Advice:
    status: str                   # proven / none / unknown / last-turn
    cost: int | None = None
    pieces: list = field(default_factory=list)     # tiles (hexes) or discs (neurons)
    links: list = field(default_factory=list)
    delivery: str = ""            # next turn's best shipping after the build, in words
    income: int = 0               # income after next turn's income phase, with the build
    baseline: int = 0             # ... without building
    income_cash: int = 0          # cash after next turn, with the build (paid)
    baseline_cash: int = 0        # ... without building
    next_final_turn: bool = False
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
                     if h in towns and (g.nodes[h].get("cost", 0) > 0 or rs.tile_counted_at(state, h)))
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
                        counted = (("lung disc", 0),) if rs.lung_disc_counts(state) else ()
                        out[key] = Option(data.get("weight", 0), (), ("lung disc",), "the lung disc", counted)
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
