"""Every implementation of the delivery's interface (``bot.core.services.Renderer``) has every
member the Protocol declares, with a signature a caller of the Protocol can use unchanged: the
same parameters (names, kinds, defaults), the same ``async``-ness. The implementations are found
in ``bot/`` (any class defining most of the Protocol's members), not listed by hand, so a new
one is checked as well."""

from __future__ import annotations

import importlib
import inspect

import pytest

from bot.core.services import Renderer
from tests.bot.test_structure import MODULES

MEMBERS = sorted(
    name
    for name, value in vars(Renderer).items()
    if not name.startswith("_") and inspect.isfunction(value)
)


def _implementations() -> list[type]:
    """The classes of ``bot/`` that define most of the Protocol's members."""
    found = []
    for name in MODULES:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if not inspect.isclass(value) or value.__module__ != name or value is Renderer:
                continue
            if sum(member in vars(value) for member in MEMBERS) > len(MEMBERS) // 2:
                found.append(value)
    return found


IMPLEMENTATIONS = _implementations()


def _shape(function) -> tuple:
    """What a caller relies on: the parameters after ``self`` and whether it is awaited."""
    params = list(inspect.signature(function).parameters.values())[1:]
    return (
        inspect.iscoroutinefunction(function),
        [(p.name, p.kind, p.default) for p in params],
    )


def test_both_deliveries_are_found():
    """The Telegram delivery and local mode's are the implementations there are."""
    names = {f"{cls.__module__}.{cls.__name__}" for cls in IMPLEMENTATIONS}
    assert names == {"bot.delivery.scheduler.Delivery", "bot.webapp.local.LocalRenderer"}


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS, ids=lambda cls: cls.__name__)
@pytest.mark.parametrize("member", MEMBERS)
def test_every_renderer_has_every_member_of_the_protocol(implementation, member):
    """The member is there, and called as the Protocol says."""
    function = getattr(implementation, member, None)
    assert function is not None, f"{implementation.__name__} has no {member}"
    assert _shape(function) == _shape(getattr(Renderer, member))
