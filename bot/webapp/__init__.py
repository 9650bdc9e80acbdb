"""The table drawn as cards: a Telegram Mini App served by the bot's own process, and the same
page on localhost for one person against computer players (``python -m bot --local``).

``bot.webapp.server`` holds the HTTP routes (Starlette), ``bot.webapp.tables`` each seat's state
and the pushes after committed actions, ``bot.webapp.auth`` Telegram's ``initData`` check,
``bot.webapp.local`` local mode and ``bot.webapp.telegram`` the wiring into the bot.
"""

# Local mode's games sit at this table (no Telegram chat has id 0): the Telegram bot leaves
# them alone.
from bot.core.live import LOCAL_CHAT

__all__ = ["LOCAL_CHAT"]
