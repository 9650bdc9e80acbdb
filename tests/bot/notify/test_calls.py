"""The call for the next game (``/avvisami``, ``/notify``): told in private when a table opens
where one asked, with a button that seats; one call an hour per person and group; ``off``
stops it; a person who blocked the bot is dropped quietly."""

from __future__ import annotations

import pytest

from tests.bot.conftest import t
from tests.translator import TR


@pytest.fixture
def clock(bot):
    """The calls' clock, moved on by hand (seconds since the epoch)."""
    now = [1_000_000.0]
    bot.app.bot_data["table_calls"].clock = lambda: now[0]
    return now


def calls_to(fake, user) -> list:
    """The private calls a user received."""
    return [m for m in fake.messages(user) if m.text.startswith("🔔")]


async def test_a_table_that_opens_calls_who_asked_and_the_button_seats_them(
    make_table, fake, bot, clock
):
    table = make_table(2)
    await table.open_privates()
    alice, bob = table.users
    await bot.feed(fake.send_text(bob, table.group, "/avvisami"))
    assert fake.last_message(table.group).text.startswith("🔔 Bob_*")
    await table.create("/nuova briscola 2")
    (call,) = calls_to(fake, bob)
    assert "Briscola · 2 giocatori" in call.text and table.group["title"] in call.text
    assert not calls_to(fake, alice)  # whoever opened it is not called
    await bot.feed(fake.press_button(bob, call, t("btn-call-sit")))
    assert "Bob_*" in table.lobby().text
    assert t("btn-start") in [text for text, _ in table.lobby().buttons]


async def test_at_most_one_call_an_hour_per_person_and_group(make_table, fake, bot, clock):
    table = make_table(2)
    await table.open_privates()
    alice, bob = table.users
    await bot.feed(fake.send_text(bob, table.group, "/notify"))
    for _ in range(2):
        await table.create("/nuova briscola 2")
        await table.press(alice, table.lobby(), t("btn-cancel"))
    assert len(calls_to(fake, bob)) == 1
    clock[0] += 3601
    await table.create("/nuova cirulla 2")
    assert len(calls_to(fake, bob)) == 2 and "Cirulla" in calls_to(fake, bob)[-1].text


async def test_off_stops_the_calls_and_a_menu_lobby_calls_once_its_game_is_chosen(
    make_table, fake, bot, clock
):
    table = make_table(2)
    await table.open_privates()
    alice, bob = table.users
    await bot.feed(fake.send_text(bob, table.group, "/avvisami"))
    menu = await table.create("/nuova")
    assert not calls_to(fake, bob)  # no game to sit at yet
    await table.press(alice, menu, "Briscola · 3 giocatori")
    assert "Briscola · 3 giocatori" in calls_to(fake, bob)[-1].text
    await table.press(alice, table.lobby(), t("btn-cancel"))
    await bot.feed(fake.send_text(bob, table.group, "/avvisami off"))
    assert fake.last_message(table.group).text.startswith("🔕")
    clock[0] += 7200
    await table.create("/nuova briscola 2")
    assert len(calls_to(fake, bob)) == 1


async def test_a_person_who_blocked_the_bot_is_dropped_quietly(make_table, fake, bot, clock):
    table = make_table(2)
    await table.open_privates()
    bob = table.users[1]
    await bot.feed(fake.send_text(bob, table.group, "/avvisami"))
    fake.block(bob)  # the bot is not told (no update fed): it learns at the call
    await table.create("/nuova briscola 2")
    assert not calls_to(fake, bob)
    cur = await bot.svc.storage.conn.execute("SELECT COUNT(*) FROM table_calls")
    assert (await cur.fetchone())[0] == 0
    assert not (await bot.svc.users.get(bob["id"])).private_open
    # bot.check_clean() at the end: nothing logged as an error.


async def test_someone_without_the_private_chat_is_shown_how_to_open_it(make_table, fake, bot):
    table = make_table(2)
    await table.open_privates([table.users[0]])
    await bot.feed(fake.send_text(table.users[1], table.group, "/avvisami"))
    answer = fake.last_message(table.group).text
    assert "https://t.me/TavolataBot?start=avvisami" in answer
    await bot.feed(fake.send_text(table.users[0], None, "/avvisami"))
    assert fake.last_message(table.users[0]).text == t("call-group-only")
    await bot.feed(fake.send_text(table.users[0], table.group, "/avvisami domani"))
    assert fake.last_message(table.group).text == t("call-usage")


async def test_a_call_asked_in_a_topic_comes_from_that_topic_only(fake, bot, clock):
    alice = fake.add_user("Alice", language_code="it")
    bob = fake.add_user("Bob", language_code="en")
    group = fake.add_group("Carte", members=[alice, bob], forum=True)
    briscola = fake.create_topic(group, "Briscola", by=alice)
    belota = fake.create_topic(group, "Belòta", by=alice)
    for user in (alice, bob):
        await bot.feed(fake.start_private(user))
    await bot.feed(fake.send_text(bob, group, "/notify", topic=belota))
    assert fake.last_message(group).text.startswith("🔔 Bob, I")
    await bot.feed(fake.send_text(alice, group, "/nuova briscola 2", topic=briscola))
    assert not calls_to(fake, bob)
    await bot.feed(fake.send_text(alice, group, "/nuova belota 4", topic=belota))
    (call,) = calls_to(fake, bob)
    # In Bob's language, whatever the group's.
    assert TR.get("en", "btn-call-sit") in [text for text, _ in call.buttons]
    assert "Belòta · 4 players, in pairs" in call.text
