"""Turn timers and tables that close themselves, driven by a clock moved by hand (no sleeping).

Issue 9: "a player walks away and the table is stuck; the bot restarts and the game is gone" —
neither may happen: a reminder at half time, a computer move on expiry, the seat taken over
after three expiries in a row until its owner comes back, timers re-armed after a restart with
the time they had left, stale lobbies and idle games closed.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.timers import turns as timers_module
from bot.timers.choices import parse_turn
from bot.timers.turns import IDLE_CLOSE, LOBBY_TTL, MAX_MISSES
from tests.bot.conftest import t


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    """The timers' clock, moved by hand."""
    c = Clock()
    monkeypatch.setattr(timers_module, "clock", c)
    return c


def timers(bot):
    """The running application's timers."""
    return bot.app.bot_data["timers"]


async def tick(bot, clock: Clock, seconds: float) -> None:
    """Move the clock on and let the timers run once, then wait for every message."""
    clock.now += seconds
    await timers(bot).tick()
    await timers(bot).drain()
    await bot.svc.renderer.drain()


async def game_state(bot, game_id: int):
    """The engine game as stored (rebuilt from the database, not from memory)."""
    row = await bot.svc.storage.get_game(game_id)
    actions = await bot.svc.storage.actions(game_id)
    return row, actions


async def press_for(table, user: dict) -> None:
    """``user`` presses the first action button of their hand message."""
    msg = table.hand_message(user)
    data = next(d for _, d in msg.buttons if d.startswith(f"a:{table.game_id}:"))
    await table.bot.feed(table.fake.press(user, msg, data))
    await timers(table.bot).drain()
    await table.bot.svc.renderer.drain()


def current_user(table, live) -> dict:
    """The user whose turn it is."""
    return table.users[live.game.current_seat]


def test_parse_turn_accepts_the_five_choices_only():
    """The timer is off, 30 s, 1, 2 or 5 minutes; anything else is refused."""
    assert [parse_turn(w) for w in ("off", "30s", "1m", "2m", "5m")] == [0, 30, 60, 120, 300]
    assert parse_turn("7m") is None and parse_turn("") is None


async def test_reminder_at_half_time_then_the_computer_plays_the_turn(make_table, fake, bot, clock):
    """Half time: the player is reminded in private, by their hand sent afresh with the time
    left (a ping) and the old one deleted; expiry: a legal move is made for them, and no
    reminder is left behind."""
    table = make_table(2)
    await table.start("briscola", 2)
    live = await bot.svc.games.get(table.game_id)
    user = current_user(table, live)
    seat = live.game.current_seat
    pinged = table.hand_message(user)
    await tick(bot, clock, 59)
    assert table.hand_message(user) is pinged, "no reminder before half time"
    await tick(bot, clock, 2)
    reminder = table.hand_message(user)
    assert reminder.message_id > pinged.message_id and pinged.deleted
    assert t("hand-reminder", seconds=59) in reminder.text and reminder.buttons
    assert [m for m in fake.messages(user) if not m.deleted][-1] is reminder
    assert live.game.move_number == 0
    await tick(bot, clock, 60)
    row, actions = await game_state(bot, table.game_id)
    assert row.move_number == 1 and actions[0][0] == seat
    assert "⏳" not in table.hand_message(user).text
    expired = fake.last_message(table.group)
    assert expired.text.startswith("⌛") and user["first_name"] in expired.text
    # The next player's timer runs from the computer's move.
    assert timers(bot).armed[table.game_id].seat == live.game.current_seat


async def test_three_expiries_in_a_row_hand_the_seat_to_the_computer_until_it_comes_back(
    make_table, fake, bot, clock
):
    """After three expiries in a row the computer plays the seat at once, every turn, until
    its owner presses "I'm back"; a stranger's press changes nothing."""
    table = make_table(2)
    await table.start("briscola", 2)
    live = await bot.svc.games.get(table.game_id)
    away_seat = live.game.current_seat
    away_user, other = table.users[away_seat], table.users[1 - away_seat]
    expiries = 0
    while expiries < MAX_MISSES:
        if live.game.current_seat == away_seat:
            await tick(bot, clock, 121)
            expiries += 1
        else:
            await press_for(table, other)
    assert (table.game_id, away_seat) in timers(bot).away
    takeover = next(m for m in table.group_messages() if m.buttons and m.text.startswith("🤖"))
    # From now on the computer plays that seat without waiting.
    for _ in range(3):
        if live.game.current_seat == away_seat:
            break
        await press_for(table, other)
    assert live.game.current_seat != away_seat
    # A stranger cannot come back for them.
    answer = await table.press(other, takeover, t("btn-timer-back"))
    assert answer["show_alert"] and answer["text"] == t("alert-timer-back-who")
    assert (table.game_id, away_seat) in timers(bot).away
    answer = await table.press(away_user, takeover, t("btn-timer-back"))
    assert answer["text"] == t("toast-timer-back")
    assert (table.game_id, away_seat) not in timers(bot).away
    assert timers(bot).misses[(table.game_id, away_seat)] == 0
    for _ in range(4):
        if live.game.current_seat == away_seat:
            break
        await press_for(table, other)
    assert live.game.current_seat == away_seat, "back at the table: the seat waits for them"
    assert timers(bot).armed[table.game_id].seat == away_seat


async def test_a_move_in_time_ends_the_run_of_expiries(make_table, fake, bot, clock):
    """Expiries count "in a row": a move made in time starts the count again."""
    table = make_table(2)
    await table.start("briscola", 2)
    live = await bot.svc.games.get(table.game_id)
    seat = live.game.current_seat
    await tick(bot, clock, 121)
    assert timers(bot).misses[(table.game_id, seat)] == 1
    await press_for(table, table.users[1 - seat])
    await press_for(table, table.users[seat])
    assert timers(bot).misses[(table.game_id, seat)] == 0


async def test_timers_are_rearmed_after_a_restart_with_the_time_left(make_table, fake, bot, clock):
    """A timer stopped with 70 s left has 70 s left after the restart, however long the bot
    was down; the takeover of a seat survives the restart too."""
    table = make_table(2)
    await table.start("briscola", 2)
    game_id = table.game_id
    await tick(bot, clock, 50)  # the heartbeat records that the bot was alive at +50 s
    clock.now += 1000  # the bot is down for a while
    await bot.restart()
    armed = timers(bot).armed[game_id]
    assert armed.deadline == pytest.approx(clock.now + 70)
    live = await bot.svc.games.get(game_id)
    await tick(bot, clock, 69)
    assert live.game.move_number == 0
    await tick(bot, clock, 2)
    assert live.game.move_number == 1


async def test_takeover_survives_a_restart(make_table, fake, bot, clock):
    """A seat played by the computer is still played by it after a restart."""
    table = make_table(2)
    await table.start("briscola", 2)
    live = await bot.svc.games.get(table.game_id)
    seat = live.game.current_seat
    other = table.users[1 - seat]
    expiries = 0
    while expiries < MAX_MISSES:
        if live.game.current_seat == seat:
            await tick(bot, clock, 121)
            expiries += 1
        else:
            await press_for(table, other)
    await bot.restart()
    assert (table.game_id, seat) in timers(bot).away
    live = await bot.svc.games.get(table.game_id)
    await press_for(table, other)
    assert live.game.current_seat != seat or live.game.is_over


async def test_timer_set_in_the_lobby_and_fixed_during_the_game(make_table, fake, bot, clock):
    """/tempo in the lobby sets this game's timer and the group's default; "off" means no
    timer at all; during the game it cannot change."""
    table = make_table(2)
    await table.open_privates()
    await table.create("/nuova briscola 2")
    await bot.feed(fake.send_text(table.users[0], table.group, "/tempo 9m"))
    assert fake.last_message(table.group).text == t("timer-bad-choice")
    await bot.feed(fake.send_text(table.users[1], table.group, "/tempo off"))
    assert fake.last_message(table.group).text == t("timer-who")
    await bot.feed(fake.send_text(table.users[0], table.group, "/tempo off"))
    assert fake.last_message(table.group).text == t("timer-set", seconds=0)
    await table.press(table.users[1], table.lobby(), t("btn-join"))
    table.game_id = int(table.lobby().buttons[0][1].split(":")[1])
    await table.press(table.users[0], table.lobby(), t("btn-start"))
    assert table.game_id not in timers(bot).armed
    await tick(bot, clock, 3600)
    live = await bot.svc.games.get(table.game_id)
    assert live.game.move_number == 0, "no timer: nobody plays for the player"
    await bot.feed(fake.send_text(table.users[0], table.group, "/tempo 30s"))
    assert fake.last_message(table.group).text == t("timer-during-game")
    await bot.feed(fake.send_text(table.users[0], table.group, "/tempo"))
    assert fake.last_message(table.group).text == t("timer-current", seconds=0)


async def test_group_default_follows_a_migrated_group(make_table, fake, bot, clock):
    """The chat moving to a supergroup keeps its default timer and its game."""
    table = make_table(2)
    table.group = fake.add_group("Gruppo base", members=table.users, type="group")
    await table.open_privates()
    await table.create("/nuova briscola 2")
    await bot.feed(fake.send_text(table.users[0], table.group, "/tempo 30s"))
    new_group = fake.migrate_group(table.group)
    for update in fake.updates[-2:]:
        await bot.feed(update)
    assert await timers(bot).chat_default(new_group["id"]) == 30
    live = await bot.svc.games.in_chat(new_group["id"])
    assert live is not None and live.row.status == "lobby"


async def test_a_lobby_not_started_in_30_minutes_closes(make_table, fake, bot, clock):
    """Lobbies not started in 30 minutes close themselves, with a message in the group."""
    table = make_table(2)
    await table.open_privates()
    await table.create("/nuova briscola 2")
    live = await bot.svc.games.in_chat(table.group["id"])
    await tick(bot, clock, 60)
    assert live.row.status == "lobby"
    await tick(bot, clock, LOBBY_TTL)
    row = await bot.svc.storage.get_game(live.game_id)
    assert row.status == "cancelled"
    assert fake.last_message(table.group).text == t("timer-lobby-expired", minutes=30)
    # The group can open a new table at once.
    await table.create("/nuova briscola 2")
    assert (await bot.svc.games.in_chat(table.group["id"])).row.status == "lobby"


async def test_a_game_idle_for_days_is_closed_with_a_message(make_table, fake, bot, clock):
    """A game with no move for days is closed with a message (its timer was off)."""
    table = make_table(2)
    await table.open_privates()
    await table.create("/nuova briscola 2")
    await bot.feed(fake.send_text(table.users[0], table.group, "/tempo off"))
    await table.press(table.users[1], table.lobby(), t("btn-join"))
    table.game_id = int(table.lobby().buttons[0][1].split(":")[1])
    await table.press(table.users[0], table.lobby(), t("btn-start"))
    await tick(bot, clock, IDLE_CLOSE - 3600)
    assert (await bot.svc.storage.get_game(table.game_id)).status == "active"
    await tick(bot, clock, 7200)
    assert (await bot.svc.storage.get_game(table.game_id)).status == "cancelled"
    assert fake.last_message(table.group).text == t("timer-idle-closed", days=IDLE_CLOSE // 86400)
    assert table.game_id not in timers(bot).turn


async def test_the_bot_removed_from_a_group_closes_its_game(make_table, fake, bot, clock):
    """Removed from a group, the bot closes that group's game (and its timer stops)."""
    table = make_table(2)
    await table.start("briscola", 2)
    await bot.feed(fake.remove_bot(table.group))
    assert (await bot.svc.storage.get_game(table.game_id)).status == "cancelled"
    assert table.game_id not in timers(bot).armed
    await tick(bot, clock, 600)


async def test_lobby_timer_button_cycles_the_choices_for_that_game_only(
    make_table, fake, bot, clock
):
    """Issue 9: "a turn timer per game (off, 30 s, 1, 2 or 5 minutes; a group default,
    changeable in the lobby)". The lobby shows the timer; the button in the house rules' panel
    (the creator only) moves this game to the next choice, wrapping round after 5 minutes; the
    group's default stays; the game starts with the timer chosen."""
    table = make_table(2)
    await table.seat_everybody("briscola", 2)
    await bot.feed(fake.send_text(table.users[0], table.group, "/tempo 1m"))
    assert t("lobby-timer", seconds=60) in table.lobby().text
    await table.press(table.users[0], table.lobby(), t("btn-rules"))
    other = await table.press(table.users[1], table.lobby(), t("btn-timer", seconds=60))
    assert other["show_alert"]
    assert other["text"] == t("alert-creator-only", creator=table.users[0]["first_name"])
    seen = []
    for expected in (120, 300, 0, 30, 60, 120):
        label = next(text for text, _ in table.lobby().buttons if text.startswith("⏱️"))
        answer = await table.press(table.users[0], table.lobby(), label)
        assert answer["text"] == t("timer-set", seconds=expected)
        assert t("lobby-timer", seconds=expected) in table.lobby().text
        seen.append(expected)
    assert sorted(set(seen)) == [0, 30, 60, 120, 300]
    # A second press of an old button sets the value it names again: nothing runs twice.
    old_data = f"t:{table.game_id}:0:1"
    update = await bot.feed(fake.press(table.users[0], table.lobby(), old_data))
    assert fake.answered(update)["text"] == t("timer-set", seconds=30)
    for bad in (f"t:{table.game_id}:0:5", f"t:{table.game_id}:0:x"):
        update = await bot.feed(fake.press(table.users[0], table.lobby(), bad))
        assert fake.answered(update)["text"] == t("alert-malformed")
    assert await timers(bot).chat_default(table.group["id"]) == 60
    await table.press(table.users[0], table.lobby(), t("btn-rules-done"))
    await table.press(table.users[0], table.lobby(), t("btn-start"))
    assert timers(bot).turn[table.game_id] == 30
    assert timers(bot).armed[table.game_id].deadline == pytest.approx(clock.now + 30)
    update = await bot.feed(fake.press(table.users[0], table.table(), old_data))
    assert fake.answered(update)["text"] == t("alert-lobby-closed")
    assert timers(bot).turn[table.game_id] == 30


async def test_the_lobby_shows_the_group_default_after_a_restart(make_table, fake, bot, clock):
    """A group's default timer, set by an admin before, is what a new lobby shows, after a
    restart too."""
    table = make_table(2)
    await table.open_privates()
    fake.set_admin(table.group, table.users[0])
    await bot.feed(fake.send_text(table.users[0], table.group, "/tempo 5m"))
    assert fake.last_message(table.group).text == t("timer-set", seconds=300)
    await bot.restart()
    await table.create("/nuova briscola 2")
    assert t("lobby-timer", seconds=300) in table.lobby().text


async def test_a_press_and_the_next_turns_timer_are_one_commit(make_table, bot, clock):
    """A card played arms the next player's timer in the press's own transaction: one commit
    per press (a second one, for the timer alone, used to follow every press; the renderer's
    own writes, such as a ping's new message id, are apart), and the stored timer is the one
    running, for the next seat and move."""
    table = make_table(2)
    await table.start("briscola", 2)
    live = await bot.svc.games.get(table.game_id)
    storage = bot.svc.storage
    commits = 0
    transaction = storage.transaction

    def counted():
        nonlocal commits
        if asyncio.current_task() not in bot.svc.renderer._tasks.values():
            commits += 1
        return transaction()

    storage.transaction = counted
    try:
        for _ in range(3):
            await press_for(table, current_user(table, live))
    finally:
        del storage.transaction
    assert commits == 3
    running = timers(bot).armed[table.game_id]
    assert (running.seat, running.move) == (live.game.current_seat, live.game.move_number)
    cur = await storage.conn.execute(
        "SELECT seat, move_number, deadline FROM turn_timers WHERE game_id = ?", (table.game_id,)
    )
    assert tuple(await cur.fetchone()) == (running.seat, running.move, running.deadline)
