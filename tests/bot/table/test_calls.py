"""Fewer group messages, the same game: forced last cards played by the bot, the deal's end in its
result message, quiet actions shown with the next card, and the group's edit window.

Telegram allows about 20 messages a minute in a group (design: "edit in place, coalesce the
edits ..., never flood"); these tests name each way the bot keeps under one group call per card.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from telegram import Update

import engine
from bot.core.settings import Settings
from bot.delivery.limits import Limits
from bot.delivery.pacing import GROUP_PERIOD
from bot.games import ui_for
from bot.table import screens
from bot.table.play import TAIL_HAND, forced_tail
from tests.bot.conftest import Table, t

ANNOUNCED = {kind: ui_for(kind).announced for kind in ("briscola", "cirulla", "belota")}


def group_calls(table: Table, start: int) -> list[tuple[str, dict]]:
    """The message calls made in the group since ``start``."""
    return [
        (method, params)
        for method, params in table.fake.calls[start:]
        if method in ("sendMessage", "editMessageText") and params["chat_id"] == table.group["id"]
    ]


async def until(condition, what: str) -> None:
    """Let the bot's background tasks run until ``condition()`` holds (a bounded number of
    turns of the event loop, not a timing)."""
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"never: {what}")


# -- forced_tail: the rest of the deal when nobody has a choice ----------------------------------
def play_until(game: engine.Game, rng: random.Random, stop) -> bool:
    """Random legal actions until ``stop(game)`` holds (True) or the game ends (False)."""
    while not game.is_over:
        if stop(game):
            return True
        legal = game.legal_actions(game.current_seat)
        game.play(game.current_seat, rng.choice(legal))
    return False


def test_the_last_trick_is_forced_and_the_tail_ends_the_deal():
    """Briscola: "every hand holds one card" at the last trick, so nobody has a choice; the tail
    plays every hand's last card and its last play scores the deal (and here ends the game)."""
    game = engine.new_game("briscola", 2, seed=5)
    assert play_until(game, random.Random(5), lambda g: max(g.view(None)["hand_sizes"]) == 1)
    before = game.view(None)
    tail = forced_tail(game, ANNOUNCED["briscola"])
    assert game.view(None) == before, "the tail is worked out on a copy"
    assert [seat for seat, _ in tail] == [game.current_seat, 1 - game.current_seat]
    assert [code for _, code in tail] == [game.view(s)["hand"][0] for s, _ in tail]
    events = []
    for seat, code in tail:
        events += game.play(seat, code)
    assert game.is_over and events[-2]["type"] == "deal_scored"


def test_a_choice_left_anywhere_in_the_deal_means_no_tail():
    """Two cards in hand in Briscola (no obligation to follow): a choice, so no tail; and in
    Cirulla a last card that can capture in two ways stops the tail before anything is played."""
    game = engine.new_game("briscola", 2, seed=5)
    assert play_until(game, random.Random(5), lambda g: max(g.view(None)["hand_sizes"]) == 2)
    assert forced_tail(game, ANNOUNCED["briscola"]) == []

    found = 0
    for seed in range(60):
        game = engine.new_game("cirulla", 2, seed=seed)
        rng = random.Random(seed)

        def choice_ahead(g: engine.Game) -> bool:
            # The last lap of the deal, where some later play has a choice.
            view = g.view(None)
            if view["turn"] < view["turns"] or max(view["hand_sizes"]) > 1:
                return False
            trial = g.copy()
            while not trial.is_over and max(trial.view(None)["hand_sizes"]) == 1:
                legal = trial.legal_actions(trial.current_seat)
                if len(legal) > 1:
                    return True
                trial.play(trial.current_seat, legal[0])
            return False

        if play_until(game, rng, choice_ahead):
            assert forced_tail(game, ANNOUNCED["cirulla"]) == []
            found += 1
    assert found, "no deal with a choice in its last lap among the seeds tried"


def test_no_tail_is_looked_for_while_a_hand_is_big():
    """Belòta: with more than ``TAIL_HAND`` cards in some hand the tail is not looked for, even
    during the bidding (where passing is always allowed)."""
    game = engine.new_game("belota", 4, seed=3)
    assert max(game.view(None)["hand_sizes"]) > TAIL_HAND
    assert forced_tail(game, ANNOUNCED["belota"]) == []


# -- in the bot: the deal's end ------------------------------------------------------------------
async def test_the_last_trick_is_played_by_the_bot_and_shown_in_the_result_message(bot, make_table):
    """The press that leaves every hand one card makes the bot play the last trick: the table
    (the bot's latest group message) becomes the result, with the last tricks, the count, the
    winner and the rematch button; no separate edit for the last cards, no new message."""
    table = make_table(2)
    await table.start("briscola", 2)
    rng = random.Random(8)
    live = await bot.svc.games.get(table.game_id)
    while max(live.game.view(None)["hand_sizes"]) > 2 or live.game.view(None)["trick"]:
        await table.play_one(rng)
    # Two cards each and a new trick to lead: this trick and the next remain.
    table_id = live.row.table_message_id
    start = len(table.fake.calls)
    await table.play_one(rng)  # the leader's card: the other still has a choice
    assert not live.game.is_over
    await table.play_one(rng)  # the answer: now every hand holds one card
    calls = group_calls(table, start)
    assert live.game.is_over
    assert len(await bot.svc.storage.actions(table.game_id)) == 40  # 38 presses + 2 by the bot
    assert [m for m, _ in calls] == ["editMessageText", "editMessageText"], calls
    assert all(p["message_id"] == table_id for _, p in calls)  # the first card, then the end
    result = calls[-1][1]["text"]
    assert t("deal-forced-plays") in result
    # Under the deal's title and before the count: the trick the press completed, then the
    # bot's word that it played the rest, then the last trick (the one it played).
    assert result.count("La mano (la presa)") == 2
    lines = result.splitlines()
    assert lines[0].startswith("🧮")
    assert lines[1].startswith("La mano (la presa)") and lines[2] == t("deal-forced-plays")
    assert lines[3].startswith("La mano (la presa)")
    last = table.fake.last_message(table.group)
    assert last.message_id == table_id and t("btn-rematch") in [x for x, _ in last.buttons]
    assert live.row.table_message_id is None  # no table left to edit
    table.bot.check_clean()


async def test_the_last_card_of_a_deal_is_shown_in_the_result_message_not_by_a_table_edit(
    bot, make_table
):
    """Cirulla: the press that ends a deal turns the table into the deal's result (the deal's
    last plays, where the cards left on the table went, the count) and sends the next deal's
    table below it: two group calls, as a table edit and a result message cost; the last
    deal's result also names the winner and carries the rematch button, the only one of the
    game."""
    table = make_table(2)
    await table.start("cirulla", 2)
    rng = random.Random(4)
    results = []
    while not table.finished():
        start = len(table.fake.calls)
        table_id = table.table().message_id
        await table.play_one(rng)
        calls = group_calls(table, start)
        ended = [p["text"] for _, p in calls if p["text"].startswith("🧮")]
        if ended:
            assert len(ended) == 1 and calls[0][1].get("message_id") == table_id, calls
            if not table.finished():
                assert [m for m, _ in calls] == ["editMessageText", "sendMessage"], calls
                assert table.table().message_id > table_id  # the new table is below
            results.append(ended[0])
    assert len(results) >= 2
    for text in results:
        lines = text.splitlines()
        assert lines[0].startswith("🧮"), text
        # The last card of the deal, with or without a capture, right under the title.
        assert any(w in line for line in lines[1:4] for w in (" cala ", " prende ")), text
    last = table.fake.last_message(table.group)
    assert t("btn-rematch") in [text for text, _ in last.buttons]
    rematch = [m for m in table.group_messages() if t("btn-rematch") in [x for x, _ in m.buttons]]
    assert rematch == [last]


# -- quiet actions --------------------------------------------------------------------------------
async def test_a_declaration_is_shown_on_the_table_with_the_players_card(bot, make_table):
    """Belòta: "declare" leaves the same player to play a card; the group's table shows the
    declaration together with that card, in one edit, while the hand message changes at once."""
    table = make_table(4)
    await table.start("belota", 4)
    live = await bot.svc.games.get(table.game_id)
    rng = random.Random(1)
    for _ in range(400):
        game = live.game
        if game.is_over:
            break
        if "declare" in game.legal_actions(game.current_seat):
            break
        await table.play_one(rng)
    else:
        raise AssertionError("nobody could declare")
    assert not live.game.is_over, "nobody could declare before the end"
    seat = live.game.current_seat
    user = table.users[seat]
    start = len(table.fake.calls)
    move = live.game.move_number
    answer = await table.press(user, table.hand_message(user), t("belota-bid-declare"))
    assert answer is not None and not answer.get("show_alert"), answer
    assert group_calls(table, start) == [], "the table waits for the card"
    # The hand message at once: its card buttons are for the next move, without "declare".
    buttons = [d for _, d in table.hand_message(user).buttons]
    assert buttons and all(d.startswith(f"a:{table.game_id}:{move + 1}:") for d in buttons)
    assert not any(d.endswith(":declare") for d in buttons)
    table_text = table.fake.message(table.group, live.row.table_message_id).text
    assert "accusa" not in table_text
    card = next(code for code in live.game.legal_actions(seat) if code != "declare")
    start = len(table.fake.calls)
    await press_card(table, live, seat, card)
    await bot.svc.renderer.drain()
    edits = group_calls(table, start)
    assert [m for m, _ in edits] == ["editMessageText"], edits
    assert "accusa" in edits[0][1]["text"]  # "belota-declared": "{ $player } accusa: ..."
    assert edits[0][1]["text"] == screens.table_screen(bot.svc.tr, live).text


# -- the group's edit window ---------------------------------------------------------------------
async def test_table_edits_within_the_window_are_one_edit_and_hands_do_not_wait(bot, make_table):
    """Two cards played within the group's window: the next player's hand message shows their
    buttons at once, the table is edited once, showing both cards' effect."""
    table = make_table(2)
    await table.start("briscola", 2)
    live = await bot.svc.games.get(table.game_id)
    bot.svc.renderer.pacing.window = 60.0  # a window longer than the test: only a flush ends it
    first = live.game.current_seat
    start = len(table.fake.calls)
    card = live.game.legal_actions(first)[0]
    await press_card(table, live, first, card)
    other = table.users[1 - first]
    await until(
        lambda: any(d.startswith("a:") for _, d in table.hand_message(other).buttons),
        "the next player's buttons",
    )
    assert group_calls(table, start) == [], "the table waits for the window"
    second = live.game.current_seat
    await press_card(table, live, second, live.game.legal_actions(second)[0])
    await bot.svc.renderer.flush()
    edits = group_calls(table, start)
    assert [m for m, _ in edits] == ["editMessageText"], edits
    assert edits[0][1]["text"] == screens.table_screen(bot.svc.tr, live).text


async def test_a_pass_with_nothing_new_for_the_group_ends_at_once(bot, make_table):
    """The table already shows the game (its last edit drew every change): a pass marked for
    the group again (a change that came while that edit was being made) makes no call and
    does not wait out the group's window."""
    table = make_table(2)
    await table.start("briscola", 2)
    renderer = bot.svc.renderer
    renderer.pacing.window = 3600.0  # the table was just sent: the window is open
    start = len(table.fake.calls)
    renderer.refresh(table.game_id)
    await asyncio.wait_for(renderer.drain(), 30)  # the bound catches a pass that waits
    assert group_calls(table, start) == []


async def test_the_window_never_holds_the_bids_of_the_next_bidder(bot, make_table):
    """Belòta's bids are buttons on the table: after a bid the next bidder's buttons show at
    once, whatever the window, and the bid that ends the bidding takes the bids away at once."""
    table = make_table(4)
    await table.start("belota", 4)
    live = await bot.svc.games.get(table.game_id)
    bot.svc.renderer.pacing.window = 60.0
    for _ in range(3):
        seat = live.game.current_seat
        move = live.game.move_number
        table_message = table.fake.message(table.group, live.row.table_message_id)
        bids = [d for _, d in table_message.buttons if d.startswith(f"a:{table.game_id}:{move}:")]
        assert bids, table_message.buttons
        update = table.fake.press(table.users[seat], table_message, bids[0])  # "pass" first
        await bot.app.process_update(Update.de_json(update, bot.app.bot))
        bidding = live.game.view(None)["phase"] == "bidding"

        def shown(m: int = move, bidding: bool = bidding) -> bool:
            data = [
                d for _, d in table.fake.message(table.group, live.row.table_message_id).buttons
            ]
            old = any(d.startswith(f"a:{table.game_id}:{m}:") for d in data)
            new = any(d.startswith(f"a:{table.game_id}:{m + 1}:") for d in data)
            return not old and new == bidding

        await until(shown, "the next bidder's buttons, or none once the bidding is over")
    assert live.game.view(None)["phase"] == "playing"  # the seed's bids: take, sensa, contru
    await bot.svc.renderer.flush()


async def press_card(table: Table, live, seat: int, code: str) -> None:
    """The player presses a card in their hand message, without waiting for the group."""
    user = table.users[seat]
    message = table.hand_message(user)
    data = next(d for _, d in message.buttons if d.startswith("a:") and d.endswith(f":{code}"))
    update = table.fake.press(user, message, data)
    await table.bot.app.process_update(Update.de_json(update, table.bot.app.bot))


def test_the_window_leaves_a_quarter_of_the_group_rate_and_is_checked():
    """20 messages a minute in a group: the table's edits take three quarters of them by
    default (one every 4 seconds), the rest is left for results, new tables and bids; a
    negative window is refused naming the setting."""
    limits = Limits.of(Settings(telegram_bot_token="1:abc", _env_file=None))
    assert limits.group_edit_window == GROUP_PERIOD / (limits.group_rate * 3 / 4) == 4.0
    with pytest.raises(ValueError, match="group_edit_window"):
        Settings(telegram_bot_token="1:abc", group_edit_window=-1, _env_file=None)


@pytest.mark.parametrize(("kind", "players"), [("briscola", 4), ("cirulla", 2), ("belota", 4)])
def test_a_quiet_action_leaves_the_same_player_to_play_a_card(kind, players):
    """The table waits after a quiet action (declaration, knock, partner look) only because the
    same player must still play a card, which brings the table up to date."""
    quiet = ui_for(kind).quiet
    seen = 0
    for seed in range(12):
        game = engine.new_game(kind, players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.current_seat
            legal = game.legal_actions(seat)
            code = next((c for c in legal if c in quiet), None) or rng.choice(legal)
            events = game.play(seat, code)
            if code in quiet:
                seen += 1
                assert game.current_seat == seat, (code, events)
                assert not any(e["type"] in ui_for(kind).announced for e in events)
    assert seen, f"no {sorted(quiet)} in the games tried"
