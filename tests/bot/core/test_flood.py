"""Telegram has the last word on the bot's rates (issue 32): a 429 slows the rate it was about
(multiplicative decrease), calls that go through raise it again (additive increase), overall and
per chat; under a Bot API that enforces stricter limits than the documented ones, every game
ends, no press is lost or answered twice. (How close the bot's rate settles to the enforced one
is measured by ``bench/bot.py --load --enforce N``, not here.)"""

from __future__ import annotations

import asyncio
import random

import pytest
from telegram import Update

from bot.delivery.flood import COOL_DOWN, DECREASE, FLOOR, PRIVATE_SPAN, ChatPaces, RateControl
from tests.bot.conftest import BotRunner, Table, limited_runner
from tests.fake_telegram import FakeTelegram

PROMPT = 30.0  # a bound for the awaits, so that a stuck bot fails instead of hanging


def test_a_429_cuts_the_overall_rate_once_per_congestion():
    """A 429 cuts the rate by ``DECREASE``; the 429s of the calls already under way (within
    ``COOL_DOWN``) cut nothing more; a later one cuts again; never below ``FLOOR``."""
    control = RateControl(30)
    assert control.refused(100.0)
    assert control.rate == pytest.approx(30 * DECREASE)
    assert not control.refused(100.0 + COOL_DOWN / 2)
    assert control.rate == pytest.approx(30 * DECREASE)
    assert control.refused(100.0 + COOL_DOWN)
    assert control.rate == pytest.approx(30 * DECREASE**2)
    for n in range(200):
        control.refused(200.0 + n * COOL_DOWN)
    assert control.rate == FLOOR


def test_calls_that_go_through_raise_the_rate_back_to_the_documented_one():
    """After a cut, each call that goes through raises the rate a little (a rate's worth of
    calls, about one second of them, raises it by ``INCREASE``); never above the ceiling."""
    control = RateControl(30)
    control.refused(0.0)
    cut = control.rate
    for _ in range(int(cut)):
        control.went_through()
    assert cut < control.rate < cut + 1
    for _ in range(10_000):
        control.went_through()
    assert control.rate == 30


async def test_a_chat_refused_keeps_a_gap_between_its_calls_in_order():
    """A 429 in a private chat whose previous call was within a second is the chat's own: the
    chat keeps a gap between its calls from then on, each call taking the next free moment in
    the order they came; the gap shrinks as calls go through, and the chat is unpaced again in
    the end."""
    paces = ChatPaces()
    loop = asyncio.get_running_loop()
    first = await paces.wait_turn(5)
    assert first is None
    previous = await paces.wait_turn(5)
    assert ChatPaces.is_chats(previous, False, loop.time())
    assert not ChatPaces.is_chats(None, False, loop.time())
    assert not ChatPaces.is_chats(loop.time() - 2 * PRIVATE_SPAN, False, loop.time())
    paces.refused(5, False, loop.time())
    assert paces.gap(5) == PRIVATE_SPAN
    paces.refused(5, False, loop.time())
    assert paces.gap(5) == pytest.approx(PRIVATE_SPAN / DECREASE)
    for _ in range(1000):
        paces.went_through(5)
    assert paces.gap(5) == 0.0

    paces.refused(6, False, loop.time())
    paces._gap[6] = 0.05  # short, to keep the test quick
    order: list[int] = []

    async def call(n: int) -> None:
        await paces.wait_turn(6)
        order.append(n)

    await asyncio.gather(*(call(n) for n in range(5)))
    assert order == list(range(5))


@pytest.fixture
def strict_fake() -> FakeTelegram:
    """A Telegram stricter than documented: 429 past 5 calls a second, answers included, and
    past one a second in each private chat."""
    fake = FakeTelegram(bot_username="TavolataBot")
    fake.enforce(overall_rate=5, private_rate=1)
    return fake


@pytest.fixture
async def strict_bot(strict_fake, tmp_path):
    """The bot with its documented limits (30 messages a second, 20 a minute in a group) and
    no private gap of its own: what Telegram enforces, it learns from the 429s."""
    async with limited_runner(strict_fake, tmp_path / "bot.sqlite3") as runner:
        yield runner


async def play_under_429s(
    bot: BotRunner, table: Table, rng: random.Random, stop_after: int | None = None
) -> list[dict]:
    """Play a table to its end (or ``stop_after`` presses), each press once a button of the
    move to make shows (the messages that can wait are still on their way meanwhile); the
    presses made."""
    presses: list[dict] = []
    live = await bot.svc.games.get(table.game_id)
    for _ in range(2000):
        if table.finished() or len(presses) == stop_after:
            return presses
        current = f"a:{table.game_id}:{live.game.move_number}:"
        actions = [a for a in table.visible_actions() if a[3].startswith(current)]
        if not actions or live.game.is_over:
            await asyncio.sleep(0.05)  # the next button (or the end) is still on its way
            continue
        user, msg, _, data = rng.choice(actions)
        update = table.fake.press(user, msg, data)
        presses.append(update)
        await asyncio.wait_for(bot.app.process_update(Update.de_json(update, bot.app.bot)), PROMPT)
    raise AssertionError("the game did not end")


async def test_every_game_ends_under_telegrams_own_429s(strict_bot, strict_fake):
    """A Briscola game for two against a Bot API that refuses past 5 calls a second and one a
    second per private chat, whatever the bot assumes: every press is answered exactly once (a
    second answer would be refused as too old), each next button shows, and the bot was
    refused along the way (the regime did bite); the game then ends with its last messages.
    (The regime is lifted after eight presses to keep the test short: at one call a
    second per private chat a whole game takes a minute and a half; ``bench/bot.py --load
    --enforce`` plays whole games under it.)"""
    bot, fake = strict_bot, strict_fake
    table = Table(bot, fake, 2, "Tavolo")
    await table.start("briscola", 2)
    rng = random.Random(5)
    presses = await play_under_429s(bot, table, rng, stop_after=8)
    assert fake.enforced.refused > 0
    await asyncio.wait_for(bot.svc.renderer.drain(), PROMPT)
    fake.enforced = None
    presses += await play_under_429s(bot, table, rng)
    await asyncio.wait_for(bot.svc.renderer.drain(), PROMPT)
    assert table.finished()
    for update in presses:
        assert fake.answered(update) is not None
    twice = [e for e in fake.errors if e.method == "answerCallbackQuery" and e.error_code != 429]
    assert not twice


async def test_once_telegram_refuses_an_answer_answers_take_their_place_in_the_budget():
    """Answers to presses go at once, out of the overall budget, until Telegram refuses one
    (it counts them after all): tried again, it still goes at once, and from then on each
    answer takes its place in the budget, so that the next message waits for it."""
    from telegram.error import RetryAfter

    from bot.delivery.pacing import ChatRateLimiter

    limiter = ChatRateLimiter(overall_max_rate=2, group_max_rate=0, max_retries=1)
    refusals = [RetryAfter(0)]
    made: list[str] = []

    async def call(endpoint: str) -> None:
        if endpoint == "answerCallbackQuery" and refusals:
            raise refusals.pop()
        made.append(endpoint)

    async def through(endpoint: str, data: dict) -> None:
        await limiter.process_request(call, (endpoint,), {}, endpoint, data, None)

    await asyncio.wait_for(through("answerCallbackQuery", {"callback_query_id": "1"}), PROMPT)
    assert made == ["answerCallbackQuery"]
    assert limiter.overall.control.answers_count
    await asyncio.sleep(1.5)  # the budget (one place since the 429) is empty again
    await asyncio.wait_for(through("answerCallbackQuery", {"callback_query_id": "2"}), PROMPT)
    message = asyncio.ensure_future(through("sendMessage", {"chat_id": 1}))
    for _ in range(5):
        await asyncio.sleep(0)
    assert not message.done()  # the answer took the place: the message waits for the next
    await asyncio.wait_for(message, PROMPT)
    assert made == ["answerCallbackQuery", "answerCallbackQuery", "sendMessage"]
