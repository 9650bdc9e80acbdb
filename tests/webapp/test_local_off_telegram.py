"""Local games (``python -m bot --local``) sit in the bot's database at chat 0, which is no
Telegram chat: the bot started on that database never writes to Telegram about them. Not at
start-up (an announcement local mode left unsent, a game left open), not when the idle game
would be closed after days, not through turn timers, not when its listeners are told about it."""

from __future__ import annotations

import itertools
import time

import pytest

from bot.table import play
from bot.timers import turns as timers_module
from bot.timers.turns import IDLE_CLOSE, LOBBY_TTL
from bot.webapp import LOCAL_CHAT
from bot.webapp.local import LocalTable, offline_services
from tests.bot.conftest import BotRunner
from tests.fake_telegram import FakeTelegram
from tests.translator import TR

pytestmark = pytest.mark.asyncio(loop_scope="session")


class Unsent:
    """Local mode stopped before it marked a deal's result as shown: the outbox keeps it."""

    def refresh(self, game_id: int, *, group: bool = True) -> None:
        pass


async def local_game(path) -> int:
    """A local Cirulla played past its first deal, its result left in the outbox."""
    svc = await offline_services(path, TR)
    storage = svc.storage
    svc.renderer = Unsent()
    game_id = await LocalTable(svc, "it").start("cirulla", 2, "easy", seed=3)
    live = await svc.games.get(game_id)
    while not await storage.outbox(game_id):
        seat = live.game.current_seat
        async with live.lock:
            await play.apply_action(svc, live, seat, live.game.legal_actions(seat)[0])
    assert live.active
    await storage.close()
    return game_id


def to_chat_zero(fake: FakeTelegram) -> list[tuple[str, dict]]:
    """Every Bot API call that names chat 0."""
    return [(m, p) for m, p in fake.calls if str(p.get("chat_id")) == str(LOCAL_CHAT)]


async def test_the_bot_never_writes_to_telegram_about_local_games(tmp_path, monkeypatch):
    db = tmp_path / "bot.sqlite3"
    game_id = await local_game(db)
    now = time.time()
    monkeypatch.setattr(timers_module, "clock", lambda: now)
    fake = FakeTelegram(bot_username="TavolataBot")
    bot = BotRunner(fake, db, itertools.count(1000))
    await bot.start()  # reload: open games and unsent announcements
    try:
        timers = bot.app.bot_data["timers"]
        live = await bot.svc.games.get(game_id)
        # Told about the game (as a Mini App play or a reload would), nothing arms or pings.
        await bot.svc.notify_listeners(live, [])
        bot.svc.renderer.refresh(game_id)
        await bot.svc.renderer.drain()
        assert game_id not in timers.armed
        for later in (IDLE_CLOSE / 2, IDLE_CLOSE + 3600, 2 * IDLE_CLOSE + LOBBY_TTL):
            now += later
            await timers.tick()
            await timers.drain()
            await bot.svc.renderer.drain()
        assert to_chat_zero(fake) == []
        # The local games are left as local mode left them, for local mode to go on with.
        assert (await bot.svc.storage.get_game(game_id)).status == "active"
        assert await bot.svc.storage.outbox(game_id)
    finally:
        await bot.stop()
    bot.check_clean()
