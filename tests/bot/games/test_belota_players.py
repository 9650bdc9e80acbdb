"""Belòta's texts where each plays for himself (``docs/rules/belota-2-3.md``): the contract, the
scoresheet and its result name players, never a pair; a failed contract's points are said to
go where the rules send them."""

from __future__ import annotations

import re

import engine
from bot.games import Ctx, ui_for
from tests.translator import TR

BELOTA = ui_for("belota")
NAMES = ["Alice", "Bruno", "Carla"]


def _ctx(lang: str = "it") -> Ctx:
    return Ctx(TR, lang, NAMES)


def _plain(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text)


def _sheet(players: int, result: str, totals: list[int], points: list[int], **extra) -> str:
    """The scoresheet of a hand of Bruno's trump contract with these figures."""
    contract = {
        "taker": 1,
        "declarer": 1,
        "team": 1,
        "trump": "H",
        "sensa": False,
        "contru": False,
        "multiplier": 1,
    }
    event = {
        "type": "deal_scored",
        "deal": 3,
        "contract": contract,
        "items": [
            {"team": s, "item": "cards", "base": t, "points": t} for s, t in enumerate(totals)
        ],
        "totals": totals,
        "result": result,
        "dedans": result == "failed",
        "points": points,
        "scores": points,
        "litigiu": {"carried": 0, "won_by": None, "frozen": 0, "pending": 0},
        **extra,
    }
    view = {"players": players, "rules": {"target": 1000}}
    return _plain("\n".join(BELOTA.announcement_lines(_ctx(), event, view)))


def test_a_contract_alone_names_its_player_and_no_pair():
    """ "The contract player fixed the final contract": the line names him alone."""
    game = engine.new_game("belota", 3, seed=4)
    while game.view(None)["phase"] == "bidding":
        seat = game.current_seat
        legal = game.legal_actions(seat)
        game.play(seat, next(c for c in ("take", "pass", *legal) if c in legal))
    view = game.view(None)
    line = _plain(BELOTA._contract_line(_ctx(), view))
    declarer = NAMES[view["contract"]["declarer"]]
    assert line.startswith("Atù: ") and line.endswith(f"mandato da {declarer}")
    assert "(" + declarer + ")" not in line


def test_each_player_has_a_line_on_the_scoresheet_of_three():
    """ "Each player's total as belota.md": one line per player, with his own total."""
    sheet = _sheet(3, "made", [40, 90, 32], [40, 90, 32])
    for name, total in zip(NAMES, (40, 90, 32), strict=True):
        assert f"{name}: carte {total} = {total}" in sheet
    assert "Il contratto di Bruno è fatto: ognuno segna i suoi punti." in sheet
    assert " e " not in sheet.split("\n")[2]


def test_a_failed_contract_of_three_goes_to_the_defender_with_more():
    """Rule 3: "the contract player's total less belòta goes to the defender with the higher
    total"."""
    sheet = _sheet(3, "failed", [70, 50, 42], [120, 0, 42])
    assert "Il contratto è andato dentro: i punti di Bruno vanno a Alice." in sheet


def test_a_failed_contract_with_nothing_to_give_still_names_where_it_goes():
    """A contract player who made no points at all: the line still says whose they would
    have been, rather than "each scores his own"."""
    sheet = _sheet(3, "failed", [30, 0, 90], [30, 0, 90])
    assert "i punti di Bruno vanno a Carla." in sheet


def test_a_failed_contract_of_three_with_equal_defenders_goes_half_each():
    """Rule 3: "equal defenders: half each"."""
    sheet = _sheet(3, "failed", [56, 50, 56], [81, 0, 81])
    assert "i punti di Bruno vanno a metà a Alice e Carla." in sheet


def test_a_litigiu_of_three_freezes_the_contract_player_points():
    """Rule 4: "The defenders score theirs; his total is frozen"."""
    sheet = _sheet(3, "litigiu", [60, 60, 42], [60, 0, 42])
    assert (
        "Litigiu: pari! Gli altri segnano i loro punti, quelli di Bruno restano in sospeso."
        in sheet
    )


def test_a_failed_contract_of_two_in_english():
    """Two players: "with a smaller one the opponent scores both totals"."""
    event_sheet = _sheet(2, "failed", [90, 72], [162, 0])
    assert "Il contratto è andato dentro: i punti di Bruno vanno a Alice." in event_sheet
    contract = {"declarer": 1, "team": 1, "trump": None, "sensa": True, "contru": True}
    line = BELOTA._contract_line(_ctx("en"), {"players": 2, "contract": contract})
    assert _plain(line) == "Sensa by Bruno with contru: triple points"
