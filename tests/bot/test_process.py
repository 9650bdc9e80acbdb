"""``python -m bot`` as a real process, talking HTTP to the fake Bot API through
TELEGRAM_API_BASE_URL: long polling, a kill and a restart on the same database, and webhook
mode when WEBHOOK_URL is set."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.bot.conftest import t
from tests.fake_telegram import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]
WAIT = 30.0  # a generous bound for a slow machine; the test never measures speed


def wait_for(what: str, condition: Callable[[], object]) -> object:
    """Poll until ``condition()`` is truthy; fail naming ``what`` if it never comes."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"the bot never got to: {what}")


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_bot(tmp_path: Path, fake: FakeTelegram, base_url: str, **env: str) -> subprocess.Popen:
    """Run the README's command with the fake's URL and token."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "WEBHOOK_"))}
    clean |= {
        "PYTHONPATH": str(ROOT),
        "TELEGRAM_BOT_TOKEN": fake.token,
        "TELEGRAM_API_BASE_URL": base_url,
        "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
        **env,
    }
    return subprocess.Popen(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=clean,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def stop_bot(process: subprocess.Popen) -> str:
    """Stop the bot the way a process manager does (SIGTERM); return what it logged."""
    process.send_signal(signal.SIGTERM)
    try:
        _, err = process.communicate(timeout=WAIT)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
        pytest.fail(f"the bot did not stop on SIGTERM:\n{err}")
    return err


def test_polling_process_killed_and_restarted_keeps_the_lobby(tmp_path):
    """The bot polls the fake over HTTP; after SIGTERM a new process on the same database
    still knows the lobby, brings its message up to date and takes a join."""
    fake = FakeTelegram()
    alice = fake.add_user("Alice", language_code="it")
    bob = fake.add_user("Bob", language_code="it")
    group = fake.add_group("Tavolo", members=[alice, bob])
    with fake.serve() as server:
        bot = start_bot(tmp_path, fake, server.base_url)
        try:
            fake.start_private(alice)
            fake.start_private(bob)
            wait_for("welcoming Alice", lambda: fake.messages(alice))
            fake.send_text(alice, group, "/nuova briscola 2")
            lobby = wait_for("the lobby", lambda: fake.last_message(group))
        finally:
            err = stop_bot(bot)
        assert "Traceback" not in err, err
        bot = start_bot(tmp_path, fake, server.base_url)
        try:
            fake.press_button(bob, lobby, t("btn-join"))
            wait_for("seating Bob", lambda: "Bob" in fake.message(group, lobby.message_id).text)
            text = fake.message(group, lobby.message_id).text
            assert "Alice" in text and "Bob" in text
        finally:
            err = stop_bot(bot)
        assert "Traceback" not in err, err


def test_webhook_mode_serves_updates_posted_to_the_webhook(tmp_path):
    """With WEBHOOK_URL the bot registers the webhook and answers updates posted to it."""
    fake = FakeTelegram()
    alice = fake.add_user("Alice", language_code="it")
    port = free_port()
    with fake.serve() as server:
        bot = start_bot(
            tmp_path,
            fake,
            server.base_url,
            # Telegram posts to the public https address; a proxy passes it on to the port.
            WEBHOOK_URL="https://tavolata.example/hook",
            WEBHOOK_LISTEN="127.0.0.1",
            PORT=str(port),
            WEBHOOK_SECRET="s3cret",
        )
        try:
            wait_for("setting the webhook", lambda: fake.webhook_url)
            assert fake.webhook_url == "https://tavolata.example/hook"
            update = fake.start_private(alice)

            def post() -> bool:
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}/hook",
                    data=json.dumps(update).encode(),
                    headers={
                        "Content-Type": "application/json",
                        "X-Telegram-Bot-Api-Secret-Token": "s3cret",
                    },
                )
                try:
                    with urllib.request.urlopen(request, timeout=5) as answer:
                        return answer.status == 200
                except OSError:
                    return False  # not listening yet

            wait_for("listening on the webhook", post)
            welcome = wait_for("welcoming Alice", lambda: fake.messages(alice))
            assert "Tavolata" in welcome[0].text
        finally:
            err = stop_bot(bot)
        assert "Traceback" not in err, err
