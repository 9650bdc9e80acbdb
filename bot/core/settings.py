"""Configuration from the environment (and an optional ``.env`` file), checked at start-up."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

TOKEN_SHAPE = r"^\d+:[A-Za-z0-9_-]+$"
# Fewer rated games than this keep a player out of the rating tables (``RATINGS_MIN_GAMES``): a
# rating that has seen only one or two games says more about the cards than about the player.
MIN_GAMES = 3


class Settings(BaseSettings):
    """Everything the bot reads from its environment."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore", frozen=True)

    telegram_bot_token: SecretStr = Field(description="the bot's token from @BotFather")
    database_path: Path = Path("data/bot.sqlite3")
    telegram_api_base_url: str | None = None
    webhook_url: str | None = None
    webhook_listen: str = "0.0.0.0"
    port: int = Field(default=8080, ge=1, le=65535)
    webhook_secret: SecretStr | None = None
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    # Telegram's limits, each left unset to keep Telegram's figure (``bot.delivery.pacing``,
    # where they all are); 0 turns one off. Calls a second overall, messages a minute per group:
    overall_max_rate: float | None = Field(default=None, ge=0)
    group_max_rate: float | None = Field(default=None, ge=0)
    # 429s a call waits out (Telegram's retry_after each time) before it gives up: enough for
    # the seconds the bot takes to settle under a limit stricter than the documented one, so
    # that a reply to a command is late rather than lost.
    max_retries: int = Field(default=8, ge=0, le=10)
    # Seconds between two table edits in one group (changes within it go into one edit):
    group_edit_window: float | None = Field(default=None, ge=0, le=60)
    # Seconds between two messages the bot sends to one private chat:
    private_gap: float | None = Field(default=None, ge=0, le=10)
    # A computer player's pause before it plays, so that its moves can be followed.
    computer_pause: float = Field(default=1.0, ge=0, le=30)
    # How long a hard computer player may think about one move, in milliseconds.
    computer_budget_ms: int = Field(default=250, ge=1, le=10_000)
    # Processes the hard computer players think in, beside the bot's own (0: a worker thread of
    # the bot's process, sharing its interpreter with the event loop; ``bot.computers.thinking``).
    computer_processes: int = Field(default=1, ge=0, le=64)
    # Rated games a player needs before appearing in the leaderboards.
    ratings_min_games: int = Field(default=MIN_GAMES, ge=1)
    # The Mini App (the table drawn as cards): its public https address, served by this
    # process at webapp_listen:webapp_port, a port of its own (not the webhook's port); the
    # short name registered with @BotFather gives the group's table a t.me link to it.
    webapp_url: str | None = None
    webapp_short_name: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_]{3,30}$")
    # The Mini App listens on this machine only: a proxy in front of it gives it its https
    # address.
    webapp_listen: str = "127.0.0.1"
    webapp_port: int = Field(default=8081, ge=0, le=65535)
    # How long Telegram's signed data opens the table, in seconds.
    webapp_max_age: int = Field(default=24 * 3600, ge=60, le=7 * 24 * 3600)
    # Connections each web server (the webhook's, the Mini App's) holds at once; fewer when
    # the process's open-file limit has no room for them beside the bot's own files.
    # An open Mini App holds a connection for its live stream, and one more while it plays.
    web_max_connections: int = Field(default=4000, ge=8, le=100_000)

    @field_validator("telegram_bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        import re

        if not re.match(TOKEN_SHAPE, value.get_secret_value()):
            raise ValueError("expected the shape 123456:ABC-xyz given by @BotFather")
        return value

    @field_validator("database_path", mode="before")
    @classmethod
    def _a_file(cls, value: object) -> object:
        return _database_file(value)

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("telegram_api_base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None or value == "":
            return None
        if not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value.rstrip("/")

    @field_validator("webapp_url")
    @classmethod
    def _webapp_url(cls, value: str | None) -> str | None:
        # Telegram opens Mini Apps only over https.
        if value is None or value == "":
            return None
        if not value.startswith("https://") or any(c.isspace() for c in value):
            raise ValueError("must be an https:// address (Telegram's requirement)")
        return value

    @field_validator("webhook_url")
    @classmethod
    def _https_url(cls, value: str | None) -> str | None:
        # Telegram delivers webhooks only to https; TLS may end at a proxy in front of the bot.
        if value is None or value == "":
            return None
        if not value.startswith("https://"):
            raise ValueError("must start with https:// (Telegram's requirement)")
        return value

    @property
    def token(self) -> str:
        """The bot token as plain text."""
        return self.telegram_bot_token.get_secret_value()

    def api_base_urls(self) -> tuple[str, str] | None:
        """The ``(base_url, base_file_url)`` for a self-hosted Bot API server, or None."""
        if self.telegram_api_base_url is None:
            return None
        root = self.telegram_api_base_url
        if root.endswith("/bot"):
            root = root[: -len("/bot")]
        return f"{root}/bot", f"{root}/file/bot"


def _database_file(value: object) -> object:
    if isinstance(value, str) and not value.strip():
        raise ValueError("is empty; name the database file, e.g. data/bot.sqlite3")
    return value


class DatabaseSettings(BaseSettings):
    """The one setting ``python -m bot backup`` needs (no token: it does not talk to Telegram)."""

    model_config = Settings.model_config
    database_path: Path = Settings.model_fields["database_path"].default

    @field_validator("database_path", mode="before")
    @classmethod
    def _a_file(cls, value: object) -> object:
        return _database_file(value)


def settings_error_line(exc: ValidationError) -> str:
    """One line naming every bad or missing setting, without echoing secret values."""
    parts = []
    for err in exc.errors():
        name = ".".join(str(p) for p in err["loc"]).upper() or "settings"
        if err["type"] == "missing":
            parts.append(f"{name} is not set")
        else:
            msg = err["msg"].removeprefix("Value error, ")
            parts.append(f"{name}: {msg}")
    return "configuration error: " + "; ".join(parts)
