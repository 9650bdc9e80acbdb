"""Configuration: a missing or malformed setting stops ``python -m bot`` with one clear line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.core.settings import Settings

ROOT = Path(__file__).resolve().parents[3]


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m bot`` in an empty directory with only ``env`` as configuration."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "WEBHOOK_"))}
    clean |= {"PYTHONPATH": str(ROOT), **env}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_missing_token_is_one_line(tmp_path):
    """Without TELEGRAM_BOT_TOKEN the bot says so in one line and exits with status 2."""
    result = run_bot(tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == "configuration error: TELEGRAM_BOT_TOKEN is not set"
    assert result.stdout == ""


def test_bad_settings_are_named_on_one_line_without_the_secret(tmp_path):
    """Every bad setting is named on the same line; the token's value is never echoed."""
    result = run_bot(
        tmp_path,
        TELEGRAM_BOT_TOKEN="not-a-token-secret",
        LOG_LEVEL="LOUD",
        PORT="70000",
        WEBHOOK_URL="http://plain.example/hook",
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    for name in ("TELEGRAM_BOT_TOKEN", "LOG_LEVEL", "PORT", "WEBHOOK_URL"):
        assert name in lines[0]
    assert "not-a-token-secret" not in lines[0]


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("http://localhost:8081", "http://localhost:8081/bot"),
        ("http://localhost:8081/bot/", "http://localhost:8081/bot"),
    ],
)
def test_api_base_url_accepts_the_server_root_or_its_bot_path(given, expected):
    """TELEGRAM_API_BASE_URL may name the self-hosted server or its /bot path."""
    s = Settings(telegram_bot_token="1:abc", telegram_api_base_url=given, _env_file=None)
    assert s.api_base_urls() == (expected, expected.replace("/bot", "/file/bot"))
