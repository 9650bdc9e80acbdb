"""Shared fixtures of the bot tests: the application wired in process to the fake Bot API, on a
temporary database, and helpers that act as the users do (typing commands, pressing the buttons
they see)."""

from __future__ import annotations

import contextlib
import itertools
import logging
import random
import re
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from telegram import Update

from bot.app import build_application
from bot.core.services import Services
from bot.core.settings import Settings
from bot.games import ui_for
from bot.games.base import card_text
from engine.cards import PACK_32, PACK_40
from tests.fake_telegram import FakeMessage, FakeRequest, FakeTelegram
from tests.translator import TR


def t(msg_id: str, **args: Any) -> str:
    """A text in Italian (the test users speak Italian), as the bot writes it."""
    return TR.get("it", msg_id, **args)


class ErrorLog(logging.Handler):
    """Collects ERROR records of the bot's loggers and python-telegram-bot's."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class BotRunner:
    """The bot's application on a fake Bot API and a database file; can be restarted."""

    def __init__(
        self, fake: FakeTelegram, db_path: Path, seeds: Iterator[int], **settings: Any
    ) -> None:
        """``settings`` override the test defaults (no rate limits, no edit window)."""
        self.fake = fake
        self.db_path = db_path
        self.seeds = seeds
        self.settings = settings
        self.app = None
        self.errors = ErrorLog()

    @property
    def svc(self) -> Services:
        """The running application's services."""
        return self.app.bot_data["services"]

    async def start(self) -> None:
        """Build and initialise a new application on the same world and database."""
        settings = Settings(
            **{
                "telegram_bot_token": self.fake.token,
                "database_path": self.db_path,
                "group_max_rate": 0,
                "overall_max_rate": 0,
                "max_retries": 2,
                "group_edit_window": 0,  # every change shows at once; the window has own tests
                "private_gap": 0,  # pings at once
                **self.settings,
            },
            _env_file=None,
        )
        self.app = build_application(
            settings,
            FakeRequest(self.fake),
            get_updates_request=FakeRequest(self.fake),
            translator=TR,
        )
        for name in ("bot", "telegram"):
            logging.getLogger(name).addHandler(self.errors)
        await self.app.initialize()
        await self.app.post_init(self.app)
        self.svc.new_seed = lambda: next(self.seeds)
        await self.svc.renderer.drain()

    async def stop(self) -> None:
        """Shut the application down as ``python -m bot`` does on a signal."""
        await self.app.post_stop(self.app)
        await self.app.shutdown()
        await self.app.post_shutdown(self.app)
        for name in ("bot", "telegram"):
            logging.getLogger(name).removeHandler(self.errors)

    async def restart(self) -> None:
        """Stop, then start a fresh application on the same database."""
        await self.stop()
        await self.start()

    async def feed(self, update: dict | None) -> dict | None:
        """Hand one update to the bot and wait until every message is up to date."""
        assert update is not None, "Telegram would not deliver that to the bot"
        await self.app.process_update(Update.de_json(update, self.app.bot))
        await self.svc.renderer.drain()
        return update

    def check_clean(self) -> None:
        """No error was logged, and the fake saw no malformed request."""
        assert not self.errors.records, [r.getMessage() for r in self.errors.records]
        assert not self.fake.internal_errors, self.fake.internal_errors


@pytest.fixture
def fake() -> FakeTelegram:
    """An empty Telegram world around @TavolataBot."""
    return FakeTelegram(bot_username="TavolataBot")


@pytest.fixture
async def bot(fake, tmp_path):
    """The bot running in process against the fake, on a temporary database."""
    runner = BotRunner(fake, tmp_path / "bot.sqlite3", itertools.count(1000))
    await runner.start()
    yield runner
    await runner.stop()
    runner.check_clean()


@contextlib.asynccontextmanager
async def limited_runner(fake: FakeTelegram, path: Path) -> AsyncIterator[BotRunner]:
    """The bot running with Telegram's documented limits (30 messages a second, 20 a minute
    in a group, 3 retries after a 429: the other tests turn them off); stopped and checked
    clean on leaving."""
    runner = BotRunner(
        fake,
        path,
        itertools.count(1000),
        group_max_rate=20,
        overall_max_rate=30,
        max_retries=3,
    )
    await runner.start()
    yield runner
    await runner.stop()
    runner.check_clean()


NAMES = ["Alice <&>", "Bob_*", "Carla", "Dario"]


class Table:
    """A group with players, driven like the users would drive it."""

    def __init__(
        self, bot: BotRunner, fake: FakeTelegram, players: int, title: str, lang: str = "it"
    ) -> None:
        self.bot = bot
        self.fake = fake
        self.lang = lang  # the players' Telegram language, and so the group's
        self.users = [
            fake.add_user(NAMES[i], username=f"user{i}", language_code=lang) for i in range(players)
        ]
        self.group = fake.add_group(title, members=self.users)
        self.game_id: int | None = None

    def t(self, msg_id: str, **args: Any) -> str:
        """A text in the players' language, as the bot writes it."""
        return TR.get(self.lang, msg_id, **args)

    @property
    def user_ids(self) -> list[int]:
        """Telegram ids of the players."""
        return [u["id"] for u in self.users]

    def group_messages(self) -> list[FakeMessage]:
        """The bot's messages in the group."""
        return self.fake.messages(self.group)

    def lobby(self) -> FakeMessage:
        """The group's lobby (or table) message: the last one with this game's buttons."""
        for msg in reversed(self.group_messages()):
            if any(d and d.split(":")[0] in "kjlsxRr" for _, d in msg.buttons):
                return msg
        raise LookupError("no lobby message")

    def table(self) -> FakeMessage:
        """The group's table message (it carries the "my cards" button while playing)."""
        for msg in reversed(self.group_messages()):
            if any(d and d.startswith(f"h:{self.game_id}:") for _, d in msg.buttons):
                return msg
        raise LookupError("no table message")

    async def open_privates(self, users: list[dict] | None = None) -> None:
        """The players press Start in their private chat with the bot."""
        for user in users if users is not None else self.users:
            await self.bot.feed(self.fake.start_private(user))

    async def create(self, command: str) -> FakeMessage:
        """The first player types the lobby command in the group."""
        await self.bot.feed(self.fake.send_text(self.users[0], self.group, command))
        return self.fake.last_message(self.group)

    async def press(self, user: dict, message: FakeMessage, text: str) -> dict:
        """A user presses the button with this text; returns the callback answer."""
        update = self.fake.press_button(user, message, text)
        await self.bot.feed(update)
        return self.fake.answered(update)

    async def seat_everybody(self, kind: str, players: int) -> None:
        """Open the lobby for ``kind`` and seat every player (pairs: 0+2 against 1+3)."""
        await self.open_privates()
        await self.create(f"/nuova {kind} {players}")
        for i, user in enumerate(self.users[1:], start=1):
            if players == 4:
                await self.press(user, self.lobby(), self.t("btn-join-team", team=i % 2 + 1))
            else:
                await self.press(user, self.lobby(), self.t("btn-join"))
        lobby = self.lobby()
        self.game_id = int(lobby.buttons[0][1].split(":")[1])

    async def start(self, kind: str, players: int) -> None:
        """Seat everybody and start the game."""
        await self.seat_everybody(kind, players)
        await self.press(self.users[0], self.lobby(), self.t("btn-start"))

    def hand_message(self, user: dict) -> FakeMessage:
        """The user's hand message of this game in private (the newest one)."""
        marker = f"🃏 {self.group['title']} ·"
        for msg in reversed(self.fake.messages(user)):
            if not msg.deleted and msg.text.startswith(marker):
                return msg
        raise LookupError("no hand message")

    def visible_actions(self) -> list[tuple[dict, FakeMessage, str, str]]:
        """Every action button a player may press now: (user, message, text, data).

        Private buttons are in each player's hand message; public choices (bids) are on the
        table message and belong to the player its turn line names."""
        prefix = f"a:{self.game_id}:"
        found = []
        for user in self.users:
            try:
                msg = self.hand_message(user)
            except LookupError:  # a Cirulla hand emptied: its message went
                continue
            found += [(user, msg, text, d) for text, d in msg.buttons if d.startswith(prefix)]
        if found:
            return found
        table = self.table()
        table_buttons = [(text, d) for text, d in table.buttons if d and d.startswith(prefix)]
        if not table_buttons:
            return []
        pattern = re.escape(self.t("table-turn", player="\x00")).replace("\x00", "(.+)")
        turn = re.search(pattern, table.text)
        user = next(u for u in self.users if u["first_name"] == turn.group(1).strip())
        return [(user, table, text, d) for text, d in table_buttons]

    def finished(self) -> bool:
        """Whether the end of the game was announced (this game's rematch button is out). The
        result may stand above later messages: it can take the place of the table message."""
        rematch = f"m:{self.game_id}:"
        return any(
            d and d.startswith(rematch) for msg in self.group_messages() for _, d in msg.buttons
        )

    async def play_one(self, rng: random.Random) -> tuple[dict, str, dict]:
        """One player presses one of the action buttons they see, chosen at random."""
        actions = self.visible_actions()
        assert actions, "nobody has a button to press"
        user, msg, _, data = rng.choice(actions)
        update = self.fake.press(user, msg, data)
        await self.bot.feed(update)
        return user, data, self.fake.answered(update)

    async def play_to_end(
        self,
        rng: random.Random,
        limit: int = 3000,
        after_press: Callable[[dict, str, dict], Any] | None = None,
        stop_after: int | None = None,
    ) -> int:
        """Press buttons until the game ends (or ``stop_after`` presses); returns the count."""
        for n in range(limit):
            if self.finished() or (stop_after is not None and n >= stop_after):
                return n
            user, data, answer = await self.play_one(rng)
            assert answer is not None and not answer.get("show_alert"), answer
            if after_press is not None:
                after_press(user, data, answer)
        raise AssertionError("the game did not end")


@pytest.fixture
def make_table(bot, fake):
    """Build tables: ``make_table(players, title=...)``."""
    counter = itertools.count(1)

    def build(players: int, title: str | None = None, lang: str = "it") -> Table:
        return Table(bot, fake, players, title or f"Tavolo <&> {next(counter)}", lang)

    return build


def cards_in(value: Any) -> set[str]:
    """Every card code anywhere in a JSON-able structure (an engine view)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for v in value.values():
            found |= cards_in(v)
    elif isinstance(value, list):
        for v in value:
            found |= cards_in(v)
    elif isinstance(value, str):
        found |= set(re.findall(r"(?<![0-9A-Z])[2-9TJQKA][HDCS](?![0-9A-Z])", value))
    return found


def cards_shown(text: str, faces: str) -> set[str]:
    """The cards a Telegram text shows, by their labels in any language (``7♦``, ``10♠``,
    ``C🪙``, ``Kn🪙``)."""
    shown = set()
    for code in PACK_40 + PACK_32:
        for lang in TR.languages:
            label = card_text(TR, lang, code, faces)
            if re.search(r"(?<![0-9A-Za-z])" + re.escape(label), text):
                shown.add(code)
    return shown


# Events that show cards as they are played (card, trick, what is left on the table).
PLAY_EVENTS = ("card_played", "trick_won", "table_taken")


class SecrecyWatch:
    """Checks every message and alert the bot sent since the last check against the engine's
    views: a chat may show a card still in somebody's hand only if the view of whoever reads
    that chat holds it (a player's own cards, cards the rules made public), or if the latest
    press played it before a new deal dealt it again (a deal's result shows its last plays)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.pos = len(table.fake.calls)
        self.messages_checked = 0
        self.alerts_checked = 0

    async def check(self) -> None:
        """Check the calls made since the previous check."""
        table = self.table
        fake = table.fake
        live = await table.bot.svc.games.get(table.game_id)
        game = live.game
        faces = ui_for(live.row.kind).faces
        seats = range(game.players)
        hidden = set().union(*(game.view(s)["hand"] for s in seats))
        # Cards the latest press (and the bot's forced plays after it) put on the table.
        played = cards_in([e for e in live.last_events if e["type"] in PLAY_EVENTS])
        allowed = {None: cards_in(game.view(None)) | played}
        for s in seats:
            allowed[table.user_ids[s]] = cards_in(game.view(s)) | played
        pressers = {
            u["callback_query"]["id"]: u["callback_query"]["from"]["id"]
            for u in fake.updates
            if "callback_query" in u
        }
        for method, params in fake.calls[self.pos :]:
            if method in ("sendMessage", "editMessageText"):
                reader = params["chat_id"]
                self.messages_checked += 1
            elif method == "answerCallbackQuery" and params.get("text"):
                reader = pressers[params["callback_query_id"]]
                self.alerts_checked += 1
            else:
                continue
            readers_view = allowed.get(reader, allowed[None])
            leaked = (cards_shown(params["text"], faces) & hidden) - readers_view
            assert not leaked, (method, reader, params["text"], leaked)
        self.pos = len(fake.calls)
