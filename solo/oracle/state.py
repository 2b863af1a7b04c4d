"""What the oracle remembers between questions: tension, the NPCs met, the open threads.

It is the game's to save, so it is a plain record that round-trips through
JSON; the rules that move it (scene end, adding and closing) live here too so
every front end moves it the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .likelihood import TENSION_MAX, TENSION_MIN, TENSION_NEUTRAL, check_tension

__all__ = ["STATE_VERSION", "OracleState", "raise_tension", "lower_tension", "tension_after_scene"]

STATE_VERSION = 1


def raise_tension(tension: int, steps: int = 1) -> int:
    return min(TENSION_MAX, check_tension(tension) + steps)


def lower_tension(tension: int, steps: int = 1) -> int:
    return max(TENSION_MIN, check_tension(tension) - steps)


def tension_after_scene(tension: int, pcs_in_control: bool | None) -> int:
    """+1 when events ran away from the PCs, −1 when they held the reins, unchanged if mixed (None)."""
    if pcs_in_control is None:
        return check_tension(tension)
    return lower_tension(tension) if pcs_in_control else raise_tension(tension)


def _names(values: object, what: str) -> list[str]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ValueError(f"{what} must be a list of text")
    return list(values)


@dataclass
class OracleState:
    """Tension (1–9), NPCs in play, open threads, (optionally) the PCs' names and the scene's situation.

    Lists keep insertion order and hold no duplicates, so a save is stable
    and an NPC met twice is not twice as likely to act.
    """

    tension: int = TENSION_NEUTRAL
    npcs: list[str] = field(default_factory=list)
    threads: list[str] = field(default_factory=list)
    pcs: list[str] = field(default_factory=list)
    context: str = ""  # what the current scene is about, when whoever runs the scene says so

    def situation(self) -> str | None:
        """What a random event that names nobody follows: the scene's situation, else the first open
        thread (in open play, the starting situation), else nothing."""
        return self.context or (self.threads[0] if self.threads else None)

    def thread_number(self, text: str) -> int:
        """The 1-based place of an open thread: given as a number ("2") or as the start of its words."""
        text = text.strip()
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(self.threads):
                return number
            raise ValueError(f"no thread number {number}: there {_are(len(self.threads), 'open thread')}")
        found = [i for i, t in enumerate(self.threads, 1) if t.lower().startswith(text.lower())] if text else []
        exact = [i for i in found if self.threads[i - 1].lower() == text.lower()]
        if len(exact) == 1 or len(found) == 1:
            return (exact or found)[0]
        if found:
            raise ValueError(f"{text!r} fits more than one thread: give its number")
        raise ValueError(f"no open thread starts with {text!r}")

    def __post_init__(self) -> None:
        check_tension(self.tension)

    def end_scene(self, pcs_in_control: bool | None) -> int:
        self.tension = tension_after_scene(self.tension, pcs_in_control)
        return self.tension

    def add_npc(self, name: str) -> None:
        _add(self.npcs, name)

    def remove_npc(self, name: str) -> None:
        _remove(self.npcs, name, "NPC")

    def add_thread(self, text: str) -> None:
        _add(self.threads, text)

    def close_thread(self, text: str) -> None:
        _remove(self.threads, text, "thread")

    def slots(self) -> dict[str, list[str]]:
        """The lists table rows draw ``{npc}``, ``{thread}`` and ``{pc}`` from.

        PCs are offered only when known: a game without PC names should still
        get "trouble for a PC", read with the default phrase.
        """
        out = {"npc": list(self.npcs), "thread": list(self.threads)}
        if self.pcs:
            out["pc"] = list(self.pcs)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "tension": self.tension,
            "npcs": list(self.npcs),
            "threads": list(self.threads),
            "pcs": list(self.pcs),
            **({"context": self.context} if self.context else {}),  # absent, a save reads as before
        }

    @classmethod
    def from_dict(cls, data: object) -> OracleState:
        """Rebuild from :meth:`to_dict`; ValueError says what is wrong with a damaged save."""
        if not isinstance(data, dict):
            raise ValueError("oracle state must be a JSON object")
        version = data.get("version", STATE_VERSION)
        if version != STATE_VERSION:
            raise ValueError(f"oracle state version {version!r} is not supported (expected {STATE_VERSION})")
        tension = data.get("tension", TENSION_NEUTRAL)
        return cls(
            tension=check_tension(tension),
            npcs=_names(data.get("npcs", []), "npcs"),
            threads=_names(data.get("threads", []), "threads"),
            pcs=_names(data.get("pcs", []), "pcs"),
            context=_text(data.get("context", ""), "context"),
        )


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} must be text")
    return value


def _are(count: int, what: str) -> str:
    return f"is 1 {what}" if count == 1 else f"are {count} {what}s"


def _add(items: list[str], value: str) -> None:
    value = value.strip()
    if not value:
        raise ValueError("a name cannot be empty")
    if value not in items:
        items.append(value)


def _remove(items: list[str], value: str, what: str) -> None:
    try:
        items.remove(value)
    except ValueError:
        raise ValueError(f"no {what} {value!r} in play") from None
