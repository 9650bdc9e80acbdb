"""A game a group can follow: one ping per turn in private, every move on the table however the
edits are coalesced, the table at the bottom of the group after each deal, the partner's cards
gone once out of date, and ``/tavolo``."""

from __future__ import annotations

import asyncio
import random
import re

import pytest
from telegram import Update

import engine
from bot.core.callbacks import action_callback
from bot.core.live import RECENT_EVENTS, LiveGame
from bot.delivery.hands import HOLD_DELETIONS
from bot.delivery.pacing import GROUP_EDIT_WINDOW
from bot.games import offered_kinds, ui_for
from bot.table import play, screens
from tests.bot.conftest import TR, Table, cards_shown, t

GAMES = [
    (kind, n)
    for kind, n in (("briscola", 2), ("briscola", 4), ("cirulla", 2), ("belota", 4))
    if kind in offered_kinds()
]
DEFAULT_WINDOW = GROUP_EDIT_WINDOW


def pings_of(table: Table, start: int) -> dict[int, int]:
    """New private messages (they notify; edits do not) per player since call ``start``."""
    count = dict.fromkeys(table.user_ids, 0)
    for method, params in table.fake.calls[start:]:
        if method == "sendMessage" and params["chat_id"] in count:
            count[params["chat_id"]] += 1
    return count


class Calls(list):
    """The fake's call log, waking whoever waits for the bot's next Bot API call."""

    def __init__(self, calls: list) -> None:
        super().__init__(calls)
        self.event = asyncio.Event()

    def append(self, item) -> None:
        super().append(item)
        self.event.set()


async def until(table: Table, condition, what: str) -> None:
    """Let the bot's background tasks run until ``condition()`` holds: it can only change with
    a Bot API call, so wait for the bot's next call each time (the bound is for a bot that
    stops calling, a failure)."""
    calls = table.fake.calls
    while not condition():
        calls.event.clear()
        try:
            await asyncio.wait_for(calls.event.wait(), 60)
        except TimeoutError:
            raise AssertionError(f"never: {what}") from None


def the_button(table: Table, live, data: str):
    """The message where the player to act sees the button ``data`` (their hand), or None."""
    seat = live.game.current_seat
    hand = table.hand_message(table.users[seat])
    return hand if any(d == data for _, d in hand.buttons) else None


def _pattern(lang: str, msg_id: str, **slots: str) -> re.Pattern[str]:
    """A text of the bot as a regular expression: each named placeable matches ``slots``."""
    marks = {name: f"\x00{i}\x00" for i, name in enumerate(slots)}
    pattern = re.escape(TR.get(lang, msg_id, **marks))
    for name, mark in marks.items():
        pattern = pattern.replace(re.escape(mark), f"(?P<{name}>{slots[name]})", 1)
    return re.compile(pattern)


class Reader:
    """Reads the group's messages of a game as a player does: which deal a version is about
    (its title) and which cards it shows being played (the lines of the running log, of the
    last trick or capture, and of a result's last plays; not the cards lying on the table, the
    ones taken, the turned or trump card)."""

    def __init__(self, kind: str, lang: str) -> None:
        self.kind = kind
        self.faces = ui_for(kind).faces
        deal = _pattern(lang, f"{kind}-deal-name", deal=r"\d+").pattern.replace("?P<deal>", "")
        self.titles = [_pattern(lang, "table-title", title=".+?", deal=deal)]
        self.titles += [
            _pattern(lang, msg_id, deal=r"\d+")
            for msg_id in ("cirulla-count-title", "belota-sheet-title")
            if msg_id.startswith(kind)
        ]
        if kind == "cirulla":
            self.plays = [
                _pattern(lang, "cirulla-laid", player=".+?", card=r"\S+"),
                _pattern(lang, "cirulla-captured", player=".+?", card=r"\S+", cards=".+"),
            ]
        else:
            self.plays = [
                _pattern(lang, f"{kind}-trick", cards=".+"),
                _pattern(lang, f"{kind}-last-trick", winner=".+?", cards=".+?", points=r"\d+"),
            ]

    def deal(self, text: str) -> int | None:
        """The deal a message is about, from its title (None: it does not say)."""
        first = text.split("\n")[0]
        for title in self.titles:
            found = title.search(first)
            if found:
                return int(next(g for g in found.groups()[::-1] if g and g.isdigit()))
        return None

    def played(self, text: str) -> set[str]:
        """The cards a message shows being played."""
        cards: set[str] = set()
        for line in text.split("\n"):
            for line_pattern in self.plays:
                found = line_pattern.search(line)
                if found:
                    shown = found.group("card" if "card" in line_pattern.groupindex else "cards")
                    cards |= cards_shown(shown, self.faces)
        return cards


@pytest.mark.parametrize(("kind", "players"), GAMES)
async def test_a_whole_game_with_the_edit_window_pings_each_turn_once_and_shows_every_card(
    bot, make_table, kind, players
):
    """With the group edit window at its default and players pressing as soon as their ping
    shows (faster than any group: several Cirulla deals fit in one edit window): every card
    played appears as played in a version of the group's table, or in the deal's result, about
    its deal and sent after it was played, and no message shows another deal's plays; each
    human turn sends exactly one new private message to that player; at the end each private
    chat holds one hand message of the game, without buttons, naming the winners as the table
    does, and no reminder."""
    table = make_table(players)
    await table.start(kind, players)
    bot.svc.renderer.pacing.window = DEFAULT_WINDOW
    live = await bot.svc.games.get(table.game_id)
    table.fake.calls = Calls(table.fake.calls)
    start = len(table.fake.calls)  # the first turn's ping is the hand every player got
    turns = dict.fromkeys(table.user_ids, 0)
    seen = set()
    played_at: list[tuple[int, str, int]] = []  # (deal, card, index in the call log)
    rng = random.Random(f"follow{kind}{players}")
    pack = engine.GAMES[kind].pack

    def count_turn() -> None:
        if not live.game.is_over:
            key = (live.turn_started, live.game.current_seat)
            if key not in seen:
                seen.add(key)
                turns[table.user_ids[key[1]]] += 1

    seen.add((live.turn_started, live.game.current_seat))
    while not live.game.is_over:
        seat = live.game.current_seat
        legal = live.game.legal_actions(seat)
        i = rng.randrange(len(legal))
        data = action_callback(live.game_id, live.game.move_number, legal[i], i)
        await until(table, lambda d=data: the_button(table, live, d) is not None, "the ping")
        message = the_button(table, live, data)
        moves = live.game.move_number
        deal = live.game.view(None)["deal"]
        update = table.fake.press(table.users[seat], message, data)
        pressed = len(table.fake.calls)  # the bot may edit the table before the press returns
        await bot.app.process_update(Update.de_json(update, bot.app.bot))
        answer = table.fake.answered(update)
        assert answer is not None and not answer.get("show_alert"), answer
        actions = await bot.svc.storage.actions(live.game_id)
        for _, code in actions[moves:]:
            if code[:2] in pack:
                played_at.append((deal, code[:2], pressed))
        count_turn()
    await bot.svc.renderer.flush()

    reader = Reader(kind, table.lang)
    group_texts = [
        (n, reader.deal(params["text"]), reader.played(params["text"]))
        for n, (method, params) in enumerate(table.fake.calls)
        if method in ("sendMessage", "editMessageText") and params["chat_id"] == table.group["id"]
    ]
    for deal, card, at in played_at:
        assert any(
            n >= at and d in (deal, None) and card in shown for n, d, shown in group_texts
        ), (kind, deal, card)
    by_deal: dict[int, set[str]] = {}
    for deal, card, _ in played_at:
        by_deal.setdefault(deal, set()).add(card)
    for n, deal, shown in group_texts:  # a message shows the plays of its own deal only
        assert deal is None or shown <= by_deal.get(deal, set()), (kind, n, deal)
    ending = [
        line
        for m in table.group_messages()
        if not m.deleted
        for line in m.text.split("\n")
        if line.startswith(("🏆", "🤝"))
    ]
    assert len(ending) == 1
    stored = await table.bot.svc.storage.get_game(table.game_id)
    for user in table.users:
        alive = [m for m in table.fake.messages(user) if not m.deleted]
        hands = [m for m in alive if m.text.startswith(f"🃏 {table.group['title']} ·")]
        assert len(hands) == 1 and not hands[0].buttons
        said = ending[0]  # the group's line; a winner's hand tells them ("Hai vinto!")
        if stored.seat_of(user["id"]) in stored.winners:
            person = "second-plural" if len(stored.winners) > 1 else "second"
            said = t("game-winners", person=person, winners="", count=1)
        assert said in hands[0].text.split("\n")
        assert not any("⏳" in m.text for m in alive)
    assert table.finished()
    pings = pings_of(table, start)
    assert pings == turns  # exactly one notifying private message per turn


@pytest.mark.parametrize(("kind", "players"), [("cirulla", 2), ("belota", 4)])
async def test_after_each_new_deal_the_last_message_with_buttons_is_the_live_table(
    bot, make_table, kind, players
):
    """The deal's result takes the place of the old table (or sits above the new one); the
    group's last message with buttons is the live table, at the bottom."""
    if kind not in offered_kinds():
        pytest.skip(f"{kind} is not offered")
    table = make_table(players)
    await table.start(kind, players)
    live = await bot.svc.games.get(table.game_id)
    rng = random.Random(9)
    deals = 0
    while not table.finished() and deals < 3:
        deal = live.game.view(None)["deal"]
        await table.play_one(rng)
        if live.active and live.game.view(None)["deal"] != deal:
            deals += 1
            alive = [m for m in table.group_messages() if not m.deleted]
            with_buttons = [m for m in alive if m.buttons]
            assert with_buttons[-1].message_id == live.row.table_message_id
            assert alive[-1].message_id == live.row.table_message_id
            assert alive[-2].text.startswith("🧮")  # the result, just above
    assert deals >= 1


async def test_the_partners_cards_go_from_the_hand_once_the_partner_has_played(bot, make_table):
    """Briscola in four: after a look at the partner's hand, the hand message shows those cards
    until the partner plays a card."""
    table = make_table(4)
    await table.start("briscola", 4)
    live = await bot.svc.games.get(table.game_id)
    rng = random.Random(2)
    for _ in range(200):
        if "peek" in live.game.legal_actions(live.game.current_seat):
            break
        await table.play_one(rng)
    else:
        pytest.skip("no look in this game")
    seat = live.game.current_seat
    user = table.users[seat]
    peek = next(text for text, d in table.hand_message(user).buttons if d.endswith(":peek"))
    await table.press(user, table.hand_message(user), peek)
    shown = t("briscola-partner-hand", cards="").split(":")[0]
    assert shown in table.hand_message(user).text
    partner = (seat + 2) % 4
    while live.game.current_seat != partner:
        await table.play_one(rng)
    assert shown in table.hand_message(user).text  # the partner has not played yet
    partner_hand = table.hand_message(table.users[partner])
    card = next(d for _, d in partner_hand.buttons if not d.endswith(":peek"))
    await bot.feed(table.fake.press(table.users[partner], partner_hand, card))
    assert shown not in table.hand_message(user).text


async def test_table_command_brings_the_table_to_the_bottom(bot, make_table, fake):
    """/tavolo sends the table anew at the bottom of the group and deletes the old one; in
    private it says where the table is; in a group without a game it says so."""
    table = make_table(2)
    await table.start("briscola", 2)
    old = table.table()
    await bot.feed(fake.send_text(table.users[1], table.group, "hello"))
    await bot.feed(fake.send_text(table.users[1], table.group, "/tavolo"))
    new = table.table()
    assert new.message_id > old.message_id and old.deleted
    assert fake.last_message(table.group) is new
    await bot.feed(fake.send_text(table.users[0], table.users[0], "/tavolo"))
    assert fake.last_message(table.users[0]).text == t("table-command-private")
    other = make_table(1, title="Vuoto")
    await bot.feed(fake.send_text(other.users[0], other.group, "/table"))
    assert fake.last_message(other.group).text == t("table-command-none")


async def _held(bot, table: Table) -> LiveGame:
    """The game of ``table`` with the group's edit window so long that nothing a test does
    reaches the table until ``flush``; returns the live game. Actions go through
    ``play.perform`` (the path of a press after its checks), so no test waits on the window."""
    bot.svc.renderer.pacing.window = 3600.0
    return await bot.svc.games.get(table.game_id)


def group_edits(table: Table, start: int) -> list[str]:
    """The texts the bot sent or edited in the group since call ``start``."""
    return [
        params["text"]
        for method, params in table.fake.calls[start:]
        if method in ("sendMessage", "editMessageText") and params["chat_id"] == table.group["id"]
    ]


def _first(game: engine.Game, wanted) -> str | None:
    """The first legal action of the player to act whose events (tried on a copy) satisfy
    ``wanted``."""
    seat = game.current_seat
    for code in game.legal_actions(seat):
        if wanted(game.copy().play(seat, code)):
            return code
    return None


async def test_a_scopa_inside_one_edit_window_is_on_the_table(bot, make_table):
    """Cirulla: a scopa, then the next player's card, both inside one edit window: the one
    table version that shows them names the scopa."""
    table = make_table(2)
    await table.start("cirulla", 2)
    live = await _held(bot, table)

    def scopa(events):
        return any(e["type"] == "scopa" for e in events) and not any(
            e["type"] in ui_for("cirulla").announced for e in events
        )

    def quiet(events):  # a card that neither sweeps nor ends the deal
        return not any(
            e["type"] in ui_for("cirulla").announced or e["type"] == "scopa" for e in events
        )

    for _ in range(200):
        code = _first(live.game, scopa)
        if code is not None:
            break
        await play.perform(bot.svc, live, live.game.current_seat, _first(live.game, quiet))
    else:
        pytest.skip("no scopa in this game")
    await bot.svc.renderer.flush()
    start = len(table.fake.calls)
    sweeper = live.game.current_seat
    await play.perform(bot.svc, live, sweeper, code)
    await play.perform(bot.svc, live, live.game.current_seat, _first(live.game, quiet))
    assert group_edits(table, start) == []  # held by the window
    await bot.svc.renderer.flush()
    edits = group_edits(table, start)
    assert len(edits) == 1
    name = f"<b>{screens.esc(table.users[sweeper]['first_name'])}</b>"
    assert t("cirulla-scopa", player=name) in edits[0] or (
        t("cirulla-scopa-ace", player=name) in edits[0]
    )


async def test_a_buona_inside_one_edit_window_is_on_the_table(bot, make_table):
    """Cirulla: a knock for a buona, the knocker's card and the next player's card inside one
    edit window: the table version that shows them shows the buona and its cards."""
    bot.svc.new_seed = lambda: 1  # the second player holds a buona in the first deal
    table = make_table(2)
    await table.start("cirulla", 2)
    live = await _held(bot, table)
    seat = live.game.current_seat
    assert "knock" in live.game.legal_actions(seat)
    start = len(table.fake.calls)
    await play.perform(bot.svc, live, seat, "knock")
    buona = live.game.view(None)["buone"][0]
    for _ in range(2):
        await play.perform(
            bot.svc,
            live,
            live.game.current_seat,
            live.game.legal_actions(live.game.current_seat)[-1],
        )
    assert group_edits(table, start) == []
    await bot.svc.renderer.flush()
    edits = group_edits(table, start)
    assert len(edits) == 1
    ctx = screens.make_ctx(TR, "it", live)
    line = t(
        "cirulla-buona",
        player=ctx.name(seat),
        buona=ui_for("cirulla").buona_name(ctx, buona),
        points=buona["points"],
        cards=ctx.cards(buona["cards"]),
    )
    assert line in edits[0]


async def test_a_belota_declaration_inside_one_edit_window_is_on_the_table(bot, make_table):
    """Belòta: a declaration, the declarer's card and the next player's card inside one edit
    window: the table version that shows them shows the declaration."""
    bot.svc.new_seed = lambda: 0  # after a take at the first word, the leader declares
    table = make_table(4)
    await table.start("belota", 4)
    live = await _held(bot, table)
    await play.perform(bot.svc, live, live.game.current_seat, "take")
    while live.game.view(None)["phase"] == "bidding":
        await play.perform(bot.svc, live, live.game.current_seat, "pass")
    await bot.svc.renderer.flush()  # the table as the bidding ends
    seat = live.game.current_seat
    assert "declare" in live.game.legal_actions(seat)
    start = len(table.fake.calls)
    await play.perform(bot.svc, live, seat, "declare")
    for _ in range(2):
        s = live.game.current_seat
        await play.perform(bot.svc, live, s, live.game.legal_actions(s)[0])
    assert group_edits(table, start) == []
    await bot.svc.renderer.flush()
    edits = group_edits(table, start)
    assert len(edits) == 1
    ctx = screens.make_ctx(TR, "it", live)
    declared = live.game.view(None)["declarations"][seat]
    ui = ui_for("belota")
    shown = "; ".join(f"{ui.declaration_name(ctx, d)} {ctx.cards(d['cards'])}" for d in declared)
    assert t("belota-declared", player=ctx.name(seat), declarations=shown) in edits[0]


@pytest.mark.parametrize("when", ["before the start", "during the game"])
async def test_a_player_the_bot_cannot_reach_in_private_is_named_on_the_table_not_pinged(
    bot, make_table, when
):
    """A player who blocked the bot (403 in private) gets no ping and no hand message; on their
    turn the table says, with 📵, that they play from the group; once they have played, the
    mark goes with the turn."""
    table = make_table(2)
    victim = table.users[1]
    if when == "before the start":
        await table.seat_everybody("briscola", 2)
        await bot.feed(table.fake.block(victim))
        await table.press(table.users[0], table.lobby(), t("btn-start"))
    else:
        await table.start("briscola", 2)
        await bot.feed(table.fake.block(victim))
    live = await bot.svc.games.get(table.game_id)
    rng = random.Random(3)
    name = victim["first_name"]  # messages read as shown: their HTML rendered
    mark = t("table-unreachable", player=name)
    start = len(table.fake.calls)
    for _ in range(6):
        if table.user_ids[live.game.current_seat] == victim["id"]:
            assert mark in table.table().text
            code = live.game.legal_actions(live.game.current_seat)[0]
            await play.perform(bot.svc, live, live.game.current_seat, code)
            await bot.svc.renderer.drain()
        else:
            assert mark not in table.table().text
            user = table.users[live.game.current_seat]
            hand = table.hand_message(user)
            await bot.feed(table.fake.press(user, hand, rng.choice(hand.buttons)[1]))
    assert not [
        p
        for m, p in table.fake.calls[start:]
        if m == "sendMessage" and p["chat_id"] == victim["id"]
    ]
    notices = [
        m
        for m in table.group_messages()
        if t("notice-private-closed", player=name, bot="@TavolataBot") == m.text
    ]
    assert len(notices) == 1  # the group was told once how to fix it


async def test_belota_bids_from_the_hand_or_from_the_table_make_the_same_game(bot, make_table):
    """The same deal bid twice with the same words, once every bid pressed on the bidder's hand
    message and once on the group's table: the same action log and the same table. While
    bidding, every hand shows the turned card, what each player said, whose word it is (the
    bidder's own: «Tocca a te») and the match score, which stays there once the play begins."""
    ui = ui_for("belota")
    outcomes = []
    for where in ("hand", "table"):
        bot.svc.new_seed = lambda: 7
        table = make_table(4)
        await table.start("belota", 4)
        live = await bot.svc.games.get(table.game_id)
        rng = random.Random(5)
        for _ in range(16):
            view = live.game.view(None)
            if view["phase"] != "bidding":
                break
            seat = live.game.current_seat
            ctx = screens.make_ctx(TR, "it", live)
            plain = screens.make_ctx(TR, "it", live)
            plain.names = [u["first_name"] for u in table.users]  # as the chat shows them
            for other, user in enumerate(table.users):
                plain.me = other  # each hand is told to its player ("Tu passi", "Voi 0")
                hand = table.hand_message(user).text
                assert t("belota-turned", card=ctx.card(view["turned"])) in hand
                if view["bids"]:
                    said = ", ".join(
                        f"{plain.name(s)} {ui._bid_word(plain, view, bid, s)}"
                        for s, bid in view["bids"]
                    )
                    said = said.replace("<b>", "").replace("</b>", "")
                    assert t("belota-bids", bids=said) in hand
                whose = (
                    t("hand-your-turn")
                    if other == seat
                    else t("belota-word", player=plain.names[seat])
                )
                assert whose in hand
                assert ui.scores_line(plain, view).replace("<b>", "").replace("</b>", "") in hand
            legal = live.game.legal_actions(seat)
            i = rng.randrange(len(legal))
            data = action_callback(live.game_id, live.game.move_number, legal[i], i)
            user = table.users[seat]
            message = table.hand_message(user) if where == "hand" else table.table()
            assert data in [d for _, d in message.buttons], where
            update = table.fake.press(user, message, data)
            await bot.feed(update)
            assert not table.fake.answered(update).get("show_alert")
        assert live.game.view(None)["phase"] != "bidding"
        await bot.svc.renderer.drain()
        plain = screens.make_ctx(TR, "it", live)
        plain.names = [u["first_name"] for u in table.users]
        for seat, user in enumerate(table.users):  # the play has begun: the score is still
            plain.me = seat  # in every hand, told to its player ("Voi 0")
            score = ui.scores_line(plain, live.game.view(None))
            assert score.replace("<b>", "").replace("</b>", "") in table.hand_message(user).text
        outcomes.append((await bot.svc.storage.actions(live.game_id), table.table().text))
    assert outcomes[0] == outcomes[1]


async def test_a_table_far_behind_after_a_long_outage_is_drawn_from_the_game(bot, make_table):
    """The Bot API cannot be reached while moves go on (computer players, the Mini App) for
    more moves than memory keeps (``RECENT_EVENTS``): once it answers again, every deal's result
    is sent, in order, the last ones opening with their deal's cards (still kept), and the table
    below them is drawn from the game as it is (the current deal's moves), not from a log of
    moves long gone."""
    table = make_table(2)
    await table.start("cirulla", 2)
    live = await bot.svc.games.get(table.game_id)
    fake = table.fake
    ui = ui_for("cirulla")
    faces = ui.faces
    deals: list[set[str]] = [set()]  # the cards played in each deal, in order
    with fake.outage(502):
        # Past the moves kept, to a new deal's first card.
        while live.serial <= RECENT_EVENTS or deals[-1] or len(deals) < 4:
            seat = live.game.current_seat
            code = live.game.legal_actions(seat)[0]
            events = await play.perform(bot.svc, live, seat, code)
            deals[-1] |= {e["card"] for e in events if e["type"] == "card_played"}
            if any(e["type"] in ui.announced for e in events):
                deals.append(set())
        seat = live.game.current_seat
        await play.perform(bot.svc, live, seat, live.game.legal_actions(seat)[0])
        assert live.active
        await bot.svc.renderer.drain()  # the quick tries fail; the pass is put off for later
        assert len(await bot.svc.storage.outbox(table.game_id)) == len(deals) - 1 >= 3
    bot.svc.renderer.refresh(table.game_id)  # as the next move (or the back-off) would
    await bot.svc.renderer.flush()
    assert await bot.svc.storage.outbox(table.game_id) == []
    messages = [m for m in fake.messages(table.group) if not m.deleted]
    results = [m for m in messages if m.message_id != live.row.table_message_id][-len(deals) + 1 :]
    assert len(results) == len(deals) - 1
    # The last deal's moves are still kept: its result shows every card it played.
    assert deals[-2] <= cards_shown(results[-1].text, faces)
    since = list(live.recent)
    for i in range(len(since) - 1, -1, -1):
        if since[i]["type"] in ui.announced:
            since = since[i + 1 :]
            break
    table_message = fake.message(table.group, live.row.table_message_id)
    assert messages[-1].message_id == table_message.message_id  # below the results
    drawn = screens.table_screen(bot.svc.tr, live, since, False, bot.svc.extras)
    assert table_message.raw_text == drawn.text


class StandInBudget:
    """The bot's overall budget as the renderer sees it, with ``short`` calls waiting or none:
    places come at once (the calls themselves are not paced in these tests)."""

    def __init__(self, short: bool) -> None:
        self.short = short

    def waiting(self, priority: int) -> int:
        return int(self.short)

    async def reserve(self, priority: int = 1, not_before: float = 0.0) -> None:
        """A place at once."""

    async def reserve_unless(self, event, places) -> bool:
        return True

    def give_back(self) -> None:
        """Nothing to give back."""

    def give_back_place(self, place) -> None:
        """Nothing to give back."""


@pytest.mark.parametrize("short", [True, False])
async def test_a_short_budget_leaves_the_pressed_hand_for_its_next_ping(bot, make_table, short):
    """While calls wait for the bot's budget, the hand a player has just played from is not
    edited (its next ping sends it afresh and deletes it: the edit would be its last call but
    one); the other player's ping goes as usual. With nobody waiting, it loses its buttons and
    the card played at once. Once the player's turn comes back, their private chat holds one
    hand, the live one (with the budget still short, the newest of at most ``HOLD_DELETIONS``:
    old hands are then deleted that many in one call)."""
    table = make_table(2)
    await table.start("briscola", 2)
    bot.svc.renderer.pacing.budget = StandInBudget(short)
    live = await bot.svc.games.get(table.game_id)
    seat = live.game.current_seat
    user, other = table.users[seat], table.users[1 - seat]
    hand = table.hand_message(user)
    card = next((text, d) for text, d in hand.buttons if d.startswith("a:"))
    start = len(table.fake.calls)
    await table.press(user, hand, card[0])
    assert pings_of(table, start)[other["id"]] == 1  # the other player's turn: pinged
    old = table.fake.message(user, hand.message_id)
    assert not old.deleted
    assert any(d.startswith("a:") for _, d in old.buttons) == short
    assert (card[0] in old.text) == short
    while live.game.current_seat != seat and not live.game.is_over:
        await table.play_one(random.Random(1))
    alive = [m.message_id for m in table.fake.messages(user) if not m.deleted and m.buttons]
    if short:
        # While the budget stays short, old hands go HOLD_DELETIONS at a time (one call).
        assert alive[-1] == table.hand_message(user).message_id
        assert len(alive) <= HOLD_DELETIONS
        return
    assert table.fake.message(user, hand.message_id).deleted
    assert alive == [table.hand_message(user).message_id]


async def test_a_deal_ended_while_the_table_is_drawn_keeps_its_last_moves_in_its_result(
    bot, make_table, monkeypatch
):
    """A card is laid; the rendering pass it starts reads the outbox (nothing to send yet),
    then, before it draws the table, the next press ends the deal: the table is not drawn for
    the next deal then (it would mark the laid card as seen, though no version showed it), so
    the deal's result, sent first by the next pass, opens with that card. (Drawn at once, it
    left the card out of every message: an edit window ending mid-game on a loaded machine.)"""
    table = make_table(2)
    await table.start("cirulla", 2)
    live = await bot.svc.games.get(table.game_id)
    ui = ui_for("cirulla")

    def ends(game: engine.Game) -> bool:
        seat = game.current_seat
        events = game.play(seat, game.legal_actions(seat)[0])
        return any(e["type"] in ui.announced for e in events) or bool(
            play.forced_tail(game, ui.announced)
        )

    while True:  # to a card laid before the press that ends the deal
        after = live.game.copy()
        if not ends(after.copy()):
            seat = after.current_seat
            after.play(seat, after.legal_actions(seat)[0])
            if not after.is_over and ends(after):
                break
        seat = live.game.current_seat
        await play.perform(bot.svc, live, seat, live.game.legal_actions(seat)[0])
        await bot.svc.renderer.drain()
    seat = live.game.current_seat
    laid = live.game.legal_actions(seat)[0]
    read = bot.svc.storage.outbox
    armed = [True]

    async def outbox(game_id: int):
        items = await read(game_id)
        if armed[0]:  # the deal's last press comes right after the read
            armed[0] = False
            last = live.game.current_seat
            await play.perform(bot.svc, live, last, live.game.legal_actions(last)[0])
        return items

    monkeypatch.setattr(bot.svc.storage, "outbox", outbox)
    await play.perform(bot.svc, live, seat, laid)
    await bot.svc.renderer.drain()
    assert not armed[0]
    reader = Reader("cirulla", table.lang)
    results = [m for m in table.group_messages() if m.text.startswith("🧮")]
    assert len(results) == 1
    assert laid[:2] in reader.played(results[0].text)


async def test_a_cirulla_hand_that_empties_is_taken_away_not_edited(bot, make_table):
    """Cirulla deals three cards a turn: the player who lays their last one while the other
    still holds cards has nothing to see until the next three come. Their hand message is
    deleted then (one call), not edited to an empty hand and deleted at their next ping (two);
    that ping, the new three cards, has no old hand to delete, and the private chat holds one
    hand, the live one."""
    table = make_table(2)
    await table.start("cirulla", 2)
    live = await bot.svc.games.get(table.game_id)
    rng = random.Random(3)
    while not (
        live.game.current_seat is not None
        and len(live.game.view(live.game.current_seat)["hand"]) == 1
        and len(live.game.view(1 - live.game.current_seat)["hand"]) >= 1
    ):
        await table.play_one(rng)
    seat = live.game.current_seat
    user = table.users[seat]
    hand = table.hand_message(user)
    start = len(table.fake.calls)
    await table.play_one(rng)
    await bot.svc.renderer.drain()
    mine = [(m, p) for m, p in table.fake.calls[start:] if p.get("chat_id") == user["id"]]
    assert [m for m, _ in mine] in (["deleteMessage"], ["deleteMessages"])
    assert table.fake.message(user, hand.message_id).deleted
    assert not live.game.view(seat)["hand"]
    with pytest.raises(LookupError):
        table.hand_message(user)
    while live.game.current_seat != seat:
        await table.play_one(rng)
    await bot.svc.renderer.drain()
    mine = [m for m, p in table.fake.calls[start:] if p.get("chat_id") == user["id"]]
    assert mine[-1] == "sendMessage" and mine.count("sendMessage") == 1  # the ping, no deletion
    alive = [m for m in table.fake.messages(user) if not m.deleted and m.buttons]
    assert [m.message_id for m in alive] == [table.hand_message(user).message_id]
