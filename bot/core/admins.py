"""Who may do what in a group: its administrators, and a game's creator.

These ask Telegram (``getChatMember``, ``getChatAdministrators``): call them before taking a
game's lock, never while holding it.
"""

from __future__ import annotations

import logging

from telegram import Bot
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

log = logging.getLogger(__name__)


async def is_chat_admin(bot: Bot, chat_id: int, user_id: int) -> bool:
    """Whether ``user_id`` administers the chat (False when Telegram won't say)."""
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except TelegramError as exc:
        log.info("could not check admin rights of %s: %s", user_id, exc)
        return False
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


async def creator_or_admin(bot: Bot, chat_id: int, user_id: int, creator_id: int | None) -> bool:
    """Whether a user may manage a group's game: its creator, or an administrator of the chat
    (asked only of someone else than the creator). ``creator_id`` None: there is no game, and
    only an administrator may."""
    return user_id == creator_id or await is_chat_admin(bot, chat_id, user_id)


async def may_change_settings(bot: Bot, chat_id: int, user_id: int) -> bool:
    """Whether a user may change a group's settings: an administrator, or anyone when the
    group has no human administrator Telegram tells of."""
    try:
        admins = await bot.get_chat_administrators(chat_id)
    except TelegramError as exc:
        log.info("could not read the administrators of %s: %s", chat_id, exc)
        return True
    humans = {m.user.id for m in admins if not m.user.is_bot}
    return not humans or user_id in humans
