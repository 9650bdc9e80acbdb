"""The fake Bot API answers like Telegram: limits, errors, formatting, PTB in process and HTTP.

Quotes are from the Bot API documentation (core.telegram.org/bots/api) unless said otherwise.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

import httpx
import pytest
from telegram import (
    Bot,
    ChatMemberAdministrator,
    ChatMemberOwner,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    Update,
)
from telegram.constants import (
    CallbackQueryLimit,
    InlineKeyboardButtonLimit,
    InlineKeyboardMarkupLimit,
    InlineQueryLimit,
    MessageLimit,
)
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    RetryAfter,
    TimedOut,
)
from telegram.ext import ApplicationBuilder, CommandHandler, ContextTypes
from telegram.request import HTTPXRequest

from tests.fake_telegram import (
    BLOCKED,
    CANT_INITIATE,
    EDIT_NOT_FOUND,
    NOT_MODIFIED,
    QUERY_TOO_OLD,
    THREAD_NOT_FOUND,
    TOPIC_CLOSED,
    FakeRequest,
    FakeTelegram,
)
from tests.fake_telegram_markup import MarkupError, parse_html, parse_markdown_v2


@pytest.fixture
def fake() -> FakeTelegram:
    return FakeTelegram(max_poll_seconds=0.2)


@pytest.fixture
def people(fake: FakeTelegram) -> dict:
    alice = fake.add_user("Alice", username="alice", language_code="it")
    bob = fake.add_user("Bob", language_code="en")
    group = fake.add_group("Tavolo <&> 1", members=[alice, bob])
    fake.start_private(alice)
    return {"alice": alice, "bob": bob, "group": group}


@pytest.fixture
async def bot(fake: FakeTelegram):
    requests = {"request": FakeRequest(fake), "get_updates_request": FakeRequest(fake)}
    async with Bot(fake.token, **requests) as ptb_bot:
        yield ptb_bot


def send(fake: FakeTelegram, chat: dict, text: str, **params) -> tuple[int, dict]:
    """Call sendMessage straight on the fake (no PTB in between)."""
    return fake.handle("sendMessage", {"chat_id": chat["id"], "text": text, **params})


def keyboard(rows: list[list[tuple[str, str]]]) -> dict:
    return {"inline_keyboard": [[{"text": t, "callback_data": d} for t, d in row] for row in rows]}


def retry_after_seconds(exc: RetryAfter) -> int:
    value = exc.retry_after  # PTB 22 gives an int (deprecated) or a timedelta
    return int(value.total_seconds()) if isinstance(value, timedelta) else value


# --------------------------------------------------------------------------------- limits


def test_text_may_have_4096_characters_but_not_4097(fake, people):
    """sendMessage: "Text of the message to be sent, 1-4096 characters after entities parsing"."""
    limit = MessageLimit.MAX_TEXT_LENGTH
    assert send(fake, people["group"], "a" * limit)[0] == 200
    status, body = send(fake, people["group"], "a" * (limit + 1))
    assert (status, body["description"]) == (400, "Bad Request: message is too long")


def test_text_length_is_counted_after_parsing_html(fake, people):
    limit = MessageLimit.MAX_TEXT_LENGTH
    status, body = send(fake, people["group"], f"<b>{'&amp;' * limit}</b>", parse_mode="HTML")
    assert status == 200
    assert body["result"]["text"] == "&" * limit


def test_text_length_counts_utf16_code_units_so_astral_cards_count_twice(fake, people):
    """Offsets are in UTF-16 units; the fake counts the limit that way too, to be safe."""
    card = "\U0001f0a1"  # PLAYING CARD ACE OF SPADES, outside the BMP
    half = MessageLimit.MAX_TEXT_LENGTH // 2
    assert send(fake, people["group"], card * half)[0] == 200
    assert send(fake, people["group"], card * (half + 1))[0] == 400


def test_text_that_is_empty_after_parsing_is_rejected(fake, people):
    for text, mode in (("<b></b>", "HTML"), ("  \n ", None), ("", None)):
        params = {"parse_mode": mode} if mode else {}
        status, body = send(fake, people["group"], text, **params)
        assert (status, body["description"]) == (400, "Bad Request: message text is empty")


def test_callback_answer_text_has_at_most_200_characters(fake, people, bot):
    limit = CallbackQueryLimit.ANSWER_CALLBACK_QUERY_TEXT_LENGTH
    msg = send(fake, people["group"], "x", reply_markup=keyboard([[("Go", "go")]]))[1]["result"]
    too_long = fake.press(people["alice"], msg, "go")["callback_query"]["id"]
    status, body = fake.handle(
        "answerCallbackQuery", {"callback_query_id": too_long, "text": "a" * (limit + 1)}
    )
    assert (status, body["description"]) == (400, "Bad Request: MESSAGE_TOO_LONG")
    status, _ = fake.handle(
        "answerCallbackQuery", {"callback_query_id": too_long, "text": "a" * limit}
    )
    assert status == 200


def test_callback_data_is_1_to_64_bytes_not_characters(fake, people):
    limit = InlineKeyboardButtonLimit.MAX_CALLBACK_DATA
    ok = keyboard([[("ok", "d" * limit)]])
    assert send(fake, people["group"], "x", reply_markup=ok)[0] == 200
    # 33 "è" are 33 characters but 66 bytes in UTF-8.
    for data in ("d" * (limit + 1), "è" * 33, ""):
        status, body = send(fake, people["group"], "x", reply_markup=keyboard([[("b", data)]]))
        assert (status, body["description"]) == (400, "Bad Request: BUTTON_DATA_INVALID")


def test_inline_keyboard_has_at_most_100_buttons_and_8_per_row(fake, people):
    per_row = InlineKeyboardMarkupLimit.BUTTONS_PER_ROW
    total = InlineKeyboardMarkupLimit.TOTAL_BUTTON_NUMBER
    full = [[(f"{r}.{c}", f"{r}.{c}") for c in range(per_row)] for r in range(total // per_row)]
    full.append([(f"x{c}", f"x{c}") for c in range(total % per_row)])
    assert send(fake, people["group"], "x", reply_markup=keyboard(full))[0] == 200
    one_more = [*full, [("extra", "extra")]]
    wide = [[(str(c), str(c)) for c in range(per_row + 1)]]
    for rows in (one_more, wide):
        status, body = send(fake, people["group"], "x", reply_markup=keyboard(rows))
        assert (status, body["description"]) == (400, "Bad Request: reply markup is too long")


def test_buttons_need_text_and_an_action(fake, people):
    status, body = send(fake, people["group"], "x", reply_markup=keyboard([[("", "d")]]))
    assert (status, body["description"]) == (400, "Bad Request: BUTTON_TEXT_INVALID")
    bare = {"inline_keyboard": [[{"text": "just text"}]]}
    status, body = send(fake, people["group"], "x", reply_markup=bare)
    assert status == 400
    assert body["description"].endswith("Text buttons are unallowed in the inline keyboard")


def test_inline_query_answer_has_at_most_50_results_with_unique_ids(fake, people):
    limit = InlineQueryLimit.RESULTS

    def article(n: int) -> dict:
        content = {"message_text": f"Partita {n}"}
        return {"type": "article", "id": f"r{n}", "title": "t", "input_message_content": content}

    def answer(results: list[dict]) -> tuple[int, dict]:
        query = fake.inline_query(people["alice"], "brisc")["inline_query"]["id"]
        return fake.handle("answerInlineQuery", {"inline_query_id": query, "results": results})

    assert answer([article(n) for n in range(limit)])[0] == 200
    status, body = answer([article(n) for n in range(limit + 1)])
    assert (status, body["description"]) == (400, "Bad Request: RESULTS_TOO_MUCH")
    status, body = answer([article(1), article(1)])
    assert (status, body["description"]) == (400, "Bad Request: RESULT_ID_DUPLICATE")


def test_messages_go_only_to_chats_that_exist_and_have_the_bot(fake, people):
    status, body = fake.handle("sendMessage", {"chat_id": -100999, "text": "x"})
    assert (status, body["description"]) == (400, "Bad Request: chat not found")
    lonely = fake.add_group("Senza bot", members=[people["alice"]], bot_member=False)
    status, body = send(fake, lonely, "x")
    assert status == 403
    assert body["description"] == "Forbidden: bot is not a member of the supergroup chat"


# ----------------------------------------------------------------------------- formatting


def test_html_keeps_plain_text_and_raw_text_and_reports_entities(fake, people):
    raw = (
        "<b>B</b><strong>S</strong><i>I</i><em>E</em><u>U</u><ins>N</ins><s>S</s><strike>K</strike>"
        '<del>D</del><span class="tg-spoiler">P</span><tg-spoiler>Q</tg-spoiler>'
        '<a href="https://t.me/TavolataBot">L</a><code>C</code><pre>R</pre>'
        '<blockquote>Z</blockquote><tg-emoji emoji-id="5368324170671202286">E</tg-emoji>'
        " 7 &lt; 8 &amp;&amp; &quot;ok&quot;"
    )
    status, _ = send(fake, people["group"], raw, parse_mode="HTML")
    assert status == 200
    msg = fake.last_message(people["group"])
    assert msg.raw_text == raw
    assert msg.text == 'BSIEUNSKDPQLCRZE 7 < 8 && "ok"'
    kinds = [e["type"] for e in msg.entities]
    assert kinds == [
        "bold", "bold", "italic", "italic", "underline", "underline", "strikethrough",
        "strikethrough", "strikethrough", "spoiler", "spoiler", "text_link", "code", "pre",
        "blockquote", "custom_emoji",
    ]  # fmt: skip
    assert [e["offset"] for e in msg.entities] == list(range(16))


def test_html_rejects_unsupported_and_unbalanced_tags_like_telegram(fake, people):
    cases = {
        "<br>": 'Unsupported start tag "br" at byte offset 0',
        "<b>open": 'Can\'t find end tag corresponding to start tag "b"',
        "<b><i>x</b></i>": 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"',
        "x</b>": "Unexpected end tag at byte offset 1",
        "<b": "Unclosed start tag at byte offset 0",
        "<span>x</span>": 'Tag "span" must have class "tg-spoiler" at byte offset 0',
    }
    for raw, reason in cases.items():
        status, body = send(fake, people["group"], raw, parse_mode="HTML")
        assert status == 400, raw
        assert body["description"] == "Bad Request: can't parse entities: " + reason


def test_a_player_name_with_angle_brackets_breaks_unescaped_html(fake, people):
    title = people["group"]["title"]  # "Tavolo <&> 1"
    status, body = send(fake, people["group"], f"<b>{title}</b>", parse_mode="HTML")
    assert status == 400
    assert body["description"].startswith("Bad Request: can't parse entities: Unsupported start")
    escaped = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    status, body = send(fake, people["group"], f"<b>{escaped}</b>", parse_mode="HTML")
    assert (status, body["result"]["text"]) == (200, title)


def test_html_demands_escaped_ampersand_and_greater_than(fake, people):
    """The docs: "All <, > and & symbols that are not a part of a tag or an HTML entity must be
    replaced with the corresponding HTML entities"; the fake holds bots to that."""
    for raw in ("Rossi & figli", "10 > 8"):
        status, body = send(fake, people["group"], raw, parse_mode="HTML")
        assert status == 400
        assert body["description"].startswith("Bad Request: can't parse entities: Unescaped")
    # Telegram's own parser lets them through; strict_html=False reproduces that.
    lenient = FakeTelegram(strict_html=False)
    group = lenient.add_group("Tavolo")
    status, body = send(lenient, group, "Rossi &amp; figli & co > 8", parse_mode="HTML")
    assert (status, body["result"]["text"]) == (200, "Rossi & figli & co > 8")


def test_markdown_v2_rejects_unescaped_reserved_characters(fake, people):
    for char in "_*[]()~`>#+-=|{}.!":
        status, body = send(fake, people["group"], f"Punti{char}", parse_mode="MarkdownV2")
        assert status == 400, char
    status, body = send(fake, people["group"], "Versione 1.0", parse_mode="MarkdownV2")
    assert body["description"] == (
        "Bad Request: can't parse entities: Character '.' is reserved and must be escaped with "
        "the preceding '\\'"
    )
    escaped = r"*Carla\_B* ha 1\.0 punti\!"
    status, body = send(fake, people["group"], escaped, parse_mode="MarkdownV2")
    assert (status, body["result"]["text"]) == (200, "Carla_B ha 1.0 punti!")
    assert body["result"]["entities"] == [{"type": "bold", "offset": 0, "length": 7}]


def test_markup_parsers_measure_offsets_in_utf16_and_errors_in_bytes():
    text, entities = parse_html("🂡 <b>asso</b>")
    assert (text, entities) == ("🂡 asso", [{"type": "bold", "offset": 3, "length": 4}])
    with pytest.raises(MarkupError, match="Italic entity at byte offset 5"):
        parse_markdown_v2("🂡 _asso")


def test_unknown_parse_mode_is_rejected(fake, people):
    status, body = send(fake, people["group"], "x", parse_mode="BBCode")
    assert (status, body["description"]) == (400, "Bad Request: unsupported parse_mode")


# -------------------------------------------------------------------------------- errors


async def test_bot_cannot_write_first_to_a_user_who_never_pressed_start(fake, people, bot):
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        await bot.send_message(people["bob"]["id"], "Tocca a te")
    assert fake.errors[-1].description == CANT_INITIATE
    fake.start_private(people["bob"])
    sent = await bot.send_message(people["bob"]["id"], "Tocca a te")
    assert fake.last_message(people["bob"]).message_id == sent.message_id


async def test_blocked_user_answers_403_until_she_restarts(fake, people, bot):
    fake.block(people["alice"])
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await bot.send_message(people["alice"]["id"], "Ciao")
    assert fake.errors[-1].description == BLOCKED
    blocked = fake.updates[-1]["my_chat_member"]
    assert blocked["new_chat_member"]["status"] == "kicked"
    fake.start_private(people["alice"])  # "Restart" unblocks and sends /start
    await bot.send_message(people["alice"]["id"], "Bentornata")


async def test_flood_control_answers_429_and_ptb_raises_retry_after(fake, people, bot):
    fake.fail_next("sendMessage", 429, retry_after=3)
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(people["group"]["id"], "x")
    assert retry_after_seconds(caught.value) == 3
    assert fake.errors[-1].description == "Too Many Requests: retry after 3"
    assert fake.messages(people["group"]) == []  # the failed call sent nothing
    await bot.send_message(people["group"]["id"], "x")  # only the next call failed


async def test_failures_can_match_parameters_and_repeat(fake, people, bot):
    group_id = people["group"]["id"]
    fake.fail_next(
        "sendMessage",
        400,
        "Bad Request: chat not found",
        match=lambda p: p["chat_id"] == group_id,
        times=2,
    )
    await bot.send_message(people["alice"]["id"], "private chat is not matched")
    for _ in range(2):
        with pytest.raises(BadRequest, match="Chat not found"):
            await bot.send_message(group_id, "x")
    await bot.send_message(group_id, "third time works")
    assert [m.text for m in fake.messages(people["group"])] == ["third time works"]


async def test_timeout_on_demand_with_and_without_effect(fake, people, bot):
    fake.fail_next("sendMessage", "timeout")
    with pytest.raises(TimedOut):
        await bot.send_message(people["group"]["id"], "lost")
    fake.fail_next("sendMessage", "timeout", applied=True)
    with pytest.raises(TimedOut):
        await bot.send_message(people["group"]["id"], "sent, answer lost")
    assert [m.text for m in fake.messages(people["group"])] == ["sent, answer lost"]


async def test_identical_edit_is_not_modified_but_dropping_the_keyboard_is(fake, people, bot):
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("Gioca", callback_data="play")]])
    group_id = people["group"]["id"]
    sent = await bot.send_message(group_id, "<b>Mano 1</b>", "HTML", reply_markup=markup)
    with pytest.raises(BadRequest, match="Message is not modified"):
        await sent.edit_text("<b>Mano 1</b>", "HTML", reply_markup=markup)
    assert fake.errors[-1].description == NOT_MODIFIED
    with pytest.raises(BadRequest, match="Message is not modified"):
        await sent.edit_reply_markup(markup)
    # editMessageText without reply_markup removes the inline keyboard: that is a change.
    await sent.edit_text("<b>Mano 1</b>", "HTML")
    msg = fake.last_message(people["group"])
    assert (msg.reply_markup, msg.buttons, msg.edits) == (None, [], 1)
    await sent.edit_text("Mano 1")  # same characters, bold gone: a change as well
    assert msg.edits == 2
    assert msg.history[0] == ("Mano 1", markup.to_dict())


async def test_edit_of_unknown_or_deleted_message_is_not_found(fake, people, bot):
    group_id = people["group"]["id"]
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await bot.edit_message_text("x", group_id, 999)
    sent = await bot.send_message(group_id, "ciao")
    assert await sent.delete()
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await sent.edit_text("ancora")
    assert fake.errors[-1].description == EDIT_NOT_FOUND
    with pytest.raises(BadRequest, match="Message to delete not found"):
        await sent.delete()
    assert fake.last_message(people["group"]).deleted


def test_bot_cannot_edit_a_users_message(fake, people):
    update = fake.send_text(people["alice"], people["group"], "ciao")
    message_id = update["message"]["message_id"]
    status, body = fake.handle(
        "editMessageText", {"chat_id": people["group"]["id"], "message_id": message_id, "text": "x"}
    )
    assert (status, body["description"]) == (400, "Bad Request: message can't be edited")


def test_deleting_needs_rights_for_others_messages_and_48_hours_at_most(fake, people):
    group_id = people["group"]["id"]
    theirs = fake.send_text(people["alice"], people["group"], "ciao")["message"]["message_id"]
    status, body = fake.handle("deleteMessage", {"chat_id": group_id, "message_id": theirs})
    assert (status, body["description"]) == (400, "Bad Request: message can't be deleted")
    fake.set_admin(people["group"], fake.bot_user)
    assert fake.handle("deleteMessage", {"chat_id": group_id, "message_id": theirs})[0] == 200
    mine = send(fake, people["group"], "vecchio")[1]["result"]["message_id"]
    fake.advance(48 * 3600)
    status, body = fake.handle("deleteMessage", {"chat_id": group_id, "message_id": mine})
    assert body["description"] == "Bad Request: message can't be deleted for everyone"


async def test_callback_query_answered_twice_or_too_late_is_too_old(fake, people, bot):
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("Passo", callback_data="pass")]])
    sent = await bot.send_message(people["group"]["id"], "Tocca a Bob", reply_markup=markup)
    update = fake.press_button(people["bob"], sent, "Passo")
    query = Update.de_json(update, bot).callback_query
    assert query.data == "pass" and query.message.message_id == sent.message_id
    assert await query.answer("Hai passato", show_alert=True)
    assert fake.answered(update)["text"] == "Hai passato"
    assert fake.alerts[-1]["show_alert"] is True
    with pytest.raises(BadRequest, match="Query is too old"):
        await query.answer()
    late = Update.de_json(fake.press(people["bob"], sent, "pass"), bot).callback_query
    fake.advance(fake.query_timeout + 1)
    with pytest.raises(BadRequest, match="Query is too old"):
        await late.answer()
    assert fake.errors[-1].description == QUERY_TOO_OLD


async def test_callback_answer_url_may_only_open_the_bot(fake, people, bot):
    sent = await bot.send_message(
        people["group"]["id"],
        "Entra",
        reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton("Carte", callback_data="c")]]),
    )
    first = Update.de_json(fake.press(people["bob"], sent, "c"), bot).callback_query
    with pytest.raises(BadRequest, match="Url_invalid"):
        await first.answer(url="https://example.com/")
    link = "https://t.me/TavolataBot?start=hand_42"
    assert await first.answer(url=link)
    # Bob follows the link: the private chat opens with "/start hand_42".
    start = fake.follow_url(people["bob"], link)
    assert start["message"]["text"] == "/start hand_42"
    assert start["message"]["entities"] == [{"type": "bot_command", "offset": 0, "length": 6}]


async def test_group_upgrade_raises_chat_migrated_with_the_new_id(fake, people, bot):
    basic = fake.add_group("Vecchio tavolo", members=[people["alice"]], type="group")
    supergroup = fake.migrate_group(basic)
    with pytest.raises(ChatMigrated) as caught:
        await bot.send_message(basic["id"], "x")
    assert caught.value.new_chat_id == supergroup["id"]
    await bot.send_message(supergroup["id"], "x")
    service = [u["message"] for u in fake.updates if "message" in u][-2:]
    assert service[0]["migrate_to_chat_id"] == supergroup["id"]
    assert service[1]["migrate_from_chat_id"] == basic["id"]


async def test_removed_bot_is_forbidden_in_the_group(fake, people, bot):
    update = fake.remove_bot(people["group"])
    assert update["my_chat_member"]["new_chat_member"]["status"] == "kicked"
    with pytest.raises(Forbidden, match="bot was kicked from the supergroup chat"):
        await bot.send_message(people["group"]["id"], "x")
    basic = fake.add_group("Piccolo", members=[people["alice"]], type="group")
    fake.remove_bot(basic)
    with pytest.raises(Forbidden, match="bot was kicked from the group chat"):
        await bot.send_message(basic["id"], "x")


# -------------------------------------------------------------------- PTB Bot in process


async def test_ptb_bot_sends_edits_and_reads_updates_with_offset(fake, people, bot):
    me = await bot.get_me()
    assert (me.username, me.id, me.is_bot) == ("TavolataBot", fake.bot_id, True)
    first = await bot.get_updates()
    assert [u.message.text for u in first] == ["/start"]  # from the people fixture
    fake.send_text(people["alice"], people["group"], "/nuova briscola")
    fake.send_text(people["bob"], people["group"], "eccomi")
    # The offset confirms the /start: it is not delivered again.
    second = await bot.get_updates(offset=first[-1].update_id + 1, timeout=0)
    assert [u.message.text for u in second] == ["/nuova briscola", "eccomi"]
    assert second[0].message.entities[0].type == "bot_command"
    assert second[0].message.chat.title == "Tavolo <&> 1"
    assert await bot.get_updates(offset=second[-1].update_id + 1) == ()
    sent = await bot.send_message(people["group"]["id"], "Si gioca!")
    edited = await sent.edit_text("Si gioca a briscola!")
    assert edited.edit_date is not None
    assert fake.last_message(people["group"]).text == "Si gioca a briscola!"
    assert [name for name, _ in fake.calls][-2:] == ["sendMessage", "editMessageText"]


async def test_long_poll_in_process_wakes_up_when_an_update_arrives(fake, people, bot):
    fake.max_poll_seconds = 30.0
    old = await bot.get_updates()
    poll = asyncio.create_task(bot.get_updates(offset=old[-1].update_id + 1, timeout=30))
    while len(fake.calls_of("getUpdates")) < 2:
        await asyncio.sleep(0)
    fake.send_text(people["alice"], people["group"], "ci sono")
    assert [u.message.text for u in await poll] == ["ci sono"]


async def test_application_polls_and_answers_a_command(fake, people):
    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await update.effective_message.reply_text(f"Ciao {update.effective_user.first_name}!")

    application = (
        ApplicationBuilder()
        .token(fake.token)
        .request(FakeRequest(fake))
        .get_updates_request(FakeRequest(fake))
        .build()
    )
    application.add_handler(CommandHandler("start", start))
    async with application:
        await application.start()
        await application.updater.start_polling(poll_interval=0, timeout=1)
        while not fake.messages(people["alice"]):
            await asyncio.sleep(0.01)
        await application.updater.stop()
        await application.stop()
    assert fake.last_message(people["alice"]).text == "Ciao Alice!"
    assert fake.internal_errors == []


async def test_process_update_takes_the_returned_dict(fake, people):
    seen: list[str] = []

    async def nuova(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        seen.append(" ".join(context.args))

    application = ApplicationBuilder().token(fake.token).request(FakeRequest(fake)).build()
    application.add_handler(CommandHandler("nuova", nuova))
    async with application:
        update = fake.send_text(people["alice"], people["group"], "/nuova@TavolataBot briscola")
        await application.process_update(Update.de_json(update, application.bot))
    assert seen == ["briscola"]


async def test_chat_members_and_admins_parse_as_ptb_objects(fake, people, bot):
    fake.set_admin(people["group"], people["alice"], owner=True)
    fake.set_admin(people["group"], people["bob"])
    admins = await bot.get_chat_administrators(people["group"]["id"])
    assert [type(a) for a in admins] == [ChatMemberOwner, ChatMemberAdministrator]
    outsider = fake.add_user("Carla")
    member = await bot.get_chat_member(people["group"]["id"], outsider["id"])
    assert member.status == "left"
    chat = await bot.get_chat(people["group"]["id"])
    assert (chat.title, chat.type) == ("Tavolo <&> 1", "supergroup")
    assert await bot.get_chat_member_count(people["group"]["id"]) == 3


async def test_inline_mode_round_trip_with_inline_message_edits(fake, people, bot):
    update = fake.inline_query(people["alice"], "briscola")
    query = Update.de_json(update, bot).inline_query
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("Siedi", callback_data="sit")]])
    content = InputTextMessageContent("<b>Briscola</b> a 2", parse_mode="HTML")
    await query.answer([InlineQueryResultArticle("t1", "Briscola", content, reply_markup=markup)])
    assert fake.inline_answer(update)["results"][0]["id"] == "t1"
    msg = fake.choose_inline_result(people["alice"], update, "t1", chat=people["group"])
    assert (msg.text, msg.via_bot["id"]) == ("Briscola a 2", fake.bot_id)
    press = Update.de_json(fake.press_button(people["bob"], msg, "Siedi"), bot).callback_query
    assert press.inline_message_id == msg.inline_message_id and press.message is None
    assert await press.edit_message_text("Bob si siede") is True
    assert fake.inline_message(msg.inline_message_id).text == "Bob si siede"


def test_privacy_mode_delivers_only_commands_mentions_and_replies(people):
    fake = FakeTelegram(privacy_mode=True)
    alice = fake.add_user("Alice")
    group = fake.add_group("Tavolo", members=[alice])
    assert fake.send_text(alice, group, "chiacchiere") is None
    assert fake.send_text(alice, group, "/nuova") is not None
    assert fake.send_text(alice, group, "/nuova@AltroBot") is None
    assert fake.send_text(alice, group, "ehi @TavolataBot") is not None
    assert len(fake.messages(group, include_users=True)) == 4


# ------------------------------------------------------------------------------ over HTTP


@pytest.fixture
def server(fake):
    with fake.serve() as running:
        yield running


@pytest.fixture
async def http_bot(fake, server):
    async with Bot(fake.token, base_url=server.base_url) as ptb_bot:
        yield ptb_bot


async def test_http_bot_sends_edits_answers_and_polls(fake, people, http_bot):
    old = await http_bot.get_updates()
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("Prendi", callback_data="take:7D")]])
    sent = await http_bot.send_message(people["group"]["id"], "Sul tavolo: 7♦", reply_markup=markup)
    assert sent.reply_markup == markup
    fake.press_button(people["alice"], fake.last_message(people["group"]), "Prendi")
    updates = await http_bot.get_updates(offset=old[-1].update_id + 1, timeout=0)
    query = updates[0].callback_query
    assert query.data == "take:7D" and query.from_user.id == people["alice"]["id"]
    assert await query.answer("Presa!")
    edited = await query.edit_message_text("Alice prende il 7♦")
    assert edited.text == "Alice prende il 7♦"
    assert await http_bot.get_updates(offset=updates[-1].update_id + 1) == ()
    # Form-encoded values reach the world with the same types as in process.
    sent_params = fake.calls_of("sendMessage")[-1]
    assert sent_params["chat_id"] == people["group"]["id"]
    assert sent_params["reply_markup"] == markup.to_dict()


async def test_http_errors_map_to_the_same_ptb_exceptions(fake, people, http_bot):
    with pytest.raises(Forbidden, match="bot can't initiate conversation"):
        await http_bot.send_message(people["bob"]["id"], "x")
    fake.fail_next("sendMessage", 429, retry_after=5)
    with pytest.raises(RetryAfter) as caught:
        await http_bot.send_message(people["group"]["id"], "x")
    assert retry_after_seconds(caught.value) == 5
    with pytest.raises(BadRequest, match="Can't parse entities"):
        await http_bot.send_message(people["group"]["id"], "<b>x", parse_mode="HTML")
    with pytest.raises(EndPointNotFound):
        await http_bot.do_api_request("sendCarrierPigeon")


async def test_http_timeout_hangs_until_the_client_gives_up(fake, people, server):
    request = HTTPXRequest(read_timeout=0.2)
    async with Bot(fake.token, base_url=server.base_url, request=request) as impatient:
        fake.fail_next("sendMessage", "timeout")
        with pytest.raises(TimedOut):
            await impatient.send_message(people["group"]["id"], "lost")
        # Only the first call is meant to time out: a loaded machine may take longer than
        # 0.2 s to answer the second one.
        await impatient.send_message(people["group"]["id"], "delivered", read_timeout=10)
    assert [m.text for m in fake.messages(people["group"])] == ["delivered"]


async def test_http_wrong_token_is_unauthorized(fake, server):
    stranger = Bot("123:wrong", base_url=server.base_url)
    with pytest.raises(InvalidToken):
        await stranger.initialize()  # getMe answers 401 Unauthorized
    await stranger.shutdown()
    assert fake.calls == []  # Telegram does not count calls from other tokens


async def test_http_long_poll_wakes_up_and_a_second_poller_ends_the_first(fake, people, server):
    fake.max_poll_seconds = 30.0
    request = HTTPXRequest(read_timeout=35)
    async with (
        Bot(fake.token, base_url=server.base_url, get_updates_request=request) as first,
        Bot(fake.token, base_url=server.base_url) as second,
    ):
        old = await first.get_updates()
        offset = old[-1].update_id + 1
        waiting = asyncio.create_task(first.get_updates(offset=offset, timeout=30))
        while len(fake.calls_of("getUpdates")) < 2:
            await asyncio.sleep(0.01)
        fake.send_text(people["alice"], people["group"], "sveglia")
        assert [u.message.text for u in await waiting] == ["sveglia"]
        # A restarted bot polling again terminates the old long poll, as Telegram does.
        stale = asyncio.create_task(first.get_updates(offset=offset + 1, timeout=30))
        while len(fake.calls_of("getUpdates")) < 3:
            await asyncio.sleep(0.01)
        assert await second.get_updates(offset=offset + 1, timeout=0) == ()
        with pytest.raises(Conflict, match="terminated by other getUpdates request"):
            await stale


async def test_http_server_accepts_json_bodies_and_case_insensitive_methods(fake, people, server):
    url = f"{server.base_url}{fake.token}/SENDMESSAGE"
    markup = keyboard([[("a", "b")]])
    payload = {"chat_id": people["group"]["id"], "text": "json", "reply_markup": markup}
    async with httpx.AsyncClient() as client:
        answer = (await client.post(url, json=payload)).json()
    assert answer["ok"] is True and answer["result"]["reply_markup"] == payload["reply_markup"]
    assert fake.calls[-1] == ("sendMessage", payload)


async def test_http_long_poll_dropped_by_a_stopping_bot_is_no_conflict(fake, people, server):
    """A bot killed or stopped mid-poll leaves no 409 behind; the next process polls in peace."""
    fake.max_poll_seconds = 30.0
    async with Bot(fake.token, base_url=server.base_url) as old_process:
        abandoned = asyncio.create_task(old_process.get_updates(offset=2, timeout=30))
        while not fake.calls_of("getUpdates"):
            await asyncio.sleep(0.01)
        abandoned.cancel()
        with pytest.raises(asyncio.CancelledError):
            await abandoned
    async with Bot(fake.token, base_url=server.base_url) as new_process:
        fake.send_text(people["alice"], people["group"], "ancora qui")
        updates = await new_process.get_updates(offset=2, timeout=0)
    assert [u.message.text for u in updates] == ["ancora qui"]
    assert fake.errors == []


# ------------------------------------------------------------------------- inline mode, more


def _article(n: int, markup: dict | None = None) -> dict:
    result = {
        "type": "article",
        "id": f"r{n}",
        "title": f"Scelta {n}",
        "input_message_content": {"message_text": f"Scelta {n}"},
    }
    if markup is not None:
        result["reply_markup"] = markup
    return result


def _answer(fake: FakeTelegram, update: dict, **params) -> tuple[int, dict]:
    query_id = update["inline_query"]["id"]
    return fake.handle(
        "answerInlineQuery", {"inline_query_id": query_id, "results": [_article(1)], **params}
    )


def test_inline_answers_are_cached_as_telegram_does(fake, people):
    """ "cache_time: The maximum amount of time in seconds that the result of the inline query
    may be cached on the server. Defaults to 300." "is_personal: Pass True if results may be
    cached on the server side only for the user that sent the query. By default, results may
    be returned to any user who sends the same query." """
    alice, bob = people["alice"], people["bob"]
    first = fake.inline_query(alice, "shared")
    assert _answer(fake, first)[0] == 200
    again = fake.inline_query(bob, "shared")  # the default 300 s: served to anybody
    assert fake.from_cache(again) and fake.inline_answer(again)["results"][0]["id"] == "r1"
    assert again["update_id"] is None and not any(
        u["inline_query"]["id"] == again["inline_query"]["id"]
        for u in fake.pending_updates()
        if "inline_query" in u
    )
    fake.advance(301)
    assert not fake.from_cache(fake.inline_query(bob, "shared"))
    mine = fake.inline_query(alice, "mine")
    assert _answer(fake, mine, is_personal=True, cache_time=60)[0] == 200
    assert fake.from_cache(fake.inline_query(alice, "mine"))
    assert not fake.from_cache(fake.inline_query(bob, "mine"))
    never = fake.inline_query(alice, "never")
    assert _answer(fake, never, cache_time=0)[0] == 200
    assert not fake.from_cache(fake.inline_query(alice, "never"))


def test_inline_results_button_needs_a_text_and_one_action(fake, people):
    """InlineQueryResultsButton: "text" and exactly one of "web_app" or "start_parameter"
    (1-64 characters, only A-Z, a-z, 0-9, _ and -)."""
    alice = people["alice"]
    cases = [
        ({"text": "Apri", "start_parameter": "play"}, 200, None),
        ({"text": "Apri", "start_parameter": "gioca qui"}, 400, "Bad Request: START_PARAM_INVALID"),
        ({"text": "Apri", "start_parameter": "x" * 65}, 400, "Bad Request: START_PARAM_INVALID"),
        ({"text": "Apri"}, 400, "Bad Request: BUTTON_TYPE_INVALID"),
        ({"text": " ", "start_parameter": "play"}, 400, "Bad Request: BUTTON_TEXT_INVALID"),
    ]
    for n, (button, status, description) in enumerate(cases):
        got_status, body = _answer(fake, fake.inline_query(alice, f"q{n}"), button=button)
        assert got_status == status, button
        assert body.get("description") == description


def test_switch_inline_button_types_its_query_in_that_chat(fake, people):
    """A switch_inline_query_current_chat button puts "@bot query" in the input field of the
    chat it is in; the query's chat_type names that chat."""
    status, body = send(
        fake,
        people["group"],
        "Tavolo",
        reply_markup={
            "inline_keyboard": [[{"text": "Gioca", "switch_inline_query_current_chat": "#7"}]]
        },
    )
    assert status == 200
    table = fake.message(people["group"], body["result"]["message_id"])
    update = fake.switch_inline(people["bob"], table, "Gioca")
    assert update["inline_query"]["query"] == "#7"
    assert update["inline_query"]["chat_type"] == "supergroup"
    with pytest.raises(LookupError):
        fake.switch_inline(people["bob"], table, "Altro")


def test_a_result_sent_into_a_group_reaches_the_bot_even_in_privacy_mode():
    """Privacy mode still lets through "messages sent via this bot" (Telegram's bot features
    page): the chosen result reaches the bot, with via_bot and its inline keyboard; only
    whoever typed the query can send one of its results; a group without the bot gets
    nothing."""
    fake = FakeTelegram(privacy_mode=True)
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    group = fake.add_group("Tavolo", members=[alice, bob])
    lonely = fake.add_group("Senza bot", members=[alice], bot_member=False)
    markup = {"inline_keyboard": [[{"text": "Carte", "callback_data": "p:1:0:#0"}]]}
    update = fake.inline_query(alice, "#1", chat_type="supergroup")
    query_id = update["inline_query"]["id"]
    status, _ = fake.handle(
        "answerInlineQuery",
        {"inline_query_id": query_id, "results": [_article(1, markup)], "cache_time": 0},
    )
    assert status == 200
    with pytest.raises(ValueError):
        fake.choose_inline_result(bob, update, "r1", chat=group)
    msg = fake.choose_inline_result(alice, update, "r1", chat=group)
    delivered = fake.delivery(msg)["message"]
    assert delivered["via_bot"]["id"] == fake.bot_id and delivered["from"]["id"] == alice["id"]
    assert delivered["reply_markup"] == markup and delivered["text"] == "Scelta 1"
    elsewhere = fake.choose_inline_result(alice, update, "r1", chat=lonely)
    assert fake.delivery(elsewhere) is None


def test_web_app_buttons_only_in_private_chats_and_over_https(fake):
    """Telegram refuses a web_app button in a group (BUTTON_TYPE_INVALID) or to an http page."""
    user = fake.add_user("Anna", username="anna")
    group = fake.add_group("G", members=[user])
    fake.start_private(user)
    button = {"text": "Table", "web_app": {"url": "https://table.example/?game=1"}}
    markup = {"inline_keyboard": [[button]]}
    assert send(fake, user, "hand", reply_markup=markup)[0] == 200
    status, body = send(fake, group, "table", reply_markup=markup)
    assert (status, body["description"]) == (400, "Bad Request: BUTTON_TYPE_INVALID")
    plain = {"inline_keyboard": [[{**button, "web_app": {"url": "http://table.example/"}}]]}
    status, body = send(fake, user, "hand", reply_markup=plain)
    assert status == 400 and "Only HTTPS links are allowed" in body["description"]


# --------------------------------------------------------------------------- forum topics
# "message_thread_id: Unique identifier for the target message thread (topic) of the forum; for
# forum supergroups only"; "is_topic_message: True, if the message is sent to a topic in a forum
# supergroup"; editMessageText has no message_thread_id: a message stays where it was sent.


@pytest.fixture
def forum(fake: FakeTelegram) -> dict:
    alice = fake.add_user("Alice", language_code="it")
    bob = fake.add_user("Bob", language_code="en")
    group = fake.add_group("Carte", members=[alice, bob], forum=True)
    fake.set_admin(group, alice, owner=True)
    briscola = fake.create_topic(group, "Briscola", by=alice)
    belota = fake.create_topic(group, "Belòta", by=alice)
    return {"alice": alice, "bob": bob, "group": group, "briscola": briscola, "belota": belota}


async def test_a_forum_says_so_and_a_topic_is_named_by_its_creation_message(fake, forum, bot):
    chat = await bot.get_chat(forum["group"]["id"])
    assert chat.is_forum
    created = Update.de_json(fake.updates[0], bot).effective_message
    assert created.forum_topic_created.name == "Briscola"
    assert created.message_thread_id == created.message_id == forum["briscola"]
    assert created.is_topic_message


async def test_users_messages_carry_their_topic_and_general_carries_none(fake, forum, bot):
    group = forum["group"]
    in_topic = fake.send_text(forum["bob"], group, "/nuova", topic=forum["belota"])["message"]
    assert (in_topic["message_thread_id"], in_topic["is_topic_message"]) == (forum["belota"], True)
    general = fake.send_text(forum["bob"], group, "/nuova")["message"]
    assert "message_thread_id" not in general and "is_topic_message" not in general
    # PTB's reply in a topic message goes into that topic by itself.
    message = Update.de_json({"update_id": 1, "message": in_topic}, bot).message
    reply = await message.reply_text("ok", do_quote=False)
    assert reply.message_thread_id == forum["belota"] and reply.is_topic_message
    assert fake.topic_messages(group, forum["belota"])[-1].text == "ok"


async def test_a_reply_in_general_has_a_reply_thread_that_is_no_topic(fake, forum, bot):
    group = forum["group"]
    sent = await bot.send_message(group["id"], "lobby")
    update = fake.send_text(forum["bob"], group, "eccomi", reply_to=sent)
    message = Update.de_json(update, bot).message
    assert message.message_thread_id == sent.message_id and not message.is_topic_message
    answer = await message.reply_text("ciao", do_quote=False)
    assert answer.message_thread_id is None  # back in General, not in a "thread"
    with pytest.raises(BadRequest, match="essage thread not found"):
        await bot.send_message(group["id"], "x", message_thread_id=message.message_thread_id)


async def test_the_bot_writes_in_a_topic_by_its_thread_id_and_in_general_without(fake, forum, bot):
    group = forum["group"]
    in_topic = await bot.send_message(group["id"], "tavolo", message_thread_id=forum["briscola"])
    assert in_topic.is_topic_message and in_topic.message_thread_id == forum["briscola"]
    await bot.send_message(group["id"], "generale")
    assert [m.text for m in fake.topic_messages(group, None)] == ["generale"]
    assert [m.text for m in fake.topic_messages(group, forum["briscola"])] == ["tavolo"]
    # General has no thread id to give: its id 1 is "not found", as any unknown thread.
    for thread in (1, 999):
        with pytest.raises(BadRequest, match="essage thread not found"):
            await bot.send_message(group["id"], "x", message_thread_id=thread)
    plain = fake.add_group("Senza argomenti", members=[forum["alice"]])
    with pytest.raises(BadRequest, match="essage thread not found"):
        await bot.send_message(plain["id"], "x", message_thread_id=forum["briscola"])
    # An edit names only the chat and the message: it stays in its topic.
    await bot.edit_message_text("tavolo 2", group["id"], in_topic.message_id)
    assert fake.topic_messages(group, forum["briscola"])[0].text == "tavolo 2"


async def test_a_closed_topic_refuses_new_messages_until_it_reopens(fake, forum, bot):
    group, thread = forum["group"], forum["briscola"]
    table = await bot.send_message(group["id"], "tavolo", message_thread_id=thread)
    fake.close_topic(group, thread)
    closed = fake.updates[-1]["message"]
    assert "forum_topic_closed" in closed and closed["message_thread_id"] == thread
    with pytest.raises(BadRequest, match=r"(?i)topic_closed"):
        await bot.send_message(group["id"], "risultato", message_thread_id=thread)
    assert fake.errors[-1].description == TOPIC_CLOSED
    with pytest.raises(ValueError, match="closed"):
        fake.send_text(forum["bob"], group, "ci sono", topic=thread)
    fake.send_text(forum["alice"], group, "chiuso per ora", topic=thread)  # an administrator
    await bot.edit_message_text("tavolo 2", group["id"], table.message_id)  # edits still go
    await bot.send_message(group["id"], "altrove", message_thread_id=forum["belota"])
    fake.reopen_topic(group, thread)
    assert "forum_topic_reopened" in fake.updates[-1]["message"]
    await bot.send_message(group["id"], "risultato", message_thread_id=thread)


async def test_a_deleted_topic_takes_its_messages_and_its_thread_is_not_found(fake, forum, bot):
    group, thread = forum["group"], forum["belota"]
    table = await bot.send_message(group["id"], "tavolo", message_thread_id=thread)
    fake.delete_topic(group, thread)
    assert all(m.deleted for m in fake.topic_messages(group, thread, include_users=True))
    with pytest.raises(BadRequest, match="essage thread not found"):
        await bot.send_message(group["id"], "risultato", message_thread_id=thread)
    assert fake.errors[-1].description == THREAD_NOT_FOUND
    with pytest.raises(BadRequest, match="essage to edit not found"):
        await bot.edit_message_text("x", group["id"], table.message_id)
    with pytest.raises(LookupError):
        fake.close_topic(group, thread)
    await bot.send_message(group["id"], "generale")  # the forum goes on


def test_only_a_forum_supergroup_has_topics(fake, people):
    with pytest.raises(ValueError, match="no topics"):
        fake.create_topic(people["group"], "Briscola")
    with pytest.raises(ValueError, match="supergroup"):
        fake.add_group("Vecchio", type="group", forum=True)
    with pytest.raises(ValueError, match="only a forum"):
        fake.send_text(people["alice"], people["group"], "x", topic=5)
