"""The lobby in a group: /nuova, seats and teams, joining through the private chat, house rules,
start and cancel (issue: "Lobby in a group", "Private chat")."""

from __future__ import annotations

import pytest

from bot.games import offered_kinds, player_counts
from bot.table.house_rules import rule_applies, rule_choices
from tests.bot.conftest import t


async def test_new_with_argument_opens_a_lobby_and_seats_the_creator(make_table, fake):
    """/nuova briscola 2 names the game; a creator whose private chat is open sits at once."""
    table = make_table(2)
    await table.open_privates()
    lobby = await table.create("/nuova briscola 2")
    assert "Briscola · 2 giocatori" in lobby.text
    assert "Alice <&>" in lobby.text
    texts = [text for text, _ in lobby.buttons]
    assert t("btn-join") in texts and t("btn-start") not in texts
    answer = await table.press(table.users[1], lobby, t("btn-join"))
    assert answer is not None and not answer.get("show_alert")
    lobby = table.lobby()
    assert "Bob_*" in lobby.text
    assert t("btn-start") in [text for text, _ in lobby.buttons]


async def test_new_without_argument_offers_the_games_as_buttons(make_table, fake):
    """/nuova alone shows one button per game and player count; only the creator chooses."""
    table = make_table(2)
    await table.open_privates()
    menu = await table.create("/nuova")
    labels = [text for text, _ in menu.buttons]
    assert "Briscola · 3 giocatori" in labels
    answer = await table.press(table.users[1], menu, "Briscola · 3 giocatori")
    assert answer["show_alert"] and "Alice" in answer["text"]
    await table.press(table.users[0], menu, "Briscola · 3 giocatori")
    lobby = fake.message(table.group, menu.message_id)
    assert "Briscola · 3 giocatori" in lobby.text
    assert "Alice <&>" in lobby.text  # the creator sits down as the game is chosen


async def test_alias_new_and_an_unknown_game(make_table, fake):
    """/new is an alias; an unknown game gets a reply listing the games and opens nothing."""
    table = make_table(2)
    await table.open_privates()
    reply = await table.create("/new scopone")
    assert "/nuova briscola 2" in reply.text
    assert not reply.buttons
    lobby = await table.create("/new briscola 2")
    assert "Briscola · 2 giocatori" in lobby.text


async def test_a_game_named_without_a_count_lets_the_creator_choose_it(make_table, fake):
    """`/nuova briscola` names no player count: the lobby offers Briscola's counts (and no
    other game) instead of silently meaning two; so does Belòta (two, three or four), and a
    count named with it opens the lobby at once."""
    table = make_table(2)
    await table.open_privates()
    menu = await table.create("/nuova Briscola")
    assert menu.text == "🃏 Nuova partita a Briscola\nAlice <&> sceglie in quanti si gioca:"
    options = [text for text, d in menu.buttons if d.startswith("k:")]
    assert options == [f"Briscola · {n} giocatori" for n in (2, 3)] + [
        "Briscola · 4 giocatori, a coppie"
    ]
    await table.press(table.users[0], menu, "Briscola · 3 giocatori")
    assert "Briscola · 3 giocatori" in fake.message(table.group, menu.message_id).text
    await table.press(table.users[0], table.lobby(), t("btn-cancel"))
    menu = await table.create("/nuova belote")
    options = [text for text, d in menu.buttons if d.startswith("k:")]
    counts = ("2 giocatori", "3 giocatori", "4 giocatori, a coppie")
    assert options == [f"Belòta · {count}" for count in counts]
    await table.press(table.users[0], menu, t("btn-cancel"))
    lobby = await table.create("/nuova belote 3")
    assert "Belòta · 3 giocatori" in lobby.text


async def test_one_game_per_group_and_one_player_in_several_groups(make_table, fake):
    """A second /nuova in the same group is refused; the same player opens one elsewhere."""
    first = make_table(2)
    await first.open_privates()
    await first.create("/nuova briscola 2")
    busy = await first.create("/nuova briscola 2")
    assert busy.text == t("new-busy")
    other = fake.add_group("Altro tavolo", members=first.users)
    await first.bot.feed(fake.send_text(first.users[0], other, "/nuova briscola 2"))
    assert "Briscola" in fake.last_message(other).text


async def test_joining_without_the_private_chat_answers_with_the_deep_link(make_table, fake):
    """The join button answers with the bot's t.me link; pressing Start there completes the join
    and the lobby shows the new player."""
    table = make_table(2)
    await table.open_privates([table.users[0]])
    lobby = await table.create("/nuova briscola 2")
    answer = await table.press(table.users[1], lobby, t("btn-join"))
    assert answer["url"].startswith("https://t.me/TavolataBot?start=j")
    assert "Bob_*" not in table.lobby().text
    await table.bot.feed(fake.follow_url(table.users[1], answer["url"]))
    assert "Bob_*" in table.lobby().text
    joined = fake.last_message(table.users[1])
    assert "Tavolo <&> 1" in joined.text


async def test_pairs_pick_their_team(make_table, fake):
    """With four players each picks a team: team 1 holds seats 0 and 2, team 2 seats 1 and 3;
    a third player on a full team is refused."""
    table = make_table(4)
    await table.open_privates()
    lobby = await table.create("/nuova briscola 4")
    await table.press(table.users[1], lobby, t("btn-join-team", team=1))
    answer = await table.press(table.users[2], table.lobby(), t("btn-join-team", team=1))
    assert answer["show_alert"] and answer["text"] == t("alert-team-full")
    await table.press(table.users[2], table.lobby(), t("btn-join-team", team=2))
    text = table.lobby().text
    assert t("lobby-team", team=1, a="Alice <&>", b="Bob_*") in text
    assert t("lobby-team", team=2, a="Carla", b="—") in text


async def test_leave_and_start_only_when_full(make_table, fake):
    """A player may stand up; Start appears only once every seat is taken."""
    table = make_table(2)
    await table.seat_everybody("briscola", 2)
    await table.press(table.users[1], table.lobby(), t("btn-leave"))
    assert t("btn-start") not in [text for text, _ in table.lobby().buttons]
    assert "Bob_*" not in table.lobby().text


async def test_house_rules_changed_by_the_creator_only(make_table, fake):
    """The creator opens the rules' buttons and cycles a value; others get an alert."""
    table = make_table(2)
    await table.seat_everybody("briscola", 2)
    answer = await table.press(table.users[1], table.lobby(), t("btn-rules"))
    assert answer["show_alert"]
    await table.press(table.users[0], table.lobby(), t("btn-rules"))
    label = t("rule-briscola-raggi")
    await table.press(table.users[0], table.lobby(), f"{label}: 1")
    await table.press(table.users[0], table.lobby(), f"{label}: 2")
    await table.press(table.users[0], table.lobby(), t("btn-rules-done"))
    assert t("lobby-rules", rules=f"{label}: 3") in table.lobby().text


async def test_cancel_by_creator_or_admin(make_table, fake):
    """Only the creator or a chat admin cancels; afterwards the group may open a new game."""
    table = make_table(3)
    await table.seat_everybody("briscola", 3)
    answer = await table.press(table.users[1], table.lobby(), t("btn-cancel"))
    assert answer["show_alert"] and answer["text"] == t("alert-cancel-who")
    fake.set_admin(table.group, table.users[2])
    lobby = table.lobby()
    await table.press(table.users[2], lobby, t("btn-cancel"))
    assert "annullata" in fake.message(table.group, lobby.message_id).text
    assert not fake.message(table.group, lobby.message_id).buttons
    again = await table.create("/nuova briscola 2")
    assert "Briscola" in again.text and again.buttons


@pytest.mark.parametrize("kind", offered_kinds())
async def test_every_house_rule_is_a_button_for_the_creator(make_table, fake, kind):
    """The rules view has one button per house rule of the game's rules file that means
    something at the table's player count, each showing its current value."""
    for players in player_counts(kind):
        table = make_table(players)
        await table.seat_everybody(kind, players)
        await table.press(table.users[0], table.lobby(), t("btn-rules"))
        labels = [text for text, _ in table.lobby().buttons]
        shown = [c for c in rule_choices(kind) if rule_applies(kind, players, c.name)]
        for choice in shown:
            label = t(f"rule-{kind}-{choice.name}") + ":"
            assert any(text.startswith(label) for text in labels)
        # Besides the rules: joining (one button, or one per team), standing up, the turn
        # timer, and "done".
        assert len(labels) == len(shown) + (5 if players == 4 else 4)


async def test_a_rule_the_table_cannot_take_is_refused(make_table, fake):
    """A house rule the engine refuses for this table (the cirullone is for two players) has
    no button there, and a press that sets it anyway gets an alert and sets nothing."""
    if "cirulla" not in offered_kinds():
        pytest.skip("Cirulla is not offered")
    table = make_table(4)
    await table.seat_everybody("cirulla", 4)
    await table.press(table.users[0], table.lobby(), t("btn-rules"))
    label = t("rule-cirulla-cirullone")
    assert not any(text.startswith(label) for text, _ in table.lobby().buttons)
    index = [c.name for c in rule_choices("cirulla")].index("cirullone")
    data = f"r:{table.game_id}:0:{index}=1"
    update = await table.bot.feed(fake.press(table.users[0], table.lobby(), data))
    answer = fake.answered(update)
    assert answer["show_alert"] and answer["text"] == t("alert-rule-conflict")
    assert "cirullone" not in (await table.bot.svc.storage.get_game(table.game_id)).rules


async def test_one_player_in_games_of_two_groups_at_once(make_table, fake, bot):
    """The same two players play in two groups: each game has its own hand messages, named
    after its group, and a card played in one leaves the other as it was."""
    first = make_table(2, title="Primo tavolo")
    await first.start("briscola", 2)
    second = make_table(2, title="Secondo tavolo")
    second.users = first.users
    second.group = fake.add_group("Secondo tavolo", members=first.users)
    await second.create("/nuova briscola 2")
    await second.press(second.users[1], second.lobby(), t("btn-join"))
    second.game_id = int(second.lobby().buttons[0][1].split(":")[1])
    await second.press(second.users[0], second.lobby(), t("btn-start"))
    alice = first.users[0]
    assert first.hand_message(alice).message_id != second.hand_message(alice).message_id
    before = second.hand_message(alice).text
    user, msg, _, data = first.visible_actions()[0]
    await bot.feed(fake.press(user, msg, data))
    assert second.hand_message(alice).text == before
    assert (await bot.svc.storage.get_game(first.game_id)).move_number == 1
    assert (await bot.svc.storage.get_game(second.game_id)).move_number == 0


async def test_cancel_command_for_a_game_in_progress(make_table, fake, bot):
    """/annulla: refused for an ordinary player; the creator cancels, and the table and the
    hands say so and lose their buttons; result hooks hear of it in the same transaction."""
    table = make_table(2)
    await table.start("briscola", 2)
    heard = []

    async def hook(conn, live, game):
        heard.append((live.game_id, conn.in_transaction, game.is_over))

    bot.svc.result_hooks.append(hook)
    table_id = table.table().message_id
    await bot.feed(fake.send_text(table.users[1], table.group, "/annulla"))
    assert fake.last_message(table.group).text == t("alert-cancel-who")
    await bot.feed(fake.send_text(table.users[0], table.group, "/cancel"))
    table_msg = fake.message(table.group, table_id)
    assert t("table-cancelled") in table_msg.text and not table_msg.buttons
    for user in table.users:
        hand = table.hand_message(user)
        assert t("table-cancelled") in hand.text and not hand.buttons
    assert (await bot.svc.storage.get_game(table.game_id)).status == "cancelled"
    assert heard == [(table.game_id, True, False)]


def test_the_application_has_a_job_queue(bot):
    """Turn timers will need the job queue: it is there."""
    assert bot.app.job_queue is not None
