"""Tavolata's Telegram adapter."""
