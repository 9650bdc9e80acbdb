"""The application: handlers, the callback router, start-up (storage, reload) and shut-down.

Extending the bot: every feature is one entry of ``FEATURES``: its handlers (a
``register(application)`` that calls ``application.add_handler``), its buttons as new ``Op``
values with their handlers (every button press goes through one codec and one router), and what
it does at start-up and shut-down. Nothing registers itself at import. The language
of a text is picked in one place: ``bot.core.chat_settings.chat_lang`` for a chat, ``user_lang`` for
one user (an alert, a private hand).
"""

from __future__ import annotations

import contextlib
import gc
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.error import BadRequest, NetworkError, TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)
from telegram.request import BaseRequest, HTTPXRequest

from bot.computers import players as computers
from bot.core.callbacks import Callback, MalformedCallback, Op
from bot.core.chat_settings import user_lang
from bot.core.fairness import ChatFairProcessor
from bot.core.i18n import LOCALES_DIR, Translator
from bot.core.intake import TolerantBot, drop_senderless
from bot.core.live import Games
from bot.core.messenger import Messenger
from bot.core.services import Services, Users, services
from bot.core.settings import Settings
from bot.core.storage import Storage
from bot.delivery import Delivery, Limits, Pacing
from bot.delivery.pacing import ChatRateLimiter
from bot.language import handlers as language
from bot.notify import calls as table_calls
from bot.ratings import results
from bot.reference import handlers as reference
from bot.table import inline_play, lobby, play, topics
from bot.timers import handlers as timers
from bot.webapp import LOCAL_CHAT
from bot.webapp import telegram as webapp
from engine.ai import load_all

log = logging.getLogger(__name__)

PressHandler = Callable[[Update, ContextTypes.DEFAULT_TYPE, Callback, str], Awaitable[None]]
Setup = Callable[[Application, Services], Awaitable[None]]
Teardown = Callable[[Application], Awaitable[None]]


@dataclass(frozen=True)
class Feature:
    """A feature's part in the application: its handlers (``register``), the button ops it
    answers (``routes``, through the one callback router), what it does at start-up once the
    services exist and before the games are reloaded (``setup``: load its state, follow the
    games, add to the screens through ``svc.extras``), and at shut-down before the messages'
    last pass (``teardown``: stop its tasks)."""

    name: str
    register: Callable[[Application], None] | None = None
    routes: Mapping[Op, PressHandler] = field(default_factory=dict)
    setup: Setup | None = None
    teardown: Teardown | None = None


# The command menus: everything by default, then what makes sense in groups and in private.
COMMANDS = (
    "nuova",
    "mano",
    "tavolo",
    "annulla",
    "tempo",
    "classifica",
    "stats",
    "regole",
    "glossario",
    "lingua",
    "commento",
    "avvisami",
)
GROUP_COMMANDS = COMMANDS
PRIVATE_COMMANDS = ("start", "mano", "classifica", "stats", "regole", "glossario", "lingua")


async def on_press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Every button press: decode the callback data and route it; alert on foreign data."""
    svc = services(context)
    query = update.callback_query
    lang = await user_lang(svc, query.from_user)
    try:
        cb = Callback.parse(query.data)
    except MalformedCallback:
        await query.answer(svc.tr.get(lang, "alert-malformed"), show_alert=True)
        return
    route = CALLBACK_ROUTES.get(cb.op)
    if route is None:
        await query.answer(svc.tr.get(lang, "alert-malformed"), show_alert=True)
        return
    await route(update, context, cb, lang)


async def on_migrate(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A group became a supergroup: its games follow it to the new chat id."""
    svc = services(context)
    message = update.effective_message
    if message.migrate_to_chat_id:
        await svc.storage.move_chat(message.chat.id, message.migrate_to_chat_id)
        for live in svc.games.loaded():
            if live.row.chat_id == message.chat.id:
                live.row.chat_id = message.migrate_to_chat_id


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log every unexpected error; answer the press, if any, so the button stops spinning.
    Telegram being unreachable, or a press answered too late, is a warning, not a bug."""
    error = context.error
    if isinstance(error, NetworkError) or (
        isinstance(error, BadRequest) and "query is too old" in error.message.lower()
    ):
        log.warning("could not handle an update: %s", error)
        return
    log.error("error handling an update", exc_info=error)
    if isinstance(update, Update) and update.callback_query is not None:
        svc = context.application.bot_data.get("services")
        if svc is None:
            return
        lang = svc.tr.resolve(update.callback_query.from_user.language_code)
        with contextlib.suppress(TelegramError):
            await update.callback_query.answer(svc.tr.get(lang, "alert-error"), show_alert=True)


def register(application: Application) -> None:
    """The core handlers: lobby, private start, play, and the callback router (after the
    check that stops updates without a sender)."""
    application.add_handler(TypeHandler(Update, drop_senderless), group=-1)
    application.add_handler(CommandHandler(["nuova", "new"], lobby.cmd_new))
    application.add_handler(CommandHandler("start", lobby.cmd_start))
    application.add_handler(CommandHandler(["mano", "hand"], play.cmd_hand))
    application.add_handler(CommandHandler(["tavolo", "table"], play.cmd_table))
    application.add_handler(CommandHandler(["annulla", "cancel"], play.cmd_cancel))
    application.add_handler(CallbackQueryHandler(on_press))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migrate))
    application.add_handler(
        MessageHandler(filters.StatusUpdate.FORUM_TOPIC_CLOSED, topics.on_topic_closed)
    )
    application.add_handler(
        MessageHandler(filters.StatusUpdate.FORUM_TOPIC_REOPENED, topics.on_topic_reopened)
    )
    application.add_handler(
        ChatMemberHandler(lobby.on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER)
    )


# Every feature of the bot, in the order its handlers are registered and its setup runs.
FEATURES: tuple[Feature, ...] = (
    Feature(
        "table",
        register,
        {
            Op.CHOOSE: lobby.on_choose,
            Op.JOIN: lobby.on_join,
            Op.LEAVE: lobby.on_leave,
            Op.START: lobby.on_start,
            Op.CANCEL: lobby.on_cancel,
            Op.RULES: lobby.on_rules_panel,
            Op.RULE: lobby.on_rule,
            Op.ACT: play.on_action,
            Op.SHOW_HAND: play.on_show_hand,
            Op.PLAYED: play.on_show_hand,
            Op.REMATCH: play.on_rematch,
        },
    ),
    # Before the glossary's inline handler, which takes every query.
    Feature("inline play", inline_play.register),
    Feature(
        "language",
        language.register,
        {Op.LANGUAGE: language.on_language_press, Op.COMMENTARY: language.on_commentary_press},
    ),
    Feature(
        "reference",
        reference.register,
        {
            Op.GLOSSARY: reference.on_glossary_press,
            Op.RULES_SUMMARY: reference.on_rules_press,
            Op.EXPLAIN: reference.on_explain_press,
        },
    ),
    Feature(
        "timers",
        timers.register,
        {Op.BACK: timers.on_back_press, Op.TURN_TIMER: timers.on_timer_press},
        timers.setup,
    ),
    Feature(
        "computers",
        None,
        {Op.ADD_COMPUTER: computers.on_add, Op.REMOVE_COMPUTER: computers.on_remove},
        computers.setup,
        computers.teardown,
    ),
    Feature("ratings", results.register, setup=results.setup),
    Feature("table calls", table_calls.register, setup=table_calls.setup),
    Feature("webapp", setup=webapp.setup, teardown=webapp.teardown),
)


def callback_routes(features: Sequence[Feature]) -> dict[Op, PressHandler]:
    """Every button op and the one handler that answers it."""
    routes: dict[Op, PressHandler] = {}
    for feature in features:
        for op, handler in feature.routes.items():
            if op in routes:
                raise ValueError(f"{op!r} is answered twice ({feature.name})")
            routes[op] = handler
    return routes


CALLBACK_ROUTES = callback_routes(FEATURES)


async def set_commands(application: Application, tr: Translator) -> None:
    """Publish the command menus in every language, for groups and private chats (best
    effort); the default language's menus also serve users of any other language."""
    menus = [
        (None, COMMANDS),
        (BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
        (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS),
    ]
    for lang in tr.languages:
        for scope, names in menus:
            commands = [BotCommand(c, tr.get(lang, f"command-{c}")) for c in names]
            try:
                if lang == tr.default:
                    await application.bot.set_my_commands(commands, scope=scope)
                await application.bot.set_my_commands(commands, scope=scope, language_code=lang)
            except TelegramError as exc:
                log.info("could not set the command list: %s", exc)
                return


def build_application(
    settings: Settings,
    request: BaseRequest | None = None,
    *,
    get_updates_request: BaseRequest | None = None,
    translator: Translator | None = None,
    publish_commands: bool = True,
    freeze_heap: bool = False,
) -> Application:
    """The bot's application: handlers registered; storage opened and games reloaded in
    ``post_init``; ``request`` replaces the HTTP layer (tests pass a fake Bot API).

    ``freeze_heap`` (the bot's own process): once started, everything alive (the libraries,
    the translations, the reloaded games) is moved out of the garbage collector's sight
    (``gc.freeze``). A full collection walks the whole heap, and with the libraries loaded it
    took 0.2 to 0.45 s, all of it inside whichever press it fell on; after the freeze it walks
    only what came later. The computer players are loaded first (``engine.ai.load_all``), so
    that their caches are frozen too. Tests leave it off: many applications start in one
    process there."""
    tr = translator or Translator(LOCALES_DIR)
    application = (
        ApplicationBuilder()
        .bot(make_bot(settings, request, get_updates_request))
        .concurrent_updates(make_processor(tr))
        .post_init(post_init)
        .post_stop(post_stop)
        .post_shutdown(post_shutdown)
        .build()
    )
    application.bot_data["settings"] = settings
    application.bot_data["translator"] = tr
    application.bot_data["publish_commands"] = publish_commands
    application.bot_data["freeze_heap"] = freeze_heap
    for feature in FEATURES:
        if feature.register is not None:
            feature.register(application)
    application.add_error_handler(on_error)
    return application


async def post_init(application: Application) -> None:
    """At start-up: the services on the opened storage, the command menus, every feature's
    setup, then the open games reloaded."""
    settings: Settings = application.bot_data["settings"]
    tr: Translator = application.bot_data["translator"]
    storage = await Storage.open(settings.database_path)
    svc = Services(
        storage=storage,
        tr=tr,
        games=Games(storage),
        users=Users(storage),
        messenger=Messenger(application.bot),
        bot_username=application.bot.username,
    )
    limits = Limits.of(settings)
    limiter = application.bot.rate_limiter
    budget = limiter.overall if isinstance(limiter, ChatRateLimiter) else None
    svc.renderer = Delivery(svc, Pacing(limits.group_edit_window, limits.private_gap, budget))
    application.bot_data["services"] = svc
    if application.bot_data["publish_commands"]:
        await set_commands(application, tr)
    for feature in FEATURES:
        if feature.setup is not None:
            await feature.setup(application, svc)
    await reload_games(svc)
    if application.bot_data.get("freeze_heap"):
        load_all()  # the computer players' caches, frozen with the rest
        gc.collect()
        gc.freeze()


async def post_stop(application: Application) -> None:
    """At stop: every feature's teardown, then the messages' last pass."""
    for feature in FEATURES:
        if feature.teardown is not None:
            await feature.teardown(application)
    svc = application.bot_data.get("services")
    if svc is not None:
        await svc.renderer.close()


async def post_shutdown(application: Application) -> None:
    """At shut-down: the messages' last pass, and the storage closed."""
    svc = application.bot_data.pop("services", None)
    if svc is not None:
        await svc.renderer.close()
        await svc.storage.close()


def make_bot(
    settings: Settings,
    request: BaseRequest | None = None,
    get_updates_request: BaseRequest | None = None,
) -> TolerantBot:
    """The bot's Bot API client: updates read one by one (``bot.core.intake``), calls paced per chat
    (``bot.delivery.pacing``); ``request`` and ``get_updates_request`` replace the HTTP layer."""
    urls = settings.api_base_urls() or (
        "https://api.telegram.org/bot",
        "https://api.telegram.org/file/bot",
    )
    return TolerantBot(
        settings.token,
        base_url=urls[0],
        base_file_url=urls[1],
        request=request or HTTPXRequest(connection_pool_size=256),
        get_updates_request=get_updates_request or HTTPXRequest(connection_pool_size=1),
        rate_limiter=Limits.of(settings).rate_limiter(settings.max_retries),
    )


def make_processor(tr: Translator) -> ChatFairProcessor:
    """Updates run concurrently, each chat within its share; a press beyond it is answered."""
    processor = ChatFairProcessor()

    async def answer_dropped(update: Update) -> None:
        query = update.callback_query
        if query is None:
            return
        lang = tr.resolve(query.from_user.language_code if query.from_user else None)
        with contextlib.suppress(TelegramError):
            await query.answer(tr.get(lang, "alert-flood"))

    processor.on_dropped = answer_dropped
    return processor


async def reload_games(svc: Services) -> None:
    """At start-up: reload open games and bring every message up to date (a message that can
    no longer be edited is sent again), and send announcements left unsent."""
    # Local mode's games (``python -m bot --local``) are not Telegram's to show.
    loaded = [live for live in await svc.games.load_open() if live.row.chat_id != LOCAL_CHAT]
    ids = {live.game_id for live in loaded} | set(await svc.storage.games_with_outbox())
    for game_id in sorted(ids):
        svc.renderer.refresh(game_id)
    for live in loaded:
        if live.active:
            await svc.notify_listeners(live, [])
