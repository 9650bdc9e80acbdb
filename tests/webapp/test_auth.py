"""Telegram's ``initData`` check, as its documentation describes it."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from urllib.parse import parse_qsl, quote

import pytest

from bot.webapp.auth import AuthError, sign_init_data, validate_init_data

TOKEN = "123456:ABC-def_ghi"


def test_documented_algorithm():
    """initData checks as Telegram documents it: the data-check-string (every field but
    hash, sorted, key=value joined by line feeds) signed with HMAC-SHA256 under the secret
    HMAC_SHA256(key "WebAppData", the bot token)."""
    user = '{"id":42,"first_name":"Anna","language_code":"en"}'
    fields = {"auth_date": "1700000000", "query_id": "AAE", "user": user}
    check = "auth_date=1700000000\nquery_id=AAE\nuser=" + user
    secret = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    digest = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    data = "&".join(f"{k}={quote(v)}" for k, v in fields.items()) + f"&hash={digest}"
    who = validate_init_data(data, TOKEN, now=1700000100)
    assert (who.user_id, who.name, who.language_code) == (42, "Anna", "en")
    # The helper the tests sign with agrees with the hand computation.
    signed = dict(parse_qsl(sign_init_data(TOKEN, json.loads(user), 1700000000, query_id="AAE")))
    assert signed["hash"] == digest


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d.replace("hash=", "hash=0"), "bad hash"),  # a wrong hash
        (lambda d: d.replace("Anna", "Anny"), "bad hash"),  # a forged field
        (lambda d: d + "&extra=1", "bad hash"),  # a field added after signing
        (lambda d: "", "no data"),
        (lambda d: "%%%", "malformed"),
    ],
)
def test_forged_data_is_refused(change, reason):
    """Data changed after Telegram signed it is refused."""
    data = sign_init_data(TOKEN, {"id": 42, "first_name": "Anna"}, int(time.time()))
    with pytest.raises(AuthError, match=reason):
        validate_init_data(change(data), TOKEN)


def test_old_auth_date_is_refused():
    """Data older than the maximum age (or from the future) no longer opens the table."""
    now = 1_800_000_000
    data = sign_init_data(TOKEN, {"id": 42, "first_name": "Anna"}, now - 3601)
    with pytest.raises(AuthError, match="expired"):
        validate_init_data(data, TOKEN, max_age=3600, now=now)
    assert validate_init_data(data, TOKEN, max_age=7200, now=now).user_id == 42
    future = sign_init_data(TOKEN, {"id": 42, "first_name": "Anna"}, now + 3600)
    with pytest.raises(AuthError, match="expired"):
        validate_init_data(future, TOKEN, now=now)


def test_another_bots_data_is_refused():
    """Data signed with another bot's token is refused."""
    data = sign_init_data("999:other", {"id": 42, "first_name": "Anna"}, int(time.time()))
    with pytest.raises(AuthError, match="bad hash"):
        validate_init_data(data, TOKEN)
