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

    def lang_for(self, language_code: str | None) -> str:
        """The supported language for a Telegram ``language_code`` (``"en-GB"`` -> ``"en"``)."""
        if language_code:
            base = language_code.split("-")[0].lower()
            if base in self.bundles:
                return base
        return DEFAULT_LANG

    def has(self, lang: str, msg_id: str) -> bool:
        """Whether ``msg_id`` exists in ``lang`` itself (no fallback)."""
        bundle = self.bundles.get(lang)
        return bundle is not None and bundle.has_message(msg_id)

    def get(self, lang: str, msg_id: str, **args: Any) -> str:
        """The text of ``msg_id`` in ``lang``, or in Italian when ``lang`` lacks it."""
        for code in (lang, DEFAULT_LANG):
            if self.has(code, msg_id):
                bundle = self.bundles[code]
                text, errors = bundle.format_pattern(bundle.get_message(msg_id).value, args)
                for err in errors:
                    log.warning("message %s in %s: %s", msg_id, code, err)
                return text
        log.error("missing message %s", msg_id)
        return msg_id
