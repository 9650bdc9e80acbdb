"""Translations: every text users see comes from the Fluent files in ``locales/<lang>/*.ftl``."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from fluent.runtime import FluentBundle, FluentResource

DEFAULT_LANG = "it"
LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"

log = logging.getLogger(__name__)


class Translator:
    """Fluent bundles per language, read once; ``get`` falls back to Italian."""

    def __init__(self, locales_dir: Path | str = LOCALES_DIR) -> None:
        self.locales_dir = Path(locales_dir)
        self.bundles: dict[str, FluentBundle] = {}
        for lang_dir in sorted(p for p in self.locales_dir.iterdir() if p.is_dir()):
            files = sorted(lang_dir.glob("*.ftl"))
            if not files:
                continue
            # Isolation marks help right-to-left scripts only; they would litter Telegram text.
            bundle = FluentBundle([lang_dir.name], use_isolating=False)
            for path in files:
                bundle.add_resource(FluentResource(path.read_text(encoding="utf-8")))
            self.bundles[lang_dir.name] = bundle
        if DEFAULT_LANG not in self.bundles:
            raise FileNotFoundError(f"no {DEFAULT_LANG} messages in {self.locales_dir}")

    @property
    def languages(self) -> list[str]:
        """The languages with messages, the default first."""
        return [DEFAULT_LANG, *sorted(k for k in self.bundles if k != DEFAULT_LANG)]

    def lang_for(self, language_code: str | None) -> str:
        """The supported language for a Telegram ``language_code`` (``"en-GB"`` -> ``"en"``)."""
        if language_code:
            base = language_code.split("-")[0].lower()
            if base in self.bundles:
                return base
        return DEFAULT_LANG

    def has(self, lang: str, msg_id: str) -> bool:
        """Whether ``msg_id`` (or ``msg_id.attribute``) exists in ``lang`` itself."""
        bundle = self.bundles.get(lang)
        if bundle is None:
            return False
        name, _, attr = msg_id.partition(".")
        if not bundle.has_message(name):
            return False
        return not attr or attr in bundle.get_message(name).attributes

    def get(self, lang: str, msg_id: str, **args: Any) -> str:
        """The text of ``msg_id`` (``"message"`` or ``"message.attribute"``) in ``lang``."""
        for code in (lang, DEFAULT_LANG):
            if self.has(code, msg_id):
                bundle = self.bundles[code]
                name, _, attr = msg_id.partition(".")
                message = bundle.get_message(name)
                pattern = message.attributes[attr] if attr else message.value
                text, errors = bundle.format_pattern(pattern, args)
                for err in errors:
                    log.warning("message %s in %s: %s", msg_id, code, err)
                return text
        log.error("missing message %s", msg_id)
        return msg_id
