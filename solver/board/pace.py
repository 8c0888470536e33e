"""Read and write the PACE 2018 Steiner-tree `.gr` format.

The format (see the README beside the benchmark data)::

    SECTION Graph
    Nodes N
    Edges M
    E u v w        one line per undirected edge, nodes 1..N, integer weight
    END
    SECTION Terminals
    Terminals K
    T t            one line per terminal
    END
    EOF

The reader is strict on purpose: a benchmark answer is only worth something
if the instance was read exactly as published, so every deviation (missing
section, node out of range, negative or non-integer weight, wrong counts)
raises `InputError` naming the file and line instead of guessing. Blank lines
and other sections (the track-2 `Tree Decomposition`) are tolerated; a line
`33D32945 STP File ...` header as in SteinLib files is also accepted.

Sizes are refused before anything is allocated: at most `MAX_NODES` nodes
and `MAX_EDGES` edges (a declared count of 300,000,000 nodes would otherwise
build a graph that does not fit in memory), and edge weights totalling below
`MAX_TOTAL_WEIGHT`, the range in which the solver's arithmetic (int64
tables) is exact.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import networkx as nx

from solver.board.errors import InputError

MAX_NODES = 1_000_000  # PACE 2018 track 1 goes up to about 235,000
MAX_EDGES = 5_000_000
MAX_TOTAL_WEIGHT = 2**61  # == models.steiner.dp.EXACT_TOTAL (checked by a test)


@dataclass
class PaceInstance:
    """A parsed `.gr` file: node count, undirected weighted edges, terminals.

    `edges` keeps the file's order and multiplicity (parallel edges are legal
    in the format); `graph()` merges parallel edges keeping the lightest one,
    which is all a Steiner tree can use.
    """

    n: int
    edges: list[tuple[int, int, int]]
    terminals: list[int]
    source: str = "<memory>"
    extra_sections: list[str] = field(default_factory=list)

    def graph(self) -> nx.Graph:
        g = nx.Graph()
        g.add_nodes_from(range(1, self.n + 1))
        for u, v, w in self.edges:
            if u == v:
                continue  # a self-loop never belongs to a tree
            if g.has_edge(u, v) and g[u][v]["weight"] <= w:
                continue
            g.add_edge(u, v, weight=w)
        return g

    def edge_weight(self, u: int, v: int) -> int:
        """Lightest weight of an edge u-v in the file (KeyError if absent)."""
        best = None
        for a, b, w in self.edges:
            if {a, b} == {u, v} and (best is None or w < best):
                best = w
        if best is None:
            raise KeyError((u, v))
        return best


def _int(tok: str, what: str, where: str) -> int:
    try:
        return int(tok)
    except ValueError:
        raise InputError(f"{what} must be an integer, got {tok!r}", where) from None


def parse_gr(text: str, source: str = "<string>") -> PaceInstance:
    """Parse `.gr` text; `source` names the file in error messages."""
    reader = _GrReader(source)
    for lineno, raw in enumerate(text.splitlines(), start=1):
        reader.line(lineno, raw)
    return reader.finish()


class _GrReader:
    """The state of one `.gr` read, a line at a time (parse_gr); each error names the file and line."""

    def __init__(self, source: str):
        self.source = source
        self.n: int | None = None
        self.m_declared: int | None = None
        self.k_declared: int | None = None
        self.edges: list[tuple[int, int, int]] = []
        self.total_weight = 0
        self.terminals: list[int] = []
        self.seen_sections: set[str] = set()
        self.extra: list[str] = []
        self.section: str | None = None  # "graph", "terminals", "other" or None
        self.section_line = 0
        self.eof = False
        self.last_line = 0

    def line(self, lineno: int, raw: str) -> None:
        self.last_line = lineno
        where = f"{self.source}:{lineno}"
        line = raw.strip()
        if not line:
            return
        if self.eof:
            raise InputError(f"unexpected text after EOF: {line!r}", where)
        tok = line.split()
        head = tok[0].upper()
        if self.section is None:
            self._outside(lineno, line, tok, head, where)
        elif head == "END":
            self._end(where)
        elif self.section == "graph":
            self._graph(line, tok, head, where)
        elif self.section == "terminals":
            self._terminal(line, tok, head, where)

    def _outside(self, lineno: int, line: str, tok: list[str], head: str, where: str) -> None:
        if head == "SECTION":
            if len(tok) < 2:
                raise InputError("SECTION needs a name (Graph or Terminals)", where)
            name = " ".join(tok[1:]).lower()
            if name in self.seen_sections:
                raise InputError(f"section {tok[1]!r} appears twice", where)
            self.seen_sections.add(name)
            self.section = name if name in ("graph", "terminals") else "other"
            if self.section == "other":
                self.extra.append(" ".join(tok[1:]))
            self.section_line = lineno
        elif head == "EOF":
            self.eof = True
        elif head == "33D32945" and lineno == 1:
            return  # SteinLib magic header line
        else:
            raise InputError(
                f"expected 'SECTION Graph', 'SECTION Terminals' or 'EOF', got {line!r}", where
            )

    def _end(self, where: str) -> None:
        if self.section == "graph":
            if self.n is None:
                raise InputError("section Graph has no 'Nodes N' line", where)
            if self.m_declared is None:
                raise InputError("section Graph has no 'Edges M' line", where)
            if len(self.edges) != self.m_declared:
                raise InputError(
                    f"'Edges {self.m_declared}' declared but {len(self.edges)} edge lines found", where
                )
        elif self.section == "terminals":
            if self.k_declared is None:
                raise InputError("section Terminals has no 'Terminals K' line", where)
            if len(self.terminals) != self.k_declared:
                raise InputError(
                    f"'Terminals {self.k_declared}' declared but {len(self.terminals)} terminal lines found",
                    where,
                )
        self.section = None

    def _graph(self, line: str, tok: list[str], head: str, where: str) -> None:
        if head == "NODES":
            if len(tok) != 2:
                raise InputError("expected 'Nodes N'", where)
            if self.n is not None:
                raise InputError("'Nodes' given twice", where)
            n = self.n = _int(tok[1], "node count", where)
            if n < 1:
                raise InputError(f"node count must be at least 1, got {n}", where)
            if n > MAX_NODES:
                raise InputError(f"node count {n} is above the {MAX_NODES:,} nodes this reader accepts", where)
        elif head == "EDGES":
            if len(tok) != 2:
                raise InputError("expected 'Edges M'", where)
            if self.m_declared is not None:
                raise InputError("'Edges' given twice", where)
            m = self.m_declared = _int(tok[1], "edge count", where)
            if m < 0:
                raise InputError(f"edge count must be non-negative, got {m}", where)
            if m > MAX_EDGES:
                raise InputError(f"edge count {m} is above the {MAX_EDGES:,} edges this reader accepts", where)
        elif head == "E":
            self._edge(line, tok, where)
        else:
            raise InputError(f"expected 'Nodes', 'Edges', 'E u v w' or 'END', got {line!r}", where)

    def _edge(self, line: str, tok: list[str], where: str) -> None:
        n = self.n
        if n is None:
            raise InputError("edge line before 'Nodes N'", where)
        if len(tok) != 4:
            raise InputError(f"expected 'E u v w', got {line!r}", where)
        u = _int(tok[1], "edge end", where)
        v = _int(tok[2], "edge end", where)
        w = _int(tok[3], "edge weight", where)
        for x in (u, v):
            if not 1 <= x <= n:
                raise InputError(f"edge end {x} is not a node (nodes are 1..{n})", where)
        if w < 0:
            raise InputError(f"edge weight must be non-negative, got {w}", where)
        self.total_weight += w
        if self.total_weight >= MAX_TOTAL_WEIGHT:
            raise InputError(
                f"edge weights reach {self.total_weight} here, at least 2^61: beyond what the "
                "solver computes exactly",
                where,
            )
        if len(self.edges) >= MAX_EDGES:
            raise InputError(f"more than {MAX_EDGES:,} edge lines", where)
        self.edges.append((u, v, w))

    def _terminal(self, line: str, tok: list[str], head: str, where: str) -> None:
        if head == "TERMINALS":
            if len(tok) != 2:
                raise InputError("expected 'Terminals K'", where)
            if self.k_declared is not None:
                raise InputError("'Terminals' given twice", where)
            k = self.k_declared = _int(tok[1], "terminal count", where)
            if k < 0:
                raise InputError(f"terminal count must be non-negative, got {k}", where)
        elif head == "T":
            if len(tok) != 2:
                raise InputError(f"expected 'T t', got {line!r}", where)
            t = _int(tok[1], "terminal", where)
            if self.n is None:
                raise InputError("section Terminals must come after section Graph", where)
            if not 1 <= t <= self.n:
                raise InputError(f"terminal {t} is not a node of the graph (nodes are 1..{self.n})", where)
            self.terminals.append(t)
        else:
            raise InputError(f"expected 'Terminals', 'T t' or 'END', got {line!r}", where)

    def finish(self) -> PaceInstance:
        """The checks at the end of the text, then the instance."""
        end_where = f"{self.source}:{self.last_line}"
        if self.section is not None:
            raise InputError(f"section started on line {self.section_line} has no END", end_where)
        if "graph" not in self.seen_sections:
            raise InputError("missing 'SECTION Graph'", end_where)
        if "terminals" not in self.seen_sections:
            raise InputError("missing 'SECTION Terminals'", end_where)
        if not self.eof:
            raise InputError("missing 'EOF' line at the end", end_where)
        assert self.n is not None
        terminals = self.terminals
        if len(set(terminals)) != len(terminals):
            dup = sorted({t for t in terminals if terminals.count(t) > 1})
            raise InputError(f"terminal(s) listed twice: {dup}", self.source)
        return PaceInstance(n=self.n, edges=self.edges, terminals=terminals, source=self.source,
                            extra_sections=self.extra)


def read_gr(path: str | os.PathLike) -> PaceInstance:
    """Read a `.gr` file; unreadable or malformed files raise `InputError`."""
    path = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"cannot read file: {err}", path) from None
    return parse_gr(text, source=path)


def format_gr(n: int, edges, terminals) -> str:
    """Write an instance in `.gr` format (nodes 1..n, integer weights)."""
    edges = list(edges)
    terminals = list(terminals)
    lines = ["SECTION Graph", f"Nodes {n}", f"Edges {len(edges)}"]
    lines += [f"E {u} {v} {w}" for u, v, w in edges]
    lines += ["END", "", "SECTION Terminals", f"Terminals {len(terminals)}"]
    lines += [f"T {t}" for t in terminals]
    lines += ["END", "", "EOF", ""]
    return "\n".join(lines)


def write_gr(path: str | os.PathLike, n: int, edges, terminals) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(format_gr(n, edges, terminals))
