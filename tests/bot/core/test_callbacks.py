"""The callback-data codec: every button the bot draws fits Telegram's 64 bytes and decodes to
what it was built from; anything else is refused as malformed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.callbacks import (
    MAX_BYTES,
    Callback,
    MalformedCallback,
    Op,
    action_callback,
    resolve_action,
)

ARG = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abc:+=#-_.", max_size=30)


@settings(max_examples=60, deadline=None)
@given(op=st.sampled_from(list(Op)), gid=st.integers(0, 10**9), move=st.integers(0, 10**5), arg=ARG)
def test_round_trip(op, gid, move, arg):
    """Packing then parsing gives back the same button."""
    cb = Callback(op, gid, move, arg)
    data = cb.pack()
    assert len(data.encode()) <= MAX_BYTES
    assert Callback.parse(data) == cb


@pytest.mark.parametrize(
    "data",
    ["", "garbage", "a:1:2", "z:1:2:x", "a:x:2:7D", "a:1:-2:7D", "a:1:2:<b>", "a:١:2:7D", "a" * 65],
)
def test_malformed_data_is_refused(data):
    """Data the bot did not produce (unknown op, non-numbers, foreign characters) is malformed."""
    with pytest.raises(MalformedCallback):
        Callback.parse(data)


def test_too_long_action_falls_back_to_its_index():
    """A Cirulla ace taking a crowded table does not fit in 64 bytes: the button carries the
    action's index among the legal actions, which the move number pins down."""
    long_code = "AD:" + "+".join(f"{r}{s}" for r in "234567JQK" for s in "HCS")[:70]
    legal = ["2H", long_code]
    data = action_callback(123456, 789, long_code, 1)
    assert len(data.encode()) <= MAX_BYTES
    cb = Callback.parse(data)
    assert cb.arg == "#1"
    assert resolve_action(cb.arg, legal) == long_code
    assert resolve_action("#2", legal) is None
    assert resolve_action("7D", legal) is None
    assert resolve_action("2H", legal) == "2H"
