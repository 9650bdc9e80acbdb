"""Recording results: every game that ends, or is cancelled once started, goes to the record.

A result hook builds the ``GameRecord`` of the game (seats and sides, people and computer
players, final scores, winners, start and end, house rules, each player's figures from the
game's events) and stores it with ``records.record_result`` inside the transaction that ends
the game, so the game's end and its record (and the ratings) are committed together. The rating
changes of a rated game join the end-of-game announcement waiting in the outbox, as one more
event (``ratings_changed``) for the group's message.

Also wires the leaderboard and statistics commands (``/classifica``, ``/top``,
``/leaderboard``, ``/stats``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import aiosqlite
from telegram import Update
from telegram.ext import Application

import engine
from bot.core.chat_settings import chat_lang
from bot.core.live import LiveGame
from bot.core.services import Services
from bot.games import Ctx
from bot.ratings import handlers as handlers_ratings
from bot.ratings import records

CHANGES_EVENT = "ratings_changed"


def player_figures(
    kind: str, sides: Sequence[Sequence[int]], events: Sequence[dict[str, Any]]
) -> dict[int, dict[str, float]]:
    """Each seat's figures over a whole game from its events.

    - Briscola: ``points``, the card points its side took, summed over the deals;
    - Cirulla: ``scope`` (scopas it made) and ``buone`` (its buone that scored);
    - Belòta: ``capotti`` (deals its side took every trick of), ``contracts_taken`` (contracts
      it declared) and ``contracts_made`` (those its side made).
    """
    seats = [s for side in sides for s in side]
    side_of = {s: i for i, side in enumerate(sides) for s in side}
    counts: dict[int, Counter[str]] = {s: Counter() for s in seats}
    if kind == "briscola":
        for e in events:
            if e["type"] == "deal_scored":
                for s in seats:
                    counts[s]["points"] += e["points"][side_of[s]]
        names = ("points",)
    elif kind == "cirulla":
        for e in events:
            if e["type"] == "scopa":
                counts[e["seat"]]["scope"] += 1
            elif e["type"] == "buona" and not e.get("beaten"):
                counts[e["seat"]]["buone"] += 1
        names = ("scope", "buone")
    elif kind == "belota":
        for e in events:
            if e["type"] == "contract":
                counts[e["declarer"]]["contracts_taken"] += 1
            elif e["type"] == "deal_scored":
                contract = e.get("contract") or {}
                if e.get("result") == "made" and "declarer" in contract:
                    counts[contract["declarer"]]["contracts_made"] += 1
                for item in e.get("items", []):
                    if item["item"] == "capotto":
                        for s in sides[item["team"]]:
                            counts[s]["capotti"] += 1
        names = ("capotti", "contracts_taken", "contracts_made")
    else:
        names = ()
    return {s: {n: float(counts[s][n]) for n in names} for s in seats}


def _moment(text: str | None) -> datetime:
    """A stored timestamp (ISO 8601, UTC) as an aware datetime; now when missing."""
    if text is None:
        return datetime.now(UTC)
    moment = datetime.fromisoformat(text)
    return moment if moment.utcoffset() is not None else moment.replace(tzinfo=UTC)


async def build_record(
    conn: aiosqlite.Connection, live: LiveGame, game: engine.Game
) -> records.GameRecord:
    """The record of a game that is ending (as ``game``) or being cancelled, read inside its
    transaction."""
    row = live.row
    cur = await conn.execute(
        "SELECT started_at, finished_at FROM games WHERE game_id = ?", (row.game_id,)
    )
    started_at, finished_at = await cur.fetchone()
    cur = await conn.execute(
        "SELECT seat, code FROM actions WHERE game_id = ? ORDER BY move_number", (row.game_id,)
    )
    # Replaying the whole action log gives every event, not only the latest ones kept live.
    replay = live.new_engine_game()
    events: list[dict[str, Any]] = []
    for seat, code in await cur.fetchall():
        events += replay.play(seat, code)
    figures = player_figures(row.kind, replay.sides, events)
    players = [
        records.PlayerRecord(
            seat=s.seat,
            team=replay.side_of(s.seat),
            name=s.name,
            user_id=s.user_id if s.computer is None else None,
            is_computer=s.computer is not None,
            figures=figures.get(s.seat, {}),
        )
        for s in row.seats
    ]
    return records.GameRecord(
        kind=row.kind,
        chat_id=row.chat_id,
        chat_title=row.chat_title,
        players=players,
        scores=list(game.scores),
        winners=list(game.winners) if game.is_over else [],
        started_at=_moment(started_at),
        ended_at=_moment(finished_at),
        house_rules=dict(row.rules),
        cancelled=not game.is_over,
        game_id=row.game_id,
    )


async def record_game(conn: aiosqlite.Connection, live: LiveGame, game: engine.Game) -> None:
    """The result hook: record the game and, when rated, announce the group's rating changes.

    A table of computer players only has nobody to record: it ends without a record.
    """
    if all(s.user_id is None for s in live.row.seats):
        return
    record = await build_record(conn, live, game)
    recorded = await records.record_result(conn, record)
    changes = [c for c in recorded.changes if c.scope == record.chat_id]
    if not changes:
        return
    seat_of = {p.user_id: p.seat for p in record.players if p.user_id is not None}
    event = {
        "type": CHANGES_EVENT,
        "changes": [
            {"seat": seat_of[c.user_id], "before": c.before, "after": c.after} for c in changes
        ],
    }
    # The end-of-game announcement was queued in this same transaction: it carries the changes.
    cur = await conn.execute(
        "SELECT outbox_id, payload FROM outbox WHERE game_id = ? ORDER BY outbox_id DESC LIMIT 1",
        (live.game_id,),
    )
    found = await cur.fetchone()
    if found is None:
        return
    payload = json.loads(found[1])
    payload["events"].append(event)
    await conn.execute(
        "UPDATE outbox SET payload = ? WHERE outbox_id = ?", (json.dumps(payload), found[0])
    )


def _signed(delta: int) -> str:
    return f"{delta:+d}" if delta else "±0"


def change_lines(ctx: Ctx, event: dict[str, Any]) -> list[str]:
    """The lines of the end-of-game message that show each player's new rating."""
    lines = [ctx.t("result-ratings-title")]
    for c in sorted(event["changes"], key=lambda c: c["seat"]):
        lines.append(
            ctx.t(
                "result-rating-change",
                player=ctx.name(c["seat"]),
                before=c["before"],
                after=c["after"],
                delta=_signed(c["after"] - c["before"]),
            )
        )
    return lines


def register(application: Application) -> None:
    """The leaderboard and statistics commands, on the bot's database and translations."""

    async def lang_of(update: Update) -> str:
        # The chat's language, as every command writes in it (a group's /lingua choice).
        svc = application.bot_data["services"]
        return await chat_lang(svc, update.effective_chat, update.effective_user)

    handlers_ratings.register(
        application,
        get_conn=lambda: application.bot_data["services"].storage.conn,
        translator=application.bot_data["translator"],
        lang_of=lang_of,
        min_games=application.bot_data["settings"].ratings_min_games,
    )


async def setup(application: Application, svc: Services) -> None:
    """At start-up: record every game that ends from now on, and show rating changes."""
    svc.result_hooks.append(record_game)
    svc.extras.event_lines[CHANGES_EVENT] = change_lines
