"""Faults: a schema upgrade from the previous version, unreadable games set aside, presses at the
same moment, and Telegram errors in the middle of a game.

Issue 9: "the bot restarts and the game is gone; a network hiccup breaks a game. None of that
may happen here."
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import random
import sqlite3

import pytest
from telegram import Update

import engine
from bot.core import intake
from bot.core import storage as storage_module
from bot.core.storage import MIGRATIONS, SCHEMA_VERSION, Storage
from bot.delivery import scheduler as render
from tests.bot.conftest import BotRunner, Table, t


async def raw_press(bot, update: dict) -> None:
    """Hand one press to the bot without waiting for the renderer (to overlap presses)."""
    await bot.app.process_update(Update.de_json(update, bot.app.bot))


def replayed(actions: list[tuple[int, str]], row) -> engine.Game:
    """The engine game rebuilt from a stored setup and action log."""
    game = engine.new_game(row.kind, row.players, seed=row.seed, dealer=row.dealer, rules=row.rules)
    for seat, code in actions:
        game.play(seat, code)
    return game


async def test_schema_upgrade_from_the_previous_version_keeps_games_playable(
    fake, tmp_path, monkeypatch
):
    """A database written by the previous version (schema 1, before the turn timers) with a
    game in progress is upgraded in place: the game is kept, its timer starts, and it plays to
    the end."""
    db = tmp_path / "old.sqlite3"
    table = Table(None, fake, 2, "Vecchio tavolo")
    for user in table.users:
        fake.start_private(user)  # they had opened the private chat long ago
    monkeypatch.setattr(storage_module, "MIGRATIONS", MIGRATIONS[:1])
    monkeypatch.setattr(storage_module, "SCHEMA_VERSION", 1)
    old = await Storage.open(db)
    assert await old.schema_version() == 1
    for user in table.users:
        await old.upsert_user(user["id"], user["first_name"], None, "it", private_open=True)
    async with old.transaction() as conn:  # the lobby as version 1 wrote it (no topic)
        cur = await conn.execute(
            "INSERT INTO games (chat_id, chat_title, kind, players, status, creator_id,"
            " creator_name, lang, created_at)"
            " VALUES (?, ?, 'briscola', 2, 'lobby', ?, 'Alice', 'it', '2026-01-01')",
            (table.group["id"], table.group["title"], table.user_ids[0]),
        )
        game_id = cur.lastrowid
    for seat, user in enumerate(table.users):
        await old.take_seat(game_id, seat, user["id"], user["first_name"])
    await old.start_game(game_id, seed=77, dealer=1)
    game = engine.new_game("briscola", 2, seed=77, dealer=1)
    for _ in range(6):
        seat = game.current_seat
        code = game.legal_actions(seat)[0]
        await old.record_action(game_id, game.move_number, seat, code)
        game.play(seat, code)
    await old.close()
    monkeypatch.undo()

    runner = BotRunner(fake, db, itertools.count(500))
    table.bot = runner
    table.game_id = game_id
    await runner.start()
    try:
        assert await runner.svc.storage.schema_version() == SCHEMA_VERSION
        live = await runner.svc.games.get(game_id)
        assert live.active and live.game.view(None) == game.view(None)
        assert game_id in runner.app.bot_data["timers"].armed
        await table.play_to_end(random.Random(2))
        assert table.finished()
    finally:
        await runner.stop()
    runner.check_clean()


async def test_an_unreadable_game_is_set_aside_and_the_others_go_on(make_table, fake, bot):
    """A game whose stored rules or action log cannot be read is set aside (its data kept,
    reported in the log); the other games are reloaded and played, and its group can open a
    new table."""
    tables = [make_table(2) for _ in range(3)]
    for i, table in enumerate(tables):
        await table.start("briscola", 2)
        await table.play_to_end(random.Random(i), stop_after=2)
    await bot.stop()
    conn = sqlite3.connect(bot.db_path)
    conn.execute("UPDATE games SET rules = '{broken' WHERE game_id = ?", (tables[0].game_id,))
    conn.execute(
        "UPDATE actions SET code = 'ZZ' WHERE game_id = ? AND move_number = 1",
        (tables[1].game_id,),
    )
    conn.commit()
    conn.close()
    await bot.start()
    reported = [r.getMessage() for r in bot.errors.records]
    assert len(reported) == 2 and all("set aside" in m for m in reported), reported
    bot.errors.records.clear()
    cur = await bot.svc.storage.conn.execute("SELECT game_id, status FROM set_aside")
    assert sorted(await cur.fetchall()) == sorted(
        [(tables[0].game_id, "active"), (tables[1].game_id, "active")]
    )
    # The stored action log is still there for whoever repairs it.
    assert len(await bot.svc.storage.actions(tables[1].game_id)) == 2
    await tables[2].play_to_end(random.Random(9))
    assert tables[2].finished()
    await tables[0].create("/nuova briscola 2")
    assert (await bot.svc.games.in_chat(tables[0].group["id"])).row.status == "lobby"


async def test_many_presses_of_the_same_button_at_once_apply_exactly_once(make_table, fake, bot):
    """Twenty presses of one button delivered together: one action is committed; every other
    press is told the button is stale; the game goes on."""
    table = make_table(2)
    await table.start("briscola", 2)
    user, msg, _, data = table.visible_actions()[0]
    updates = [fake.press(user, msg, data) for _ in range(20)]
    await asyncio.gather(*(raw_press(bot, u) for u in updates))
    await bot.svc.renderer.drain()
    actions = await bot.svc.storage.actions(table.game_id)
    assert len(actions) == 1
    answers = [fake.answered(u) for u in updates]
    assert sum(1 for a in answers if not a.get("show_alert")) == 1
    assert all(a["text"] == t("alert-stale") for a in answers if a.get("show_alert"))
    await table.play_to_end(random.Random(3))
    assert table.finished()


async def test_presses_in_two_games_at_once_do_not_interfere(make_table, fake, bot):
    """Presses in two games delivered together: each game takes its own action, and each
    stored log replays to exactly the game in memory."""
    tables = [make_table(2), make_table(2)]
    for table in tables:
        await table.start("briscola", 2)
    for _ in range(10):
        presses = []
        for table in tables:
            user, msg, _, data = table.visible_actions()[0]
            presses += [fake.press(user, msg, data) for _ in range(3)]
        await asyncio.gather(*(raw_press(bot, u) for u in presses))
        await bot.svc.renderer.drain()
    for table in tables:
        row = await bot.svc.storage.get_game(table.game_id)
        actions = await bot.svc.storage.actions(table.game_id)
        assert len(actions) == 10
        live = await bot.svc.games.get(table.game_id)
        assert replayed(actions, row).view(None) == live.game.view(None)


@pytest.mark.parametrize(
    ("method", "error", "description"),
    [
        ("editMessageText", 429, None),
        ("editMessageText", 403, "Forbidden: bot was kicked from the group chat"),
        ("editMessageText", 400, "Bad Request: message is not modified"),
        ("editMessageText", 400, "Bad Request: message to edit not found"),
        ("editMessageText", "timeout", None),
        ("answerCallbackQuery", "timeout", None),
    ],
)
async def test_telegram_errors_during_play_do_not_stop_the_game(
    make_table, fake, bot, monkeypatch, method, error, description
):
    """An error from Telegram in the middle of a game (rate limit, forbidden, not modified,
    message lost, timeout: on the group's table edit; a press whose answer times out): the
    action stands, the messages show it, and the game plays on to its end."""
    monkeypatch.setattr("bot.delivery.scheduler.RETRY_DELAY", 0.01)
    # After a group's 429 its calls keep the group's span apart (3 s, Telegram's 20 a minute):
    # a tenth of it here, or the rest of the game waits a minute for its table edits.
    monkeypatch.setattr("bot.delivery.flood.GROUP_SPAN", 0.3)
    table = make_table(2)
    await table.start("briscola", 2)
    await table.play_to_end(random.Random(4), stop_after=3)
    group_id = table.group["id"]
    fake.fail_next(
        method,
        error,
        description,
        retry_after=1 if error == 429 else None,
        # The table's edit, not a hand's: the hand messages go first since the group may wait.
        match=(lambda p: p["chat_id"] == group_id) if method == "editMessageText" else None,
    )
    user, msg, _, data = table.visible_actions()[0]
    update = fake.press(user, msg, data)
    await bot.feed(update)
    assert len(await bot.svc.storage.actions(table.game_id)) == 4
    # The messages show the action even when its press could not be answered: the next
    # player's buttons carry the new move number.
    assert all(f":{table.game_id}:4:" in d for _, _, _, d in table.visible_actions())
    rng = random.Random(5)
    for _ in range(200):  # a Briscola for two has 40 actions: a bound, so a fault cannot hang
        if (await bot.svc.storage.get_game(table.game_id)).status != "active":
            break
        user, msg, _, data = rng.choice(table.visible_actions())
        answer = fake.answered(await bot.feed(fake.press(user, msg, data)))
        assert not answer["show_alert"], answer
    row = await bot.svc.storage.get_game(table.game_id)
    game = replayed(await bot.svc.storage.actions(table.game_id), row)
    assert game.is_over and row.winners == game.winners
    assert json.loads(json.dumps(row.scores)) == json.loads(json.dumps(game.scores))
    # Warnings are expected; errors in the log are not (checked when the bot stops).


async def test_a_timed_out_answer_to_start_still_deals_and_arms_the_game(make_table, fake, bot):
    """The start button's answer times out after the game was committed: the hands are dealt
    all the same and the game's listeners hear of the start (a computer seat plays first)."""
    table = make_table(2)
    await table.seat_everybody("briscola", 2)
    heard = []

    async def listener(svc, live, events):
        heard.append((live.game_id, live.active))

    bot.svc.listeners.append(listener)
    fake.fail_next("answerCallbackQuery", "timeout")
    await table.press(table.users[0], table.lobby(), t("btn-start"))
    assert (table.game_id, True) in heard
    for user in table.users:
        assert t("hand-cards", cards="") in table.hand_message(user).text


async def test_after_an_outage_the_messages_catch_up_within_seconds(make_table, fake, bot):
    """The Bot API cannot be reached for a while (502 from every call) and a press arrives
    meanwhile: its action is committed though nothing can be shown. Once Telegram answers
    again, the messages show it after the renderer's short back-off (a few seconds, not the
    minute it once waited), and the game plays on."""
    table = make_table(2)
    await table.start("briscola", 2)
    user, msg, _, data = table.visible_actions()[0]
    with fake.outage(502):
        await raw_press(bot, fake.press(user, msg, data))
        await bot.svc.renderer.drain()  # the quick tries fail; the pass is put off for later
        assert len(await bot.svc.storage.actions(table.game_id)) == 1
        await asyncio.sleep(1.5)  # the outage goes on: a later pass fails too
    loop = asyncio.get_running_loop()
    back = loop.time()
    while not all(f":{table.game_id}:1:" in d for _, _, _, d in table.visible_actions()):
        assert loop.time() - back < 3 * render.RETRY_CAP, "the messages did not catch up"
        await asyncio.sleep(0.05)
    await bot.svc.renderer.drain()
    await table.play_to_end(random.Random(8))
    assert table.finished()
    # Warnings are expected (Telegram unreachable); errors are not (checked when it stops).


async def test_polling_through_an_outage_warns_once_and_polls_again_soon(fake, bot, caplog):
    """getUpdates while the Bot API cannot be reached: no updates and one warning (not an
    error at each poll), polls a short wait apart; as soon as it answers again, the update
    that waited is delivered."""
    caplog.set_level(logging.WARNING, logger="bot.core.intake")
    user = fake.add_user("Ada", language_code="it")
    polls = bot.app.bot
    with fake.outage(502):
        for _ in range(4):
            assert await polls.get_updates(timeout=0) == ()
        waiting = fake.start_private(user)
    assert polls._poll_wait == intake.POLL_RETRY_CAP
    updates = await polls.get_updates(timeout=0)
    assert [u.update_id for u in updates] == [waiting["update_id"]]
    assert polls._poll_wait == 0
    said = [r.getMessage() for r in caplog.records if r.name == "bot.core.intake"]
    assert len([m for m in said if "cannot poll" in m]) == 1, said
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
