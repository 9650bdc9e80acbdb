"""The glossary, inline mode and the rules summary in the chat, through the fake Bot API
(issue 6: "/glossario [term]", "inline mode", "/regole [game]")."""

from __future__ import annotations

import html
import re

from bot.core.callbacks import Callback, Op
from bot.reference.glossary import default_glossary
from bot.reference.glossary_screens import INLINE_PAGE, entry_callback, game_callback, page_count
from tests.bot.conftest import TR, t

GLOSSARY = default_glossary()


def plain(msg_id: str, **args) -> str:
    """An Italian HTML text as the user reads it (tags parsed away)."""
    return html.unescape(re.sub(r"<[^>]+>", "", TR.get("it", msg_id, **args)))


async def _say(table, text: str):
    await table.bot.feed(table.fake.send_text(table.users[0], table.group, text))
    return table.fake.last_message(table.group)


async def test_every_command_and_alias_answers_in_a_group_and_in_private(make_table):
    """Each command and its English alias answers in the group and in the private chat."""
    table = make_table(1)
    user = table.users[0]
    await table.bot.feed(table.fake.start_private(user))
    for command in ("/glossario", "/glossary", "/regole", "/rules"):
        before = len(table.group_messages())
        reply = await _say(table, command)
        assert len(table.group_messages()) == before + 1 and reply.text
        await table.bot.feed(table.fake.send_text(user, None, command))
        assert table.fake.last_message(user).text == reply.text


async def test_glossary_term_answers_with_the_entry(make_table):
    """/glossario with a dialect term shows that entry's card (term, meaning, back button)."""
    table = make_table(1)
    reply = await _say(table, "/glossario stròsa ad fèmna")
    entry = GLOSSARY.get("strosa-masc-femna")
    assert entry.term.split("/")[0] in reply.text
    assert "Significato:" in reply.text  # the HTML card, as the user sees it
    for _, data in reply.buttons:
        assert Callback.parse(data).op is Op.GLOSSARY


async def test_glossary_without_a_match_suggests_what_you_may_have_meant(make_table):
    """A misspelt term gets "Forse cercavi" with the nearest entries as buttons."""
    table = make_table(1)
    reply = await _say(table, "/glossario brìscolla")
    assert "Forse cercavi" in reply.text
    assert reply.buttons


async def test_browse_by_game_pages_and_entries(make_table, fake):
    """/glossario alone lists the games; a game opens its first page, "Avanti" the next, an
    entry its card, all by editing the same message."""
    table = make_table(1)
    menu = await _say(table, "/glossario")
    n = len(GLOSSARY.by_game("briscola"))
    game_button = TR.get("it", "glossary-button-game", game="briscola", count=n)
    assert game_button in [text for text, _ in menu.buttons]
    answer = await table.press(table.users[0], menu, game_button)
    assert answer is not None and not answer.get("show_alert")
    page = fake.message(table.group, menu.message_id)
    first = GLOSSARY.by_game("briscola")[0]
    assert first.term in page.text and "1" in page.text
    await table.press(table.users[0], page, t("glossary-button-next"))
    page2 = fake.message(table.group, menu.message_id)
    second_page_entry = GLOSSARY.by_game("briscola")[10]
    assert second_page_entry.term in page2.text and first.term not in page2.text
    await table.press(table.users[0], page2, second_page_entry.term[:48])
    card = fake.message(table.group, menu.message_id)
    assert card.text.startswith(second_page_entry.term.split("/")[0][:10])
    await table.press(table.users[0], card, t("glossary-button-back-game", game="briscola"))
    assert first.term in fake.message(table.group, menu.message_id).text


STALE_OR_FORGED = [
    "g:0:0:ge:no-such-entry",  # an entry that is no longer in the glossary
    "g:0:0:g:scopone",  # a game the glossary does not have
    "g:0:0:g:briscola:99",  # a page past the end
    "g:0:0:ge:",  # no entry id
    "g:7:0:g:",  # glossary buttons belong to no game
    "g:0:0:x:y",  # not the glossary's data at all
]


async def test_stale_or_malformed_glossary_button_alerts_and_changes_nothing(make_table, fake):
    """A glossary button that is stale or was not drawn by the bot gets an alert; the message
    stays as it was."""
    table = make_table(1)
    menu = await _say(table, "/glossario")
    edits = len(fake.calls_of("editMessageText"))
    for data in STALE_OR_FORGED:
        update = fake.press(table.users[0], menu, data)
        await table.bot.feed(update)
        answer = fake.answered(update)
        assert answer["show_alert"] and answer["text"] == t("glossary-stale-button"), data
    assert len(fake.calls_of("editMessageText")) == edits
    assert fake.message(table.group, menu.message_id).text == menu.text


async def test_inline_mode_pages_through_the_whole_glossary(bot, fake):
    """An empty inline query pages through every entry fifty at a time with next_offset; the
    fake checks every answer against Telegram's limits (50 results, 64-byte ids, text)."""
    user = fake.add_user("Ida", language_code="it")
    offset, seen, pages = "", [], 0
    while True:
        update = await bot.feed(fake.inline_query(user, "", offset=offset))
        answer = fake.inline_answer(update)
        assert answer is not None
        results = answer["results"]
        assert len(results) <= INLINE_PAGE
        seen += [r["id"] for r in results]
        pages += 1
        offset = answer.get("next_offset") or ""
        if not offset:
            break
    assert len(seen) == len(set(seen)) == len(GLOSSARY)
    assert pages == -(-len(GLOSSARY) // INLINE_PAGE)


async def test_inline_result_can_be_shared_as_html(bot, fake, make_table):
    """A user searches "stròsa" inline and sends the first result: the entry lands formatted."""
    table = make_table(1)
    user = table.users[0]
    update = await bot.feed(fake.inline_query(user, "stròsa"))
    answer = fake.inline_answer(update)
    first = answer["results"][0]
    assert first["type"] == "article"
    assert first["input_message_content"]["parse_mode"] == "HTML"
    msg = fake.choose_inline_result(user, update, first["id"], chat=table.group)
    assert GLOSSARY.get(first["id"]).term in msg.text
    assert "<b>" not in msg.text  # the HTML was parsed, not shown


async def test_inline_in_english_and_a_malformed_offset(bot, fake):
    """An English-speaking user gets English meanings; a forged offset gets no results."""
    user = fake.add_user("Jim", language_code="en-GB")
    update = await bot.feed(fake.inline_query(user, "briscola"))
    results = fake.inline_answer(update)["results"]
    assert results
    entry = GLOSSARY.get(results[0]["id"])
    assert entry.meaning("en").split()[0] in results[0]["input_message_content"]["message_text"]
    update = await bot.feed(fake.inline_query(user, "briscola", offset="abc"))
    assert fake.inline_answer(update)["results"] == []


async def test_rules_named_game_shows_summary_with_default_house_rules(make_table):
    """/regole briscola without a game in the group: the summary and the default house rules."""
    table = make_table(1)
    reply = await _say(table, "/regole brìscola")
    assert plain("rules-house-title") in reply.text
    assert plain("rules-briscola-raggi", value=1) in reply.text


async def test_rules_unknown_game_and_buttons(make_table, fake):
    """An unknown game is named back; /regole alone offers the games, a button shows one."""
    table = make_table(1)
    reply = await _say(table, "/regole scopone")
    assert reply.text == TR.get("it", "rules-unknown-game", game="scopone")
    menu = await _say(table, "/regole")
    await table.press(table.users[0], menu, TR.get("it", "rules-game", game="cirulla"))
    shown = fake.message(table.group, menu.message_id)
    assert plain("rules-cirulla-target", value=51) in shown.text
    update = fake.press(table.users[0], shown, "u:0:0:r:scopone")
    await table.bot.feed(update)
    assert fake.answered(update)["show_alert"]


async def test_rules_follow_the_groups_lobby(make_table, fake):
    """In a group whose lobby changed a house rule, /regole shows the rule in force."""
    table = make_table(2)
    await table.seat_everybody("briscola", 2)
    await table.press(table.users[0], table.lobby(), t("btn-rules"))
    lobby = table.lobby()
    rule_button = next(text for text, d in lobby.buttons if d.startswith("r:") and "=" in d)
    await table.press(table.users[0], lobby, rule_button)
    live = await table.bot.svc.games.get(table.game_id)
    assert live.row.rules, "the press changed a house rule"
    reply = await _say(table, "/regole")  # the group's game, no need to name it
    for name, value in live.row.rules.items():
        msg_id = f"rules-briscola-{name.replace('_', '-')}"
        assert plain(msg_id, value=value) in reply.text


def test_every_glossary_button_fits_the_bots_codec():
    """Every glossary button (games, pages, entries) packs into the bot's callback codec within
    Telegram's 64 bytes and decodes back to the glossary's own data."""
    data = [game_callback(None)] + [entry_callback(e.id) for e in GLOSSARY]
    for game in GLOSSARY.games:
        data += [game_callback(game, p) for p in range(page_count(GLOSSARY, game))]
    for d in data:
        packed = Callback(Op.GLOSSARY, 0, 0, d).pack()
        assert len(packed.encode()) <= 64
        assert Callback.parse(packed).arg == d
