"""Local mode in a real browser: whole games of each game against computer players, played
by clicking the page's card and action buttons only (``data-card``, ``data-action``), the page
checked at every state at phone and desktop sizes (everything needed in sight, nothing cut
off), screenshots in ``build/screenshots``."""

from __future__ import annotations

import random

import httpx
import pytest
from playwright.async_api import TimeoutError as PlaywrightTimeout

from bot.webapp.local import LOCAL_USER, LocalServer
from tests.bot.games.test_person import THIRD_ABOUT_ME
from tests.translator import TR
from tests.webapp.conftest import PHONE, SCREENSHOTS
from tests.webapp.fit import faults

pytestmark = pytest.mark.asyncio(loop_scope="session")

# What the page shows when the player has something to do, a result, or the game is over.
READY = "#app[data-over], .hand.my-turn, .actions button[data-action], .result"
# The engine's reasons for a card that cannot be played, in the page's language.
REASONS = {TR.get("it", m) for m in TR.message_ids("it") if m.startswith("illegal-")}


class Shots:
    """Where the screenshots of a game go: each state's name once at each size."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.taken: set[str] = set()
        self.seen: list[str] = []  # the page's text at every state, as the player read it
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def at(self, what: str | None):
        """The path maker for a state (None: no screenshot)."""
        if what is None or what in self.taken:
            return None
        self.taken.add(what)
        return lambda size: SCREENSHOTS / f"{self.kind}-{what}-{size['width']}x{size['height']}.png"


# Words that the page no longer shows: the local player's stored name (the page says "Tu"),
# and a computer player's level after each name (it is said once, in the header).
LONG_NAMES = (
    f"<b>{TR.get('it', 'webapp-local-player')}</b>",
    *(f"({TR.get('it', f'computer-level-{level}')})" for level in ("easy", "normal", "hard")),
)


async def check_fit(page, shot, shots: Shots) -> None:
    """Everything the player needs is in sight at every size (``tests/webapp/fit.py``), and
    the player is "Tu" and the computers have short names."""
    found = await faults(page, shot, shots.kind)
    assert not found, found
    html = await page.inner_html("#app")
    assert not [words for words in LONG_NAMES if words in html]


async def close_result(page, shots: Shots, over: bool) -> None:
    """A result shows its outcome and buttons at every size; closing it shows the table."""
    first = not shots.taken & {"result", "over"}
    await check_fit(page, shots.at("over" if over else "result"), shots)
    # The winner's 🏆 is drawn as a trophy on a French pack, never as the coppe suit.
    marks = await page.eval_on_selector_all(
        ".result .outcome use", "uses => uses.map((u) => u.getAttribute('href'))"
    )
    if over and await page.evaluate("state.faces") == "french":
        assert "#mTrophy" in marks and "#iH" not in marks, marks
    if first and not over:  # Telegram's Back button closes it too
        await page.evaluate("Telegram.WebView.receiveEvent('back_button_pressed')")
    else:
        try:
            await page.click("#close-result")
        except PlaywrightTimeout as exc:
            # Seen once in a full run, not reproduced: what held the button, for the next time.
            raise AssertionError(f"{exc}\n{await button_state(page)}") from None
    await page.wait_for_selector(".result", state="detached", timeout=5_000)
    assert await page.locator(".felt").is_visible()


# The result's close button over a few frames (its box, what sits on its middle), the
# animations running and the result's markup.
BUTTON_STATE = """async () => {
  const seen = [];
  for (let i = 0; i < 4; i++) {
    await new Promise((done) => requestAnimationFrame(done));
    const b = document.querySelector("#close-result");
    if (!b) { seen.push("none"); continue; }
    const r = b.getBoundingClientRect();
    const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    const over = top ? top.id || top.className : "nothing";
    seen.push(`${[r.x, r.y, r.width, r.height].join(",")} under ${over}`);
  }
  const running = document.getAnimations().map((a) => a.animationName || "transition");
  const result = document.querySelector(".result");
  const markup = result ? result.outerHTML : "none";
  return `frames: ${seen.join(" | ")}\nanimations: ${running.join(", ")}\nresult: ${markup}`;
}"""


async def button_state(page) -> str:
    """Why a click on the result's close button waited, as the page has it now."""
    return await page.evaluate(BUTTON_STATE)


async def tap_a_refused_card(page) -> bool:
    """A card the player cannot play, tapped: the page says why in the game's words, and
    nothing is played. False when no card is refused now."""
    refused = page.locator(".hand.my-turn button[data-card][aria-disabled]")
    if not await refused.count():
        return False
    move = await page.get_attribute("#app", "data-move")
    # aria-disabled: Playwright would wait for the card to be enabled.
    await tap_card(refused.first, force=True)
    said = await page.text_content("#toast")
    assert said in REASONS, said
    assert await page.get_attribute("#app", "data-move") == move
    return True


async def tap_card(card, force: bool = False) -> None:
    """A tap on a card of the hand where a finger would: the fan covers each card's middle with
    the next, so on the part left in sight, near its index."""
    box = await card.bounding_box()
    await card.click(position={"x": box["width"] * 0.3, "y": box["height"] * 0.35}, force=force)


async def play_by_clicking(page, rng: random.Random, shots: Shots, limit: int = 1500) -> int:
    """Click legal cards and actions until the page says the game is over; the clicks. At
    every state the page is checked at phone and desktop sizes, and a few are saved."""
    told_why = False
    for clicks in range(limit):
        await page.wait_for_selector(READY, timeout=15_000)
        shots.seen.append(await page.inner_html("#app"))
        if await page.locator(".result").count():
            over = bool(await page.locator("#app[data-over]").count())
            await close_result(page, shots, over)
            if over:
                return clicks
            continue
        if await page.locator("#app[data-over]").count():
            return clicks
        await check_fit(page, shots.at({0: "start", 6: "play"}.get(clicks)), shots)
        if not told_why:
            told_why = await tap_a_refused_card(page)
        move = await page.get_attribute("#app", "data-move")
        contru = page.locator('.actions button[data-action="contru"]:not([data-confirmed])')
        if await contru.count():  # tripling the stakes asks a second tap
            await contru.click()
            assert await page.locator(".act.confirm").count() == 1
            assert await page.get_attribute("#app", "data-move") == move
        actions = page.locator(".actions button[data-action]")
        cards = page.locator(".hand.my-turn button[data-card]:not([aria-disabled])")
        n_actions, n_cards = await actions.count(), await cards.count()
        # Dimmed cards are the illegal ones: the page never plays them.
        assert n_actions + n_cards, "nothing to press on the player's turn"
        pick = rng.randrange(n_actions + n_cards)
        if pick < n_actions:
            await actions.nth(pick).click()
        else:
            await tap_card(cards.nth(pick - n_actions))
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
        ("briscola", 3, {}, "easy"),
        ("briscola", 4, {}, "easy"),
        ("cirulla", 2, {}, "easy"),
        ("cirulla", 4, {}, "easy"),
        ("belota", 4, {"target": 500}, "easy"),
        ("belota", 3, {"target": 500}, "easy"),
        ("belota", 2, {"target": 500, "carta_girata": "table"}, "easy"),
    ],
)
async def test_whole_game_by_clicking(browser, local, kind, players, rules, level):
    """A whole game in local mode, clicked through to its end; the stored game is over, with
    the player's moves committed through the same path as the buttons. At every state, at
    320x568, 390x844 and 1280x800: no hand card or enabled button out of sight, no sideways
    scroll, no emoji, a result's outcome and buttons in sight; a refused card says why."""
    context = await browser.new_context(viewport=PHONE)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    requested: list[str] = []  # nothing is fetched from elsewhere (no card art, no script)
    page.on("request", lambda request: requested.append(request.url))
    game_id = await local.local.start(kind, players, level, seed=7, rules=rules)
    await page.goto(local.url)
    await page.wait_for_selector(READY)
    shots = Shots(f"{kind}{players}")
    clicks = await play_by_clicking(page, random.Random(kind), shots)
    # Closed at the game's end, the result leaves the final table and the way to go on.
    assert await page.locator("#again").is_visible()
    assert await page.locator("#open-result").is_visible()
    row = await local.svc.storage.get_game(game_id)
    assert row.status == "over" and row.winners is not None
    assert row.seat_of(LOCAL_USER) == 0
    mine = [code for seat, code in await local.svc.storage.actions(game_id) if seat == 0]
    assert clicks > 0 and len(mine) >= clicks  # every click played once (forced tails too)
    assert not errors, errors
    assert requested and all(url.startswith((local.url, "data:")) for url in requested)
    # What is about the player is told to them: never their label in a sentence made for
    # someone else ("Vince Tu"), and the game's end says whether they won ("Hai vinto!").
    read = "\n".join(shots.seen)
    assert not THIRD_ABOUT_ME.search(read), THIRD_ABOUT_ME.search(read).group(0)
    assert TR.get("it", "webapp-your-turn") in read
    person = "second-plural" if players == 4 else "second"
    you_won = TR.get("it", "game-winners", person=person, winners="", count=1)
    assert (you_won.removeprefix("🏆 ") in read) == (0 in row.winners)
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
