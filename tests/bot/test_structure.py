"""The bot's code stays readable (``bot/README.md``): no import circle in ``bot/``, not even
through imports made for type annotations alone; no module over 500 lines and no function over
60; ``core`` names nothing above it (the delivery least of all: it is reached through
``core.services.Renderer``)."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(BOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(BOT.rglob("*.py"))}
TREES = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in MODULES.items()}


def _imports(tree: ast.Module) -> set[str]:
    """The modules of ``bot`` a module imports anywhere (``TYPE_CHECKING`` blocks and function
    bodies included): ``from a.b import c`` names ``a.b.c`` when that is a module, else
    ``a.b``."""
    named: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                named.add(full if full in MODULES else node.module)
    return {name for name in named if name in MODULES}


GRAPH = {name: _imports(tree) - {name} for name, tree in TREES.items()}


def _circle() -> list[str] | None:
    """One import circle of ``GRAPH`` (as the modules it goes through), or None."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(name: str) -> list[str] | None:
        path.append(name)
        on_path.add(name)
        for other in sorted(GRAPH[name]):
            if other in on_path:
                return [*path[path.index(other) :], other]
            if other not in done and (found := visit(other)):
                return found
        path.pop()
        on_path.discard(name)
        done.add(name)
        return None

    for name in sorted(GRAPH):
        if name not in done and (found := visit(name)):
            return found
    return None


def test_no_import_circle_in_the_bot_not_even_for_types():
    """Every import counts, those made only for type checkers too."""
    assert _circle() is None, " -> ".join(_circle() or [])


def test_the_circle_finder_finds_a_circle():
    """The check above would see a circle: one made up through type-only imports is found."""
    saved = dict(GRAPH)
    try:
        GRAPH["bot.core.storage"] = GRAPH["bot.core.storage"] | {"bot.core.services"}
        assert _circle() is not None
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


def test_no_module_of_the_bot_is_over_500_lines():
    long = {
        name: n
        for name, path in MODULES.items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_no_function_of_the_bot_is_over_60_lines():
    """From ``def`` (decorators aside) to its last line, docstring and nested functions
    included."""
    long = {
        f"{name}.{node.name}:{node.lineno}": node.end_lineno - node.lineno + 1
        for name, tree in TREES.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    }
    assert long == {}


def test_core_imports_nothing_above_it():
    """``core`` imports only ``core`` and ``games``: the delivery, the features, the app are
    reached through what ``core`` declares (``services.Renderer``, the hooks, the extras)."""
    upward = {
        (name, other)
        for name, deps in GRAPH.items()
        if name.startswith("bot.core.")
        for other in deps
        if not other.startswith(("bot.core.", "bot.games"))
    }
    assert upward == set()
