"""The Mini App, local mode and the webhook against a hostile client: bodies over the limit
refused before they are read, every malformed value a 400, stream slots that cannot leak and
streams that end with their game, the same answer for a game one cannot see and one that does
not exist, the signed data only in a header, and the page's security headers."""

# ruff: noqa: F811 (the Mini App's fixture, shared with test_miniapp)

from __future__ import annotations

import asyncio
import json
import random
import tracemalloc

import httpx
import pytest

from bot.core.webhook import webhook_app
from bot.webapp import LOCAL_CHAT
from bot.webapp.server import MAX_BODY, MAX_STREAMS_PER_PERSON
from bot.webapp.tables import WebTables
from tests.webapp.conftest import PHONE
from tests.webapp.test_miniapp import briscola_for_two, init_for, mini  # noqa: F401

pytestmark = pytest.mark.asyncio(loop_scope="session")

HUNDRED_MB = 100 * 1024 * 1024
CHUNK = b"x" * (64 * 1024)


async def post_huge(port: int, init: str, chunked: bool) -> bytes:
    """POST a 100 MB body to the play endpoint, streamed from a buffer of 64 KB, until the
    server answers or closes; returns the status line (empty if none came)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    framing = b"transfer-encoding: chunked" if chunked else b"content-length: %d" % HUNDRED_MB
    writer.write(
        b"POST /api/play HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
        + b"x-init-data: "
        + init.encode()
        + b"\r\n"
        + framing
        + b"\r\n\r\n"
    )
    answer = asyncio.ensure_future(reader.readline())
    sent = 0
    try:
        while sent < HUNDRED_MB and not answer.done():
            if chunked:
                writer.write(b"%x\r\n" % len(CHUNK) + CHUNK + b"\r\n")
            else:
                writer.write(CHUNK)
            await writer.drain()
            sent += len(CHUNK)
    except OSError:
        pass  # the server closed the connection: its answer is in the reader
    try:
        return await asyncio.wait_for(answer, 30)
    except OSError:
        return b""
    finally:
        writer.close()


async def test_large_bodies_get_413_before_they_are_read(mini):
    """Eight 100 MB bodies at once, four announced by Content-Length and four chunked, from a
    signed-in player: each is answered 413 and the server's memory stays flat."""
    table = await briscola_for_two(mini)
    init = init_for(mini.fake, table.users[0])
    port = mini.app.bot_data["webapp"].port
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        lines = await asyncio.gather(*(post_huge(port, init, i % 2 == 1) for i in range(8)))
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert [line.split(b" ")[1] for line in lines] == [b"413"] * 8, lines
    assert peak < 20 * 1024 * 1024, f"{peak / 1e6:.1f} MB"
    live = await mini.svc.games.get(table.game_id)
    assert live.game.move_number == 0
    # A body just under the limit is read (and refused for what it says).
    async with httpx.AsyncClient(base_url=mini.url) as http:
        padded = json.dumps({"game": table.game_id, "move": 0, "action": "x" * (MAX_BODY - 60)})
        answer = await http.post("api/play", content=padded, headers={"X-Init-Data": init})
        assert answer.status_code == 400


def nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


async def test_every_malformed_value_gets_400(mini):
    """Game ids and move numbers that pass ``isdigit`` but are not ASCII digits, numbers too
    long to be one, JSON nested too deep to read or of the wrong shape: 400, never 500, and
    nothing changes."""
    table = await briscola_for_two(mini)
    gid = table.game_id
    init = {"X-Init-Data": init_for(mini.fake, table.users[0])}
    bad_numbers = ["²", "¹", "٣", "1" * 19, "9" * 4301, "-1", "1.0", " 1", "abc"]
    bodies = [
        nested(2000),
        b'{"a":' * 2000 + b"1" + b"}" * 2000,
        b"\xff\xfe",
        b"[]",
        b"1" * 5000,
        json.dumps({"game": "²", "move": 0, "action": "x"}).encode(),
        json.dumps({"game": gid, "move": "0", "action": "x"}).encode(),
        json.dumps({"game": gid, "move": True, "action": "x"}).encode(),
        json.dumps({"game": gid, "move": -1, "action": "x"}).encode(),
        json.dumps({"game": gid, "move": 10**30, "action": "x"}).encode(),
        json.dumps({"game": gid, "move": 0, "action": ["x"]}).encode(),
        b'{"game": 1, "move": 1e400, "action": "x"}',
    ]
    async with httpx.AsyncClient(base_url=mini.url, headers=init, timeout=30) as http:
        for value in bad_numbers:
            for path in (f"api/state?game={value}", f"api/events?game={value}"):
                assert (await http.get(path)).status_code == 400, (path, value)
            moved = await http.get(f"api/events?game={gid}&move={value}")
            assert moved.status_code == 400, value
            if value.strip() == value:  # a header's value has no spaces around it
                resumed = await http.get(
                    f"api/events?game={gid}", headers={"Last-Event-ID": value.encode()}
                )
                assert resumed.status_code == 400, value
        for body in bodies:
            answer = await http.post("api/play", content=body)
            assert answer.status_code == 400, body[:40]
    live = await mini.svc.games.get(gid)
    assert live.game.move_number == 0
    assert not mini.app.bot_data["webapp"].web.tables.per_person


async def test_local_mode_and_the_webhook_refuse_deep_json_with_400(local):
    """Local mode's new game and the webhook read JSON nested 2,000 deep as malformed (400),
    not as a server fault."""
    async with httpx.AsyncClient(base_url=local.url) as http:
        assert (await http.post("api/local/new", content=nested(2000))).status_code == 400
        assert (await http.post("api/local/new", content=b'{"kind": []}')).status_code == 400
        big = b"[" * (MAX_BODY + 1)
        assert (await http.post("api/local/new", content=big)).status_code == 413
    hook = webhook_app(None, "/hook", "s3cret")  # refused before the application is used
    transport = httpx.ASGITransport(app=hook)
    async with httpx.AsyncClient(transport=transport, base_url="http://hook") as http:
        token = {"X-Telegram-Bot-Api-Secret-Token": "s3cret"}
        assert (await http.post("/hook", content=nested(2000), headers=token)).status_code == 400
        assert (
            await http.post("/hook", content=b"x" * (2 << 20), headers=token)
        ).status_code == 413


async def test_no_stream_slot_leaks_after_bad_stream_requests(mini):
    """A hundred bad stream requests (arguments that fail their checks, a stranger) take no
    slot: the person's streams still open up to the cap, the next is refused 429, and every
    slot is given back when the streams close."""
    table = await briscola_for_two(mini)
    gid = table.game_id
    tables = mini.app.bot_data["webapp"].web.tables
    player = init_for(mini.fake, table.users[0])
    stranger = init_for(mini.fake, mini.fake.add_user("Zed", username="zed"))
    bad = [
        ({"Last-Event-ID": "²".encode()}, f"api/events?game={gid}", 400),
        ({"Last-Event-ID": "9" * 4301}, f"api/events?game={gid}", 400),
        ({}, f"api/events?game={gid}&move=²", 400),
        ({}, "api/events?game=²", 400),
        ({}, f"api/events?game={gid}&init={player}", 401),
    ]
    async with httpx.AsyncClient(base_url=mini.url, timeout=30) as http:
        for i in range(100):
            headers, path, status = bad[i % len(bad)]
            if status != 401:  # the player, or a stranger: the arguments are checked first
                headers = {**headers, "X-Init-Data": player if i % 2 else stranger}
            answer = await http.get(path, headers=headers)
            assert answer.status_code == status, (path, answer.status_code)
        assert not tables.per_person
        url = f"api/events?game={gid}&move=0"
        async with contextlib_streams(http, url, player, MAX_STREAMS_PER_PERSON) as streams:
            assert all(s.status_code == 200 for s in streams)
            refused = await http.get(url, headers={"X-Init-Data": player})
            assert refused.status_code == 429
            assert refused.json()["error"]
        await wait_until(lambda: not tables.per_person)


def contextlib_streams(http: httpx.AsyncClient, url: str, init: str, count: int):
    """``count`` open streams of one person (closed on exit)."""
    import contextlib

    @contextlib.asynccontextmanager
    async def streams():
        async with contextlib.AsyncExitStack() as stack:
            opened = [
                await stack.enter_async_context(
                    http.stream("GET", url, headers={"X-Init-Data": init})
                )
                for _ in range(count)
            ]
            yield opened

    return streams()


async def wait_until(condition, bound: float = 10.0) -> None:
    """Poll an in-process condition (a stream's end reaches the server a moment later)."""
    for _ in range(int(bound / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never came")


async def test_one_cap_per_person_across_games():
    """A person's open pages are counted together, whatever games they show."""
    tables = WebTables(None)
    watchers = [tables.watch(game, 0, "it", 7) for game in (1, 2) for _ in range(4)]
    tables.watch(1, 1, "it", 8)
    assert tables.streams_of(7) == 8 and tables.streams_of(8) == 1
    for watcher in watchers:
        tables.unwatch(watcher)
        tables.unwatch(watcher)  # given back once, however often it is asked
    assert tables.streams_of(7) == 0 and tables.streams_of(8) == 1


async def test_streams_end_with_their_game(mini):
    """A page's stream gets the game's last state and then ends; a stream asked for after the
    end gets that state and ends at once; no slot stays taken."""
    table = await briscola_for_two(mini)
    live = await mini.svc.games.get(table.game_id)
    tables = mini.app.bot_data["webapp"].web.tables
    init = {"X-Init-Data": init_for(mini.fake, table.users[0])}
    url = f"api/events?game={table.game_id}&move=0"
    rng = random.Random(3)
    async with httpx.AsyncClient(base_url=mini.url, headers=init, timeout=30) as http:
        async with http.stream("GET", url) as stream:
            # The page in the background: its player plays from the private chat's buttons.
            hidden = {"game": table.game_id, "visible": False}
            assert (await http.post("api/presence", json=hidden)).status_code == 200
            await mini.svc.renderer.drain()
            while not live.game.is_over:
                await table.play_one(rng)
            text = await asyncio.wait_for(stream.aread(), 30)  # ends: the server closed it
        states = [
            json.loads(line[6:]) for line in text.decode().split("\n") if line[:6] == "data: "
        ]
        assert states[-1]["over"] and states[-1]["move"] == live.game.move_number
        after = await asyncio.wait_for(http.get(url), 30)
        assert after.status_code == 200 and '"over":true' in after.text
    await wait_until(lambda: not tables.per_person)
    assert table.game_id not in tables.watchers


async def test_a_game_one_cannot_see_is_answered_as_one_that_does_not_exist(mini):
    """Game ids are sequential: a stranger gets for an existing game exactly the answer of a
    game that does not exist, so they cannot tell which ids are taken."""
    table = await briscola_for_two(mini)
    stranger = {"X-Init-Data": init_for(mini.fake, mini.fake.add_user("Zed", username="zed"))}
    async with httpx.AsyncClient(base_url=mini.url, headers=stranger) as http:
        for path in ("api/state?game={}", "api/events?game={}"):
            existing = await http.get(path.format(table.game_id))
            missing = await http.get(path.format(table.game_id + 1000))
            assert (existing.status_code, existing.json()) == (404, missing.json())
            assert missing.status_code == 404
        body = {"game": table.game_id, "move": 0, "action": "1D"}
        existing = await http.post("api/play", json=body)
        missing = await http.post("api/play", json={**body, "game": table.game_id + 1000})
        assert (existing.status_code, existing.json()) == (missing.status_code, missing.json())


async def test_signed_data_only_in_a_header_and_the_page_is_locked_down(mini):
    """The signed data in the address opens nothing (proxies log addresses); every answer
    carries a Content-Security-Policy that allows the page's own scripts and styles only and
    Telegram's web client as a frame's parent, and nosniff."""
    table = await briscola_for_two(mini)
    init = init_for(mini.fake, table.users[0])
    async with httpx.AsyncClient(base_url=mini.url) as http:
        quoted = httpx.QueryParams({"game": table.game_id, "init": init})
        assert (await http.get(f"api/state?{quoted}")).status_code == 401
        assert (await http.get(f"api/events?{quoted}")).status_code == 401
        for path in ("", "static/app.js", "api/session"):
            answer = await http.get(path, headers={"X-Init-Data": init})
            assert answer.status_code == 200
            policy = answer.headers["content-security-policy"]
            assert "script-src 'self'" in policy and "style-src 'self'" in policy
            assert "default-src 'none'" in policy and "unsafe" not in policy
            assert "frame-ancestors 'self' https://web.telegram.org" in policy
            assert answer.headers["x-content-type-options"] == "nosniff"


async def test_the_page_tries_a_refused_stream_again_with_back_off(browser, local):
    """A stream refused (429: the person has too many open) or broken is asked for again,
    later each time, and the page follows the game once it is let in."""
    context = await browser.new_context(viewport=PHONE)
    page = await context.new_page()
    asked: list[float] = []

    async def events(route) -> None:
        asked.append(await page.evaluate("performance.now()"))
        if len(asked) <= 2:
            await route.fulfill(status=429, json={"error": "too many"})
        else:
            await route.continue_()

    await page.route("**/api/events?*", events)
    try:
        await page.goto(local.url)
        await page.click("#start")
        await page.wait_for_selector("#app[data-move]")
        await page.wait_for_function("() => !document.body.classList.contains('offline')")
        async with asyncio.timeout(30):
            while len(asked) < 3:
                await asyncio.sleep(0.05)
        await page.wait_for_function("() => !document.body.classList.contains('offline')")
        # Back-off: the second wait is longer than the first.
        assert asked[2] - asked[1] > asked[1] - asked[0]
        game = await local.svc.games.in_chat(LOCAL_CHAT)
        await wait_until(lambda: local.web.tables.streams_of(0) == 1)
        assert game.game_id in local.web.tables.watchers
    finally:
        await context.close()
