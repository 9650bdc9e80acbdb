"""The web servers of the process (the webhook, the Mini App, local mode) as they face the
internet: uvicorn's h11 server with a cap on connections, timeouts on reading a request, a size
limit on bodies, and a log that speaks once however many connections it turns away.

uvicorn alone times out only the idle keep-alive connection after a response: a client that
opens a connection and sends nothing, or a request head a byte at a time, is held for ever, and
``limit_concurrency`` answers 503 only once a request has been read. ``GuardedProtocol`` adds:

- a deadline for the request head (from the connection, or the end of the previous response)
  and one for the body (from the head), however slowly the bytes come;
- a cap on open connections: a new connection over it closes the oldest one that has no
  request in progress (an idle keep-alive, a head still being sent); when every connection is
  busy, the new one gets ``503`` with ``Connection: close`` at once and is closed;
- a listen backlog small enough that one burst of connections cannot take the process's open
  files: the cap is chosen from the open-file limit, which start-up raises as far as allowed.

``BodyLimit`` refuses a body over its limit with 413 before it is read: at once by its
``Content-Length``, or as soon as the bytes streamed pass the limit; the connection is closed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

import h11
import uvicorn
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from bot.core.openfiles import BACKLOG, connection_cap, raise_open_file_limit

log = logging.getLogger(__name__)

__all__ = [
    "BodyLimit",
    "Guard",
    "GuardedProtocol",
    "connection_cap",
    "guarded_config",
    "raise_open_file_limit",
    "read_json",
]

# Seconds a client has to send a request's head, and then its body.
HEAD_TIMEOUT = 10.0
BODY_TIMEOUT = 10.0
# Seconds an idle keep-alive connection stays open after a response.
KEEP_ALIVE = 5
# Bytes of a request's head (its line and headers): Telegram's signed data is at most 4 KB.
MAX_HEAD = 16 * 1024
# A crowded server says so at most this often (seconds).
CROWDED_LOG_EVERY = 60.0

BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"retry-after: 5\r\nconnection: close\r\ncontent-length: 5\r\n\r\nbusy\n"
)

# uvicorn says every malformed request and unsupported upgrade in the log: a client could
# write there at will. Faults of the server itself (errors) are still said.
_requests_log = logging.getLogger(__name__ + ".requests")
_requests_log.setLevel(logging.ERROR)


class Guard:
    """One server's connections: how many are open, those without a request in progress
    (oldest first), and whether the log has said that the server is full."""

    def __init__(self, name: str, cap: int) -> None:
        self.name = name
        self.cap = cap
        self.open = 0
        self.idle: dict[GuardedProtocol, None] = {}
        self.refused = 0
        self.closed_idle = 0
        self.crowded = False
        self._told = False
        self._said = -CROWDED_LOG_EVERY

    def admit(self) -> bool:
        """Room for one more connection: the oldest idle one is closed when the server is
        full; False when every connection is busy (the new one is refused)."""
        if self.open >= self.cap:
            self._crowded()
            if not self.idle:
                self.refused += 1
                return False
            oldest = next(iter(self.idle))
            self.idle.pop(oldest)
            self.closed_idle += 1
            oldest.drop()
        self.open += 1
        return True

    def gone(self) -> None:
        """An admitted connection closed."""
        self.open -= 1
        if self.crowded and self.open <= self.cap // 2:
            self.crowded = False
            if self._told:
                self._told = False
                log.warning(
                    "%s has room again (%d connections refused, %d idle ones closed so far)",
                    self.name,
                    self.refused,
                    self.closed_idle,
                )

    def _crowded(self) -> None:
        """Said once a minute at most, however long or often the server is full."""
        if self.crowded:
            return
        self.crowded = True
        now = time.monotonic()
        if now - self._said >= CROWDED_LOG_EVERY:
            self._said = now
            self._told = True
            log.warning(
                "%s holds its limit of %d connections: idle ones are closed and new ones "
                "refused while it lasts",
                self.name,
                self.cap,
            )


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol under a ``Guard``, with deadlines for each request's head and
    body (``guard`` is set on a subclass made for each server)."""

    guard: Guard

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.logger = _requests_log
        self._refused = False
        self._phase = ""
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the connection in, or refuse it with 503 when every one is busy."""
        if not self.guard.admit():
            self._refused = True
            self.transport = transport
            transport.write(BUSY)
            transport.close()
            return
        super().connection_made(transport)
        self._track()

    def connection_lost(self, exc: Exception | None) -> None:
        """Count the connection out."""
        if self._refused:
            return
        self._set_deadline(None)
        self.guard.idle.pop(self, None)
        self.guard.gone()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Read as uvicorn does, then follow where the request has got to."""
        super().data_received(data)
        self._track()

    def on_response_complete(self) -> None:
        """The response went out: the next request's head is awaited."""
        super().on_response_complete()
        self._track()

    def drop(self) -> None:
        """Close a connection that has no request in progress (the server needs its place)."""
        if not self.transport.is_closing():
            self.transport.close()

    def _track(self) -> None:
        """Deadlines follow the request: its head, then its body; none while it is served."""
        if self.transport.is_closing():
            return
        state = self.conn.their_state
        phase = "head" if state is h11.IDLE else "body" if state is h11.SEND_BODY else "served"
        if phase == self._phase:
            return
        self._phase = phase
        if phase == "head":
            self.guard.idle[self] = None
            self._set_deadline(HEAD_TIMEOUT)
        else:
            self.guard.idle.pop(self, None)
            self._set_deadline(BODY_TIMEOUT if phase == "body" else None)

    def _set_deadline(self, seconds: float | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        if seconds is not None:
            self._deadline = self.loop.call_later(seconds, self.drop)


def guarded_config(app: ASGIApp, name: str, max_connections: int, **kwargs: Any) -> uvicorn.Config:
    """uvicorn's configuration for one of the process's servers (``name`` in the log)."""
    protocol = type("GuardedProtocol", (GuardedProtocol,), {"guard": Guard(name, max_connections)})
    return uvicorn.Config(
        app,
        http=protocol,
        ws="none",
        log_level="warning",
        access_log=False,
        lifespan="off",
        backlog=BACKLOG,
        timeout_keep_alive=KEEP_ALIVE,
        timeout_graceful_shutdown=1,
        h11_max_incomplete_event_size=MAX_HEAD,
        server_header=False,
        **kwargs,
    )


def guard_of(config: uvicorn.Config) -> Guard:
    """The guard of a server made by ``guarded_config``."""
    return config.http.guard  # type: ignore[union-attr]


class BodyLimit:
    """ASGI middleware: a request's body is read whole (it is small) before the app runs, and
    one over ``limit`` bytes is answered 413 without reading on."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one request."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length: bytes | None = None
        chunked = False
        for name, value in scope["headers"]:
            if name == b"content-length":
                length = value
            elif name == b"transfer-encoding":
                chunked = True
        if length is None and not chunked:  # no body (h11 reads none)
            await self.app(scope, receive, send)
            return
        # h11 has checked that a Content-Length is digits.
        if length is not None and int(length) > self.limit:
            await _too_large(send)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left
            body += message.get("body", b"")
            if len(body) > self.limit:
                await _too_large(send)
                return
            if not message.get("more_body", False):
                break
        await self.app(scope, _replay(bytes(body), receive), send)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body already read, then waits for the disconnection."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _too_large(send: Send) -> None:
    headers = [(b"content-length", b"0"), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": b""})


def read_json(body: bytes) -> Any:
    """A request body's JSON; ``ValueError`` for anything that is not (bad bytes, bad syntax,
    a nesting too deep to read)."""
    try:
        return json.loads(body)
    except RecursionError:
        raise ValueError("nested too deep") from None
