"""Synapses: what the sheet changes (../shared/seeds/human-body-and-synapses.txt, Synapses Map).

A graph map: neurons joined by synapses. Coloured, numbered neurons are the
cities. A player's link is a chain of the player's discs on neurons joining two
cities. A disc on an empty neuron costs its number of connected neurons; at most
2 discs a round even with Engineer, whose holder may instead put one disc on an
already occupied neuron; never two own discs on one neuron; urbanization only
on uncoloured neurons without discs; a synapse is used at most once per
shipment while neurons may repeat; each disc scores 2 points at the end.
"""
from __future__ import annotations

import itertools

import networkx as nx

from solver.multi.ruleset import MultiplayerRuleset
from solver.engine.moves import Ship


class Synapses(MultiplayerRuleset):
    name = "synapses"
    required_rules = ("player_count", "disc_cost", "discs_per_round", "points_per_disc", "city_goods",
                      "longest_link_neurons")
    player_keys = ("discs", "discs_this_round", "shared_this_round")

    # -- the graph -------------------------------------------------------------
    def check_instance(self, instance, fail) -> None:
        super().check_instance(instance, fail)
        if not instance.board.nodes:
            fail("Synapses is a map without hexes: give [graph] with nodes, edges and cities", "graph")
        if self.rule(instance, "disc_cost") != "connected neurons":
            fail("the only disc cost the sheet gives is 'connected neurons'", "map_rules.disc_cost")

    @staticmethod
    def graph(instance) -> nx.Graph:
        g = nx.Graph()
        g.add_nodes_from(instance.board.nodes)
        g.add_edges_from(instance.board.edges)
        return g

    def placement_cost(self, instance, neuron: str) -> int:
        # "The cost of placing one disc on a neuron is the number of neurons connected to that neuron."
        return self.graph(instance).degree(neuron)

    def discs_on(self, state, neuron: str) -> list[str]:
        return [n for n, p in state.players.items() if neuron in p.extra.get("discs", [])]

    def placement_problem(self, state, player: str, neuron: str) -> str | None:
        """Why `player` may not place a disc on `neuron` now (None: allowed)."""
        inst = state.instance
        if neuron not in inst.board.nodes:
            return f"{neuron!r} is not a neuron"
        if neuron in inst.board.cities or neuron in state.new_cities:
            return f"discs cannot be placed on neurons that have a number printed on them ({neuron})"
        p = state.players[player]
        if neuron in p.extra.get("discs", []):
            return f"a player cannot place two of his own discs on the same neuron ({neuron})"
        placed = len(p.extra.get("discs_this_round", []))
        limit = self.rule(inst, "discs_per_round")
        if placed >= limit:
            return f"only {limit} discs can be placed in one round, even with the Engineer action"
        if self.discs_on(state, neuron):
            if state.action != "engineer" or player != state.active:
                return (f"{neuron} already has a disc; only the Engineer's holder may place a disc on an "
                        "occupied neuron")
            if p.extra.get("shared_this_round"):
                return "the Engineer allows one disc on an occupied neuron per round"
        return None

    def new_city_problem(self, state, place) -> str | None:
        return self.urbanize_problem(state, place)

    def urbanize_problem(self, state, neuron: str) -> str | None:
        if neuron in state.board.cities or neuron in state.new_cities:
            return f"{neuron} is coloured; new cities go on uncoloured neurons"
        if self.discs_on(state, neuron):
            return f"a neuron on which there is even one player disc cannot be urbanized ({neuron})"
        return None

    def end_points(self, state, player: str) -> int:
        # "At game end, each disc is worth 2 victory points."
        return len(state.players[player].extra.get("discs", [])) * self.rule(state.instance, "points_per_disc")

    # -- state -------------------------------------------------------------------
    def goods_places(self, instance) -> set:
        return set(instance.board.cities)

    goods_place_words = "coloured (numbered) neurons"

    def read_player_extras(self, state, r) -> None:
        inst = state.instance
        for name, p in state.players.items():
            for key in ("discs", "discs_this_round"):
                discs = p.extra.get(key, [])
                if not isinstance(discs, list) or not all(isinstance(d, str) for d in discs):
                    r.fail("expected a list of neuron names", f"players.{name}.{key}")
                for d in discs:
                    if d not in inst.board.nodes:
                        r.fail(f"{d!r} is not a neuron of {inst.board.name}", f"players.{name}.{key}")
                    if d in inst.board.cities:
                        r.fail(f"discs cannot be placed on neurons that have a number printed on them ({d})",
                               f"players.{name}.{key}")
                if len(set(discs)) != len(discs):
                    r.fail("a player cannot place two of his own discs on the same neuron",
                           f"players.{name}.{key}")
                p.extra[key] = list(discs)
            if not set(p.extra["discs_this_round"]) <= set(p.extra["discs"]):
                r.fail("discs placed this round must also be listed in discs", f"players.{name}.discs_this_round")
            if len(p.extra["discs_this_round"]) > self.rule(inst, "discs_per_round"):
                r.fail(f"only {self.rule(inst, 'discs_per_round')} discs can be placed in one round",
                       f"players.{name}.discs_this_round")
            if p.links:
                r.fail("Synapses has no track: give the player's discs instead", f"players.{name}.links")
        self._check_shared(state, r)
        for neuron in inst.board.nodes:
            on = self.discs_on(state, neuron)
            if len(on) > state.player_count:
                r.fail(f"{neuron} holds {len(on)} discs but only {state.player_count} players play (each "
                       "player has one disc at most on a neuron)", "players")

    def _check_shared(self, state, r) -> None:
        """`shared_this_round = "NEURON"`: the Engineer's disc placed this round on a neuron that already had
        discs ("A player who chose the Engineer action may ... place one of his discs on a neuron that already
        has discs on it ... This counts as one of the two discs allowed in the round")."""
        holders = []
        for name, p in state.players.items():
            shared = p.extra.get("shared_this_round", False)
            key = f"players.{name}.shared_this_round"
            if shared is False or shared is None:
                continue
            if not isinstance(shared, str):
                r.fail("expected the neuron of the Engineer's shared disc (or false)", key)
            if shared not in p.extra.get("discs_this_round", []):
                r.fail(f"{shared!r} must be one of the discs placed this round (discs_this_round)", key)
            if not [n for n in self.discs_on(state, shared) if n != name]:
                r.fail(f"no other player's disc is on {shared}, so the placement was not shared", key)
            if name == state.active and state.action not in (None, "engineer"):
                r.fail(f"only the Engineer's holder places a shared disc; {name}'s action is {state.action!r}", key)
            holders.append(name)
        if len(holders) > 1:
            r.fail(f"one player holds the Engineer a round; {', '.join(holders)} cannot all have shared a disc",
                   "players")

    def check_reachable(self, state, fail, before_actions) -> None:
        # "only 2 discs can be placed in one round"
        per = self.rule(state.instance, "discs_per_round")
        most = per * (state.round - 1) + (0 if before_actions else per)
        for name, p in state.players.items():
            if len(p.extra.get("discs", [])) > most:
                fail(f"{name} has {len(p.extra['discs'])} discs, but at most {per} are placed a round "
                     f"({most} by round {state.round})", f"players.{name}.discs")

    # -- links ------------------------------------------------------------------
    def build_links(self, state) -> list:
        """Each chain of one player's discs joining two cities is a complete link of that player."""
        from solver.multi.state import OwnedLink
        inst = state.instance
        g = self.graph(inst)
        cities = set(inst.board.cities) | set(state.new_cities)
        longest = self.rule(inst, "longest_link_neurons")
        out = []
        for name, p in state.players.items():
            own = set(p.extra.get("discs", []))
            sub = g.subgraph(own | cities).copy()
            sub.remove_edges_from([(a, b) for a, b in list(sub.edges) if a in cities and b in cities])
            for a, b in itertools.combinations(sorted(cities), 2):
                if a not in sub or b not in sub:
                    continue
                for path in nx.all_simple_paths(sub, a, b, cutoff=longest + 1):
                    if any(x in cities for x in path[1:-1]):
                        continue
                    edges = frozenset(frozenset(e) for e in zip(path, path[1:]))
                    out.append(OwnedLink(tuple(path), True, name, edges))
        return out

    def _assignments(self, state, move: Ship):
        """Every choice of one link per hop that uses no synapse twice (neurons may repeat)."""
        hops = list(zip(move.route, move.route[1:]))
        options = [self.usable_links(state, a, b) for a, b in hops]

        def walk(i: int, used: frozenset, chosen: tuple):
            if i == len(hops):
                yield chosen
                return
            for link in options[i]:
                if used & link.synapses:
                    continue
                yield from walk(i + 1, used | link.synapses, chosen + (link,))
        yield from walk(0, frozenset(), ())

    def shipment_problem(self, state, move: Ship) -> str | None:
        problem = super().shipment_problem(state, move)
        if problem:
            return problem
        # "A connection (synapse) can be used only once per shipment."
        if next(self._assignments(state, move), None) is None:
            return "a connection (synapse) can be used only once per shipment; every way along this route " \
                   "uses one twice"
        return None

    #: the carrier of each hop is chosen by `income_split` (the assignment with most own links)
    credit_choices = False

    def income_split(self, state, move: Ship) -> dict:
        best, best_own = None, -1
        for choice in self._assignments(state, move):
            own = sum(1 for link in choice if link.owner == state.active)
            if own > best_own:
                best, best_own = choice, own
        if best is None:
            return super().income_split(state, move)
        out: dict = {}
        for link in best:
            out[link.owner] = out.get(link.owner, 0) + 1
        return out

    def header(self, state) -> list[str]:
        me = state.me
        return [f"{state.active} has {len(me.extra.get('discs', []))} disc{'' if len(me.extra.get('discs', [])) == 1 else 's'} "
                f"({self.end_points(state, state.active)} end-game points)"]

    # -- build cost ------------------------------------------------------------
    def build_graph(self, instance, state=None):
        g = self.graph(instance)
        cities = set(instance.board.cities)
        notes = ["a disc on an empty neuron costs its number of connected neurons"]
        mine, taken = set(), set()
        if state is not None:
            cities |= set(state.new_cities)
            mine = set(state.me.extra.get("discs", []))
            taken = {n for name, p in state.players.items() if name != state.active
                     for n in p.extra.get("discs", [])} - mine
            notes.append(f"{state.active}'s discs are free; neurons with other players' discs are left out "
                         "(the Engineer's shared placement is not priced)")
        out = nx.Graph()
        for n in g.nodes:
            if n in taken:
                continue
            cost = 0 if (n in cities or n in mine) else g.degree(n)
            out.add_node(n, cost=cost)
        for a, b in g.edges:
            if a in out and b in out and not (a in cities and b in cities):
                out.add_edge(a, b, weight=0)
        if state is not None:
            # Goods may move over other players' links (base rules): their complete links join cities for free.
            others = [lk for lk in state.links() if lk.complete and lk.owner not in (None, state.active)]
            for lk in others:
                a, b = lk.ends
                if a in out and b in out and not out.has_edge(a, b):
                    out.add_edge(a, b, weight=0, other=lk.owner)
            if others:
                notes.append("other players' complete links are free to use (their owners earn the income)")
        return out, {}, notes

    def build_search_space(self, instance, state=None) -> str:
        return ("every set of discs on free neurons (no disc of another player, not a numbered neuron) joining "
                "the neurons, each disc costing its number of connected neurons"
                + (", over the player's own discs and other players' complete links" if state is not None else "")
                + "; not searched: the Engineer's shared placement, urbanization, the 2-disc limit of one round")

    def advice_limit(self, state) -> tuple[int, str]:
        # "only 2 discs can be placed in one round": less the discs the player placed this round already
        placed = len(state.me.extra.get("discs_this_round", []))
        return max(0, self.rule(state.instance, "discs_per_round") - placed), "disc"

    def start_next_round(self, state) -> None:
        """A new round: no disc placed in it yet, the Engineer's shared placement unused."""
        for p in state.players.values():
            p.extra["discs_this_round"] = []
            p.extra["shared_this_round"] = False

    def apply_discs(self, state, neurons):
        """A copy of `state` with the active player's new discs, each judged by the placement rules."""
        import copy
        from solver.board.errors import InputError
        hyp = state.clone()
        hyp.players = copy.deepcopy(state.players)
        for n in neurons:
            # the discs placed this round so far count (at most 2 a round); a disc on a neuron that holds
            # other players' discs is the Engineer's one shared placement
            problem = self.placement_problem(hyp, hyp.active, n)
            if problem:
                raise InputError(problem, "the advised build")
            if self.discs_on(hyp, n):
                hyp.me.extra["shared_this_round"] = n
            hyp.me.extra["discs"] = hyp.me.extra.get("discs", []) + [n]
            hyp.me.extra["discs_this_round"] = hyp.me.extra.get("discs_this_round", []) + [n]
        hyp.owned_links = self.build_links(hyp)
        return hyp

    def is_build_stop(self, instance):
        return lambda n: n in instance.board.cities
