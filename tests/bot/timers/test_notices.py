"""The notices a game posts besides its table (a turn timer's notice, a player's private chat
closed) go through the delivery like the table: into the game's forum topic, counted in its
group's edit window, and kept through a 429 or a closed topic until they can go (nothing lost,
nothing logged as an error)."""

from __future__ import annotations

import itertools

import pytest

from tests.bot.conftest import BotRunner, t
from tests.bot.table.test_topics import TopicTable
from tests.bot.timers import test_timers
from tests.bot.timers.test_timers import current_user, tick

clock = test_timers.clock  # the timers' clock, moved by hand (a fixture)

EXPIRED = t("timer-expired", player="\x00").split("\x00")[0]
CLOSED = t("notice-private-closed", player="\x00", bot="").split("\x00")[0]
TOPIC_CLOSED = "TOPIC_CLOSED"


@pytest.fixture
async def strict_bot(fake, tmp_path):
    """A bot whose Bot API client gives up at the first 429 (no retry of its own): what is
    refused is the delivery's to try again."""
    runner = BotRunner(fake, tmp_path / "bot.sqlite3", itertools.count(1000), max_retries=0)
    await runner.start()
    yield runner
    await runner.stop()
    runner.check_clean()


async def _topic_table(bot, fake) -> tuple[TopicTable, dict, int]:
    users = [fake.add_user(name, language_code="it") for name in ("Alice", "Bob")]
    group = fake.add_group("Circolo", members=users, forum=True)
    fake.set_admin(group, users[0], owner=True)
    topic = fake.create_topic(group, "Briscola", by=users[0])
    table = TopicTable(bot, fake, group, users, topic)
    await table.start("briscola", 2)
    return table, group, topic


def _expired(fake, group, thread) -> list:
    return [m for m in fake.topic_messages(group, thread) if m.text.startswith(EXPIRED)]


async def test_timer_notices_outlast_a_429_and_a_closed_topic_in_the_games_topic(
    fake, strict_bot, clock
):
    """A timer's notice refused with a 429 goes once Telegram lets it (once: no double);
    one refused by a topic closed unknown to the bot waits, the game going on, and comes
    when the topic reopens, above the table sent anew. All in the game's topic."""
    bot = strict_bot
    table, group, topic = await _topic_table(bot, fake)
    users = table.users
    fake.fail_next(
        "sendMessage", 429, retry_after=1, match=lambda p: p.get("message_thread_id") == topic
    )
    first = current_user(table, await bot.svc.games.get(table.game_id))
    await tick(bot, clock, 121)
    assert any(e.error_code == 429 for e in fake.errors)
    (notice,) = _expired(fake, group, topic)
    assert first["first_name"] in notice.text
    live = await bot.svc.games.get(table.game_id)
    assert live.game.move_number == 1  # the computer played for them meanwhile

    fake.close_topic(group, topic, by=users[0])  # the bot is not told: it learns by refusal
    second = current_user(table, live)
    await tick(bot, clock, 121)
    assert any(TOPIC_CLOSED in e.description for e in fake.errors)
    assert len(_expired(fake, group, topic)) == 1  # not yet: the topic refused it
    assert live.game.move_number == 2  # the game goes on meanwhile
    fake.reopen_topic(group, topic, by=users[0])
    await bot.feed(fake.updates[-1])
    notices = _expired(fake, group, topic)
    assert len(notices) == 2 and second["first_name"] in notices[1].text
    assert table.table().message_id > notices[1].message_id  # the table came back below
    assert fake.topic_messages(group, None) == []


async def test_a_notice_opens_its_groups_edit_window_like_any_group_message(fake, bot):
    """The notice that a player's private chat is closed is a group call of the game: it goes
    into the game's topic and opens the group's edit window, so that the table's next edit
    keeps its distance from it (the window the topics of a forum share)."""
    table, group, topic = await _topic_table(bot, fake)
    live = await bot.svc.games.get(table.game_id)
    waiting = table.users[1 - live.game.current_seat]
    pacing = bot.svc.renderer.pacing
    pacing.window = 30.0
    pacing.forget_group(table.game_id)  # the table's own calls are long past
    try:
        assert pacing.group_wait(table.game_id) == 0
        before = len(fake.calls)
        await bot.feed(fake.block(waiting))
        group_calls = [(m, p) for m, p in fake.calls[before:] if p.get("chat_id") == group["id"]]
        assert [m for m, _ in group_calls] == ["sendMessage"]  # the notice, nothing else
        assert group_calls[0][1]["message_thread_id"] == topic
        notice = fake.topic_messages(group, topic)[-1]
        assert notice.text.startswith(CLOSED)
        assert pacing.group_wait(table.game_id) > 25
    finally:
        pacing.window = 0.0
