"""Computer players: choose an action from a seat's view and its legal actions, nothing else.

A computer player never sees the game object, only what ``g.view(seat)`` shows that seat, so it
cannot know hidden cards. Each game has a module here (``engine.ai.briscola``, ...) with three
levels:

- ``easy``: a beginner, a legal move with a light preference;
- ``normal``: rule-based play with the game's own tactics, remembering the cards played;
- ``hard``: deals the unseen cards at random consistently with the view, many times, plays each
  candidate action out with the normal rules for every seat, and keeps the best on average
  (determinized Monte Carlo) within a time budget; it leaves the normal choice only when the
  paired comparison on the same sampled deals shows a gain clear of the noise (95% interval;
  one standard error in two-player Briscola, whose sampled deals read the opponent's plays).
  (Belòta's hard player searches the play only and bids as the normal player: searching bids
  measured worse. Cirulla's hard player, in the last two turns of a two-player deal, solves each
  sampled deal exactly to its end instead of playing it out with the normal rules; in a
  two-player deal it deals the other seat only hands that fit that seat's plays of the turn, as
  the normal player would have made them, read from ``g.actions``.)

Both normal and hard play the endings in which the cards left are known exactly (Briscola for two
once the stock is empty, Cirulla's last turn for two, Belòta's last tricks).

    import engine, engine.ai
    g = engine.new_game("briscola", 2, seed=1)
    seat = g.current_seat
    code = engine.ai.choose(g.view(seat), g.legal_actions(seat), "normal")
    g.play(seat, code)

Decisions take about ``budget_ms`` of wall-clock time at the hard level (``DEFAULT_BUDGET_MS``;
on a loaded machine that is less CPU time, so fewer sampled deals); callers in an event loop
should run ``choose`` away from it: in a process of its own, or at least a worker thread (where
it still shares the interpreter, and its garbage collections, with the loop).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.base import Game

__all__ = ["DEFAULT_BUDGET_MS", "KINDS", "LEVELS", "choose", "load_all"]

LEVELS = ("easy", "normal", "hard")
KINDS = ("briscola", "cirulla", "belota")
DEFAULT_BUDGET_MS = 250


def _module(kind: object) -> ModuleType:
    if kind not in KINDS:
        raise ValueError(f"no computer player for game {kind!r}")
    return importlib.import_module(f"engine.ai.{kind}")


def load_all() -> None:
    """Import every game's computer players now, rather than at their first move: the bot does
    so before it freezes its heap (``gc.freeze``), so that their caches (``lru_cache``s, which
    the garbage collector walks entry by entry) are frozen with it. Made after the freeze, the
    hard Cirulla player's caches were walked whole at every full collection: the longest took
    299 ms in 7 minutes of play, 144 ms with them frozen (``bench/gc_pauses.py``)."""
    for kind in KINDS:
        _module(kind)


def choose(
    view: dict[str, Any],
    legal: Sequence[str],
    level: str,
    rng: random.Random | None = None,
    budget_ms: float | None = None,
    game: Game | None = None,
) -> str:
    """Pick one of ``legal`` for the seat whose ``view`` this is, playing at ``level``.

    ``rng`` makes the choice reproducible (a fresh generator otherwise); ``budget_ms`` bounds the
    hard level's thinking time (``DEFAULT_BUDGET_MS`` by default). ``game``, the game the view
    comes from, lets the searches deal sampled worlds with the engine's own ``game.sample(seat,
    rng)``, which deals every card hidden from the seat again: they never read its hidden cards.
    Without it they deal worlds from the view (Cirulla's searches need it). Neither the view nor
    the game is modified.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    if not isinstance(view, dict):
        raise ValueError("view must be the dict returned by the game's view(seat)")
    if isinstance(legal, str) or not legal or not all(isinstance(c, str) for c in legal):
        raise ValueError("legal must be a non-empty list of action codes")
    if budget_ms is not None and (isinstance(budget_ms, bool) or not budget_ms > 0):
        raise ValueError(f"budget_ms must be a positive number, not {budget_ms!r}")
    module = _module(view.get("kind"))
    legal = list(legal)
    if len(legal) == 1:
        return legal[0]
    rng = rng if rng is not None else random.Random()
    if level == "easy":
        code = module.easy(view, legal, rng)
    elif level == "normal":
        code = module.normal(view, legal, rng, game)
    else:
        code = module.hard(view, legal, rng, budget_ms or DEFAULT_BUDGET_MS, game=game)
    if code not in legal:
        raise AssertionError(f"{view['kind']} {level} player chose {code!r}, not a legal action")
    return code
