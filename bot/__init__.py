"""Tavolata's Telegram adapter: handlers, rendering, storage, translations and ratings."""
