"""The layers of docs/architecture.md hold: contracts checked by import-linter, no import cycles, small modules."""
from __future__ import annotations

import ast
import pathlib
import shutil
import subprocess
import sys

import networkx as nx
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("solver", "models")
MAX_LINES = 800


def _modules() -> dict[str, pathlib.Path]:
    mods = {}
    for pkg in PACKAGES:
        for p in (ROOT / pkg).rglob("*.py"):
            name = ".".join(p.relative_to(ROOT).with_suffix("").parts)
            mods[name.removesuffix(".__init__")] = p
    return mods


def _import_graph() -> nx.DiGraph:
    """Every import between our modules, those inside functions too (a cycle is a cycle wherever it hides)."""
    mods = _modules()

    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    g = nx.DiGraph()
    g.add_nodes_from(mods)
    for m, p in mods.items():
        pkg = m if p.name == "__init__.py" else m.rpartition(".")[0]
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(pkg.split(".")[: len(pkg.split(".")) - node.level + 1] + ([base] if base else []))
                # `from pkg import sub` depends on the submodule; `from mod import name` on the module
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
            for t in targets:
                r = resolve(t)
                if r and r != m:
                    g.add_edge(m, r)
    return g


def test_no_import_cycles():
    cycles = [sorted(c) for c in nx.strongly_connected_components(_import_graph()) if len(c) > 1]
    assert not cycles, f"import cycles: {cycles}"


def _package(module: str) -> str:
    """The package a module belongs to: solver.X or models.X (a module straight under the root is its own node)."""
    return ".".join(module.split(".")[:2])


def test_no_package_cycles():
    """Packages (solver.X, models.X) import each other one way only: a cycle between packages is one even when
    no two files close it (solver.desert -> models.desert_layout -> solver.desert once hid that way)."""
    g = _import_graph()
    packages = nx.DiGraph()
    packages.add_nodes_from(_package(m) for m in g)
    packages.add_edges_from((_package(a), _package(b)) for a, b in g.edges if _package(a) != _package(b))
    cycles = [sorted(c) for c in nx.strongly_connected_components(packages) if len(c) > 1]
    assert not cycles, f"package cycles: {cycles}; edges closing them: " + "; ".join(
        f"{a} -> {b}" for a, b in g.edges if _package(a) != _package(b)
        and any(_package(a) in c and _package(b) in c for c in cycles))


def test_no_module_over_800_lines():
    long = {m: n for m, p in _modules().items() if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_layer_contracts_hold():
    """pyproject.toml's [tool.importlinter] contracts: the CLI on top, the referee imports no solver, ..."""
    exe = shutil.which("lint-imports") or str(pathlib.Path(sys.executable).with_name("lint-imports"))
    if not pathlib.Path(exe).exists():
        pytest.fail("lint-imports is not installed (it comes with the test extra)")
    proc = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]


MAX_FUNCTION_LINES = 150


def test_no_function_over_150_lines():
    """A function a newcomer can read at once: issue 43 asks none over 150 lines (methods and nested ones too)."""
    long = {}
    for m, p in _modules().items():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    long[f"{m}.{node.name}"] = n
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"
