"""The page's words come from the locale files, and ``python -m bot --local`` serves it with no
token and no network."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from bot.webapp.server import PAGE_TEXTS, STATIC
from tests.translator import TR

ROOT = Path(__file__).resolve().parent.parent.parent


def test_every_word_of_the_page_is_in_both_languages():
    """Each text the script asks for is sent to it, and exists in Italian and English."""
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    asked = set(re.findall(r'T\("([a-z-]+)"\)', script))
    assert asked and asked <= set(PAGE_TEXTS)
    tr = TR
    for lang in ("it", "en"):
        for key in PAGE_TEXTS:
            assert tr.has(lang, key), (lang, key)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_local_mode_runs_without_a_token(tmp_path):
    """``python -m bot --local``, with no TELEGRAM_BOT_TOKEN, serves the page and starts a game
    on localhost, keeps it in the SQLite file, and stops cleanly on Ctrl-C."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "WEBAPP_"))}
    env["DATABASE_PATH"] = str(tmp_path / "local.sqlite3")
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "--local", "--port", str(port), "--lang", "en"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}/"
        for _ in range(300):
            try:
                page = httpx.get(base, timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.05)
        assert page.status_code == 200 and "static/app.js" in page.text
        session = httpx.get(base + "api/session").json()
        assert session["local"] and session["lang"] == "en"
        assert session["texts"]["webapp-play"] == "Deal!"
        made = httpx.post(
            base + "api/local/new", json={"kind": "cirulla", "players": 2, "level": "easy"}
        )
        state = httpx.get(base + f"api/state?game={made.json()['game']}").json()
        assert state["kind"] == "cirulla" and len(state["view"]["hand"]) == 3
        bad = httpx.post(base + "api/local/new", json={"kind": "poker", "players": 2, "level": "x"})
        assert bad.status_code == 400
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=20)
    assert process.returncode == 0, err
    assert "Traceback" not in err
    assert (tmp_path / "local.sqlite3").exists()
