"""The search surface: ``copy``, ``sample`` and the fast path (``choices``, ``step``, ``playout``).

- The fast path gives exactly the games ``play`` gives: same action logs, scores, winners and views,
  over thousands of seeded random games of every game and player count.
- ``copy`` is independent of the original and round-trips through JSON like it.
- ``sample`` never gives a seat a card it cannot hold: each fact of the seat's knowledge holds
  in the sample, and the seat's own view is the same.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.belota.game import PLAYING, Belota

KINDS = [(kind, n) for kind, cls in sorted(engine.GAMES.items()) for n in cls.player_counts]
# House rules whose paths the default games do not take.
VARIANTS = [
    ("briscola", 4, {"raggi": 2}),
    ("briscola", 4, {"partner_peek": True, "silent_end": False}),
    ("briscola", 2, {"raggi": 3}),
    ("cirulla", 2, {"cirullone": True}),
    ("cirulla", 4, {"pairs_contest": True, "scala_alta": True}),
    ("cirulla", 2, {"matta_keeps_value": True, "matta_for_dealer": True, "equal_cards_void": True}),
    ("belota", 4, {"target": 500}),
]
# Seeded games per game and player count: a full game, or one deal of the longer matches.
GAMES = {"briscola": 1500, "cirulla": 600, "belota": 1500}


def play_randomly(g: engine.Game, rng: random.Random, deal_only: bool) -> None:
    """Random legal play through ``play``, drawing the index as the fast path does."""
    deal = g.deal_number
    while g.current_seat is not None and not (deal_only and g.deal_number != deal):
        seat = g.current_seat
        acts = g.legal_actions(seat)
        g.play(seat, acts[int(rng.random() * len(acts))])


def step_randomly(g: engine.Game, rng: random.Random, deal_only: bool) -> None:
    """The same through ``choices`` and ``step``, checking that both list the same actions."""
    deal = g.deal_number
    while g.current_seat is not None and not (deal_only and g.deal_number != deal):
        acts = g.choices()
        assert [g.action_code(a) for a in acts] == g.legal_actions(g.current_seat)
        assert [g.action_id(c) for c in g.legal_actions(g.current_seat)] == acts
        g.step(acts[int(rng.random() * len(acts))])


def outcome(g: engine.Game) -> tuple:
    return (g.actions, g.scores, g.winners, g.is_over, g.current_seat, g.deal_number)


def views(g: engine.Game) -> list[dict]:
    """What every seat, and a spectator, is shown (the last card played included)."""
    return [g.view(seat) for seat in (None, *range(g.players))]


def check_fast_path(kind: str, players: int, rules: dict | None, games: int) -> None:
    deal_only = kind != "briscola"
    for seed in range(games):
        base = engine.new_game(kind, players, seed=seed, rules=rules)
        played = base.copy()
        play_randomly(played, random.Random(seed), deal_only)
        fast = base.copy()
        fast.playout(random.Random(seed), deal_only=deal_only)
        assert outcome(fast) == outcome(played), (kind, players, seed)
        assert views(fast) == views(played), (kind, players, seed)
        if seed % 10 == 0:
            stepped = base.copy()
            step_randomly(stepped, random.Random(seed), deal_only)
            assert outcome(stepped) == outcome(played), (kind, players, seed)
            # A policy gets the game and its choices, and the fast path plays what it picks.
            picked = base.copy()
            picked.playout(random.Random(seed), lambda g, acts, r: acts[0], deal_only)
            first = base.copy()
            deal = first.deal_number
            while first.current_seat is not None and not (deal_only and first.deal_number != deal):
                first.play(first.current_seat, first.legal_actions(first.current_seat)[0])
            assert outcome(picked) == outcome(first), (kind, players, seed)


@pytest.mark.parametrize(("kind", "players"), KINDS)
def test_fast_path_plays_the_same_games_as_play(kind, players):
    check_fast_path(kind, players, None, GAMES[kind] // (2 if players > 2 else 1))


@pytest.mark.parametrize(("kind", "players", "rules"), VARIANTS)
def test_fast_path_plays_the_same_games_under_house_rules(kind, players, rules):
    check_fast_path(kind, players, rules, 150)


def test_fast_path_plays_whole_matches_like_play():
    """Across deals: a whole Cirulla game and a whole Belòta match, dealt from the seed."""
    for kind, players in (("cirulla", 2), ("cirulla", 4), ("belota", 4)):
        for seed in range(15):
            played = engine.new_game(kind, players, seed=seed)
            play_randomly(played, random.Random(seed), False)
            fast = engine.new_game(kind, players, seed=seed)
            fast.playout(random.Random(seed))
            assert fast.is_over and outcome(fast) == outcome(played)


def random_position(kind: str, players: int, seed: int, rules: dict | None = None):
    """A game stopped at a random point of a random deal (never over)."""
    rng = random.Random(seed)
    g = engine.new_game(kind, players, seed=seed, rules=rules)
    stop = rng.randrange(1, 120)
    for _ in range(stop):
        seat = g.current_seat
        acts = g.legal_actions(seat)
        before = g.copy()
        g.play(seat, rng.choice(acts))
        if g.is_over:
            return before
    return g


@pytest.mark.parametrize(("kind", "players"), KINDS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_copy_is_independent_and_round_trips_through_json(kind, players, seed):
    g = random_position(kind, players, seed)
    text = g.to_json()
    views = [g.view(s) for s in range(players)]
    c = g.copy()
    assert c.to_json() == text
    assert [c.view(s) for s in range(players)] == views
    loaded = engine.load_game(c.to_json())
    assert [loaded.view(s) for s in range(players)] == views
    c.playout(random.Random(seed))
    # Playing the copy to the end left the original as it was.
    assert g.to_json() == text and [g.view(s) for s in range(players)] == views
    loaded.playout(random.Random(seed))
    assert outcome(loaded) == outcome(c)
    again = g.copy()
    again.playout(random.Random(seed))
    assert outcome(again) == outcome(c)


@pytest.mark.parametrize(
    ("kind", "players", "rules"), [*((k, n, None) for k, n in KINDS), *VARIANTS]
)
def test_copy_knows_how_to_copy_every_list_and_dict_of_the_state(kind, players, rules):
    """``copy`` copies the lists and dicts a game changes in place and shares the others: every
    list or dict attribute met in play must be named in one of the game's copy plans."""
    cls = engine.GAMES[kind]
    plan = {*cls.copied_lists, *cls.copied_nested, *cls.copied_dicts, *cls.shared_state}
    for seed in range(5):
        g = engine.new_game(kind, players, seed=seed, rules=rules)
        rng = random.Random(seed)
        while g.current_seat is not None:
            unnamed = {k for k, v in vars(g).items() if isinstance(v, list | dict)} - plan
            assert not unnamed, f"{kind}: copy does not know {sorted(unnamed)}"
            g.step(rng.choice(g.choices()))


def all_cards(g: engine.Game) -> Counter:
    """Every card of the pack where the game keeps it, counted."""
    found: Counter = Counter()
    if g.kind == "briscola":
        found.update(c for h in g.hands for c in h)
        found.update(g.stock[g.drawn :] + g.trick + [c for p in g.piles for c in p])
    elif g.kind == "cirulla":
        from engine.cirulla.cards import CODES

        cards = [c for h in g.hands for c in h] + g.stock + g.table
        cards += [c for p in g.piles for c in p]
        found.update(CODES[c] for c in cards)
    else:
        found.update(c for h in g.hands for c in h)
        found.update(g.rest)
        if g._phase == PLAYING:
            found.update(g.played)
        else:
            found[g.turned] += 1
    return found


def check_sample(g: engine.Game, seat: int, seed: int) -> engine.Game:
    """What holds for every game: the view, the original, the cards, the hand sizes."""
    text = g.to_json()
    views = [g.view(s) for s in range(g.players)]
    s = g.sample(seat, random.Random(seed))
    assert s.view(seat) == views[seat]
    assert g.to_json() == text and [g.view(p) for p in range(g.players)] == views
    cards = all_cards(s)
    assert cards == all_cards(g) and set(cards.values()) == {1}
    assert [len(h) for h in s.hands] == [len(h) for h in g.hands]
    # The sample plays on like any game.
    s.playout(random.Random(seed))
    assert s.is_over
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), rules=st.sampled_from([{}, {"silent_end": False}]))
def test_briscola_sample_keeps_what_the_seat_knows(players, seed, rules):
    g = random_position("briscola", players, seed, rules)
    seat = random.Random(seed).randrange(players)
    rng = random.Random(seed)
    # Partner looks so that the peeked hands are tested too.
    if players == 4 and g.peek_open and g.current_seat not in g.peeked:
        g.play(g.current_seat, "peek")
    text = g.to_json()
    s = g.sample(seat, rng)
    assert g.to_json() == text
    assert s.view(seat) == g.view(seat)
    assert s.stock[s.drawn :][-1:] == g.stock[g.drawn :][-1:]  # the briscola card, drawn last
    bc = g.briscola_card
    for p in range(players):
        # The turned card stays with the player who drew it.
        assert (bc in s.hands[p]) == (bc in g.hands[p])
    if seat in g.peeked:
        mate = (seat + 2) % 4
        assert {c for c in g.peeked[seat] if c in g.hands[mate]} <= set(s.hands[mate])
    for o, seen in s.peeked.items():
        q = (o + 2) % 4
        # Another look holds cards of the partner's new hand, or played since.
        assert len(seen) == len(g.peeked[o])
        assert set(seen) <= set(s.hands[q]) | set(g.actions)
    check_sample(g, seat, seed)


@pytest.mark.parametrize(
    ("players", "rules"),
    [(2, None), (4, None), (2, {"cirullone": True}), (4, {"pairs_contest": True})],
)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_cirulla_sample_keeps_what_the_seat_knows(players, rules, seed):
    from engine.cirulla.buone import hand_buone

    g = random_position("cirulla", players, seed, rules)
    seat = random.Random(seed).randrange(players)
    s = check_sample(g, seat, seed)
    s = g.sample(seat, random.Random(seed))
    assert (s.table, s.piles, s.shown, s.knocked) == (g.table, g.piles, g.shown, g.knocked)
    assert len(s.stock) == len(g.stock)
    for p in range(players):
        if p == seat or g.shown[p]:
            assert s.hands[p] == g.hands[p]  # its own hand, and the hands shown
        assert s.hands[p] == sorted(s.hands[p])
        if not g.pairs_contest:
            # The buone a hidden hand may knock are those of its new cards.
            fresh = len(s.hands[p]) == s.turn_cards and not s.knocked[p]
            expected = hand_buone(tuple(s.hands[p]), s.matta, s.scoring) if fresh else ()
            assert s.knock_buone[p] == (expected if p != seat else g.knock_buone[p])
    if g.pairs_contest:
        calling = {p for p, _, _ in g.pending_reveals}
        played = g._played_this_turn()
        for p in range(players):
            if p not in calling and p != seat and not g.shown[p]:
                # Nothing was called for this hand: it holds no buona.
                whole = tuple(sorted(s.hands[p] + played[p]))
                assert not hand_buone(whole, s.matta, s.scoring)
        # The calls are public: the same seats call the same kinds, those shown keep their
        # outcome, and each call is the buona of the sampled hand.
        assert [(p, b.kind) for p, b, _ in s.calls] == [(p, b.kind) for p, b, _ in g.calls]
        shown = [(p, c) for p, _, c in g.calls if g.shown[p]]
        assert [(p, c) for p, _, c in s.calls if g.shown[p]] == shown
        for p, b, _ in s.calls:
            assert b in hand_buone(tuple(sorted(s.hands[p] + played[p])), s.matta, s.scoring)


def test_cirulla_pairs_contest_sample_deals_a_called_hand_again():
    """A hand called but not shown yet is dealt again with a buona of the kind it called."""
    from engine.cirulla.buone import hand_buone

    rules = {"pairs_contest": True}
    positions = 0
    for seed in range(400):
        g = engine.new_game("cirulla", 4, seed=seed, rules=rules)
        seat = g.current_seat
        hidden = [p for p, _, _ in g.pending_reveals if p != seat]
        if not hidden:
            continue
        positions += 1
        p = hidden[0]
        kinds = [b.kind for q, b, _ in g.calls if q == p]
        dealt_again = 0
        for i in range(10):
            s = g.sample(seat, random.Random(i))
            assert s.view(seat) == g.view(seat)
            assert [b.kind for b in hand_buone(tuple(s.hands[p]), s.matta, s.scoring)] == kinds
            dealt_again += s.hands[p] != g.hands[p]
        assert dealt_again >= 5, (seed, dealt_again)
        if positions == 4:
            break
    assert positions == 4


def belota_position(seed: int, play: bool):
    """A Belòta hand stopped in the bidding, or in the play (with declarations when any)."""
    rng = random.Random(seed)
    g = engine.new_game("belota", seed=seed)
    while True:
        if g.view(None)["phase"] == "playing":
            if not play or rng.random() < 0.08:
                return g
        elif not play and rng.random() < 0.3:
            return g
        acts = g.legal_actions(g.current_seat)
        before = g.copy()
        code = "declare" if "declare" in acts and rng.random() < 0.8 else rng.choice(acts)
        g.play(g.current_seat, code)
        if g.is_over:
            return before
        if g.deal_number != before.deal_number:
            if play and before.view(None)["phase"] == "playing":
                return before
            if not play:
                return before


def replay_deal(g, s) -> list[dict]:
    """The public events of the current hand replayed with the sample's cards.

    The hands as dealt are rebuilt from the sample (each seat's cards plus those it played), a
    deck that deals them is made, and the hand's actions are played again: an action refused, or
    any public event different (a declaration, a belòta, a trick), means the sample broke
    something the play had shown.
    """
    deal_start = len(g.actions) - len(_deal_actions(g))
    by = s._played_by()
    whole = [s.hands[p] + by[p] for p in range(4)]
    dealer = g.dealer
    taker = g.taker
    firsts = []
    for p in range(4):
        cards = [c for c in whole[p] if c != g.turned]
        firsts.append(cards[:5])
    deck = [None] * 32
    for i in range(4):
        p = (dealer + 1 + i) & 3
        deck[3 * i : 3 * i + 3] = firsts[p][:3]
        deck[12 + 2 * i : 14 + 2 * i] = firsts[p][3:5]
    deck[20] = g.turned
    k = 21
    for i in range(4):
        p = (dealer + 1 + i) & 3
        rest = [c for c in whole[p] if c not in firsts[p] and c != g.turned]
        assert len(rest) == (2 if p == taker else 3)
        deck[k : k + len(rest)] = rest
        k += len(rest)
    r = engine.new_game("belota", seed=0, deck=deck, dealer=dealer, rules=g.rules.model_dump())
    events = []
    for code in g.actions[deal_start:]:
        events += r.play(r.current_seat, code)
    return [e for e in events if e["type"] not in ("deal_scored",)]


def _deal_actions(g) -> list[str]:
    bids = len(g.bids)
    cards = len(g.played)
    declares = sum(1 for d in g.declared if d)
    return g.actions[len(g.actions) - bids - cards - declares :]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_belota_sample_in_the_play_keeps_voids_declarations_and_the_turned_card(seed):
    g = belota_position(seed, play=True)
    seat = random.Random(seed).randrange(4)
    s = check_sample(g, seat, seed)
    s = g.sample(seat, random.Random(seed))
    assert s.hands[seat] == g.hands[seat]
    for p in range(4):
        assert set(g.known_cards(p)) <= set(s.hands[p])  # the turned card, declared cards
    assert replay_deal(g, s) == replay_deal(g, g)
    # Who may still declare follows from the new hands.
    assert s.legal_actions(s.current_seat) == [s.action_code(a) for a in s.choices()] and s.view(
        seat
    ) == g.view(seat)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_belota_sample_in_the_bidding_keeps_the_hand_and_the_turned_card(seed):
    g = belota_position(seed, play=False)
    seat = random.Random(seed).randrange(4)
    s = check_sample(g, seat, seed)
    s = g.sample(seat, random.Random(seed))
    assert s.turned == g.turned and s.hands[seat] == g.hands[seat]
    assert len(s.rest) == len(g.rest)


def test_belota_sample_deals_the_hidden_cards_again():
    """The sample is a new deal, not the old one: over many samples the other hands change."""
    g = belota_position(3, play=True)
    seen = {json.dumps(g.sample(0, random.Random(i)).hands) for i in range(30)}
    assert len(seen) > 10


def test_void_shown_by_play_is_kept_in_every_sample():
    """A player who did not follow suit holds none of it in any sample."""
    for seed in range(300):
        g = belota_position(seed, play=True)
        plays = g._plays()
        for p, c, led, ws, _wv in plays:
            if ws >= 0 and c[1] != led and p != 0:
                for i in range(5):
                    s = g.sample(0, random.Random(i))
                    assert all(h[1] != led for h in s.hands[p])
                return
    pytest.fail("no void shown in 300 hands")


# What a game rebuilt from a view does not rebuild: the match before this hand.
MATCH_KEYS = ("scores", "deal", "scoresheet", "litigiu", "move_number", "is_over", "winners")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), play=st.booleans())
def test_belota_from_view_rebuilds_the_hand_the_view_shows(seed, play):
    """``Belota.from_view`` deals the hidden cards as ``sample`` does and replays the hand: the
    seat's view of the rebuilt game is its view (but the match's history), the watch sees every
    bid and card of the hand in order, and a watch that says stop gives None."""
    g = belota_position(seed, play=play)
    seat = random.Random(seed).randrange(4)
    view = g.view(seat)
    seen = []

    def watch(_game, p, code):
        seen.append((p, code))
        return True

    r = Belota.from_view(view, random.Random(seed), watch)
    assert r is not None
    mine = r.view(seat)
    for key in view:
        if key not in MATCH_KEYS:
            assert mine[key] == view[key], key
    assert sorted(r.hands[seat]) == sorted(g.hands[seat])
    if view["phase"] == "playing":
        by = g._played_by()
        assert seen == [tuple(b) for b in view["bids"]] + [(p, c) for p, c, *_ in g._plays()]
        s = g.copy()
        s.hands = r.hands  # the rebuilt deal is one that ``deals`` and ``sample`` may give
        assert replay_deal(g, s) == replay_deal(g, g)
        assert [r._played_by()[p] for p in range(4)] == by
    else:
        assert seen == [tuple(b) for b in view["bids"]]
    if seen:
        assert Belota.from_view(view, random.Random(seed), lambda *_: False) is None


def late_belota_position(seed: int) -> engine.Game | None:
    """A Belòta hand in its last two tricks (declarations when any), or None."""
    rng = random.Random(seed)
    g = engine.new_game("belota", seed=seed)
    while not g.is_over:
        if g.view(None)["phase"] == "playing" and len(g.hands[g.current_seat]) <= 2:
            return g
        acts = g.legal_actions(g.current_seat)
        code = "declare" if "declare" in acts else rng.choice(acts)
        g.play(g.current_seat, code)
    return None


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_belota_deals_are_every_deal_the_play_allows(seed):
    """``deals`` lists exactly the deals of the hidden cards under which the hand's bids and
    cards replay to the same public events (found here by trying every way to place them)."""
    from itertools import permutations

    from engine.errors import IllegalAction

    g = late_belota_position(seed)
    if g is None:
        return
    seat = g.current_seat if seed % 2 else (g.current_seat + 1) % 4
    others = [p for p in range(4) if p != seat]
    hidden = sorted(c for p in others for c in g.hands[p])
    expected = set()
    public = replay_deal(g, g)
    for order in set(permutations(hidden)):
        s = g.copy()
        i = 0
        for p in others:
            k = len(g.hands[p])
            s.hands[p] = list(order[i : i + k])
            i += k
        if g.turned in hidden and g.turned not in s.hands[g.taker]:
            continue  # no deck deals the turned card to another seat than the taker
        try:
            same = replay_deal(g, s) == public
        except IllegalAction:
            same = False
        if same and s.view(seat) == g.view(seat):
            expected.add(tuple(tuple(sorted(h)) for h in s.hands))
    deals = g.deals(seat, 1000)
    found = {tuple(tuple(sorted(h)) for h in d.hands) for d in deals}
    assert len(found) == len(deals)  # each deal once
    assert found == expected
    assert tuple(tuple(sorted(h)) for h in g.hands) in found
    for d in deals:
        assert d.view(seat) == g.view(seat)
    if len(found) > 1:
        assert g.deals(seat, len(found) - 1) == []  # more than the limit: none


@pytest.mark.parametrize("rules", [None, {"pairs_contest": True}])
def test_cirulla_sight_is_what_the_view_shows(rules):
    """``sight`` gives a seat what its view shows, in the engine's order."""
    for seed in range(30):
        g = random_position("cirulla", 4, seed, rules)
        for seat in range(4):
            v, s = g.view(seat), g.sight(seat)
            assert s.hand == v["hand"] == g.hand(seat)
            assert (s.table, s.hand_sizes, s.stock) == (
                v["table"],
                v["hand_sizes"],
                v["stock_size"],
            )
            assert [sorted(p) for p in s.captured] == [sorted(p) for p in v["captured"]]
            others = [h for p, h in enumerate(v["shown_hands"]) if p != seat and h]
            assert sorted(s.shown) == sorted(c for h in others for c in h)
            assert (s.matta, s.matta_value) == (g.rules.matta_card, v["matta_value"])
            assert s.shown_hands == v["shown_hands"]


def test_belota_sight_is_what_the_view_shows():
    for seed in range(30):
        g = belota_position(seed, play=seed % 3 != 0)
        for seat in range(4):
            v, s = g.view(seat), g.sight(seat)
            assert sorted(s.hand) == sorted(v["hand"]) and s.hand == g.hand(seat)
            assert (s.dealer, s.turned) == (v["dealer"], v["turned"])
            if v["phase"] != "playing":
                continue
            contract = v["contract"]
            assert (s.trump or None, s.contract_team) == (contract["trump"], contract["team"])
            assert s.trick == [t["card"] for t in v["trick"]] and s.leader == v["leader"]
            assert s.played == v["played"] and s.belota == v["belota"]
            assert s.declared == v["declarations"]
            assert s.first_trick == (v["tricks_won"] == [0, 0])
