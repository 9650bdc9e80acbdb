"""Tavolata's card game engine: Briscola, Cirulla and Belòta as pure Python.

The rules each game follows are written in ``docs/rules/`` (one file a game, with the house
rules and their defaults). The public surface is ``new_game``, ``load_game``, ``IllegalAction``
and ``SetupError``; a game object ``g`` exposes ``g.current_seat``, ``g.legal_actions``,
``g.play``, ``g.view``, ``g.is_over``, ``g.winners``, ``g.scores`` and ``g.to_json``, and its
setup, read only: ``g.kind``, ``g.players``, ``g.rules`` (the house rules, a frozen model) and
``g.move_number``; ``g.actions``, read only, lists the codes of every action played, in order
(what each seat played is public: Cirulla's hard player reads this turn's plays from it).

For search (the computer players), a game also offers, with no need to touch any ``_`` name:

- ``g.copy()``: an independent game in the same state; it continues exactly as ``g`` would, and
  its ``to_json`` is ``g``'s.
- ``g.sample(seat, rng)``: a copy in which every card hidden from ``seat`` is dealt again at
  random, consistently with all ``seat`` knows: its own hand, the cards played, the hands shown
  (a Cirulla knock or call, a Belòta declaration), the turned card (Belòta's, Briscola's
  briscola, drawn last), a partner's hand seen in Briscola's look, the voids shown by play
  (Belòta's obligations to follow, trump and overtrump), and how many cards each hand and the
  stock hold. ``sample.view(seat) == g.view(seat)``; later deals come from a fresh seed.
- The fast path, which skips events and checks and gives exactly the games ``play`` gives:
  ``g.choices()`` lists the legal actions of the seat to act as small ints, in
  ``legal_actions`` order (``g.action_code(a)`` and ``g.action_id(code)`` translate);
  ``g.step(a)`` applies one; ``g.playout(rng, policy=None, deal_only=False)`` plays on to the end
  of the game, or of the current deal, each action ``policy(g, choices, rng)`` or uniformly
  random (``choices[int(rng.random() * len(choices))]``). ``g.deal_number`` counts the deals
  dealt (a void or annulled deal counts), so a playout of one deal ends when it moves on;
  ``g.deals_scored`` counts the deals counted.
- What the computer players read of a game, with no need of its attributes: ``g.hand(seat)``,
  a seat's cards as codes; Cirulla's and Belòta's ``g.sight(seat)``, what the seat's view shows
  as a named tuple in the engine's terms (cheaper than ``view``, for playouts); Cirulla's
  ``g.fast_sight(seat)``, the same in card numbers and bit masks with the cards hidden from the
  seat as one mask (``CirullaFastSight``: the cheapest, for a lookahead's every card); Belòta's
  ``g.contract()``, the contract once bid; Belòta's ``g.out_of_play()``, the cards everybody
  sees that are in no hand (the bergère, a turned card left on the table: none with four
  players); Belòta's ``g.deals(seat, limit)``, every deal of the cards hidden from ``seat``
  that agrees with all it knows, each as a game (empty when there are more than ``limit``),
  for exact endings; and ``Belota.from_view(view, rng)``, the hand of a seat's view rebuilt
  as a game (the hidden cards dealt as ``sample`` deals them), for a player given only a
  view. What a Belòta seat knows is written once, in ``engine.belota.knowledge``. The sights
  are read only: their lists may be the game's own.
- Seats: ``engine.cards.partner(seat)``, ``engine.cards.side_of(seat, players)``,
  ``engine.cards.next_seat(seat, players)``; ``g.side_of(seat)`` and ``g.sides``.
- The rules of play as functions: ``engine.briscola.trick_winner(cards, trump)`` (index in the
  trick), ``engine.briscola.playable(hand, trick)`` (the cards that may be played: all of them)
  and ``engine.belota.tables.trick_winner(cards, leader, trump)`` (the seat).

The names of the engine's modules that the computer players may import, and no others (a test
reads this list, and holds ``engine/ai`` to it and to the game attributes named above):

- ``engine.base``: ``Game`` (the class of every game, for type hints)
- ``engine.cards``: ``PACK_32``, ``PACK_40``, ``SUITS``, ``next_seat``, ``partner``, ``side_of``
- ``engine.briscola``: ``CARD_POINTS``, ``CARD_STRENGTH``, ``PEEK``, ``playable``,
  ``trick_winner``
- ``engine.cirulla.game``: ``Cirulla``, ``KNOCK_ID`` (the ``choices()`` int of a knock)
- ``engine.cirulla.cards``: ``CODES``, ``INDEX``, ``VALUES`` (card numbers and their values)
- ``engine.cirulla.captures``: ``capture_table``
- ``engine.cirulla.buone``: ``Scoring``, ``triple_buona`` (the buona three cards make, if any)
- ``engine.cirulla.counting``: ``DIAMOND_MASK``, ``GRANDE_MASK``, ``PICCOLA_MASK``,
  ``pile_mask``
- ``engine.belota.game``: ``Belota``
- ``engine.belota.declarations``: ``find_declarations`` (a hand's declarations, for the
  exchange of the trump seven with two or three players)
- ``engine.belota.knowledge``: ``view_knowledge``
- ``engine.belota.tables``: ``POINTS``, ``STRENGTH``, ``trick_winner``
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engine.base import GAMES, Game
from engine.errors import IllegalAction, SetupError

__all__ = ["GAMES", "Game", "IllegalAction", "SetupError", "load_game", "new_game"]


def _load_kinds() -> None:
    # Importing a game module registers it.
    import importlib

    for name in ("briscola", "cirulla", "belota"):
        try:
            importlib.import_module(f"engine.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"engine.{name}":
                raise


_load_kinds()


def new_game(
    kind: str,
    players: int | None = None,
    *,
    seed: int | None = None,
    deck: Sequence[str] | None = None,
    dealer: int = 0,
    rules: dict[str, Any] | None = None,
) -> Game:
    """Start a game of ``kind`` (``"briscola"``, ``"cirulla"``, ``"belota"``).

    Belòta is for four by default; ``players=2`` or ``3`` makes the game for two or three, each
    player for himself (``engine.belota.few``; its view is described in ``BelotaFew.view``).
    """
    cls = GAMES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise SetupError(f"unknown game {kind!r}; known: {', '.join(sorted(GAMES))}")
    if players is None:
        players = cls.player_counts[-1] if kind == "belota" else cls.player_counts[0]
    return cls(players, seed=seed, deck=deck, dealer=dealer, rules=rules)


def load_game(text: str) -> Game:
    """Rebuild a game from ``Game.to_json()`` text; it continues exactly as the original."""
    try:
        data = json.loads(text)
        setup = {k: data[k] for k in ("kind", "players", "seed", "deck", "dealer", "rules")}
        actions = data["actions"]
    except (ValueError, KeyError, TypeError) as exc:
        raise SetupError(f"not a stored game: {exc}") from None
    if not isinstance(actions, list):
        raise SetupError("not a stored game: actions must be a list")
    g = new_game(
        setup["kind"],
        setup["players"],
        seed=setup["seed"],
        deck=setup["deck"],
        dealer=setup["dealer"],
        rules=setup["rules"],
    )
    for code in actions:
        seat = g.current_seat
        if seat is None:
            raise SetupError("stored game has actions after its end")
        try:
            g.play(seat, code)
        except IllegalAction as exc:
            raise SetupError(f"stored game has an illegal action {code!r}: {exc}") from None
    return g
