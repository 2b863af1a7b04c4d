"""What every adventure verb shares: its fields, with their kinds and defaults.

An effect (``{ give = "rope" }``) and an action (``roll = { skill = … }``)
are both verbs: a class that names its fields, checks them when the
adventure loads and does its work when the game reaches it. The loader and
the engine read the registries in :mod:`solo.story.effects` and
:mod:`solo.story.actions`, and a test holds docs/adventures.md to them, so
adding a verb is adding one class (and its lines in the documentation).
"""

from __future__ import annotations

from typing import Any, NamedTuple

#: The default of a field the author must give.
REQUIRED: Any = object()


class Field(NamedTuple):
    """One field of a verb: what kind of value it takes, and its default if left out."""

    kind: str
    default: Any = REQUIRED


def is_whole(value: object) -> bool:
    """TOML's whole numbers (true and false are not numbers to an author)."""
    return isinstance(value, int) and not isinstance(value, bool)
