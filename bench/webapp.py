"""The web table under load: the page's weight, and the time from a play to the other
player's screen.

A server process (this script with ``--serve``) holds ``--tables`` two-player Briscola games on
a real SQLite file, served by the web table's Starlette app under uvicorn with Telegram's
``initData`` check; the load process opens both players' event streams of every table (two
per table), then plays cards, ``--rate`` a second across random tables, each one a
``POST /api/play`` signed as the player to act. Printed:

- the page's weight: the HTML, script and style as served, uncompressed (target < 150 KB);
- the time from sending a play to the other player's stream delivering the new state (the
  other player's screen updating, short of drawing it), p50 and p95, with 1 table open and
  with ``--tables`` open (target p95 < 100 ms with 500 tables);
- with ``--browser``, the same for a click in one Chromium page until the other page has
  drawn the card (a few dozen clicks), alone and while the other tables are played: as
  Playwright sees it (its click's own actionability checks and round trips included, tens of
  milliseconds no player waits for), and as the pages' own clocks see it, stage by stage: the
  play's answer, the other page's stream message, the script drawing the state, the frame
  painted after it.

The server's process renders no Telegram message (the bot would, besides): this measures the
web table's own path, storage commit included. Run: ``python bench/webapp.py [--tables 500]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.webapp.auth import sign_init_data

TOKEN = "123456:bench-token"


def user_of(table: int, seat: int) -> dict:
    """The Telegram user at a seat of a table."""
    return {"id": 1000 + 2 * table + seat, "first_name": f"P{table}-{seat}"}


# -- the server process ------------------------------------------------------------------------
async def serve(port: int, db: str, tables: int) -> None:
    """Games and the web table, as the bot holds them (without Telegram's messages)."""
    import uvicorn

    from bot.app import LOCALES_DIR
    from bot.core.i18n import Translator
    from bot.core.openfiles import connection_cap, raise_open_file_limit
    from bot.core.settings import Settings
    from bot.core.webserver import guarded_config
    from bot.webapp.local import offline_services
    from bot.webapp.server import WebApp, telegram_auth
    from bot.webapp.tables import WebTables

    svc = await offline_services(db, Translator(LOCALES_DIR), "bench")
    storage = svc.storage
    web_tables = WebTables(svc)
    svc.listeners.append(web_tables.on_change)
    ids = []
    for t in range(tables):
        game_id = await storage.create_lobby(-t - 1, "bench", 0, "b", "it", "briscola", 2, {})
        for seat in (0, 1):
            user = user_of(t, seat)
            await storage.upsert_user(user["id"], user["first_name"], None, "it", True)
            await storage.take_seat(game_id, seat, user["id"], user["first_name"])
        await storage.start_game(game_id, 1000 + t, t % 2)
        await svc.games.get(game_id)
        ids.append(game_id)
    web = WebApp(svc, web_tables, telegram_auth(TOKEN, 86400))
    # The bot's own server: its connection guard, with the cap the bot would have.
    raise_open_file_limit()
    wanted = Settings.model_fields["web_max_connections"].default
    config = guarded_config(
        web.app, "the bench's port", connection_cap(wanted), host="127.0.0.1", port=port
    )
    server = uvicorn.Server(config)
    print(json.dumps(ids), flush=True)
    await server.serve()


# -- the load process --------------------------------------------------------------------------
def page_weight(base: str) -> dict[str, int]:
    """Bytes of the page's files as served."""
    sizes = {}
    with httpx.Client(base_url=base) as http:
        for path in ("", "static/app.js", "static/app.css"):
            sizes[path or "index.html"] = len(http.get(path).content)
    return sizes


class Player:
    """One player's open page: their event stream, and the time each move reached it."""

    def __init__(self, table: int, seat: int, game_id: int) -> None:
        self.table = table
        self.seat = seat
        self.game_id = game_id
        self.init = sign_init_data(TOKEN, user_of(table, seat), int(time.time()))
        self.arrived: dict[int, float] = {}
        self.state: dict | None = None
        self.ready = asyncio.Event()
        self.waiters: dict[int, asyncio.Future] = {}

    async def listen(self, http: httpx.AsyncClient) -> None:
        url = f"api/events?game={self.game_id}"
        async with http.stream("GET", url, headers={"X-Init-Data": self.init}) as stream:
            async for line in stream.aiter_lines():
                if not line.startswith("data: "):
                    continue
                state = json.loads(line[6:])
                now = time.perf_counter()
                self.state = state
                self.arrived.setdefault(state["move"], now)
                self.ready.set()
                waiter = self.waiters.pop(state["move"], None)
                if waiter is not None and not waiter.done():
                    waiter.set_result(now)


async def one_play(http: httpx.AsyncClient, players: list[Player]) -> float | None:
    """The player to act plays their first legal card; seconds until the other's stream has
    it (None if the table is over)."""
    state = players[0].state
    seat = state["view"]["current_seat"]
    if state["over"] or seat is None:
        return None
    me, other = players[seat], players[1 - seat]
    mine = me.state
    if mine["move"] != state["move"] or not mine["legal"]:
        return None
    move = mine["move"]
    arrived = asyncio.get_running_loop().create_future()
    other.waiters[move + 1] = arrived
    start = time.perf_counter()
    body = {"game": me.game_id, "move": move, "action": mine["legal"][0]}
    answer = await http.post("api/play", json=body, headers={"X-Init-Data": me.init})
    if answer.status_code != 200:
        other.waiters.pop(move + 1, None)
        return None
    me.state = answer.json()
    try:
        # A forced tail may jump the move by more than one: any newer state counts.
        end = await asyncio.wait_for(arrived, 5)
    except TimeoutError:
        later = [t for m, t in other.arrived.items() if m > move]
        if not later:
            return None
        end = min(later)
    return end - start


def pct(values: list[float], q: float) -> float:
    """The q-quantile in milliseconds."""
    values = sorted(values)
    return 1000 * values[min(len(values) - 1, int(q * len(values)))]


async def load(
    base: str, ids: list[int], rate: float, plays: int, ready: asyncio.Event | None = None
) -> list[float]:
    """Open every table's two streams, then play ``plays`` cards at ``rate`` a second
    (``ready`` is set once every stream is open)."""
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    # The streams apart from the plays: a pool of a thousand busy connections slows every
    # request that has to look through it.
    streams = httpx.AsyncClient(base_url=base, timeout=30, limits=limits)
    async with streams, httpx.AsyncClient(base_url=base, timeout=30) as http:
        tables = [[Player(t, s, gid) for s in (0, 1)] for t, gid in enumerate(ids)]
        tasks = [asyncio.create_task(p.listen(streams)) for pair in tables for p in pair]
        await asyncio.wait_for(
            asyncio.gather(*(p.ready.wait() for pair in tables for p in pair)), 120
        )
        if ready is not None:
            ready.set()
        rng = random.Random(1)
        times: list[float] = []
        pending: set[asyncio.Task] = set()
        busy: set[int] = set()

        async def play(t: int) -> None:
            try:
                took = await one_play(http, tables[t])
                if took is not None:
                    times.append(took)
            finally:
                busy.discard(t)

        gap = 1 / rate
        next_at = time.perf_counter()
        started = 0
        while started < plays:
            free = [t for t in range(len(tables)) if t not in busy]
            if free:
                t = rng.choice(free)
                busy.add(t)
                task = asyncio.create_task(play(t))
                pending.add(task)
                task.add_done_callback(pending.discard)
                started += 1
            next_at += gap
            await asyncio.sleep(max(0, next_at - time.perf_counter()))
        await asyncio.gather(*pending)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return times


# Timestamps taken inside each page (``performance.timeOrigin + now()``, one clock for every
# page of the browser): the click, the stream's message, the state drawn, the frame painted
# (the first task after the next animation frame's rendering).
PAGE_CLOCK = """
window.__bench = {click: [], message: {}, drawn: {}, painted: {}};
const clock = () => performance.timeOrigin + performance.now();
addEventListener("click", () => __bench.click.push(clock()), true);
document.addEventListener("DOMContentLoaded", () => {
  // Every state the page takes in goes through its global newer(): on the other page, the
  // stream's messages.
  const take = window.newer;
  window.newer = (next) => {
    if (!(next.move in __bench.message)) __bench.message[next.move] = clock();
    take(next);
  };
  const app = document.getElementById("app");
  new MutationObserver(() => {
    const move = app.dataset.move;
    if (move in __bench.drawn) return;
    __bench.drawn[move] = clock();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => (__bench.painted[move] = clock());
      channel.port2.postMessage(0);
    });
  }).observe(app, { attributes: true, attributeFilter: ["data-move"] });
});
"""

# What the browser figures are made of, from the pages' own clocks (milliseconds).
STAGES = (
    ("click to the other page painted", "click", "painted"),
    ("  click to the play's answer", "click", "answered"),
    ("  click to the other page's stream message", "click", "message"),
    ("  message to the state drawn (script)", "message", "drawn"),
    ("  drawn to the frame painted", "drawn", "painted"),
)


async def browser_clicks(
    base: str, table: int, game_id: int, clicks: int, after: asyncio.Event | None = None
) -> tuple[list[float], list[dict[str, float]]]:
    """A click in one page until the other page shows the card, both pages in Chromium: the
    time Playwright sees (its click's own checks and round trips included), and each stage as
    the pages' clocks saw it."""
    from playwright.async_api import async_playwright

    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    times: list[float] = []
    stages: list[dict[str, float]] = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium)
        pages = []
        for seat in (0, 1):
            context = await browser.new_context(viewport={"width": 390, "height": 844})
            await context.add_init_script(PAGE_CLOCK)
            page = await context.new_page()
            init = quote(sign_init_data(TOKEN, user_of(table, seat), int(time.time())), safe="")
            await page.goto(f"{base}?game={game_id}#tgWebAppData={init}")
            await page.wait_for_selector("[data-card]", timeout=5000)
            pages.append(page)
        if after is not None:
            await after.wait()
        for _ in range(clicks):
            over = await pages[0].locator("#app[data-over]").count()
            if over:
                break
            acting = None
            for seat, page in enumerate(pages):
                cards = page.locator(".hand.my-turn button[data-card]:not([aria-disabled])")
                if await cards.count():
                    acting = seat
                    break
            if acting is None:
                await asyncio.sleep(0.05)
                continue
            page = pages[acting]
            other = pages[1 - acting]
            move = int(await page.get_attribute("#app", "data-move"))
            clicked = len(await page.evaluate("__bench.click"))
            start = time.perf_counter()
            await cards.first.click()
            await other.wait_for_function(
                "m => Number(document.querySelector('#app').dataset.move) > m", arg=move
            )
            times.append(time.perf_counter() - start)
            await other.wait_for_function(
                "m => Object.keys(__bench.painted).some((k) => Number(k) > m)", arg=move
            )
            mine = await page.evaluate("__bench")
            seen = await other.evaluate("__bench")
            answered = await page.evaluate(
                "performance.getEntriesByType('resource')"
                ".filter((e) => e.name.includes('api/play')).pop().responseEnd"
                " + performance.timeOrigin"
            )
            later = min(int(k) for k in seen["painted"] if int(k) > move)
            at = {"click": mine["click"][clicked], "answered": answered}
            at.update({k: seen[k][str(later)] for k in ("message", "drawn", "painted")})
            stages.append({name: (at[b] - at[a]) / 1000 for name, a, b in STAGES})
        await browser.close()
    return times, stages


def free_port() -> int:
    """A free port of localhost."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def server_process(tables: int) -> Iterator[tuple[str, list[int]]]:
    """A server process holding ``tables`` games: its address and the games' ids."""
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, __file__, "--serve", str(port), "--db", f"{tmp}/b.sqlite3"]
        server = subprocess.Popen(
            [*command, "--tables", str(tables)], stdout=subprocess.PIPE, text=True
        )
        try:
            ids = json.loads(server.stdout.readline())
            for _ in range(400):
                try:
                    httpx.get(base, timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            yield base, ids
        finally:
            server.terminate()
            server.wait()


def report(label: str, times: list[float]) -> None:
    """p50 and p95 of a list of durations."""
    print(
        f"{label}: {len(times)} plays, p50 {pct(times, 0.5):.1f} ms,"
        f" p95 {pct(times, 0.95):.1f} ms, max {1000 * max(times):.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--rate", type=float, default=50, help="plays a second, all tables")
    parser.add_argument("--plays", type=int, default=600)
    parser.add_argument("--browser", action="store_true", help="also click in Chromium")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.serve, args.db, args.tables))
        return
    with server_process(1) as (base, ids):
        sizes = page_weight(base)
        total = sum(sizes.values())
        parts = ", ".join(f"{k} {v / 1000:.1f}" for k, v in sizes.items())
        print(f"page weight: {total / 1000:.1f} KB uncompressed ({parts})")
    with server_process(20) as (base, ids):
        times = asyncio.run(load(base, ids, 10, 100))
        report("20 tables open, play to the other player's stream", times)
        if args.browser:
            browser_report(*asyncio.run(browser_clicks(base, len(ids) - 1, ids[-1], 36)))
    with server_process(args.tables) as (base, ids):
        label = f"{args.tables} tables open ({2 * args.tables} streams), {args.rate:g} plays/s"
        if args.browser:
            # The last table is the browser's, played while the others are loaded.
            times, clicks = asyncio.run(loaded(base, ids, args.rate, args.plays))
            report(label, times)
            print(f"with {args.tables - 1} tables loaded so:")
            browser_report(*clicks)
        else:
            report(label, asyncio.run(load(base, ids, args.rate, args.plays)))


async def loaded(
    base: str, ids: list[int], rate: float, plays: int
) -> tuple[list[float], tuple[list[float], list[dict[str, float]]]]:
    """The load on every table but the last, and the browser's clicks on the last."""
    ready = asyncio.Event()
    return await asyncio.gather(
        load(base, ids[:-1], rate, plays, ready),
        browser_clicks(base, len(ids) - 1, ids[-1], 36, ready),
    )


def browser_report(times: list[float], stages: list[dict[str, float]]) -> None:
    """The browser's figures: as Playwright sees them, and stage by stage in the pages."""
    report("browser, click to the other page drawn, as Playwright sees it", times)
    print("browser, in the pages' own clocks:")
    for name, _, _ in STAGES:
        report(f"  {name}", [s[name] for s in stages])


if __name__ == "__main__":
    main()
