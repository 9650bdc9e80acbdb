"""Fuzz: random callback data, commands and texts from players and strangers.

Issue 9: no unhandled exception, and no game state changes except through a legal action by the
player whose turn it is.
"""

from __future__ import annotations

import copy
import itertools
import os
import random
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from bot.core.callbacks import Callback, MalformedCallback, Op, resolve_action
from tests.bot.conftest import BotRunner, Table

OPS = "kjlsxRrahmbZ"
COMMANDS = [
    "/nuova",
    "/nuova briscola 2",
    "/nuova briscola 4",
    "/mano",
    "/annulla",
    "/cancel",
    "/tempo off",
    "/tempo 5m",
    "/tempo",
    "/start",
    "ciao",
]

# Who acts: 0 and 1 are the players, 2 a group member without a seat.
who = st.integers(min_value=0, max_value=2)
number_hint = st.sampled_from(["game", "game+1", "move", "move-1", "move+1", "0", "big"])
structured = st.tuples(st.sampled_from(OPS), number_hint, number_hint, st.text(max_size=12))
step = st.one_of(
    st.tuples(st.just("press"), who, st.one_of(structured, st.text(max_size=70))),
    st.tuples(st.just("legal"), who, st.booleans()),
    st.tuples(st.just("command"), who, st.sampled_from(COMMANDS), st.booleans()),
    st.tuples(st.just("text"), who, st.text(min_size=1, max_size=40), st.booleans()),
)


def fill(hint: str, game_id: int, move: int) -> str:
    """A number for the structured data: near the real game id and move, or far from them."""
    return {
        "game": str(game_id),
        "game+1": str(game_id + 1),
        "move": str(move),
        "move-1": str(max(move - 1, 0)),
        "move+1": str(move + 1),
        "0": "0",
        "big": "99999999999",
    }[hint]


async def snapshot(bot, game_id: int):
    """What a state change would touch: status, seats, rules, the action log."""
    row = await bot.svc.storage.get_game(game_id)
    seats = [(s.seat, s.user_id) for s in row.seats]
    return row.status, seats, row.rules, await bot.svc.storage.actions(game_id)


def legal_press(live, user_id: int, data: str) -> tuple[int, str] | None:
    """The (seat, code) a press would rightly play, or None when it must change nothing."""
    try:
        cb = Callback.parse(data)
    except MalformedCallback:
        return None
    game = live.game
    if cb.op is not Op.ACT or cb.game_id != live.game_id or not live.active:
        return None
    seat = live.row.seat_of(user_id)
    if seat is None or seat != game.current_seat or cb.move != game.move_number:
        return None
    code = resolve_action(cb.arg, game.legal_actions(seat))
    return (seat, code) if code is not None else None


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(step, min_size=5, max_size=25))
async def test_random_input_changes_a_game_only_through_a_legal_action(
    make_table, fake, bot, steps
):
    """Random presses, commands and texts: no error is logged (checked when the bot stops), and
    the game's stored state changes only by one legal action of the seat whose turn it is."""
    table = make_table(2)
    await table.start("briscola", 2)
    stranger = fake.add_user("Estraneo", language_code="it")
    fake.add_member(table.group, stranger)
    people = [*table.users, stranger]
    for kind, person, *rest in steps:
        user = people[person]
        live = await bot.svc.games.get(table.game_id)
        before = await snapshot(bot, table.game_id)
        expected = None
        if kind == "press" or kind == "legal":
            message = table.table()
            if kind == "legal":
                visible = []
                if live.active:
                    visible = [a for a in table.visible_actions() if a[0] is user]
                if not visible:
                    continue
                _, message, _, data = visible[0] if rest[0] else visible[-1]
            elif isinstance(rest[0], tuple):
                op, game_hint, move_hint, arg = rest[0]
                move = live.game.move_number
                game_part = fill(game_hint, table.game_id, move)
                data = f"{op}:{game_part}:{fill(move_hint, 0, move)}:{arg}"
            else:
                data = rest[0]
            expected = legal_press(live, user["id"], data)
            await bot.feed(fake.press(user, message, data))
        else:
            text, in_group = rest
            if kind == "command" and text.startswith(("/annulla", "/cancel")) and person < 2:
                continue  # the creator may cancel: a legal change, not what is fuzzed here
            if not in_group:
                await bot.feed(fake.start_private(user))
            update = fake.send_text(user, table.group if in_group else None, text)
            if update is not None:
                await bot.feed(update)
        after = await snapshot(bot, table.game_id)
        if expected is None:
            assert after == before, (kind, person, rest)
        else:
            assert after[3] == [*before[3], expected]
            assert after[:3] == before[:3] or after[0] == "over"


FUZZ_UPDATES = 10_000
CANCELS = ("/annulla", "/cancel")  # the creator may cancel: a legal change, not fuzzed here
HUGE = ["9223372036854775807", "9223372036854775808", str(2**64), "9" * 30, "-1", "０"]
SURROGATES = ["\ud800", "a\udfffb", "\udc00:\ud83c"]
BIG_COMMANDS = [
    "/nuova briscola 99999999999999999999",
    "/tempo 99999999999999999999m",
    "/tempo -5s",
    "/start j99999999999999999999",
    "/start j9223372036854775808_1",
    "/regole briscola",
    "/glossario \ud800",
    "/lingua xx",
    "/commento forse",
    "/classifica 9223372036854775808",
    "/stats @nobody",
]
# Updates of the handled types that python-telegram-bot cannot parse: a required field missing
# or of the wrong kind. Telegram never sends them; a broken proxy or a forger might.
UNREADABLE = [
    {"message": {"message_id": 1, "text": "/start"}},  # no chat, no date
    {"message": {"message_id": 1, "date": "yesterday", "chat": "the group"}},
    {"callback_query": {"id": "1", "data": "a:1:0:AD"}},  # no sender, no chat_instance
    {"my_chat_member": {"chat": {"id": -5}}},
    {"inline_query": {"id": "7", "query": "#1"}},
    {"message": None, "callback_query": []},
]


def senderless(chat: dict, text: str, message_id: int, now: int) -> dict:
    """A message in a group on behalf of the group itself (no ``from``)."""
    command = text.split()[0]
    return {
        "message": {
            "message_id": message_id,
            "date": now,
            "chat": chat,
            "sender_chat": chat,
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(command)}],
        }
    }


def hostile_data(rng: random.Random, game_id: int, move: int) -> str:
    """Callback data near the bot's own, or far from it: huge ids, surrogates, noise."""
    op = rng.choice(OPS)
    roll = rng.random()
    if roll < 0.3:
        return f"{op}:{rng.choice(HUGE)}:{rng.choice([str(move), *HUGE])}:{rng.choice(['', 'AD'])}"
    if roll < 0.5:
        return f"{op}:{game_id}:{move}:{rng.choice(SURROGATES)}"
    if roll < 0.6:
        return rng.choice(SURROGATES) * rng.randint(1, 5)
    if roll < 0.8:
        near_game = game_id + rng.choice([0, 1])
        return f"{op}:{near_game}:{move + rng.choice([-1, 0, 1])}:#{rng.randint(0, 99)}"
    return "".join(rng.choice("ak:0123456789#+=") for _ in range(rng.randint(1, 70)))


async def test_ten_thousand_hostile_updates_leave_no_error_and_the_games_go_on(
    fake, tmp_path_factory
):
    """10,000 updates through the polling path (getUpdates, the update processor, the
    handlers), mixing legal presses, foreign and malformed callback data, ids of 2**63 and
    more, lone surrogates, commands with absurd arguments, messages without a sender, updates
    the library cannot parse and strangers: no ERROR line in the log, every game's stored log
    is a legal game, and both games are still played after it."""
    shm = Path("/dev/shm")
    folder = shm if shm.is_dir() and os.access(shm, os.W_OK) else tmp_path_factory.mktemp("db")
    db = Path(tempfile.mkdtemp(dir=folder)) / "fuzz.sqlite3"  # the fuzz tests input, not disks
    bot = BotRunner(fake, db, itertools.count(3000))
    await bot.start()
    try:
        tables = [Table(bot, fake, 2, "Fuzz <1>"), Table(bot, fake, 2, "Fuzz <2>")]
        await tables[0].start("briscola", 2)
        await tables[1].start("cirulla", 2)
        stranger = fake.add_user("Estraneo", language_code="en")
        for table in tables:
            fake.add_member(table.group, stranger)
        await bot.feed(fake.start_private(stranger))
        rng = random.Random(19)
        offset = fake.pending_updates()[-1]["update_id"] + 1 if fake.pending_updates() else 0
        sent = 0
        message_id = 10**6
        while sent < FUZZ_UPDATES:
            for _ in range(50):
                table = rng.choice(tables)
                live = await bot.svc.games.get(table.game_id)
                move = live.game.move_number if live.game is not None else 0
                who = rng.choice([*table.users, stranger])
                roll = rng.random()
                if roll < 0.15 and live.active:
                    user, msg, _, data = rng.choice(table.visible_actions())
                    fake.press(user, msg, data)
                elif roll < 0.55:
                    last = fake.last_message(table.group)
                    fake.press(who, last, hostile_data(rng, table.game_id, move))
                elif roll < 0.7:
                    text = rng.choice(BIG_COMMANDS + [c for c in COMMANDS if c not in CANCELS])
                    in_group = rng.random() < 0.7
                    fake.send_text(who, table.group if in_group else None, text)
                elif roll < 0.8:
                    message_id += 1
                    text = rng.choice(["/annulla", "/cancel", "/nuova", "/mano", "/tempo 1m"])
                    fake.raw_update(
                        senderless(fake.chat(table.group), text, message_id, fake.now())
                    )
                elif roll < 0.88:
                    fake.raw_update(copy.deepcopy(rng.choice(UNREADABLE)))
                elif roll < 0.95:
                    query = rng.choice(["#" + rng.choice(HUGE), "#" + str(table.game_id), "\ud800"])
                    fake.inline_query(who, query, offset=rng.choice(["", "99999999", "x"]))
                else:
                    fake.send_text(who, table.group, rng.choice(SURROGATES) + " ciao")
                sent += 1
            updates = await bot.app.bot.get_updates(offset=offset, timeout=0)
            for update in updates:
                await bot.app.process_update(update)
                offset = update.update_id + 1
            await bot.svc.renderer.drain()
        assert not fake.pending_updates() or offset > fake.pending_updates()[0]["update_id"]
        for table in tables:
            live = await bot.svc.games.get(table.game_id)
            row = await bot.svc.storage.get_game(table.game_id)
            replayed = engine.new_game(
                row.kind, row.players, seed=row.seed, dealer=row.dealer, rules=row.rules
            )
            for seat, code in await bot.svc.storage.actions(table.game_id):
                replayed.play(seat, code)
            assert replayed.view(None) == live.game.view(None)
            # Nobody cancelled (a sender-less /annulla is no creator); an end is a real end.
            assert row.status in ("active", "over") and replayed.is_over == (row.status == "over")
            if live.active:
                await table.play_to_end(random.Random(1), stop_after=2)
    finally:
        await bot.stop()
        shutil.rmtree(db.parent, ignore_errors=True)
    bot.check_clean()
