"""Complete games from /nuova to the final message, played only by pressing the buttons the
users see; a restart in the middle of each; and secrecy over whole games."""

from __future__ import annotations

import random

import pytest

from bot.games import offered_kinds, player_counts
from tests.bot.conftest import SecrecyWatch, t
from tests.bot.games.test_person import THIRD_ABOUT_ME

GAMES = [
    (kind, n)
    for kind in ("briscola", "cirulla", "belota")
    if kind in offered_kinds()
    for n in player_counts(kind)
]
LANGS = ("it", "en")


@pytest.mark.parametrize(
    ("kind", "players", "lang"), [(*g, LANGS[n % 2]) for n, g in enumerate(GAMES)]
)
async def test_complete_game_by_buttons_keeps_every_hand_secret(
    make_table, fake, kind, players, lang
):
    """A whole game, every action a button press (every other game in English); after each
    press no message or alert outside a player's private chat shows a card of theirs before it
    is played, and the end is announced with the winners and a rematch button, and told to
    each player in their hand ("Hai vinto!")."""
    table = make_table(players, lang=lang)
    t = table.t
    await table.start(kind, players)
    watch = SecrecyWatch(table)
    rng = random.Random(f"{kind}{players}")
    presses = 0

    while not table.finished():
        user, _, answer = await table.play_one(rng)
        assert not answer.get("show_alert"), answer
        await watch.check()
        presses += 1
        if presses % 7 == 0 and not table.finished():
            # Somebody asks for their own cards from the table message: only theirs show.
            asker = table.users[rng.randrange(players)]
            alert = await table.press(asker, table.table(), t("btn-show-hand"))
            assert alert["show_alert"]
            await watch.check()
    assert watch.messages_checked > presses and watch.alerts_checked > 0
    final = fake.last_message(table.group)
    assert "🏆" in final.text or t("game-draw") in final.text
    stored = await table.bot.svc.storage.get_game(table.game_id)
    assert stored.status == "over" and stored.move_number >= presses
    # The last table became the game's result: the only button left in the group is the
    # rematch, on the last message.
    assert stored.table_message_id is None
    assert [text for m in table.group_messages() if not m.deleted for text, _ in m.buttons] == [
        t("btn-rematch")
    ]
    for user in table.users:
        hand = table.hand_message(user)
        assert t("table-over") in hand.text and not hand.buttons
        # Told to its player: "Hai vinto!" ("Vincete voi!" in pairs) to the winners only,
        # and never their own name swapped for "Tu" in a sentence made for someone else.
        seat = stored.seat_of(user["id"])
        person = "second-plural" if players == 4 else "second"
        you_won = t("game-winners", person=person, winners="", count=1)
        assert (you_won in hand.text) == (seat in stored.winners), hand.text
        assert not THIRD_ABOUT_ME.search(hand.text), hand.text
    labels = [f"<b>{t(key)}</b>" for key in ("you", "you-pair")]
    assert not [m.text for m in table.group_messages() if any(x in m.text for x in labels)]


@pytest.mark.parametrize(("kind", "players"), GAMES)
async def test_restart_in_the_middle_then_a_new_application_finishes(
    make_table, fake, bot, kind, players
):
    """Half a game, a new application on the same database: it reloads the game, brings its
    messages up to date (re-sending one that was deleted meanwhile) and the game finishes."""
    table = make_table(players)
    await table.start(kind, players)
    rng = random.Random(f"restart{kind}{players}")
    played = await table.play_to_end(rng, stop_after=25)
    assert played == 25
    before = await bot.svc.storage.get_game(table.game_id)
    await bot.stop()
    lost = fake.message(table.group, before.table_message_id)
    lost.deleted = True  # somebody deleted the table message while the bot was down
    await bot.start()
    after = await bot.svc.storage.get_game(table.game_id)
    assert after.move_number == before.move_number
    assert after.table_message_id != before.table_message_id
    assert t("table-turn", player="") in fake.message(table.group, after.table_message_id).text
    await table.play_to_end(rng)
    assert table.finished()


async def test_rematch_starts_the_same_table_again(make_table, fake, bot):
    """The rematch button deals a new game to the same players, in the same seats."""
    table = make_table(2)
    await table.start("briscola", 2)
    await table.play_to_end(random.Random(3))
    old_id = table.game_id
    final = fake.last_message(table.group)
    outsider = fake.add_user("Zoe", language_code="it")
    fake.add_member(table.group, outsider)
    answer = await table.press(outsider, final, t("btn-rematch"))
    assert answer["show_alert"] and answer["text"] == t("alert-not-your-game")
    await table.press(table.users[1], final, t("btn-rematch"))
    new = await bot.svc.storage.open_game_in_chat(table.group["id"])
    assert new.game_id != old_id and new.status == "active" and new.rematch_of == old_id
    assert [s.user_id for s in new.seats] == table.user_ids
    table.game_id = new.game_id
    assert table.visible_actions()
    again = await table.press(table.users[0], final, t("btn-rematch"))
    assert again["show_alert"] and again["text"] == t("alert-busy")


async def test_a_result_not_sent_before_a_crash_is_sent_after_the_restart(
    make_table, fake, bot, monkeypatch
):
    """The end of the game is committed with the last card; if Telegram never took the final
    message (every try timed out), the next start sends it."""
    monkeypatch.setattr("bot.delivery.scheduler.RETRY_DELAY", 0.01)
    table = make_table(2)
    await table.start("briscola", 2)
    group_id = table.group["id"]
    # The result takes the last table's place: that edit never gets through before the restart
    # (its tries put off for later keep failing: one let through would race this test's reads).
    down = [True]
    fake.fail_next(
        "editMessageText",
        "timeout",
        match=lambda p: (
            down[0] and p["chat_id"] == group_id and t("btn-rematch") in str(p["reply_markup"])
        ),
        times=10_000,
    )
    while (await bot.svc.storage.get_game(table.game_id)).status == "active":
        user, msg, _, data = table.visible_actions()[0]
        await bot.feed(fake.press(user, msg, data))
    assert not table.finished()
    assert await bot.svc.storage.outbox(table.game_id)
    down[0] = False
    await bot.restart()
    assert table.finished()
    assert not await bot.svc.storage.outbox(table.game_id)


async def test_result_hooks_write_in_the_transaction_that_ends_the_game(make_table, fake, bot):
    """A result hook (leaderboards) runs inside the commit of the last card; if it fails, the
    last card is not committed either and the game is still on."""
    table = make_table(2)
    await table.start("briscola", 2)
    calls = []

    async def failing(conn, live, game):
        calls.append((conn.in_transaction, game.is_over, live.game.is_over))
        raise RuntimeError("the ratings table is locked")

    bot.svc.result_hooks.append(failing)
    rng = random.Random(4)
    while not calls:
        user, data, _ = await table.play_one(rng)
    # The hook sees the game as it ends; the live game moves on only once the commit succeeds.
    assert calls == [(True, True, False)]
    stored = await bot.svc.storage.get_game(table.game_id)
    assert stored.status == "active"
    live = await bot.svc.games.get(table.game_id)
    assert live.game.move_number == stored.move_number and not live.game.is_over
    bot.errors.records.clear()  # the failure was logged, as it should be

    async def recording(conn, live, game):
        calls.append((conn.in_transaction, game.is_over, live.game.is_over))

    bot.svc.result_hooks[:] = [recording]
    msg = table.hand_message(user)
    await bot.feed(fake.press(user, msg, data))
    assert calls[-1] == (True, True, False)
    assert table.finished()


async def test_the_live_game_moves_on_only_once_the_commit_has_succeeded(make_table, fake, bot):
    """A press is played on a copy of the game: whoever reads the live game while its commit is
    awaited sees the state before the press, whole; a commit that fails leaves the live game as
    it was; one that succeeds moves it on."""
    table = make_table(2)
    await table.start("briscola", 2)
    live = await bot.svc.games.get(table.game_id)
    storage = bot.svc.storage
    record_actions = storage.record_actions
    seen = []

    async def reading(*args, **kwargs):
        seen.append((live.game.to_json(), live.game.move_number, live.row.move_number))
        return await record_actions(*args, **kwargs)

    async def failing(*args, **kwargs):
        seen.append((live.game.to_json(), live.game.move_number, live.row.move_number))
        raise RuntimeError("disk full")

    before = live.game.to_json()
    user = table.users[live.game.current_seat]
    hand = table.hand_message(user)
    card = next(d for _, d in hand.buttons if d.startswith(f"a:{table.game_id}:"))
    storage.record_actions = failing
    update = fake.press(user, hand, card)
    await bot.feed(update)
    assert seen == [(before, 0, 0)]
    assert live.game.to_json() == before and live.game.move_number == 0
    assert table.hand_message(user).message_id == hand.message_id  # nothing was sent anew
    bot.errors.records.clear()  # the failure was logged, as it should be

    storage.record_actions = reading
    await bot.feed(fake.press(user, hand, card))
    assert seen[-1] == (before, 0, 0)  # during the commit: the game before the press
    assert live.game.move_number == 1 and live.row.move_number == 1
    assert (await storage.get_game(table.game_id)).move_number == 1


async def test_a_ping_a_crash_cut_off_is_sent_after_the_restart(make_table, fake, bot, monkeypatch):
    """A card is committed, then the next player's ping never reaches Telegram (every try
    timed out) before the bot stops, as in a crash between the two: the next start pings that
    player (their hand sent afresh at the bottom of the chat, the old one deleted) rather than
    taking the turn as pinged."""
    monkeypatch.setattr("bot.delivery.scheduler.RETRY_DELAY", 0.01)
    table = make_table(2)
    await table.start("briscola", 2)
    live = await bot.svc.games.get(table.game_id)
    seat = live.game.current_seat
    user, other = table.users[seat], table.users[1 - seat]
    before = table.hand_message(other)
    down = [True]
    fake.fail_next(
        "sendMessage",
        "timeout",
        match=lambda p: down[0] and p["chat_id"] == other["id"],
        times=10_000,
    )
    hand = table.hand_message(user)
    card = next(text for text, d in hand.buttons if d.startswith("a:"))
    assert not (await table.press(user, hand, card)).get("show_alert")
    assert table.hand_message(other).message_id == before.message_id  # no ping got through
    await bot.stop()
    down[0] = False
    start = len(fake.calls)
    await bot.start()
    sent = [p for m, p in fake.calls[start:] if m == "sendMessage" and p["chat_id"] == other["id"]]
    assert len(sent) == 1
    pinged = table.hand_message(other)
    assert pinged.message_id != before.message_id
    assert any(d.startswith(f"a:{table.game_id}:") for _, d in pinged.buttons)
    assert fake.message(other, before.message_id).deleted
    bot.errors.records.clear()  # the timeouts were logged, as they should be
