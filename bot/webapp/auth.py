"""Telegram's ``initData``: the signed query string a Mini App is opened with.

Telegram's documented check: the data-check-string is every field but ``hash``, as
``key=value`` sorted by key and joined by line feeds; the secret key is
``HMAC_SHA256(key="WebAppData", message=bot_token)``; the data is genuine when
``hex(HMAC_SHA256(key=secret, message=data_check_string))`` equals ``hash``. A maximum age on
``auth_date`` keeps an old copy of the data from opening the table for ever.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode

# How long signed data opens the table: a day, as a Mini App stays open for an evening.
MAX_AGE = 24 * 3600
# A clock ahead of Telegram's by more than this makes the data look forged.
CLOCK_SKEW = 60


class AuthError(ValueError):
    """The data is missing, malformed, forged or too old (HTTP 401)."""


@dataclass(frozen=True)
class WebUser:
    """The Telegram user the data speaks for."""

    user_id: int
    name: str
    language_code: str | None
    start_param: str | None = None


def _secret(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def _check_string(fields: dict[str, str]) -> bytes:
    return "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash").encode()


def sign_init_data(bot_token: str, user: dict[str, Any], auth_date: int, **extra: str) -> str:
    """The ``initData`` Telegram would give ``user`` (tests, benchmarks)."""
    fields = {
        "auth_date": str(auth_date),
        "user": json.dumps(user, separators=(",", ":"), ensure_ascii=False),
        **extra,
    }
    digest = hmac.new(_secret(bot_token), _check_string(fields), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def validate_init_data(
    init_data: str, bot_token: str, max_age: int = MAX_AGE, now: float | None = None
) -> WebUser:
    """The user of genuine, fresh ``initData``; raises ``AuthError`` otherwise."""
    if not init_data or len(init_data) > 4096:
        raise AuthError("no data")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise AuthError("malformed data") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise AuthError("repeated field")
    given = fields.get("hash", "")
    expected = hmac.new(_secret(bot_token), _check_string(fields), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(given.encode(), expected.encode()):
        raise AuthError("bad hash")
    try:
        auth_date = int(fields["auth_date"])
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError):
        raise AuthError("no user") from None
    now = time.time() if now is None else now
    if not now - max_age <= auth_date <= now + CLOCK_SKEW:
        raise AuthError("expired")
    name = " ".join(str(user.get(k) or "") for k in ("first_name", "last_name")).strip()
    lang = user.get("language_code")
    return WebUser(
        user_id,
        name or str(user_id),
        lang if isinstance(lang, str) else None,
        fields.get("start_param"),
    )
