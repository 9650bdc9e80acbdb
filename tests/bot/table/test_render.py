"""Rendering details checked directly (the sayings: test_sayings.py): Cirulla's capture
labels, house rule values, and Telegram-safe HTML for any player name."""

from __future__ import annotations

import random

import pytest

import engine
from bot.games import Ctx, offered_kinds, ui_for
from bot.table.house_rules import _int_steps
from bot.table.screens import esc
from tests.translator import TR


def capot_game_over() -> tuple[dict, dict]:
    """The game_over event and final view of a real Briscola match to two deals that ends in a
    capòt (the losers won no deal), found by playing random legal actions."""
    rng = random.Random(0)
    for seed in range(500):
        game = engine.new_game("briscola", 2, seed=seed, rules={"raggi": 2})
        events: list[dict] = []
        while not game.is_over:
            seat = game.current_seat
            events = game.play(seat, rng.choice(game.legal_actions(seat)))
        over = next(e for e in events if e["type"] == "game_over")
        if over.get("capot"):
            return over, game.view(None)
    raise AssertionError("no capòt in 500 random matches")


@pytest.mark.parametrize("commentary", [True, False])
def test_capot_line_follows_the_commentary_setting(commentary):
    """The end-of-game «J'han ciapâ capòt» is a dialect saying: shown with the commentary on,
    hidden by /commento off like the sayings during play."""
    event, view = capot_game_over()
    ui = ui_for("briscola")
    ctx = Ctx(TR, "it", ["A", "B"], ui.faces, commentary=commentary)
    lines = ui.announcement_lines(ctx, event, view)
    assert (TR.get("it", "briscola-capot") in lines) is commentary


@pytest.mark.skipif("cirulla" not in offered_kinds(), reason="Cirulla is not offered")
def test_cirulla_capture_labels():
    """A capture shows the cards it takes; taking a crowded table reads "the whole table"."""
    ui = ui_for("cirulla")
    ctx = Ctx(TR, "it", ["A", "B"], ui.faces)
    view = {"table": ["3C", "4H", "5S", "6D", "2C", "KH"]}
    assert ui.action_label(ctx, view, "7D:3C+4H") == "7♦ → 3♣ 4♥"
    assert ui.action_label(ctx, view, "7D") == "7♦"
    whole = "AD:" + "+".join(view["table"])
    assert ui.action_label(ctx, view, whole) == "A♦ → tutta la tavola"


def test_wide_int_rules_are_offered_in_round_steps():
    """A rule from 0 to 1000 (Belòta's cuřù) is offered in steps of 100, default included."""
    assert _int_steps(0, 1000, 100) == tuple(range(0, 1001, 100))
    assert _int_steps(1, 5, 1) == (1, 2, 3, 4, 5)
    assert 15 in _int_steps(0, 100, 15)


def test_names_are_escaped_for_html():
    """A player called "<b>&" shows as typed, not as markup."""
    assert esc("Al <b>&") == "Al &lt;b&gt;&amp;"
