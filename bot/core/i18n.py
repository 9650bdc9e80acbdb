"""Fluent translations: one bundle per language from ``locales/<lang>/*.ftl``, Italian fallback."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from fluent.runtime import FluentBundle
from fluent.syntax import FluentParser, ast

DEFAULT_LANG = "it"

# Every character a keyboard or a typesetter uses as an apostrophe.
_APOSTROPHE_RE = re.compile("['’‘`´ʼʹ′＇]")
# Letters that carry no combining mark to strip.
_FOLD = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ı": "i"})

# What players call the games, besides their names in each language (folded, without spaces).
GAME_ALIASES = {
    "belota": ("belote", "belot", "belotta"),
    "briscola": ("brescola", "bréscola"),
    "cirulla": ("cirullone", "ciapachinze", "ciappachinze", "acchiappaquindici"),
}
# A prefix this long names the one game it starts ("bri", "cir", "bel").
MIN_GAME_PREFIX = 3

LOCALES_DIR = Path(__file__).resolve().parents[2] / "locales"


def fold(text: str) -> str:
    """The one way to compare words: casefolded, every diacritic stripped (ò, ç, ř, ü, é, â
    ...), every apostrophe written ``'``. "Belòta" and "BELOTA" fold to "belota"."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c)).translate(_FOLD)
    return _APOSTROPHE_RE.sub("'", text)


class TranslationError(ValueError):
    """A locale file that does not parse, or a message that cannot be formatted."""


class Translator:
    """Formats messages by id in a language, falling back to Italian for anything missing."""

    def __init__(self, locales_dir: str | Path, default: str = DEFAULT_LANG) -> None:
        root = Path(locales_dir)
        if not root.is_dir():
            raise TranslationError(f"{root}: no such locales directory")
        self.default = default
        self._bundles: dict[str, FluentBundle] = {}
        self._ids: dict[str, frozenset[str]] = {}
        parser = FluentParser()
        for lang_dir in sorted(p for p in root.iterdir() if p.is_dir()):
            files = sorted(lang_dir.glob("*.ftl"))
            if not files:
                continue  # e.g. locales/glossary holds data, not messages
            lang = lang_dir.name
            # Telegram text must not carry the Unicode isolation marks Fluent adds by default.
            bundle = FluentBundle([lang], use_isolating=False)
            ids: set[str] = set()
            for file in files:
                # One parse serves both the checks and the bundle (FluentResource would parse
                # the text again).
                resource = parser.parse(file.read_text(encoding="utf-8"))
                for entry in resource.body:
                    if isinstance(entry, ast.Junk):
                        problem = "; ".join(a.message for a in entry.annotations)
                        snippet = entry.content.strip().splitlines()[0]
                        raise TranslationError(f"{lang}/{file.name}: {problem} near {snippet!r}")
                    if isinstance(entry, ast.Message):
                        if entry.id.name in ids:
                            raise TranslationError(
                                f"{lang}/{file.name}: message {entry.id.name!r} defined twice"
                            )
                        ids.add(entry.id.name)
                bundle.add_resource(resource)
            self._bundles[lang] = bundle
            self._ids[lang] = frozenset(ids)
        if default not in self._bundles:
            raise TranslationError(f"{root}: no messages for the default language {default!r}")

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages that have message files."""
        return tuple(self._bundles)

    def resolve(self, lang: str | None) -> str:
        """The supported language for a Telegram ``language_code`` (``"en-GB"`` -> ``"en"``)."""
        if lang:
            base = lang.replace("_", "-").split("-")[0].lower()
            if base in self._bundles:
                return base
        return self.default

    def message_ids(self, lang: str) -> frozenset[str]:
        """The ids of the messages defined in ``lang`` (empty for an unknown language)."""
        return self._ids.get(lang, frozenset())

    def has(self, lang: str, msg_id: str) -> bool:
        """Whether ``msg_id`` exists in ``lang`` or in the fallback language."""
        return msg_id in self.message_ids(self.resolve(lang)) or msg_id in self._ids[self.default]

    def get(self, lang: str | None, msg_id: str, **args: Any) -> str:
        """Message ``msg_id`` in ``lang`` (Italian if missing); booleans are passed as on/off."""
        lang = self.resolve(lang)
        if msg_id not in self._ids[lang]:
            lang = self.default
        if msg_id not in self._ids[lang]:
            raise KeyError(f"no message {msg_id!r}")
        bundle = self._bundles[lang]
        message = bundle.get_message(msg_id)
        # A text about someone is in the third person unless told to its reader (``person``:
        # "second", "second-plural"; ``bot.games.base.Ctx``).
        args.setdefault("person", "third")
        if message.value is None:
            raise TranslationError(f"{lang}: message {msg_id!r} has no value")
        text, errors = bundle.format_pattern(message.value, _fluent_args(args))
        if errors:
            raise TranslationError(f"{lang}: message {msg_id!r}: {errors[0]}")
        return text


def read_game(tr: Translator, text: str, kinds: Iterable[str] | None = None) -> str | None:
    """The game a user named, the one way every command reads it (``/nuova``, ``/regole``,
    ``/classifica``): its code, its name in any language, an alias (``ciapachinze``,
    ``belote``) or a prefix of three letters or more that only one game starts (``bri``);
    accents, case and spaces do not matter. None when it names no game of ``kinds``."""
    wanted = re.sub(r"[\s'\-_.]+", "", fold(text))
    if not wanted:
        return None
    names = {
        kind: {fold(kind), *map(fold, GAME_ALIASES.get(kind, ()))}
        | {fold(tr.get(lang, f"game-{kind}")) for lang in tr.languages}
        for kind in (kinds if kinds is not None else GAME_ALIASES)
    }
    exact = [kind for kind, known in names.items() if wanted in known]
    if exact:
        return exact[0]
    if len(wanted) < MIN_GAME_PREFIX:
        return None
    prefixed = [kind for kind, known in names.items() if any(n.startswith(wanted) for n in known)]
    return prefixed[0] if len(prefixed) == 1 else None


def _fluent_args(args: Mapping[str, Any]) -> dict[str, Any]:
    # Fluent would read True as the number 1; house rules name their states "on" and "off".
    return {k: ("on" if v else "off") if isinstance(v, bool) else v for k, v in args.items()}
