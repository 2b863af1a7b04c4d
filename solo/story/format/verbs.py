"""What every adventure verb shares: its fields, with their kinds and defaults.

An effect (``{ give = "rope" }``) and an action (``roll = { skill = … }``)
are both verbs: a class that names its fields, checks them when the
adventure loads and does its work when the game reaches it. The loader and
the engine read the registries in :mod:`solo.story.play.effects` and
:mod:`solo.story.play.actions`, and a test holds docs/adventures.md to them, so
adding a verb is adding one class (and its lines in the documentation).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, NamedTuple

#: The default of a field the author must give.
REQUIRED: Any = object()


class Field(NamedTuple):
    """One field of a verb: what kind of value it takes, and its default if left out."""

    kind: str
    default: Any = REQUIRED


def field_value(fields: Mapping[str, Field], given: Mapping[str, Any], name: str) -> Any:
    """The value of field ``name`` as the author gave it, else its declared default.

    The :class:`Field` is the one home of a default: code that reads an
    optional field reads it through here and never repeats the default.
    """
    if name in given:
        return given[name]
    default = fields[name].default
    if default is REQUIRED:
        raise KeyError(f"field {name!r} is required and was not given")
    return default


class Verb:
    """What effects and actions share: the fields they declare, read with their defaults."""

    name: ClassVar[str]
    fields: ClassVar[dict[str, Field]]

    def arg(self, given: Mapping[str, Any], name: str) -> Any:
        """Field ``name`` of this verb as given, else the default its :class:`Field` declares."""
        return field_value(self.fields, given, name)


def is_whole(value: object) -> bool:
    """TOML's whole numbers (true and false are not numbers to an author)."""
    return isinstance(value, int) and not isinstance(value, bool)
