"""Tables in forum topics (issue 29): a table in every topic, each with all its group messages
in its own topic; commands in a topic address its table; General is a plain group; a topic
closed or deleted mid-game leaves the game going on in private, and one that reopens gets its
table back below with nothing lost."""

from __future__ import annotations

import random

import pytest

from tests.bot.conftest import NAMES, BotRunner, Table, t
from tests.fake_telegram import FakeMessage, FakeTelegram


class TopicTable(Table):
    """Players at a table in one topic of a forum (``thread`` None: General)."""

    def __init__(
        self, bot: BotRunner, fake: FakeTelegram, group: dict, users: list, thread: int | None
    ) -> None:
        self.bot, self.fake, self.lang = bot, fake, "it"
        self.users, self.group, self.thread = users, group, thread
        self.game_id = None

    def group_messages(self) -> list[FakeMessage]:
        """The bot's messages in this table's topic."""
        return self.fake.topic_messages(self.group, self.thread)

    async def say(self, text: str, user: dict | None = None) -> FakeMessage:
        """A player writes in the table's topic; returns the bot's last message there."""
        update = self.fake.send_text(user or self.users[0], self.group, text, topic=self.thread)
        await self.bot.feed(update)
        return self.group_messages()[-1]

    async def create(self, command: str) -> FakeMessage:
        """The first player types the lobby command in the topic."""
        return await self.say(command)


@pytest.fixture
def forum(fake, bot):
    """A forum with four players and two topics; returns (group, players, topic ids)."""
    users = [
        fake.add_user(name, username=f"user{i}", language_code="it") for i, name in enumerate(NAMES)
    ]
    group = fake.add_group("Circolo <&>", members=users, forum=True)
    fake.set_admin(group, users[0], owner=True)
    topics = [fake.create_topic(group, name, by=users[0]) for name in ("Briscola", "Cirulla")]
    return group, users, topics


def game_ids_in(messages: list[FakeMessage]) -> set[int]:
    """The games whose buttons these messages carry."""
    found = set()
    for message in messages:
        for _, data in message.buttons:
            parts = (data or "").split(":")
            if len(parts) > 2 and parts[1].isdigit() and int(parts[1]):
                found.add(int(parts[1]))
    return found


async def _two_tables(bot, fake, forum) -> tuple[TopicTable, TopicTable]:
    group, users, (first, second) = forum
    briscola = TopicTable(bot, fake, group, users[:2], first)
    cirulla = TopicTable(bot, fake, group, users[2:], second)
    await briscola.start("briscola", 2)
    await cirulla.start("cirulla", 2)
    return briscola, cirulla


async def test_two_topics_play_two_whole_games_each_in_its_own_topic(bot, fake, forum):
    """Two tables at once in one forum: every group message of each lives in its own topic,
    none in General, and both games end."""
    group = forum[0]
    briscola, cirulla = await _two_tables(bot, fake, forum)
    assert briscola.game_id != cirulla.game_id
    rng = random.Random(29)
    for _ in range(3000):
        playing = [table for table in (briscola, cirulla) if not table.finished()]
        if not playing:
            break
        await rng.choice(playing).play_one(rng)
    assert briscola.finished() and cirulla.finished()
    assert fake.topic_messages(group, None) == []  # nothing in General
    assert game_ids_in(briscola.group_messages()) == {briscola.game_id}
    assert game_ids_in(cirulla.group_messages()) == {cirulla.game_id}
    sent = fake.calls_of("sendMessage")
    in_group = [p for p in sent if p["chat_id"] == group["id"]]
    assert in_group and all(p.get("message_thread_id") in forum[2] for p in in_group)


async def test_commands_in_a_topic_address_its_table_and_general_is_a_plain_group(bot, fake, forum):
    """/nuova, /tavolo and /annulla in a topic act on that topic's table; a second /nuova in a
    topic is refused there, General holds its own table (and its busy answer points to the
    topics), and a plain group's says that topics hold one table each."""
    group, users, _ = forum
    briscola, cirulla = await _two_tables(bot, fake, forum)
    busy = await briscola.say("/nuova briscola 2")
    assert busy.text == t("new-busy-topic")
    general = TopicTable(bot, fake, group, users, None)
    lobby = await general.say("/nuova briscola 2")
    assert "Briscola" in lobby.text and lobby.thread_id is None
    assert (await general.say("/nuova cirulla 2")).text == t("new-busy-general")
    table_before = cirulla.table()
    await cirulla.say("/tavolo")
    assert cirulla.table().message_id > table_before.message_id
    await briscola.say("/annulla")
    assert (await bot.svc.games.get(briscola.game_id)).row.status == "cancelled"
    assert (await bot.svc.games.get(cirulla.game_id)).row.status == "active"
    assert (await bot.svc.games.in_chat(group["id"])).row.lobby_message_id == lobby.message_id
    plain = fake.add_group("Senza argomenti", members=users[:2])
    for _ in range(2):
        await bot.feed(fake.send_text(users[0], plain, "/nuova briscola 2"))
    assert fake.last_message(plain).text == t("new-busy")
    assert "argomento" in t("new-busy")


async def test_a_topic_closed_mid_game_plays_on_and_gets_everything_back_when_reopened(
    bot, fake, forum
):
    """The briscola topic is closed mid-game: the players go on from their private hands to
    the end, the bot stops writing there (no retry at every move, nothing logged as an error:
    the bot fixture checks), and when the topic reopens the results come back below."""
    group, users, (first, _) = forum
    briscola, cirulla = await _two_tables(bot, fake, forum)
    rng = random.Random(7)
    await briscola.play_to_end(rng, stop_after=6)
    fake.close_topic(group, first, by=users[0])
    await bot.feed(fake.updates[-1])
    closed_at = len(fake.calls)
    await briscola.play_to_end(rng, stop_after=10)
    await cirulla.play_to_end(rng, stop_after=10)  # the other topic goes on as usual
    while (await bot.svc.games.get(briscola.game_id)).row.status == "active":
        await briscola.play_one(rng)
    tried = [
        p
        for m, p in fake.calls[closed_at:]
        if m == "sendMessage" and p.get("message_thread_id") == first
    ]
    assert len(tried) <= 1
    assert not briscola.finished()  # its end is still to be told
    fake.reopen_topic(group, first, by=users[0])
    await bot.feed(fake.updates[-1])
    assert briscola.finished()
    assert await bot.svc.storage.outbox(briscola.game_id) == []
    last = briscola.group_messages()[-1]
    assert any(d.startswith(f"m:{briscola.game_id}:") for _, d in last.buttons)  # rematch
    assert fake.topic_messages(group, None) == []


async def test_a_topic_deleted_mid_game_leaves_the_game_to_the_private_chats(bot, fake, forum):
    """A deleted topic: the game is played to its end from the private hands, and the bot
    does not keep trying to write into a topic that no longer exists."""
    group, _, (first, _) = forum
    briscola, _ = await _two_tables(bot, fake, forum)
    rng = random.Random(11)
    await briscola.play_to_end(rng, stop_after=4)
    fake.delete_topic(group, first)
    deleted_at = len(fake.calls)
    while (await bot.svc.games.get(briscola.game_id)).row.status == "active":
        await briscola.play_one(rng)
    tried = [
        p
        for m, p in fake.calls[deleted_at:]
        if m == "sendMessage" and p.get("message_thread_id") == first
    ]
    assert len(tried) <= 1
    assert fake.topic_messages(group, None) == []


async def test_results_that_waited_for_a_closed_topic_survive_a_restart(bot, fake, forum):
    """A game ends while its topic is closed, and the bot restarts before the topic reopens:
    the reopening still brings the results that waited."""
    group, users, (first, _) = forum
    briscola, _ = await _two_tables(bot, fake, forum)
    fake.close_topic(group, first, by=users[0])
    await bot.feed(fake.updates[-1])
    rng = random.Random(3)
    while (await bot.svc.games.get(briscola.game_id)).row.status == "active":
        await briscola.play_one(rng)
    await bot.restart()
    assert not briscola.finished()
    fake.reopen_topic(group, first, by=users[0])
    await bot.feed(fake.updates[-1])
    assert briscola.finished()
    assert await bot.svc.storage.outbox(briscola.game_id) == []


async def test_a_player_who_blocked_the_bot_plays_from_the_topic(bot, fake, forum):
    """The "play here" way, in a topic: the notice about the closed private chat, the inline
    choice sent into the topic and the bot's answer to a stale one all stay in that topic."""
    from tests.bot.table.test_inline_play import all_results

    group, users, (first, _) = forum
    table = TopicTable(bot, fake, group, users[:2], first)
    await table.seat_everybody("briscola", 2)
    await bot.feed(fake.block(users[1]))
    await table.press(users[0], table.lobby(), t("btn-start"))
    notice = t("notice-private-closed", player="\x00", bot="@TavolataBot").split("\x00")[0]
    assert any(m.text.startswith(notice) for m in table.group_messages())
    rng = random.Random(5)
    game = (await bot.svc.games.get(table.game_id)).game
    if game.current_seat != 1:
        await table.play_one(rng)
    update, results = await all_results(table, users[1])
    for _ in range(2):  # the second is stale: the bot says so, in the topic
        msg = fake.choose_inline_result(
            users[1], update, results[0][1]["id"], chat=group, topic=first
        )
        assert msg.thread_id == first and msg.topic_message
        await bot.feed(fake.delivery(msg))
    reply = table.group_messages()[-1]
    assert reply.reply_to is not None and reply.reply_to.via_bot is not None
    assert fake.topic_messages(group, None) == []


async def test_each_tables_edit_window_widens_with_the_tables_playing_in_its_group():
    """The group's tables share its budget: after a call, a table alone waits the group's
    window; one of two tables playing in the group waits twice as long, one of four four
    times, and a call of one table opens no window for another (its own share)."""
    from bot.delivery.pacing import Pacing

    pacing = Pacing(window=3.0)
    pacing.group_called(1)
    assert pacing.group_wait(2, tables=2) == 0.0  # table 2 has not called: it may go
    for tables in (1, 2, 4):
        # What is left of the window: all of it, less the moment since the call.
        assert 3.0 * tables - 1 < pacing.group_wait(1, tables=tables) <= 3.0 * tables
    with pacing.hurry():
        assert pacing.group_wait(1, tables=4) == 0.0
