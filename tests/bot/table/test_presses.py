"""Button presses that must change nothing (wrong user, old move number, malformed data, a
double press), private chats that are closed or blocked, and Telegram's failures."""

from __future__ import annotations

import asyncio
import random
import sqlite3

import pytest
from telegram import Update

from bot.core.storage import StaleMove
from bot.table.play import perform
from tests.bot.conftest import t


def private_action(table, user):
    """The first action button in a user's hand message: (message, callback data)."""
    msg = table.hand_message(user)
    data = next(d for _, d in msg.buttons if d.startswith("a:"))
    return msg, data


async def snapshot(bot, table):
    """The stored move number and action log of the table's game."""
    game = await bot.svc.storage.get_game(table.game_id)
    return game.move_number, await bot.svc.storage.actions(table.game_id)


async def test_wrong_user_changes_nothing(make_table, fake, bot):
    """A press by somebody who is not at the table, or not the seat to act, is refused with an
    alert and leaves the game as it was."""
    table = make_table(2)
    await table.start("briscola", 2)
    actor, _, _, data = table.visible_actions()[0]
    other = next(u for u in table.users if u is not actor)
    before = await snapshot(bot, table)
    outsider = fake.add_user("Zoe", language_code="it")
    fake.add_member(table.group, outsider)
    # Their presses come from the group's table message, carrying the actor's button data.
    update = await bot.feed(fake.press(outsider, table.table(), data))
    assert fake.answered(update)["text"] == t("alert-not-your-game")
    update = await bot.feed(fake.press(other, table.table(), data))
    assert fake.answered(update)["text"] == t("alert-not-your-turn")
    assert fake.answered(update)["show_alert"]
    assert await snapshot(bot, table) == before


async def test_old_move_number_and_double_press_apply_once(make_table, fake, bot):
    """The same button pressed twice (one after the other, or both at once) plays once; the
    second press gets the "expired" alert."""
    table = make_table(2)
    await table.start("briscola", 2)
    actor, msg, _, data = table.visible_actions()[0]
    first = await bot.feed(fake.press(actor, msg, data))
    assert not fake.answered(first).get("show_alert")
    stale = await bot.feed(fake.press(actor, msg, data))
    assert fake.answered(stale) == {
        **fake.answered(stale),
        "text": t("alert-stale"),
        "show_alert": True,
    }
    move, actions = await snapshot(bot, table)
    assert move == 1 and len(actions) == 1
    # Both presses of a double tap are in flight together.
    actor, msg, _, data = table.visible_actions()[0]
    updates = [fake.press(actor, msg, data), fake.press(actor, msg, data)]
    await asyncio.gather(*(bot.app.process_update(Update.de_json(u, bot.app.bot)) for u in updates))
    await bot.svc.renderer.drain()
    answers = [fake.answered(u) for u in updates]
    assert sorted(bool(a.get("show_alert")) for a in answers) == [False, True]
    move, actions = await snapshot(bot, table)
    assert move == 2 and len(actions) == 2


async def test_malformed_data_changes_nothing(make_table, fake, bot):
    """Data the bot never produced, or naming a card the player does not hold, gets an alert."""
    table = make_table(2)
    await table.start("briscola", 2)
    actor, msg, _, data = table.visible_actions()[0]
    before = await snapshot(bot, table)
    gid, move = data.split(":")[1:3]
    for bad in ("garbage", "a:1:x:7D", "z:1:0:", f"a:{gid}:{move}:QQ", f"a:{gid}:{move}:#9"):
        update = await bot.feed(fake.press(actor, msg, bad))
        answer = fake.answered(update)
        assert answer["show_alert"], bad
        # The engine's reason when it can judge the action ("QQ" is no move at all).
        allowed = (t("alert-malformed"), t("alert-illegal"), t("illegal-unknown-action"))
        assert answer["text"] in allowed, bad
    update = await bot.feed(fake.press(actor, msg, f"a:999:{move}:7D"))
    assert fake.answered(update)["text"] == t("alert-unknown-game")
    assert await snapshot(bot, table) == before


async def test_creator_who_never_opened_the_private_chat(make_table, fake, bot):
    """The creator is not seated until the private chat is open: the join button gives the deep
    link, and the game deals to everybody once it starts."""
    table = make_table(2)
    await table.open_privates([table.users[1]])
    lobby = await table.create("/nuova briscola 2")
    assert "Giocatori: —, —" in lobby.text
    answer = await table.press(table.users[0], lobby, t("btn-join"))
    await bot.feed(fake.follow_url(table.users[0], answer["url"]))
    await table.press(table.users[1], table.lobby(), t("btn-join"))
    table.game_id = int(table.lobby().buttons[0][1].split(":")[1])
    await table.press(table.users[0], table.lobby(), t("btn-start"))
    for user in table.users:
        assert t("hand-cards", cards="") in table.hand_message(user).text


async def test_blocked_player_the_group_is_told_and_the_game_goes_on(make_table, fake, bot):
    """A player who blocks the bot mid-game: the group is told how to fix it; the others keep
    playing; when the player presses Start again the hand comes back and the game finishes."""
    table = make_table(3)
    await table.start("briscola", 3)
    rng = random.Random(5)
    victim = table.users[2]
    await bot.feed(fake.block(victim))
    notice = t("notice-private-closed", player="\x00", bot="@TavolataBot").split("\x00")[0]
    for _ in range(6):
        actions = table.visible_actions()
        if not actions:
            break
        user, msg, _, data = rng.choice(actions)
        await bot.feed(fake.press(user, msg, data))
    notices = [m for m in table.group_messages() if m.text.startswith(notice)]
    assert len(notices) == 1 and victim["first_name"] in notices[0].text
    await bot.feed(fake.start_private(victim))
    assert t("hand-cards", cards="") in table.hand_message(victim).text
    await table.play_to_end(rng)
    assert table.finished()


async def test_hand_command_sends_the_hand_again(make_table, fake, bot):
    """/mano in the group (or /hand in private) sends a fresh hand message; the old copy goes."""
    table = make_table(2)
    await table.start("briscola", 2)
    user = table.users[0]
    old = table.hand_message(user)
    await bot.feed(fake.send_text(user, table.group, "/mano"))
    new = table.hand_message(user)
    assert new.message_id != old.message_id and old.deleted
    assert new.buttons == old.buttons
    await bot.feed(fake.send_text(user, None, "/hand"))
    assert table.hand_message(user).message_id != new.message_id


async def test_every_action_is_committed_before_any_message_is_edited(make_table, fake, bot):
    """When the table message is edited after a card, the database already holds that card."""
    table = make_table(2)
    await table.start("briscola", 2)
    seen = []

    def read_log(params):
        with sqlite3.connect(bot.db_path) as conn:
            seen.append(conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0])
        return False  # only look, never fail

    fake.fail_next("editMessageText", 400, match=read_log, times=1000)
    fake.fail_next("sendMessage", 400, match=read_log, times=1000)
    for expected in (1, 2, 3):
        actor, msg, _, data = table.visible_actions()[0]
        seen.clear()
        await bot.feed(fake.press(actor, msg, data))
        assert seen and min(seen) == expected


async def test_rate_limit_answer_is_retried_and_not_modified_is_ignored(make_table, fake, bot):
    """A 429 on an edit is waited out and retried (AIORateLimiter with max_retries); an edit
    answered "message is not modified" (here: after a restart) raises no error."""
    table = make_table(2)
    await table.start("briscola", 2)
    fake.fail_next("editMessageText", 429, retry_after=1)
    actor, msg, _, data = table.visible_actions()[0]
    await bot.feed(fake.press(actor, msg, data))
    assert [e.error_code for e in fake.errors] == [429]
    next_actor = table.visible_actions()[0][0]
    assert next_actor["first_name"] in table.table().text
    await bot.restart()
    not_modified = [e for e in fake.errors if "not modified" in e.description]
    assert len(not_modified) >= 3  # the table and both hands were already up to date


async def test_a_timed_out_edit_is_tried_again(make_table, fake, bot):
    """A request that times out is tried again, so the table ends up current."""
    table = make_table(2)
    await table.start("briscola", 2)
    fake.fail_next("editMessageText", "timeout", match=lambda p: p["chat_id"] < 0)
    actor, msg, _, data = table.visible_actions()[0]
    await bot.feed(fake.press(actor, msg, data))
    next_actor = table.visible_actions()[0][0]
    assert next_actor["first_name"] in table.table().text


async def test_bids_on_the_table_only_for_the_player_to_speak(make_table, fake, bot):
    """Belòta's bids are buttons on the group's table message: another player pressing one
    gets an alert; the player to speak bids."""
    table = make_table(4)
    await table.start("belota", 4)
    speaker = table.visible_actions()[0][0]  # the bids are in the speaker's hand too
    msg = table.table()
    data = next(d for _, d in msg.buttons if d.startswith(f"a:{table.game_id}:"))
    before = await snapshot(bot, table)
    other = next(u for u in table.users if u is not speaker)
    update = await bot.feed(fake.press(other, msg, data))
    assert fake.answered(update)["text"] == t("alert-not-your-turn")
    assert await snapshot(bot, table) == before
    await bot.feed(fake.press(speaker, msg, data))
    assert (await snapshot(bot, table))[0] == before[0] + 1


async def test_table_edits_are_coalesced_while_telegram_is_slow(make_table, fake, bot):
    """Presses that arrive while a group edit is still on its way are folded into one more
    edit showing the latest state, not one edit per press."""
    table = make_table(3)
    await table.start("briscola", 3)
    messenger = bot.svc.messenger
    original = messenger.show

    async def slow_in_groups(chat_id, message_id, content):
        if chat_id < 0:
            await asyncio.sleep(0.05)  # a group edit held by Telegram's rate limit
        return await original(chat_id, message_id, content)

    messenger.show = slow_in_groups
    edits_before = len(fake.calls_of("editMessageText"))
    group_edits_before = sum(
        1 for p in fake.calls_of("editMessageText") if p["chat_id"] == table.group["id"]
    )
    live = await bot.svc.games.get(table.game_id)
    for _ in range(3):  # three cards in a row, faster than the edits
        game = live.game  # each press makes a new one (played on a copy, then committed)
        seat = game.current_seat
        msg = table.hand_message(table.users[seat])
        code = game.legal_actions(seat)[0]
        data = f"a:{table.game_id}:{game.move_number}:{code}"
        update = fake.press(table.users[seat], msg, data)
        await bot.app.process_update(Update.de_json(update, bot.app.bot))
        assert not fake.answered(update).get("show_alert")
    await bot.svc.renderer.drain()
    group_edits = sum(
        1 for p in fake.calls_of("editMessageText") if p["chat_id"] == table.group["id"]
    )
    assert group_edits - group_edits_before < 3
    assert len(fake.calls_of("editMessageText")) > edits_before
    # The table shows the state after the third card: a finished trick, the winner to lead.
    assert t("table-turn", player=table.users[live.game.current_seat]["first_name"]) in (
        table.table().text
    )


async def test_a_group_that_becomes_a_supergroup_keeps_its_game(make_table, fake, bot):
    """A basic group upgraded to a supergroup: the game follows it to the new chat id and the
    table message is sent there."""
    table = make_table(2)
    table.group = fake.add_group("Gruppo base", members=table.users, type="group")
    await table.start("briscola", 2)
    new_group = fake.migrate_group(table.group)
    for update in fake.updates[-2:]:
        await bot.feed(update)
    table.group = new_group
    actor, msg, _, data = table.visible_actions()[0]
    await bot.feed(fake.press(actor, msg, data))
    assert fake.messages(new_group), "the table moved to the supergroup"
    await table.play_to_end(random.Random(8))
    assert table.finished()


async def test_perform_is_the_seam_for_computer_players_and_timers(make_table, fake, bot):
    """``perform`` applies an action for a seat without a button: committed, rendered, and
    every listener told; an old move number changes nothing."""
    table = make_table(2)
    await table.start("briscola", 2)
    heard = []

    async def listener(svc, live, events):
        heard.append([e["type"] for e in events])

    bot.svc.listeners.append(listener)
    live = await bot.svc.games.get(table.game_id)
    seat = live.game.current_seat
    code = live.game.legal_actions(seat)[0]
    await perform(bot.svc, live, seat, code, move=0)
    await bot.svc.renderer.drain()
    assert heard == [["card_played"]]
    assert (await snapshot(bot, table))[1] == [(seat, code)]
    with pytest.raises(StaleMove):
        await perform(
            bot.svc, live, live.game.current_seat, live.game.legal_actions(1 - seat)[0], move=0
        )
    assert len((await snapshot(bot, table))[1]) == 1
