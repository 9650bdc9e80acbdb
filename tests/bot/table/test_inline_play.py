"""Playing from the group through inline mode, for a player who blocked the bot.

Issue 9: "a user who blocks the bot keeps playing through the table's hand button." The table's
"play here" button types ``@bot #<game>``; the bot answers that player alone with their choices;
the chosen result lands in the group naming no card, and the bot plays it: only the player to
act, only at the move it was drawn for, once.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from telegram import Update

from bot.core.callbacks import Callback, Op
from bot.games import ui_for
from tests.bot.conftest import SecrecyWatch, cards_shown, t


async def seat_then_block(table, kind: str, players: int, victim_seat: int) -> dict:
    """Seat everybody, the victim blocks the bot, then the game starts (their cards cannot be
    sent)."""
    await table.seat_everybody(kind, players)
    victim = table.users[victim_seat]
    await table.bot.feed(table.fake.block(victim))
    await table.press(table.users[0], table.lobby(), t("btn-start"))
    return victim


async def ask(table, user: dict, offset: str = "") -> dict:
    """The user presses the table's "play here" button; the bot answers the query. Returns
    the query update."""
    update = table.fake.switch_inline(user, table.table(), t("btn-play-inline"), offset=offset)
    assert not table.fake.from_cache(update), "Telegram answered from its cache"
    await table.bot.feed(update)
    return update


async def all_results(table, user: dict) -> tuple[dict, list[tuple[dict, dict]]]:
    """Every result of the user's query, page by page: (first update, [(update, result)])."""
    first = await ask(table, user)
    update, found = first, []
    while True:
        answer = table.fake.inline_answer(update)
        found += [(update, r) for r in answer["results"]]
        if not answer.get("next_offset"):
            return first, found
        update = await ask(table, user, offset=answer["next_offset"])


async def choose(table, user: dict, update: dict, result: dict) -> tuple[object, dict]:
    """The user sends a result into the group; the bot sees the message. Returns (the group
    message, its update)."""
    msg = table.fake.choose_inline_result(user, update, result["id"], chat=table.group)
    delivered = table.fake.delivery(msg)
    assert delivered is not None, "a message sent via the bot reaches it"
    await table.bot.feed(delivered)
    return msg, delivered


def refusals(table) -> list[str]:
    """The bot's replies in the group to messages sent through inline mode (refusals)."""
    return [
        m.text
        for m in table.group_messages()
        if m.reply_to is not None and m.reply_to.via_bot is not None
    ]


async def press_for(table, user: dict, rng: random.Random) -> None:
    """A player with a working private chat presses one of their action buttons (or a bid on
    the table)."""
    prefix = f"a:{table.game_id}:"
    msg = table.hand_message(user)
    buttons = [d for _, d in msg.buttons if d.startswith(prefix)]
    if not buttons:
        msg = table.table()
        buttons = [d for _, d in msg.buttons if d and d.startswith(prefix)]
    update = await table.bot.feed(table.fake.press(user, msg, rng.choice(buttons)))
    assert not table.fake.answered(update)["show_alert"]


async def live_game(table):
    """The game in memory."""
    return (await table.bot.svc.games.get(table.game_id)).game


async def until_turn_of(table, seat: int, rng: random.Random):
    """The other players press until ``seat`` is to act; the game then."""
    while (game := await live_game(table)).current_seat != seat:
        await press_for(table, table.users[game.current_seat], rng)
    return game


@pytest.mark.parametrize(
    ("kind", "players", "seed"), [("briscola", 3, 1), ("cirulla", 2, 2), ("belota", 4, 3)]
)
async def test_a_player_who_blocked_the_bot_plays_a_whole_game_from_the_group(
    make_table, fake, bot, kind, players, seed
):
    """The blocked player plays every turn through inline mode only, to the end of the game;
    no card of theirs shows in the group before it is played, and the results they see hold
    only what their own view holds."""
    table = make_table(players)
    victim_seat = 1
    victim = await seat_then_block(table, kind, players, victim_seat)
    notice = t("notice-private-closed", player="\x00", bot="@TavolataBot").split("\x00")[0]
    assert any(m.text.startswith(notice) for m in table.group_messages())
    with pytest.raises(LookupError):
        table.hand_message(victim)
    watch = SecrecyWatch(table)
    faces = ui_for(kind).faces
    rng = random.Random(seed)
    inline_moves = 0
    for _ in range(3000):
        if table.finished():
            break
        game = await live_game(table)
        seat = game.current_seat
        if seat != victim_seat:
            await press_for(table, table.users[seat], rng)
            await watch.check()
            continue
        legal = game.legal_actions(seat)
        mine = set(game.view(seat)["hand"])
        others = set().union(*(game.view(s)["hand"] for s in range(players) if s != seat))
        _, results = await all_results(table, victim)
        assert len(results) == len(legal)
        update, result = rng.choice(results)
        for _, r in results:
            shown = cards_shown(r["title"] + " " + r.get("description", ""), faces)
            assert not shown & others, r
            # What lands in the group names no card at all.
            sent = r["input_message_content"]["message_text"]
            assert not cards_shown(sent, faces) & (mine | others), sent
        move = game.move_number
        msg, _ = await choose(table, victim, update, result)
        assert victim["first_name"] in msg.text and msg.via_bot["id"] == fake.bot_id
        live = await table.bot.svc.games.get(table.game_id)
        # One move, or one and the forced rest of the deal the bot played after it.
        moved = live.game.move_number - move
        assert moved == 1 or (
            moved > 1 and any(e["type"] in ui_for(kind).announced for e in live.last_events)
        )
        inline_moves += 1
        await watch.check()
    assert table.finished()
    assert inline_moves > 0 and not refusals(table)
    assert watch.messages_checked > 0


async def test_only_the_player_to_act_gets_choices(make_table, fake, bot):
    """Somebody not at the table, a player whose turn it is not, and a query typed outside the
    group get no result, only a button saying why; the player to act gets their choices."""
    table = make_table(2)
    await seat_then_block(table, "briscola", 2, 1)
    game = await live_game(table)
    actor = table.users[game.current_seat]
    waiting = table.users[1 - game.current_seat]
    outsider = fake.add_user("Zoe", language_code="it")
    fake.add_member(table.group, outsider)
    for user, reason in (
        (outsider, "alert-not-your-game"),
        (waiting, "alert-not-your-turn"),
    ):
        answer = fake.inline_answer(await ask(table, user))
        assert answer["results"] == []
        assert answer["button"]["text"] == t(reason)
        assert answer["is_personal"] and answer["cache_time"] == 0
    update = await bot.feed(fake.inline_query(actor, f"#{table.game_id}", chat_type="sender"))
    answer = fake.inline_answer(update)
    assert answer["results"] == [] and answer["button"]["text"] == t("inline-play-group-only")
    update = await bot.feed(fake.inline_query(actor, "#999999", chat_type="supergroup"))
    assert fake.inline_answer(update)["button"]["text"] == t("alert-unknown-game")
    answer = fake.inline_answer(await ask(table, actor))
    assert len(answer["results"]) == len(game.legal_actions(game.current_seat))
    assert answer["button"]["text"] == t("inline-play-choose")


async def test_a_stale_result_is_refused_and_changes_nothing(make_table, fake, bot):
    """A result drawn for an earlier move, sent later, is refused in reply ("that choice was
    for a move already past") and the game stays as it was."""
    table = make_table(2)
    victim = await seat_then_block(table, "briscola", 2, 1)
    rng = random.Random(7)
    old = None
    for _ in range(10):
        game = await live_game(table)
        if game.current_seat != 1:
            await press_for(table, table.users[game.current_seat], rng)
            continue
        update, result = (await all_results(table, victim))[1][0]
        if old is None:
            old = (update, result)
            await choose(table, victim, update, result)
            continue
        break
    game = await live_game(table)
    assert game.current_seat == 1
    before = (game.move_number, await bot.svc.storage.actions(table.game_id))
    await choose(table, victim, *old)
    assert refusals(table) == [
        t(
            "inline-play-refused",
            player=f"<b>{victim['first_name']}</b>",
            reason=t("inline-play-stale"),
        )
        .replace("<b>", "")
        .replace("</b>", "")
    ]
    game = await live_game(table)
    assert (game.move_number, await bot.svc.storage.actions(table.game_id)) == before


async def test_a_result_sent_twice_plays_once(make_table, fake, bot):
    """The same result sent twice in a row, or twice at the same moment, plays once; the other
    copy is refused."""
    table = make_table(2)
    victim = await seat_then_block(table, "briscola", 2, 1)
    rng = random.Random(3)
    for concurrent in (False, True):
        await until_turn_of(table, 1, rng)
        move = (await live_game(table)).move_number
        update, result = (await all_results(table, victim))[1][0]
        refused = len(refusals(table))
        first = fake.choose_inline_result(victim, update, result["id"], chat=table.group)
        second = fake.choose_inline_result(victim, update, result["id"], chat=table.group)
        updates = [fake.delivery(first), fake.delivery(second)]
        if concurrent:
            await asyncio.gather(
                *(bot.app.process_update(Update.de_json(u, bot.app.bot)) for u in updates)
            )
            await bot.svc.renderer.drain()
        else:
            for u in updates:
                await bot.feed(u)
        assert (await live_game(table)).move_number == move + 1
        assert len(await bot.svc.storage.actions(table.game_id)) == move + 1
        assert len(refusals(table)) == refused + 1


async def test_a_result_names_its_action_by_index_at_its_move(make_table, fake, bot):
    """A result's id and the button of the message it sends are the same ``p`` callback: the
    game, the move, and the action's index among the legal actions (never a card code); the
    button shows the presser's own cards."""
    table = make_table(2)
    victim = await seat_then_block(table, "briscola", 2, 1)
    game = await until_turn_of(table, 1, random.Random(1))
    results = (await all_results(table, victim))[1]
    ids = [Callback.parse(r["id"]) for _, r in results]
    assert ids == [
        Callback(Op.PLAYED, table.game_id, game.move_number, f"#{i}") for i in range(len(ids))
    ]
    msg, _ = await choose(table, victim, *results[0])
    assert msg.buttons == [(t("btn-show-hand"), results[0][1]["id"])]
    answer = await table.press(victim, msg, t("btn-show-hand"))
    assert answer["show_alert"] and answer["text"].startswith(t("alert-hand", cards=""))


async def test_more_choices_than_a_page_come_page_by_page(make_table, fake, bot, monkeypatch):
    """Telegram takes at most 50 results an answer: more choices come in pages (next_offset),
    together exactly the legal actions, each once."""
    monkeypatch.setattr("bot.table.inline_play.PAGE", 2)
    table = make_table(2)
    victim = await seat_then_block(table, "briscola", 2, 1)
    game = await until_turn_of(table, 1, random.Random(2))
    first, results = await all_results(table, victim)
    assert len(fake.inline_answer(first)["results"]) == 2
    indexes = [Callback.parse(r["id"]).arg for _, r in results]
    assert indexes == [f"#{i}" for i in range(len(game.legal_actions(1)))]


async def test_a_forwarded_copy_of_a_choice_is_not_played(make_table, fake, bot):
    """A choice forwarded into the group by someone else is a forward, not a choice: the bot
    ignores it, and the game stays where it was."""
    table = make_table(2)
    victim = await seat_then_block(table, "briscola", 2, 1)
    await until_turn_of(table, 1, random.Random(5))
    move = (await live_game(table)).move_number
    update, result = (await all_results(table, victim))[1][0]
    msg = fake.choose_inline_result(victim, update, result["id"], chat=table.group)
    forwarded = fake.delivery(msg)
    forwarded["message"]["forward_origin"] = {
        "type": "user",
        "date": forwarded["message"]["date"],
        "sender_user": victim,
    }
    refused = len(refusals(table))
    await bot.feed(forwarded)
    assert (await live_game(table)).move_number == move
    assert len(refusals(table)) == refused
