"""The rules in ``docs/rules/`` and the engine agree on what they name.

Every rules file the code names exists, and every house rule a game accepts is in its game's
rules, with the engine's default.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine

ROOT = Path(engine.__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"


def test_every_rules_file_the_code_names_exists():
    named = set()
    for folder in ("engine", "bot", "tests", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            for m in re.finditer(r"([\w./]*)rules/([\w-]+\.md)", path.read_text()):
                named.add((path.relative_to(ROOT).as_posix(), m.group(1) + "rules/" + m.group(2)))
    assert named, "the engine's docstrings name their rules files"
    wrong = [(f, ref) for f, ref in named if not (ROOT / ref).is_file()]
    assert wrong == []


def _default(value: object) -> str:
    """A default as the rules files write it: on/off, a number, a card code."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, str):
        return f"`{value}`"
    return str(value)


@pytest.mark.parametrize("kind", sorted(engine.GAMES))
def test_every_house_rule_is_written_with_its_default(kind):
    """A house rule's row in a table of ``docs/rules/<kind>*.md``: its name, then its default."""
    text = "\n".join(p.read_text() for p in sorted(RULES.glob(f"{kind}*.md")))
    model = engine.GAMES[kind].rules_model
    missing = []
    for name, field in model.model_fields.items():
        row = f"| `{name}` | {_default(field.default)} |"
        if row not in text:
            missing.append(row)
    assert missing == []
