"""Zoo: can every animal be fed, in how few rounds, how cheaply, and how.

Approach (measured in benchmarks/zoo.py):
1. Proofs of impossibility that need no search, on the "any network" stop
   graph (two stops are joined when some free hex path could carry a link
   between them; exits are joined to each other by teleports): an animal area
   no track can reach, or one that no route from any area with food can feed
   with the largest locomotive even with the Feeding discount. Both are
   relaxations (more links than any real network has), so what they rule out
   is ruled out for every plan.
2. A proven lower bound on the rounds (the counting engine, solver/solo/proofs/counting.py;
   the other proof engines of solver/solo/proofs follow the plan search), from a small exact search over a
   relaxed game that keeps the counts and drops the geometry: at most two
   shipments a round, a locomotive step takes one of them; each feeding needs
   a piece of food whose cheapest possible feeding fits the locomotive (or
   fits with the Feeding discount, once per Feeding round), and the same for
   the area fed; the locomotive rises by the Locomotive action and by the
   locomotive step; each fed area needs a link of at least its nearest-stop
   distance in tiles, and no more tiles fit than 4 a round with Engineer,
   3 otherwise, plus one bonus tile a round from the second round on.
3. A plan: beam search over whole rounds on the rules engine, building a
   target network link by link and choosing shipments from the route search
   (solver/solo/zoo_routes.py), with iterative widening over several target
   networks. Every plan is replayed by the referee before it is reported.
4. "Minimum" only when the plan's round count meets the bound; otherwise
   "unknown" with both bounds.
"""
from __future__ import annotations

import itertools
import math
import time

from solver import interrupt, progress
from solver.board.hexgrid import Hex
from solver.solo.zoo_routes import Needs
from solver.board.instance import Instance
from solver.engine.moves import BuildPath, Pass, UpgradeLocomotive
from solver.engine.placement import can_lay_track
from solver.engine.plan import RoundPlan
from solver.solo.round_search import Node, RoundPlanner, widths
from solver.solo.zoo_networks import _proven, network_links, shortcuts, target_networks
from solver.solo.pipeline import Pipeline
from solver.solo.settings import SolveParams
from solver.solo.proofs import Position
from solver.solo.proofs.counting import areas_to_feed
from solver.engine.scenario import Scenario, as_scenario
from solver.engine.setup import Setup
from solver.solo.answer import Answer
from solver.engine.state import GameState, Rules
from solver.solo.zoo_economy import optimize
from solver.solo.zoo_routes import INF, StopGraph, least_from, feedings, least_locomotive

BIG_LOCO = 99  # for diagnostics: how large a locomotive a route would need, without the cap


# -- the "any network" stop graph ------------------------------------------------------

def potential_links(instance: Instance) -> dict[tuple[Hex, Hex], int]:
    """(stop, stop) -> fewest track tiles of a link that could join them on the empty board."""
    board, s = instance.board, instance.scenario
    stops = sorted(board.stops)

    def free(h: Hex) -> bool:
        return can_lay_track(board, s, h)

    out: dict[tuple[Hex, Hex], int] = {}
    for a in stops:
        for x in a.neighbours():
            if x in board.terrain and board.is_stop(x) and board.passable(a, x) and (a in board.towns or x in board.towns):
                out[a, x] = 0  # a town tile's own track into the next stop: no other tile
        dist: dict[Hex, int] = {}
        frontier = [h for h in a.neighbours() if free(h) and board.passable(a, h)]
        for h in frontier:
            dist[h] = 1
        queue = list(frontier)
        while queue:
            h = queue.pop(0)
            for x in h.neighbours():
                if not board.passable(h, x):
                    continue
                if board.is_stop(x):
                    if x != a:
                        key = (a, x)
                        if dist[h] < out.get(key, INF):
                            out[key] = dist[h]
                elif free(x) and x not in dist:
                    dist[x] = dist[h] + 1
                    queue.append(x)
    return out


def potential_graph(instance: Instance, rules: Rules, cap: int | None = None) -> StopGraph:
    """Every link any network could have, as a StopGraph (towns count as danger 0 and as possible new cities)."""
    board, s = instance.board, instance.scenario
    links = potential_links(instance)
    stops = sorted(board.stops)
    index = {h: i for i, h in enumerate(stops)}
    adj: list[set[int]] = [set() for _ in stops]
    for a, b in links:
        adj[index[a]].add(index[b])
        adj[index[b]].add(index[a])
    danger = tuple((board.cities[h].danger or 0) if h in board.cities else 0 for h in stops)
    is_exit = tuple(h in board.exits for h in stops)
    # A town may become a new city (a destination); as a stop passed it is counted at danger 0 (a relaxation).
    is_city = tuple(h in board.cities or (h in board.towns and "urbanization" in s.actions) for h in stops)
    exits = tuple(i for i, e in enumerate(is_exit) if e and adj[i])
    return StopGraph(tuple(stops), index, tuple(tuple(sorted(a)) for a in adj), danger, is_exit, is_city, exits,
                     rules.strict_exits, s.feeding_discount, s.max_locomotive if cap is None else cap)


def relaxed_needs(instance: Instance, setup: Setup, rules: Rules) -> Needs:
    board = instance.board
    g = potential_graph(instance, rules)
    wide = potential_graph(instance, rules, cap=BIG_LOCO)
    into: dict[Hex, tuple[int, int]] = {h: (INF, INF) for h in board.cities}
    diag: dict[Hex, tuple[int, int]] = {h: (INF, INF) for h in board.cities}
    out_of: dict[Hex, tuple[int, int]] = {}
    for y, food in setup.items():
        if not food or y not in g.index:
            continue
        o = g.index[y]
        plain, disc = least_from(g, o, False), least_from(g, o, True)
        wplain, wdisc = least_from(wide, o, False), least_from(wide, o, True)
        best = (INF, INF)
        for w, h in enumerate(g.stops):
            if not g.is_city[w]:
                continue
            best = (min(best[0], plain[w]), min(best[1], disc[w]))
            if h in into:
                into[h] = (min(into[h][0], plain[w]), min(into[h][1], disc[w]))
                diag[h] = (min(diag[h][0], wplain[w]), min(diag[h][1], wdisc[w]))
        out_of[y] = best
    near = {}
    links = potential_links(instance)
    for h in board.cities:
        near[h] = min((t for (a, _), t in links.items() if a == h), default=INF)
    return Needs(into, out_of, near, diag)


# -- proofs without search ---------------------------------------------------------------

def unfeedable_areas(instance: Instance, setup: Setup, rules: Rules, needs: Needs) -> list[str]:
    """Animal areas that no plan can feed, each with the reason."""
    board, s = instance.board, instance.scenario
    out = []
    links = potential_links(instance)
    for h in sorted(board.cities):
        if needs.into[h][1] < INF:
            continue
        name = board.label(h)
        if needs.near[h] >= INF:
            out.append(f"{name} can never be fed: no track can be laid next to it (no free hex on a passable side)")
            continue
        reach = {b for (a, b) in links if a == h}
        plain, disc = needs.diagnostics[h]
        if disc >= INF:
            out.append(f"{name} can never be fed: no area with food can ever be joined to it by track "
                       f"(stops any link could join it to: {', '.join(board.label(x) for x in sorted(reach))})")
        else:
            out.append(f"{name} can never be fed: every route into it from an area with food needs locomotive "
                       f"{plain} or more ({disc} with the Feeding discount of {s.feeding_discount}), "
                       f"above the largest locomotive {s.max_locomotive} (over every network the board allows)")
    return out


# -- the plan search ----------------------------------------------------------------------

class _Planner(RoundPlanner):
    """Rounds for the Zoo: build toward the areas still unfed, then the two most useful feedings."""

    def __init__(self, instance: Instance, setup: Setup, rules: Rules, links: list[tuple[Hex, ...]], required: int,
                 beam_width: int, deadline: float):
        super().__init__(instance, setup, rules, links, required, beam_width, deadline)
        self.max_builds = 6
        self.weights = (1.0, 0.2, 1.2)  # how the beam weighs tiles left, money and shares
        self.max_allocations = 16
        self.areas = areas_to_feed(instance)
        full = GameState.new(instance, setup, rules)
        for link in self.links:
            for i in range(1, len(link) - 1):
                full.track[link[i]] = (link[i - 1], link[i + 1])
        full._links = None
        self.full = full
        self.full_table = least_locomotive(full, origins=sorted(instance.board.cities))
        self._needed: dict[tuple, int] = {}
        self.feeders: dict[Hex, list[tuple[Hex, int, int]]] = {}
        for (o, d), (plain, disc) in self.full_table.items():
            self.feeders.setdefault(d, []).append((o, INF if plain is None else plain, INF if disc is None else disc))

    # -- building ---------------------------------------------------------------------
    def build_options(self, state: GameState, limit: int, bonus: int) -> list[list[BuildPath]]:
        prog = self.progress(state)
        blocked = {h for h in state.track}
        open_links = [i for i, link in enumerate(self.links) if prog[i] < len(link) - 2
                      and not any(h in blocked for h in link[1 + prog[i]:-1])]
        rest = {i: len(self.links[i]) - 2 - prog[i] for i in open_links}
        total = limit + bonus
        value = {i: self._link_value(state, i) for i in open_links}
        allocations: list[dict[int, int]] = [{}]
        for k in range(1, min(len(open_links), 4) + 1):
            for combo in itertools.combinations(sorted(open_links, key=lambda i: -value[i])[:7], k):
                used = sum(rest[i] for i in combo)
                if used <= total:
                    left = total - used
                    others = [j for j in open_links if j not in combo]
                    if left and any(rest[j] <= left for j in others):
                        continue
                    alloc = {i: rest[i] for i in combo}
                    partial = [j for j in others if rest[j] > left] if left else []
                    if partial:
                        best = max(partial, key=lambda j: value[j])
                        alloc[best] = left
                    allocations.append(alloc)
        for j in open_links:
            if rest[j] > total:
                allocations.append({j: total})

        def alloc_value(alloc: dict[int, int]) -> float:
            return sum(value[i] * (t / rest[i]) - (0 if t == rest[i] else 2.0) for i, t in alloc.items())

        allocations = [allocations[0]] + sorted(allocations[1:], key=alloc_value, reverse=True)[: self.max_allocations]
        out = []
        for alloc in allocations:
            out.append(self._paths(prog, alloc, bonus))
        return out

    def _paths(self, prog: list[int], alloc: dict[int, int], bonus: int) -> list[BuildPath]:
        """Build paths for the allocation, the first `bonus` tiles from the hand of bonus tiles."""
        paths = []
        for i, tiles in alloc.items():
            link = self.links[i]
            start = prog[i]
            take = min(bonus, tiles)
            if take:
                paths.append(BuildPath(tuple(link[start:start + take + 2]), bonus=True))
                bonus -= take
                start += take
                tiles -= take
            if tiles:
                paths.append(BuildPath(tuple(link[start:start + tiles + 2])))
        # bonus paths first (the engine lays in order; they do not count toward the limit)
        return sorted(paths, key=lambda p: not p.bonus)

    def _link_value(self, state: GameState, i: int) -> float:
        board = self.instance.board
        link = self.links[i]
        value = 3.0 if i < self.required else 0.0
        for end, other in ((link[0], link[-1]), (link[-1], link[0])):
            if end in board.cities and end not in state.fed:
                value += 6.0
                if state.goods.get(other) and self._danger(state, other) <= state.locomotive + 1:
                    value += 6.0
            if end in board.exits:
                value += 1.0
        return value - (len(link) - 2) * 0.5

    def _danger(self, state: GameState, h: Hex) -> int:
        return state.ruleset.danger(state, h) if state.is_city(h) else 0

    # -- actions -------------------------------------------------------------------------
    def needed_loco(self, state: GameState, discount: bool = True) -> int:
        """Least locomotive for the hardest unfed area on the full target network."""
        key = (frozenset(state.fed), frozenset(h for h, c in state.goods.items() if c), discount)
        cached = self._needed.get(key)
        if cached is not None:
            return cached
        worst = 0
        which = 2 if discount else 1
        goods = state.goods
        for x in self.areas:
            if x in state.fed:
                continue
            need = min((f[which] for f in self.feeders.get(x, ()) if goods.get(f[0])), default=INF)
            if need < INF:
                worst = max(worst, need)
        self._needed[key] = worst
        return worst

    def action_options(self, state: GameState) -> list[str | None]:
        opts: list[str | None] = ["engineer", "feeding"]
        if state.locomotive < min(self.s.max_locomotive, self.needed_loco(state, discount=False)):
            opts.insert(1, "locomotive")
        out = [a for a in opts if a in self.s.actions]
        return out or [None]

    def successors(self, node: Node) -> list[Node]:
        """Each action with its most useful builds (judged by the feedings they open), then the shipments."""
        out = []
        for action in self.action_options(node.state):
            limit = self.s.engineer_tile_limit if action == "engineer" else self.s.tile_limit
            played = []
            for order, build in enumerate(self.build_options(node.state, limit, node.state.bonus_tiles)):
                result = self.with_shares(node.state, RoundPlan(0, action, None, build))
                if result is not None:
                    rnd, base = result
                    played.append((-self.openings(base), order, rnd, base))
            played.sort(key=lambda p: p[:2])
            for _, _, rnd, base in played[: self.max_builds]:
                out.extend(self.ship_variants(node, rnd, base, firsts=4, seconds=3))
                if self.out_of_time():
                    return out
        return out

    def openings(self, state: GameState) -> int:
        """How many unfed areas the shipments of this round could feed (at most two, one food each)."""
        fresh = [f for f in feedings(state) if f.destination not in state.fed]
        best = 0
        for a in fresh:
            best = max(best, 1)
            for b in fresh:
                if b.destination != a.destination and (b.origin != a.origin or len(state.goods[a.origin]) >= 2) \
                        and (a.discount is None or b.discount is None):
                    return 2
        return best

    def ship_choices(self, state: GameState) -> list:
        exit_pending = not state.exit_used
        options = feedings(state)
        fresh = [f for f in options if f.destination not in state.fed]
        danger = {h: self._danger(state, h) for h in {f.origin for f in options}}

        def key(f):
            return (f.discount is not None and any(g.discount is None and g.destination == f.destination
                                                   for g in fresh),
                    -(1 if (f.exit_used and exit_pending) else 0), -danger[f.origin], -f.links, f.route)

        fresh.sort(key=key)
        # One feeding per destination among the first choices, for variety.
        picked, seen = [], set()
        for f in fresh:
            if f.destination not in seen:
                seen.add(f.destination)
                picked.append(f)
        picked += [f for f in fresh if f not in picked]
        choices: list = [f.ship(state.goods[f.origin][-1]) for f in picked[:4]]
        if state.why_illegal(UpgradeLocomotive()) is None and self.needed_loco(state) > state.locomotive:
            choices.insert(min(1 if choices else 0, len(choices)), UpgradeLocomotive())
        if not fresh:
            old = sorted((f for f in options if f.discount is None), key=lambda f: -f.links)
            if old and old[0].links >= 2:
                choices.append(old[0].ship(state.goods[old[0].origin][-1]))  # income only
        if not choices:
            choices = [Pass()]
        return choices

    # -- the beam ------------------------------------------------------------------------
    def score(self, state: GameState) -> float:
        unfed = sum(1 for h in self.areas if h not in state.fed)
        deficit = max(0, self.needed_loco(state) - state.locomotive)
        w = self.weights
        return (10 * unfed + 2.5 * deficit + w[0] * self.tiles_left(state)
                - w[1] * (state.cash + 3 * state.income) + w[2] * state.shares - 0.5 * state.bonus_tiles)

    def signature(self, state: GameState) -> tuple:
        return (frozenset(state.track), frozenset(state.fed), tuple(sorted((h, len(c)) for h, c in state.goods.items())),
                state.cash, state.income, state.shares, state.locomotive, state.bonus_tiles)

    def keep(self, node: Node, max_rounds: int) -> bool:
        # A state with more unfed areas than the rounds left can feed is dropped.
        unfed = sum(1 for h in self.areas if h not in node.state.fed)
        return math.ceil(unfed / self.s.shipments_per_round) <= max_rounds - len(node.rounds)


def proof_position(instance: Instance, state: GameState, rules: Rules, start: Node | None, params: SolveParams,
                   needs: Needs | None = None) -> Position:
    """What the proof engines (solver/solo/proofs) read about a Zoo position: the least locomotive and tiles over
    any network (`needs`, computed from the position's food if not given) and the any-network stop graph."""
    if needs is None:
        needs = relaxed_needs(instance, {h: list(c) for h, c in state.goods.items() if c}, rules)
    return Position(instance, state, rules, start, params, needs=needs, zoo_graph=potential_graph(instance, rules),
                    known_bound=state.round)


def analyse(scenario: Scenario | Instance, difficulty: str | None = None, setup: Setup | None = None,
            rules: Rules | None = None, rounds: int | None = None, *, time_limit: float = 60.0,
            beam_width: int = 54, polish_width: int = 6, budget: int | None = None,
            params: SolveParams | None = None, start: Node | None = None, relax: bool = True) -> Answer:
    """Verdict, bounds, a referee-checked plan and the proven cheapest networks for one Zoo setup; the
    answer carries its `scenario` (the question). The loose form (instance, difficulty, setup, rules,
    rounds) is kept for tests and benchmarks.

    `time_limit` bounds the plan search; each of the two network optimizations
    gets a third of it on top (their results are reported, and searched when the minimum is open).
    Deterministic mode (`budget`): the beam stops after `budget` round plans, CP-SAT runs with `params`.
    `start`: a position reached by a plan prefix (state at the start of a round, and its rounds).
    """
    scenario = as_scenario(scenario, difficulty, setup, rules, rounds)
    answer = Pipeline(_Zoo(polish_width), scenario, time_limit=time_limit, beam_width=beam_width, budget=budget,
                      params=params, start=start, relax=relax).run()
    answer.scenario = scenario
    return answer


BEAM = "beam search (solver/solo/zoo.py)"


class _Zoo:
    """The Zoo's stages of the solo pipeline (solver/solo/pipeline.py)."""

    cleared = "a plan feeds every animal area by round {rounds}"
    no_play = "no legal play feeds every area by round {limit}"
    obstacle = ("animal area", "no plan can feed")
    beam_words, singular_round = "beam up to", False
    plan_source_first, proof_source_first = False, False

    def __init__(self, polish_width: int):
        self.polish_width = polish_width
        self.target = None  # (name, links) of the network the best beam plan was found on (the polish reruns it)

    def obstacles(self, p: Pipeline) -> list[str]:
        """Animal areas no plan can feed, over every network the board allows."""
        instance, rules = p.scenario.instance, p.scenario.rules
        self.areas = areas_to_feed(instance)
        self.needs = relaxed_needs(instance, p.goods, rules)
        return unfeedable_areas(instance, p.goods, rules, self.needs) if p.start is None else []

    def position(self, p: Pipeline) -> Position:
        return proof_position(p.scenario.instance, p.state0, p.scenario.rules, p.start, p.params, self.needs)

    def networks(self, p: Pipeline, answer: Answer) -> None:
        """The proven cheapest networks: reported, and searched while the minimum is open. Each of the
        network optimizations gets a third of the time limit on top of it."""
        instance, rules, net_time = p.scenario.instance, p.scenario.rules, max(1.0, p.time_limit / 3)
        answer.network = _proven(instance, self.areas, "track", net_time)
        answer.network_label = "all animal areas (track only" + (
            ", simple tiles; complex tiles could make it cheaper)" if rules.complex_tiles else ")")
        if instance.board.exits:
            tele = _proven(instance, self.areas, "teleports", net_time)
            answer.extra_networks = [(
                "all animal areas, the exits counting as joined to each other (teleports)"
                + ("; in the strict exit reading a lower bound" if rules.strict_exits else ""), tele)]

    def dress(self, p: Pipeline, answer: Answer, early: bool) -> None:
        if early:
            answer.search.least_locomotive_any_network = _needs_json(p.scenario.instance, self.needs)
            self.networks(p, answer)

    def cannot_plan(self, p: Pipeline) -> None:
        return None

    def open_log(self, p: Pipeline) -> None:
        log = p.answer.search
        log.beam_widths, log.round_plans_tried, log.networks, log.deterministic = [], 0, [], p.budget is not None
        log.least_locomotive_any_network = _needs_json(p.scenario.instance, self.needs)

    def _planner(self, p: Pipeline, links: list, width: int) -> _Planner:
        s = p.scenario
        planner = _Planner(s.instance, s.setup, s.rules, links + shortcuts(s.instance, links), len(links), width,
                           p.planner_deadline)
        if p.budget is not None:
            planner.work_limit = p.work_left()
        return planner

    def _search(self, p: Pipeline, targets: list[tuple[str, list]], widths: list[int]) -> None:
        """The beam on each target network, widening."""
        answer, log, lower, limit = p.answer, p.answer.search, p.lower, p.limit
        for width in widths:
            for name, links in targets:
                if p.over() or answer.upper_bound == lower:
                    break
                progress.note("searching for a plan on another network", method=f"beam search on network {name}, "
                              f"width {width}", rounds=progress.rounds_text(lower, answer.upper_bound, limit))
                planner = self._planner(p, links, width)
                found = planner.run(answer.upper_bound - 1 if answer.upper_bound else limit, p.start)
                log.round_plans_tried += planner.explored
                log.networks.append({"network": name, "beam": width, "rounds": len(found.rounds) if found else None})
                if found is not None and p.offer(found.rounds, BEAM):
                    self.target = (name, links)
            log.beam_widths.append(width)
            if answer.upper_bound == lower or p.over():
                break

    def find(self, p: Pipeline) -> None:
        answer, log, instance = p.answer, p.answer.search, p.scenario.instance
        # 0. The plan optimizer (solver/solo/zoo_economy.py), from the lower bound up; the beam only while it misses.
        if p.params.economy_width > 0:
            def offer(rounds, source: str) -> bool:
                kept = p.offer(p.prefix + rounds, source)
                if kept:
                    self.target = None
                return kept

            progress.note("looking for a plan round by round", method="plan optimizer",
                          rounds=progress.rounds_text(p.lower, answer.upper_bound, p.limit))
            log.optimizer = []
            log.optimizer_work = optimize(p.state0, p.lower, p.limit, min(p.params.economy_width, 30), offer,
                                          lambda: answer.upper_bound, log.optimizer,
                                          interrupt.past_cap if p.budget is not None else p.over)
        # 1. Heuristic networks first (cheap to make), widening the beam.
        self._search(p, target_networks(instance, p.scenario.rules, None), widths(p.beam_width))
        # 2. The proven cheapest networks: reported, and searched too while the minimum is open.
        self.networks(p, answer)
        if answer.upper_bound != p.lower and not p.over():
            proven = [("proven cheapest network joining all animal areas", network_links(instance, answer.network))]
            proven += [("proven cheapest network with teleports", network_links(instance, n))
                       for _, n in answer.extra_networks]
            self._search(p, [(n, l) for n, l in proven if l], widths(p.beam_width))
        log.beam_seconds = round(time.monotonic() - p.t0, 3)
        log.beam_rounds = answer.upper_bound
        # 3. (the pipeline) The other proof engines (solver/solo/proofs: the CP-SAT relaxation, ...) raise the
        #    lower bound while the best plan misses it.

    def realise(self, p: Pipeline) -> None:
        return None

    def improve(self, p: Pipeline) -> None:
        # 4. With the round count settled, a wider beam on the best network looks for fewer shares, more cash.
        answer, log = p.answer, p.answer.search
        if answer.plan is not None and self.target is not None and self.polish_width:
            name, links = self.target
            for width in (self.polish_width, self.polish_width * 3):
                if p.over():
                    break
                planner = self._planner(p, links, width)
                found = planner.run(answer.upper_bound, p.start)
                log.round_plans_tried += planner.explored
                if found is not None:
                    p.offer(found.rounds, BEAM)
                log.add("polish_widths", width)
        if self.target is not None:
            log.plan_network = self.target[0]

    def fewer_shares(self, p: Pipeline) -> None:
        return None


def _needs_json(instance: Instance, needs: Needs) -> dict:
    """The least locomotive over any network, per animal area (answer.search.least_locomotive_any_network)."""
    board = instance.board

    def v(x: int) -> int | None:
        return None if x >= INF else x

    return {board.cities[h].name: {"to_feed": v(needs.into[h][0]), "to_feed_with_discount": v(needs.into[h][1]),
                                   "nearest_stop_tiles": v(needs.near[h])} for h in sorted(board.cities)}


def shuffled_dangers(inst: Instance, seed: int) -> Instance:
    """The board with its danger levels permuted among the animal areas (numbers from the instance file).

    Colours of food do not matter in the Zoo, so a seed alone changes nothing;
    designers asking "does it depend on where the lion is?" shuffle the dangers.
    """
    import dataclasses
    import random

    rng = random.Random(seed)
    hexes = sorted(inst.board.cities)
    dangers = [inst.board.cities[h].danger for h in hexes]
    rng.shuffle(dangers)
    cities = {h: dataclasses.replace(inst.board.cities[h], danger=d) for h, d in zip(hexes, dangers)}
    return dataclasses.replace(inst, board=dataclasses.replace(inst.board, cities=cities))
