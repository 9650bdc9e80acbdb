"""``python -m bot`` at 1,024 open files while 1,100 idle connections sit on one of its web
ports (the Mini App's, the webhook's): the bot goes on answering commands through the Bot API,
and its log says it in a line or two, not once per connection."""

from __future__ import annotations

import contextlib
import errno
import selectors
import socket
import time
from pathlib import Path

from bot.core.openfiles import raise_open_file_limit
from tests.bot.test_process import (
    free_port,
    post_update,
    start_bot,
    start_webhook_bot,
    stop_bot,
    wait_for,
)
from tests.fake_telegram import FakeTelegram

ATTACKERS = 1100
# The process's open files, soft and hard limit alike (so start-up cannot raise it).
AT_1024 = (
    "-c",
    "import resource, runpy, sys; "
    "resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024)); "
    "sys.argv = ['bot']; runpy.run_module('bot', run_name='__main__')",
)
# The bound for an answer while the port is crowded (a command, not a measurement).
ANSWER_BOUND = 2.0


def crowd(port: int) -> list[socket.socket]:
    """Open ``ATTACKERS`` connections to the port: half silent, half with a request head that
    never ends. Returns once every connection has been made (or refused by the server)."""
    # The crowd's sockets are this process's open files: past the usual soft limit of 1,024
    # (a new user's on Debian), up to the hard one, as the bot itself does at start-up.
    assert raise_open_file_limit() > ATTACKERS + 100, "the hard open-file limit is too low"
    sockets = []
    for _ in range(ATTACKERS):
        s = socket.socket()
        s.setblocking(False)
        err = s.connect_ex(("127.0.0.1", port))
        assert err in (0, errno.EINPROGRESS), errno.errorcode.get(err)
        sockets.append(s)
    half = set(sockets[1::2])
    waiting = len(sockets)
    deadline = time.monotonic() + 60
    with selectors.DefaultSelector() as connected:
        for s in sockets:
            connected.register(s, selectors.EVENT_WRITE)
        while waiting and time.monotonic() < deadline:
            for key, _ in connected.select(0.5):
                s = key.fileobj
                connected.unregister(s)
                waiting -= 1
                if s in half and not s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                    with contextlib.suppress(OSError):  # closed by the server already
                        s.send(b"GET / HTTP/1.1\r\nHost: x\r\n")
    assert not waiting, f"{waiting} connections never made"
    return sockets


def log_lines(log: Path) -> list[str]:
    return [line for line in log.read_text().splitlines() if line.strip()]


def test_the_mini_apps_port_crowded_does_not_stop_the_bot(tmp_path):
    """1,100 idle connections on the Mini App's port of a polling bot at 1,024 open files: a
    command is answered within two seconds, and the log holds a line or two about it."""
    fake = FakeTelegram()
    alice = fake.add_user("Alice", language_code="it")
    port = free_port()
    log = tmp_path / "bot.log"
    with fake.serve() as server:
        bot = start_bot(
            tmp_path,
            fake,
            server.base_url,
            args=AT_1024,
            log=log,
            LOG_LEVEL="WARNING",
            WEBAPP_URL="https://table.example/",
            WEBAPP_LISTEN="127.0.0.1",
            WEBAPP_PORT=str(port),
        )
        sockets = []
        try:
            before = log_lines(log)
            sockets = crowd(port)
            fake.start_private(alice)
            wait_for("answering /start", lambda: fake.messages(alice), bound=ANSWER_BOUND)
        finally:
            for s in sockets:
                s.close()
            stop_bot(bot)
    said = log_lines(log)[len(before) :]
    assert len(said) <= 3, said
    assert not [line for line in said if "ERROR" in line or "Traceback" in line], said


def test_the_webhooks_port_crowded_does_not_stop_the_bot(tmp_path):
    """1,100 idle connections on the webhook's port at 1,024 open files: an update Telegram
    posts still gets in, is answered within two seconds, and the log holds a line or two."""
    fake = FakeTelegram()
    alice = fake.add_user("Alice", language_code="it")
    port = free_port()
    log = tmp_path / "bot.log"
    token = {"X-Telegram-Bot-Api-Secret-Token": "s3cret"}
    with fake.serve() as server:
        bot = start_webhook_bot(
            tmp_path,
            fake,
            server.base_url,
            port,
            args=AT_1024,
            log=log,
            WEBHOOK_SECRET="s3cret",
            LOG_LEVEL="WARNING",
        )
        sockets = []
        try:
            wait_for("listening", lambda: post_update(port, {"update_id": 1}, token) == 200)
            before = log_lines(log)
            sockets = crowd(port)
            started = time.monotonic()
            assert post_update(port, fake.start_private(alice), token) == 200
            wait_for(
                "answering /start",
                lambda: fake.messages(alice),
                bound=max(0.1, ANSWER_BOUND - (time.monotonic() - started)),
            )
        finally:
            for s in sockets:
                s.close()
            stop_bot(bot)
    said = log_lines(log)[len(before) :]
    assert len(said) <= 3, said
    assert not [line for line in said if "ERROR" in line or "Traceback" in line], said
