"""Whole games under Telegram's own 429s (issue 32): a Bot API that refuses past a few calls a
second in all (answers to presses counted) and past one a second in each private chat,
whatever the bot assumes. Several tables play at once from the players' /start to each game's
end: every game ends, every press is answered exactly once and moves its game on (none lost),
the replies to the players' commands all come, nothing is logged as an error, and the messages
left show the end (the table's result, hands with no buttons, no old hand left over).

The games run on a virtual clock (``tests.virtual_time``): the seconds the regime makes the bot
wait take no real time."""

from __future__ import annotations

import asyncio
import itertools
import random

from telegram import Update

from bot.core.settings import Settings
from bot.games import offered_kinds
from tests.bot.conftest import BotRunner, Table
from tests.fake_telegram import FakeTelegram
from tests.virtual_time import VirtualTimeLoop

ENFORCED = 6  # calls a second Telegram lets through, every method counted
CROWD = 30  # people who press Start in their private chat at the moment the tables open
THINK = (0.7, 3.0)  # seconds a robot player takes, once its button shows, before it presses
LOOK = 0.25  # how often a robot looks for its button
PATIENCE = 600.0  # virtual seconds a robot waits for its button before the test fails
# Briscola for two at two tables, and Cirulla for two when it is offered.
GAMES = ["briscola", "briscola"] + ["cirulla"] * ("cirulla" in offered_kinds())


async def press(bot: BotRunner, update: dict) -> None:
    """Hand a press to the bot without waiting for its messages (as in production)."""
    await bot.app.process_update(Update.de_json(update, bot.app.bot))


async def next_press(table: Table, rng: random.Random) -> tuple[dict, dict, str] | None:
    """Wait for a button of the move to make to show, then think: (user, message, data) of
    the press to make; None once the game is over."""
    live = await table.bot.svc.games.get(table.game_id)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while loop.time() < deadline:
        if live.game.is_over:
            return None
        current = f"a:{table.game_id}:{live.game.move_number}:"
        try:
            actions = [a for a in table.visible_actions() if a[3].startswith(current)]
        except LookupError:  # the lobby has not become the table yet
            actions = []
        if actions:
            await asyncio.sleep(rng.uniform(*THINK))
            if live.game.move_number == int(current.split(":")[2]):
                user, message, _, data = rng.choice(actions)
                return user, message, data
        await asyncio.sleep(LOOK)
    raise AssertionError(f"no button of move {live.game.move_number} showed")


async def play(table: Table, kind: str, rng: random.Random, presses: list[dict]) -> None:
    """Seat everybody (every /start, the lobby, each join and the start under the regime too)
    and play the game to its end; each press must move the game on."""
    bot, fake = table.bot, table.fake
    for user in table.users:
        await press(bot, fake.start_private(user))
    await press(bot, fake.send_text(table.users[0], table.group, f"/nuova {kind} 2"))
    live = None
    while live is None or live.row.lobby_message_id is None:
        await asyncio.sleep(LOOK)
        live = await bot.svc.games.in_chat(table.group["id"])
    table.game_id = live.game_id
    for label in ("btn-join", "btn-start"):
        user = table.users[1] if label == "btn-join" else table.users[0]
        while not any(text == table.t(label) for text, _ in table.lobby().buttons):
            await asyncio.sleep(LOOK)
        update = fake.press_button(user, table.lobby(), table.t(label))
        presses.append(update)
        await press(bot, update)
    while (chosen := await next_press(table, rng)) is not None:
        user, message, data = chosen
        before = live.game.move_number
        update = fake.press(user, message, data)
        presses.append(update)
        await press(bot, update)
        assert live.game.move_number > before, f"the press {data} did not move the game on"


def check_end(table: Table) -> None:
    """The messages left show the end: the table's result (the rematch button), and of each
    player's hands of the game one at most, with no button left to press."""
    assert table.finished()
    marker = f"🃏 {table.group['title']} ·"
    for user in table.users:
        hands = [
            m for m in table.fake.messages(user) if m.text.startswith(marker) and not m.deleted
        ]
        assert len(hands) <= 1, [m.text for m in hands]
        for hand in hands:
            assert not any(d and d.startswith("a:") for _, d in hand.buttons), hand.text


def test_whole_games_end_under_telegrams_own_429s(tmp_path):
    """Three tables at once (Briscola for two twice, Cirulla for two), and a crowd pressing
    Start meanwhile, against a Bot API that refuses past six calls a second in all and one a
    second per private chat, from the first /start to the end: the regime bites (429s), yet
    every game ends, every press is answered exactly once (a second answer would be refused as
    too old) and moved its game on, every /start is answered, nothing is logged as an error,
    and the last messages show the end."""
    fake = FakeTelegram(bot_username="TavolataBot")
    # Telegram's documented figures (the settings left unset), the bot's retries after a 429.
    bot = BotRunner(
        fake,
        tmp_path / "bot.sqlite3",
        itertools.count(1000),
        group_max_rate=None,
        overall_max_rate=None,
        group_edit_window=None,
        private_gap=None,
        max_retries=Settings.model_fields["max_retries"].default,
    )
    tables: list[Table] = []
    crowd: list[dict] = []
    presses: list[dict] = []

    async def scenario() -> None:
        fake.enforce(ENFORCED, private_rate=1, clock=asyncio.get_running_loop().time)
        await bot.start()
        try:
            tables.extend(Table(bot, fake, 2, f"Tavolo {n}") for n in range(len(GAMES)))
            crowd.extend(fake.add_user(f"Folla {n}", language_code="it") for n in range(CROWD))
            await asyncio.gather(
                *(press(bot, fake.start_private(user)) for user in crowd),
                *(
                    play(table, kind, random.Random(n), presses)
                    for n, (table, kind) in enumerate(zip(tables, GAMES, strict=True))
                ),
            )
            await bot.svc.renderer.drain()
        finally:
            await bot.stop()

    with asyncio.Runner(loop_factory=VirtualTimeLoop) as runner:
        runner.run(scenario())
    assert fake.enforced.refused > 0  # the regime did bite
    for update in presses:
        assert fake.answered(update) is not None, update
    twice = [e for e in fake.errors if e.method == "answerCallbackQuery" and e.error_code != 429]
    assert not twice, twice
    welcome = tables[0].t("start-welcome").splitlines()[0]
    for table in tables:
        check_end(table)
    for user in crowd + [user for table in tables for user in table.users]:
        assert any(m.text.startswith(welcome) for m in fake.messages(user)), user
    bot.check_clean()
