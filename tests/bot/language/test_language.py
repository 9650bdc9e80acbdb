"""Chat languages, the dialect commentary and its explanations, and the command menus, through
the fake Bot API (issue 6: "Languages", "Dialect commentary")."""

from __future__ import annotations

import json
import random

import pytest

import engine
from bot.core.callbacks import Callback, Op
from bot.core.chat_settings import get_settings, person_lang
from bot.games import ui_for
from bot.reference.glossary import default_glossary
from bot.reference.handlers import explanation
from tests.bot.conftest import TR, t

GLOSSARY = default_glossary()


def en(msg_id: str, **args) -> str:
    """A text in English, as the bot writes it."""
    return TR.get("en", msg_id, **args)


async def _say(table, text: str, user: dict | None = None):
    await table.bot.feed(table.fake.send_text(user or table.users[0], table.group, text))
    return table.fake.last_message(table.group)


async def test_every_command_and_alias_answers(make_table, fake):
    """Each settings command and its English alias answers in the group and in private."""
    table = make_table(1)
    user = table.users[0]
    await table.bot.feed(fake.start_private(user))
    for command in ("/lingua", "/language", "/commento", "/commentary", "/commento off"):
        before = len(table.group_messages())
        reply = await _say(table, command)
        assert len(table.group_messages()) == before + 1 and reply.text, command
        before = len(fake.messages(user))
        await table.bot.feed(fake.send_text(user, None, command))
        assert len(fake.messages(user)) == before + 1, command


async def test_group_set_to_english_gets_english_lobby_and_table(make_table, fake):
    """Italian-speaking players in a group set to English: lobby, table and buttons are in
    English (the group's language, not the creator's)."""
    table = make_table(2)
    await table.open_privates()
    menu = await _say(table, "/lingua")
    answer = await table.press(table.users[1], menu, "English")  # no admins known: anyone
    assert not answer.get("show_alert")
    assert (await get_settings(table.bot.svc.storage, table.group["id"])).lang == "en"
    assert fake.message(table.group, menu.message_id).text.startswith(
        en("language-current", code="en").replace("<b>", "").split("</b>")[0]
    )
    lobby = await table.create("/nuova briscola 2")
    assert en("btn-join") in [text for text, _ in lobby.buttons]
    await table.press(table.users[1], table.lobby(), en("btn-join"))
    table.game_id = int(table.lobby().buttons[0][1].split(":")[1])
    await table.press(table.users[0], table.lobby(), en("btn-start"))
    board = table.table()
    assert en("btn-show-hand") in [text for text, _ in board.buttons]
    assert en("table-turn", player="\x00").split("\x00")[0] in board.text
    # Private hands stay in each player's own language.
    assert (
        t("hand-wait") in table.hand_message(table.users[0]).text
        or t("hand-your-turn") in table.hand_message(table.users[0]).text
    )


async def test_changing_language_redraws_the_open_lobby(make_table, fake):
    """A lobby opened in Italian turns English as soon as the group chooses English."""
    table = make_table(2)
    await table.open_privates()
    lobby = await table.create("/nuova briscola 2")
    assert t("btn-join") in [text for text, _ in lobby.buttons]
    menu = await _say(table, "/language")
    await table.press(table.users[0], menu, "English")
    redrawn = fake.message(table.group, lobby.message_id)
    assert en("btn-join") in [text for text, _ in redrawn.buttons]


async def test_only_admins_change_settings_when_the_group_has_admins(make_table, fake):
    """With administrators, another member's press gets an alert and changes nothing."""
    table = make_table(2)
    fake.set_admin(table.group, table.users[0], owner=True)
    menu = await _say(table, "/lingua")
    answer = await table.press(table.users[1], menu, "English")
    assert answer["show_alert"] and answer["text"] == t("language-admins-only")
    assert (await get_settings(table.bot.svc.storage, table.group["id"])).lang is None
    assert fake.message(table.group, menu.message_id).text == menu.text
    reply = await _say(table, "/commento off", table.users[1])
    assert reply.text == t("language-admins-only")
    assert (await get_settings(table.bot.svc.storage, table.group["id"])).commentary
    await table.press(table.users[0], menu, "English")
    assert (await get_settings(table.bot.svc.storage, table.group["id"])).lang == "en"


async def test_private_chat_follows_telegram_language_until_chosen(bot, fake):
    """In private an English user gets English; after /lingua Italiano, Italian."""
    user = fake.add_user("Jim", language_code="en")
    await bot.feed(fake.start_private(user))
    await bot.feed(fake.send_text(user, None, "/regole"))
    assert fake.last_message(user).text == en("rules-choose")
    await bot.feed(fake.send_text(user, None, "/lingua"))
    menu = fake.last_message(user)
    assert not any(d.startswith("c:") for _, d in menu.buttons)  # no commentary in private
    await bot.feed(fake.press_button(user, menu, "Italiano"))
    await bot.feed(fake.send_text(user, None, "/regole"))
    assert fake.last_message(user).text == t("rules-choose")


async def test_malformed_settings_buttons_change_nothing(make_table, fake):
    """A forged language or commentary button gets an alert; the settings stay as they were."""
    table = make_table(1)
    menu = await _say(table, "/lingua")
    for data in ("L:0:0:de", "c:0:0:2", "L:3:0:en"):
        update = fake.press(table.users[0], menu, data)
        await table.bot.feed(update)
        assert fake.answered(update)["show_alert"]
    settings = await get_settings(table.bot.svc.storage, table.group["id"])
    assert settings.lang is None and settings.commentary


def _explain_buttons(message) -> list[str]:
    return [d for _, d in message.buttons if d and d.startswith(f"{Op.EXPLAIN.value}:")]


async def test_commentary_explains_sayings_and_can_be_switched_off(make_table, fake):
    """Briscola's sayings come with a button whose alert quotes the glossary (at most 200
    characters); /commento off hides both, /commento on brings them back."""
    table = make_table(2)
    await table.start("briscola", 2)
    rng = random.Random(11)
    for _ in range(40):
        if _explain_buttons(table.table()):
            break
        await table.play_one(rng)
    board = table.table()
    buttons = _explain_buttons(board)
    assert buttons, "no saying came up in this game"
    entry_id = Callback.parse(buttons[0]).arg
    update = fake.press(table.users[1], board, buttons[0])
    await table.bot.feed(update)
    alert = fake.answered(update)
    assert alert["show_alert"] and len(alert["text"]) <= 200
    assert GLOSSARY.get(entry_id).term[:10] in alert["text"]
    saying_line = next(line for line in board.text.splitlines() if line.startswith("«"))

    await _say(table, "/commento off")
    quiet = table.table()
    assert not _explain_buttons(quiet) and saying_line not in quiet.text
    await _say(table, "/commento on")
    assert _explain_buttons(table.table()) and saying_line in table.table().text


async def test_forged_explain_button_alerts(make_table, fake):
    """An explanation button for no glossary entry is refused with an alert."""
    table = make_table(1)
    menu = await _say(table, "/lingua")
    update = fake.press(table.users[0], menu, "e:1:0:no-such-saying")
    await table.bot.feed(update)
    assert fake.answered(update)["text"] == t("alert-malformed")


@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_explanation_fits_an_alert(lang):
    """Telegram shows at most 200 characters in an alert: every entry's explanation fits."""
    for entry in GLOSSARY:
        text = explanation(GLOSSARY, TR, lang, entry.id)
        assert 0 < len(text.encode("utf-16-le")) // 2 <= 200, text
        assert text.startswith("«")


async def test_command_menus_per_language_and_scope(bot, fake):
    """At start-up the bot publishes its menus for groups and private chats in each language."""
    groups = json.dumps({"type": "all_group_chats"}, sort_keys=True)
    private = json.dumps({"type": "all_private_chats"}, sort_keys=True)
    for lang in ("it", "en"):
        group_menu = {c["command"]: c["description"] for c in fake.commands[(groups, lang)]}
        assert {"nuova", "glossario", "regole", "lingua", "commento"} <= set(group_menu)
        assert group_menu["glossario"] == TR.get(lang, "command-glossario")
        private_menu = {c["command"] for c in fake.commands[(private, lang)]}
        assert {"glossario", "regole", "lingua"} <= private_menu
        assert "commento" not in private_menu


async def test_private_choice_sets_the_language_of_ones_hand(make_table, fake):
    """A player who chose English in private gets the hand message in English, while the
    group's table stays in the group's language."""
    table = make_table(2)
    await table.open_privates()
    user = table.users[1]
    await table.bot.feed(fake.send_text(user, None, "/lingua"))
    await table.bot.feed(fake.press_button(user, fake.last_message(user), "English"))
    await table.start("briscola", 2)
    hand = next(m for m in reversed(fake.messages(user)) if m.text.startswith("🃏"))
    assert en("hand-cards", cards="\x00").split("\x00")[0] in hand.text
    assert t("btn-show-hand") in [text for text, _ in table.table().buttons]


async def test_settings_follow_a_group_upgraded_to_a_supergroup(make_table, fake, bot):
    """A basic group set to English keeps English after becoming a supergroup."""
    table = make_table(1)
    table.group = fake.add_group("Gruppo base", members=table.users, type="group")
    menu = await _say(table, "/lingua")
    await table.press(table.users[0], menu, "English")
    new_group = fake.migrate_group(table.group)
    for update in fake.updates[-2:]:
        await bot.feed(update)
    table.group = new_group
    reply = await _say(table, "/regole")
    assert reply.text == en("rules-choose")


def test_belota_table_explains_its_dialect_words():
    """Belòta's table offers the meaning of the words it shows (sensa, contru, "l'è bon u mei",
    belòta, litigiu): over random deals every one comes up and each is a glossary entry."""
    ui = ui_for("belota")
    seen: set[str] = set()
    for seed in range(30):
        game = engine.new_game("belota", 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.move_number < 2000:
            seat = game.current_seat
            events = game.play(seat, rng.choice(game.legal_actions(seat)))
            view = game.view(None)
            terms = ui.dialect_terms(view, events)
            if view["litigiu"]:
                assert "litigiu" in terms
            seen.update(terms)
    assert seen == {"manda-sensa", "manda-contru", "e-bon-u-mei", "a-belota", "litigiu"}
    assert all(term in GLOSSARY for term in seen)


async def test_lingua_commentary_button_switches_and_redraws(make_table, fake):
    """The commentary button of /lingua turns it off, then on again, redrawing the message."""
    table = make_table(1)
    menu = await _say(table, "/lingua")
    off = t("btn-commentary", on=True)
    assert off in [text for text, _ in menu.buttons]
    await table.press(table.users[0], menu, off)
    assert not (await get_settings(table.bot.svc.storage, table.group["id"])).commentary
    redrawn = fake.message(table.group, menu.message_id)
    await table.press(table.users[0], redrawn, t("btn-commentary", on=False))
    assert (await get_settings(table.bot.svc.storage, table.group["id"])).commentary


async def test_one_rule_for_a_persons_language(bot, fake):
    """``person_lang`` is the one rule, for answers to an update and for messages the bot
    writes on its own (hands, pings): the choice made with /lingua in private, else the
    Telegram language the update gives, else the one last seen."""
    svc = bot.svc
    user = fake.add_user("Jim", language_code="en")
    await bot.feed(fake.start_private(user))  # the bot meets Jim: Telegram says English
    assert await person_lang(svc, user["id"]) == "en"
    assert await svc.lang_of(user["id"]) == "en"
    assert await person_lang(svc, user["id"], "it") == "it"  # this update's language first
    assert await person_lang(svc, None) == svc.tr.resolve(None)
    await bot.feed(fake.send_text(user, None, "/lingua"))
    await bot.feed(fake.press_button(user, fake.last_message(user), "Italiano"))
    for telegram in (None, "en"):  # the choice beats Telegram's language, however given
        assert await person_lang(svc, user["id"], telegram) == "it"
    assert await svc.lang_of(user["id"]) == "it"
