"""Tavolata's Telegram adapter: lobby, hands and table messages, storage, translations."""
