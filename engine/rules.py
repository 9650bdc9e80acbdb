"""House rules: frozen pydantic models, parsed with errors that name the rule."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from engine.errors import SetupError


class HouseRules(BaseModel):
    """Base of each game's house rules: frozen, strict about unknown names."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


R = TypeVar("R", bound=HouseRules)


@cache
def _defaults(model: type[R]) -> R:
    return model()


def parse_rules(model: type[R], values: Mapping[str, Any] | None) -> R:
    """Build ``model`` from ``values``; an unknown rule or a bad value raises ``SetupError``."""
    if not values:
        return _defaults(model)
    if not isinstance(values, Mapping):
        raise SetupError("rules must be a mapping of house rule names to values")
    try:
        return model(**dict(values))
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            name = ".".join(str(p) for p in err["loc"]) or "rules"
            if err["type"] == "extra_forbidden":
                problems.append(f"unknown house rule '{name}'")
            else:
                problems.append(f"house rule '{name}': {err['msg']} (got {err.get('input')!r})")
        raise SetupError("; ".join(problems)) from None
    except TypeError as exc:  # e.g. a non-string key
        raise SetupError(f"bad house rules: {exc}") from None
