"""The computer players' tests: no pause before a computer move and a short search."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def quick_computers(monkeypatch):
    """No pause before a computer move and a short search, so that tests run fast."""
    monkeypatch.setenv("COMPUTER_PAUSE", "0")
    monkeypatch.setenv("COMPUTER_BUDGET_MS", "10")
