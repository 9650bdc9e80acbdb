"""The timers' commands and buttons: ``/tempo``, the lobby's timer button, "I'm back"; the
bot removed from a group, a group that became a supergroup; and the wiring (``setup``,
``register``) of ``bot.timers.turns``.
"""

from __future__ import annotations

import contextlib

from telegram import Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.core.admins import creator_or_admin
from bot.core.callbacks import Callback
from bot.core.chat_settings import group_command_lang, open_game_ids
from bot.core.live import LiveGame
from bot.core.messenger import acknowledge
from bot.core.places import topic_of
from bot.core.services import Services, services
from bot.table import screens
from bot.table.lobby import creator_press, reply_html
from bot.timers.choices import TURN_CHOICES, parse_turn
from bot.timers.turns import TICK_SECONDS, Timers


def timers_of(context: ContextTypes.DEFAULT_TYPE) -> Timers:
    """The running application's timers."""
    return context.application.bot_data["timers"]


async def on_back_press(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """The "I'm back" button: the seat's owner takes it back from the computer player."""
    svc = services(context)
    timers = timers_of(context)
    query = update.callback_query
    live = await svc.games.get(cb.game_id)
    if live is None or not live.active:
        await query.answer(svc.tr.get(lang, "alert-game-over"), show_alert=True)
        return
    seat = live.row.seat_of(query.from_user.id)
    if seat is None or cb.arg != str(seat):
        await query.answer(svc.tr.get(lang, "alert-timer-back-who"), show_alert=True)
        return
    if not await timers.take_back(live.game_id, seat):
        await query.answer(svc.tr.get(lang, "toast-timer-back"))
        return
    await acknowledge(query, svc.tr.get(lang, "toast-timer-back"))
    name = f"<b>{screens.esc(live.row.seat_row(seat).name)}</b>"
    with contextlib.suppress(TelegramError):
        await query.edit_message_text(
            svc.tr.get(live.row.lang, "timer-back", player=name), parse_mode="HTML"
        )
    await timers.on_change(svc, live, [])


async def on_timer_press(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """The lobby's timer button (the creator only): this game's timer takes the choice it
    names; pressing again moves on to the next one."""
    svc = services(context)
    timers = timers_of(context)
    query = update.callback_query
    valid = cb.arg.isdigit() and cb.arg.isascii() and int(cb.arg) < len(TURN_CHOICES)
    seconds = TURN_CHOICES[int(cb.arg)] if valid else 0

    async def change(live: LiveGame) -> str | None:
        if not valid:
            return "alert-malformed"
        await timers.set_game_turn(live.game_id, seconds)
        return None

    live = await creator_press(svc, query, cb, lang, change)
    if live is None:
        return
    await acknowledge(query, svc.tr.get(lang, "timer-set", seconds=seconds))
    svc.renderer.refresh(live.game_id)


async def cmd_timer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/tempo (alias /timer) [off|30s|1m|2m|5m]: show or set the group's turn timer."""
    svc = services(context)
    timers = timers_of(context)
    lang = await group_command_lang(svc, update, "timer-group-only")
    if lang is None:
        return
    chat = update.effective_chat
    user = update.effective_user
    live = await svc.games.in_chat(chat.id, topic_of(update.effective_message))
    if live is not None and live.game_id in timers.turn:
        current = timers.turn[live.game_id]
    else:
        current = await timers.chat_default(chat.id)
    if not context.args:
        await reply_html(update, svc.tr.get(lang, "timer-current", seconds=current))
        return
    seconds = parse_turn(context.args[0])
    if seconds is None:
        await reply_html(update, svc.tr.get(lang, "timer-bad-choice"))
        return
    if live is not None and live.row.status != "lobby":
        await reply_html(update, svc.tr.get(lang, "timer-during-game"))
        return
    creator = live.row.creator_id if live is not None else None
    if not await creator_or_admin(context.bot, chat.id, user.id, creator):
        await reply_html(update, svc.tr.get(lang, "timer-who"))
        return
    await timers.set_turn(chat.id, seconds, live.game_id if live is not None else None)
    await reply_html(update, svc.tr.get(lang, "timer-set", seconds=seconds))
    if live is not None:
        svc.renderer.refresh(live.game_id)  # the lobby shows the timer


async def on_migrate(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A group became a supergroup: its turn timer default follows it."""
    message = update.effective_message
    if message.migrate_to_chat_id:
        await timers_of(context).move_chat(message.chat.id, message.migrate_to_chat_id)


async def on_removed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The bot was removed from (or banned in) a group: that group's games close (one per
    forum topic)."""
    change = update.my_chat_member
    if change is None or change.chat.type == ChatType.PRIVATE:
        return
    if change.new_chat_member.status not in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
        return
    svc = services(context)
    for game_id in await open_game_ids(svc.storage, change.chat.id):
        # Nothing can be said in a group the bot is no longer in.
        await timers_of(context).close(game_id, None)


async def _tick_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    timers = context.application.bot_data.get("timers")
    if timers is not None:
        await timers.tick()


async def setup(application: Application, svc: Services) -> None:
    """At start-up, before the games are reloaded: load the timers and follow every game."""
    timers = Timers(svc)
    await timers.load()
    application.bot_data["timers"] = timers
    svc.listeners.append(timers.on_change)
    svc.action_hooks.append(timers.write_next)
    svc.extras.lobby_lines.append(timers.lobby_lines)
    svc.extras.setting_rows.append(timers.setting_rows)


def register(application: Application) -> None:
    """Handlers of the timers (in their own handler group, beside the core handlers)."""
    application.add_handler(CommandHandler(["tempo", "timer"], cmd_timer))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migrate), group=1)
    application.add_handler(
        ChatMemberHandler(on_removed, ChatMemberHandler.MY_CHAT_MEMBER), group=1
    )
    if application.job_queue is not None:
        application.job_queue.run_repeating(
            _tick_job, interval=TICK_SECONDS, first=TICK_SECONDS, name="turn-timers"
        )
