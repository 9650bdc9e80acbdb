"""The glossary and the rules in the chat: ``/glossario [term]`` (alias ``/glossary``) with its
browse buttons, inline mode (``@bot term`` in any chat), ``/regole [game]`` (alias ``/rules``),
and the explanation alert of a dialect saying shown on a table.

The glossary's own callback data (``g:...``, ``ge:<id>``) travels as the argument of
``Op.GLOSSARY`` buttons, so every press still goes through the bot's one callback codec.
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    Update,
)
from telegram.constants import CallbackQueryLimit
from telegram.error import BadRequest
from telegram.ext import Application, CommandHandler, ContextTypes, InlineQueryHandler

from bot.core.callbacks import Callback, Op
from bot.core.chat_settings import chat_lang, user_lang
from bot.core.i18n import Translator
from bot.core.places import NO_TOPIC, topic_of
from bot.core.services import Services, services
from bot.reference.glossary import GAMES, Glossary, default_glossary
from bot.reference.glossary_screens import (
    Rendered,
    inline_results,
    render_browse,
    render_callback,
    render_search,
    short_meaning,
)
from bot.reference.rules_screens import (
    HOUSE_RULES,
    game_from_text,
    render_rules,
    render_rules_choice,
)

log = logging.getLogger(__name__)

MAX_ALERT = CallbackQueryLimit.ANSWER_CALLBACK_QUERY_TEXT_LENGTH  # 200 characters
INLINE_CACHE_SECONDS = 300


def glossary_of(context: ContextTypes.DEFAULT_TYPE) -> Glossary:
    """The running bot's glossary."""
    return default_glossary()


def markup(rendered: Rendered, op: Op) -> InlineKeyboardMarkup | None:
    """The rendered buttons as a Telegram keyboard, their data wrapped in the bot's codec."""
    if not rendered.keyboard:
        return None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    b.text, callback_data=Callback(op, 0, 0, b.callback_data).pack()
                )
                for b in row
            ]
            for row in rendered.keyboard
        ]
    )


async def _reply(update: Update, rendered: Rendered, op: Op) -> None:
    await update.effective_message.reply_html(
        rendered.text, reply_markup=markup(rendered, op), do_quote=False
    )


async def _edit(update: Update, rendered: Rendered, op: Op) -> None:
    try:
        await update.callback_query.message.edit_text(
            rendered.text, parse_mode=rendered.parse_mode, reply_markup=markup(rendered, op)
        )
    except BadRequest as exc:  # the same page pressed again: nothing to change
        if "not modified" not in exc.message:
            raise


# -- /glossario ----------------------------------------------------------------------------


async def cmd_glossary(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/glossario [term] (alias /glossary): the entry, a list of matches, or the browser."""
    svc = services(context)
    lang = await chat_lang(svc, update.effective_chat, update.effective_user)
    glossary = glossary_of(context)
    query = " ".join(context.args or [])
    if query.strip():
        rendered = render_search(glossary, svc.tr, lang, query)
    else:
        rendered = render_browse(glossary, svc.tr, lang)
    await _reply(update, rendered, Op.GLOSSARY)


async def on_glossary_press(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """A glossary button: show a game's page or an entry in place; alert on stale data."""
    svc = services(context)
    query = update.callback_query
    rendered = None
    if query.message is not None and cb.game_id == 0 and cb.move == 0:
        shown = await chat_lang(svc, query.message.chat, query.from_user)
        try:
            rendered = render_callback(glossary_of(context), svc.tr, shown, cb.arg)
        except ValueError:
            rendered = None
    if rendered is None:
        await query.answer(svc.tr.get(lang, "glossary-stale-button"), show_alert=True)
        return
    await query.answer()
    await _edit(update, rendered, Op.GLOSSARY)


# -- inline mode -----------------------------------------------------------------------------


def inline_articles(
    glossary: Glossary, tr: Translator, lang: str, text: str, offset: str
) -> tuple[list[InlineQueryResultArticle], str]:
    """Articles for an inline query and the next offset; a malformed offset gets nothing."""
    try:
        results, next_offset = inline_results(glossary, tr, lang, text, offset)
    except ValueError:
        return [], ""
    articles = [
        InlineQueryResultArticle(
            id=r["id"],
            title=r["title"],
            description=r["description"],
            input_message_content=InputTextMessageContent(
                r["message_text"], parse_mode=r["parse_mode"]
            ),
        )
        for r in results
    ]
    return articles, next_offset


async def on_inline_query(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``@bot term`` in any chat: glossary entries to share, fifty at a time."""
    svc = services(context)
    query = update.inline_query
    lang = await user_lang(svc, query.from_user)
    articles, next_offset = inline_articles(
        glossary_of(context), svc.tr, lang, query.query, query.offset
    )
    await query.answer(
        articles, cache_time=INLINE_CACHE_SECONDS, is_personal=True, next_offset=next_offset
    )


# -- /regole ---------------------------------------------------------------------------------


async def rules_in_force(
    svc: Services, chat_id: int, game: str, topic: int = NO_TOPIC
) -> dict[str, Any]:
    """The house rules of the lobby or game of the chat's ``topic`` if it plays ``game``, else
    none (defaults)."""
    live = await svc.games.in_chat(chat_id, topic)
    if live is None or live.row.kind != game:
        return {}
    known = HOUSE_RULES[game]
    return {k: v for k, v in live.row.rules.items() if k in known}


async def rules_text(
    svc: Services, chat_id: int, lang: str, game: str, topic: int = NO_TOPIC
) -> str:
    """The rules summary of ``game`` with the house rules in force in the chat's topic."""
    return render_rules(svc.tr, lang, game, await rules_in_force(svc, chat_id, game, topic))


async def cmd_rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/regole [game] (alias /rules): the summary and house rules; the game chosen by buttons
    when not named (or the group's current game, if one is chosen)."""
    svc = services(context)
    chat = update.effective_chat
    lang = await chat_lang(svc, chat, update.effective_user)
    named = " ".join(context.args or []).strip()
    game = None
    if named:
        game = game_from_text(svc.tr, named)
        if game is None:
            text = svc.tr.get(lang, "rules-unknown-game", game=named[:60])
            await update.effective_message.reply_html(text, do_quote=False)
            return
    else:
        live = await svc.games.in_chat(chat.id, topic_of(update.effective_message))
        if live is not None and live.row.kind in GAMES:
            game = live.row.kind
    if game is None:
        await _reply(update, render_rules_choice(svc.tr, lang), Op.RULES_SUMMARY)
        return
    text = await rules_text(svc, chat.id, lang, game, topic_of(update.effective_message))
    await update.effective_message.reply_html(text, do_quote=False)


async def on_rules_press(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """A game button of /regole: the message becomes that game's rules."""
    svc = services(context)
    query = update.callback_query
    arg = cb.arg[2:] if cb.arg.startswith("r:") else None
    if query.message is None or cb.game_id != 0 or cb.move != 0 or arg not in GAMES:
        await query.answer(svc.tr.get(lang, "alert-malformed"), show_alert=True)
        return
    chat = query.message.chat
    shown = await chat_lang(svc, chat, query.from_user)
    await query.answer()
    text = await rules_text(svc, chat.id, shown, arg, topic_of(query.message))
    await _edit(update, Rendered(text), Op.RULES_SUMMARY)


# -- explaining the sayings on a table --------------------------------------------------------


def explanation(glossary: Glossary, tr: Translator, lang: str, entry_id: str) -> str:
    """The alert that explains a saying: «term»: the first sentence of its meaning, at most
    200 characters (Telegram's limit for an alert)."""
    entry = glossary.get(entry_id)
    term = entry.term if len(entry.term) <= 60 else entry.term[:59] + "…"
    room = MAX_ALERT - len(tr.get(lang, "explain-alert", term=term, meaning=""))
    text = tr.get(lang, "explain-alert", term=term, meaning=short_meaning(entry, lang, room))
    # Telegram counts UTF-16 code units: a character outside the BMP counts twice.
    while len(text.encode("utf-16-le")) // 2 > MAX_ALERT:
        text = text[:-2] + "…"
    return text


async def on_explain_press(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """A saying's button on the table: its meaning from the glossary, in an alert."""
    svc = services(context)
    query = update.callback_query
    glossary = glossary_of(context)
    if cb.arg not in glossary:
        await query.answer(svc.tr.get(lang, "alert-malformed"), show_alert=True)
        return
    await query.answer(explanation(glossary, svc.tr, lang, cb.arg), show_alert=True)


def register(application: Application) -> None:
    """The glossary, inline mode and the rules summary."""
    application.add_handler(CommandHandler(["glossario", "glossary"], cmd_glossary))
    application.add_handler(CommandHandler(["regole", "rules"], cmd_rules))
    application.add_handler(InlineQueryHandler(on_inline_query))
