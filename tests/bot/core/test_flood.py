"""Telegram has the last word on the bot's rates (issue 32): a 429 slows the rate it was about
(to what Telegram let through, overall; a wider gap, per chat), calls that go through raise it
again (additive increase). Whole games under a Bot API that enforces stricter limits than the
documented ones are in ``test_flood_games``; how close the bot's rate settles to the enforced
one is measured by ``bench/bot.py --load --enforce N``, not here."""

from __future__ import annotations

import asyncio

import pytest

from bot.delivery.flood import (
    COOL_DOWN,
    DECREASE,
    DEEPEST_CUT,
    FLOOR,
    PRIVATE_SPAN,
    ChatPaces,
    RateControl,
)

PROMPT = 30.0  # a bound for the awaits, so that a stuck bot fails instead of hanging


def let_through(control: RateControl, calls: int, until: float) -> None:
    """``calls`` calls go through in the second before ``until``, evenly."""
    for n in range(calls):
        control.passed(until - 1 + (n + 1) / calls)


def test_a_429_cuts_the_overall_rate_to_what_telegram_let_through_once_per_congestion():
    """A 429 cuts the rate to ``DECREASE`` times the calls Telegram let through in the second
    before (from the documented 30 to an enforced 20 in one cut), never deeper than
    ``DEEPEST_CUT`` at once; the 429s of the calls already under way (within ``COOL_DOWN``) cut
    nothing more; a later one cuts again; never below ``FLOOR``. A 429 while the rate is
    already under what went through (a burst of answers on top) leaves it as it is."""
    control = RateControl(30)
    let_through(control, 20, 100.0)
    assert control.refused(100.0)
    assert control.rate == pytest.approx(20 * DECREASE)
    assert not control.refused(100.0 + COOL_DOWN / 2)
    assert control.rate == pytest.approx(20 * DECREASE)
    let_through(control, 20, 100.0 + COOL_DOWN)
    control.refused(100.0 + COOL_DOWN)
    assert control.rate == pytest.approx(20 * DECREASE)  # under what went through: it stays
    let_through(control, 5, 100.0 + 2 * COOL_DOWN)
    assert control.refused(100.0 + 2 * COOL_DOWN)
    assert control.rate == pytest.approx(20 * DECREASE * DEEPEST_CUT)
    for n in range(200):
        control.refused(200.0 + n * COOL_DOWN)
    assert control.rate == FLOOR


def test_calls_that_go_through_raise_the_rate_back_to_the_documented_one():
    """After a cut, each call that goes through raises the rate a little (a rate's worth of
    calls, about one second of them, raises it by ``INCREASE``); never above the ceiling."""
    control = RateControl(30)
    let_through(control, 20, 0.0)
    control.refused(0.0)
    cut = control.rate
    for _ in range(int(cut)):
        control.went_through()
    assert cut < control.rate < cut + 1
    for _ in range(10_000):
        control.went_through()
    assert control.rate == 30


def test_once_refused_no_more_than_the_rate_goes_in_any_second():
    """Before any 429 the budget's bucket alone paces the calls; once Telegram has refused
    one, no more than the rate (calls a second) are given places in any second: the next
    waits until the oldest of them is a second old (a burst on top of the rate made 1.2 times
    it in some seconds, and Telegram refused the bot below what it enforces)."""
    control = RateControl(20)
    for n in range(40):
        control.granted(n / 100)
    assert control.window_wait(0.4) == 0.0  # never refused: the bucket alone
    let_through(control, 18, 10.0)
    control.refused(10.0)
    assert control.rate == pytest.approx(18 * DECREASE)
    places = int(control.rate)
    for n in range(places):
        assert control.window_wait(10.0 + n / 100) == 0.0
        control.granted(10.0 + n / 100)
    assert control.window_wait(10.5) == pytest.approx(10.0 + 1 - 10.5)
    assert control.window_wait(10.995) == pytest.approx(0.005)
    assert control.window_wait(11.0) == 0.0


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


async def test_once_telegram_refuses_an_answer_answers_take_their_place_in_the_budget():
    """Answers to presses go at once, out of the overall budget, until Telegram refuses one
    (it counts them after all): from then on each answer takes the budget's next place, first
    in line, so that the next message waits for it."""
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
