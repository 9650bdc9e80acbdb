"""Computer players through the fake Bot API: seated from the lobby by its creator only, playing
whole games by themselves, and playing their turn after a restart."""

from __future__ import annotations

import asyncio
import random

from telegram import Update

from bot.computers import players as computers
from bot.games import offered_kinds
from tests.bot.conftest import Table, t


async def settle(bot) -> None:
    """Wait until the computer players have played and every message is up to date."""
    await bot.app.bot_data["computers"].drain()
    await bot.svc.renderer.drain()


def add_label(level: str, team: int | None = None) -> str:
    """The text of the lobby's button that seats a computer player."""
    name = t(f"computer-level-{level}")
    if team is None:
        return t("btn-computer-add", level=name)
    return t("btn-computer-add-team", level=name, team=team)


def computer_name(seat: int, level: str) -> str:
    """The name a computer player gets at ``seat``."""
    return t("computer-name", number=seat + 1, level=t(f"computer-level-{level}"))


async def open_lobby(table: Table, command: str) -> None:
    """The first player opens the lobby (and is seated, their private chat being open)."""
    await table.open_privates()
    await table.create(command)
    table.game_id = int(table.lobby().buttons[0][1].split(":")[1])


def group_calls(table: Table, start: int) -> list[tuple[str, dict]]:
    """The Bot API calls made in the group since ``start``."""
    return [
        (method, params)
        for method, params in table.fake.calls[start:]
        if params.get("chat_id") == table.group["id"]
    ]


async def play_humans_to_end(
    table: Table, rng: random.Random, limit: int = 200
) -> list[tuple[int, int]]:
    """The human players press random action buttons until the game ends, the computers
    answering in between; returns, for each human move, the number of group calls and of
    moves made until the computers were done."""
    calls_per_press = []
    for _ in range(limit):
        if table.finished():
            return calls_per_press
        actions = table.visible_actions()
        assert actions, "the humans have nothing to press but the game is not over"
        user, msg, _, data = rng.choice(actions)
        start = len(table.fake.calls)
        before = (await table.bot.svc.games.get(table.game_id)).game.move_number
        update = table.fake.press(user, msg, data)
        await table.bot.feed(update)
        answer = table.fake.answered(update)
        assert answer is not None and not answer.get("show_alert"), answer
        await settle(table.bot)
        live = await table.bot.svc.games.get(table.game_id)
        moves = live.game.move_number - before
        calls_per_press.append((len(group_calls(table, start)), moves))
    raise AssertionError("the game did not end")


async def test_a_human_plays_a_whole_two_player_briscola_against_a_computer(bot, make_table):
    table = make_table(1)
    alice = table.users[0]
    await open_lobby(table, "/nuova briscola 2")
    answer = await table.press(alice, table.lobby(), add_label("normal"))
    assert answer["text"] == t("toast-computer-added")
    assert computer_name(1, "normal") in table.lobby().text
    await table.press(alice, table.lobby(), t("btn-start"))
    await settle(bot)

    await play_humans_to_end(table, random.Random(3))

    row = await bot.svc.storage.get_game(table.game_id)
    assert row.status == "over"
    seats = [seat for seat, _ in await bot.svc.storage.actions(table.game_id)]
    # "Ogni giocatore riceve tre carte" and plays all 20 of their cards in a two-player game.
    assert seats.count(0) == 20 and seats.count(1) == 20
    assert row.seat_row(1).computer == "normal" and row.seat_row(1).user_id is None


async def test_four_player_briscola_with_three_computers_finishes_without_flooding_the_group(
    bot, make_table
):
    table = make_table(1)
    alice = table.users[0]
    await open_lobby(table, "/nuova briscola 4")
    # Alice sits on team 1 (seat 0); a computer joins her, two more face them.
    await table.press(alice, table.lobby(), add_label("easy", team=1))
    await table.press(alice, table.lobby(), add_label("hard", team=2))
    await table.press(alice, table.lobby(), add_label("normal", team=2))
    row = await bot.svc.storage.get_game(table.game_id)
    assert [(s.seat, s.computer) for s in row.seats] == [
        (0, None),
        (1, "hard"),
        (2, "easy"),
        (3, "normal"),
    ]
    # The table is full: no more buttons to seat computers, one to remove each.
    lobby = table.lobby()
    labels = [text for text, _ in lobby.buttons]
    assert not any(text.startswith(add_label("easy", team=1)) for text in labels)
    assert t("btn-computer-remove", name=computer_name(2, "easy")) in labels
    await table.press(alice, lobby, t("btn-start"))
    await settle(bot)

    calls = await play_humans_to_end(table, random.Random(11))

    row = await bot.svc.storage.get_game(table.game_id)
    assert row.status == "over"
    actions = await bot.svc.storage.actions(table.game_id)
    # Every seat played its ten cards (other actions, such as a look at the partner's hand,
    # are not cards).
    cards = [seat for seat, code in actions if len(code) == 2]
    assert [cards.count(seat) for seat in range(4)] == [10, 10, 10, 10]
    # Each human move is answered by up to three computer moves: the group sees at most one
    # table edit per move (bursts coalesce), plus the end-of-game announcement.
    assert all(n_calls <= moves for n_calls, moves in calls[:-1]), calls
    assert calls[-1][0] <= calls[-1][1] + 1, calls
    sent = [p for m, p in group_calls(table, 0) if m == "sendMessage"]
    # The lobby message became the table, and the table the final result: the lobby is the
    # only message sent to the group.
    assert len(sent) == 1, [p["text"] for p in sent]


async def test_a_computer_whose_turn_it_is_at_a_restart_plays(bot, make_table):
    table = make_table(1)
    alice = table.users[0]
    await open_lobby(table, "/nuova briscola 2")
    await table.press(alice, table.lobby(), add_label("normal"))
    await table.press(alice, table.lobby(), t("btn-start"))
    await settle(bot)
    # The computer thinks slowly this time: the bot stops while it waits for its turn.
    bot.app.bot_data["computers"].pause = 3600
    user, msg, _, data = random.Random(1).choice(table.visible_actions())
    await bot.feed(table.fake.press(user, msg, data))
    live = await bot.svc.games.get(table.game_id)
    moves = live.game.move_number
    assert live.game.current_seat == 1
    await bot.restart()
    await settle(bot)

    live = await bot.svc.games.get(table.game_id)
    assert live.game.move_number > moves
    assert live.game.current_seat == 0
    actions = await bot.svc.storage.actions(table.game_id)
    assert actions[moves][0] == 1  # the computer's move, made after the restart
    await play_humans_to_end(table, random.Random(2))


async def test_only_the_creator_seats_and_removes_computer_players(bot, make_table):
    table = make_table(2)
    alice, bob = table.users
    await open_lobby(table, "/nuova briscola 2")
    answer = await table.press(bob, table.lobby(), add_label("hard"))
    assert answer["show_alert"] and answer["text"] == t(
        "alert-creator-only", creator=alice["first_name"]
    )
    row = await bot.svc.storage.get_game(table.game_id)
    assert [s.seat for s in row.seats] == [0]

    await table.press(alice, table.lobby(), add_label("hard"))
    remove = t("btn-computer-remove", name=computer_name(1, "hard"))
    answer = await table.press(bob, table.lobby(), remove)
    assert answer["show_alert"] and answer["text"] == t(
        "alert-creator-only", creator=alice["first_name"]
    )
    row = await bot.svc.storage.get_game(table.game_id)
    assert [(s.seat, s.computer) for s in row.seats] == [(0, None), (1, "hard")]

    answer = await table.press(alice, table.lobby(), remove)
    assert answer["text"] == t("toast-computer-removed")
    row = await bot.svc.storage.get_game(table.game_id)
    assert [s.seat for s in row.seats] == [0]
    assert remove not in [text for text, _ in table.lobby().buttons]
    # The seat is free again for a person.
    await table.press(bob, table.lobby(), t("btn-join"))
    row = await bot.svc.storage.get_game(table.game_id)
    assert [(s.seat, s.user_id) for s in row.seats] == [(0, alice["id"]), (1, bob["id"])]


async def test_a_computer_goes_to_the_chosen_team_and_a_full_team_is_refused(bot, make_table):
    table = make_table(1)
    alice = table.users[0]
    await open_lobby(table, "/nuova briscola 4")
    await table.press(alice, table.lobby(), add_label("normal", team=1))
    row = await bot.svc.storage.get_game(table.game_id)
    assert {s.seat: s.computer for s in row.seats} == {0: None, 2: "normal"}
    # Team 1 is full: its buttons are gone, and an old button is refused.
    lobby = table.lobby()
    assert add_label("normal", team=1) not in [text for text, _ in lobby.buttons]
    update = table.fake.press(alice, lobby, f"C:{table.game_id}:0:easy-0")
    await bot.feed(update)
    answer = table.fake.answered(update)
    assert answer["show_alert"] and answer["text"] == t("alert-team-full")
    # Malformed arguments change nothing.
    for arg in ("easy", "expert-1", "easy-7"):
        update = table.fake.press(alice, lobby, f"C:{table.game_id}:0:{arg}")
        await bot.feed(update)
        assert table.fake.answered(update)["text"] == t("alert-malformed")
    row = await bot.svc.storage.get_game(table.game_id)
    assert len(row.seats) == 2


async def test_a_game_without_computer_players_offers_none(bot, make_table, monkeypatch):
    """A game whose computer players are missing (every game has them today, so one is taken
    away here) shows no button to seat one, and a forged press seats nobody."""
    kind = offered_kinds()[0]
    monkeypatch.setattr(computers, "available", lambda k: k != kind)
    table = make_table(1)
    alice = table.users[0]
    await open_lobby(table, f"/nuova {kind} 2")
    lobby = table.lobby()
    assert not any(d and d.startswith("C:") for _, d in lobby.buttons)
    update = table.fake.press(alice, lobby, f"C:{table.game_id}:0:normal")
    await bot.feed(update)
    assert table.fake.answered(update)["text"] == t("alert-computer-unavailable")
    row = await bot.svc.storage.get_game(table.game_id)
    assert len(row.seats) == 1


async def test_a_table_of_computers_alone_plays_to_the_end_without_a_record(bot, make_table):
    table = make_table(1)
    alice = table.users[0]
    # Alice has not opened her private chat: she opens the table without sitting at it.
    await table.create("/nuova briscola 2")
    table.game_id = int(table.lobby().buttons[0][1].split(":")[1])
    await table.press(alice, table.lobby(), add_label("easy"))
    await table.press(alice, table.lobby(), add_label("normal"))
    await table.press(alice, table.lobby(), t("btn-start"))
    await settle(bot)

    assert table.finished()
    row = await bot.svc.storage.get_game(table.game_id)
    assert row.status == "over" and all(s.user_id is None for s in row.seats)
    cur = await bot.svc.storage.conn.execute("SELECT COUNT(*) FROM results")
    assert (await cur.fetchone())[0] == 0


async def test_computer_moves_made_while_telegram_is_slow_cost_one_more_edit(bot, make_table):
    """The design's "coalesce the edits caused by computer players, never flood": while the
    group's edit is held (Telegram slow, or the rate limiter waiting), the computers keep
    playing, and the table message catches up in one more edit."""
    table = make_table(1)
    alice = table.users[0]
    await table.create("/nuova briscola 4")
    table.game_id = int(table.lobby().buttons[0][1].split(":")[1])
    for team, level in ((1, "easy"), (2, "normal"), (1, "normal"), (2, "easy")):
        await table.press(alice, table.lobby(), add_label(level, team=team))
    messenger = bot.svc.messenger
    show = messenger.show
    gate = asyncio.Event()

    async def slow_show(chat_id, message_id, content, *where):
        if chat_id == table.group["id"]:
            await gate.wait()
        return await show(chat_id, message_id, content, *where)

    messenger.show = slow_show
    start = len(table.fake.calls)
    update = table.fake.press_button(alice, table.lobby(), t("btn-start"))
    await bot.app.process_update(Update.de_json(update, bot.app.bot))
    await bot.app.bot_data["computers"].drain()
    live = await bot.svc.games.get(table.game_id)
    assert live.game.is_over  # the whole game was played while the first edit waited
    gate.set()
    await bot.svc.renderer.drain()
    messenger.show = show

    calls = sorted(m for m, _ in group_calls(table, start))
    # For the whole game: the held edit (drawn when the game started), then the result of the
    # deal and the end of the game in one edit of the table, which was the bot's latest message.
    assert calls == ["editMessageText", "editMessageText"], calls
    assert table.finished()
