"""Event records: what the engine says happened, for renderers to show.

The engine emits events and never text; the terminal view, the Markdown
journal and the simulator each read the same records. ``data`` holds only
JSON-able values, so a log of events can be saved and compared.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}


Sink = Callable[[Event], None]

#: The kinds of event the narrator tells (its ``_on_KIND`` handlers; a test holds the two
#: together): a renderer leaves the templates unloaded until one of these arrives, so the
#: first screen of a game does not wait for them.
NARRATED = frozenset({
    "conflict_start", "conflict_stakes", "round_start", "declare", "exit_offer", "exit", "roll", "luck",
    "round_result", "strike_target", "damage", "push", "out", "comae", "leave_attempt", "extra_action", "escalate",
    "conflict_end", "npc_morale", "npc_break", "exit_answer",
})

#: A modifier as events carry it: its name and its value (``("//Melee", 20)``).
Mod = tuple[str, int]


@dataclass(frozen=True, slots=True)
class Chance:
    """A chance a person is shown, taken apart: ``target`` % = ``base`` (the ``skill``) + every modifier.

    The engine makes it with the same function that makes the target of the
    roll it announces, and gives it an ``id``: the ``chance`` event that shows
    it and the roll it announced carry the same ``id``, so a reader can pair
    them. ``actor`` is who would roll.
    """

    id: int
    actor: str | None
    target: int
    skill: str
    base: int
    modifiers: tuple[Mod, ...] = ()
    #: What the chance is of, where that is not the option succeeding: "a yes" of an oracle's question, which may be
    #: the bad outcome ("the oracle decides whether the ice gives way 20 %" read as a 20 % chance of crossing)
    outcome: str = ""

    @classmethod
    def of(cls, id: int, actor: str | None, skill: str, target: int, modifiers: Sequence[Mod]) -> Chance:
        """The chance of a roll against ``target`` whose ``modifiers`` were added to the bare ``skill``."""
        mods = tuple((str(n), int(v)) for n, v in modifiers)
        return cls(id, actor, target, skill, target - sum(v for _, v in mods), mods)

    def same_roll(self, target: int, modifiers: Sequence[Mod]) -> bool:
        """Whether a roll against ``target`` with ``modifiers`` is the one this chance announced."""
        return self.target == target and list(self.modifiers) == [(n, v) for n, v in modifiers]

    def to_dict(self) -> dict[str, Any]:
        out = {"id": self.id, "actor": self.actor, "chance": self.target, "skill": self.skill, "base": self.base,
               "modifiers": [[n, v] for n, v in self.modifiers]}
        if self.outcome:
            out["outcome"] = self.outcome
        return out


def wants_detail(sink: Sink | None) -> bool:
    """Whether ``sink`` reads what is shown to people: the chances on offer and the parts of every target.

    A sink that only counts (the simulator's tally) says no with a ``detail = False``
    attribute, and the engine then spares itself the work of taking targets apart.
    """
    return sink is not None and getattr(sink, "detail", True)


class EventLog:
    """A sink that keeps every event, for tests and for renderers that read afterwards."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def __call__(self, event: Event) -> None:
        self.events.append(event)

    def of(self, kind: str) -> list[Event]:
        return [e for e in self.events if e.kind == kind]

    def clear(self) -> None:
        self.events.clear()


def discard(event: Event) -> None:
    """A sink for auto-play that keeps nothing."""
