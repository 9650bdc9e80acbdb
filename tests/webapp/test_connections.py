"""The web servers' connections (``bot.core.webserver``): a request's head and body each have
a deadline however slowly their bytes come, and a full server closes its oldest idle connection
for a new one, or refuses the new one with 503 when every connection is busy, saying so once in
the log."""

from __future__ import annotations

import asyncio
import logging
import socket

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from bot.core import webserver
from bot.core.webserver import guard_of, guarded_config

pytestmark = pytest.mark.asyncio(loop_scope="session")

BOUND = 30.0  # generous: the machine may be busy; nothing here measures speed


class Small:
    """A guarded server for ``cap`` connections with a page and a page that waits for
    ``release``."""

    def __init__(self, cap: int) -> None:
        self.release = asyncio.Event()

        async def page(request):
            return PlainTextResponse(f"ok {len(await request.body())}")

        async def hold(request):
            await self.release.wait()
            return PlainTextResponse("held")

        app = Starlette(routes=[Route("/", page, methods=["GET", "POST"]), Route("/hold", hold)])
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.config = guarded_config(app, "the test port", cap)
        self.server = uvicorn.Server(self.config)
        self.guard = guard_of(self.config)

    @property
    def port(self) -> int:
        return self.sock.getsockname()[1]

    async def __aenter__(self) -> Small:
        self.task = asyncio.create_task(self.server.serve(sockets=[self.sock]))
        while not self.server.started:
            await asyncio.sleep(0.01)
        return self

    async def __aexit__(self, *exc) -> None:
        self.release.set()
        self.server.should_exit = True
        await self.task
        self.sock.close()

    async def connect(self, first: bytes = b""):
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        if first:
            writer.write(first)
            await writer.drain()
        return reader, writer


async def until(condition) -> None:
    """Wait for the server (on this loop) to get there."""
    async with asyncio.timeout(BOUND):
        while not condition():
            await asyncio.sleep(0.005)


async def closed_by_server(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the connection."""
    async with asyncio.timeout(BOUND):
        return await reader.read()


async def test_a_silent_or_slow_head_and_a_slow_body_are_closed_at_their_deadline(monkeypatch):
    """A connection that sends nothing, a head sent a byte at a time, a body that stops
    coming: each is closed at its deadline (uvicorn alone holds them for ever)."""
    monkeypatch.setattr(webserver, "HEAD_TIMEOUT", 0.3)
    monkeypatch.setattr(webserver, "BODY_TIMEOUT", 0.3)
    async with Small(cap=10) as small:
        silent, _ = await small.connect()
        slow, slow_writer = await small.connect(b"GET / HTTP/1.1\r\nHost: x\r\n")

        async def trickle() -> None:
            for _ in range(10_000):  # a header byte now and then: never the head's end
                try:
                    slow_writer.write(b"X")
                    await slow_writer.drain()
                except OSError:
                    return  # closed by the server
                await asyncio.sleep(0.05)

        trickling = asyncio.create_task(trickle())
        body, _ = await small.connect(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n1")
        assert await closed_by_server(silent) == b""
        assert await closed_by_server(slow) == b""
        assert await closed_by_server(body) == b""
        await trickling
        # A request sent whole is served, and its connection kept alive for the next one.
        reader, writer = await small.connect(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        async with asyncio.timeout(BOUND):
            assert (await reader.readline()).startswith(b"HTTP/1.1 200")
        writer.close()
        await until(lambda: small.guard.open == 0)


async def test_a_full_server_closes_idle_connections_and_refuses_when_all_are_busy(caplog):
    """At its cap, a new connection takes the place of the oldest idle one; when every
    connection is serving a request, the new one gets 503 at once. The log says it once,
    however many are turned away, and once more when the server has room again."""
    caplog.set_level(logging.WARNING, logger="bot.core.webserver")
    async with Small(cap=4) as small:
        idle = [await small.connect() for _ in range(4)]
        await until(lambda: small.guard.open == 4)
        reader, writer = await small.connect(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert await closed_by_server(idle[0][0]) == b""  # the oldest idle one made room
        async with asyncio.timeout(BOUND):
            assert (await reader.readline()).startswith(b"HTTP/1.1 200")
        for _, w in idle[1:]:
            w.close()
        writer.close()
        await until(lambda: small.guard.open == 0)

        busy = [await small.connect(b"GET /hold HTTP/1.1\r\nHost: x\r\n\r\n") for _ in range(4)]
        await until(lambda: small.guard.open == 4 and not small.guard.idle)
        for _ in range(20):
            refused, _ = await small.connect()
            answer = await closed_by_server(refused)
            assert answer.startswith(b"HTTP/1.1 503") and b"connection: close" in answer
        small.release.set()
        for r, _ in busy:
            async with asyncio.timeout(BOUND):
                assert (await r.readline()).startswith(b"HTTP/1.1 200")
        for _, w in busy:
            w.close()
        await until(lambda: small.guard.open == 0)
    said = [r.getMessage() for r in caplog.records if r.name == "bot.core.webserver"]
    # Full, and room again; the second time within a minute goes unsaid.
    assert len(said) == 2, said
