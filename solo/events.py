"""Event records: what the engine says happened, for renderers to show.

The engine emits events and never text; the terminal view, the Markdown
journal and the simulator each read the same records. ``data`` holds only
JSON-able values, so a log of events can be saved and compared.
"""

from __future__ import annotations

from collections.abc import Callable
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
