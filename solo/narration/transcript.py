"""A whole event log told as a story, one paragraph per round.

The journal and ``solo duel --narrate`` read a finished log rather than a live
feed, so this helper walks it once with a fresh :class:`Cast` per conflict. It
returns plain text pieces; how they are styled (rich, Markdown) is the
renderer's business.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..events import Event
from ..rules.dice import target_text
from .cast import Cast, PersonInfo
from .narrator import Narrator, _kind_data

__all__ = ["Passage", "narrate_events", "transcript"]


@dataclass
class Passage:
    """The lines of one round (round 0: the opening; ``title`` set on a conflict's first passage)."""

    round: int
    lines: list[str] = field(default_factory=list)
    title: str | None = None
    facts: list[str] = field(default_factory=list)  # the numbers, for a GM preview

    @property
    def text(self) -> str:
        return " ".join(self.lines)


#: The screen's own line for an event, where the story leaves it to the screen (the ways out of a conflict: a broken
#: nerve's clue, "Petra flees."): solo.ui.describe.WaysOut.line gives them, a layer above the story's.
ScreenLine = Callable[[str, Mapping[str, Any]], "str | None"]


def narrate_events(events: Iterable[Event | Mapping[str, Any]], narrator: Narrator, *,
                   people: Mapping[str, PersonInfo] | None = None,
                   cast: Cast | None = None, numbers: bool = False,
                   screen: ScreenLine | None = None) -> list[Passage]:
    """Narrate every event in order; ``people`` fills in pronouns and Code Blocks by participant id, and ``screen``
    puts in the lines the story leaves to the screen, where no screen shows them (a told duel)."""
    cast = cast if cast is not None else Cast(people)
    passages: list[Passage] = []
    current: Passage | None = None
    for event in events:
        kind, data = _kind_data(event)
        if kind == "conflict_start":
            cast.people = {**cast.people, **(people or {})}
            current = Passage(0, title=_title(data))
            passages.append(current)
        elif kind == "round_start" or current is None:
            current = Passage(int(data.get("round", 0)))
            passages.append(current)
        elif kind == "conflict_end":  # what is left when it is over gets a paragraph of its own
            current = Passage(0)
            passages.append(current)
        said = screen(kind, data) if screen is not None else None
        if said:
            current.lines.append(said)
        lines = narrator.narrate(event, cast)
        current.lines += lines
        if numbers:
            fact = _fact(kind, data)
            if fact:
                current.facts.append(fact)
    return [p for p in passages if p.lines or p.title or p.facts]


def transcript(events: Iterable[Event | Mapping[str, Any]], narrator: Narrator, *,
               people: Mapping[str, PersonInfo] | None = None,
               numbers: bool = False, screen: ScreenLine | None = None) -> str:
    """The story of an event log as plain text: a title, then a paragraph per round."""
    out: list[str] = []
    for p in narrate_events(events, narrator, people=people, numbers=numbers, screen=screen):
        if p.title:
            out.append(p.title)
        body = p.text if p.round == 0 else f"Round {p.round}. {p.text}".rstrip()
        if p.lines or p.round:
            out.append(body)
        if p.facts:
            out.append("[" + "; ".join(p.facts) + "]")
    return "\n\n".join(out) + ("\n" if out else "")


def _title(data: Mapping[str, Any]) -> str:
    names: dict[str, list[str]] = {"a": [], "b": []}
    for entry in data.get("participants") or []:
        names.setdefault(entry.get("side", "a"), []).append(entry.get("name") or entry["id"])
    kind = data.get("type_name") or str(data.get("type", "Conflict")).replace("_", " ").capitalize()
    return f"{kind}: {' and '.join(names['a'])} against {' and '.join(names['b'])}"


def _fact(kind: str, d: Mapping[str, Any]) -> str | None:
    if kind == "roll":
        mark = "hit" if d.get("success") else "miss"
        if d.get("exceptional"):
            mark += "!"
        return f"{d['actor']} {d['roll']:02d}/{target_text(int(d['target']))} {mark}"
    if kind == "damage":
        return f"{d['target']} -{d['amount']} {d.get('pool', '')} ({d.get('after')}/{d.get('maximum')})"
    if kind == "luck":
        return f"{d['actor']} Luck: {d.get('use')}"
    if kind == "declare" and d.get("lens") not in (None, "none"):
        return f"{d['actor']} {d['lens']}"
    return None
