"""The chat's language everywhere (issue 29): every command, run in a group set to English and a
private chat set to English by people whose Telegram speaks Italian (and the other way round),
answers with no text of the other language: a group reads the group's language, a person in
private theirs.

Each language's own wording is recognised by its fragments: the fixed pieces of its messages
(between placeholders and lines) that are long enough to say something and that appear nowhere
in the other language's files.
"""

from __future__ import annotations

import html
import re

import pytest
from fluent.syntax import FluentParser, ast

from bot.core.chat_settings import set_lang
from bot.core.i18n import LOCALES_DIR
from tests.bot.conftest import Table

# A fragment shorter than this (characters), or of one word, may well belong to both languages.
MIN_FRAGMENT = 12
# Every command of the menus and its alias, with the arguments people give them.
COMMANDS = (
    "/start",
    "/nuova",
    "/new scopone",
    "/mano",
    "/hand",
    "/tavolo",
    "/table",
    "/tempo",
    "/timer 2m",
    "/tempo mai",
    "/classifica",
    "/leaderboard briscola",
    "/stats",
    "/regole",
    "/rules briscola",
    "/regole scopone",
    "/glossario",
    "/glossary brisca",
    "/lingua",
    "/commento",
    "/commentary off",
    "/avvisami",
    "/notify off",
    "/notify domani",
    "/annulla",
    "/cancel",
)


def _texts(pattern: ast.Pattern | None) -> list[str]:
    """The fixed text of a Fluent pattern, its variants' included."""
    found: list[str] = []
    for element in pattern.elements if pattern is not None else ():
        if isinstance(element, ast.TextElement):
            found.append(element.value)
        elif isinstance(element, ast.Placeable) and isinstance(
            element.expression, ast.SelectExpression
        ):
            for variant in element.expression.variants:
                found += _texts(variant.value)
            found.append("\x00")
        else:
            found.append("\x00")  # a placeholder splits the text
    return found


def _plain(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def _corpus(lang: str) -> list[str]:
    parser = FluentParser()
    pieces: list[str] = []
    for file in sorted((LOCALES_DIR / lang).glob("*.ftl")):
        for entry in parser.parse(file.read_text(encoding="utf-8")).body:
            if isinstance(entry, ast.Message | ast.Term):
                pieces.append("".join(_texts(entry.value)))
    return pieces


def fragments(lang: str, other: str) -> set[str]:
    """The pieces of ``lang``'s messages that ``other``'s never contain."""
    theirs = _plain("\n".join(_corpus(other)).replace("\x00", "\n"))
    found = set()
    for piece in _corpus(lang):
        for fragment in re.split(r"[\x00\n]", _plain(piece)):
            fragment = fragment.strip(" .,:;!?()«»—-")
            if len(fragment) >= MIN_FRAGMENT and " " in fragment and fragment not in theirs:
                found.add(fragment)
    return found


FOREIGN = {"en": fragments("it", "en"), "it": fragments("en", "it")}


def test_each_language_has_fragments_to_be_told_by():
    """The detector has something to look for: hundreds of fragments either way, the issue's
    own examples among them."""
    assert len(FOREIGN["en"]) > 200 and len(FOREIGN["it"]) > 200
    assert "Non stai giocando nessuna partita" in FOREIGN["en"]
    assert any(f.startswith("Per cambiarlo, mentre il tavolo") for f in FOREIGN["en"])


def foreign_text(text: str, lang: str) -> list[str]:
    """The fragments of the language other than ``lang`` that a text holds."""
    plain = _plain(text)
    return sorted(f for f in FOREIGN[lang] if f in plain)


def _shown(params: dict) -> str:
    """A message's text and its buttons' texts, as a call sends them."""
    markup = params.get("reply_markup") or {}
    rows = markup.get("inline_keyboard") or [] if isinstance(markup, dict) else []
    return "\n".join([params.get("text", "")] + [b.get("text", "") for row in rows for b in row])


class Watch:
    """Every text the bot sent or showed since the last check, read in the language of the
    chat it went to."""

    def __init__(self, table: Table, group_lang: str | None, private_lang: str) -> None:
        """``group_lang`` None: the group chose none, its texts are not checked."""
        self.table = table
        self.langs = {table.group["id"]: group_lang}
        self.langs.update({uid: private_lang for uid in table.user_ids})
        self.private_lang = private_lang
        self.pos = 0
        self.checked = 0

    def check(self, what: str) -> None:
        fake = self.table.fake
        for method, params in fake.calls[self.pos :]:
            if method in ("sendMessage", "editMessageText"):
                lang = self.langs[params["chat_id"]]
            elif method == "answerCallbackQuery" and params.get("text"):
                lang = self.private_lang  # an alert speaks to whoever pressed
            else:
                continue
            if lang is None:
                continue
            self.checked += 1
            wrong = foreign_text(_shown(params), lang)
            assert not wrong, (what, method, params.get("text"), wrong)
        self.pos = len(fake.calls)


async def _everything(table: Table, watch: Watch, stage: str) -> None:
    """Every command, in the group and in private."""
    fake, bot = table.fake, table.bot
    skip = ("/annulla", "/cancel") if stage == "playing" else ()
    for command in COMMANDS:
        if command in skip:
            continue
        await bot.feed(fake.send_text(table.users[1], table.group, command))
        watch.check(f"{stage}: {command} in the group")
        await bot.feed(fake.send_text(table.users[1], None, command))
        watch.check(f"{stage}: {command} in private")


@pytest.mark.parametrize(
    ("group_lang", "private_lang", "telegram_lang"),
    [("en", None, "it"), (None, "en", "it"), ("it", "it", "en")],
    ids=["group-set-to-english", "private-set-to-english", "both-set-to-italian"],
)
async def test_every_command_answers_in_the_language_of_its_chat(
    make_table, fake, bot, group_lang, private_lang, telegram_lang
):
    """People whose Telegram speaks one language, in a group or private chats set to the
    other (None: not set): before a game, in its lobby, while it is played and once it is
    cancelled, every command's answer (and every message it causes) is in the chat's
    language: the group's choice in the group, the person's in private (their choice, else
    their Telegram's)."""
    table = make_table(2, title="Carte", lang=telegram_lang)
    await table.open_privates()
    if group_lang is not None:
        await set_lang(bot.svc.storage, table.group["id"], group_lang)
    if private_lang is not None:
        for user in table.users:
            await set_lang(bot.svc.storage, user["id"], private_lang)
    watch = Watch(table, group_lang, private_lang or telegram_lang)
    watch.pos = len(fake.calls)
    await _everything(table, watch, "no game")
    # The buttons the players press are in the group's language.
    table.lang = group_lang or private_lang or telegram_lang
    await table.create("/nuova briscola 2")
    await _everything(table, watch, "lobby")
    await table.press(table.users[1], table.lobby(), table.t("btn-join"))
    await table.press(table.users[0], table.lobby(), table.t("btn-start"))
    watch.check("the game starts")
    assert (await bot.svc.games.in_chat(table.group["id"])).active
    await _everything(table, watch, "playing")
    await bot.feed(fake.send_text(table.users[0], table.group, "/annulla"))
    await _everything(table, watch, "cancelled")
    assert watch.checked > 4 * len(COMMANDS)
