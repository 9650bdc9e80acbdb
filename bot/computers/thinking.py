"""Where the hard computer players think: in processes of their own, off the bot's event loop.

A hard decision is a quarter of a second of pure Python (``engine.ai``'s searches). Run in a
worker thread of the bot's process, it shares the interpreter lock with the event loop, which
then gets the lock back only every few milliseconds while a search runs, and the searches'
garbage collections (up to 150 ms in long hard Cirulla play) stop the loop outright: every
table of every group waits. In a process of its own a search holds neither, and on a machine
with more than one core it does not take the bot's core either (``bench/computers.py``).

- ``Thinking(processes)``: ``processes`` worker processes (``COMPUTER_PROCESSES``), started at
  their first decision; 0 thinks in a worker thread of the bot's process instead.
- Each worker loads every game's computer players and freezes its heap once, as the bot does
  (``engine.ai.load_all``), and keeps their caches from one decision to the next.
- A decision travels as what ``engine.ai.choose`` takes (the view, the legal actions, the
  generator, a copy of the game): the choice is the one a thread would make.
- The budget counts from the moment the move is asked for, as in a thread: a decision that
  waited for a busy worker (several tables' computers thinking at once) thinks for what is
  left of it (on fewer sampled deals, at least one, as on a loaded machine), rather than
  making its table wait for the others' searches on top of its own.
- A worker that dies (killed by the system, out of memory) costs no move: the decision is
  made again in a thread, and the next one starts new workers. Where workers cannot start (no
  process at all, or one that stops before its first decision), the computers think in
  threads from then on, with one warning.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import random
import signal
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

import engine.ai

if TYPE_CHECKING:
    from engine.base import Game

log = logging.getLogger(__name__)


def _worker_ready() -> None:
    """A worker's start: the computer players loaded and the heap frozen with them; an
    interrupt (Ctrl-C at the bot's terminal reaches the whole group) left to the bot, which
    stops its workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    engine.ai.load_all()
    gc.collect()
    gc.freeze()


def think(
    asked: float,
    view: dict[str, Any],
    legal: list[str],
    level: str,
    rng: random.Random,
    budget_ms: int,
    game: Game | None,
) -> str:
    """``engine.ai.choose`` with what is left of ``budget_ms`` since ``asked`` (a
    ``time.monotonic()``, the same clock in every process of the machine)."""
    left = budget_ms - (time.monotonic() - asked) * 1000
    return engine.ai.choose(view, legal, level, rng, max(1.0, left), game=game)


class Thinking:
    """Runs the searching computer players' decisions away from the event loop."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._served = False  # whether the pool has made a decision

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._served = False
            # Spawned, not forked: a fork of the bot would copy its threads' locks mid-use.
            self._pool = ProcessPoolExecutor(
                self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_ready,
            )
        return self._pool

    async def choose(
        self,
        view: dict[str, Any],
        legal: Sequence[str],
        level: str,
        rng: random.Random,
        budget_ms: int,
        game: Game | None,
    ) -> str:
        """``engine.ai.choose``'s action, thought in a worker process (or thread)."""
        args = (time.monotonic(), view, list(legal), level, rng, budget_ms, game)
        if self.processes:
            pool = self._pool
            try:
                pool = self._executor()
                future = asyncio.get_running_loop().run_in_executor(pool, think, *args)
            except BrokenProcessPool:  # a worker died while the pool was idle
                self._broken(pool)
            except OSError as error:  # no process can start here (a sandbox, no semaphores)
                self._cannot_start(error)
            else:
                try:
                    code = await future
                except BrokenProcessPool:  # a worker died during this decision
                    self._broken(pool)
                else:
                    if pool is self._pool:
                        self._served = True
                    return code
        return await asyncio.to_thread(think, *args)

    def warm(self) -> None:
        """Start a worker now, ahead of a decision (during the computer's pause), so that the
        decision's budget is not spent on its start (about 0.2 s)."""
        if not self.processes or self._pool is not None:
            return
        try:
            self._executor().submit(engine.ai.load_all)
        except OSError as error:
            self._cannot_start(error)

    def _cannot_start(self, error: OSError) -> None:
        log.warning("computer players cannot think in processes here (%s): threads", error)
        self.processes = 0
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def _broken(self, pool: ProcessPoolExecutor | None) -> None:
        """Let ``pool`` go, once (decisions in flight on it each find it broken): the next
        decision starts new workers; or, when it broke before its first decision (its workers
        cannot start), threads from then on."""
        if pool is None or pool is not self._pool:
            return
        if self._served:
            log.warning("a computer players' process died: new ones start at the next move")
        else:
            log.warning("computer players' processes stop as they start: threads from now on")
            self.processes = 0
        self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop the workers (at shut-down), once their decisions in progress are over."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)
