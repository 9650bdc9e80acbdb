"""``/lingua`` (alias ``/language``) and ``/commento`` (alias ``/commentary``): a chat's language
and a group's dialect commentary.

Who may change them in a group: its administrators. When Telegram names no human
administrator (a basic group where everybody administers, or the list cannot be read), anyone
in the group may. In a private chat the user chooses for themselves. A group's choice of
language applies at once to its lobby, its table and its results; the commentary switch hides
the dialect sayings on the table and their explanation buttons.
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Chat, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatType
from telegram.error import BadRequest
from telegram.ext import Application, CommandHandler, ContextTypes

from bot.core.admins import may_change_settings
from bot.core.callbacks import Callback, Op
from bot.core.chat_settings import chat_lang, get_settings, set_commentary, set_lang
from bot.core.messenger import acknowledge
from bot.core.services import Services, services

log = logging.getLogger(__name__)

ON_WORDS = frozenset({"on", "si", "sì", "acceso", "1"})
OFF_WORDS = frozenset({"off", "no", "spento", "0"})


def is_group(chat_type: str | None) -> bool:
    """Whether a chat type is a group or a supergroup."""
    return chat_type in (ChatType.GROUP, ChatType.SUPERGROUP)


async def settings_screen(
    svc: Services, chat_id: int, group: bool, lang: str
) -> tuple[str, InlineKeyboardMarkup]:
    """The ``/lingua`` message: the chat's language and commentary, and their buttons."""
    tr = svc.tr
    settings = await get_settings(svc.storage, chat_id)
    lines = [tr.get(lang, "language-current", code=lang)]
    if group:
        lines.append(tr.get(lang, "language-commentary", on=settings.commentary))
    lines.append(tr.get(lang, "language-choose"))
    choices = [
        InlineKeyboardButton(
            tr.get(code, "btn-language", code=code),
            callback_data=Callback(Op.LANGUAGE, 0, 0, code).pack(),
        )
        for code in tr.languages
    ]
    keyboard = [choices]
    if group:
        switch = Callback(Op.COMMENTARY, 0, 0, "0" if settings.commentary else "1")
        keyboard.append(
            [
                InlineKeyboardButton(
                    tr.get(lang, "btn-commentary", on=settings.commentary),
                    callback_data=switch.pack(),
                )
            ]
        )
    return "\n".join(lines), InlineKeyboardMarkup(keyboard)


async def cmd_language(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/lingua (alias /language): show the chat's language and commentary, with buttons."""
    svc = services(context)
    chat = update.effective_chat
    lang = await chat_lang(svc, chat, update.effective_user)
    text, markup = await settings_screen(svc, chat.id, is_group(chat.type), lang)
    await update.effective_message.reply_html(text, reply_markup=markup, do_quote=False)


async def refresh_chat_games(svc: Services, chat_id: int, lang: str | None = None) -> None:
    """Redraw the chat's games after a change of its settings (in ``lang`` when given)."""
    for live in svc.games.loaded():
        if live.row.chat_id == chat_id:
            if lang is not None:
                live.row.lang = lang
            svc.renderer.refresh(live.game_id)


async def on_language_press(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """A ``/lingua`` language button: the chat's language, then the message redrawn in it."""
    svc = services(context)
    query = update.callback_query
    chat = await _settings_chat(svc, context, query, cb, lang, cb.arg in svc.tr.languages)
    if chat is None:
        return
    await set_lang(svc.storage, chat.id, cb.arg)
    await refresh_chat_games(svc, chat.id, cb.arg if is_group(chat.type) else None)
    await acknowledge(query, svc.tr.get(cb.arg, "language-set", code=cb.arg))
    await _redraw(svc, query)


async def on_commentary_press(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """A ``/lingua`` commentary button (groups only): the dialect commentary on or off."""
    svc = services(context)
    query = update.callback_query
    message = query.message
    valid = cb.arg in ("0", "1") and message is not None and is_group(message.chat.type)
    chat = await _settings_chat(svc, context, query, cb, lang, valid)
    if chat is None:
        return
    await set_commentary(svc.storage, chat.id, cb.arg == "1")
    await refresh_chat_games(svc, chat.id)
    await acknowledge(query, svc.tr.get(lang, "commentary-now", on=cb.arg == "1"))
    await _redraw(svc, query)


async def _settings_chat(
    svc: Services,
    context: ContextTypes.DEFAULT_TYPE,
    query: CallbackQuery,
    cb: Callback,
    lang: str,
    valid: bool,
) -> Chat | None:
    """The chat a ``/lingua`` button changes; None, answered with an alert, for a malformed
    button or, in a group, a presser who may not change its settings."""
    message = query.message
    if not (valid and message is not None and cb.game_id == 0 and cb.move == 0):
        await query.answer(svc.tr.get(lang, "alert-malformed"), show_alert=True)
        return None
    chat = message.chat
    if is_group(chat.type) and not await may_change_settings(
        context.bot, chat.id, query.from_user.id
    ):
        await query.answer(svc.tr.get(lang, "language-admins-only"), show_alert=True)
        return None
    return chat


async def _redraw(svc: Services, query: CallbackQuery) -> None:
    """The ``/lingua`` message as the chat's settings now are."""
    chat = query.message.chat
    shown = await chat_lang(svc, chat, query.from_user)
    text, markup = await settings_screen(svc, chat.id, is_group(chat.type), shown)
    try:
        await query.message.edit_text(text, parse_mode="HTML", reply_markup=markup)
    except BadRequest as exc:  # a second press of the same button changes nothing
        if "not modified" not in exc.message:
            raise


async def cmd_commentary(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/commento on|off (alias /commentary): the group's dialect commentary."""
    svc = services(context)
    chat = update.effective_chat
    user = update.effective_user
    lang = await chat_lang(svc, chat, user)
    reply = update.effective_message.reply_html
    if not is_group(chat.type):
        await reply(svc.tr.get(lang, "commentary-group-only"), do_quote=False)
        return
    word = " ".join(context.args or []).strip().lower()
    current = (await get_settings(svc.storage, chat.id)).commentary
    if not word:
        text = svc.tr.get(lang, "commentary-now", on=current)
        await reply(text + "\n" + svc.tr.get(lang, "commentary-usage"), do_quote=False)
        return
    if word not in ON_WORDS | OFF_WORDS:
        await reply(svc.tr.get(lang, "commentary-usage"), do_quote=False)
        return
    if not await may_change_settings(context.bot, chat.id, user.id):
        await reply(svc.tr.get(lang, "language-admins-only"), do_quote=False)
        return
    on = word in ON_WORDS
    await set_commentary(svc.storage, chat.id, on)
    await refresh_chat_games(svc, chat.id)
    await reply(svc.tr.get(lang, "commentary-now", on=on), do_quote=False)


def register(application: Application) -> None:
    """The language and commentary commands."""
    application.add_handler(CommandHandler(["lingua", "language"], cmd_language))
    application.add_handler(CommandHandler(["commento", "commentary"], cmd_commentary))
