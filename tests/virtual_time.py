"""An event loop on a virtual clock, for tests that play at a human or robot pace without
waiting for it: whenever the loop has nothing to do but wait for its next timer, its clock
moves on to that timer at once.

The loop still waits for real for what other threads do (the database's, which answer through
the loop's self-pipe): it looks for them for ``REAL_WAIT`` seconds first, and a slower answer
only finds the clock moved on, as a slow disk would. Timing is thus not reproduced, only
sped up; the tests on this loop check what must hold at any timing.
"""

from __future__ import annotations

import asyncio
import selectors
from typing import Any

REAL_WAIT = 0.001


class _JumpWhenIdle:
    """A selector whose waits for the next timer move the loop's clock instead."""

    def __init__(self, selector: selectors.BaseSelector, loop: VirtualTimeLoop) -> None:
        self._selector = selector
        self._loop = loop

    def select(self, timeout: float | None = None) -> list[Any]:
        """The events ready within ``REAL_WAIT``; none, with the clock moved on to the
        loop's next timer (``timeout``), if nothing came."""
        if timeout is None or timeout <= REAL_WAIT:
            return self._selector.select(timeout)
        events = self._selector.select(REAL_WAIT)
        if not events:
            self._loop.offset += timeout - REAL_WAIT
        return events

    def __getattr__(self, name: str) -> Any:
        return getattr(self._selector, name)


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """A selector event loop whose ``time()`` runs ahead when the loop is idle."""

    def __init__(self) -> None:
        super().__init__()
        self.offset = 0.0  # seconds the clock ran ahead of the real one
        self._selector = _JumpWhenIdle(self._selector, self)

    def time(self) -> float:
        """The loop's clock: the real one, plus the idle waits skipped."""
        return super().time() + self.offset
