"""Code Blocks (docs/rules.md §7.2): the four tags that say how an NPC acts and why.

A Code Block is plain data that names table entries; the lean numbers stay in
the tables, so tuning ``oracles/codeblocks.toml`` changes every NPC at once and
a saved NPC never carries stale numbers.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from ..errors import ContentError, did_you_mean
from ..rules.dice import d
from .tables import DIE, TABLE_TITLES, TRAIT_TABLES, CodeBlockTables, codeblocks

T = TypeVar("T")

RANDOM = "random"


@dataclass(frozen=True)
class Trait:
    """One personality entry, remembering which table it came from (names repeat across them)."""

    name: str
    table: str = "personality"  # or "dark_triad"

    def __str__(self) -> str:
        return self.name if self.table == "personality" else f"{self.name} ({TABLE_TITLES[self.table]})"


#: What stands in for a personality a Code Block names wrongly while the rest of it is read (never built).
_NO_TRAITS = (Trait(""), Trait(""))


@dataclass(frozen=True)
class RecentEvent:
    topic: str
    positive: bool
    example: str

    @property
    def sign(self) -> int:
        return 1 if self.positive else -1

    def __str__(self) -> str:
        return f"{self.topic} {'+' if self.positive else '−'} ({self.example})"


@dataclass
class CodeBlock:
    """Personality (two entries), disposition towards the PCs, motivation(s), recent event.

    Mutable on purpose: the disposition moves as the PCs deal with the NPC.
    """

    personality: tuple[Trait, Trait]
    motivation: tuple[str, ...]
    event: RecentEvent
    disposition: str = "Neutral"

    @property
    def antagonist(self) -> bool:
        return any(t.table == "dark_triad" for t in self.personality)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for table in TRAIT_TABLES:
            names = [t.name for t in self.personality if t.table == table]
            if names:
                out[table] = names
        out["disposition"] = self.disposition
        out["motivation"] = list(self.motivation)
        out["event"] = {
            "topic": self.event.topic,
            "sign": "positive" if self.event.positive else "negative",
            "example": self.event.example,
        }
        return out

    @classmethod
    def from_dict(
        cls, data: object, *, file: str | Path | None = None, path: str = "code_block",
        rng: random.Random | None = None,
        tables: CodeBlockTables | None = None,
    ) -> CodeBlock:
        """Read a Code Block whose fields are fixed names or ``"random"`` (rolled with ``rng``)."""
        return _Reader(data, file, path, rng, tables or codeblocks()).build()


def roll_trait(rng: random.Random, table: str = "personality", tables: CodeBlockTables | None = None) -> Trait:
    t = tables or codeblocks()
    return Trait(t.trait_by_roll(table, d(rng, DIE)).name, table)


def roll_motivation(rng: random.Random, tables: CodeBlockTables | None = None) -> str:
    return (tables or codeblocks()).motivation_by_roll(d(rng, DIE)).name


def roll_event(rng: random.Random, tables: CodeBlockTables | None = None) -> RecentEvent:
    """One d20 for topic and sign (odd bad, even good), then one of that topic's examples."""
    topic, positive = (tables or codeblocks()).event_by_roll(d(rng, DIE))
    return RecentEvent(topic.topic, positive, rng.choice(topic.examples(positive)))


def roll_code_block(
    rng: random.Random, antagonist: bool = False, *, motivations: int = 1,
    disposition: str | None = None, tables: CodeBlockTables | None = None,
) -> CodeBlock:
    """The quick NPC: four d20 read in order, then extra draws only where asked.

    The order is Personality, Personality (Dark Triad for antagonists),
    Motivation, Recent Event, then the event's example and, with
    ``motivations=2``, a second different motivation. A double personality
    (the same entry twice) is kept: it reads as "very", and its lean counts
    twice. Disposition is Neutral unless given.
    """
    t = tables or codeblocks()
    if motivations not in (1, 2):
        raise ValueError("an NPC has one or two motivations")
    first = roll_trait(rng, "personality", t)
    second = roll_trait(rng, "dark_triad" if antagonist else "personality", t)
    motive = roll_motivation(rng, t)
    event = roll_event(rng, t)
    chosen = [motive]
    while len(chosen) < motivations:
        extra = roll_motivation(rng, t)
        if extra not in chosen:
            chosen.append(extra)
    disp = t.disposition(disposition).name if disposition else t.default_disposition.name
    return CodeBlock((first, second), tuple(chosen), event, disp)


class _Reader:
    def __init__(self, data: Any, file: str | Path | None, path: str, rng: random.Random | None,
                 tables: CodeBlockTables) -> None:
        self.data = data
        self.file = file
        self.path = path
        self.rng = rng
        self.t = tables
        self.found: list[ContentError] = []  # problems kept while the rest of the block is read

    def problem(self, where: str, message: str) -> ContentError:
        return ContentError(message, file=self.file, path=f"{self.path}.{where}" if where else self.path)

    def fail(self, where: str, message: str) -> NoReturn:
        raise self.problem(where, message)

    def keep(self, where: str, message: str) -> None:
        """A problem noted, the reading going on: ``solo check`` lists every problem of a Code Block at once, not
        one a run (new-user run: two unknown personality entries took two runs to see)."""
        self.found.append(self.problem(where, message))

    def part(self, read: Callable[[], T], stand_in: T) -> T:
        """One part of the block read, its problem kept (with ``stand_in`` in its place) so the next is read too."""
        try:
            return read()
        except ContentError as exc:
            self.found.append(exc)
            return stand_in

    def roller(self, where: str) -> random.Random:
        if self.rng is None:
            self.fail(where, "is rolled at random, which needs a random generator here; write a fixed value")
        return self.rng

    def build(self) -> CodeBlock:
        data = self.data
        if isinstance(data, str) and data.strip().lower() in (RANDOM, "antagonist"):
            return roll_code_block(self.roller(""), data.strip().lower() == "antagonist", tables=self.t)
        if not isinstance(data, dict):
            self.fail("", 'expected a table of Code Block fields, "random" or "antagonist"')
        known = (*TRAIT_TABLES, "disposition", "motivation", "event")
        for key in data:
            if key not in known:
                self.fail(key, f"unknown field{did_you_mean(key, known)}; known: {', '.join(known)}")
        personality = self.part(self.personality, _NO_TRAITS)
        disposition = self.part(self.disposition, "")
        motivation: tuple[str, ...] = self.part(self.motivation, ("",))
        event = self.part(self.event, RecentEvent("", False, ""))
        if self.found:
            first, *others = self.found
            first.others = others
            raise first
        return CodeBlock(personality, motivation, event, disposition)

    def names(self, key: str) -> list[str]:
        value = self.data.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            self.fail(key, "expected a list of names")
        for i, item in enumerate(value):
            if not isinstance(item, str) or not item.strip():
                self.fail(f"{key}[{i}]", "expected a name or \"random\"")
        return [item.strip() for item in value]

    def personality(self) -> tuple[Trait, Trait]:
        if not any(k in self.data for k in TRAIT_TABLES):
            rng = self.roller("personality")
            return roll_trait(rng, "personality", self.t), roll_trait(rng, "personality", self.t)
        traits = []
        written = 0  # entries as written: an unknown one is still an entry ("got 1" beside it misled)
        unknown = len(self.found)
        for table in TRAIT_TABLES:
            names = self.names(table)
            written += len(names)
            for i, name in enumerate(names):
                if name.lower() == RANDOM:
                    traits.append(roll_trait(self.roller(f"{table}[{i}]"), table, self.t))
                    continue
                try:
                    traits.append(Trait(self.t.trait(table, name).name, table))
                except KeyError as exc:
                    self.keep(f"{table}[{i}]", exc.args[0])  # the other entries are read too
        if written != 2:
            self.fail("personality", f"a Code Block has exactly two personality entries "
                                     f"(personality plus dark_triad), got {written}")
        if len(self.found) > unknown:  # an unknown entry, kept: build raises it with the rest
            return _NO_TRAITS
        return traits[0], traits[1]

    def disposition(self) -> str:
        value = self.data.get("disposition", self.t.default_disposition.name)
        if not isinstance(value, str):
            self.fail("disposition", "expected a disposition name")
        try:
            return self.t.disposition(value).name
        except KeyError as exc:
            self.fail("disposition", exc.args[0])

    def motivation(self) -> tuple[str, ...]:
        if "motivation" not in self.data:
            return (roll_motivation(self.roller("motivation"), self.t),)
        names = self.names("motivation")
        if not 1 <= len(names) <= 2:
            self.fail("motivation", f"an NPC has one or two motivations, got {len(names)}")
        out: list[str] = []
        for i, name in enumerate(names):
            if name.lower() == RANDOM:
                rng = self.roller(f"motivation[{i}]")
                pick = roll_motivation(rng, self.t)
                while pick in out:
                    pick = roll_motivation(rng, self.t)
            else:
                try:
                    pick = self.t.motivation(name).name
                except KeyError as exc:
                    self.fail(f"motivation[{i}]", exc.args[0])
            if pick in out:
                self.fail(f"motivation[{i}]", f"{pick!r} is listed twice")
            out.append(pick)
        return tuple(out)

    def event(self) -> RecentEvent:
        value = self.data.get("event", RANDOM)
        if isinstance(value, str) and value.strip().lower() == RANDOM:
            return roll_event(self.roller("event"), self.t)
        if not isinstance(value, dict):
            self.fail("event", 'expected {topic = "…", sign = "positive" | "negative", example = "…"} or "random"')
        for key in value:
            if key not in ("topic", "sign", "example"):
                self.fail(f"event.{key}", f"unknown field{did_you_mean(key, ('topic', 'sign', 'example'))}")
        topic_name = value.get("topic")
        if not isinstance(topic_name, str):
            self.fail("event.topic", "missing topic (Money, Love, Family …)")
        try:
            topic = self.t.event(topic_name)
        except KeyError as exc:
            self.fail("event.topic", exc.args[0])
        sign = value.get("sign")
        if sign not in ("positive", "negative", "+", "-"):
            self.fail("event.sign", f"expected \"positive\" or \"negative\", got {sign!r}")
        positive = sign in ("positive", "+")
        example = value.get("example", topic.examples(positive)[0])
        if not isinstance(example, str) or not example.strip():
            self.fail("event.example", "expected text saying what happened")
        return RecentEvent(topic.topic, positive, example.strip())
