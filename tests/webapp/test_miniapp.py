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
from tests.webapp.conftest import PHONE, SCREENSHOTS

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
    """Bad or expired data gets 401, a stranger the 404 of a game that does not exist, a
    player their own cards only; a play goes through the buttons' path: by the seat to act, at
    that move number, once."""
    table = await briscola_for_two(mini)
    fake = mini.fake
    stranger = fake.add_user("Zed", username="zed", language_code="en")
    live = await mini.svc.games.get(table.game_id)
    acting = live.game.current_seat
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
        assert (await state(init_for(fake, stranger))).status_code == 404
        mine = (await state(good)).json()
        assert mine["view"]["hand"] == live.game.view(acting)["hand"]
        # Nothing in the player's state shows a card of the other hand.
        assert not cards_in(mine) & set(live.game.view(waiting)["hand"])
        theirs = (await state(init_for(fake, seat_user[waiting]))).json()
        assert set(theirs["view"]["hand"]).isdisjoint(mine["view"]["hand"])
        assert theirs["legal"] == []

        move = live.game.move_number
        card = live.game.legal_actions(acting)[0]
        other = live.game.view(waiting)["hand"][0]
        # Refused, and nothing changes: forged data, a stranger, the wrong seat, an illegal code.
        assert (await play(forged, move, card)).status_code == 401
        assert (await play(init_for(fake, stranger), move, card)).status_code == 404
        assert (await play(init_for(fake, seat_user[waiting]), move, other)).status_code == 409
        assert (await play(good, move, "ZZ")).status_code == 409
        assert (
            await http.post("api/play", content=b"{", headers={"X-Init-Data": good})
        ).status_code == 400
        assert live.game.move_number == move
        # The play, then the same request again (a replay of the old move): applied once.
        first = await play(good, move, card)
        assert first.status_code == 200 and first.json()["move"] == move + 1
        again = await play(good, move, card)
        assert again.status_code == 409
        assert again.json()["error"]
        assert live.game.move_number == move + 1
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
    waiting = 1 - live.game.current_seat
    init = {"X-Init-Data": init_for(mini.fake, table.users[waiting])}
    url = f"api/events?game={table.game_id}&move={live.game.move_number}"
    async with httpx.AsyncClient(base_url=mini.url, timeout=10, headers=init) as http:
        async with http.stream("GET", url) as stream:
            assert stream.status_code == 200
            lines = stream.aiter_lines()
            _, data, _ = await table.play_one(random.Random(1))
            pushed = await asyncio.wait_for(read_event(lines), 10)
            assert pushed["move"] == live.game.move_number == 1
            assert pushed["seat"] == waiting
            assert pushed["view"]["trick"][0]["card"] == data.split(":")[-1]
        # Reconnecting from move 0: the state at once, without waiting for another action.
        old = f"api/events?game={table.game_id}&move=0"
        async with http.stream("GET", old) as stream:
            caught_up = await asyncio.wait_for(read_event(stream.aiter_lines()), 10)
            assert caught_up["move"] == 1
        stranger = init_for(mini.fake, mini.fake.add_user("Zed", username="zed"))
        refused = await http.get(
            f"api/events?game={table.game_id}", headers={"X-Init-Data": stranger}
        )
        assert refused.status_code == 404


THEMES = [
    {
        "bg_color": "#ffffff",
        "text_color": "#000000",
        "hint_color": "#707579",
        "button_color": "#3390ec",
        "button_text_color": "#ffffff",
        "secondary_bg_color": "#f4f4f5",
    },
    {
        "bg_color": "#212121",
        "text_color": "#ffffff",
        "hint_color": "#aaaaaa",
        "button_color": "#8774e1",
        "button_text_color": "#ffffff",
        "secondary_bg_color": "#181818",
    },
]


async def test_two_players_in_two_browsers(browser, mini):
    """Two players of a Briscola, each in a browser context with their own signed initData
    and Telegram theme, play a whole game through the Mini App: after each card the other
    page shows it, the group's table stays in step, and the players, at their pages, get no
    private message (no ping, no edit of their hands)."""
    table = await briscola_for_two(mini)
    gid = table.game_id
    live = await mini.svc.games.get(gid)
    contexts, pages = [], []
    for user, theme in zip(table.users, THEMES, strict=True):
        context = await browser.new_context(viewport=PHONE)
        page = await context.new_page()
        init = quote(init_for(mini.fake, user, start_param=str(gid)), safe="")
        themed = quote(json.dumps(theme), safe="")
        await page.goto(f"{mini.url}#tgWebAppData={init}&tgWebAppThemeParams={themed}")
        contexts.append(context)
        pages.append(page)
    # Each page wears its player's Telegram theme.
    background = "getComputedStyle(document.body).backgroundColor"
    await pages[1].wait_for_selector("[data-card]")
    assert await pages[1].evaluate(background) == "rgb(33, 33, 33)"
    rng = random.Random(5)
    users = {u["id"] for u in table.users}
    for _ in range(500):  # both pages' streams open: the pages are in front
        if all(mini.svc.presence.at_page(gid, u) for u in users):
            break
        await asyncio.sleep(0.02)
    await mini.svc.renderer.drain()
    privately = len([p for m, p in mini.fake.calls if p.get("chat_id") in users])
    try:
        while not live.game.is_over:
            seat = live.game.current_seat
            page = pages[seat]
            cards = page.locator(".hand.my-turn button[data-card]:not([aria-disabled])")
            await cards.first.wait_for(timeout=10_000)
            before = live.game.move_number
            await cards.nth(rng.randrange(await cards.count())).click()
            for other in pages:  # both pages show the move (the other one by the push)
                await other.wait_for_function(
                    "m => Number(document.querySelector('#app').dataset.move) > m",
                    arg=before,
                    timeout=10_000,
                )
            await mini.svc.renderer.drain()
            if live.game.is_over:
                break
            if live.game.move_number == 9:  # a card on the table, the other to answer it
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                for s, page in enumerate(pages):
                    await page.screenshot(path=SCREENSHOTS / f"miniapp-briscola-{s}.png")
            for s, page in enumerate(pages):
                hand = set(live.game.view(s)["hand"])
                shown = set(
                    await page.eval_on_selector_all(
                        "[data-card]", "bs => bs.map(b => b.dataset.card)"
                    )
                )
                assert shown == hand
            assert len([p for m, p in mini.fake.calls if p.get("chat_id") in users]) == privately
            turn = mini.svc.tr.get(
                "it", "table-turn", player=table.users[live.game.current_seat]["first_name"]
            )
            assert turn.replace("<b>", "").replace("</b>", "") in table.table().text
        for page in pages:
            await page.wait_for_selector("#app[data-over]", timeout=10_000)
        assert table.finished()  # the group got the result with the rematch button
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for s, page in enumerate(pages):
            await page.screenshot(path=SCREENSHOTS / f"miniapp-briscola-over-{s}.png")
    finally:
        for context in contexts:
            await context.close()


async def test_a_player_at_the_page_gets_no_private_messages(mini):
    """While a seat's page is open (its stream) and in front, that seat gets no ping and no
    edit of its private hand: the page shows the turn. When the page says it went to the
    background, the hand is brought up to date once, with an edit (no second ping for the
    turn); pings resume on the next turn. Bad presence reports get a 400 or 404 and change
    nothing."""
    table = await briscola_for_two(mini)
    fake = mini.fake
    live = await mini.svc.games.get(table.game_id)
    waiting = 1 - live.game.current_seat
    user = table.users[waiting]
    init = init_for(fake, user)

    def private_calls() -> list[str]:
        return [m for m, p in fake.calls if p.get("chat_id") == user["id"]]

    async with httpx.AsyncClient(base_url=mini.url, timeout=10) as http:
        url = f"api/events?game={table.game_id}&move={live.game.move_number}"
        async with http.stream("GET", url, headers={"X-Init-Data": init}) as stream:
            assert stream.status_code == 200
            lines = stream.aiter_lines()
            assert mini.svc.presence.at_page(table.game_id, user["id"])
            before = private_calls()
            await table.play_one(random.Random(1))  # the other player's card: their turn now
            pushed = await asyncio.wait_for(read_event(lines), 10)
            assert pushed["legal"], "the page shows the turn"
            assert private_calls() == before, "no ping, no edit while at the page"

            async def presence(body: object, who: str = init) -> int:
                headers = {"X-Init-Data": who}
                return (await http.post("api/presence", json=body, headers=headers)).status_code

            stranger = init_for(fake, fake.add_user("Zed", username="zed"))
            assert await presence({"game": table.game_id, "visible": "no"}) == 400
            assert await presence({"game": "x", "visible": False}) == 400
            assert await presence({"game": table.game_id, "visible": False}, stranger) == 404
            assert mini.svc.presence.at_page(table.game_id, user["id"])

            assert await presence({"game": table.game_id, "visible": False}) == 200
            await mini.svc.renderer.drain()
            brought = private_calls()[len(before) :]
            assert "sendMessage" not in brought and "editMessageText" in brought
            prefix = f"a:{table.game_id}:{live.game.move_number}:"
            assert [d for _, d in table.hand_message(user).buttons if d.startswith(prefix)]
            # Back in front: nothing more is sent; their move, then the other player's ping.
            assert await presence({"game": table.game_id, "visible": True}) == 200
            await table.play_one(random.Random(2))
    for _ in range(500):  # the server sees the stream closed
        if not mini.svc.presence.at_page(table.game_id, user["id"]):
            break
        await asyncio.sleep(0.02)
    assert not mini.svc.presence.at_page(table.game_id, user["id"])
