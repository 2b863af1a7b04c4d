"""The one decision interface: a :class:`Question` in, an option key out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


class QuestionError(ValueError):
    """An answer that does not fit the question; the message says what would."""


@dataclass(frozen=True)
class Option:
    key: str  # stable answer id: "aggressive", "north", "yes"
    label: str  # what a person reads
    detail: str = ""  # e.g. "61 % to win the conflict"


@dataclass(frozen=True)
class Question:
    """One decision the engine needs.

    ``kind`` tells bots and minds what is being asked ("lens", "target",
    "choice", "luck_flip", "name" …); ``actor`` names who decides (for
    hot-seat play); ``context`` carries machine-readable facts (odds, Pools)
    so a bot need not parse prose. A question with no options takes free text.
    """

    kind: str
    prompt: str
    options: tuple[Option, ...] = ()
    actor: str | None = None
    context: dict = field(default_factory=dict)
    default: str | None = None

    @property
    def free_text(self) -> bool:
        return not self.options

    def keys(self) -> list[str]:
        return [o.key for o in self.options]

    def option(self, key: str) -> Option:
        for o in self.options:
            if o.key == key:
                return o
        raise KeyError(key)

    def resolve(self, answer: str) -> str:
        """Map what someone typed to an option key: the key, its number, or a unique prefix.

        Free-text questions accept any non-empty text. Raises
        :class:`QuestionError` with the valid answers otherwise.
        """
        text = (answer or "").strip()
        if not text and self.default is not None:
            text = self.default
        if self.free_text:
            if not text:
                raise QuestionError("please type an answer")
            return text
        lowered = text.lower()
        for o in self.options:
            if lowered == o.key.lower() or lowered == o.label.lower():
                return o.key
        if text.isdigit() and 1 <= int(text) <= len(self.options):
            return self.options[int(text) - 1].key
        matches = [o.key for o in self.options if o.key.lower().startswith(lowered) or o.label.lower().startswith(lowered)]
        if lowered and len(set(matches)) == 1:
            return matches[0]
        valid = ", ".join(f"{i}={o.key}" if _readable(o.key) and o.key != str(i) else str(i)
                          for i, o in enumerate(self.options, 1))
        if lowered and len(matches) > 1:
            raise QuestionError(f"{text!r} could be {', '.join(matches)}; answer one of: {valid}")
        if not text:
            raise QuestionError(f"please answer with one of: {valid}")
        raise QuestionError(f"{text!r} is not an answer here; answer one of: {valid}")


def _readable(key: str) -> bool:
    """Keys worth showing next to their number (words like "cautious", not ids like "c3")."""
    return key.replace("_", "").replace(" ", "").isalpha()


class Decider(Protocol):
    """Anything that answers questions: returns an option key (or free text)."""

    def decide(self, question: Question) -> str: ...
