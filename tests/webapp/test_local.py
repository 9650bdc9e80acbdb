"""Local mode in a real browser: whole games of each game against computer players, played
by clicking the page's card and action buttons only (``data-card``, ``data-action``)."""

from __future__ import annotations

import random

import httpx
import pytest

from bot.webapp.local import LOCAL_USER, LocalServer
from tests.translator import TR
from tests.webapp.conftest import PHONE, SCREENSHOTS

pytestmark = pytest.mark.asyncio(loop_scope="session")

# What the page shows when the player has something to do, or the game is over.
READY = "#app[data-over], .hand.my-turn, .actions button[data-action]"


async def play_by_clicking(page, rng: random.Random, shot, limit: int = 1500) -> int:
    """Click legal cards and actions until the page says the game is over; the clicks. The
    table is saved at 390x844 (``shot``) a few clicks into the game."""
    for clicks in range(limit):
        await page.wait_for_selector(READY, timeout=15_000)
        if await page.locator("#app[data-over]").count():
            return clicks
        if clicks == 5:
            await page.wait_for_timeout(300)  # the card just played has landed
            await page.screenshot(path=shot)
        move = await page.get_attribute("#app", "data-move")
        actions = page.locator(".actions button[data-action]")
        cards = page.locator(".hand.my-turn button[data-card]:not([disabled])")
        n_actions, n_cards = await actions.count(), await cards.count()
        # Disabled cards are the illegal ones: the page never offers them.
        assert n_actions + n_cards, "nothing to press on the player's turn"
        pick = rng.randrange(n_actions + n_cards)
        if pick < n_actions:
            await actions.nth(pick).click()
        else:
            await cards.nth(pick - n_actions).click()
            choices = page.locator(".actions button.capture")
            if await choices.count():  # a Cirulla card with several captures: pick one
                await choices.nth(rng.randrange(await choices.count())).click()
        await page.wait_for_function(
            "m => document.querySelector('#app').dataset.move !== m", arg=move, timeout=15_000
        )
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("kind", "players", "rules", "level"),
    [
        ("briscola", 2, {}, "normal"),
        ("cirulla", 2, {}, "easy"),
        ("belota", 4, {"target": 500}, "easy"),
        ("belota", 3, {"target": 500}, "easy"),
        ("belota", 2, {"target": 500, "carta_girata": "table"}, "easy"),
    ],
)
async def test_whole_game_by_clicking(browser, local, kind, players, rules, level):
    """A whole game in local mode, clicked through to its end; the stored game is over, with
    the player's moves committed through the same path as the buttons."""
    context = await browser.new_context(viewport=PHONE)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    requested: list[str] = []  # nothing is fetched from elsewhere (no card art, no script)
    page.on("request", lambda request: requested.append(request.url))
    game_id = await local.local.start(kind, players, level, seed=7, rules=rules)
    await page.goto(local.url)
    await page.wait_for_selector(READY)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = f"local-{kind}" if kind != "belota" or players == 4 else f"local-{kind}{players}"
    await page.screenshot(path=SCREENSHOTS / f"{name}-start.png")
    clicks = await play_by_clicking(page, random.Random(kind), SCREENSHOTS / f"{name}.png")
    await page.screenshot(path=SCREENSHOTS / f"{name}-over.png")
    row = await local.svc.storage.get_game(game_id)
    assert row.status == "over" and row.winners is not None
    assert row.seat_of(LOCAL_USER) == 0
    mine = [code for seat, code in await local.svc.storage.actions(game_id) if seat == 0]
    assert clicks > 0 and len(mine) >= clicks  # every click played once (forced tails too)
    assert not errors, errors
    assert requested and all(url.startswith((local.url, "data:")) for url in requested)
    await context.close()


async def test_local_game_survives_a_restart(tmp_path):
    """A local game lives in SQLite: after a restart on the same file the page's session
    offers it again at the same move, and a play goes on from there."""
    db = tmp_path / "local.sqlite3"
    server = await LocalServer.open(db, TR, "it", 0, 20)
    game_id = await server.local.start("cirulla", 2, "easy", seed=3)
    live = await server.svc.games.get(game_id)
    await server.computers.drain()
    moves = live.game.move_number
    server.web.tables.close()
    await server.close()
    again = await LocalServer.open(db, TR, "it", 0, 20)
    try:
        transport = httpx.ASGITransport(app=again.web.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://local") as http:
            session = (await http.get("/api/session")).json()
            assert session["games"] == [game_id]
            state = (await http.get(f"/api/state?game={game_id}")).json()
            assert state["move"] == moves and state["legal"]
            body = {"game": game_id, "move": moves, "action": state["legal"][0]}
            assert (await http.post("/api/play", json=body)).json()["move"] > moves
    finally:
        again.web.tables.close()
        await again.computers.close()
        await again.close()
