"""Playing from the group through inline mode, for a player whose private chat is closed (who
blocked the bot): their cards stay secret from the group.

The table message carries a button that puts ``@bot #<game id>`` in the group's input field.
The bot answers that query for the asking player alone (``is_personal``, never cached) with one
result per legal action, their cards shown only in the results they see. Choosing a result sends
a message into the group, through the bot, that names no card: it says who played and carries a
"my cards" button whose data (``p:<game>:<move>:#<index>``) names the action by its index among
the legal actions of that move. Messages sent via the bot reach it even in privacy mode; when it
sees one it applies the action as a press of the hand's button would be: only the player to act,
only at the move the result was drawn for, once. A refusal is said in the group, in reply.
"""

from __future__ import annotations

import logging

from telegram import (
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Message,
    Update,
)
from telegram.constants import ChatType, InlineQueryLimit, ParseMode
from telegram.error import TelegramError
from telegram.ext import Application, ContextTypes, InlineQueryHandler, MessageHandler, filters

from bot.core.callbacks import PLAY_QUERY, Callback, MalformedCallback, Op
from bot.core.chat_settings import chat_lang, user_lang
from bot.core.live import LiveGame
from bot.core.services import Services, services
from bot.games import ui_for
from bot.table import play, screens

log = logging.getLogger(__name__)

PAGE = InlineQueryLimit.RESULTS
START_PARAMETER = "play"  # the results' button opens the private chat with this /start payload
GROUP_CHATS = (ChatType.GROUP, ChatType.SUPERGROUP)


def choices(
    svc: Services, live: LiveGame, seat: int, lang: str, offset: int
) -> tuple[list[InlineQueryResultArticle], str]:
    """The results for the player to act: one per legal action from ``offset``, at most
    ``PAGE``; and the next offset ("" at the end)."""
    game = live.game
    ui = ui_for(live.row.kind)
    mine = screens.make_ctx(svc.tr, lang, live)  # what the player reads
    group = screens.make_ctx(svc.tr, live.row.lang, live)  # what the group reads
    view = game.view(seat)
    legal = game.legal_actions(seat)
    move = game.move_number
    hand = svc.tr.get(lang, "alert-hand", cards=mine.cards(view["hand"]))
    sent = group.t("inline-play-message", player=group.name(seat))
    results = []
    for index in range(offset, min(offset + PAGE, len(legal))):
        played = Callback(Op.PLAYED, live.game_id, move, f"#{index}")
        markup = InlineKeyboardMarkup([[screens.button(group.t("btn-show-hand"), played)]])
        results.append(
            InlineQueryResultArticle(
                id=played.pack(),
                title=ui.action_label(mine, view, legal[index]),
                description=hand,
                input_message_content=InputTextMessageContent(sent, parse_mode=ParseMode.HTML),
                reply_markup=markup,
            )
        )
    following = offset + PAGE
    return results, str(following) if following < len(legal) else ""


async def on_play_query(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``@bot #<game>``: the asking player's choices, or a button that says why there are
    none."""
    svc = services(context)
    query = update.inline_query
    lang = await user_lang(svc, query.from_user)
    game_id = int(PLAY_QUERY.match(query.query).group(1))
    live = await svc.games.get(game_id)
    seat = live.row.seat_of(query.from_user.id) if live is not None else None
    offset = int(query.offset) if query.offset.isdigit() and query.offset.isascii() else 0
    if live is None or live.game is None:
        problem = "alert-unknown-game"
    elif query.chat_type not in GROUP_CHATS:
        problem = "inline-play-group-only"
    elif seat is None:
        problem = "alert-not-your-game"
    elif not live.active:
        problem = "alert-game-over"
    elif live.game.current_seat != seat:
        problem = "alert-not-your-turn"
    else:
        problem = None
    results: list[InlineQueryResultArticle] = []
    next_offset = ""
    if problem is None:
        results, next_offset = choices(svc, live, seat, lang, offset)
    # Above the results: what to do, or why there is nothing to choose.
    button = InlineQueryResultsButton(
        svc.tr.get(lang, problem or "inline-play-choose"), start_parameter=START_PARAMETER
    )
    # The cards are this player's alone, and right only for this move: no shared or kept answer.
    await query.answer(
        results, cache_time=0, is_personal=True, next_offset=next_offset, button=button
    )


def played_callback(message: Message) -> Callback | None:
    """The choice a message sent through inline mode carries, or None when it carries none
    (a glossary entry shared in the group)."""
    markup = message.reply_markup
    if markup is None or not markup.inline_keyboard or not markup.inline_keyboard[0]:
        return None
    try:
        cb = Callback.parse(markup.inline_keyboard[0][0].callback_data)
    except MalformedCallback:
        return None
    return cb if cb.op is Op.PLAYED else None


async def on_played(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A message a player sent into a group by choosing one of the results: apply its action
    (or say in reply why not)."""
    message = update.effective_message
    if message.via_bot is None or message.via_bot.id != context.bot.id:
        return
    cb = played_callback(message)
    if cb is None or message.from_user is None:
        return
    svc = services(context)
    user = message.from_user
    live = await svc.games.get(cb.game_id)
    lang = await chat_lang(svc, message.chat, user)
    if live is None or live.game is None or live.row.chat_id != message.chat.id:
        problem = "alert-unknown-game"
    else:
        seat = live.row.seat_of(user.id)
        if seat is None:
            problem = "alert-not-your-game"
        else:
            problem, events = await play.attempt(svc, live, seat, cb.move, cb.arg, lang)
    if problem is not None:
        if problem == "alert-stale":
            problem = "inline-play-stale"
        text = svc.tr.get(
            lang,
            "inline-play-refused",
            player=f"<b>{screens.esc(user.full_name)}</b>",
            reason=svc.tr.get(lang, problem),
        )
        try:
            await message.reply_html(text, do_quote=True)
        except TelegramError as exc:
            log.warning("could not refuse an inline choice in chat %s: %s", message.chat.id, exc)
        return
    svc.renderer.refresh(live.game_id)
    await svc.notify_listeners(live, events)


def register(application: Application) -> None:
    """The game's inline queries (before the glossary's, which takes every other query) and the
    messages played through them."""
    application.add_handler(InlineQueryHandler(on_play_query, pattern=PLAY_QUERY))
    application.add_handler(
        MessageHandler(
            filters.VIA_BOT & filters.ChatType.GROUPS & filters.TEXT & ~filters.FORWARDED,
            on_played,
        )
    )
