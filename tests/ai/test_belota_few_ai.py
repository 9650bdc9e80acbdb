"""Computer players for Belòta with two and three players: every level plays whole hands with
legal actions only, from the view alone or given the game, and the rules they follow."""

from __future__ import annotations

import random

import pytest

import engine
from engine.ai import LEVELS, choose
from engine.ai.belota import REBUILD_TRIES, Rebuild, Table, sensa_strength
from engine.ai.belota import SENSA as FOUR_SENSA
from engine.ai.belota_few import (
    SAFE_CASH,
    SENSA,
    SURPRISE,
    Memory,
    Surprises,
    _recalled,
    _safe,
    choose_bid,
    choose_card,
    margin,
    table_from_view,
)
from engine.belota.game import Belota
from engine.cards import PACK_32

SETUPS = [
    (2, {}),
    (2, {"carta_girata": "table"}),
    (3, {}),
    (3, {"carta_girata": "table"}),
    (3, {"mazzo_3": 24}),
]


@pytest.mark.parametrize(("players", "rules"), SETUPS)
@pytest.mark.parametrize("with_game", [False, True])
def test_every_level_plays_a_whole_hand_with_legal_actions(players, rules, with_game):
    """A hand of each setup, the levels mixed at the seats; the view is left as it was."""
    for seed in range(2):
        g = engine.new_game("belota", players, seed=seed, rules=rules)
        rng = random.Random(seed)
        levels = [LEVELS[(seed + s) % 3] for s in range(players)]
        while g.current_seat is not None and g.deals_scored < 1:
            seat = g.current_seat
            view = g.view(seat)
            legal = g.legal_actions(seat)
            code = choose(view, legal, levels[seat], rng, 2, game=g if with_game else None)
            assert code in legal and view == g.view(seat)
            g.play(seat, code)
        assert g.deals_scored == 1


def test_the_normal_player_declares_and_makes_the_exchange_that_breaks_nothing():
    """It declares whatever it holds, and takes the turned card for the trump 7 when that
    breaks no declaration."""
    g = engine.new_game("belota", 3, seed=0, rules={"carta_girata": "table"})
    rng = random.Random(0)
    exchanged = declared = 0
    for seed in range(60):
        g = engine.new_game("belota", 3, seed=seed, rules={"carta_girata": "table"})
        while g.current_seat is not None and g.deals_scored < 1:
            seat = g.current_seat
            legal = g.legal_actions(seat)
            code = choose(g.view(seat), legal, "normal", rng, game=g)
            if "declare" in legal and "exchange" not in legal:
                assert code == "declare"
                declared += 1
            exchanged += code == "exchange"
            g.play(seat, code)
    assert declared and exchanged


def test_a_seats_margin_is_over_the_best_other_player():
    """The players weigh a hand by their points less the best other player's."""
    assert margin([100, 40, 70], 0) == 30
    assert margin([100, 40, 70], 2) == -30


@pytest.mark.parametrize(("players", "rules"), SETUPS)
def test_the_normal_player_knows_the_cards_out_of_play_are_in_no_hand(players, rules):
    """The bergère and a turned card left on the table are gone for the normal player: a card
    they would beat is no threat to its own."""
    for seed in range(3):
        g = engine.new_game("belota", players, seed=seed, rules=rules)
        rng = random.Random(seed)
        while g.current_seat is not None and g.deals_scored < 1:
            seat = g.current_seat
            view = g.view(seat)
            legal = g.legal_actions(seat)
            if view["phase"] == "playing":
                _, memory = table_from_view(view, legal)
                out = {c for c in (view["bergere"], view["face_up"]) if c}
                assert out == set(g.out_of_play())
                assert out <= memory.gone
            g.play(seat, choose(view, legal, "normal", rng, game=g))


@pytest.mark.parametrize("players", [2, 3])
def test_the_memory_of_a_hand_follows_an_exchange_of_the_trump_7(players):
    """With the turned card left on the table, an exchange of the trump 7 puts the 7 face up and
    the turned card in a hand: a memory kept through the hand (as the playouts and the reading
    of the others keep one) then knows what a fresh one knows, the 7 gone, the turned card not."""
    exchanges = 0
    for seed in range(40):
        g = engine.new_game("belota", players, seed=seed, rules={"carta_girata": "table"})
        rng = random.Random(seed)
        memory = None
        while g.current_seat is not None and g.deals_scored < 1:
            seat = g.current_seat
            legal = g.legal_actions(seat)
            if "exchange" in legal and memory is not None:
                exchanges += 1
                g.play(seat, "exchange")
                s = g.sight(seat)
                memory = _recalled(g, s, memory)
                assert "7" + s.trump in memory.gone and s.turned not in memory.gone
                continue
            if g.view(seat)["phase"] == "playing":
                s = g.sight(seat)
                memory = _recalled(g, s, memory)
                fresh = _recalled(g, s, None)
                assert (memory.gone, memory.voids) == (fresh.gone, fresh.voids)
            g.play(seat, choose(g.view(seat), legal, "normal", rng, game=g))
    assert exchanges > 0


def to_lead(hand: list[str], memory: Memory, declarer: int = 1) -> Table:
    """Seat 0 to lead with ``hand`` (every card of it legal), hearts trumps, ``declarer`` the
    contract player."""
    return Table(0, "H", hand, hand, [], 0, memory, declarer, declarer)  # type: ignore[arg-type]


def likely_master_position(out_of_play: int) -> tuple[Table, Memory]:
    """Two players, hearts trumps, the other seat the contract player, ours to lead with KS and
    7D, two cards each left: the AS is unseen, with ``out_of_play`` other cards unseen (no
    trump, no spade), the other seat holding two of the unseen cards."""
    hand = ["KS", "7D"]
    unseen = ["AS", *[c for c in PACK_32 if c[1] in "DC" and c != "7D"][:out_of_play]]
    memory = Memory(0, "H", 2)
    memory.gone.update(c for c in PACK_32 if c not in hand and c not in unseen)
    table = to_lead(hand, memory)
    return table, memory


def test_a_side_card_master_in_all_likelihood_is_cashed():
    """Leading, the normal player cashes a side card that holds the trick with the chance
    ``SAFE_CASH`` (the cards unseen lie at random in the hands and out of play), and otherwise
    leads its cheapest card."""
    table, memory = likely_master_position(13)
    # The AS is in none of the other seat's two cards of the fourteen unseen: 12/14.
    assert _safe(table, memory, "KS", 2) == pytest.approx(12 / 14)
    assert _safe(table, memory, "7D", 2) < 1
    assert choose_card(table, memory) == "KS"
    table, memory = likely_master_position(3)  # 2/4: the AS is as likely in its hand
    assert _safe(table, memory, "KS", 2) < SAFE_CASH
    assert choose_card(table, memory) == "7D"


def test_a_defender_leads_the_suit_the_contract_player_must_trump():
    """Three players, hearts trumps, seat 1 the contract player and void in spades (a trump
    still possible in his hand): seat 0, to lead with no master to cash, leads its spade
    rather than its cheaper diamond; with no void shown, the diamond (``TAP``)."""
    hand = ["8S", "7D"]
    for void, led in ((True, "8S"), (False, "7D")):
        memory = Memory(0, "H", 3)
        memory.gone.update(["AC", "TC"])
        if void:
            memory.voids[1].add("S")
        table = to_lead(hand, memory)
        assert choose_card(table, memory) == led


def test_the_contract_player_draws_trumps_only_while_an_opponent_likely_holds_one():
    """Two players, hearts trumps, seat 0 the contract player with the master trump (JH) and
    a diamond: it leads the JH while the last unseen trump (9H) is in the other hand with the
    chance ``DRAW`` or more, and its diamond when the 9H is likelier out of play."""
    hand = ["JH", "7D"]
    for out_of_play, led in ((12, "7D"), (2, "JH")):
        # The other seat holds two of the unseen cards: the 9H is in them with 2/14, or 2/4.
        unseen = ["9H", *[c for c in PACK_32 if c[1] in "CS"][: out_of_play + 1]]
        memory = Memory(0, "H", 2)
        memory.gone.update(c for c in PACK_32 if c not in hand and c not in unseen)
        table = to_lead(hand, memory, declarer=0)
        assert choose_card(table, memory) == led


def test_with_two_players_a_master_ten_is_kept_for_a_trick_worth_it():
    """Two players, hearts trumps, nine cards in hand, the other seat leading a spade: the
    normal player, last to play, keeps its master ten of spades under a led seven (nothing to
    take: it follows with the eight) and takes a led king with it (``KEEP``)."""
    hand = ["TS", "8S", "7D", "8D", "9D", "7C", "8C", "9C", "QC"]
    for led, played in (("7S", "8S"), ("KS", "TS")):
        memory = Memory(1, "H", 2)
        memory.gone.update(["AS", led])
        table = Table(0, "H", hand, ["TS", "8S"], [led], 1, memory, 1, 1)  # type: ignore[arg-type]
        assert choose_card(table, memory) == played


def test_an_ace_whose_ten_is_unseen_is_cashed_after_the_other_masters():
    """Three players, hearts trumps, seat 0 to lead with the AC (the TC unseen), the TS (the
    AS played) and a small diamond: it cashes the ten and keeps the ace to catch the ten of
    clubs (``CATCH``); with the ace its only master, it cashes the ace; with the TC played too,
    the ace goes first, as the card worth most."""
    for hand, gone, led in (
        (["AC", "TS", "7D"], ["AS"], "TS"),
        (["AC", "9S", "7D"], [], "AC"),
        (["AC", "TS", "7D"], ["AS", "TC"], "AC"),
    ):
        memory = Memory(0, "H", 3)
        memory.gone.update(gone)
        table = to_lead(hand, memory)
        assert choose_card(table, memory) == led


def test_with_two_players_the_normal_player_goes_sensa_on_less():
    """A hand of two aces and an ace with its ten (strength 11): sensa with two players
    (``SENSA`` 9), where three and four players ask for 12; the turned suit otherwise."""
    hand = ["AH", "AD", "AC", "TC", "8S", "7S"]
    assert SENSA[2] <= sensa_strength(hand) < SENSA[3] == FOUR_SENSA
    legal = ["take", "sensa", "pass"]
    assert choose_bid(hand, "9S", legal, 2) == "sensa"
    assert choose_bid(hand, "9S", legal, 3) != "sensa"


def test_with_two_players_a_card_to_lose_is_led_from_the_shortest_suit():
    """Hearts trumps, seat 0 a defender to lead with no master: with two players it leads its
    lone diamond (void sooner, it may trump diamonds later: ``SHORT``); with three, a card of
    its longest suit, the spades."""
    hand = ["7D", "7S", "8S"]
    for players, led in ((2, "7D"), (3, "7S")):
        memory = Memory(0, "H", players)
        table = to_lead(hand, memory)
        assert choose_card(table, memory) == led


def test_with_three_players_the_contract_player_keeps_a_lone_master_trump():
    """Three players, hearts trumps, seat 0 the contract player with the master trump (JH), the
    other trumps unseen in the two other hands: with the JH alone he leads his diamond and keeps
    it (``DRAW_WITH``); with a second trump he draws with the JH; with two players he draws with
    a lone JH too."""
    for players, hand, led in (
        (3, ["JH", "7D"], "7D"),
        (3, ["JH", "7H", "7D"], "JH"),
        (2, ["JH", "7D"], "JH"),
    ):
        memory = Memory(0, "H", players)
        if players == 2:  # the other hand holds two of four unseen cards, the 9H among them
            memory.gone.update(
                c for c in PACK_32 if c not in hand and c not in ("9H", "8C", "9C", "8S")
            )
        table = to_lead(hand, memory, declarer=0)
        assert choose_card(table, memory) == led


def normal_hand(players: int, rules: dict, seed: int) -> tuple[Belota, list[tuple[int, str]]]:
    """A hand played through by normal players (given the game, as the bot plays them): the
    game at its start and every bid and card in order."""
    g = engine.new_game("belota", players, seed=seed, rules=rules)
    start = g.copy()
    rng = random.Random(seed)
    actions = []
    while g.current_seat is not None and g.deals_scored < 1:
        seat = g.current_seat
        code = choose(g.view(seat), g.legal_actions(seat), "normal", rng, 2, game=g)
        actions.append((seat, code))
        g.play(seat, code)
    return start, actions


@pytest.mark.parametrize(("players", "rules"), SETUPS)
def test_the_normal_players_own_bids_and_cards_never_surprise_the_hard_players_model(
    players, rules
):
    """The hard player's model of the others (``Surprises``) is the normal player: replayed with
    their real hands, none of the normal players' bids and cards counts as a surprise (the
    cards of the last tricks, which the normal player searches, are not read)."""
    for seed in range(3):
        g, actions = normal_hand(players, rules, seed)
        model = Surprises(g.view(0), 99)
        for seat, code in actions:
            assert model(g, seat, code)
            g.play(seat, code)
        assert model.count == 0


@pytest.mark.parametrize("players", [2, 3])
def test_a_declaration_held_and_not_made_surprises_the_hard_players_model(players):
    """The normal rules declare whatever they hold: a seat that plays its card in place of a
    declaration it holds counts as a surprise, then and not before."""
    checked = 0
    for seed in range(30):
        g, actions = normal_hand(players, {}, seed)
        skipped = next((i for i, (seat, code) in enumerate(actions) if code == "declare"), None)
        if skipped is None:
            continue
        watcher = (actions[skipped][0] + 1) % players
        model = Surprises(g.view(watcher), 99)
        for seat, code in actions[:skipped] + actions[skipped + 1 : skipped + 2]:
            assert model.count == 0
            model(g, seat, code)
            g.play(seat, code)
        assert model.count == 1
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("players", [2, 3])
def test_the_hard_player_rebuilds_the_view_and_reads_the_others_choices(players):
    """Halfway through hands of normal players: the deals the hard player rebuilds from the view
    (``Rebuild`` with ``Surprises``) show the view as it is; deals rebuilt at random give the
    others hands with which the normal rules would have chosen otherwise (the model tells hands
    apart), and such a replay stops, with no deal, once past its limit of surprises."""
    surprised = 0
    for seed in range(4):
        g, actions = normal_hand(players, {}, seed)
        for seat, code in actions[: len(actions) // 2]:
            g.play(seat, code)
        seat = g.current_seat
        view = g.view(seat)
        rng = random.Random(seed)
        for i in range(6):
            assert Rebuild(view, Surprises, SURPRISE)(rng).view(seat) == view
            full = Surprises(view, 99)
            whole = Belota.from_view(view, random.Random(i), full)
            assert whole is not None and whole.view(seat) == view
            surprised += full.count > 0
            if full.count:
                cut = Surprises(view, full.count - 1)
                assert Belota.from_view(view, random.Random(i), cut) is None
    assert surprised > 0


def test_deals_rebuilt_against_a_seat_that_strays_come_as_quickly():
    """Against a seat that plays at random, every deal rebuilt from the view finds its choices
    surprising: a decision's deals are weighed against the likeliest met (``Rebuild.floor``),
    so each comes in a few tries rather than up to 200, and each still shows the view."""
    tries = [0]

    def counting(view: dict, limit: int) -> Surprises:
        tries[0] += 1
        return Surprises(view, limit)

    floors = []
    for seed in range(6):
        g = engine.new_game("belota", 2, seed=seed)
        rng = random.Random(seed)
        while len(g.view(0).get("played", ())) < 8 or g.current_seat != 0:
            seat = g.current_seat
            g.play(seat, rng.choice(g.legal_actions(seat)))
        view = g.view(0)
        rebuild = Rebuild(view, counting, SURPRISE)
        tries[0] = 0
        for _ in range(20):
            assert rebuild(rng).view(0) == view
        assert tries[0] <= REBUILD_TRIES + 20 * 8
        floors.append(rebuild.floor)
    assert max(floors) > 0  # the random seat's choices surprised every deal met
