"""Playing: action buttons, the table's "my cards" button, ``/mano``, ``/annulla``, rematch.

``apply_action`` is the one way an action enters a game: the engine checks it, storage commits
it (with the announcements it causes), and only then are messages brought up to date.
Computer players and turn timers call it too. When an action leaves nobody a choice for the rest
of the deal (the last trick, where every hand holds one card), the bot plays those forced cards
in the same commit, and the deal's result message shows them.
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import CallbackQuery, Update
from telegram.constants import ChatType
from telegram.error import Forbidden
from telegram.ext import ContextTypes

import engine
from bot.core.admins import creator_or_admin
from bot.core.callbacks import Callback, resolve_action
from bot.core.chat_settings import chat_lang, group_command_lang, user_lang
from bot.core.live import LiveGame
from bot.core.messenger import acknowledge
from bot.core.places import topic_of
from bot.core.services import Services, services
from bot.core.storage import ChatBusy, StaleMove
from bot.games import ui_for
from bot.table import screens
from bot.table.lobby import cancel_game, reply_html

log = logging.getLogger(__name__)

# The rest of a deal is looked at for forced plays only once no hand holds more cards than
# this: with more, somebody always has a choice, and the look (on a copy of the game) is skipped.
TAIL_HAND = 2


def forced_tail(game: engine.Game, announced: frozenset[str]) -> list[tuple[int, str]]:
    """The rest of the deal when nobody has a choice left in it, else ``[]``.

    Looked for only once no hand holds more than ``TAIL_HAND`` cards (the last trick of a trick
    game always qualifies: every hand holds one card; in Cirulla, the last plays of a deal): the
    plays are tried on a copy of the game, and they are the rest of the deal if each one is the
    only legal action of its player and the last one ends the deal (an ``announced`` event: the
    deal's result) or the game.

    All or nothing: a forced card played at once while a later player still has a choice would
    tell that player something about the hand it came from.
    """
    if game.is_over or max(game.view(None)["hand_sizes"]) > TAIL_HAND:
        return []
    if len(game.legal_actions(game.current_seat)) != 1:
        return []
    trial = game.copy()
    plays: list[tuple[int, str]] = []
    while not trial.is_over:
        seat = trial.current_seat
        legal = trial.legal_actions(seat)
        if len(legal) != 1:
            return []
        plays.append((seat, legal[0]))
        if any(e["type"] in announced for e in trial.play(seat, legal[0])):
            return plays
    return plays


async def apply_action(svc: Services, live: LiveGame, seat: int, code: str) -> list[dict[str, Any]]:
    """Apply and commit one action of ``seat``, and the forced rest of the deal if it leaves
    nobody a choice (``forced_tail``); the caller holds ``live.lock``. Returns the events of
    every action applied.

    The actions are played on a copy of the game, which becomes the live game only once the
    commit has succeeded: whoever reads the game while the commit is awaited (a rendering pass,
    the Mini App) sees the state before the action, never a half-made one.

    Raises ``engine.IllegalAction`` (nothing changes) or a storage error (the game is reloaded
    from the database, so memory never runs ahead of what was committed).
    """
    game = live.game.copy()
    move = game.move_number
    ui = ui_for(live.row.kind)
    events = game.play(seat, code)
    pressed = len(events)
    plays = [(seat, code)]
    forced = forced_tail(game, ui.announced)
    for s, c in forced:
        events += game.play(s, c)
    plays += forced
    announced = [e for e in events if e["type"] in ui.announced]
    announcements = []
    if announced:
        # The result message shows how the deal ended (the last tricks, the last plays) and
        # says when the bot played the last cards itself.
        # The bot's word comes where its plays begin: after the press's own moves.
        shown = ui.result_events(events[:pressed])
        if forced:
            shown.append({"type": screens.FORCED_EVENT, "plays": [list(p) for p in forced]})
        shown += ui.result_events(events[pressed:])
        # ``serial``: where the deal's own events end, so that the result can open with the
        # moves the table never showed however many results wait (``TableLog.unseen``).
        payload = {"events": shown, "view": game.view(None), "serial": live.serial}
        announcements.append(("announce", payload))
    result = (game.winners, game.scores) if game.is_over else None
    try:
        await svc.storage.record_actions(
            live.game_id,
            move,
            plays,
            announcements=announcements,
            result=result,
            within=svc.action_writer(live, game),
        )
    except BaseException:
        await svc.games.reload(live)
        raise
    live.game = game
    live.row.move_number = move + len(plays)
    if result is not None:
        live.row.status = "over"
        live.row.winners, live.row.scores = result
    live.record(events, plays)
    return events


def table_waits(live: LiveGame, code: str, events: list[dict[str, Any]]) -> bool:
    """Whether the group's table may wait for the next action: after a quiet action (a Belòta
    declaration, a Cirulla knock, a look at the partner's hand: ``GameUI.quiet``) the same
    player is still to act, in private; the table shows it with that player's card."""
    ui = ui_for(live.row.kind)
    return live.active and code in ui.quiet and not any(e["type"] in ui.announced for e in events)


async def perform(
    svc: Services, live: LiveGame, seat: int, code: str, move: int | None = None
) -> list[dict[str, Any]]:
    """An action not made by a button (a computer player, a turn timer): under the game's lock,
    check the move number if given, apply and commit, then render and tell the listeners.

    Raises ``engine.IllegalAction`` or ``StaleMove`` and changes nothing. Listeners run after
    the lock is released; one that answers with another action should schedule it (a task or
    the job queue) rather than call ``perform`` inline.
    """
    async with live.lock:
        if not live.active:
            raise engine.IllegalAction("game_over")
        if move is not None and move != live.game.move_number:
            raise StaleMove(live.game_id)
        events = await apply_action(svc, live, seat, code)
        group = not table_waits(live, code, events)
    svc.renderer.refresh(live.game_id, group=group)
    await svc.notify_listeners(live, events)
    return events


async def _seated_game(
    svc: Services, query: CallbackQuery, cb: Callback, lang: str
) -> tuple[LiveGame, int] | None:
    """The game in progress a game button belongs to, and the presser's seat; None, answered
    with an alert, for an unknown game, a presser without a seat or a game no longer played."""
    live = await svc.games.get(cb.game_id)
    if live is None or live.game is None:
        await query.answer(svc.tr.get(lang, "alert-unknown-game"), show_alert=True)
        return None
    seat = live.row.seat_of(query.from_user.id)
    if seat is None:
        await query.answer(svc.tr.get(lang, "alert-not-your-game"), show_alert=True)
        return None
    if live.row.status != "active":
        await query.answer(svc.tr.get(lang, "alert-game-over"), show_alert=True)
        return None
    return live, seat


async def on_action(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """An action button (a card, a bid, a declaration; on the hand or the table)."""
    svc = services(context)
    query = update.callback_query
    seated = await _seated_game(svc, query, cb, lang)
    if seated is None:
        return
    live, seat = seated
    problem, events = await attempt(svc, live, seat, cb.move, cb.arg, lang)
    if problem is not None:
        await query.answer(svc.tr.get(lang, problem), show_alert=True)
        return
    # No await since the action was applied: its code is still the game's latest.
    group = not table_waits(live, live.game.actions[-1], events)
    await acknowledge(query)
    svc.renderer.refresh(live.game_id, group=group)
    await svc.notify_listeners(live, events)


async def on_show_hand(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """The "my cards" button, on the table or on a message played through inline mode: the
    presser's own cards in an alert."""
    svc = services(context)
    query = update.callback_query
    seated = await _seated_game(svc, query, cb, lang)
    if seated is not None:
        live, seat = seated
        await query.answer(screens.hand_alert(svc.tr, live, seat, lang), show_alert=True)


async def attempt(
    svc: Services, live: LiveGame, seat: int, move: int, arg: str, lang: str
) -> tuple[str | None, list[dict[str, Any]]]:
    """A player's choice drawn at ``move`` (a button's or an inline result's argument): under
    the game's lock, check the game, the move number, the turn and the action, then apply and
    commit it. Returns (None, events), or (the message id of the refusal, []) and nothing
    changes. The caller renders and tells the listeners."""
    async with live.lock:
        game = live.game
        if live.row.status != "active":
            return "alert-game-over", []
        if move != game.move_number:
            return "alert-stale", []
        if game.current_seat != seat:
            return "alert-not-your-turn", []
        code = resolve_action(arg, game.legal_actions(seat))
        if code is None:
            # A button's index names nothing the engine can judge; anything else it can.
            return (
                "alert-illegal" if arg.startswith("#") else refusal(svc, game, seat, arg, lang)
            ), []
        try:
            return None, await apply_action(svc, live, seat, code)
        except engine.IllegalAction as exc:
            return reason_id(svc, exc, lang), []


def reason_id(svc: Services, exc: engine.IllegalAction, lang: str) -> str:
    """The message id that says why the engine refused an action (``illegal-must-follow-suit``),
    or the general one when the locales have no words for that reason."""
    reason = f"illegal-{exc.reason.replace('_', '-')}"
    return reason if svc.tr.has(lang, reason) else "alert-illegal"


def refusal(svc: Services, game: engine.Game, seat: int, code: str, lang: str) -> str:
    """Why the engine refuses ``code`` from ``seat`` now (a message id), asked of a copy of the
    game: an action written another way (a capture listed in another order) would be taken,
    and the live game must only change through ``apply_action``."""
    try:
        game.copy().play(seat, code)
    except engine.IllegalAction as exc:
        return reason_id(svc, exc, lang)
    return "alert-illegal"


async def on_rematch(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """The same table again: same game, players, seats and house rules; a new deal."""
    svc = services(context)
    query = update.callback_query
    old = await svc.storage.get_game(cb.game_id)
    if old is None or old.status != "over":
        await query.answer(svc.tr.get(lang, "alert-unknown-game"), show_alert=True)
        return
    if old.seat_of(query.from_user.id) is None:
        await query.answer(svc.tr.get(lang, "alert-not-your-game"), show_alert=True)
        return
    # The deal passes to the right from one game to the next.
    dealer = (old.dealer + 1) % old.players
    try:
        game_id = await svc.storage.create_rematch(old, svc.new_seed(), dealer)
    except ChatBusy:
        await query.answer(svc.tr.get(lang, "alert-busy"), show_alert=True)
        return
    live = await svc.games.get(game_id)
    await acknowledge(query)
    svc.renderer.refresh(game_id)
    await svc.notify_listeners(live, [])


async def cmd_hand(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/mano (alias /hand): send the hand message again, as a new private message."""
    svc = services(context)
    chat = update.effective_chat
    user = update.effective_user
    lang = await user_lang(svc, user)  # the hand goes to the private chat
    answer_lang = await chat_lang(svc, chat, user)  # an answer, to the chat it was asked in
    await svc.users.seen(user, private_open=True if chat.type == ChatType.PRIVATE else None)
    if chat.type == ChatType.PRIVATE:
        game_ids = await svc.storage.open_game_ids_of_user(user.id)
    else:
        live = await svc.games.in_chat(chat.id, topic_of(update.effective_message))
        game_ids = (
            [live.game_id] if live is not None and live.row.seat_of(user.id) is not None else []
        )
    lives = [g for g in [await svc.games.get(i) for i in game_ids] if g and g.active]
    if not lives:
        await reply_html(update, svc.tr.get(answer_lang, "hand-none"))
        return
    for live in lives:
        async with live.lock:  # drawn from a whole state, sent once the lock is let go
            seat = live.row.seat_of(user.id)
            content = screens.hand_screen(svc.tr, live, seat, lang, extras=svc.extras)
        try:
            mid = await svc.messenger.send(user.id, content)
        except Forbidden:
            await reply_html(
                update,
                svc.tr.get(answer_lang, "hand-open-private", link=svc.deep_link("hand")),
            )
            return
        async with live.lock:
            seat_row = live.row.seat_row(seat)
            old = seat_row.hand_message_id
            seat_row.hand_message_id = mid
            live.blocked_notified.discard(user.id)
            seat_row.hand_turn = live.turn_started
            await svc.storage.set_hand_message(live.game_id, seat, mid, live.turn_started)
        if old is not None:
            # The old copy would keep live buttons: remove it.
            await svc.messenger.delete(user.id, old)


async def cmd_table(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/tavolo (alias /table): the group's table (or lobby) sent anew at the bottom of the
    chat, the old one taken away."""
    svc = services(context)
    lang = await group_command_lang(svc, update, "table-command-private")
    if lang is None:
        return
    chat = update.effective_chat
    live = await svc.games.in_chat(chat.id, topic_of(update.effective_message))
    if live is None:
        await reply_html(update, svc.tr.get(lang, "table-command-none"))
        return
    svc.renderer.bring_down(live.game_id)


async def cmd_cancel(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/annulla (alias /cancel): the creator or a chat admin cancels the group's game."""
    svc = services(context)
    chat = update.effective_chat
    user = update.effective_user
    lang = await chat_lang(svc, chat, user)
    topic = topic_of(update.effective_message)
    live = await svc.games.in_chat(chat.id, topic) if chat.type != ChatType.PRIVATE else None
    if live is None:
        await reply_html(update, svc.tr.get(lang, "cancel-none"))
        return
    if not await creator_or_admin(context.bot, chat.id, user.id, live.row.creator_id):
        await reply_html(update, svc.tr.get(lang, "alert-cancel-who"))
        return
    async with live.lock:
        done = await cancel_game(svc, live)
    if done:
        svc.renderer.refresh(live.game_id)
        await svc.notify_listeners(live, [])
