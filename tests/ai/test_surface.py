"""The computer players use the engine's documented surface and nothing else.

``engine/__init__.py`` documents what a computer player may use: the game attributes written as
``g.name`` (and class methods such as ``Belota.from_view``), and the names of the engine's
modules it may import. These tests read ``engine/ai`` as source (its syntax tree) and hold it to
that list, so that the engine can change its internals without breaking the players.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import engine

AI_DIR = Path(engine.__file__).parent / "ai"
# Annotations that make a parameter a game, and the names the players give to games.
GAME_TYPES = {"Game", "Briscola", "Cirulla", "Belota"}
GAME_NAMES = {"g", "game", "world"}


def documented_attributes(doc: str) -> set[str]:
    """The game attributes the docstring names: ``g.name`` and ``Class.name``."""
    found = set(re.findall(r"``g\.(\w+)", doc))
    for cls in GAME_TYPES:
        found |= set(re.findall(rf"``{cls}\.(\w+)", doc))
    return found


def documented_imports(doc: str) -> dict[str, set[str]]:
    """The list of importable names: ``- ``engine.x``: ``A``, ``B`` ...`` (a bullet may wrap)."""
    allowed: dict[str, set[str]] = {}
    for bullet in re.split(r"\n- ", doc):
        m = re.match(r"``(engine(?:\.\w+)*)``: (.*)", bullet, re.S)
        if m:
            allowed[m.group(1)] = set(re.findall(r"``(\w+)``", m.group(2)))
    return allowed


def _annotation_names(node: ast.expr | None) -> set[str]:
    """Every name an annotation mentions (``Cirulla``, ``Game | None``, ``"Belota"``)."""
    if node is None:
        return set()
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return set(re.findall(r"\w+", node.value))
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def violations(source: str, attributes: set[str], imports: dict[str, set[str]]) -> list[str]:
    """Where ``source`` imports an undocumented engine name or reads an undocumented attribute
    of a game (a name in ``GAME_NAMES``, or a parameter annotated with a game type)."""
    tree = ast.parse(source)
    games = set(GAME_NAMES)
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and _annotation_names(node.annotation) & GAME_TYPES:
            games.add(node.arg)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("engine"):
            if node.module == "engine.ai" or node.module.startswith("engine.ai."):
                continue
            for alias in node.names:
                if alias.name.startswith("_") or alias.name not in imports.get(node.module, ()):
                    found.append(f"line {node.lineno}: from {node.module} import {alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("engine.") and not alias.name.startswith("engine.ai"):
                    found.append(f"line {node.lineno}: import {alias.name}")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            name = node.value.id
            if (name in games or name in GAME_TYPES) and node.attr not in attributes:
                found.append(f"line {node.lineno}: {name}.{node.attr}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr")
        ):
            found.append(f"line {node.lineno}: {node.func.id}(...)")
    return found


def surface() -> tuple[set[str], dict[str, set[str]]]:
    """The documented game attributes and importable names, from ``engine``'s docstring."""
    doc = engine.__doc__ or ""
    return documented_attributes(doc), documented_imports(doc)


def test_the_engine_documents_a_surface_for_the_players():
    attributes, imports = surface()
    assert {"current_seat", "legal_actions", "copy", "sample", "sight", "fast_sight"} <= attributes
    assert "trick_winner" in imports["engine.briscola"] and "playable" in imports["engine.briscola"]
    assert "Game" in imports["engine.base"]


def test_the_scan_finds_private_imports_and_raw_state():
    """The scan itself: it flags what the players must not do, and passes what they may."""
    attributes, imports = surface()
    bad = (
        "from engine.cirulla.game import _KEYED, KNOCK_ID, Hidden\n"
        "import engine.cirulla.game\n"
        "def f(g, seat):\n"
        "    return g.hands[seat], g._matta_value_seen(seat), getattr(g, 'table')\n"
        "def h(node: 'Cirulla | None', other):\n"
        "    return node.pile_masks, other.pile_masks, node.legal_actions(0)\n"
    )
    found = violations(bad, attributes, imports)
    assert sorted(found) == [
        "line 1: from engine.cirulla.game import Hidden",
        "line 1: from engine.cirulla.game import _KEYED",
        "line 2: import engine.cirulla.game",
        "line 4: g._matta_value_seen",
        "line 4: g.hands",
        "line 4: getattr(...)",
        "line 6: node.pile_masks",
    ]


def test_computer_players_use_only_the_documented_surface():
    """No underscore name imported from the engine, no game attribute outside the list."""
    attributes, imports = surface()
    files = sorted(AI_DIR.glob("*.py"))
    assert len(files) >= 4
    found = []
    for path in files:
        found += [f"{path.name} {v}" for v in violations(path.read_text(), attributes, imports)]
    assert found == []
