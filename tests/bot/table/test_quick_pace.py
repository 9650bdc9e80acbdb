"""Every card shown from the first press, at any pace: robots press 0.3 s apart with the
default settings (Telegram's limits, the group's edit window, the private gap), and every card
played must appear in some version of a group message. The lobby's message becomes the table,
whose first edit comes after several moves: it shows them (``TableLog.start``).

The games run on a virtual clock (``tests.virtual_time``): the waits of the edit window and of
the robots take no real time."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Callable

import pytest
from telegram import Update

import engine
from bot.core.callbacks import action_callback
from bot.games import offered_kinds, ui_for
from tests.bot.conftest import BotRunner, Table, cards_shown
from tests.fake_telegram import FakeTelegram
from tests.virtual_time import VirtualTimeLoop

PACE = 0.3  # seconds between a button showing and the robot's press
LOOK = 0.1  # how often a robot looks for its button
GAMES = [
    (kind, n)
    for kind, n in (("briscola", 2), ("briscola", 4), ("cirulla", 2), ("belota", 4))
    if kind in offered_kinds()
]
# Telegram's figures: the settings left unset.
DEFAULTS = {
    "group_max_rate": None,
    "overall_max_rate": None,
    "group_edit_window": None,
    "private_gap": None,
}


async def press(bot: BotRunner, update: dict) -> None:
    """Hand a press to the bot without waiting for its messages (they follow in the
    background, as in production)."""
    await bot.app.process_update(Update.de_json(update, bot.app.bot))


async def button(fake: FakeTelegram, chat: dict, message_id: Callable[[], int | None], data: str):
    """The message the button ``data`` shows on, once it does (read afresh: a ping sends the
    hand anew and deletes the old one)."""
    for _ in range(10_000):
        mid = message_id()
        if mid is not None:
            msg = fake.message(chat, mid)
            if not msg.deleted and any(d == data for _, d in msg.buttons):
                return msg
        await asyncio.sleep(LOOK)
    raise AssertionError(f"the button {data} never showed")


async def play_to_end(bot: BotRunner, fake: FakeTelegram, table: Table, rng: random.Random):
    """The robots play the table's game to its end, each pressing ``PACE`` seconds after the
    previous press and once its button shows; then every message is brought up to date."""
    live = await bot.svc.games.get(table.game_id)
    ui = ui_for(live.row.kind)
    while not live.game.is_over:
        await asyncio.sleep(PACE)
        game = live.game  # a press commits a new game object: read it afresh
        seat = game.current_seat
        legal = game.legal_actions(seat)
        i = rng.randrange(len(legal))
        data = action_callback(live.game_id, game.move_number, legal[i], i)
        if ui.table_actions(game.view(None)):  # Belòta's bids, on the table
            msg = await button(fake, table.group, lambda: live.row.table_message_id, data)
        else:
            row = live.row.seat_row(seat)
            msg = await button(fake, table.users[seat], lambda r=row: r.hand_message_id, data)
        await press(bot, fake.press(table.users[seat], msg, data))
    await bot.svc.renderer.drain()


async def cards_missing(bot: BotRunner, fake: FakeTelegram, table: Table, start: int) -> list:
    """The cards played in the table's game that no group message showed since call
    ``start`` (any version: what it was sent with, and every edit)."""
    live = await bot.svc.games.get(table.game_id)
    ui = ui_for(live.row.kind)
    pack = engine.GAMES[live.row.kind].pack
    played = [code[:2] for _, code in await bot.svc.storage.actions(table.game_id)]
    played = [code for code in played if code in pack]
    assert len(played) >= len(pack)  # a whole deal at least
    texts = [
        params["text"]
        for method, params in fake.calls[start:]
        if method in ("sendMessage", "editMessageText")
        and params.get("chat_id") == table.group["id"]
    ]
    seen = set().union(*(cards_shown(text, ui.faces) for text in texts))
    return [code for code in played if code not in seen]


async def robot_games(kind: str, players: int, bot: BotRunner, fake: FakeTelegram) -> None:
    """Seat everybody, start, play the whole game at robot pace, then its rematch; each
    time, every card played shows in the group."""
    table = Table(bot, fake, players, "Tavolo svelto")
    await table.seat_everybody(kind, players)
    rng = random.Random(f"{kind}{players}")
    start = len(fake.calls)
    # The start is pressed at robot pace too: the table's first edit comes after moves.
    await press(bot, fake.press_button(table.users[0], table.lobby(), table.t("btn-start")))
    await play_to_end(bot, fake, table, rng)
    assert await cards_missing(bot, fake, table, start) == []
    # The rematch starts at once, its table sent within the window of the result.
    start = len(fake.calls)
    rematch = next(m for m in table.group_messages() if f"m:{table.game_id}:" in str(m.buttons))
    await press(bot, fake.press_button(table.users[1], rematch, table.t("btn-rematch")))
    table.game_id = (await bot.svc.games.in_chat(table.group["id"])).game_id
    await play_to_end(bot, fake, table, rng)
    assert await cards_missing(bot, fake, table, start) == []


@pytest.mark.parametrize(("kind", "players"), GAMES)
def test_every_card_played_at_robot_pace_shows_in_a_group_message(kind, players, tmp_path):
    """Presses 0.3 s apart, Telegram's limits, the default edit window and private gap: each
    card played (those the bot plays itself when nobody has a choice included) shows in the
    group, the first ones too, in a game and in its rematch."""
    fake = FakeTelegram(bot_username="TavolataBot")
    bot = BotRunner(fake, tmp_path / "bot.sqlite3", itertools.count(1000), **DEFAULTS)

    async def scenario() -> None:
        await bot.start()
        try:
            await robot_games(kind, players, bot, fake)
        finally:
            await bot.stop()
        bot.check_clean()

    with asyncio.Runner(loop_factory=VirtualTimeLoop) as runner:
        runner.run(scenario())
