"""Belòta (the Ventimiglia belote): importing this package registers the game ``"belota"``.

Four players: ``Belota`` (house rules ``BelotaRules``); two or three: ``BelotaFew`` (house rules
``BelotaFewRules``, ``BelotaTwoRules`` for two), which ``new_game("belota", players=2|3)`` makes.
"""

from .few import BelotaFew, BelotaFewRules, BelotaTwoRules
from .game import Belota, BelotaRules

__all__ = ["Belota", "BelotaFew", "BelotaFewRules", "BelotaRules", "BelotaTwoRules"]
