"""Where the hard computer players think (``bot.computers.thinking``): in a process of their own
by default, a worker thread with ``COMPUTER_PROCESSES=0``; a worker that dies costs no move; the
budget counts from the moment the move was asked for."""

from __future__ import annotations

import logging
import os
import random
import signal
import sys
import time

import pydantic
import pytest

import engine
import engine.ai
from bot.computers import thinking
from bot.core.settings import Settings
from tests.bot.computers.test_computers import add_label, open_lobby, play_humans_to_end, settle
from tests.bot.conftest import t


def workers(bot) -> dict:
    """The worker processes of the running bot's hard computer players, by process id."""
    pool = bot.app.bot_data["computers"].thinking._pool
    return {} if pool is None else dict(pool._processes)


async def start_against_hard(table, command: str) -> None:
    """Alice opens ``command``'s lobby, seats a hard computer and starts."""
    alice = table.users[0]
    await open_lobby(table, command)
    await table.press(alice, table.lobby(), add_label("hard"))
    await table.press(alice, table.lobby(), t("btn-start"))
    await settle(table.bot)


async def test_a_hard_computer_thinks_in_a_process_of_its_own_through_a_whole_game(
    bot, make_table, caplog
):
    table = make_table(1)
    with caplog.at_level(logging.WARNING, logger="bot.computers.thinking"):
        await start_against_hard(table, "/nuova cirulla 2")
        await play_humans_to_end(table, random.Random(5), limit=400)

    row = await bot.svc.storage.get_game(table.game_id)
    assert row.status == "over"
    found = workers(bot)
    assert found and os.getpid() not in found
    assert all(process.is_alive() for process in found.values())
    assert not caplog.records  # no decision fell back to a thread


async def test_with_no_processes_a_hard_computer_thinks_in_a_thread(bot, make_table, monkeypatch):
    monkeypatch.setenv("COMPUTER_PROCESSES", "0")
    await bot.restart()
    table = make_table(1)
    await start_against_hard(table, "/nuova briscola 2")

    await play_humans_to_end(table, random.Random(6))

    assert (await bot.svc.storage.get_game(table.game_id)).status == "over"
    assert workers(bot) == {}


async def test_a_worker_killed_mid_game_costs_no_move(bot, make_table, caplog):
    table = make_table(1)
    await start_against_hard(table, "/nuova briscola 2")
    rng = random.Random(7)
    # Play until the computer has thought once, so that its worker runs; then kill it, as the
    # system would (out of memory).
    while not workers(bot):
        user, message, _, data = rng.choice(table.visible_actions())
        await bot.feed(table.fake.press(user, message, data))
        await settle(bot)
    for pid in workers(bot):
        os.kill(pid, signal.SIGKILL)
    with caplog.at_level(logging.WARNING, logger="bot.computers.thinking"):
        await play_humans_to_end(table, rng)

    row = await bot.svc.storage.get_game(table.game_id)
    assert row.status == "over"
    # "Ogni giocatore riceve tre carte": each seat played its 20 cards, the computer's too.
    seats = [seat for seat, _ in await bot.svc.storage.actions(table.game_id)]
    assert seats.count(0) == 20 and seats.count(1) == 20
    assert [r.getMessage() for r in caplog.records] == [
        "a computer players' process died: new ones start at the next move"
    ]
    # The next decisions had new workers (the bot's error log stays clean: checked on leaving).
    assert workers(bot)


async def decide_twice(brain: thinking.Thinking, seed: int) -> tuple[list[str], list[str]]:
    """Two hard decisions of ``brain`` on the first position of a two-player Briscola; the
    choices and the legal actions."""
    g = engine.new_game("briscola", 2, seed=seed)
    seat = g.current_seat
    legal = g.legal_actions(seat)
    codes = [
        await brain.choose(g.view(seat), legal, "hard", random.Random(1), 10, g.copy())
        for _ in range(2)
    ]
    return codes, legal


async def test_where_no_process_can_start_the_computers_think_in_threads(monkeypatch, caplog):
    class NoProcesses:
        """A pool whose workers cannot start, as in a sandbox without semaphores."""

        def __init__(self, *args, **kwargs):
            pass

        def submit(self, *args, **kwargs):
            raise OSError(38, "Function not implemented")

        def shutdown(self, wait=True, *, cancel_futures=False):
            pass

    monkeypatch.setattr(thinking, "ProcessPoolExecutor", NoProcesses)
    brain = thinking.Thinking(1)
    with caplog.at_level(logging.WARNING, logger="bot.computers.thinking"):
        codes, legal = await decide_twice(brain, seed=3)
    assert codes[0] in legal and codes[1] in legal
    # Said once; from then on, threads.
    assert len(caplog.records) == 1 and "threads" in caplog.records[0].getMessage()
    assert brain.processes == 0


async def test_workers_that_stop_as_they_start_leave_the_computers_to_threads(monkeypatch, caplog):
    real = thinking.ProcessPoolExecutor

    def stopping(*args, **kwargs):
        """A pool whose workers stop before their first decision (a broken installation)."""
        return real(*args, **{**kwargs, "initializer": sys.exit})

    monkeypatch.setattr(thinking, "ProcessPoolExecutor", stopping)
    brain = thinking.Thinking(1)
    with caplog.at_level(logging.WARNING, logger="bot.computers.thinking"):
        codes, legal = await decide_twice(brain, seed=4)
    assert all(code in legal for code in codes)
    # Said once, not a process started and lost at every move.
    assert [r.getMessage() for r in caplog.records] == [
        "computer players' processes stop as they start: threads from now on"
    ]
    assert brain.processes == 0
    await brain.close()


async def test_a_worker_starts_during_the_computer_s_pause():
    brain = thinking.Thinking(1)
    brain.warm()
    try:
        assert brain._pool is not None and brain._pool._processes
    finally:
        await brain.close()


def test_the_budget_counts_from_the_moment_the_move_was_asked(monkeypatch):
    budgets = []

    def choose(view, legal, level, rng, budget_ms, game=None):
        budgets.append(budget_ms)
        return legal[0]

    monkeypatch.setattr(engine.ai, "choose", choose)
    g = engine.new_game("briscola", 2, seed=1)
    seat = g.current_seat
    args = (g.view(seat), g.legal_actions(seat), "hard", random.Random(1), 250, g)
    thinking.think(time.monotonic(), *args)
    thinking.think(time.monotonic() - 0.2, *args)
    thinking.think(time.monotonic() - 5, *args)
    assert 240 < budgets[0] <= 250
    assert 40 < budgets[1] <= 50
    # Asked longer ago than the budget: the least there is (the search still deals once).
    assert budgets[2] == 1.0


@pytest.mark.parametrize("given", ["-1", "65", "two"])
def test_a_bad_number_of_processes_is_refused(monkeypatch, given):
    monkeypatch.setenv("COMPUTER_PROCESSES", given)
    with pytest.raises(pydantic.ValidationError, match="computer_processes"):
        Settings(telegram_bot_token="1:abc", _env_file=None)
