"""The lobby: ``/nuova`` in a group, choosing the game, seats and teams, house rules, start and
cancel; and ``/start`` in private, which opens the chat and completes a join from a deep link."""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Awaitable, Callable

from telegram import CallbackQuery, Update, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import ContextTypes

import engine
from bot.core.admins import creator_or_admin
from bot.core.callbacks import Callback
from bot.core.chat_settings import chat_lang
from bot.core.i18n import read_game
from bot.core.live import LiveGame
from bot.core.messenger import Content, acknowledge
from bot.core.places import topic_of
from bot.core.services import Services, services
from bot.core.storage import ChatBusy, StaleMove
from bot.games import game_options, offered_kinds, player_counts
from bot.table import screens
from bot.table.house_rules import rule_choices
from bot.table.topics import busy_text

log = logging.getLogger(__name__)

JOIN_PAYLOAD = re.compile(r"^j(\d{1,12})(?:_([01]))?$")


def parse_new_args(svc: Services, args: list[str]) -> tuple[str, int | None] | None:
    """The (kind, players) of ``/nuova`` arguments such as ``briscola 4``, ``bri4`` or
    ``cirulla``, the game read as every command reads it (``bot.core.i18n.read_game``); players is
    None when no count was given and the game has several (the creator picks one in the
    lobby). None when the arguments name no game the bot offers, or a count it is not
    played with."""
    text = " ".join(args).strip()
    m = re.match(r"^(.*?)\s*(\d+)$", text)
    name, count = (m.group(1), int(m.group(2))) if m else (text, None)
    kind = read_game(svc.tr, name, offered_kinds())
    if kind is None:
        return None
    counts = player_counts(kind)
    if count is None:
        return kind, counts[0] if len(counts) == 1 else None
    return (kind, count) if count in counts else None


async def reply_html(update: Update, text: str) -> None:
    """Answer a command in its chat with an HTML text (not as a quoted reply)."""
    await update.effective_message.reply_html(text, do_quote=False)


def _options_text(command: str) -> str:
    return ", ".join(
        f"{command} {kind} {n}" if len(player_counts(kind)) > 1 else f"{command} {kind}"
        for kind, n in game_options()
    )


async def cmd_new(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/nuova (alias /new): open a lobby in the group, with the game or a menu of games."""
    svc = services(context)
    chat = update.effective_chat
    user = update.effective_user
    user_row = await svc.users.seen(user)
    lang = await chat_lang(svc, chat, user)
    if chat.type not in (ChatType.GROUP, ChatType.SUPERGROUP):
        await reply_html(update, svc.tr.get(lang, "new-group-only"))
        return
    chosen = None
    if context.args:
        chosen = parse_new_args(svc, context.args)
        if chosen is None:
            await reply_html(
                update,
                svc.tr.get(
                    lang, "new-unknown-game", options=_options_text(svc.tr.get(lang, "new-command"))
                ),
            )
            return
    topic = topic_of(update.effective_message)
    busy = svc.tr.get(lang, busy_text(update, topic))
    if await svc.games.in_chat(chat.id, topic) is not None:
        await reply_html(update, busy)
        return
    kind, players = chosen if chosen else (None, None)
    menu_kind = kind if players is None else None  # the creator picks the player count
    if players is None:
        kind = None
    try:
        game_id = await svc.storage.create_lobby(
            chat.id, chat.title or "", user.id, user.full_name, lang, kind, players, thread_id=topic
        )
    except ChatBusy:
        await reply_html(update, busy)
        return
    live = await svc.games.get(game_id)
    live.menu_kind = menu_kind
    if kind is not None and user_row.private_open:
        async with live.lock:
            await _sit(svc, live, user, 0 if players == 4 else None)
    svc.renderer.refresh(game_id)
    if kind is not None:
        await svc.table_opened(live)


async def _sit(svc: Services, live: LiveGame, user: User, team: int | None) -> str | None:
    """Seat a user (on ``team`` for pairs); None on success, else the alert's message id."""
    row = live.row
    if row.status != "lobby" or row.kind is None:
        return "alert-lobby-closed"
    current = row.seat_of(user.id)
    if row.players == 4:
        team = 0 if team is None else team
        wanted = [team, team + 2]
    else:
        wanted = list(range(row.players))
    if current is not None and current in wanted:
        return "alert-already-seated"
    taken = {s.seat for s in row.seats}
    free = [s for s in wanted if s not in taken]
    if not free:
        return "alert-team-full" if row.players == 4 else "alert-table-full"
    await svc.storage.take_seat(row.game_id, free[0], user.id, user.full_name)
    await svc.games.reload(live)
    return None


async def _alert(query: CallbackQuery, svc: Services, lang: str, msg_id: str, **args) -> None:
    await query.answer(svc.tr.get(lang, msg_id, **args), show_alert=True)


Change = Callable[[LiveGame], Awaitable[str | None]]


async def pressed_game(
    svc: Services, query: CallbackQuery, cb: Callback, lang: str
) -> LiveGame | None:
    """The game a button belongs to; None, answered with an alert, for an unknown game or a
    button from another chat."""
    live = await svc.games.get(cb.game_id)
    if live is None or (query.message is not None and live.row.chat_id != query.message.chat.id):
        await _alert(query, svc, lang, "alert-unknown-game")
        return None
    return live


async def lobby_press(
    svc: Services,
    query: CallbackQuery,
    cb: Callback,
    lang: str,
    change: Change,
    *,
    creator_only: bool = False,
    game_chosen: bool = False,
) -> LiveGame | None:
    """A lobby button: ``change`` runs under the game's lock and returns a problem (a message
    id) or None. A problem, an unknown game, a closed lobby (or one without a game,
    ``game_chosen``) or, ``creator_only``, another presser than the creator is answered with an
    alert and changes nothing; returns the game when the change was made (the caller
    acknowledges the press)."""
    live = await pressed_game(svc, query, cb, lang)
    if live is None:
        return None
    async with live.lock:
        row = live.row
        if row.status != "lobby" or (game_chosen and row.kind is None):
            problem, args = "alert-lobby-closed", {}
        elif creator_only and query.from_user.id != row.creator_id:
            problem, args = "alert-creator-only", {"creator": row.creator_name}
        else:
            problem, args = await change(live), {}
    if problem is not None:
        await _alert(query, svc, lang, problem, **args)
        return None
    return live


async def creator_press(
    svc: Services, query: CallbackQuery, cb: Callback, lang: str, change: Change
) -> LiveGame | None:
    """A lobby button for the lobby's creator alone, with a game chosen (``lobby_press``)."""
    return await lobby_press(svc, query, cb, lang, change, creator_only=True, game_chosen=True)


async def _pressed(
    svc: Services, query: CallbackQuery, lang: str, live: LiveGame | None, toast: str | None = None
) -> None:
    """A lobby press made its change: acknowledge it (with ``toast``), redraw the lobby."""
    if live is None:
        return
    await acknowledge(query, svc.tr.get(lang, toast) if toast else None)
    svc.renderer.refresh(live.game_id)


async def on_choose(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """The creator picks the game and its player count from the lobby's menu (and sits)."""
    svc = services(context)
    query = update.callback_query
    kind, _, count = cb.arg.partition("-")

    async def choose(live: LiveGame) -> str | None:
        if not count.isdigit() or (kind, int(count)) not in game_options():
            return "alert-malformed"
        if live.row.kind is not None:
            return "alert-stale"
        await svc.storage.set_kind(live.game_id, kind, int(count), {})
        await svc.games.reload(live)
        user_row = await svc.users.seen(query.from_user)
        if user_row.private_open:
            await _sit(svc, live, query.from_user, 0 if int(count) == 4 else None)
        return None

    live = await lobby_press(svc, query, cb, lang, choose, creator_only=True)
    await _pressed(svc, query, lang, live)
    if live is not None:
        await svc.table_opened(live)


async def on_join(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """A player sits (on a team, in pairs); one who never opened the private chat with the bot
    is sent there first, and the join completes at ``/start``."""
    svc = services(context)
    query = update.callback_query
    team = int(cb.arg) if cb.arg in ("0", "1") else None
    user_row = await svc.users.seen(query.from_user)
    if not user_row.private_open:
        live = await pressed_game(svc, query, cb, lang)
        if live is None:
            return
        if live.row.status != "lobby":
            await _alert(query, svc, lang, "alert-lobby-closed")
            return
        payload = f"j{live.game_id}" + (f"_{team}" if team is not None else "")
        await query.answer(url=svc.deep_link(payload))
        return

    async def join(live: LiveGame) -> str | None:
        return await _sit(svc, live, query.from_user, team)

    live = await lobby_press(svc, query, cb, lang, join)
    await _pressed(svc, query, lang, live, "toast-seated")


async def on_leave(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """A seated player stands up."""
    svc = services(context)
    query = update.callback_query

    async def leave(live: LiveGame) -> str | None:
        seat = live.row.seat_of(query.from_user.id)
        if seat is None:
            return "alert-not-seated"
        await svc.storage.leave_seat(live.game_id, seat)
        await svc.games.reload(live)
        return None

    live = await lobby_press(svc, query, cb, lang, leave)
    await _pressed(svc, query, lang, live, "toast-left")


async def on_rules_panel(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """The creator opens or closes the house rules' panel."""
    svc = services(context)
    query = update.callback_query

    async def toggle(live: LiveGame) -> str | None:
        if live.row.kind is None:
            return "alert-stale"
        live.rules_open = cb.arg == "1"
        return None

    live = await lobby_press(svc, query, cb, lang, toggle, creator_only=True)
    await _pressed(svc, query, lang, live)


async def on_rule(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """The creator moves a house rule to its next value."""
    svc = services(context)
    query = update.callback_query

    async def set_rule(live: LiveGame) -> str | None:
        if live.row.kind is None:
            return "alert-stale"
        return await _set_rule(svc, live, cb.arg)

    live = await lobby_press(svc, query, cb, lang, set_rule, creator_only=True)
    await _pressed(svc, query, lang, live)


async def on_start(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """A seated player (or the creator) deals, once every seat is taken."""
    svc = services(context)
    query = update.callback_query

    async def start(live: LiveGame) -> str | None:
        return await _start(svc, live, query.from_user.id)

    live = await lobby_press(svc, query, cb, lang, start)
    await _pressed(svc, query, lang, live)
    if live is not None and live.active:
        await svc.notify_listeners(live, [])


async def on_cancel(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """The creator or a chat administrator closes the lobby (Telegram is asked who
    administers the chat before the game's lock is taken)."""
    svc = services(context)
    query = update.callback_query
    live = await pressed_game(svc, query, cb, lang)
    if live is None:
        return
    user_id = query.from_user.id
    allowed = await creator_or_admin(context.bot, live.row.chat_id, user_id, live.row.creator_id)

    async def cancel(live: LiveGame) -> str | None:
        if not allowed:
            return "alert-cancel-who"
        await cancel_game(svc, live)
        return None

    live = await lobby_press(svc, query, cb, lang, cancel)
    await _pressed(svc, query, lang, live, "toast-cancelled")


async def _set_rule(svc: Services, live: LiveGame, arg: str) -> str | None:
    row = live.row
    m = re.match(r"^(\d+)=(\d+)$", arg)
    choices = rule_choices(row.kind, row.players)
    if not m or int(m.group(1)) >= len(choices):
        return "alert-malformed"
    choice = choices[int(m.group(1))]
    if int(m.group(2)) >= len(choice.values):
        return "alert-malformed"
    rules = dict(row.rules)
    value = choice.values[int(m.group(2))]
    if value == choice.default:
        rules.pop(choice.name, None)
    else:
        rules[choice.name] = value
    if not screens.engine_setup_ok(row.kind, row.players, rules):
        return "alert-rule-conflict"
    await svc.storage.set_rules(row.game_id, rules)
    row.rules = rules
    return None


async def _start(svc: Services, live: LiveGame, user_id: int) -> str | None:
    """Deal: the lobby's message becomes the table message. None, or the alert's id."""
    row = live.row
    if row.kind is None or len(row.seats) != row.players:
        return "alert-not-full"
    if user_id != row.creator_id and row.seat_of(user_id) is None:
        return "alert-not-seated"
    seed = svc.new_seed()
    dealer = seed % row.players
    try:
        engine.new_game(row.kind, row.players, seed=seed, dealer=dealer, rules=row.rules)
    except engine.SetupError as exc:
        log.warning("game %s cannot start: %s", row.game_id, exc)
        return "alert-rule-conflict"
    try:
        # The lobby's message becomes the table message: edited in place, nothing new sent.
        await svc.storage.start_game(row.game_id, seed, dealer, row.lobby_message_id)
    except StaleMove:
        return "alert-lobby-closed"
    await svc.games.reload(live)
    live.rules_open = False
    return None


async def cancel_game(svc: Services, live: LiveGame) -> bool:
    """Cancel a lobby or a game in progress (caller holds the game's lock)."""
    within = svc.result_writer(live, live.game) if live.game is not None else None
    if not await svc.storage.cancel_game(live.game_id, within=within):
        return False
    live.row.status = "cancelled"
    return True


# -- private chat ------------------------------------------------------------------------------
async def cmd_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start in private: the chat is open; complete a join from a deep link, or explain."""
    svc = services(context)
    chat = update.effective_chat
    user = update.effective_user
    lang = await chat_lang(svc, chat, user)
    if chat.type != ChatType.PRIVATE:
        await reply_html(update, svc.tr.get(lang, "start-group", bot=html.escape(svc.bot_username)))
        return
    await svc.users.seen(user, private_open=True)
    await reopen_private(svc, user.id)
    m = JOIN_PAYLOAD.match(context.args[0]) if context.args else None
    if m is None:
        await reply_html(update, svc.tr.get(lang, "start-welcome"))
        return
    game_id, team = int(m.group(1)), m.group(2)
    live = await svc.games.get(game_id)
    if live is None or live.row.status != "lobby":
        await reply_html(update, svc.tr.get(lang, "start-join-closed"))
        return
    async with live.lock:
        problem = await _sit(svc, live, user, int(team) if team is not None else None)
    if problem and problem != "alert-already-seated":
        await reply_html(update, svc.tr.get(lang, problem))
        return
    title = screens.game_title(
        screens.make_ctx(svc.tr, lang, live), live.row.kind, live.row.players
    )
    await reply_html(
        update,
        svc.tr.get(lang, "start-joined", game=title, group=screens.esc(live.row.chat_title)),
    )
    svc.renderer.refresh(game_id)


async def on_my_chat_member(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A user blocked or unblocked the bot in private: remember it; on unblock, re-send hands."""
    change = update.my_chat_member
    if change is None or change.chat.type != ChatType.PRIVATE:
        return
    svc = services(context)
    status = change.new_chat_member.status
    if status in (ChatMemberStatus.BANNED, ChatMemberStatus.LEFT):
        await svc.users.set_private_open(change.chat.id, False)
        await close_private(svc, change.chat.id)
    elif status == ChatMemberStatus.MEMBER:
        await svc.users.seen(change.from_user, private_open=True)
        await reopen_private(svc, change.chat.id)


async def close_private(svc: Services, user_id: int) -> None:
    """The user blocked the bot: in each of their games in progress the table names them (on
    their turn they play from the group) and the group is told, at once rather than at their
    next ping."""
    for game_id in await svc.storage.open_game_ids_of_user(user_id):
        live = await svc.games.get(game_id)
        if live is None or not live.active or user_id in live.blocked_notified:
            continue
        seat_row = next(s for s in live.row.seats if s.user_id == user_id)
        await private_closed(svc, live, user_id, seat_row.name)
        svc.renderer.refresh(game_id)


async def private_closed(svc: Services, live: LiveGame, user_id: int, name: str) -> None:
    """A player blocked the bot (or never opened the chat): no more pings or hands for them
    in private, and the group is told how to fix it (the table names them on their turn)."""
    await svc.users.set_private_open(user_id, False)
    live.blocked_notified.add(user_id)
    if live.row.status != "active":
        return
    ctx = screens.make_ctx(svc.tr, live.row.lang, live)
    text = ctx.t(
        "notice-private-closed",
        player=f"<b>{screens.esc(name)}</b>",
        bot=screens.esc("@" + svc.bot_username),
    )
    svc.renderer.notice(live.game_id, Content(text))


async def reopen_private(svc: Services, user_id: int) -> None:
    """The user's private chat works again: re-send the hands of their games."""
    for game_id in await svc.storage.open_game_ids_of_user(user_id):
        live = await svc.games.get(game_id)
        if live is not None and user_id in live.blocked_notified:
            live.blocked_notified.discard(user_id)
            for s in live.row.seats:
                if s.user_id == user_id and s.hand_message_id is not None:
                    svc.messenger.forget(user_id, s.hand_message_id)
            svc.renderer.refresh(game_id)
