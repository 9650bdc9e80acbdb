"""Cirulla: the game (registered as ``"cirulla"``), its house rules, buone, captures, counting."""

from engine.cirulla.game import Cirulla, CirullaRules

__all__ = ["Cirulla", "CirullaRules"]
