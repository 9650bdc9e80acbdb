"""Belòta (the Ventimiglia belote): importing this package registers the game ``"belota"``."""

from .game import Belota, BelotaRules

__all__ = ["Belota", "BelotaRules"]
