"""Delivery: everything that turns committed games into Bot API calls.

The rest of the bot reaches it only through ``bot.core.services.Renderer`` (``svc.renderer``:
refresh, remind, bring down, notice, drain, flush, close); only the application (``bot.app``)
builds it. Its parts, by what each owns:

- ``scheduler``: the per-game task (``Delivery``): passes, retries and back-off;
- ``snapshot``: what one pass reads of a game (the game and its chat's settings, once);
- ``hands``: the private messages (draw, ping, take away, delete what is obsolete);
- ``group``: the group's messages (lobby, table, the results' outbox, take-down) and where they
  go;
- ``notices``: the notices a game posts (timers, a closed private chat, the call for a table),
  sent first in its pass, under the same limits;
- ``table_log``: what each version of a table shows of the moves;
- ``pacing``: Telegram's limits, all of them, and how the bot keeps under them.
"""

from __future__ import annotations

from bot.delivery.limits import Limits
from bot.delivery.pacing import Pacing
from bot.delivery.scheduler import Delivery

__all__ = ["Delivery", "Limits", "Pacing"]
