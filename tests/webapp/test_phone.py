"""The table as a phone's Mini App: Telegram's controls, the engine's reasons for a refusal,
short names, a server that is down, and ``--local``'s start-up faults."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from bot.webapp.local import LocalServer
from tests.translator import TR
from tests.webapp.conftest import PHONE

ROOT = Path(__file__).resolve().parent.parent.parent

# Telegram's apps hand the page a proxy for its events; this one writes them down.
PROXY = """
window.__events = [];
window.TelegramWebviewProxy = {postEvent: (type, data) => __events.push([type, JSON.parse(data)])};
"""


def local_mode(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``python -m bot --local ARGS``, stopped after a few seconds if it starts serving."""
    return program("--local", *args, cwd=cwd)


def program(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``python -m bot ARGS`` with no Telegram settings, on a database in ``cwd``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "WEBAPP_"))}
    env.update(PYTHONPATH=str(ROOT), DATABASE_PATH=str(cwd / "local.sqlite3"))
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_local_start_up_faults_are_one_line_and_exit_2(tmp_path):
    """A port taken, a port out of range, an unknown language: one line on stderr, exit 2,
    and nothing said ready on stdout; ``--help`` lists every option; a host name that does
    not resolve says so."""
    taken = socket.create_server(("127.0.0.1", 0))
    try:
        port = str(taken.getsockname()[1])
        for args in (["--port", port], ["--port", "99999"], ["--lang", "xx"]):
            done = local_mode(*args, cwd=tmp_path)
            assert done.returncode == 2, (args, done.stderr)
            assert done.stdout == "", args
            assert len(done.stderr.strip().splitlines()) == 1, (args, done.stderr)
            assert "Traceback" not in done.stderr
    finally:
        taken.close()
    helped = local_mode("--help", cwd=tmp_path)
    assert helped.returncode == 0
    for option in ("--port", "--lang", "--host"):
        assert option in helped.stdout
    # A host name that does not resolve is said in words, not as the resolver's number.
    unknown = local_mode("--host", "no-such-host.invalid", cwd=tmp_path)
    assert unknown.returncode == 2 and "cannot be found" in unknown.stderr, unknown.stderr
    assert "Unknown error" not in unknown.stderr


def test_the_programs_help_says_each_mode_and_exits_0(tmp_path):
    """``python -m bot --help``: the bot, ``--local`` and ``backup`` each said, exit 0; an
    unknown argument is one line pointing to the help, exit 2."""
    done = program("--help", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    for said in ("--local", "backup [--overwrite] PATH", "TELEGRAM_BOT_TOKEN", "DATABASE_PATH"):
        assert said in done.stdout
    wrong = program("--nope", cwd=tmp_path)
    assert wrong.returncode == 2 and len(wrong.stderr.strip().splitlines()) == 1
    assert "--help" in wrong.stderr


@pytest.mark.asyncio(loop_scope="session")
async def test_a_refused_play_says_the_engines_reason(tmp_path):
    """A card played during Belòta's bidding is refused with the engine's reason in the
    player's words, and the page is told the same reason for every card beforehand; the
    computer players have short names and their level is said once."""
    server = await LocalServer.open(tmp_path / "local.sqlite3", TR, "it", 0, 20)
    try:
        game_id = await server.local.start("belota", 4, "easy", seed=5)
        await server.computers.drain()
        transport = httpx.ASGITransport(app=server.web.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://local") as http:
            state = (await http.get(f"/api/state?game={game_id}")).json()
            assert state["view"]["phase"] == "bidding" and state["legal"]
            reason = TR.get("it", "illegal-bidding-not-over")
            card = state["view"]["hand"][0]
            assert state["why"] == {c: reason for c in state["view"]["hand"]}
            body = {"game": game_id, "move": state["move"], "action": card}
            refused = await http.post("/api/play", json=body)
            assert refused.status_code == 409 and refused.json()["error"] == reason
            assert state["names"][1:] == ["Computer 2", "Computer 3", "Computer 4"]
            assert state["level"] == TR.get("it", "computer-level-easy")
    finally:
        server.web.tables.close()
        await server.close()


@pytest.mark.asyncio(loop_scope="session")
async def test_telegram_controls_and_a_server_that_is_down(browser, local):
    """In Telegram the page asks for the full height and the safe areas, confirms closing
    mid-game, keeps out of the insets Telegram reports, gives a haptic tap on a card played;
    a play that cannot reach the server says so in the page's language."""
    context = await browser.new_context(viewport=PHONE)
    await context.add_init_script(PROXY)
    page = await context.new_page()
    await local.local.start("briscola", 2, "easy", seed=4)
    await local.computers.drain()
    await page.goto(local.url)
    await page.wait_for_selector(".hand.my-turn button.legal")
    sent = dict((t, d) for t, d in await page.evaluate("__events"))
    for event in ("web_app_ready", "web_app_expand", "web_app_request_safe_area"):
        assert event in sent
    assert sent["web_app_setup_closing_behavior"] == {"need_confirmation": True}
    await page.evaluate("Telegram.WebView.receiveEvent('safe_area_changed', {top: 40, bottom: 30})")
    padding = await page.evaluate("getComputedStyle(document.querySelector('main')).paddingTop")
    assert float(padding.removesuffix("px")) >= 40
    await page.route("**/api/play", lambda route: route.abort())
    await page.locator(".hand.my-turn button.legal").first.click()
    await page.wait_for_function(
        "t => document.querySelector('#toast').textContent === t",
        arg=TR.get("it", "webapp-server-down"),
    )
    kinds = [d.get("type") for t, d in await page.evaluate("__events") if "haptic" in t]
    assert "impact" in kinds
    await context.close()


@pytest.mark.asyncio(loop_scope="session")
async def test_bids_are_explained_and_contru_is_confirmed(browser, local):
    """Belòta's bids say what they mean on their buttons (sensa: no trump, points doubled), and
    contru, which triples the stakes, is sent only on a second tap."""
    context = await browser.new_context(viewport={"width": 320, "height": 568})
    page = await context.new_page()
    plays: list[str] = []
    page.on("request", lambda r: plays.append(r.post_data) if "api/play" in r.url else None)
    await local.local.start("belota", 4, "easy", seed=5)
    await local.computers.drain()
    await page.goto(local.url)
    sensa = page.locator('.actions button[data-action="sensa"]')
    await sensa.wait_for()
    assert TR.get("it", "webapp-help-sensa") in await sensa.text_content()
    # The engine offers contru only after a sensa: the page is shown such a moment.
    await page.evaluate(
        "() => { state.legal = [...state.legal, 'contru'];"
        " state.labels.contru = 'Contru (×3)'; show(state); }"
    )
    await page.click('.actions button[data-action="contru"]')
    confirm = page.locator(".actions button.confirm")
    assert await confirm.count() == 1 and not plays
    assert TR.get("it", "webapp-help-contru") in await confirm.text_content()
    await confirm.click()
    await page.wait_for_function("() => document.querySelector('#toast').textContent")
    assert len(plays) == 1 and '"contru"' in plays[0]
    # Not a bid of this moment: the engine's reason, in the game's words.
    assert await page.text_content("#toast") == TR.get("it", "illegal-bid-not-allowed")
    await context.close()


@pytest.mark.asyncio(loop_scope="session")
async def test_a_new_game_asks_before_it_cancels_the_open_one(browser, local):
    """ "Nuova partita" while a game is open asks first: going back keeps the game; choosing
    another opens the chooser, which offers the way back to it; only "Si gioca!" cancels it."""
    context = await browser.new_context(viewport={"width": 320, "height": 568})
    page = await context.new_page()
    game_id = await local.local.start("briscola", 2, "easy", seed=4)
    await local.computers.drain()
    await page.goto(local.url)
    await page.wait_for_selector(".hand.my-turn")
    await page.click("#new-game")
    ask = page.locator(".result .outcome")
    assert await ask.text_content() == TR.get("it", "webapp-new-game-ask")
    await page.click("#close-result")  # "Torna alla partita"
    await page.wait_for_selector(".result", state="detached")
    assert await page.locator(".hand.my-turn").count() == 1
    await page.click("#new-game")
    await page.click("#new-game-confirm")
    back = page.locator("#back-to-game")
    await back.wait_for()
    assert await back.text_content() == TR.get("it", "webapp-back-to-game")
    assert (await local.svc.storage.get_game(game_id)).status == "active"
    await back.click()
    await page.wait_for_selector(".hand.my-turn")
    assert await page.get_attribute("#app", "data-move") is not None
    await page.click("#new-game")
    await page.click("#new-game-confirm")
    await page.click("#start")
    await page.wait_for_function("old => state && state.game !== old", arg=game_id, timeout=10_000)
    assert (await local.svc.storage.get_game(game_id)).status == "cancelled"
    await context.close()


@pytest.mark.asyncio(loop_scope="session")
async def test_each_belota_seat_says_its_bid_and_a_lone_computer_is_computer(tmp_path):
    """During Belòta's bidding each seat's state carries its latest bid in words ("passa",
    told to its player as "passi"); a game against one computer names it "Computer"."""
    server = await LocalServer.open(tmp_path / "local.sqlite3", TR, "it", 0, 20)
    try:
        game_id = await server.local.start("belota", 4, "easy", seed=5)
        await server.computers.drain()
        transport = httpx.ASGITransport(app=server.web.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://local") as http:
            state = (await http.get(f"/api/state?game={game_id}")).json()
            bids = state["view"]["bids"]
            assert bids and state["view"]["phase"] == "bidding"
            for seat, bid in bids:
                if bid == "pass":
                    assert state["said"][seat] == "passa"
            body = {"game": game_id, "move": state["move"], "action": "pass"}
            after = (await http.post("/api/play", json=body)).json()
            assert after["said"][0] == "passi"
            duel = await server.local.start("cirulla", 2, "easy", seed=3)
            state = (await http.get(f"/api/state?game={duel}")).json()
            assert state["names"][1] == TR.get("it", "webapp-computer-alone") == "Computer"
    finally:
        server.web.tables.close()
        await server.close()
