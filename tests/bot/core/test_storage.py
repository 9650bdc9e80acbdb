"""Storage: numbered migrations, refusal of a newer schema, one open game per group, and the
action log that only grows one move at a time (design.md, "Storage")."""

from __future__ import annotations

import sqlite3

import pytest

from bot.core.storage import SCHEMA_VERSION, ChatBusy, SchemaTooNew, StaleMove, Storage


@pytest.fixture
async def storage(tmp_path):
    """A fresh database in a temporary directory."""
    s = await Storage.open(tmp_path / "bot.sqlite3")
    yield s
    await s.close()


async def test_migrations_are_recorded_and_pragmas_set(storage, tmp_path):
    """Each migration is recorded with its number; WAL, foreign keys and busy timeout are on,
    and commits are synced (``synchronous=FULL``, 2: a commit survives a power cut)."""
    assert await storage.schema_version() == SCHEMA_VERSION
    cur = await storage.conn.execute("SELECT version, description FROM schema_migrations")
    rows = await cur.fetchall()
    assert [r[0] for r in rows] == list(range(1, SCHEMA_VERSION + 1))
    assert all(r[1] for r in rows)
    expected_pragmas = (
        ("journal_mode", "wal"),
        ("synchronous", 2),
        ("foreign_keys", 1),
        ("busy_timeout", 5000),
    )
    for pragma, expected in expected_pragmas:
        cur = await storage.conn.execute(f"PRAGMA {pragma}")
        assert (await cur.fetchone())[0] == expected


async def test_reopening_applies_nothing_twice(tmp_path):
    """Opening an up-to-date database again keeps its data and its migration table."""
    s = await Storage.open(tmp_path / "db.sqlite3")
    await s.upsert_user(1, "Alice", "alice", "it", private_open=True)
    await s.close()
    s = await Storage.open(tmp_path / "db.sqlite3")
    try:
        assert (await s.get_user(1)).private_open
        cur = await s.conn.execute("SELECT COUNT(*) FROM schema_migrations")
        assert (await cur.fetchone())[0] == SCHEMA_VERSION
    finally:
        await s.close()


async def test_a_database_newer_than_the_code_is_refused(tmp_path):
    """A schema version above the code's newest migration stops the bot before it writes."""
    path = tmp_path / "db.sqlite3"
    s = await Storage.open(path)
    await s.close()
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO schema_migrations VALUES (?, 'from the future', '2100-01-01')",
            (SCHEMA_VERSION + 1,),
        )
    with pytest.raises(SchemaTooNew, match="newer"):
        await Storage.open(path)


async def test_one_open_game_per_group_but_many_groups(storage):
    """A second lobby in the same group is refused; another group may open one."""
    await storage.create_lobby(-100, "A", 1, "Alice", "it", "briscola", 2)
    with pytest.raises(ChatBusy):
        await storage.create_lobby(-100, "A", 2, "Bob", "it", "briscola", 2)
    await storage.create_lobby(-200, "B", 1, "Alice", "it", "briscola", 2)


async def test_a_cancelled_game_frees_the_group(storage):
    """Once cancelled, the group can open a new lobby."""
    gid = await storage.create_lobby(-100, "A", 1, "Alice", "it", "briscola", 2)
    assert await storage.cancel_game(gid)
    assert not await storage.cancel_game(gid)
    await storage.create_lobby(-100, "A", 1, "Alice", "it", "briscola", 2)


async def _active_game(storage) -> int:
    await storage.upsert_user(1, "Alice", None, "it", private_open=True)
    await storage.upsert_user(2, "Bob", None, "it", private_open=True)
    gid = await storage.create_lobby(-100, "A", 1, "Alice", "it", "briscola", 2)
    await storage.take_seat(gid, 0, 1, "Alice")
    await storage.take_seat(gid, 1, 2, "Bob")
    await storage.start_game(gid, seed=7, dealer=1)
    return gid


async def test_actions_commit_in_move_order_and_a_stale_move_changes_nothing(storage):
    """An action names the move number it was made on; a second action on the same number
    (a double press that slipped through) is refused and leaves the log as it was."""
    gid = await _active_game(storage)
    await storage.record_action(gid, 0, 0, "AD", announcements=[("announce", {"n": 1})])
    with pytest.raises(StaleMove):
        await storage.record_action(gid, 0, 0, "3D")
    assert await storage.actions(gid) == [(0, "AD")]
    assert (await storage.get_game(gid)).move_number == 1
    assert [o.payload for o in await storage.outbox(gid)] == [{"n": 1}]


async def test_the_last_action_records_the_result(storage):
    """The action that ends a game stores its winners and scores and closes it."""
    gid = await _active_game(storage)
    await storage.record_action(gid, 0, 0, "AD", result=([0], [1, 0]))
    game = await storage.get_game(gid)
    assert (game.status, game.winners, game.scores) == ("over", [0], [1, 0])
    with pytest.raises(StaleMove):
        await storage.record_action(gid, 1, 1, "3D")


async def test_a_press_and_its_forced_plays_commit_together(storage):
    """Several actions from one move number (a press and the forced plays the bot makes after
    it) are one transaction: all stored in order, or none if the move was taken."""
    gid = await _active_game(storage)
    await storage.record_actions(gid, 0, [(0, "AD"), (1, "3D")])
    with pytest.raises(StaleMove):
        await storage.record_actions(gid, 1, [(0, "KD"), (1, "QD")])
    await storage.record_actions(gid, 2, [(0, "KD"), (1, "QD")], result=([1], [0, 1]))
    assert await storage.actions(gid) == [(0, "AD"), (1, "3D"), (0, "KD"), (1, "QD")]
    game = await storage.get_game(gid)
    assert (game.move_number, game.status, game.winners) == (4, "over", [1])
    with pytest.raises(ValueError, match="no action"):
        await storage.record_actions(gid, 4, [])


async def test_a_failed_transaction_rolls_back(storage):
    """An error inside a transaction leaves no trace of its writes."""
    gid = await _active_game(storage)
    with pytest.raises(RuntimeError):
        async with storage.transaction() as conn:
            await conn.execute("UPDATE games SET move_number = 99 WHERE game_id = ?", (gid,))
            raise RuntimeError("boom")
    assert (await storage.get_game(gid)).move_number == 0


async def test_seats_move_between_teams_and_users_are_unique_per_game(storage):
    """Taking another seat moves the player; a user never holds two seats of one game."""
    await storage.upsert_user(1, "Alice", None, "it")
    gid = await storage.create_lobby(-100, "A", 1, "Alice", "it", "briscola", 4)
    await storage.take_seat(gid, 0, 1, "Alice")
    await storage.take_seat(gid, 1, 1, "Alice")
    assert [(s.seat, s.user_id) for s in (await storage.get_game(gid)).seats] == [(1, 1)]


async def test_one_open_game_per_forum_topic_and_one_in_general(storage):
    """A table lives in a chat and a topic: each topic of a forum holds one lobby or game, and
    General (thread 0, as a plain group) holds one; a rematch stays in its topic."""
    first = await storage.create_lobby(-100, "F", 1, "Alice", "it", "briscola", 2, thread_id=5)
    await storage.create_lobby(-100, "F", 2, "Bob", "it", "cirulla", 2, thread_id=9)
    await storage.create_lobby(-100, "F", 2, "Bob", "it", "cirulla", 2)
    with pytest.raises(ChatBusy):
        await storage.create_lobby(-100, "F", 3, "Carla", "it", "briscola", 2, thread_id=5)
    with pytest.raises(ChatBusy):
        await storage.create_lobby(-100, "F", 3, "Carla", "it", "briscola", 2)
    found = await storage.open_game_in_chat(-100, 5)
    assert (found.game_id, found.thread_id) == (first, 5)
    assert (await storage.open_game_in_chat(-100)).kind == "cirulla"
    assert await storage.open_game_in_chat(-100, 7) is None
    await storage.upsert_user(1, "Alice", None, "it", private_open=True)
    await storage.upsert_user(2, "Bob", None, "it", private_open=True)
    await storage.take_seat(first, 0, 1, "Alice")
    await storage.take_seat(first, 1, 2, "Bob")
    await storage.start_game(first, seed=7, dealer=0)
    await storage.record_action(first, 0, 0, "AD", result=([0], [1, 0]))
    rematch = await storage.create_rematch(await storage.get_game(first), 8, 1)
    assert (await storage.get_game(rematch)).thread_id == 5


def _version_6_database(path) -> None:
    """A database as the bot left it at schema version 6, with a game in progress in a
    group, its seats and first actions."""
    from bot.core.schema import MIGRATIONS

    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY,"
            " description TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        for version, description, statements in MIGRATIONS[:6]:
            for sql in statements:
                conn.execute(sql)
            conn.execute(
                "INSERT INTO schema_migrations VALUES (?, ?, '2026-01-01')", (version, description)
            )
        conn.execute(
            "INSERT INTO games (game_id, chat_id, chat_title, kind, players, seed, status,"
            " creator_id, creator_name, lang, move_number, table_message_id, created_at)"
            " VALUES (1, -100, 'A', 'briscola', 2, 7, 'active', 1, 'Alice', 'it', 1, 4,"
            " '2026-01-01')"
        )
        for uid, name in ((1, "Alice"), (2, "Bob")):
            conn.execute(
                "INSERT INTO users (user_id, name, private_open, updated_at)"
                " VALUES (?, ?, 1, '2026-01-01')",
                (uid, name),
            )
            conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (1, ?, ?, ?)",
                (uid - 1, uid, name),
            )
        conn.execute("INSERT INTO actions VALUES (1, 0, 1, 'AD', '2026-01-01')")


async def test_upgrade_from_version_6_keeps_open_games_playing_in_their_group(tmp_path):
    """Migration 7 keys games by chat and topic: a game open at the upgrade goes on where it
    was (thread 0, the group as a whole), still the group's one table; topics get their own."""
    path = tmp_path / "v6.sqlite3"
    _version_6_database(path)
    s = await Storage.open(path)
    try:
        assert await s.schema_version() == SCHEMA_VERSION
        game = await s.open_game_in_chat(-100)
        assert (game.game_id, game.status, game.thread_id, game.table_message_id) == (
            1,
            "active",
            0,
            4,
        )
        assert [r.name for r in game.seats] == ["Alice", "Bob"]
        await s.record_action(1, 1, 0, "3D")
        assert await s.actions(1) == [(1, "AD"), (0, "3D")]
        with pytest.raises(ChatBusy):
            await s.create_lobby(-100, "A", 2, "Bob", "it", "briscola", 2)
        await s.create_lobby(-100, "A", 2, "Bob", "it", "briscola", 2, thread_id=3)
        cur = await s.conn.execute("SELECT COUNT(*) FROM table_calls")
        assert (await cur.fetchone())[0] == 0
    finally:
        await s.close()
