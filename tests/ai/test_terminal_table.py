"""``python -m engine play``: a terminal table, the human at seat 0 typing codes or numbers."""

from __future__ import annotations

import io

from engine.__main__ import main, render_event, show


def run(args: list[str], typed: str) -> str:
    out = io.StringIO()
    assert main(args, io.StringIO(typed), out) == 0
    return out.getvalue()


def test_a_whole_game_against_computer_players():
    """Typing the number of the first legal action every time plays a game to its end."""
    text = run(["play", "briscola", "--seed", "4", "--level", "normal"], "1\n" * 40)
    assert "your hand:" in text and "legal: 1)" in text
    assert "game over · winners" in text
    assert text.count("· trick won") == 20


def test_codes_are_accepted_and_bad_input_is_refused_with_a_hint():
    text = run(["play", "briscola", "--seed", "4", "--players", "4"], "ZZ\n7\nquit\n")
    assert text.count("not a legal action") == 2
    assert "left the table" in text


def test_end_of_input_leaves_the_table():
    assert "left the table" in run(["play", "briscola", "--seed", "1"], "")


def test_house_rules_are_passed_and_bad_ones_refused():
    out = io.StringIO()
    status = main(["play", "briscola", "--rule", "raggi=9"], io.StringIO(""), out)
    assert status == 2 and "raggi" in out.getvalue()
    text = run(["play", "briscola", "--seed", "2", "--rule", "show_points=true"], "quit\n")
    assert "show points yes" in text.splitlines()[1]


def test_settings_are_shown_once_and_empty_values_not_at_all():
    text = run(["play", "cirulla", "--seed", "3"], "1\n1\nquit\n")
    assert text.splitlines()[1].startswith("settings: rules {target 51")
    assert text.count("rules {") == 1
    assert "buone:" not in text and "calls:" not in text


def test_events_and_values_read_plainly():
    assert render_event({"type": "card_played", "seat": 2, "card": "7D"}) == "· seat 2 plays 7D"
    assert show(["AH", "3S"]) == "AH 3S"
    assert show([{"seat": 1, "card": "KS"}]) == "[1:KS]"
    assert show(None) == "-" and show(True) == "yes"


class Interrupted(io.StringIO):
    """Standard input on which the person presses Ctrl-C at the first prompt."""

    def readline(self, *args) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_leaves_the_table_quietly():
    """Ctrl-C at the prompt leaves as "quit" does, with exit status 130 and no traceback."""
    out = io.StringIO()
    assert main(["play", "cirulla", "--seed", "2"], Interrupted(), out) == 130
    assert out.getvalue().endswith("left the table\n")
