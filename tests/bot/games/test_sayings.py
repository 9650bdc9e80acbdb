"""Each dialect saying of the sources is said exactly in the situation its explanation
describes: one position where it must be said, quoting the source, and one close to it where
it must not (when in doubt, the table stays silent)."""

from __future__ import annotations

import pytest

from bot.games import Ctx, ui_for
from bot.games.briscola import table_sayings, trick_saying
from tests.translator import TR

BRISCOLA = ui_for("briscola")
BELOTA = ui_for("belota")


def ctx(lang: str = "it", players: int = 2) -> Ctx:
    return Ctx(TR, lang, ["Anna", "Bruno", "Carla", "Dario"][:players], "italian")


def trick(cards: list[str], leader: int, winner: int, points: int = 0) -> dict:
    return {"type": "trick_won", "cards": cards, "leader": leader, "seat": winner, "points": points}


# -- Briscola (seeds: "Modi di dire del gioco della briscola") ------------------------------


@pytest.mark.parametrize(
    ("cards", "leader", "winner", "players", "saying"),
    [
        # «Questa ché l'è nada un dé prìma»: "si dice mentre si vince la mano prendendo con una
        # briscola di poco più alta in valore di quella appena giocata dall'avversario".
        (["QS", "KS"], 0, 1, 2, "nada"),
        (["QS", "KS", "2S", "4H"], 0, 1, 4, "nada"),
        # Not said: the taker led the king and the opponent answered with the knight below it.
        (["KS", "QS"], 0, 0, 2, None),
        # Not said: two steps above; or above a partner's briscola.
        (["JS", "KS"], 0, 1, 2, None),
        (["QS", "2H", "KS", "4H"], 0, 2, 4, None),
        # Not said: the card beaten was not the opponent's knight (the king was winning).
        (["QS", "AS", "KS", "3S"], 0, 3, 4, None),
    ],
)
def test_nada_un_de_prima(cards, leader, winner, players, saying):
    assert trick_saying(trick(cards, leader, winner), "S", players) == saying


@pytest.mark.parametrize(
    ("cards", "leader", "winner", "players", "saying"),
    [
        # «Stròsa ed màs'c / Stròsa ad fèmna»: "calare un Asso o un Tre del seme dominante nella
        # mano per raccogliere tutte le carte"; "lo strozzo di maschio vuol dire che si strozza
        # con l'Asso mentre quello di femmina, indica che si prende con il Tre".
        (["5D", "AD"], 0, 1, 2, "masc"),
        (["KD", "3D"], 0, 1, 2, "femna"),
        (["KD", "AD", "2D", "4D"], 0, 1, 4, "masc"),
        # Not said: the ace was led, nobody was strozzato (the ace of trumps, or any ace).
        (["AS", "5S"], 0, 0, 2, None),
        (["AD", "5D"], 0, 0, 2, None),
        # Not said: over the partner's card; or in the briscola suit, where "il rimedio è
        # quello di calare una brisculina"; or when a briscola already held the trick.
        (["KD", "5D", "AD", "4D"], 0, 2, 4, None),
        (["5S", "AS"], 0, 1, 2, None),
        (["KD", "2S", "AD", "4D"], 0, 1, 4, None),
    ],
)
def test_strozzo_with_the_ace_or_the_three(cards, leader, winner, players, saying):
    assert trick_saying(trick(cards, leader, winner), "S", players) == saying


def test_chi_fa_du_armagn_futu():
    """«Chi fa dù armàgn futù»: "chi nella prima mano giocata fa due punti, si dice abbia
    sfortuna e perderà sicuramente il raggio"; not on a later trick, nor with other points."""
    view = {"tricks_played": 1, "trump": "S", "players": 2}
    first = trick(["JD", "4D"], 0, 0, points=2)
    assert table_sayings(view, [first]) == [("futu", 0)]
    assert table_sayings({**view, "tricks_played": 2}, [first]) == []
    assert table_sayings(view, [{**first, "cards": ["QD", "4D"], "points": 3}]) == []


def _deal_scored(points: list[int], draw: bool) -> dict:
    winners = [] if draw else [0 if points[0] > points[1] else 1]
    return {
        "type": "deal_scored",
        "deal": 1,
        "points": points,
        "winners": winners,
        "deals_won": [0, 0],
        "draw": draw,
    }


@pytest.mark.parametrize("lang", ["it", "en"])
def test_j_em_fat_s_santa_e_s_santa(lang):
    """«J'em fat s'sànta e s'sànta»: "si dice così quando dalla conta dei punti risulta che
    sono stati accumulati 60 punti per parte, cioè pareggio"; not at 61 to 59."""
    view = {"players": 2, "raggi": 1}
    drawn = "\n".join(BRISCOLA.announcement_lines(ctx(lang), _deal_scored([60, 60], True), view))
    close = "\n".join(BRISCOLA.announcement_lines(ctx(lang), _deal_scored([61, 59], False), view))
    assert "s'sànta e s'sànta" in drawn
    assert "s'sànta" not in close


def test_j_han_ciapa_capot():
    """«J'han ciapâ capòt»: "quando la partita è vinta per quattro a zero ... senza che gli
    altri ne abbiano vinto anche 1 sola"; not when the losers won a raggio."""
    view = {"players": 2, "raggi": 4}
    over = {"type": "game_over", "winners": [0], "scores": [4, 0], "capot": True}
    assert "capòt" in "\n".join(BRISCOLA.announcement_lines(ctx(), over, view))
    close = {**over, "scores": [4, 1], "capot": False}
    assert "capòt" not in "\n".join(BRISCOLA.announcement_lines(ctx(), close, view))


# -- Belòta (seed: the glossary of the Ventimiglia belote) ------------------------------------


def _belota_view(**changes) -> dict:
    view = {
        "phase": "playing",
        "players": 4,
        "dealer": 0,
        "current_seat": 1,
        "contract": {
            "declarer": 1,
            "team": 1,
            "trump": "H",
            "sensa": False,
            "contru": False,
        },
        "declarations": [[], [], [], []],
        "declarations_scored": None,
        "belota": None,
        "litigiu": 0,
        "trick": [],
        "last_trick": None,
    }
    view.update(changes)
    return view


def _tersa(suit: str) -> dict:
    cards = [r + suit for r in ("9", "T", "J")]
    return {"name": "tersa", "suit": suit, "top": "J", "cards": cards, "points": 20}


def test_l_e_bon_u_mei():
    """«l'è bon u mei»: "accertata validità d'accuso in seme d'atù": said when the declaration
    counted is in the trump suit; not for a declaration counted in another suit."""
    trump = _belota_view(
        declarations=[[], [_tersa("H")], [], []],
        declarations_scored={"team": 1, "points": 20},
    )
    assert "e-bon-u-mei" in BELOTA.dialect_terms(trump, [])
    assert "«l'è bon u mei»" in "\n".join(BELOTA.table_lines(ctx(players=4), trump, []))
    other = {**trump, "declarations": [[], [_tersa("S")], [], []]}
    assert "e-bon-u-mei" not in BELOTA.dialect_terms(other, [])
    assert "bon u mei" not in "\n".join(BELOTA.table_lines(ctx(players=4), other, []))


def test_belota_and_rebelota():
    """«a belòta»: "accuso di donna e re in seme d'atù"; "giocando ognuno dei due pezzi si
    annuncia «Belòta» e «Rebelòta»": the first piece says Belòta, the second Rebelòta, and no
    piece played says nothing."""
    first = _belota_view(belota={"seat": 1, "played": 1})
    lines = "\n".join(BELOTA.table_lines(ctx(players=4), first, []))
    assert "«Belòta!»" in lines and "Rebelòta" not in lines
    second = _belota_view(belota={"seat": 1, "played": 2})
    assert "«Rebelòta!»" in "\n".join(BELOTA.table_lines(ctx(players=4), second, []))
    assert "a-belota" in BELOTA.dialect_terms(second, [])
    assert "a-belota" not in BELOTA.dialect_terms(_belota_view(), [])


def test_sensa_contru_and_litigiu():
    """«mandà sensa»: "mandare escludendo l'atù"; «mandà contru»: "contrarre una dichiarazione
    di sensa"; «litigiu»: "punti in parità bloccati ... fruibili ai vincitori della mano
    successiva". Each only while it is true of the hand on the table."""
    sensa = {"declarer": 1, "team": 1, "trump": None, "sensa": True, "contru": False}
    assert BELOTA.dialect_terms(_belota_view(contract=sensa), []) == ["manda-sensa"]
    contru = {**sensa, "contru": True}
    assert BELOTA.dialect_terms(_belota_view(contract=contru), []) == ["manda-contru"]
    assert BELOTA.dialect_terms(_belota_view(), []) == []
    assert BELOTA.dialect_terms(_belota_view(litigiu=81), []) == ["litigiu"]
