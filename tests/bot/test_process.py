"""``python -m bot`` as a real process, talking HTTP to the fake Bot API through
TELEGRAM_API_BASE_URL: long polling, a kill and a restart on the same database, and webhook
mode when WEBHOOK_URL is set."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.core.intake import ALLOWED_UPDATES
from tests.bot.conftest import t
from tests.fake_telegram import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]
# Generous bounds for a machine busy with other work; the tests never measure speed. A step
# (a press answered, a message drawn) gets WAIT; a start-up (the imports, the database, the
# first call to the Bot API) gets STARTUP: on a loaded machine it takes tens of seconds, and a
# step that counted it in its own bound failed now and then.
WAIT = 30.0
STARTUP = 180.0


def wait_for(
    what: str,
    condition: Callable[[], object],
    bound: float = WAIT,
    explain: Callable[[], str] | None = None,
) -> object:
    """Poll until ``condition()`` is truthy; fail naming ``what`` (and what ``explain`` says
    was seen instead) if it never comes."""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"the bot never got to: {what}" + (f"\n{explain()}" if explain else ""))


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_bot(
    tmp_path: Path,
    fake: FakeTelegram,
    base_url: str,
    *,
    args: tuple[str, ...] = ("-m", "bot"),
    ready: str | None = "getUpdates",
    log: Path | None = None,
    **env: str,
) -> subprocess.Popen:
    """Run the README's command (or ``args``) with the fake's URL and token; with ``ready``,
    return once the new process has made that call (its first poll by default), failing at
    once with its log if it exits before. Its log goes to ``log`` if given (a process that
    runs for several tests), else to a pipe."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "WEBHOOK_"))}
    clean |= {
        "PYTHONPATH": str(ROOT),
        "TELEGRAM_BOT_TOKEN": fake.token,
        "TELEGRAM_API_BASE_URL": base_url,
        "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
        **env,
    }
    before = len(fake.calls_of(ready)) if ready else 0
    with open(log, "w") if log is not None else contextlib.nullcontext() as log_file:
        process = subprocess.Popen(
            [sys.executable, *args],
            cwd=tmp_path,
            env=clean,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE if log_file is None else log_file,
            text=True,
        )
    if ready:

        def up() -> bool:
            if process.poll() is not None:
                err = process.stderr.read() if process.stderr else log.read_text()
                pytest.fail(f"the bot exited ({process.returncode}) before {ready}:\n{err}")
            return len(fake.calls_of(ready)) > before

        try:
            wait_for(f"its first {ready}", up, bound=STARTUP)
        except BaseException:
            process.kill()
            process.communicate()
            raise
    return process


def finish(process: subprocess.Popen, failure: str, bound: float = WAIT) -> str:
    """Wait for the bot to exit; return what it logged (fail with ``failure`` if it never
    does)."""
    try:
        _, err = process.communicate(timeout=bound)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
        pytest.fail(f"{failure}:\n{err}")
    return err


def stop_bot(process: subprocess.Popen) -> str:
    """Stop the bot the way a process manager does (SIGTERM); return what it logged."""
    process.send_signal(signal.SIGTERM)
    return finish(process, "the bot did not stop on SIGTERM")


class PollingBot:
    """One polling bot for the tests that need one running: started once for the module, and
    restarted (SIGTERM, then a new process) by the tests that check what a restart keeps.
    Its log goes to a file per process, read as it grows."""

    def __init__(self, fake: FakeTelegram, base_url: str, folder: Path) -> None:
        self.fake, self.base_url = fake, base_url
        self.starts = 0
        self.start(folder)

    def start(self, folder: Path) -> None:
        """A new process on the database in ``folder``."""
        self.starts += 1
        self.folder = folder
        self.log_path = folder / f"bot-{self.starts}.log"
        self.process = start_bot(
            folder, self.fake, self.base_url, log=self.log_path, LOG_LEVEL="WARNING"
        )

    def log(self) -> str:
        """What the running (or last) process logged so far."""
        return self.log_path.read_text()

    def stop(self) -> str:
        """SIGTERM; the process's whole log once it exited."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                pytest.fail(f"the bot did not stop on SIGTERM:\n{self.log()}")
        return self.log()

    def restart(self, folder: Path | None = None) -> str:
        """Stop the bot and start it again, on the same database or the one in ``folder``;
        returns the stopped process's log."""
        err = self.stop()
        assert self.process.returncode == 0, err
        self.start(folder or self.folder)
        return err


@pytest.fixture(scope="module")
def polling(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PollingBot]:
    """The module's polling bot, against its own fake Bot API."""
    fake = FakeTelegram()
    with fake.serve() as server:
        bot = PollingBot(fake, server.base_url, tmp_path_factory.mktemp("polling"))
        try:
            yield bot
        finally:
            err = bot.stop()
    assert "Traceback" not in err, err


def open_lobby(fake: FakeTelegram, alice: dict, bob: dict, group: dict):
    """Both players open the private chat, Alice opens a Briscola lobby; returns its message."""
    fake.start_private(alice)
    fake.start_private(bob)
    wait_for("welcoming Alice", lambda: fake.messages(alice))
    fake.send_text(alice, group, "/nuova briscola 2")
    return wait_for("the lobby", lambda: fake.last_message(group))


def test_polling_process_killed_and_restarted_keeps_the_lobby(polling):
    """The bot polls the fake over HTTP; after SIGTERM a new process on the same database
    still knows the lobby, brings its message up to date and takes a join."""
    fake = polling.fake
    alice = fake.add_user("Alice", language_code="it")
    bob = fake.add_user("Bob", language_code="it")
    group = fake.add_group("Tavolo", members=[alice, bob])
    lobby = open_lobby(fake, alice, bob, group)
    err = polling.restart()
    assert "Traceback" not in err, err
    fake.press_button(bob, lobby, t("btn-join"))
    wait_for("seating Bob", lambda: "Bob" in fake.message(group, lobby.message_id).text)
    text = fake.message(group, lobby.message_id).text
    assert "Alice" in text and "Bob" in text
    assert "Traceback" not in polling.log(), polling.log()


def start_webhook_bot(
    tmp_path: Path, fake: FakeTelegram, base_url: str, port: int, **env: str
) -> subprocess.Popen:
    """The bot in webhook mode, listening on ``port`` of localhost."""
    return start_bot(
        tmp_path,
        fake,
        base_url,
        # Telegram posts to the public https address; a proxy passes it on to the port.
        WEBHOOK_URL="https://tavolata.example/hook",
        WEBHOOK_LISTEN="127.0.0.1",
        PORT=str(port),
        ready="setWebhook",
        **env,
    )


def post_update(port: int, update: dict, headers: dict[str, str]) -> int | None:
    """POST an update to the bot's webhook as Telegram does: the HTTP status, or None when
    nothing listens yet."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/hook",
        data=json.dumps(update).encode(),
        headers={"Content-Type": "application/json", **headers},
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return None


def post_raw(port: int, body: bytes, headers: dict[str, str]) -> int | None:
    """POST any body to the bot's webhook: the HTTP status."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/hook",
        data=body,
        headers={"Content-Type": "application/json", **headers},
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_webhook_mode_serves_updates_posted_to_the_webhook(tmp_path):
    """With WEBHOOK_URL the bot registers the webhook and answers updates posted to it. An
    update the library cannot parse is logged once and answered 200 (so Telegram does not post
    it again), a body that is not JSON gets 400, and the bot goes on."""
    fake = FakeTelegram()
    alice = fake.add_user("Alice", language_code="it")
    port = free_port()
    with fake.serve() as server:
        bot = start_webhook_bot(
            tmp_path, fake, server.base_url, port, WEBHOOK_SECRET="s3cret", LOG_LEVEL="WARNING"
        )
        try:
            assert fake.webhook_url == "https://tavolata.example/hook"
            assert sorted(fake.allowed_updates()) == sorted(ALLOWED_UPDATES)
            token = {"X-Telegram-Bot-Api-Secret-Token": "s3cret"}
            unreadable = {"update_id": 4242, "message": {"message_id": 1, "text": "/start"}}

            def post_unreadable() -> bool:
                return post_update(port, unreadable, token) == 200

            wait_for("listening on the webhook", post_unreadable)
            assert post_raw(port, b"{not json", token) == 400
            assert post_update(port, fake.start_private(alice), token) == 200
            welcome = wait_for("welcoming Alice", lambda: fake.messages(alice))
            assert "Tavolata" in welcome[0].text
        finally:
            err = stop_bot(bot)
        assert bot.returncode == 0, err
    assert "Traceback" not in err and " ERROR " not in err and "CRITICAL" not in err, err
    skipped = [line for line in err.splitlines() if "skipped update 4242" in line]
    assert len(skipped) == 1, err


def test_a_webhook_port_already_taken_stops_the_start_with_one_line(tmp_path):
    """Webhook mode on a port another program holds: one line naming the address, exit 2."""
    fake = FakeTelegram()
    with socket.create_server(("127.0.0.1", 0)) as taken, fake.serve() as server:
        port = taken.getsockname()[1]
        status, err = run_to_exit(
            tmp_path,
            fake,
            server.base_url,
            WEBHOOK_URL="https://tavolata.example/hook",
            WEBHOOK_LISTEN="127.0.0.1",
            PORT=str(port),
        )
    assert status == 2, err
    assert err.strip().splitlines() == [
        f"webhook error: cannot listen on 127.0.0.1:{port} (the port is taken by another program)"
    ], err


def run_to_exit(tmp_path: Path, fake: FakeTelegram, base_url: str, *args: str, **env: str):
    """Run the bot (or ``python -m bot ARGS``) until it exits by itself: (status, stderr)."""
    process = start_bot(tmp_path, fake, base_url, args=("-m", "bot", *args), ready=None, **env)
    err = finish(process, "the bot did not stop by itself", bound=STARTUP)
    return process.returncode, err


def make_database(path: Path) -> None:
    """A database as the bot leaves it, with some rows (so that it has several pages)."""
    import asyncio

    from bot.core.storage import Storage

    async def fill() -> None:
        storage = await Storage.open(path)
        for i in range(300):
            await storage.upsert_user(i, "Giocatore" * 20, None, "it")
        await storage.create_lobby(-1, "Tavolo", 1, "Alice", "it", "briscola", 2)
        await storage.close()

    asyncio.run(fill())


def damage(kind: str, tmp_path: Path) -> tuple[str, str]:
    """Set up one start-up fault: (DATABASE_PATH, what the one line must say)."""
    db = tmp_path / "bot.sqlite3"
    if kind == "directory":
        db.mkdir()
        return str(db), "is a directory"
    if kind == "empty":
        return "", "DATABASE_PATH: is empty"
    if kind == "under a file":
        (tmp_path / "plain").write_text("not a folder")
        return str(tmp_path / "plain" / "bot.sqlite3"), "which is a file"
    if kind == "not creatable":
        return "/proc/tavolata/bot.sqlite3", "cannot be created"
    if kind == "random bytes":
        db.write_bytes(random.Random(1).randbytes(50_000))
        return str(db), "is damaged"
    make_database(db)
    if kind == "truncated":
        with open(db, "r+b") as f:
            f.truncate(db.stat().st_size // 3)
        return str(db), "is damaged"
    if kind == "damaged pages":
        with open(db, "r+b") as f:
            f.seek(2 * 4096)  # the header of the third page: a table's b-tree page
            f.write(b"\x07" * 16)
        return str(db), "is damaged"
    assert kind == "read-only"
    if os.geteuid() == 0:  # root writes to a 0444 file: make it immutable instead
        subprocess.run(["chattr", "+i", str(db)], check=True)
    else:
        db.chmod(0o444)
    return str(db), "is read-only"


@pytest.mark.parametrize(
    "kind",
    [
        "directory",
        "empty",
        "under a file",
        "not creatable",
        "random bytes",
        "truncated",
        "damaged pages",
        "read-only",
    ],
)
def test_a_bad_database_stops_the_start_with_one_line(tmp_path, kind):
    """Each database fault at start-up: exit status 2, one line on stderr naming the path and
    what is wrong, no traceback; a damaged file is left exactly as it was."""
    fake = FakeTelegram()
    path, said = damage(kind, tmp_path)
    before = Path(path).read_bytes() if path and Path(path).is_file() else None
    try:
        with fake.serve() as server:
            status, err = run_to_exit(tmp_path, fake, server.base_url, DATABASE_PATH=path)
        if before is not None:
            assert Path(path).read_bytes() == before, "the damaged database was written to"
    finally:
        if kind == "read-only" and os.geteuid() == 0:
            subprocess.run(["chattr", "-i", path], check=True)
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and said in lines[0] and "Traceback" not in err, err
    assert kind == "empty" or path in lines[0], err
    assert not [c for c, _ in fake.calls], "the bot talked to Telegram before its checks"


def test_a_refused_token_stops_with_one_line(tmp_path):
    """A token Telegram refuses (401): exit status 2 and one line, no traceback."""
    fake = FakeTelegram()
    with fake.serve() as server:
        status, err = run_to_exit(
            tmp_path, fake, server.base_url, TELEGRAM_BOT_TOKEN="123:refused-token"
        )
    assert status == 2, err
    assert err.strip() == "configuration error: TELEGRAM_BOT_TOKEN was refused by Telegram"


def test_an_unreachable_bot_api_is_said_once_and_tried_again(tmp_path):
    """The Bot API does not answer at start-up: one warning line, attempts with back-off, and
    the bot starts as soon as it answers."""
    fake = FakeTelegram()
    alice = fake.add_user("Alice", language_code="it")
    with fake.serve() as server:
        with fake.outage(502):
            bot = start_bot(tmp_path, fake, server.base_url, ready=None, LOG_LEVEL="WARNING")
            try:
                wait_for("two attempts", lambda: len(fake.calls_of("getMe")) >= 2, STARTUP)
            except BaseException:
                stop_bot(bot)
                raise
        try:
            fake.start_private(alice)
            wait_for("welcoming Alice", lambda: fake.messages(alice))
        finally:
            err = stop_bot(bot)
    lines = err.strip().splitlines()
    assert "Traceback" not in err, err
    assert len([line for line in lines if "cannot reach the Bot API" in line]) == 1, err


def test_polling_asks_only_for_handled_updates_and_skips_unreadable_ones(polling):
    """getUpdates asks for the update types the bot handles; an update the library cannot
    parse (a poll_answer without its user, a message without a chat) is logged once and
    skipped, and the update behind it is answered."""
    fake = polling.fake
    alice = fake.add_user("Alice", language_code="it")
    assert sorted(fake.allowed_updates()) == sorted(ALLOWED_UPDATES)
    bad = fake.raw_update({"message": {"message_id": 1, "text": "/start"}})
    fake.start_private(alice)
    wait_for("welcoming Alice", lambda: fake.messages(alice))
    wait_for("the updates taken", lambda: not fake.pending_updates())

    def skipped() -> list[str]:
        return [
            line
            for line in polling.log().splitlines()
            if f"skipped update {bad['update_id']}" in line
        ]

    wait_for("the unreadable update logged", skipped)
    err = polling.log()
    assert "Traceback" not in err and " ERROR " not in err, err
    assert len(skipped()) == 1, err


def test_webhook_without_a_secret_generates_one_keeps_it_and_refuses_updates_without_it(tmp_path):
    """WEBHOOK_URL without WEBHOOK_SECRET: the bot generates a secret, gives it to Telegram
    with the webhook, keeps it across restarts, and refuses a posted update that does not
    carry it (a forged update creates nothing)."""
    fake = FakeTelegram()
    alice = fake.add_user("Alice", language_code="it")
    secrets_seen = []
    with fake.serve() as server:
        for _ in range(2):
            port = free_port()
            bot = start_webhook_bot(tmp_path, fake, server.base_url, port)
            try:
                wait_for("setting the webhook", lambda: fake.webhook_secret)
                secret = fake.webhook_secret
                secrets_seen.append(secret)
                update = fake.start_private(alice)

                def post(
                    headers: dict[str, str], body: dict = update, port: int = port
                ) -> int | None:
                    return post_update(port, body, headers)

                seen = len(fake.messages(alice))
                assert wait_for("listening", lambda: post({})) == 403
                forged = {"X-Telegram-Bot-Api-Secret-Token": "guessed"}
                assert post(forged) == 403
                assert len(fake.messages(alice)) == seen
                token = {"X-Telegram-Bot-Api-Secret-Token": secret}
                assert post(token) == 200
                wait_for("welcoming Alice", lambda n=seen: len(fake.messages(alice)) > n)
            finally:
                err = stop_bot(bot)
            assert "Traceback" not in err, err
            fake.webhook_secret = ""
    assert len(secrets_seen[0]) >= 32 and secrets_seen[0] == secrets_seen[1]


def test_backup_copies_the_live_database_and_the_copy_restores(polling, tmp_path):
    """``python -m bot backup PATH`` while the bot runs: a consistent copy with the games in
    it, an existing file refused unless ``--overwrite``; the bot started on the copy (the
    README's restore) knows the lobby."""
    fake = polling.fake
    alice = fake.add_user("Alice", language_code="it")
    bob = fake.add_user("Bob", language_code="it")
    group = fake.add_group("Tavolo", members=[alice, bob])
    copy_path = tmp_path / "backups" / "copy.sqlite3"
    lobby = open_lobby(fake, alice, bob, group)
    copy_path.parent.mkdir()
    status, err = run_to_exit(polling.folder, fake, polling.base_url, "backup", str(copy_path))
    assert status == 0, err
    # An existing backup is kept unless told: a second one to the same file is refused.
    kept = copy_path.read_bytes()
    status, err = run_to_exit(polling.folder, fake, polling.base_url, "backup", str(copy_path))
    assert status == 2 and "already exists" in err and "--overwrite" in err, err
    assert copy_path.read_bytes() == kept
    args = ("backup", "--overwrite", str(copy_path))
    status, err = run_to_exit(polling.folder, fake, polling.base_url, *args)
    assert status == 0, err
    restored = tmp_path / "restored"
    restored.mkdir()
    (restored / "bot.sqlite3").write_bytes(copy_path.read_bytes())
    err = polling.restart(restored)
    assert "Traceback" not in err, err
    fake.press_button(bob, lobby, t("btn-join"))
    wait_for("seating Bob", lambda: "Bob" in fake.message(group, lobby.message_id).text)
    assert "Traceback" not in polling.log(), polling.log()
    status, err = run_to_exit(restored, fake, polling.base_url, "backup", str(tmp_path))
    assert status == 2 and "is a directory" in err and "Traceback" not in err, err
