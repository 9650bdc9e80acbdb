"""Telegram commands for leaderboards and statistics: ``/classifica`` (``/top``,
``/leaderboard``) and ``/stats``. Thin: read the update, ask ``bot.ratings.records``, render,
reply."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import aiosqlite
from telegram import Update, User
from telegram.constants import ChatType, ParseMode
from telegram.ext import Application, CommandHandler, ContextTypes

from bot.core.i18n import Translator, read_game
from bot.ratings import records
from bot.ratings.screens import (
    Board,
    render_leaderboard,
    render_stats,
    render_unknown_game,
)

LEADERBOARD_COMMANDS = ("classifica", "top", "leaderboard")
STATS_COMMANDS = ("stats",)
GROUP_CHATS = (ChatType.GROUP, ChatType.SUPERGROUP)

LangOf = Callable[[Update], Awaitable[str]]


class RatingsCommands:
    """The leaderboard and statistics commands, bound to the database and the translations."""

    def __init__(
        self,
        get_conn: Callable[[], aiosqlite.Connection],
        translator: Translator,
        lang_of: LangOf | None = None,
        min_games: int = records.MIN_GAMES,
    ) -> None:
        self.get_conn = get_conn
        self.translator = translator
        self.lang_of = lang_of or self._user_lang
        self.min_games = min_games

    async def _user_lang(self, update: Update) -> str:
        user = update.effective_user
        return self.translator.resolve(user.language_code if user else None)

    async def leaderboard(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/classifica [game]``: the group's tables in a group, the global ones in private."""
        message, chat, user = update.effective_message, update.effective_chat, update.effective_user
        if message is None or chat is None:
            return
        lang = await self.lang_of(update)
        conn = self.get_conn()
        in_group = chat.type in GROUP_CHATS
        chat_id = chat.id if in_group else None
        args = context.args or []
        if args:
            kind = read_game(self.translator, " ".join(args), records.GAME_KINDS)
            if kind is None:
                text = render_unknown_game(self.translator, lang, " ".join(args))
                await message.reply_text(text, parse_mode=ParseMode.HTML)
                return
            kinds = [kind]
        else:
            kinds = await records.kinds_rated(conn, chat_id)
        boards = []
        for kind in kinds:
            lines = await records.leaderboard(conn, kind, chat_id, min_games=self.min_games)
            caller = None
            if user is not None:
                caller = await records.player_line(
                    conn, kind, chat_id, user.id, min_games=self.min_games
                )
            boards.append(Board(kind, lines, caller))
        title = (chat.title or "") if in_group else None
        text = render_leaderboard(self.translator, lang, boards, title, self.min_games)
        await message.reply_text(text, parse_mode=ParseMode.HTML)

    async def stats(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/stats``: the caller's statistics, or those of the user whose message they reply to."""
        message = update.effective_message
        if message is None or update.effective_user is None:
            return
        lang = await self.lang_of(update)
        target = _replied_user(message.reply_to_message) or update.effective_user
        found = await records.stats(self.get_conn(), target.id)
        text = render_stats(self.translator, lang, target.full_name, found)
        await message.reply_text(text, parse_mode=ParseMode.HTML)


def _replied_user(replied: object) -> User | None:
    """The person whose message was replied to; not a bot, not a forum topic's opening."""
    if replied is None or getattr(replied, "forum_topic_created", None) is not None:
        return None
    user = getattr(replied, "from_user", None)
    if user is None or user.is_bot:
        return None
    return user


def register(
    application: Application,
    get_conn: Callable[[], aiosqlite.Connection],
    translator: Translator,
    lang_of: LangOf | None = None,
    min_games: int = records.MIN_GAMES,
) -> RatingsCommands:
    """Add the leaderboard and statistics commands to ``application``."""
    commands = RatingsCommands(get_conn, translator, lang_of, min_games)
    application.add_handler(CommandHandler(LEADERBOARD_COMMANDS, commands.leaderboard))
    application.add_handler(CommandHandler(STATS_COMMANDS, commands.stats))
    return commands
