"""Fuzz: random callback data, commands and texts from players and strangers.

Issue 9: no unhandled exception, and no game state changes except through a legal action by the
player whose turn it is.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.callbacks import Callback, MalformedCallback, Op, resolve_action

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
