"""Every text users see comes from locales/: Italian by default, English complete."""

from __future__ import annotations

import pytest

from bot.games import offered_kinds
from bot.house_rules import rule_choices
from bot.i18n import Translator


@pytest.fixture(scope="module")
def tr() -> Translator:
    """The project's translations."""
    return Translator()


def ids(tr: Translator, lang: str) -> set[str]:
    """Every message id of a language, attributes included."""
    bundle = tr.bundles[lang]
    found = set()
    for name in bundle._messages:
        found.add(name)
        found |= {f"{name}.{a}" for a in bundle.get_message(name).attributes}
    return found


def test_english_has_every_italian_message_and_no_other(tr):
    """English is complete: the same message ids as Italian."""
    assert ids(tr, "en") == ids(tr, "it")


@pytest.mark.parametrize("kind", offered_kinds())
def test_every_house_rule_has_a_name_in_both_languages(tr, kind):
    """Each house rule of the rules files is a lobby button, so it needs a translated name."""
    for choice in rule_choices(kind):
        for lang in ("it", "en"):
            assert tr.has(lang, f"rule-{kind}-{choice.name}"), (lang, kind, choice.name)


def test_italian_is_the_default_and_the_fallback(tr):
    """An unknown language reads Italian; a regional code reads its base language."""
    assert tr.lang_for(None) == "it"
    assert tr.lang_for("de") == "it"
    assert tr.lang_for("en-GB") == "en"
    assert tr.get("de", "btn-rematch") == tr.get("it", "btn-rematch")


def test_plurals_and_arguments(tr):
    """Counts choose their plural form; arguments are inserted without isolation marks."""
    assert tr.get("it", "game-winners", winners="Alice", count=1) == "🏆 Vince Alice!"
    assert tr.get("en", "game-winners", winners="A and B", count=2) == "🏆 A and B win!"
