"""The lobby in a group: /nuova, seats and teams, joining through the private chat, house rules,
start and cancel (issue: "Lobby in a group", "Private chat")."""

from __future__ import annotations

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
    lobby = await table.create("/new briscola")
    assert "Briscola · 2 giocatori" in lobby.text


async def test_one_game_per_group_and_one_player_in_several_groups(make_table, fake):
    """A second /nuova in the same group is refused; the same player opens one elsewhere."""
    first = make_table(2)
    await first.open_privates()
    await first.create("/nuova briscola")
    busy = await first.create("/nuova briscola")
    assert busy.text == t("new-busy")
    other = fake.add_group("Altro tavolo", members=first.users)
    await first.bot.feed(fake.send_text(first.users[0], other, "/nuova briscola"))
    assert "Briscola" in fake.last_message(other).text


async def test_joining_without_the_private_chat_answers_with_the_deep_link(make_table, fake):
    """The join button answers with the bot's t.me link; pressing Start there completes the join
    and the lobby shows the new player."""
    table = make_table(2)
    await table.open_privates([table.users[0]])
    lobby = await table.create("/nuova briscola")
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
    again = await table.create("/nuova briscola")
    assert "Briscola" in again.text and again.buttons
