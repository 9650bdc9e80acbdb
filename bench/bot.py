"""The bot under load: button presses handled per second, time per press, Bot API calls per card.

Whole games are played against the fake Bot API (in process) on a real SQLite file, every action
a button press carrying the callback data the bot drew. Three ways of pressing:

- paced: after each press, wait until every message is up to date (players slower than the
  bot: nothing to coalesce, the worst case for calls per card; a group edit window would only
  make the wait longer, so it is off);
- human: each press comes after a think time drawn from a log-normal law (median 2.5 s, most
  between 1 and 6 s, never under 0.7 s), on a button the player's message shows, with the
  group edit window of ``bot/delivery/pacing.py`` (or ``--window``); think times, the window and
  the gap between two messages to one private chat are all multiplied by ``--scale`` so that
  the bench stays fast (at 0.01 the bot's own milliseconds weigh against a 30 ms window, and
  the figure moves with the machine's load; at 0.05 they hardly do);
- burst: each press as soon as its button shows, while each Bot API call takes ``--latency``
  ms (players who never think, on a distant Bot API: the renderer folds the changes made
  while a call is answered; no window).

Printed per game and mode: the Bot API calls per card played in the group and in private chats
(callback answers apart; from the start of the game to its last message, bids and results
included; the cards the bot plays itself when nobody has a choice left count as cards played);
and, paced, presses per second and the p50/p99 time to handle one card-play press (decode,
engine, SQLite commit, callback answer; rendering runs in the background). With ``--causes``,
the group calls per card split by what each was for when it was made: a table edit after a
card, a bid or another action (with the bidding's buttons or not), a table sent (a new deal's),
a result message, a table turned into the deal's result, a deletion; and the private calls per
card by method (the pings are the private ``sendMessage``).

Also printed: pings per human turn (hands sent afresh to the player to act; 1.00 is one per
turn), the total calls per card, group and private together, deletions included, and the
private calls per human turn (a turn's ping, the deletion of the hand it replaces, and the edits
of that player's hand while they wait: their card gone, a card drawn, a new deal).

``--load``: instead, ``--load-games`` games of ``--load-kind`` at once on one bot with the rate
limits of ``bot/delivery/pacing.py`` (about 30 calls a second in all, 20 a minute per group), the
group edit window and the private gap at their defaults. Each player presses after the human
mode's think time (unscaled: median 2.5 s, never under 0.7 s) counted from the moment their
buttons show; ``--think 0`` presses at once. Printed over ``--load-seconds`` once every game has
started (and ``--load-warmup`` seconds more): the presses offered (games over the mean think
time: what players would press on an infinitely fast bot) and served a second, cards per
second, the message calls and the press answers per second and per card (messages count in the
30-a-second budget, answers go at once), and the p50/p95/p99 time from a press to the next
player's buttons (their ping, or their page's update). ``--webapp-share F``: that share of the
seats plays from the Mini App page (open and in front: no ping, no private edit; their plays
go through the page's path). ``--enforce N``: once every game has started, the fake refuses
with 429 past N calls a second (every method) and one a second per private chat; printed also
the bot's rate as the fake counts it over the last half of the window, the calls refused and
the presses answered twice.

Why players who think: each game has one press outstanding at a time (a closed loop), so by
Little's law presses/s = games / (think + press-to-ping time). With no think time the mean wait
is games / throughput whatever the bot does: 50 games at 11 cards a second wait 4.5 s on
average, so a p95 under 3 s cannot be had; the figure then measures the queue, not the bot.
With human think times (about 3.0 s on average) the same throughput leaves 50 / 11 - 3.0 =
1.5 s, and every call a card saves shows in both figures.

``--forum N`` (again for more lines): N games of ``--forum-kind`` (briscola-2) at once, each in
its own topic of one forum group, under Telegram's limits and the bot's defaults, players
thinking as humans do (unscaled), on a virtual clock (``tests/virtual_time.py``: the loop's
clock jumps over its idle waits, so that minutes of play take seconds). Printed per line: the
cards played, the Bot API calls per card in the group, in private and in all, the group's
busiest minute of new messages and of all its calls (a forum's topics share the group's 20 a
minute), the virtual minutes the games took, and the bot's messages left in General (0).

    python bench/bot.py [--games 4] [--latency 20] [--scale 0.05] [--kind briscola] [--causes]
                        [--players 4] [--mode human] [--window 3]
    python bench/bot.py --load [--load-games 50] [--load-kind briscola-2] [--load-seconds 30]
                        [--think 1] [--load-warmup 5] [--webapp-share 0] [--enforce 0]
    python bench/bot.py --forum 2 --forum 4 [--forum-kind briscola-2]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import math
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from telegram import Update

import engine
from bot.app import build_application
from bot.core.callbacks import action_callback
from bot.core.settings import Settings
from bot.delivery.pacing import GROUP_EDIT_WINDOW, PRIVATE_GAP
from bot.games import offered_kinds, player_counts, ui_for
from bot.webapp.tables import WebTables
from tests.fake_telegram import FakeRequest, FakeTelegram

MESSAGE_METHODS = (
    "sendMessage",
    "editMessageText",
    "deleteMessage",
    "deleteMessages",
    "editMessageReplyMarkup",
)
ANSWER_METHODS = ("answerCallbackQuery", "answerInlineQuery")
MODES = ("paced", "human", "burst")
# A player's think time before a press, in seconds: log-normal around the median.
THINK_MEDIAN = 2.5
THINK_SIGMA = 0.6
THINK_MIN = 0.7
THINK_MAX = 30.0


def think_time(rng: random.Random) -> float:
    """Seconds a player takes to choose, read the table and press (before scaling)."""
    return min(THINK_MAX, max(THINK_MIN, rng.lognormvariate(math.log(THINK_MEDIAN), THINK_SIGMA)))


async def feed(app, fake_update: dict) -> float:
    """Hand one update to the bot; the seconds it took to handle it."""
    start = time.perf_counter()
    await app.process_update(Update.de_json(fake_update, app.bot))
    return time.perf_counter() - start


async def shown(
    fake: FakeTelegram, chat: dict, message_id: Callable[[], int | None], data: str
) -> int:
    """Wait until the message ``message_id()`` names shows a button with ``data`` (what a
    player can press), and return its id: read again each time, as a ping sends the hand
    afresh and deletes the old one."""
    for _ in range(10_000):
        mid = message_id()
        if mid is not None:
            msg = fake.message(chat, mid)
            if not msg.deleted and any(d == data for _, d in msg.buttons):
                return mid
        await asyncio.sleep(0.001)
    raise RuntimeError(f"the button {data} never showed")


class CallLog(list):
    """The fake's call log, which also notes what each group call was for when it was made
    (``cause``), in ``causes``."""

    def __init__(self, calls: list, cause: Callable[[str, dict], str | None]) -> None:
        super().__init__(calls)
        self.cause = cause
        self.causes: Counter[str] = Counter()

    def append(self, item: tuple[str, dict]) -> None:
        super().append(item)
        method, params = item
        if method in MESSAGE_METHODS and params.get("chat_id", 0) < 0:
            label = self.cause(method, params)
            if label is not None:
                self.causes[label] += 1


def _has_button(params: dict, op: str) -> bool:
    markup = params.get("reply_markup") or {}
    rows = markup.get("inline_keyboard") or [] if isinstance(markup, dict) else []
    return any(str(b.get("callback_data", "")).startswith(op + ":") for r in rows for b in r)


def cause_of(method: str, params: dict, live, pack: tuple[str, ...], ui) -> str:
    """What a group call is for, read when it is made: a table sent (a new deal's, or brought
    down), a result message, the table turned into the deal's result, a deletion, or a table
    edit for the latest action (a card, a bid or another action; "with bids" when the table
    carries or carried the bidding's buttons)."""
    if method.startswith("delete"):
        return "deletion"
    table = _has_button(params, "h")  # the table's "my cards" button
    if method == "sendMessage":
        return "table sent" if table else "result message"
    if not table:
        return "table -> result"
    game = live.game
    code = game.actions[-1] if game is not None and game.actions else ""
    what = "card" if code[:2] in pack else code.split(":")[0] or "start"
    if _has_button(params, "a"):
        return f"table: {what} (bid buttons)"
    return f"table: {what}"


async def play_game(
    kind: str,
    players: int,
    seed: int,
    mode: str,
    latency: float,
    scale: float,
    db: Path,
    window: float | None = None,
):
    """One game from /nuova to the end; returns (card press times, group, private, cards)."""
    fake = FakeTelegram()
    window = window if window is not None else GROUP_EDIT_WINDOW
    window = window * scale if mode == "human" else 0
    # The gap between two messages to one private chat, scaled with the think times (at 1 s
    # while players think for 25 ms, it would hold every other message back).
    gap = PRIVATE_GAP * (scale if mode == "human" else 1)
    settings = Settings(
        telegram_bot_token=fake.token,
        database_path=db,
        group_max_rate=0,
        overall_max_rate=0,
        group_edit_window=window,
        private_gap=gap,
        _env_file=None,
    )
    app = build_application(
        settings, FakeRequest(fake, latency=latency), publish_commands=False, freeze_heap=True
    )
    await app.initialize()
    await app.post_init(app)
    svc = app.bot_data["services"]
    seeds = itertools.count(seed)
    svc.new_seed = lambda: next(seeds)
    users = [fake.add_user(f"P{i}", language_code="it") for i in range(players)]
    group = fake.add_group(f"Bench {seed}", members=users)
    for user in users:
        await feed(app, fake.start_private(user))
    await feed(app, fake.send_text(users[0], group, f"/nuova {kind} {players}"))
    await svc.renderer.drain()
    live = await svc.games.in_chat(group["id"])
    for i, user in enumerate(users[1:], start=1):
        lobby = fake.message(group, live.row.lobby_message_id)
        join = [d for _, d in lobby.buttons if d.startswith("j:")]
        await feed(app, fake.press(user, lobby, join[i % 2] if players == 4 else join[0]))
        await svc.renderer.drain()
    lobby = fake.message(group, live.row.lobby_message_id)
    start = next(d for _, d in lobby.buttons if d.startswith("s:"))
    await feed(app, fake.press(users[0], lobby, start))
    await svc.renderer.drain()
    first_call = len(fake.calls)

    rng = random.Random(seed)
    thinking = random.Random(seed + 1)  # apart, so that every mode plays the same moves
    ui = ui_for(kind)
    pack = engine.GAMES[kind].pack
    times = []
    # The group's calls by what they were for, noted as they are made.
    fake.calls = log = CallLog(fake.calls, lambda m, p: cause_of(m, p, live, pack, ui))
    # A press is played on a copy that becomes the live game once committed: read it afresh.
    game = live.game
    turns = {(live.turn_started, game.current_seat)} if hasattr(live, "turn_started") else set()
    pings = getattr(svc.renderer, "pings", 0)
    while not live.game.is_over:
        game = live.game
        seat = game.current_seat
        legal = game.legal_actions(seat)
        i = rng.randrange(len(legal))
        code = legal[i]
        data = action_callback(live.game_id, game.move_number, code, i)
        if ui.table_actions(game.view(None)):
            chat, message_id = group, live.row.table_message_id
        else:
            chat, message_id = users[seat], live.row.seat_row(seat).hand_message_id
        if mode != "paced":  # the player presses a button they see
            if mode == "human":
                await asyncio.sleep(think_time(thinking) * scale)
            if chat is group:
                message_id = await shown(fake, chat, lambda: live.row.table_message_id, data)
            else:
                row = live.row.seat_row(seat)
                message_id = await shown(fake, chat, lambda r=row: r.hand_message_id, data)
        update = fake.press(users[seat], fake.message(chat, message_id), data)
        elapsed = await feed(app, update)
        if code[:2] in pack:  # a card, with or without a capture
            times.append(elapsed)
        if not live.game.is_over and hasattr(live, "turn_started"):
            turns.add((live.turn_started, live.game.current_seat))
        if mode == "paced":
            await svc.renderer.drain()
    await svc.renderer.drain()
    # Every card played, the ones the bot played itself when nobody had a choice included.
    cards = sum(1 for _, code in await svc.storage.actions(live.game_id) if code[:2] in pack)
    group_calls = private_calls = 0
    for method, params in fake.calls[first_call:]:
        if method in MESSAGE_METHODS:
            if params["chat_id"] < 0:
                group_calls += 1
            else:
                private_calls += 1
                log.causes[f"private: {method}"] += 1
    pings = getattr(svc.renderer, "pings", 0) - pings
    await app.shutdown()
    await app.post_shutdown(app)
    return times, group_calls, private_calls, cards, log.causes, pings, len(turns)


async def main() -> None:
    """Print one line per game, player count and mode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per line")
    parser.add_argument("--latency", type=float, default=20.0, help="ms per call in burst mode")
    parser.add_argument(
        "--scale", type=float, default=0.05, help="human mode: think times and window times this"
    )
    parser.add_argument("--window", type=float, help="human mode: the group edit window (s)")
    parser.add_argument("--kind", choices=offered_kinds())
    parser.add_argument("--players", type=int, help="only this player count")
    parser.add_argument("--mode", choices=MODES, action="append", help="only this mode (again)")
    parser.add_argument(
        "--causes", action="store_true", help="the group's calls per card by what they were for"
    )
    parser.add_argument("--load", action="store_true", help="many games at once, rate limited")
    parser.add_argument("--load-games", type=int, default=50)
    parser.add_argument("--load-kind", default="briscola-2", help="kind-players")
    parser.add_argument("--load-seconds", type=float, default=30.0)
    parser.add_argument("--load-warmup", type=float, default=5.0, help="seconds not measured")
    parser.add_argument(
        "--think", type=float, default=1.0, help="load mode: think times this (0: none)"
    )
    parser.add_argument(
        "--enforce",
        type=int,
        default=0,
        help="load mode: the fake refuses with 429 past N calls a second (every method) and "
        "one a second per private chat",
    )
    parser.add_argument(
        "--webapp-share",
        type=float,
        default=0.0,
        help="load mode: the share of seats (0..1) that play from the Mini App page",
    )
    args = parser.parse_args()
    kinds = [args.kind] if args.kind else offered_kinds()
    if args.load:
        await load(
            args.load_games,
            args.load_kind,
            args.load_seconds,
            args.causes,
            think=args.think,
            warmup=args.load_warmup,
            enforce=args.enforce,
            webapp_share=args.webapp_share,
        )
        return
    print(
        f"{'game':<12}{'mode':<8}{'presses/s':>10}{'p50 ms':>9}{'p99 ms':>9}"
        f"{'group/card':>12}{'private/card':>14}{'pings/turn':>12}{'total/card':>12}"
        f"{'private/turn':>14}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        n = 0
        for kind in kinds:
            for players in player_counts(kind):
                if args.players not in (None, players):
                    continue
                for mode in args.mode or MODES:
                    latency = args.latency / 1000 if mode == "burst" else 0.0
                    times: list[float] = []
                    group = private = cards = pings = turns = 0
                    causes: Counter[str] = Counter()
                    for g in range(args.games):
                        n += 1
                        result = await play_game(
                            kind,
                            players,
                            1000 * g + 7,
                            mode,
                            latency,
                            args.scale,
                            Path(tmp) / f"{n}.db",
                            args.window,
                        )
                        times += result[0]
                        group += result[1]
                        private += result[2]
                        cards += result[3]
                        causes += result[4]
                        pings += result[5]
                        turns += result[6]
                    times.sort()
                    if mode == "paced":
                        p50 = statistics.median(times) * 1000
                        p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000
                        timing = f"{len(times) / sum(times):>10.0f}{p50:>9.2f}{p99:>9.2f}"
                    else:  # think times or simulated latency run meanwhile: not the bot's time
                        timing = f"{'-':>10}{'-':>9}{'-':>9}"
                    print(
                        f"{kind + ' ' + str(players):<12}{mode:<8}{timing}"
                        f"{group / cards:>12.3f}{private / cards:>14.2f}"
                        f"{pings / max(1, turns):>12.2f}{(group + private) / cards:>12.2f}"
                        f"{private / max(1, turns):>14.2f}"
                    )
                    if args.causes and causes:
                        for cause, count in sorted(causes.items()):
                            print(f"{'':<20}{cause:<28}{count:>6}{count / cards:>12.3f}")


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of some values, by rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


async def load(
    games: int,
    spec: str,
    seconds: float,
    causes: bool = False,
    think: float = 1.0,
    warmup: float = 5.0,
    enforce: int = 0,
    webapp_share: float = 0.0,
) -> None:
    """``games`` games at once on one bot under Telegram's limits: each player presses a
    button shown in their hand (or, for a public choice, on the table), ``think`` times a
    human think time after it showed (0: at once)."""
    kind, players = spec.rsplit("-", 1)
    players = int(players)
    fake = FakeTelegram()
    regime = None
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            telegram_bot_token=fake.token, database_path=Path(tmp) / "load.db", _env_file=None
        )
        app = build_application(
            settings, FakeRequest(fake), publish_commands=False, freeze_heap=True
        )
        await app.initialize()
        await app.post_init(app)
        svc = app.bot_data["services"]
        # The Mini App's tables (the HTTP layer aside: its cost is not Telegram's limits).
        tables = WebTables(svc)
        svc.listeners.insert(0, tables.on_change)
        seeds = itertools.count(7)
        svc.new_seed = lambda: next(seeds)
        ui = ui_for(kind)
        state = {"measuring": False, "stop": False, "cards": 0, "presses": 0}
        waits: list[float] = []
        thoughts: list[float] = []

        def visible(chat: dict, message_id: int | None, data: str) -> bool:
            if message_id is None:
                return False
            message = fake.message(chat, message_id)
            return not message.deleted and any(d == data for _, d in message.buttons)

        async def one(n: int, started: asyncio.Event) -> None:
            users = [fake.add_user(f"L{n}P{i}", language_code="it") for i in range(players)]
            group = fake.add_group(f"Load {n}", members=users)
            for user in users:
                await feed(app, fake.start_private(user))
            await feed(app, fake.send_text(users[0], group, f"/nuova {kind} {players}"))
            while (live := await svc.games.in_chat(group["id"])) is None or (
                live.row.lobby_message_id is None
            ):
                await asyncio.sleep(0.05)
            for i, user in enumerate(users[1:], start=1):
                while True:
                    lobby = fake.message(group, live.row.lobby_message_id)
                    join = [d for _, d in lobby.buttons if d.startswith("j:")]
                    if join:
                        break
                    await asyncio.sleep(0.05)
                await feed(app, fake.press(user, lobby, join[i % 2] if players == 4 else join[0]))
            while not any(
                d.startswith("s:")
                for _, d in fake.message(group, live.row.lobby_message_id).buttons
            ):
                await asyncio.sleep(0.05)
            lobby = fake.message(group, live.row.lobby_message_id)
            start = next(d for _, d in lobby.buttons if d.startswith("s:"))
            await feed(app, fake.press(users[0], lobby, start))
            started.set()
            # The seats that play from the Mini App page: open and in front all game long.
            share = random.Random(20_000 + n)
            at_page = {s for s in range(players) if share.random() < webapp_share}
            for seat in at_page:
                svc.presence.opened(live.game_id, users[seat]["id"])
            rng = random.Random(n)
            thinking = random.Random(10_000 + n)
            game = live.game
            pressed = time.perf_counter()
            while not state["stop"] and not live.game.is_over:
                game = live.game
                seat = game.current_seat
                legal = game.legal_actions(seat)
                i = rng.randrange(len(legal))
                code = legal[i]
                data = action_callback(live.game_id, game.move_number, code, i)
                user = users[seat]

                def where(seat=seat, data=data, user=user, game=game) -> tuple | None:
                    """The message showing the button to press, if any shows it yet (a page
                    shows it as soon as the move that made the turn is committed)."""
                    if seat in at_page:
                        return ("page", None)
                    hand = live.row.seat_row(seat).hand_message_id
                    if visible(user, hand, data):
                        return user, hand
                    table = live.row.table_message_id
                    if ui.table_actions(game.view(None)) and visible(group, table, data):
                        return group, table
                    return None

                while not state["stop"] and (found := where()) is None:
                    await asyncio.sleep(0.01)
                if state["stop"]:
                    return
                if state["measuring"]:
                    waits.append(time.perf_counter() - pressed)
                if think > 0:
                    pause = think_time(thinking) * think
                    if state["measuring"]:
                        thoughts.append(pause)
                    await asyncio.sleep(pause)
                    # The button may have moved meanwhile (a reminder sends the hand afresh).
                    while not state["stop"] and (found := where()) is None:
                        await asyncio.sleep(0.01)
                    if state["stop"]:
                        return
                chat, message_id = found
                pressed = time.perf_counter()
                measured = state["measuring"]
                if chat == "page":
                    move = game.move_number
                    if await tables.play(live, seat, move, code) is not None:
                        continue  # refused (a timer's move came first): choose again
                else:
                    await feed(app, fake.press(user, fake.message(chat, message_id), data))
                if measured and state["measuring"]:
                    state["presses"] += 1
                    if code[:2] in engine.GAMES[kind].pack:
                        state["cards"] += 1

        events = [asyncio.Event() for _ in range(games)]
        tasks = [asyncio.create_task(one(n, events[n])) for n in range(games)]
        everyone = asyncio.ensure_future(asyncio.gather(*(e.wait() for e in events)))
        while not everyone.done():
            await asyncio.wait([everyone, *tasks], return_when=asyncio.FIRST_COMPLETED)
            for task in tasks:
                if task.done() and task.exception() is not None:
                    raise task.exception()
        if enforce:
            # Telegram's own regime from the moment every game is under way (during the start
            # of 50 games at once, the games started first would end before the last starts).
            regime = fake.enforce(enforce)
        await asyncio.sleep(warmup)
        calls = len(fake.calls)
        state["measuring"] = True
        began = time.perf_counter()
        await asyncio.sleep(seconds)
        ended = time.monotonic()
        state["measuring"] = False
        state["stop"] = True
        elapsed = time.perf_counter() - began
        finished = sum(task.done() for task in tasks)
        made = sum(1 for m, p in fake.calls[calls:] if m in MESSAGE_METHODS)
        # Press answers go at once, out of the overall budget (they carry no chat id).
        answers = sum(1 for m, _ in fake.calls[calls:] if m in ANSWER_METHODS)
        kinds = Counter(
            f"{m} {'group' if p.get('chat_id', 0) < 0 else 'private'}"
            if m in MESSAGE_METHODS
            else m
            for m, p in fake.calls[calls:]
        )
        refused = sum(1 for e in fake.errors[:] if e.error_code == 429)
        twice = sum(
            1 for e in fake.errors if e.method == "answerCallbackQuery" and e.error_code != 429
        )
        failed = [r for r in await asyncio.gather(*tasks, return_exceptions=True) if r]
        await app.shutdown()
        await app.post_shutdown(app)
    mean_think = statistics.fmean(thoughts) if thoughts else 0.0
    offered = f"{games / mean_think:.1f}" if mean_think else "inf"
    print(
        f"load: {games} games of {spec} at once, {elapsed:.0f} s measured, "
        f"think {think:g} x human (mean {mean_think:.2f} s), {finished} games over "
        f"({len(failed)} players failed{': ' + repr(failed[0]) if failed else ''}), "
        f"{webapp_share:.0%} of seats at the Mini App"
    )
    print(
        f"{'offered/s':>10}{'served/s':>10}{'cards/s':>9}{'calls/s':>9}{'answers/s':>11}"
        f"{'msgs/card':>11}{'ans/card':>10}{'p50 s':>7}{'p95 s':>7}{'p99 s':>7}{'mean s':>8}"
    )
    cards = max(1, state["cards"])
    print(
        f"{offered:>10}{state['presses'] / elapsed:>10.1f}{state['cards'] / elapsed:>9.1f}"
        f"{made / elapsed:>9.1f}{answers / elapsed:>11.1f}{made / cards:>11.2f}"
        f"{answers / cards:>10.2f}"
        f"{percentile(waits, 0.5):>7.2f}{percentile(waits, 0.95):>7.2f}"
        f"{percentile(waits, 0.99):>7.2f}{statistics.fmean(waits):>8.2f}"
    )
    if regime is not None:
        # The bot's rate as Telegram counts it (every method), over the last half of the window.
        half = [t for t in regime.served if ended - seconds / 2 <= t < ended]
        print(
            f"enforced {enforce}/s: the bot's rate over the last {seconds / 2:.0f} s "
            f"{len(half) / (seconds / 2):.1f}/s ({len(half) / (seconds / 2) / enforce:.0%}), "
            f"{refused} calls refused (429), {twice} presses answered twice"
        )
    if causes:
        for kind, count in sorted(kinds.items()):
            print(f"{'':<4}{kind:<30}{count / elapsed:>8.1f}/s{count / state['cards']:>8.2f}/card")


class TimedCalls(list):
    """The fake's call log, with the loop time of each call beside it."""

    def __init__(self, calls: list) -> None:
        super().__init__(calls)
        self.times = [0.0] * len(calls)

    def append(self, item: tuple[str, dict]) -> None:
        super().append(item)
        self.times.append(asyncio.get_running_loop().time())


def busiest_minute(times: list[float]) -> int:
    """The most of these moments that fall within any 60 seconds."""
    times = sorted(times)
    best = first = 0
    for last, moment in enumerate(times):
        while moment - times[first] >= 60:
            first += 1
        best = max(best, last - first + 1)
    return best


async def forum_table(app, fake, group: dict, users: list, kind: str, players: int, n: int):
    """One table of a forum: its topic, its lobby, then every press after a human think time
    (unscaled, on the virtual clock) on a button its player sees; returns the game's id."""
    svc = app.bot_data["services"]
    topic = fake.create_topic(group, f"Tavolo {n}", by=users[0])
    await feed(app, fake.updates[-1])
    await feed(app, fake.send_text(users[0], group, f"/nuova {kind} {players}", topic=topic))
    live = await svc.games.in_chat(group["id"], topic)

    async def visible(chat: dict, message_id, wanted) -> tuple | None:
        while True:
            if message_id() is not None:
                message = fake.message(chat, message_id())
                found = [d for _, d in message.buttons if wanted(d)]
                if found and not message.deleted:
                    return message, found
            await asyncio.sleep(0.05)

    for i, user in enumerate(users[1:], start=1):
        lobby, join = await visible(
            group, lambda: live.row.lobby_message_id, lambda d: d[:2] == "j:"
        )
        await feed(app, fake.press(user, lobby, join[i % 2] if players == 4 else join[0]))
    lobby, start = await visible(group, lambda: live.row.lobby_message_id, lambda d: d[:2] == "s:")
    await feed(app, fake.press(users[0], lobby, start[0]))
    rng, thinking, ui = random.Random(n), random.Random(100 + n), ui_for(kind)
    while not live.game.is_over:
        game = live.game
        seat = game.current_seat
        legal = game.legal_actions(seat)
        i = rng.randrange(len(legal))
        data = action_callback(live.game_id, game.move_number, legal[i], i)
        if ui.table_actions(game.view(None)):
            chat, mid = group, lambda: live.row.table_message_id
        else:
            chat, mid = users[seat], lambda s=seat: live.row.seat_row(s).hand_message_id
        await asyncio.sleep(think_time(thinking))
        message, _ = await visible(chat, mid, lambda d, data=data: d == data)
        await feed(app, fake.press(users[seat], message, data))
    return live.game_id


async def forum(tables: int, spec: str) -> None:
    """``tables`` games of ``spec`` at once, each in its own topic of one forum group, under
    Telegram's limits and the bot's defaults (20 group calls a minute, 30 calls a second, the
    group edit window, the private gap), players thinking as humans do: calls per card and the
    group's busiest minute, on a virtual clock (``tests.virtual_time``) so that it takes
    seconds."""
    kind, players = spec.rsplit("-", 1)
    players = int(players)
    fake = FakeTelegram()
    fake.calls = log = TimedCalls(fake.calls)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            telegram_bot_token=fake.token, database_path=Path(tmp) / "forum.db", _env_file=None
        )
        app = build_application(settings, FakeRequest(fake), publish_commands=False)
        await app.initialize()
        await app.post_init(app)
        svc = app.bot_data["services"]
        seeds = itertools.count(11)
        svc.new_seed = lambda: next(seeds)
        users = [fake.add_user(f"F{i}", language_code="it") for i in range(tables * players)]
        group = fake.add_group("Forum", members=users, forum=True)
        for user in users:
            await feed(app, fake.start_private(user))
        began = asyncio.get_running_loop().time()
        first = len(log)
        game_ids = await asyncio.gather(
            *(
                forum_table(
                    app, fake, group, users[n * players : (n + 1) * players], kind, players, n
                )
                for n in range(tables)
            )
        )
        await svc.renderer.flush()
        elapsed = asyncio.get_running_loop().time() - began
        pack = engine.GAMES[kind].pack
        cards = 0
        for game_id in game_ids:
            cards += sum(1 for _, code in await svc.storage.actions(game_id) if code[:2] in pack)
        group_calls = private = 0
        new_messages, group_times = [], []
        for (method, params), moment in zip(log[first:], log.times[first:], strict=True):
            if method not in MESSAGE_METHODS:
                continue
            if params["chat_id"] == group["id"]:
                group_calls += 1
                group_times.append(moment)
                if method == "sendMessage":
                    new_messages.append(moment)
            else:
                private += 1
        general = len(fake.topic_messages(group, None))
        await app.shutdown()
        await app.post_shutdown(app)
    print(
        f"{f'{tables} x {spec}':<16}{cards:>7}{group_calls / cards:>12.3f}{private / cards:>14.2f}"
        f"{(group_calls + private) / cards:>12.2f}{busiest_minute(new_messages):>11}"
        f"{busiest_minute(group_times):>12}{elapsed / 60:>9.1f}{general:>9}"
    )


async def forums(counts: list[int], spec: str) -> None:
    """One line per number of tables in one forum group."""
    print(
        f"{'forum tables':<16}{'cards':>7}{'group/card':>12}{'private/card':>14}"
        f"{'total/card':>12}{'new/min':>11}{'group/min':>12}{'minutes':>9}{'general':>9}"
    )
    for tables in counts:
        await forum(tables, spec)


if __name__ == "__main__":
    if "--forum" in sys.argv:
        from tests.virtual_time import VirtualTimeLoop

        forum_parser = argparse.ArgumentParser(description="tables in one forum group")
        forum_parser.add_argument("--forum", type=int, action="append", help="tables (again)")
        forum_parser.add_argument("--forum-kind", default="briscola-2", help="kind-players")
        forum_args = forum_parser.parse_args()
        loop = VirtualTimeLoop()
        try:
            loop.run_until_complete(forums(forum_args.forum, forum_args.forum_kind))
        finally:
            loop.close()
    else:
        asyncio.run(main())
