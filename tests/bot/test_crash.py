"""Crash test: ``python -m bot`` as a separate process against the fake Bot API over HTTP, killed
with SIGKILL at random points (even with a press in flight) and restarted on the same database,
while scripted games of every kind the bot offers are played to their end.

Issue 9: no accepted action lost, none applied twice, every player's hand and the table correct
after each restart. A new game joins the test by being offered by the bot (``offered_kinds``);
its player count comes from ``PLAYERS`` (the smallest the engine allows otherwise).
"""

from __future__ import annotations

import json
import random
import shutil
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest

import engine
from bot.core.callbacks import action_callback
from bot.games import offered_kinds, ui_for
from bot.table.play import forced_tail
from tests.bot.conftest import cards_in, cards_shown, t
from tests.bot.test_process import start_bot, wait_for
from tests.fake_telegram import FakeTelegram

PLAYERS = {"briscola": 2, "cirulla": 2, "belota": 4}
KILLS = 4  # restarts during the test, at random points


def kill(process: subprocess.Popen) -> None:
    """SIGKILL: no shut-down code runs."""
    process.send_signal(signal.SIGKILL)
    process.wait()
    process.stderr.close()


class Scripted:
    """One game driven over HTTP, mirrored by an engine game built from the stored setup."""

    def __init__(self, fake: FakeTelegram, kind: str, n: int) -> None:
        self.fake = fake
        self.kind = kind
        self.players = PLAYERS.get(kind, min(engine.GAMES[kind].player_counts))
        self.users = [
            fake.add_user(f"{kind[:3].title()}{n}{i}", language_code="it")
            for i in range(self.players)
        ]
        self.group = fake.add_group(f"Crash {kind} {n}", members=self.users)
        self.game_id: int | None = None
        self.mirror: engine.Game | None = None
        self.pending: tuple[dict, int, str] | None = None  # a press whose fate is unknown

    def open(self) -> None:
        """Every player opens the private chat; the lobby is created, filled and started."""
        for user in self.users:
            self.fake.start_private(user)
            wait_for("welcoming a player", lambda u=user: self.fake.messages(u))
        self.fake.send_text(self.users[0], self.group, f"/nuova {self.kind} {self.players}")
        lobby = wait_for("the lobby", lambda: self.fake.last_message(self.group))
        for i, user in enumerate(self.users[1:], start=1):
            label = t("btn-join-team", team=i % 2 + 1) if self.players == 4 else t("btn-join")
            update = self.fake.press_button(user, lobby, label)
            wait_for("a join", lambda u=update: self.fake.answered(u))

        def startable() -> bool:
            # The lobby's edit follows the join's answer: the start button comes with it.
            shown = self.fake.message(self.group, lobby.message_id)
            return any(text == t("btn-start") for text, _ in shown.buttons)

        wait_for("the start button", startable)
        update = self.fake.press_button(self.users[0], lobby, t("btn-start"))
        wait_for("the start", lambda: self.fake.answered(update))

    def load(self, db: Path) -> None:
        """Read the setup the bot stored and build the mirror game."""
        with sqlite3.connect(db) as conn:
            row = conn.execute(
                "SELECT game_id, seed, dealer, rules FROM games WHERE chat_id = ?",
                (self.group["id"],),
            ).fetchone()
        self.game_id = row[0]
        self.mirror = engine.new_game(
            self.kind, self.players, seed=row[1], dealer=row[2], rules=json.loads(row[3])
        )

    def press(self, rng: random.Random) -> dict:
        """The player to act presses one of their legal actions; returns the update."""
        game = self.mirror
        seat = game.current_seat
        legal = game.legal_actions(seat)
        index = rng.randrange(len(legal))
        data = action_callback(self.game_id, game.move_number, legal[index], index)
        message = self.fake.last_message(self.group)
        update = self.fake.press(self.users[seat], message, data)
        self.pending = (update, seat, legal[index])
        return update

    def settle(self, db: Path) -> bool:
        """Compare the stored action log with the mirror: equal, or further by the pending
        press (applied though its answer was lost) and the forced plays the bot makes after it
        when nobody has a choice left in the deal. Never anything else. Whether the pending
        press was applied."""
        with sqlite3.connect(db) as conn:
            stored = conn.execute(
                "SELECT seat, code FROM actions WHERE game_id = ? ORDER BY move_number",
                (self.game_id,),
            ).fetchall()
        mirrored = list(self.mirror.actions)
        seats_codes = [tuple(a) for a in stored]
        assert [c for _, c in seats_codes[: len(mirrored)]] == mirrored, "an accepted action lost"
        extra = seats_codes[len(mirrored) :]
        if extra:
            assert self.pending is not None and extra[0] == self.pending[1:], extra
            self.mirror.play(*extra[0])
            tail = forced_tail(self.mirror, ui_for(self.kind).announced)
            for seat, code in tail:
                self.mirror.play(seat, code)
            assert extra[1:] == tail, "an action applied twice, or one nobody made"
        self.pending = None
        return bool(extra)

    def check_messages(self) -> None:
        """Every hand message shows that player's hand; the table names the player to act."""
        faces = ui_for(self.kind).faces
        marker = f"🃏 {self.group['title']} ·"
        for seat, user in enumerate(self.users):
            view = self.mirror.view(seat)
            hand, visible = set(view["hand"]), cards_in(view)

            def shown(u: dict = user, h: set = hand, v: set = visible) -> bool:
                # The hand message shows this hand, and no card the player may not see; an
                # empty hand (Cirulla's, between two turns) may have no message.
                for msg in reversed(self.fake.messages(u)):
                    if not msg.deleted and msg.text.startswith(marker):
                        cards = cards_shown(msg.text, faces)
                        return h <= cards <= v
                return not h and not self.mirror.is_over

            def seen(u: dict = user, h: set = hand, v: set = visible) -> str:
                drawn = [
                    f"  {m.message_id}{' (deleted)' if m.deleted else ''}: {m.text!r}"
                    for m in self.fake.messages(u)
                    if m.text.startswith(marker)
                ][-4:]
                return f"hand {sorted(h)}, may see {sorted(v)}; hand messages:\n" + "\n".join(drawn)

            wait_for(f"{user['first_name']}'s hand", shown, explain=seen)
        if not self.mirror.is_over:
            name = self.users[self.mirror.current_seat]["first_name"]

            def turn_shown() -> bool:
                return any(
                    t("table-turn", player=name) in m.text
                    for m in self.fake.messages(self.group)[-3:]
                )

            wait_for(
                "the turn on the table",
                turn_shown,
                explain=lambda: "\n".join(
                    repr(m.text) for m in self.fake.messages(self.group)[-3:]
                ),
            )


def test_sigkill_at_random_points_loses_and_repeats_nothing(tmp_path):
    """Games of every offered kind, played over HTTP while the bot process is killed (SIGKILL)
    at random points and restarted: each ends with exactly the actions accepted."""
    rng = random.Random(2026)
    fake = FakeTelegram()
    db = tmp_path / "bot.sqlite3"
    games = [Scripted(fake, kind, n) for n, kind in enumerate(offered_kinds())]
    with fake.serve() as server:
        process = start_bot(tmp_path, fake, server.base_url, LOG_LEVEL="WARNING")
        try:
            for g in games:
                g.open()
                g.load(db)
            kill_at = sorted(rng.sample(range(5, 60), KILLS))
            presses = 0
            while any(not g.mirror.is_over for g in games):
                g = rng.choice([g for g in games if not g.mirror.is_over])
                update = g.press(rng)
                presses += 1
                if kill_at and presses == kill_at[0]:
                    kill_at.pop(0)
                    if rng.random() < 0.5:  # sometimes after the answer, sometimes before
                        wait_for("an answer", lambda u=update: fake.answered(u))
                    kill(process)
                    process = start_bot(tmp_path, fake, server.base_url, LOG_LEVEL="WARNING")
                    # The restarted bot takes the unconfirmed updates again; wait for them.
                    wait_for("the press handled", lambda u=update: fake.answered(u))
                    wait_for("the updates taken", lambda: not fake.pending_updates())
                    for other in games:
                        if other.pending is not None:
                            other.settle(db)
                        other.check_messages()
                    continue
                answer = wait_for("an answer", lambda u=update: fake.answered(u))
                # Accepted (no alert) exactly when the action was stored.
                assert g.settle(db) == (not answer.get("show_alert")), answer
            for g in games:
                g.check_messages()
                with sqlite3.connect(db) as conn:
                    status = conn.execute(
                        "SELECT status FROM games WHERE game_id = ?", (g.game_id,)
                    ).fetchone()[0]
                assert status == "over"
        finally:
            kill(process)


def stored_actions(db: Path, game_id: int) -> list[str]:
    """The action codes a database holds for a game, in order."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT code FROM actions WHERE game_id = ? ORDER BY move_number", (game_id,)
        ).fetchall()
    return [r[0] for r in rows]


@pytest.mark.parametrize("synchronous", ["FULL", "NORMAL"])
def test_a_power_cut_loses_no_answered_press(tmp_path, synchronous):
    """The bot runs under a harness that keeps of each database file only what SQLite synced
    (``tests/powercut.py``: the disk a power cut that drops unsynced writes leaves); presses are
    answered, then the power goes (SIGKILL, and only the synced bytes are kept). With the bot's
    ``synchronous=FULL`` every answered press is in the database that comes back, and the
    restarted bot takes the next press on it. With ``NORMAL`` (the setting before) answered
    presses are lost: the harness sees what a power cut does."""
    rng = random.Random(19)
    fake = FakeTelegram()
    live, disk = tmp_path / "live", tmp_path / "disk"
    live.mkdir()
    db = live / "bot.sqlite3"
    games = [Scripted(fake, "briscola", 0), Scripted(fake, "cirulla", 1)]
    with fake.serve() as server:
        process = start_bot(
            live,
            fake,
            server.base_url,
            args=("-m", "tests.powercut", str(disk)),
            LOG_LEVEL="WARNING",
            POWERCUT_SYNCHRONOUS=synchronous,
        )
        try:
            for g in games:
                g.open()
                g.load(db)
            for _ in range(24):
                g = rng.choice(games)
                update = g.press(rng)
                answer = wait_for("an answer", lambda u=update: fake.answered(u))
                assert g.settle(db) == (not answer.get("show_alert")), answer
        finally:
            kill(process)  # the power goes right after the last answer
        answered = {g.game_id: list(g.mirror.actions) for g in games}
        assert sum(len(a) for a in answered.values()) >= 20
        assert (disk / "bot.sqlite3").exists(), "the harness saw no sync"
        after = {gid: stored_actions(disk / "bot.sqlite3", gid) for gid in answered}
        if synchronous == "NORMAL":
            lost = sum(len(answered[gid]) - len(after[gid]) for gid in answered)
            assert lost > 0, "the harness kept unsynced writes"
            return
        assert after == answered, "an answered press was lost"
        # The bot comes back on what the power cut left, and the game goes on.
        restart = tmp_path / "restart"
        restart.mkdir()
        for name in ("bot.sqlite3", "bot.sqlite3-wal"):
            if (disk / name).exists():
                shutil.copyfile(disk / name, restart / name)
        process = start_bot(restart, fake, server.base_url, LOG_LEVEL="WARNING")
        try:
            g = games[0]
            update = g.press(rng)
            answer = wait_for("an answer after the power cut", lambda: fake.answered(update))
            assert not answer.get("show_alert"), answer
        finally:
            kill(process)
