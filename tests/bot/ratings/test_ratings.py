"""Results, ratings, leaderboards and statistics (issue: leaderboards, ratings and statistics).

Each test names the behaviour the issue asks for: rating updates for two players, three players
and pairs; ordering and ties; per-group and global tables kept apart; unrated games kept out;
statistics computed from recorded games; messages that fit Telegram.
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import aiosqlite
import pytest
from telegram.ext import ApplicationBuilder, CommandHandler

from bot.core.i18n import read_game
from bot.core.schema import RATINGS_SCHEMA, migration_statements
from bot.ratings import records
from bot.ratings.elo import Skill, display_rating, initial_skill, placements, rate
from bot.ratings.handlers import RatingsCommands, register
from bot.ratings.records import GameRecord, PlayerRecord
from bot.ratings.screens import MAX_TEXT, Board, render_leaderboard, render_stats, text_width
from tests.translator import TR

GROUP_A, GROUP_B = -1001, -1002
T0 = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


@pytest.fixture
async def conn(tmp_path):
    """A fresh database file holding the records' tables, as the bot's migrations create them."""
    db = await aiosqlite.connect(tmp_path / "records.sqlite3", isolation_level=None)
    await db.execute("PRAGMA foreign_keys=ON")
    for statement in migration_statements(RATINGS_SCHEMA[1]):
        await db.execute(statement)
    yield db
    await db.close()


@pytest.fixture(scope="module")
def tr():
    """The project's translations."""
    return TR


_clock = iter(range(1, 10**6))


def game(
    kind: str,
    sides: list[list[int | None]],
    winners: list[int],
    scores: list[float] | None = None,
    chat_id: int = GROUP_A,
    figures: dict[int, dict[str, float]] | None = None,
    cancelled: bool = False,
    game_id: int | None = None,
) -> GameRecord:
    """A record: ``sides`` lists user ids per team (None for a computer); ``winners`` are teams.

    Seats go round the table as the rules file has it: with pairs, seats 0 and 2 form team 0.
    Each call ends one minute after the previous one, so games have a clear order.
    """
    n_sides = len(sides)
    per_side = len(sides[0])
    players = []
    for team, members in enumerate(sides):
        for i, uid in enumerate(members):
            seat = team + i * n_sides
            players.append(
                PlayerRecord(
                    seat=seat,
                    team=team,
                    name=f"user{uid}" if uid is not None else "CPU",
                    user_id=uid,
                    is_computer=uid is None,
                    figures=(figures or {}).get(uid, {}) if uid is not None else {},
                )
            )
    assert len(players) == n_sides * per_side
    win_seats = [p.seat for p in players if p.team in winners]
    if scores is None:
        scores = [1 if t in winners else 0 for t in range(n_sides)]
    end = T0 + timedelta(minutes=next(_clock))
    return GameRecord(
        kind=kind,
        chat_id=chat_id,
        chat_title="Tavolo",
        players=players,
        scores=scores,
        winners=win_seats,
        started_at=end - timedelta(minutes=20),
        ended_at=end,
        house_rules={"target": 51},
        cancelled=cancelled,
        game_id=game_id,
    )


async def rating_of(conn, kind, scope, user_id) -> Skill | None:
    cur = await conn.execute(
        "SELECT mu, sigma FROM ratings WHERE kind = ? AND scope = ? AND user_id = ?",
        (kind, scope, user_id),
    )
    row = await cur.fetchone()
    return None if row is None else Skill(*row)


async def count(conn, table: str) -> int:
    cur = await conn.execute(f"SELECT COUNT(*) FROM {table}")
    return (await cur.fetchone())[0]


# -- the openskill computation ------------------------------------------------------------------


def test_one_to_one_winner_gains_what_the_loser_loses_and_both_grow_surer():
    a, b = initial_skill(), initial_skill()
    [[a2], [b2]] = rate([[a], [b]], [1, 2])
    assert a2.mu > a.mu and b2.mu < b.mu
    assert a2.mu - a.mu == pytest.approx(b.mu - b2.mu)
    assert a2.sigma < a.sigma and b2.sigma < b.sigma
    assert display_rating(a2) > display_rating(b2)


def test_three_player_shared_win_is_a_tie_for_first_place():
    # Briscola rules: "players tied for the highest total share the win".
    assert placements([50, 20, 50], {0, 2}) == [1, 2, 1]
    [[a], [b], [c]] = rate([[initial_skill()], [initial_skill()], [initial_skill()]], [1, 2, 1])
    assert a == c
    assert a.mu > initial_skill().mu > b.mu


def test_free_for_all_losers_are_placed_by_their_final_scores():
    assert placements([70, 30, 20], {0}) == [1, 2, 3]
    [[a], [b], [c]] = rate([[initial_skill()]] * 3, placements([70, 30, 20], {0}))
    assert a.mu > b.mu > c.mu


def test_a_drawn_deal_leaves_equal_players_equal():
    # Briscola rules: "60-60 is a draw"; with no winner, equal scores share the place.
    assert placements([60, 60], set()) == [1, 1]
    [[a], [b]] = rate([[initial_skill()], [initial_skill()]], [1, 1])
    assert a.mu == pytest.approx(b.mu) == pytest.approx(initial_skill().mu)


def test_pairs_move_both_partners_together():
    s = initial_skill()
    [[a, c], [b, d]] = rate([[s, s], [s, s]], [1, 2])
    assert a == c and b == d
    assert a.mu > s.mu > b.mu


def test_rate_refuses_a_malformed_game():
    with pytest.raises(ValueError, match="two sides"):
        rate([[initial_skill()]], [1])
    with pytest.raises(ValueError, match="places"):
        rate([[initial_skill()], [initial_skill()]], [1])


# -- recording results and rating them ----------------------------------------------------------


async def test_two_player_game_updates_group_and_global_ratings(conn):
    done = await records.record_result(conn, game("briscola", [[1], [2]], winners=[0]))
    assert done.rated
    for scope in (GROUP_A, records.GLOBAL_SCOPE):
        winner, loser = (
            await rating_of(conn, "briscola", scope, 1),
            await rating_of(conn, "briscola", scope, 2),
        )
        assert winner.mu > initial_skill().mu > loser.mu
    expected = rate([[initial_skill()], [initial_skill()]], [1, 2])
    assert await rating_of(conn, "briscola", GROUP_A, 1) == pytest.approx(expected[0][0])
    changes = {(c.user_id, c.scope): (c.before, c.after) for c in done.changes}
    assert changes[(1, GROUP_A)] == (1000, display_rating(expected[0][0]))
    assert len(changes) == 4


async def test_three_player_briscola_is_rated_free_for_all(conn):
    await records.record_result(
        conn, game("briscola", [[1], [2], [3]], winners=[0], scores=[61, 35, 24])
    )
    mus = [(await rating_of(conn, "briscola", GROUP_A, u)).mu for u in (1, 2, 3)]
    assert mus[0] > mus[1] > mus[2]
    line = await records.player_line(conn, "briscola", GROUP_A, 2, min_games=1)
    assert (line.games, line.wins) == (1, 0)


async def test_pairs_rate_partners_on_the_same_side(conn):
    # Rules: "seats 0 and 2 form team 0, seats 1 and 3 team 1".
    rec = game("cirulla", [[1, 3], [2, 4]], winners=[1], scores=[40, 52])
    assert [(p.seat, p.team) for p in sorted(rec.players, key=lambda p: p.seat)] == [
        (0, 0),
        (1, 1),
        (2, 0),
        (3, 1),
    ]
    await records.record_result(conn, rec)
    r = {u: await rating_of(conn, "cirulla", GROUP_A, u) for u in (1, 2, 3, 4)}
    assert r[2] == r[4] and r[1] == r[3]
    assert r[2].mu > r[1].mu
    cur = await conn.execute("SELECT user_id, won FROM result_seats ORDER BY seat")
    assert await cur.fetchall() == [(1, 0), (2, 1), (3, 0), (4, 1)]


async def test_ratings_carry_over_from_game_to_game(conn):
    await records.record_result(conn, game("briscola", [[1], [2]], winners=[0]))
    after_one = await rating_of(conn, "briscola", GROUP_A, 1)
    await records.record_result(conn, game("briscola", [[1], [2]], winners=[0]))
    after_two = await rating_of(conn, "briscola", GROUP_A, 1)
    [[expected], _] = rate([[after_one], [skill_after_first_loss()]], [1, 2])
    assert after_two.mu == pytest.approx(expected.mu)
    assert after_two.sigma < after_one.sigma


def skill_after_first_loss() -> Skill:
    """The loser's rating after one lost one-to-one game from scratch."""
    return rate([[initial_skill()], [initial_skill()]], [1, 2])[1][0]


async def test_group_and_global_tables_are_kept_apart(conn):
    # Alice beats Bob in group A; Bob beats Carol in group B.
    for _ in range(3):
        await records.record_result(conn, game("briscola", [[1], [2]], [0], chat_id=GROUP_A))
        await records.record_result(conn, game("briscola", [[2], [3]], [0], chat_id=GROUP_B))
    table_a = await records.leaderboard(conn, "briscola", GROUP_A)
    table_b = await records.leaderboard(conn, "briscola", GROUP_B)
    table_all = await records.leaderboard(conn, "briscola", None)
    assert [t.user_id for t in table_a] == [1, 2]
    assert [t.user_id for t in table_b] == [2, 3]
    assert {t.user_id for t in table_all} == {1, 2, 3}
    bob = {t.user_id: t for t in table_all}[2]
    assert (bob.games, bob.wins) == (6, 3)
    bob_a = {t.user_id: t for t in table_a}[2]
    assert (bob_a.games, bob_a.wins) == (3, 0)
    # The same results in one scope give the same ratings as computed from scratch: Bob's
    # group-A rating knows nothing of his wins in group B.
    assert await rating_of(conn, "briscola", GROUP_A, 2) != await rating_of(
        conn, "briscola", records.GLOBAL_SCOPE, 2
    )
    assert await records.kinds_rated(conn, GROUP_B) == ["briscola"]
    assert await records.leaderboard(conn, "cirulla", GROUP_A) == []


async def test_game_kinds_have_separate_ratings(conn):
    await records.record_result(conn, game("briscola", [[1], [2]], [0]))
    await records.record_result(conn, game("cirulla", [[1], [2]], [1]))
    assert (await rating_of(conn, "briscola", GROUP_A, 1)).mu > initial_skill().mu
    assert (await rating_of(conn, "cirulla", GROUP_A, 1)).mu < initial_skill().mu


async def test_cancelled_and_computer_games_are_recorded_but_not_rated(conn):
    # Issue: "Cancelled games and games with a computer player are recorded but not rated."
    cancelled = await records.record_result(
        conn, game("briscola", [[1], [2]], [], scores=[10, 20], cancelled=True)
    )
    with_cpu = await records.record_result(conn, game("cirulla", [[1, None], [2, 3]], [0]))
    assert not cancelled.rated and not with_cpu.rated
    assert cancelled.changes == [] and with_cpu.changes == []
    assert await count(conn, "results") == 2
    assert await count(conn, "result_seats") == 6
    assert await count(conn, "ratings") == 0
    cur = await conn.execute("SELECT cancelled, rated FROM results ORDER BY result_id")
    assert await cur.fetchall() == [(1, 0), (0, 0)]
    assert await records.leaderboard(conn, "cirulla", GROUP_A, min_games=0) == []
    assert await records.player_line(conn, "cirulla", GROUP_A, 1) is None


async def test_a_record_stores_setup_duration_rules_and_figures(conn):
    rec = game("cirulla", [[1], [2]], [0], scores=[52, 30], figures={1: {"scope": 3, "buone": 1}})
    await records.record_result(conn, rec)
    cur = await conn.execute(
        "SELECT kind, chat_id, chat_title, scores, house_rules, duration_s, started_at FROM results"
    )
    assert await cur.fetchone() == (
        "cirulla",
        GROUP_A,
        "Tavolo",
        "[52, 30]",
        '{"target": 51}',
        1200,
        rec.started_at.isoformat(),
    )
    cur = await conn.execute("SELECT seat, figure, value FROM result_figures ORDER BY figure")
    assert await cur.fetchall() == [(0, "buone", 1.0), (0, "scope", 3.0)]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"kind": "tressette"}, "unknown game"),
        ({"chat_id": 0}, "chat id"),
        ({"scores": [1]}, "scores"),
        ({"winners": [7]}, "winners"),
        ({"ended_at": T0 - timedelta(days=1)}, "end before"),
        ({"started_at": datetime(2025, 3, 1)}, "time zone"),
        ({"house_rules": {"target": object()}}, "JSON"),
    ],
)
async def test_bad_records_are_refused_and_change_nothing(conn, change, message):
    good = game("briscola", [[1], [2]], [0])
    bad = GameRecord(**{**good.__dict__, **change})
    with pytest.raises(records.InvalidRecord, match=message):
        await records.record_result(conn, bad)
    assert await count(conn, "results") == 0
    assert not conn.in_transaction


async def test_bad_players_are_refused(conn):
    good = game("briscola", [[1, 3], [2, 4]], [0])
    seats = list(good.players)
    cases = {
        "seats": [*seats[:3], PlayerRecord(seat=7, team=1, name="x", user_id=9)],
        "at most once": [*seats[:3], PlayerRecord(seat=3, team=1, name="x", user_id=1)],
        "won only in part": None,
        "needs a name": [*seats[:3], PlayerRecord(seat=3, team=1, name=" ", user_id=9)],
        "figure": [
            *seats[:3],
            PlayerRecord(seat=3, team=1, name="x", user_id=9, figures={"scope": "3"}),
        ],
    }
    for message, players in cases.items():
        winners = [0] if message == "won only in part" else good.winners
        bad = GameRecord(**{**good.__dict__, "players": players or seats, "winners": winners})
        with pytest.raises(records.InvalidRecord, match=message):
            await records.record_result(conn, bad)
    assert await count(conn, "results") == 0


async def test_a_game_is_recorded_and_rated_once(conn):
    await records.record_result(conn, game("briscola", [[1], [2]], [0], game_id=41))
    before = await rating_of(conn, "briscola", GROUP_A, 1)
    with pytest.raises(records.AlreadyRecorded):
        await records.record_result(conn, game("briscola", [[1], [2]], [0], game_id=41))
    assert await count(conn, "results") == 1
    assert await rating_of(conn, "briscola", GROUP_A, 1) == before


async def test_inside_the_callers_transaction_a_rollback_undoes_record_and_ratings(conn):
    await conn.execute("BEGIN IMMEDIATE")
    await records.record_result(conn, game("briscola", [[1], [2]], [0]))
    assert conn.in_transaction
    await conn.execute("ROLLBACK")
    assert await count(conn, "results") == 0
    assert await count(conn, "ratings") == 0


# -- tables: ordering, ties, the minimum of games -----------------------------------------------


async def insert_rating(conn, user_id, rating, games, wins, name=None, scope=GROUP_A):
    """A rating row as record_result leaves it, with a chosen displayed rating."""
    await conn.execute(
        "INSERT INTO ratings VALUES ('briscola', ?, ?, ?, 25, 8, ?, ?, ?, '2025-01-01')",
        (scope, user_id, name or f"user{user_id}", rating, games, wins),
    )


async def test_table_orders_by_rating_and_ties_share_a_rank(conn):
    await insert_rating(conn, 1, 1100, 5, 2)
    await insert_rating(conn, 2, 1200, 5, 4)
    await insert_rating(conn, 3, 1100, 6, 4)  # same rating as 1, more wins: listed first
    await insert_rating(conn, 4, 1050, 9, 5)
    table = await records.leaderboard(conn, "briscola", GROUP_A)
    assert [(t.rank, t.user_id) for t in table] == [(1, 2), (2, 3), (2, 1), (4, 4)]


async def test_only_players_with_enough_rated_games_are_ranked(conn):
    await insert_rating(conn, 1, 1400, 2, 2)
    await insert_rating(conn, 2, 1100, 3, 1)
    table = await records.leaderboard(conn, "briscola", GROUP_A, min_games=3)
    assert [(t.rank, t.user_id) for t in table] == [(1, 2)]
    newcomer = await records.player_line(conn, "briscola", GROUP_A, 1, min_games=3)
    assert (newcomer.rank, newcomer.games, newcomer.rating) == (None, 2, 1400)
    assert await records.player_line(conn, "briscola", GROUP_A, 99) is None


async def test_top_ten_and_the_callers_line_outside_it(conn):
    for uid in range(1, 14):
        await insert_rating(conn, uid, 2000 - uid * 10, 5, 1)
    table = await records.leaderboard(conn, "briscola", GROUP_A)
    assert [t.user_id for t in table] == list(range(1, 11))
    me = await records.player_line(conn, "briscola", GROUP_A, 13)
    assert (me.rank, me.rating) == (13, 1870)


async def test_played_games_rank_winners_above_losers(conn):
    for _ in range(3):
        await records.record_result(conn, game("briscola", [[1], [2], [3]], [0], [70, 30, 20]))
    table = await records.leaderboard(conn, "briscola", GROUP_A)
    assert [(t.rank, t.user_id, t.games, t.wins) for t in table] == [
        (1, 1, 3, 3),
        (2, 2, 3, 0),
        (3, 3, 3, 0),
    ]
    assert table[0].rating > table[1].rating > table[2].rating


# -- statistics ---------------------------------------------------------------------------------


async def test_stats_count_games_wins_and_best_streak(conn):
    # Alice: W W L W W W L (briscola) -> best streak 3.
    for won in [1, 1, 0, 1, 1, 1, 0]:
        await records.record_result(conn, game("briscola", [[1], [2]], [0 if won else 1]))
    await records.record_result(conn, game("briscola", [[1], [2]], [0], cancelled=True))
    [st] = await records.stats(conn, 1)
    assert (st.kind, st.games, st.wins, st.best_streak) == ("briscola", 7, 5, 3)
    assert st.win_rate == pytest.approx(5 / 7)
    [bob] = await records.stats(conn, 2)
    assert (bob.games, bob.wins, bob.best_streak) == (7, 2, 1)
    assert await records.stats(conn, 99) == []


async def test_stats_favourite_partner_is_the_most_frequent_human_teammate(conn):
    await records.record_result(conn, game("cirulla", [[1, 3], [2, 4]], [0]))
    await records.record_result(conn, game("cirulla", [[1, 3], [2, 4]], [1]))
    await records.record_result(conn, game("cirulla", [[1, 2], [3, 4]], [0]))
    await records.record_result(conn, game("cirulla", [[1, None], [2, 3]], [0]))
    await records.record_result(conn, game("cirulla", [[1], [2]], [0]))
    # Alice sat with Carol (3) twice, with Bob (2) once, with a computer once (not a partner).
    [st] = await records.stats(conn, 1)
    assert st.partner == records.Partner(user_id=3, name="user3", games=2, wins=1)
    # As many games with Eve (5), all won: the wins together decide.
    await records.record_result(conn, game("cirulla", [[1, 5], [2, 4]], [0]))
    await records.record_result(conn, game("cirulla", [[1, 5], [2, 4]], [0]))
    [st] = await records.stats(conn, 1)
    assert st.partner == records.Partner(user_id=5, name="user5", games=2, wins=2)


async def test_stats_sum_each_games_own_figures(conn):
    figs = [{"scope": 3, "buone": 1}, {"scope": 2, "buone": 0}]
    for f in figs:
        await records.record_result(conn, game("cirulla", [[1], [2]], [0], figures={1: f}))
    for f in [
        {"capotti": 1, "contracts_made": 2, "contracts_taken": 3},
        {"capotti": 0, "contracts_made": 1, "contracts_taken": 1},
    ]:
        await records.record_result(conn, game("belota", [[1, 3], [2, 4]], [0], figures={1: f}))
    for pts in (71, 40, 60):
        await records.record_result(
            conn, game("briscola", [[1], [2]], [0], figures={1: {"points": pts}})
        )
    by_kind = {s.kind: s for s in await records.stats(conn, 1)}
    assert list(by_kind) == ["belota", "briscola", "cirulla"]
    assert by_kind["cirulla"].figures == {"scope": 5, "buone": 1}
    assert by_kind["belota"].figures == {"capotti": 1, "contracts_made": 3, "contracts_taken": 4}
    assert by_kind["briscola"].average("points") == pytest.approx(57.0)
    assert by_kind["briscola"].average("scope") is None


async def test_stats_in_one_group_only(conn):
    await records.record_result(conn, game("briscola", [[1], [2]], [0], chat_id=GROUP_A))
    await records.record_result(conn, game("briscola", [[1], [2]], [1], chat_id=GROUP_B))
    [a] = await records.stats(conn, 1, chat_id=GROUP_A)
    assert (a.games, a.wins) == (1, 1)
    [both] = await records.stats(conn, 1)
    assert (both.games, both.wins) == (2, 1)


# -- rendering ----------------------------------------------------------------------------------

HOSTILE = "<b>&*_" * 10


def visible(text: str) -> str:
    """What Telegram shows of an HTML message: tags removed, entities decoded."""
    return html.unescape(re.sub(r"</?(b|i|pre)>", "", text))


def telegram_length(text: str) -> int:
    """Length as Telegram counts it: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def assert_wellformed(text: str) -> None:
    """Only our own tags, balanced, and no raw '<' or '&' left from user text."""
    stripped = re.sub(r"</?(b|i|pre)>", "", text)
    assert "<" not in stripped and ">" not in stripped
    assert not re.search(r"&(?!amp;|lt;|gt;)", stripped)
    for tag in ("b", "i", "pre"):
        assert text.count(f"<{tag}>") == text.count(f"</{tag}>")


def hostile_board(kind: str, name: str) -> Board:
    lines = [records.TableLine(i + 1, i + 1, f"{name}{i}", 99999, 99999, 99999) for i in range(10)]
    caller = records.TableLine(12345, 77, name, 99999, 99999, 99999)
    return Board(kind, lines, caller)


@pytest.mark.parametrize(
    ("name", "shown_as"), [(HOSTILE, "<b>&*_<b>"), ("&" * 60, "&&&&&&&"), ("界" * 40, "界界界界")]
)
@pytest.mark.parametrize("lang", ["it", "en"])
def test_leaderboard_with_hostile_names_fits_one_message(tr, lang, name, shown_as):
    boards = [hostile_board(k, name) for k in records.GAME_KINDS]
    text = render_leaderboard(tr, lang, boards, chat_title=name * 3, min_games=3)
    assert len(text) <= MAX_TEXT and telegram_length(text) <= MAX_TEXT
    assert_wellformed(text)
    shown = visible(text)
    assert shown_as in shown  # names appear as typed, not as markup
    assert "12345" in shown  # the caller's line outside the top ten
    assert "…" in shown  # long names are cut, not wrapped


def test_leaderboard_columns_line_up(tr):
    lines = [
        records.TableLine(1, 1, "Anna", 1234, 12, 9),
        records.TableLine(2, 2, "Giovanni Battista Rossi", 987, 3, 1),
        records.TableLine(2, 3, "界界", 987, 130, 70),
    ]
    text = render_leaderboard(tr, "it", [Board("briscola", lines)], "Tavolo", 3)
    table = visible(re.search(r"<pre>(.*?)</pre>", text, re.S).group(1))
    rows = table.splitlines()
    assert rows[0].split() == ["#", "Giocatore", "Punteggio", "Part.", "Vinte"]
    assert len({text_width(r) for r in rows}) == 1  # right-aligned numbers end together
    assert rows[2].startswith("2 Giovanni Batt…")
    assert rows[3].startswith("2 界界")


def test_leaderboard_says_the_minimum_and_the_callers_progress(tr):
    caller = records.TableLine(None, 5, "Me", 1040, 1, 1)
    board = Board("cirulla", [records.TableLine(1, 1, "Anna", 1100, 4, 3)], caller)
    it = render_leaderboard(tr, "it", [board], "Tavolo", 3)
    assert "almeno 3 partite valutate" in it
    assert "Tu: una partita valutata, ne mancano 2 per entrare in classifica." in it
    en = render_leaderboard(tr, "en", [board], None, 3)
    assert "Global leaderboard" in en and "at least 3 rated games" in en
    assert "You: one rated game, 2 more to be ranked." in en
    assert "Nobody ranked yet." in render_leaderboard(tr, "en", [Board("cirulla", [])], None, 3)
    assert "No rated games in this group yet." in render_leaderboard(tr, "en", [], "G", 3)


async def test_stats_render_every_figure_in_the_chats_language(conn, tr):
    figs = {1: {"points": 71}}
    await records.record_result(conn, game("briscola", [[1], [2]], [0], figures=figs))
    await records.record_result(
        conn, game("briscola", [[1], [2]], [1], figures={1: {"points": 40}})
    )
    await records.record_result(
        conn, game("cirulla", [[1, 3], [2, 4]], [0], figures={1: {"scope": 4, "buone": 2}})
    )
    await records.record_result(
        conn,
        game(
            "belota",
            [[1, 3], [2, 4]],
            [0],
            figures={1: {"capotti": 1, "contracts_made": 2, "contracts_taken": 3}},
        ),
    )
    found = await records.stats(conn, 1)
    it = visible(render_stats(tr, "it", "Alice <3", found))
    assert "Statistiche di Alice <3" in it
    assert re.search(r"Vittorie +1 \(50%\)", it)
    assert re.search(r"Punti medi +55,5", it)
    assert re.search(r"Scope +4", it) and re.search(r"Buone +2", it)
    assert re.search(r"Cappotti +1", it) and re.search(r"Contratti fatti +2 su 3", it)
    assert re.search(r"Spesso in coppia con +user3 \(una partita\)", it)
    en = visible(render_stats(tr, "en", "Alice", found))
    assert re.search(r"Average points +55\.5", en) and re.search(r"Best streak +1", en)
    assert "has no finished games yet" in render_stats(tr, "en", "Bob", [])


def test_stats_with_hostile_names_fit_and_stay_wellformed(tr):
    st = records.KindStats("cirulla", games=99999, wins=99999, best_streak=99999)
    st.partner = records.Partner(1, HOSTILE, 99999, 1)
    st.figures, st.figure_games = {"scope": 99999, "buone": 99999}, {"scope": 9, "buone": 9}
    stats = [st, records.KindStats("briscola", 1, 1, 1), records.KindStats("belota", 1, 0, 0)]
    text = render_stats(tr, "it", HOSTILE, stats)
    assert len(text) <= MAX_TEXT
    assert_wellformed(text)
    assert "<b>&*_" in visible(text)


# -- translations -------------------------------------------------------------------------------


def test_game_names_are_understood_in_any_spelling(tr):
    assert read_game(tr, "Belòta") == "belota"
    assert read_game(tr, "BELOTA") == "belota"
    assert read_game(tr, "bris") == "briscola"
    assert read_game(tr, "b") is None
    assert read_game(tr, "scopone") is None


# -- command handlers, with minimal stand-ins for Telegram's objects -----------------------------


class FakeMessage:
    """Enough of telegram.Message for the handlers: a reply target and reply_text."""

    def __init__(self, reply_to=None):
        self.reply_to_message = reply_to
        self.replies: list[tuple[str, str]] = []

    async def reply_text(self, text, parse_mode=None):
        self.replies.append((text, parse_mode))


def fake_update(user_id, chat_type="supergroup", chat_id=GROUP_A, reply_to=None, lang="it"):
    user = SimpleNamespace(id=user_id, full_name=f"user{user_id}", language_code=lang, is_bot=False)
    chat = SimpleNamespace(id=chat_id, type=chat_type, title="Tavolo <1>")
    return SimpleNamespace(
        effective_message=FakeMessage(reply_to), effective_chat=chat, effective_user=user
    )


async def test_classifica_in_a_group_shows_that_groups_table(conn, tr):
    for _ in range(3):
        await records.record_result(conn, game("briscola", [[1], [2]], [0], chat_id=GROUP_A))
        await records.record_result(conn, game("briscola", [[3], [4]], [0], chat_id=GROUP_B))
    commands = RatingsCommands(lambda: conn, tr)
    update = fake_update(2)
    await commands.leaderboard(update, SimpleNamespace(args=["briscola"]))
    [(text, mode)] = update.effective_message.replies
    assert mode == "HTML"
    shown = visible(text)
    assert "Classifica — Tavolo <1>" in shown
    assert "user1" in shown and "user2" in shown and "user3" not in shown

    private = fake_update(2, chat_type="private", chat_id=2, lang="en")
    await commands.leaderboard(private, SimpleNamespace(args=[]))
    [(text, _)] = private.effective_message.replies
    shown = visible(text)
    assert "Global leaderboard" in shown
    assert all(f"user{u}" in shown for u in (1, 2, 3, 4))


async def test_classifica_with_an_unknown_game_says_which_games_exist(conn, tr):
    update = fake_update(1)
    await RatingsCommands(lambda: conn, tr).leaderboard(update, SimpleNamespace(args=["poker"]))
    [(text, _)] = update.effective_message.replies
    assert "«poker»" in text and "Briscola" in text and "Cirulla" in text
    assert await count(conn, "ratings") == 0


async def test_stats_for_oneself_or_for_the_user_replied_to(conn, tr):
    await records.record_result(conn, game("briscola", [[1], [2]], [0]))
    commands = RatingsCommands(lambda: conn, tr)
    mine = fake_update(1)
    await commands.stats(mine, SimpleNamespace(args=[]))
    assert "Statistiche di user1" in mine.effective_message.replies[0][0]
    bob = SimpleNamespace(id=2, full_name="Bob", is_bot=False)
    theirs = fake_update(1, reply_to=SimpleNamespace(from_user=bob, forum_topic_created=None))
    await commands.stats(theirs, SimpleNamespace(args=[]))
    text = visible(theirs.effective_message.replies[0][0])
    assert "Statistiche di Bob" in text and re.search(r"Vittorie +0 \(0%\)", text)
    bot_user = SimpleNamespace(id=5, full_name="Tavolata", is_bot=True)
    at_bot = fake_update(1, reply_to=SimpleNamespace(from_user=bot_user, forum_topic_created=None))
    await commands.stats(at_bot, SimpleNamespace(args=[]))
    assert "Statistiche di user1" in at_bot.effective_message.replies[0][0]


def test_register_adds_the_four_commands(tr):
    application = ApplicationBuilder().token("123:abc").build()
    register(application, lambda: None, tr)
    commands = set()
    for handler in application.handlers[0]:
        assert isinstance(handler, CommandHandler)
        commands |= handler.commands
    assert commands == {"classifica", "top", "leaderboard", "stats"}
