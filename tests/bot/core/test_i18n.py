"""Every text users see comes from locales/: Italian by default, English complete."""

from __future__ import annotations

import pytest

from bot.core.i18n import TranslationError, Translator
from bot.games import offered_kinds
from bot.table.house_rules import rule_choices
from tests.translator import TR


@pytest.fixture(scope="module")
def tr() -> Translator:
    """The project's translations."""
    return TR


def test_english_has_every_italian_message_and_no_other(tr):
    """English is complete: the same message ids as Italian, in every file of locales/ (the
    translator reads them all and refuses a broken one)."""
    assert set(tr.languages) == {"it", "en"}
    assert tr.message_ids("en") == tr.message_ids("it")


@pytest.mark.parametrize("kind", offered_kinds())
def test_every_house_rule_has_a_name_in_both_languages(tr, kind):
    """Each house rule of the rules files is a lobby button, so it needs a translated name."""
    for choice in rule_choices(kind):
        for lang in ("it", "en"):
            assert f"rule-{kind}-{choice.name}" in tr.message_ids(lang), (lang, kind, choice.name)


def test_italian_is_the_default_and_the_fallback(tr):
    """An unknown language reads Italian; a regional code reads its base language."""
    assert tr.resolve(None) == "it"
    assert tr.resolve("de") == "it"
    assert tr.resolve("en-GB") == "en"
    assert tr.resolve("it") == "it"
    assert tr.get("de", "btn-rematch") == tr.get("it", "btn-rematch")
    assert tr.get("de", "rules-on") == "sì"
    with pytest.raises(KeyError):
        tr.get("it", "no-such-message")


def test_translator_refuses_a_broken_file(tmp_path):
    """A locale file Fluent cannot read stops the start, naming the file."""
    (tmp_path / "it").mkdir()
    (tmp_path / "it" / "x.ftl").write_text("ok = fine\nbroken = { $n -> [one] x }\n")
    with pytest.raises(TranslationError, match=r"x\.ftl"):
        Translator(tmp_path)


def test_plurals_and_arguments(tr):
    """Counts choose their plural form; arguments are inserted without isolation marks."""
    assert tr.get("it", "game-winners", winners="Alice", count=1) == "🏆 Vince Alice!"
    assert tr.get("en", "game-winners", winners="A and B", count=2) == "🏆 A and B win!"


def test_translator_reports_a_missing_argument(tr):
    """A message asked for without the argument it needs is an error, not a half text."""
    with pytest.raises(TranslationError, match="glossary-no-results"):
        tr.get("it", "glossary-no-results")
