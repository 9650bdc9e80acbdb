"""The users the bot has met, cached."""

from __future__ import annotations

from telegram import User

from bot.core.storage import Storage, UserRow


class Users:
    """The users the bot has met, cached; writes go to storage only when something changed."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._cache: dict[int, UserRow] = {}

    async def get(self, user_id: int) -> UserRow | None:
        """A known user, or None."""
        row = self._cache.get(user_id)
        if row is None:
            row = await self.storage.get_user(user_id)
            if row is not None:
                self._cache[user_id] = row
        return row

    async def seen(self, user: User, private_open: bool | None = None) -> UserRow:
        """Record a Telegram user met in an update; ``private_open`` when known."""
        row = await self.get(user.id)
        name = user.full_name
        if (
            row is not None
            and row.name == name
            and row.username == user.username
            and (user.language_code is None or row.language_code == user.language_code)
            and (private_open is None or row.private_open == private_open)
        ):
            return row
        await self.storage.upsert_user(
            user.id, name, user.username, user.language_code, private_open
        )
        self._cache.pop(user.id, None)
        return await self.get(user.id)

    async def set_private_open(self, user_id: int, is_open: bool) -> None:
        """Remember whether the bot can write to a user in private."""
        await self.storage.set_private_open(user_id, is_open)
        self._cache.pop(user_id, None)
