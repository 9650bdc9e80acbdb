"""The Mini App served by the bot's process, against the fake Bot API: Telegram's ``initData``
check, who may see and play what, the live stream, and the buttons that open it."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from urllib.parse import quote

import httpx
import pytest
import pytest_asyncio

from bot.webapp.auth import sign_init_data
from tests.bot.conftest import BotRunner, Table, cards_in
from tests.fake_telegram import FakeTelegram

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(loop_scope="session")
async def mini(tmp_path, monkeypatch):
    """The bot with its Mini App on a free port of localhost, against the fake Bot API."""
    monkeypatch.setenv("WEBAPP_URL", "https://table.example/")
    monkeypatch.setenv("WEBAPP_SHORT_NAME", "tavolo")
    monkeypatch.setenv("WEBAPP_LISTEN", "127.0.0.1")
    monkeypatch.setenv("WEBAPP_PORT", "0")
    fake = FakeTelegram(bot_username="TavolataBot")
    runner = BotRunner(fake, tmp_path / "bot.sqlite3", itertools.count(1000))
    await runner.start()
    runner.url = f"http://127.0.0.1:{runner.app.bot_data['webapp'].port}/"
    yield runner
    await runner.stop()
    runner.check_clean()


def init_for(fake: FakeTelegram, user: dict, age: int = 0, **extra: str) -> str:
    """The initData Telegram gives ``user`` opening the Mini App ``age`` seconds ago."""
    return sign_init_data(fake.token, user, int(time.time()) - age, **extra)


async def briscola_for_two(mini) -> Table:
    table = Table(mini, mini.fake, 2, "Tavolo <&>")
    await table.start("briscola", 2)
    return table


async def test_buttons_open_the_mini_app(mini):
    """Each hand message has a web_app button to the game's table; the group's table a
    t.me link that starts the registered app with the game."""
    table = await briscola_for_two(mini)
    for user in table.users:
        button = table.hand_message(user).button(lambda b: "web_app" in b)
        assert button["web_app"]["url"] == f"https://table.example/?game={table.game_id}"
    link = table.table().button(lambda b: "t.me/TavolataBot/tavolo" in b.get("url", ""))
    assert link["url"] == f"https://t.me/TavolataBot/tavolo?startapp={table.game_id}"


async def test_who_sees_and_plays(mini):
    """Bad or expired data gets 401, a stranger 403, a player their own cards only; a play
    goes through the buttons' path: by the seat to act, at that move number, once."""
    table = await briscola_for_two(mini)
    fake = mini.fake
    stranger = fake.add_user("Zed", username="zed", language_code="en")
    live = await mini.svc.games.get(table.game_id)
    game = live.game
    acting = game.current_seat
    waiting = 1 - acting
    seat_user = table.users
    async with httpx.AsyncClient(base_url=mini.url) as http:

        async def state(init: str):
            return await http.get(f"api/state?game={table.game_id}", headers={"X-Init-Data": init})

        async def play(init: str, move: int, action: str):
            body = {"game": table.game_id, "move": move, "action": action}
            return await http.post("api/play", json=body, headers={"X-Init-Data": init})

        good = init_for(fake, seat_user[acting])
        forged = good.replace("hash=", "hash=f")
        assert (await state(forged)).status_code == 401
        assert (
            await state(init_for(fake, seat_user[acting], age=2 * 24 * 3600))
        ).status_code == 401
        assert (await state(init_for(fake, stranger))).status_code == 403
        mine = (await state(good)).json()
        assert mine["view"]["hand"] == game.view(acting)["hand"]
        # Nothing in the player's state shows a card of the other hand.
        assert not cards_in(mine) & set(game.view(waiting)["hand"])
        theirs = (await state(init_for(fake, seat_user[waiting]))).json()
        assert set(theirs["view"]["hand"]).isdisjoint(mine["view"]["hand"])
        assert theirs["legal"] == []

        move = game.move_number
        card = game.legal_actions(acting)[0]
        other = game.view(waiting)["hand"][0]
        # Refused, and nothing changes: forged data, a stranger, the wrong seat, an illegal code.
        assert (await play(forged, move, card)).status_code == 401
        assert (await play(init_for(fake, stranger), move, card)).status_code == 403
        assert (await play(init_for(fake, seat_user[waiting]), move, other)).status_code == 409
        assert (await play(good, move, "ZZ")).status_code == 409
        assert (
            await http.post("api/play", content=b"{", headers={"X-Init-Data": good})
        ).status_code == 400
        assert game.move_number == move
        # The play, then the same request again (a replay of the old move): applied once.
        first = await play(good, move, card)
        assert first.status_code == 200 and first.json()["move"] == move + 1
        again = await play(good, move, card)
        assert again.status_code == 409
        assert again.json()["error"]
        assert game.move_number == move + 1
        assert await mini.svc.storage.actions(table.game_id) == [(acting, card)]
    await mini.svc.renderer.drain()
    # The Telegram messages followed the play made in the Mini App: the turn passed.
    prefix = f"a:{table.game_id}:"
    assert not [d for _, d in table.hand_message(seat_user[acting]).buttons if d.startswith(prefix)]
    assert [d for _, d in table.hand_message(seat_user[waiting]).buttons if d.startswith(prefix)]


async def read_event(lines) -> dict:
    """The next state of a server-sent event stream."""
    data = None
    async for line in lines:
        if line.startswith("data: "):
            data = json.loads(line[6:])
        elif line == "" and data is not None:
            return data
    raise AssertionError("the stream ended")


async def test_live_stream_follows_the_buttons(mini):
    """A page's stream gets its seat's state after an action committed by a Telegram button,
    and a page reconnecting with an old move number catches up at once."""
    table = await briscola_for_two(mini)
    live = await mini.svc.games.get(table.game_id)
    game = live.game
    waiting = 1 - game.current_seat
    init = quote(init_for(mini.fake, table.users[waiting]))
    url = f"api/events?game={table.game_id}&move={game.move_number}&init={init}"
    async with httpx.AsyncClient(base_url=mini.url, timeout=10) as http:
        async with http.stream("GET", url) as stream:
            assert stream.status_code == 200
            lines = stream.aiter_lines()
            _, data, _ = await table.play_one(random.Random(1))
            pushed = await asyncio.wait_for(read_event(lines), 10)
            assert pushed["move"] == game.move_number == 1
            assert pushed["seat"] == waiting
            assert pushed["view"]["trick"][0]["card"] == data.split(":")[-1]
        # Reconnecting from move 0: the state at once, without waiting for another action.
        old = f"api/events?game={table.game_id}&move=0&init={init}"
        async with http.stream("GET", old) as stream:
            caught_up = await asyncio.wait_for(read_event(stream.aiter_lines()), 10)
            assert caught_up["move"] == 1
        stranger = quote(init_for(mini.fake, mini.fake.add_user("Zed", username="zed")))
        refused = await http.get(f"api/events?game={table.game_id}&init={stranger}")
        assert refused.status_code == 403
