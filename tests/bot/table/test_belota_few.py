"""Belòta for two and three players at a Telegram table (``docs/rules/belota-2-3.md``): the lobby
offers the counts, computer players fill to the chosen one, the house rules of two and three
are buttons, the table shows the bergère and the card left face up, and the scoresheet, the
results and the ratings speak of players; a rematch keeps the count."""

from __future__ import annotations

import html
import random
import re

import pytest

from bot.games import game_options
from bot.table.house_rules import rule_choices
from bot.table.screens import make_ctx
from tests.bot.computers.test_computers import add_label, open_lobby, play_humans_to_end, settle
from tests.bot.conftest import TR, t


@pytest.fixture(autouse=True)
def quick_computers(monkeypatch):
    """No pause before a computer move and a short search, so that tests run fast."""
    monkeypatch.setenv("COMPUTER_PAUSE", "0")
    monkeypatch.setenv("COMPUTER_BUDGET_MS", "10")


def plain(text: str) -> str:
    """A text as the fake shows it: tags gone, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def _rule_press(game_id: int, players: int, name: str, value) -> str:
    """The callback data of the lobby button that sets house rule ``name`` to ``value``."""
    choices = rule_choices("belota", players)
    index = [c.name for c in choices].index(name)
    return f"r:{game_id}:0:{index}={choices[index].values.index(value)}"


async def test_the_lobby_offers_belota_for_two_three_and_four(make_table):
    """«si può giocare in due o tre giocatori»: /nuova belota asks for the count, and each
    count opens its own lobby (players in seat order, pairs only with four)."""
    assert [n for kind, n in game_options() if kind == "belota"] == [2, 3, 4]
    table = make_table(3)
    await table.open_privates()
    menu = await table.create("/nuova belota")
    labels = [text for text, _ in menu.buttons]
    for players in (2, 3):
        assert t("game-option", game=t("game-belota"), players=players) in labels
    assert t("game-option-pairs", game=t("game-belota"), players=4) in labels
    await table.press(table.users[0], menu, t("game-option", game=t("game-belota"), players=3))
    lobby = table.lobby()
    assert t("game-option", game=t("game-belota"), players=3) in lobby.text
    assert t("btn-join") in [text for text, _ in lobby.buttons]


@pytest.mark.parametrize(("players", "level"), [(2, "hard"), (3, "normal"), (3, "easy")])
async def test_computer_players_fill_the_chosen_count_and_the_game_ends(
    bot, make_table, players, level
):
    """One human and computer players up to the chosen count: the match ends with one winner,
    and each hand's scoresheet has one line per player ("Each plays for himself")."""
    table = make_table(1)
    alice = table.users[0]
    await open_lobby(table, f"/nuova belota {players}")
    target = _rule_press(table.game_id, players, "target", 500)
    await table.bot.feed(table.fake.press(alice, table.lobby(), target))
    for _ in range(players - 1):
        await table.press(alice, table.lobby(), add_label(level))
    row = await bot.svc.storage.get_game(table.game_id)
    assert [s.seat for s in row.seats] == list(range(players))
    assert not any(text.startswith(add_label(level)) for text, _ in table.lobby().buttons)
    await table.press(alice, table.lobby(), t("btn-start"))
    await settle(bot)
    await play_humans_to_end(table, random.Random(players), limit=400)
    live = await bot.svc.games.get(table.game_id)
    assert live.row.status == "over" and len(live.game.scores) == players
    assert len(live.game.winners) == 1
    names = [s.name for s in live.row.seats]  # the fake's texts are plain, tags gone
    sheets = [m.text for m in table.group_messages() if "🧮" in m.text]
    assert sheets, "no hand was scored"
    for sheet in sheets:
        lines = sheet.split("\n")
        assert sum(any(x.startswith(f"{n}: ") for n in names) for x in lines) == players, (
            sheet,
            names,
        )
        assert not any(t("pair", a=a, b="") in sheet for a in names)


async def test_the_bergere_and_the_turned_card_left_on_the_table_are_shown(bot, make_table):
    """ "its last card deck[31] is shown to all ('la bergère')"; with carta_girata at table
    "the turned card stays face up, out of play" and "the holder of the trump 7 may exchange
    it for the turned card": the table shows both cards, the holder of the 7 gets the exchange
    as a button, and after it the table names who made it."""
    table = make_table(3)
    await table.seat_everybody("belota", 3)
    rule = _rule_press(table.game_id, 3, "carta_girata", "table")
    await table.bot.feed(table.fake.press(table.users[0], table.lobby(), rule))
    await table.press(table.users[0], table.lobby(), t("btn-start"))
    live = await bot.svc.games.get(table.game_id)
    ctx = make_ctx(TR, "it", live)
    assert t("belota-bergere", card=ctx.card(live.game.view(None)["bergere"])) in table.table().text
    rng = random.Random(5)
    for _ in range(400):
        assert not table.finished(), "no hand offered the exchange in this game"
        view = live.game.view(None)
        seat = live.game.current_seat
        if view["phase"] == "playing" and "exchange" in live.game.legal_actions(seat):
            turned = view["face_up"]
            assert t("belota-face-up", card=ctx.card(turned)) in table.table().text
            seven = ctx.card("7" + turned[1])
            label = t("belota-bid-exchange", seven=seven, card=ctx.card(turned))
            await table.press(table.users[seat], table.hand_message(table.users[seat]), label)
            assert live.game.view(None)["exchanged"] == seat
            # The exchange is a quiet action: the table shows it with the same player's card.
            line = plain(t("belota-face-up-exchanged", card=seven, player=ctx.name(seat)))
            assert line not in table.table().text
            user, msg, _, data = next(a for a in table.visible_actions() if len(a[2]) <= 3)
            await table.bot.feed(table.fake.press(user, msg, data))
            assert line in table.table().text
            return
        # Taking the turned suit makes the turned card a trump: the exchange can come.
        actions = table.visible_actions()
        take = [a for a in actions if "(mandà)" in a[2]]
        user, msg, _, data = take[0] if take else rng.choice(actions)
        await table.bot.feed(table.fake.press(user, msg, data))
    raise AssertionError("the game went on too long")


async def test_the_short_pack_for_three_deals_eight_cards_and_shows_no_bergere(bot, make_table):
    """mazzo_3 at 24: "7s and 8s leave the pack ... 3+2, deck[15] turned, 8 cards, 8 tricks,
    nothing left": no bergère on the table, and 8 cards in each hand once served."""
    table = make_table(3)
    await table.seat_everybody("belota", 3)
    rule = _rule_press(table.game_id, 3, "mazzo_3", 24)
    await table.bot.feed(table.fake.press(table.users[0], table.lobby(), rule))
    assert t("rule-belota-mazzo_3-24") in table.lobby().text
    await table.press(table.users[0], table.lobby(), t("btn-start"))
    live = await bot.svc.games.get(table.game_id)
    bergere = t("belota-bergere", card="\x00").split("\x00")[0]
    assert bergere not in table.table().text
    rng = random.Random(2)
    while live.game.view(None)["phase"] == "bidding" and live.game.deal_number == 1:
        await table.play_one(rng)
    if live.game.deal_number == 1:
        assert live.game.view(None)["hand_sizes"] == [8, 8, 8]
        hand = table.hand_message(table.users[live.game.current_seat]).text
        assert len(hand.split(t("hand-cards", cards="\x00").split("\x00")[0])[1].split()) == 8


async def test_the_rules_for_three_only_are_no_buttons_at_two_or_four(make_table):
    """mazzo_3 and contratto_3 are "3 players only": the lobbies of two and four show no
    button for them; carta_girata is for two and three."""
    for players, shown, hidden in (
        (2, ["carta_girata"], ["mazzo_3", "contratto_3"]),
        (3, ["carta_girata", "mazzo_3", "contratto_3"], []),
        (4, [], ["carta_girata", "mazzo_3", "contratto_3"]),
    ):
        table = make_table(players)
        await table.seat_everybody("belota", players)
        await table.press(table.users[0], table.lobby(), t("btn-rules"))
        labels = [text for text, _ in table.lobby().buttons]
        for name in shown:
            assert any(x.startswith(t(f"rule-belota-{name}") + ":") for x in labels), name
        for name in hidden:
            assert not any(x.startswith(t(f"rule-belota-{name}") + ":") for x in labels), name


@pytest.mark.parametrize("players", [2, 3])
async def test_each_player_is_rated_and_a_rematch_keeps_the_count(bot, make_table, players):
    """ "Individual scores": at the end each player's rating moves on its own (a line each);
    the rematch is the same table again, with as many players, each with a score."""
    table = make_table(players)
    await table.seat_everybody("belota", players)
    target = _rule_press(table.game_id, players, "target", 500)
    await table.bot.feed(table.fake.press(table.users[0], table.lobby(), target))
    await table.press(table.users[0], table.lobby(), t("btn-start"))
    await table.play_to_end(random.Random(9))
    over = next(m for m in reversed(table.group_messages()) if m.buttons and "🏆" in m.text)
    ratings = over.text.split(t("result-ratings-title"))[1].strip().split("\n")
    assert len(ratings) == players
    for user, line in zip(table.users, ratings, strict=True):
        assert line.startswith(f"{user['first_name']}: 1000 → ")
    await table.press(table.users[1], over, t("btn-rematch"))
    live = await bot.svc.games.in_chat(table.group["id"])
    assert live.game_id != table.game_id
    assert live.row.players == players and live.row.status == "active"
    assert live.row.rules == {"target": 500}
    assert len(live.game.view(None)["scores"]) == players
