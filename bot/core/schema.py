"""The database's schema: the numbered migrations ``bot.core.storage`` applies in order.

Every feature's tables are here, so that the schema grows in one numbered sequence whatever the
feature: the games' (users, games, seats, actions, outbox), the chats' settings, the timers',
the results and ratings' (``bot.ratings.records`` reads and writes those), the bot's own state.
"""

from __future__ import annotations

import sqlite3

# The results and ratings tables, as (description, SQL script): a script is a sequence of
# statements; ``migration_statements`` splits it for ``execute`` one at a time.
RATINGS_SCHEMA: tuple[str, str] = (
    "results of finished games, their seats and figures; ratings per group and global",
    """
    CREATE TABLE results (
        result_id INTEGER PRIMARY KEY,
        game_id INTEGER UNIQUE,          -- the bot's game id when known: recorded once
        kind TEXT NOT NULL,
        chat_id INTEGER NOT NULL,
        chat_title TEXT NOT NULL,
        scores TEXT NOT NULL,            -- JSON list: final score per side
        house_rules TEXT NOT NULL,       -- JSON object
        started_at TEXT NOT NULL,        -- ISO 8601, UTC
        ended_at TEXT NOT NULL,
        duration_s INTEGER NOT NULL,
        cancelled INTEGER NOT NULL CHECK (cancelled IN (0, 1)),
        rated INTEGER NOT NULL CHECK (rated IN (0, 1))
    );
    CREATE INDEX results_by_chat ON results (chat_id, kind);
    CREATE TABLE result_seats (
        result_id INTEGER NOT NULL REFERENCES results (result_id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        team INTEGER NOT NULL,           -- the side, an index into results.scores
        user_id INTEGER,                 -- NULL for a computer player
        name TEXT NOT NULL,
        is_computer INTEGER NOT NULL CHECK (is_computer IN (0, 1)),
        won INTEGER NOT NULL CHECK (won IN (0, 1)),
        PRIMARY KEY (result_id, seat)
    );
    CREATE INDEX result_seats_by_user ON result_seats (user_id);
    CREATE TABLE result_figures (
        result_id INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        figure TEXT NOT NULL,            -- "scope", "buone", "capotti", "points", ...
        value REAL NOT NULL,
        PRIMARY KEY (result_id, seat, figure),
        FOREIGN KEY (result_id, seat) REFERENCES result_seats (result_id, seat)
            ON DELETE CASCADE
    );
    CREATE TABLE ratings (
        kind TEXT NOT NULL,
        scope INTEGER NOT NULL,          -- the group's chat id, or 0 for the global table
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,              -- the latest name seen
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        rating INTEGER NOT NULL,         -- display_rating(mu, sigma), kept for ordering
        games INTEGER NOT NULL,          -- rated games in this scope
        wins INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (kind, scope, user_id)
    );
    CREATE INDEX ratings_by_table ON ratings (kind, scope, rating DESC);
    """,
)


def migration_statements(sql: str) -> list[str]:
    """The statements of a migration script, one per item, for ``execute`` one at a time."""
    statements: list[str] = []
    pending = ""
    for line in sql.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip():
        raise ValueError(f"incomplete SQL statement: {pending.strip()[:60]!r}")
    return statements


# (version, description, statements). Append only: a released migration never changes.
MIGRATIONS: list[tuple[int, str, list[str]]] = [
    (
        1,
        "users, games with their action log, seats, announcements to send",
        [
            """CREATE TABLE users (
                user_id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                username TEXT,
                language_code TEXT,
                -- 1 once the user pressed Start in private; 0 again if a send answers 403
                private_open INTEGER NOT NULL DEFAULT 0,
                updated_at TEXT NOT NULL
            )""",
            """CREATE TABLE games (
                game_id INTEGER PRIMARY KEY,
                chat_id INTEGER NOT NULL,
                chat_title TEXT NOT NULL,
                kind TEXT,                      -- NULL while the creator chooses the game
                players INTEGER,
                rules TEXT NOT NULL DEFAULT '{}',
                seed INTEGER,
                dealer INTEGER NOT NULL DEFAULT 0,
                status TEXT NOT NULL
                    CHECK (status IN ('lobby', 'active', 'over', 'cancelled')),
                creator_id INTEGER NOT NULL,
                creator_name TEXT NOT NULL,
                lang TEXT NOT NULL,
                move_number INTEGER NOT NULL DEFAULT 0,
                lobby_message_id INTEGER,
                table_message_id INTEGER,
                winners TEXT,
                scores TEXT,
                rematch_of INTEGER REFERENCES games (game_id),
                created_at TEXT NOT NULL,
                started_at TEXT,
                finished_at TEXT
            )""",
            # One lobby or game in progress per group.
            """CREATE UNIQUE INDEX games_one_open_per_chat ON games (chat_id)
                WHERE status IN ('lobby', 'active')""",
            "CREATE INDEX games_by_status ON games (status)",
            """CREATE TABLE seats (
                game_id INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
                seat INTEGER NOT NULL,
                user_id INTEGER REFERENCES users (user_id),  -- NULL for a computer player
                name TEXT NOT NULL,
                computer TEXT,                               -- the computer player's kind
                hand_message_id INTEGER,
                PRIMARY KEY (game_id, seat),
                UNIQUE (game_id, user_id)
            )""",
            "CREATE INDEX seats_by_user ON seats (user_id)",
            """CREATE TABLE actions (
                game_id INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
                move_number INTEGER NOT NULL,  -- the game's move number before this action
                seat INTEGER NOT NULL,
                code TEXT NOT NULL,
                at TEXT NOT NULL,
                PRIMARY KEY (game_id, move_number)
            )""",
            """CREATE TABLE outbox (
                outbox_id INTEGER PRIMARY KEY,
                game_id INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                payload TEXT NOT NULL,
                created_at TEXT NOT NULL
            )""",
        ],
    ),
    (
        2,
        "per-chat settings: the chat's chosen language, the dialect commentary switch",
        [
            """CREATE TABLE chat_settings (
                chat_id INTEGER PRIMARY KEY,    -- a group, or a user's private chat
                lang TEXT,                      -- NULL: follow the users' Telegram language
                commentary INTEGER NOT NULL DEFAULT 1 CHECK (commentary IN (0, 1)),
                updated_at TEXT NOT NULL
            )""",
        ],
    ),
    (
        3,
        "turn timers, seats taken over; games set aside because their data cannot be read",
        [
            """CREATE TABLE set_aside (
                game_id INTEGER PRIMARY KEY REFERENCES games (game_id) ON DELETE CASCADE,
                status TEXT NOT NULL,  -- the status it had, to restore it once repaired
                reason TEXT NOT NULL,
                at TEXT NOT NULL
            )""",
            """CREATE TABLE chat_timers (
                chat_id INTEGER PRIMARY KEY,
                turn_seconds INTEGER NOT NULL  -- a group's default turn timer; 0: none
            )""",
            """CREATE TABLE turn_timers (
                game_id INTEGER PRIMARY KEY REFERENCES games (game_id) ON DELETE CASCADE,
                turn_seconds INTEGER NOT NULL,
                seat INTEGER,           -- the seat the running timer waits for; NULL: none
                move_number INTEGER,    -- the move it waits for
                deadline REAL,          -- seconds since the epoch
                reminded INTEGER NOT NULL DEFAULT 0
            )""",
            """CREATE TABLE away_seats (
                game_id INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
                seat INTEGER NOT NULL,
                misses INTEGER NOT NULL DEFAULT 0,  -- expiries in a row
                away INTEGER NOT NULL DEFAULT 0,    -- 1: a computer player plays this seat
                PRIMARY KEY (game_id, seat)
            )""",
            # When the timers last ran: what a timer had left when the bot stopped.
            """CREATE TABLE timer_clock (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                alive REAL NOT NULL
            )""",
        ],
    ),
    # Results and ratings (``bot.ratings.records``), written as one SQL script.
    (4, RATINGS_SCHEMA[0], migration_statements(RATINGS_SCHEMA[1])),
    (
        5,
        "the bot's own values kept across restarts (the webhook's secret)",
        [
            """CREATE TABLE bot_state (
                key TEXT PRIMARY KEY,
                value TEXT NOT NULL
            )""",
        ],
    ),
    (
        6,
        "the turn during which each hand message was sent: a restart pings again a player"
        " whose ping a crash cut off",
        [
            # The move number at which the turn it was sent in began; NULL: not known.
            "ALTER TABLE seats ADD COLUMN hand_turn INTEGER",
        ],
    ),
    (
        7,
        "a table lives in a chat and a forum topic: one lobby or game open per topic",
        [
            # The forum topic's thread id; 0 (not NULL, which a unique index never counts as
            # equal) for a plain group and a forum's General topic. Open games keep 0.
            "ALTER TABLE games ADD COLUMN thread_id INTEGER NOT NULL DEFAULT 0",
            "DROP INDEX games_one_open_per_chat",
            """CREATE UNIQUE INDEX games_one_open_per_topic ON games (chat_id, thread_id)
                WHERE status IN ('lobby', 'active')""",
        ],
    ),
    (
        8,
        "who asked to be told in private when a table opens in a group or topic (/avvisami)",
        [
            """CREATE TABLE table_calls (
                chat_id INTEGER NOT NULL,
                thread_id INTEGER NOT NULL DEFAULT 0,  -- as games.thread_id
                user_id INTEGER NOT NULL,
                asked_at TEXT NOT NULL,
                PRIMARY KEY (chat_id, thread_id, user_id)
            )""",
            # When each person was last told about a table of a group (at most one an hour).
            """CREATE TABLE table_calls_sent (
                chat_id INTEGER NOT NULL,
                user_id INTEGER NOT NULL,
                sent_at REAL NOT NULL,  -- seconds since the epoch
                PRIMARY KEY (chat_id, user_id)
            )""",
        ],
    ),
]

SCHEMA_VERSION = MIGRATIONS[-1][0]
