"""The one translator of the whole test session.

Loading the locales costs about 0.2 s, and a ``Translator`` never changes once built, so every
test, every fixture and every start of the bot in process share this one.
"""

from __future__ import annotations

from bot.core.i18n import LOCALES_DIR, Translator

TR = Translator(LOCALES_DIR)
