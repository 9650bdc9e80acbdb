"""Fairness between chats (issue 19): a flood of commands in one group, or a 429 in one group,
never delays the games of another; what a chat sends beyond its share is dropped, a press
answered once. The bot runs with Telegram's real limits against a fake Bot API that enforces
them (20 messages a minute per group, 30 calls a second in all, 429 with retry_after)."""

from __future__ import annotations

import asyncio
import random

import pytest
from telegram import Update

from bot.delivery.pacing import LATER, LATER_SHARE, RETRY, URGENT, CallBudget, ChatRateLimiter
from tests.bot.conftest import BotRunner, Table, limited_runner, t
from tests.fake_telegram import FakeTelegram

# A bound for the awaits, so that a bot stuck behind another chat fails instead of hanging;
# how fast the presses are answered is the benchmark's business, not this test's.
PROMPT = 5.0


@pytest.fixture
def limited_fake() -> FakeTelegram:
    """A Telegram that answers 429 past its flood limits."""
    return FakeTelegram(bot_username="TavolataBot", flood_limits=True)


@pytest.fixture
async def limited_bot(limited_fake, tmp_path):
    """The bot with Telegram's real rate limits (the other tests turn them off)."""
    async with limited_runner(limited_fake, tmp_path / "bot.sqlite3") as runner:
        yield runner


def deliver(bot: BotRunner, update: dict) -> asyncio.Task:
    """Hand an update to the bot as the polling loop does: through the update processor, in
    a task of its own."""
    parsed = Update.de_json(update, bot.app.bot)
    processor = bot.app.update_processor
    return asyncio.create_task(processor.process_update(parsed, bot.app.process_update(parsed)))


async def press_promptly(bot: BotRunner, table: Table, rng: random.Random) -> dict:
    """One player of ``table`` presses one of their buttons; returns the answer, which must
    come without waiting on any other chat."""
    user, msg, _, data = rng.choice(table.visible_actions())
    update = table.fake.press(user, msg, data)
    await asyncio.wait_for(deliver(bot, update), PROMPT)
    answer = table.fake.answered(update)
    assert answer is not None and not answer.get("show_alert"), answer
    return answer


async def test_a_flood_in_one_group_does_not_hold_the_games_of_another(limited_bot, limited_fake):
    """Group A spends its 20 messages a minute, then 60 ``/regole briscola`` arrive there at
    once. Meanwhile a game in group B is played: each press is answered, and B's table shows
    it, while A's commands still wait for A's budget. A's commands beyond its share are
    dropped (reported once in the log, never an error), and a press in A while its share is
    full is answered once, telling the player to try again."""
    bot, fake = limited_bot, limited_fake
    flooder = fake.add_user("Flood", language_code="it")
    group_a = fake.add_group("Gruppo A", members=[flooder])
    table = Table(bot, fake, 2, "Gruppo B")
    await table.start("briscola", 2)
    for _ in range(20):  # A's budget for this minute, spent
        await bot.feed(fake.send_text(flooder, group_a, "/regole briscola"))
    flood = [deliver(bot, fake.send_text(flooder, group_a, "/regole briscola")) for _ in range(60)]
    await asyncio.sleep(0.1)
    waiting = sum(not task.done() for task in flood)
    assert waiting > 0
    rng = random.Random(7)
    for _ in range(6):
        before = len(fake.calls_of("editMessageText"))
        await press_promptly(bot, table, rng)
        await asyncio.wait_for(bot.svc.renderer.drain(), PROMPT)
        assert len(fake.calls_of("editMessageText")) > before  # B's messages show the press
    assert sum(not task.done() for task in flood) > 0, "A's flood was served before B's game"
    processor = bot.app.update_processor
    assert processor.dropped >= 60 - processor.per_chat - processor.queue
    # A press in A while its share is full: answered once, with the flood alert.
    last = fake.last_message(group_a)
    presses = [fake.press(flooder, last, "u:0:0:briscola") for _ in range(3)]
    for update in presses:
        await asyncio.wait_for(deliver(bot, update), PROMPT)
        assert fake.answered(update)["text"] == t("alert-flood")
    answers = [p for m, p in fake.calls if m == "answerCallbackQuery"]
    ids = [a["callback_query_id"] for a in answers]
    assert all(ids.count(u["callback_query"]["id"]) == 1 for u in presses)
    for task in flood:
        task.cancel()
    await asyncio.gather(*flood, return_exceptions=True)
    # The flood was reported in the log once (as a warning), and never as an error.
    assert not bot.errors.records


async def test_a_429_in_one_group_pauses_only_that_group(limited_bot, limited_fake):
    """Telegram answers a message in group A with 429 "retry after 2": A's message is sent
    again after the wait, and meanwhile the game in group B goes on, presses answered and
    table edited."""
    bot, fake = limited_bot, limited_fake
    someone = fake.add_user("Ada", language_code="it")
    group_a = fake.add_group("Gruppo A", members=[someone])
    table = Table(bot, fake, 2, "Gruppo B")
    await table.start("briscola", 2)
    fake.fail_next("sendMessage", 429, retry_after=2, match=lambda p: p["chat_id"] == group_a["id"])
    waiting = deliver(bot, fake.send_text(someone, group_a, "/regole briscola"))
    await asyncio.sleep(0.1)
    rng = random.Random(3)
    for _ in range(4):
        before = len(fake.calls_of("editMessageText"))
        await press_promptly(bot, table, rng)
        await asyncio.wait_for(bot.svc.renderer.drain(), PROMPT)
        assert len(fake.calls_of("editMessageText")) > before
    assert not waiting.done(), "B's presses waited for A's 429"
    await asyncio.wait_for(waiting, PROMPT)
    sent = [p for m, p in fake.calls if m == "sendMessage" and p["chat_id"] == group_a["id"]]
    assert len(sent) == 2  # the refused one, then the same again after the wait
    assert fake.last_message(group_a) is not None


# -- the overall budget: the player to act first ------------------------------------------------
async def grant_order(budget: CallBudget, kinds: str) -> list[str]:
    """Queue one call per letter of ``kinds`` (R a retry, U urgent, L later) behind a full
    budget, in that order; the order the budget lets them go. The budget's period must outlast
    the setup: were the bucket to leak before the first call queues (a loaded machine), that
    call would go at once, ahead of the order under test."""
    for _ in range(int(budget.max_rate)):
        await budget.acquire()  # the budget is full: everything below waits
    order: list[str] = []

    async def call(n: int, kind: str) -> None:
        await budget.acquire({"R": RETRY, "U": URGENT, "L": LATER}[kind])
        order.append(f"{kind}{n}")

    await asyncio.gather(*(call(n, kind) for n, kind in enumerate(kinds)))
    return order


async def test_urgent_calls_go_before_the_calls_that_can_wait():
    """A ping queued after table edits still goes first; each kind keeps its own order."""
    order = await grant_order(CallBudget(1, 0.05), "LLUUL")
    assert order == ["U2", "U3", "L0", "L1", "L4"]


async def test_a_call_refused_with_429_goes_first_when_tried_again():
    """A message Telegram refused (429) goes, once tried again, before the pings queued while
    it waited; each kind keeps its own order."""
    order = await grant_order(CallBudget(1, 0.05), "UURUR")
    assert order == ["R2", "R4", "U0", "U1", "U3"]


async def test_the_overall_budget_counts_messages_and_answers_go_at_once():
    """The overall budget counts messages (calls that name a chat), as python-telegram-bot's
    reference limiter does: with the budget full, a message waits for its place, while the
    answer to a press (answerCallbackQuery names no chat) and the bot's own calls (getMe) go
    at once."""
    limiter = ChatRateLimiter(overall_max_rate=2, group_max_rate=0)
    made: list[str] = []

    async def call(endpoint: str) -> None:
        made.append(endpoint)

    async def through(endpoint: str, data: dict) -> None:
        await limiter.process_request(call, (endpoint,), {}, endpoint, data, None)

    await through("sendMessage", {"chat_id": 1})
    await through("sendMessage", {"chat_id": 2})  # the budget is full
    message = asyncio.ensure_future(through("editMessageText", {"chat_id": 3}))
    await asyncio.wait_for(through("answerCallbackQuery", {"callback_query_id": "7"}), PROMPT)
    await asyncio.wait_for(through("getMe", {}), PROMPT)
    assert made == ["sendMessage", "sendMessage", "answerCallbackQuery", "getMe"]
    assert not message.done()
    await asyncio.wait_for(message, PROMPT)
    assert made[-1] == "editMessageText"


async def test_the_calls_that_can_wait_keep_a_share_of_the_budget():
    """However many urgent calls wait, one call in ``LATER_SHARE`` goes to a waiting LATER
    one: a busy bot still brings its tables up to date."""
    order = await grant_order(CallBudget(1, 0.05), "L" + "U" * (2 * LATER_SHARE))
    assert order.index("L0") == LATER_SHARE - 1


async def test_a_wait_for_a_later_place_keeps_its_place_when_interrupted():
    """``reserve_unless`` gives up waiting when its event is set (a ping to send first) but
    keeps its place in the queue: tried again, it is served before calls queued after it. (The
    budget leaks one call per 0.1 s: leaked before the wait begins, as on a loaded machine it
    did at 10 ms, the place would be free at once and nothing would be interrupted.)"""
    budget = CallBudget(1, 0.1)
    await budget.acquire()
    places: dict = {}
    wake = asyncio.Event()
    wake.set()
    assert not await budget.reserve_unless(wake, places)  # a change came first
    assert wake in places  # its place is kept
    later_one = asyncio.ensure_future(budget.acquire(LATER))
    wake.clear()
    assert await budget.reserve_unless(wake, places)
    assert not later_one.done()  # queued after it, served after it
    await later_one


async def test_a_place_taken_twice_in_one_context_is_one_place():
    """A ping sent by a task that already holds a place (taken while it waited to edit a
    waiting hand) spends that place: it takes no second one, which nothing would spend."""
    budget = CallBudget(1, 10)
    await budget.reserve(LATER)
    await asyncio.wait_for(budget.reserve(), PROMPT)  # the full budget would hold it 10 s
    waiter = asyncio.ensure_future(budget.acquire())
    await asyncio.sleep(0)
    assert not waiter.done()  # one place taken, the budget's only one
    waiter.cancel()


async def test_a_place_taken_and_never_spent_goes_back_to_the_budget():
    """A rendering task that reserved a place and then found nothing to send returns it: the
    next call waiting takes it at once, rather than after the budget leaks."""
    budget = CallBudget(1, 10)
    await budget.reserve()
    waiter = asyncio.ensure_future(budget.acquire())
    await asyncio.sleep(0)
    assert not waiter.done()
    budget.give_back()
    await asyncio.wait_for(waiter, PROMPT)
    budget.give_back()  # nothing left unspent: nothing more is returned
    another = asyncio.ensure_future(budget.acquire())
    await asyncio.sleep(0)
    assert not another.done()
    another.cancel()


async def test_a_place_awaited_for_a_task_that_ended_is_not_lost():
    """``reserve_unless`` keeps a place waiting in the queue; when its task ends without
    spending it, a place still waiting leaves the queue, and one that came goes to the next
    call rather than being lost."""
    budget = CallBudget(1, 10)
    await budget.acquire()
    places: dict = {}
    wake = asyncio.Event()
    wake.set()
    assert not await budget.reserve_unless(wake, places)
    budget.give_back_place(places.pop(wake))  # still waiting: it leaves the queue
    await asyncio.sleep(0)
    assert budget.waiting(LATER) == 0

    budget = CallBudget(1, 10)
    came = asyncio.ensure_future(budget.acquire(LATER))
    await asyncio.wait_for(came, PROMPT)
    waiter = asyncio.ensure_future(budget.acquire())
    await asyncio.sleep(0)
    assert not waiter.done()
    budget.give_back_place(came)  # came, never spent: returned
    await asyncio.wait_for(waiter, PROMPT)
