"""Results and ratings through the fake Bot API: every finished game is recorded in the
transaction that ends it; games between people are rated and reach ``/classifica``; games with a
computer player or cancelled ones are recorded but not rated; ``/stats`` answers."""

from __future__ import annotations

import random

import pytest

import engine
from bot.ratings.results import player_figures
from tests.bot.computers.test_computers import add_label, open_lobby, play_humans_to_end, settle
from tests.bot.conftest import t


@pytest.fixture(autouse=True)
def settings_for_results(monkeypatch):
    """Two rated games put a player in the tables; computers play at once."""
    monkeypatch.setenv("RATINGS_MIN_GAMES", "2")
    monkeypatch.setenv("COMPUTER_PAUSE", "0")
    monkeypatch.setenv("COMPUTER_BUDGET_MS", "10")


async def fetch(bot, sql: str, *params) -> list[tuple]:
    """Rows of a query on the bot's database."""
    cur = await bot.svc.storage.conn.execute(sql, params)
    return list(await cur.fetchall())


async def command(table, user: dict, text: str) -> str:
    """A user types a command in the group; the bot's answer."""
    await table.bot.feed(table.fake.send_text(user, table.group, text))
    return table.fake.last_message(table.group).text


async def test_rated_games_reach_the_leaderboard_after_enough_games(bot, make_table):
    table = make_table(2)
    alice, bob = table.users
    await table.start("briscola", 2)
    await table.play_to_end(random.Random(4))
    # The end-of-game message shows the group's ratings moving.
    final = table.fake.last_message(table.group).text
    assert t("result-ratings-title") in final
    assert final.count("→") == 2

    rows = await fetch(bot, "SELECT game_id, kind, cancelled, rated FROM results")
    assert rows == [(table.game_id, "briscola", 0, 1)]
    # One game is not enough yet: "In classifica chi ha almeno 2 partite valutate".
    answer = await command(table, alice, "/classifica")
    assert t("ratings-board-empty") in answer
    assert t("ratings-you-unranked", games=1, missing=1) in answer

    final_message = next(
        m
        for m in reversed(table.group_messages())
        if any(text == t("btn-rematch") for text, _ in m.buttons)
    )
    await table.press(bob, final_message, t("btn-rematch"))
    live = await bot.svc.games.in_chat(table.group["id"])
    table.game_id = live.game_id
    await table.play_to_end(random.Random(5))

    answer = await command(table, alice, "/classifica briscola")
    assert t("ratings-board-empty") not in answer
    assert "Bob_*" in answer and "Alice" in answer
    ratings = await fetch(bot, "SELECT scope, user_id, games FROM ratings ORDER BY scope, user_id")
    # Each game is rated in the group's table and in the global one.
    assert sorted(ratings) == [
        (table.group["id"], alice["id"], 2),
        (table.group["id"], bob["id"], 2),
        (0, alice["id"], 2),
        (0, bob["id"], 2),
    ]
    await settle(bot)


async def test_a_game_with_a_computer_is_recorded_but_not_rated(bot, make_table):
    table = make_table(1)
    alice = table.users[0]
    await open_lobby(table, "/nuova briscola 2")
    await table.press(alice, table.lobby(), add_label("easy"))
    await table.press(alice, table.lobby(), t("btn-start"))
    await settle(bot)
    await play_humans_to_end(table, random.Random(8))

    rows = await fetch(bot, "SELECT result_id, cancelled, rated FROM results")
    assert [r[1:] for r in rows] == [(0, 0)]
    seats = await fetch(
        bot, "SELECT seat, team, user_id, is_computer FROM result_seats ORDER BY seat"
    )
    assert seats == [(0, 0, alice["id"], 0), (1, 1, None, 1)]
    assert await fetch(bot, "SELECT * FROM ratings") == []
    final = table.fake.last_message(table.group).text
    assert t("result-ratings-title") not in final
    # Briscola's figure: the card points each side took; a deal has 120 in all.
    points = await fetch(
        bot, "SELECT value FROM result_figures WHERE figure = 'points' ORDER BY seat"
    )
    deals = await fetch(bot, "SELECT COUNT(*) FROM actions WHERE game_id = ?", table.game_id)
    assert deals[0][0] == 40 and sum(v for (v,) in points) == 120

    # /stats counts games against computers: they are the player's own record.
    answer = await command(table, alice, "/stats")
    assert t("ratings-stats-title", name=alice["first_name"]) in answer
    assert t("ratings-stat-games") in answer
    answer = await command(table, alice, "/classifica")
    assert t("ratings-none-group") in answer


async def test_a_game_cancelled_after_the_start_is_recorded_as_cancelled(bot, make_table):
    table = make_table(2)
    alice = table.users[0]
    await table.start("briscola", 2)
    await table.play_to_end(random.Random(1), stop_after=3)
    await command(table, alice, "/annulla")
    rows = await fetch(bot, "SELECT game_id, cancelled, rated FROM results")
    assert rows == [(table.game_id, 1, 0)]
    winners = await fetch(bot, "SELECT SUM(won) FROM result_seats")
    assert winners == [(0,)]
    assert await fetch(bot, "SELECT * FROM ratings") == []


async def test_a_lobby_cancelled_before_the_start_is_not_recorded(bot, make_table):
    table = make_table(2)
    await table.seat_everybody("briscola", 2)
    await command(table, table.users[0], "/annulla")
    assert await fetch(bot, "SELECT * FROM results") == []


def _play_out(kind: str, players: int, seed: int) -> tuple[engine.Game, list[dict]]:
    game = engine.new_game(kind, players, seed=seed)
    rng = random.Random(seed)
    events: list[dict] = []
    while not game.is_over:
        seat = game.current_seat
        events += game.play(seat, rng.choice(game.legal_actions(seat)))
    return game, events


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_figures_agree_with_the_scoresheets(seed):
    # Briscola: "i punti delle carte prese" — 120 in each deal, shared between the sides.
    game, events = _play_out("briscola", 3, seed)
    figures = player_figures("briscola", game.sides, events)
    deals = sum(1 for e in events if e["type"] == "deal_scored")
    assert sum(f["points"] for f in figures.values()) == 120 * deals

    # Cirulla: each side's scopas are what the count credits under "scope".
    game, events = _play_out("cirulla", 2, seed)
    figures = player_figures("cirulla", game.sides, events)
    scopas = [0, 0]
    for e in events:
        if e["type"] == "scopa":
            scopas[e["side"]] += 1
    assert [figures[0]["scope"], figures[1]["scope"]] == scopas
    scored = [b for b in events if b["type"] == "buona" and not b["beaten"]]
    assert figures[0]["buone"] + figures[1]["buone"] == len(scored)

    # Belòta: one contract a hand played, made by its side or not; a capotto counts for both
    # partners.
    game, events = _play_out("belota", 4, seed)
    figures = player_figures("belota", game.sides, events)
    sheets = [e for e in events if e["type"] == "deal_scored"]
    assert sum(f["contracts_taken"] for f in figures.values()) == sum(
        1 for e in events if e["type"] == "contract"
    )
    assert sum(f["contracts_made"] for f in figures.values()) == sum(
        1 for e in sheets if e["result"] == "made"
    )
    for side in game.sides:
        assert len({figures[s]["capotti"] for s in side}) == 1
