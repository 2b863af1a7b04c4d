"""Who is who in a narrated conflict: names, pronouns and temper by participant id.

Events name participants by id only, and ``conflict_start`` carries no
pronouns or Code Blocks (the engine does not need them), so narration keeps
its own small record, built from ``conflict_start`` plus whatever the game
knows about the people (a Character, an NPC, or a plain table). It also
follows the fight as events arrive (who is still in, how low a Pool is, who
last hit whom), which is what a GM watches to give clues.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeGuard, overload

from ..rules.character import Character
from .templates import GENERIC, trait_key

_TITLES = {"doctor", "dr", "dr.", "mr", "mr.", "mrs", "mrs.", "ms", "ms.", "miss", "captain", "sister",
           "brother", "father", "mother", "lady", "lord", "sir", "professor", "inspector", "sergeant",
           "officer", "madame", "master", "old", "young", "the", "a", "an", "uncle", "aunt"}
_PRONOUNS = ("he", "she", "they", "it")

# What the game knows about someone: a Character (or an NPC, whose Code Block is read) or a plain table.
PersonInfo = Character | Mapping[str, Any]


class Temperament(Protocol):
    """The part of an NPC's leanings (``solo.npc.leanings.Leanings``) that flavours its lines.

    A protocol, not an import: narration sits beside the NPC package, not above it.
    """

    @property
    def mindless(self) -> bool: ...
    @property
    def yields(self) -> bool: ...
    @property
    def lean(self) -> Mapping[str, float]: ...
    @property
    def flee_threshold(self) -> float: ...
    @property
    def on_break(self) -> tuple[str, ...]: ...


@dataclass
class Person:
    """One participant as narration sees it."""

    id: str
    name: str  # as the lines say it: "Espen", "the old lock"
    pronoun: str = "they"
    side: str = "a"
    pc: bool = False
    obstacle: bool = False
    weapon: str | None = None  # the gear table's name, e.g. "Small firearm"
    lenses: bool = True  # False for Common NPCs, whose every declaration is a plain one
    traits: tuple[str, ...] = ()  # personality keys for NPC speech, e.g. ("aggressive", "sadistic")
    mindless: bool = False
    temper: str | None = None  # "fearful", "stubborn" or None: flavours the Pool clues
    breaks_by: str | None = None  # "plea" or "bargain": what it says when its nerve goes
    # -- followed as the conflict goes on
    active: bool = True
    pool: int = 0
    pool_max: int = 0
    clue: int = 0  # 0 fine, 1 wavering told, 2 breaking told
    last_foe: str | None = None
    role: str | None = None  # "pursuer" or "quarry" in a chase
    # -- this round and the ones before, for lines that depend on what came before
    lens: str = "none"  # declared this round
    leaving: bool = False  # declared Quick to get away this round
    shown: str | None = None  # the stance its told declaration showed (docs/narration.md, "Filters")
    target: int | None = None  # this round's roll: its target, face and success
    roll: int | None = None
    success: bool | None = None
    misses: int = 0  # rolls missed in a row
    results: list[str] = field(default_factory=list)  # per round: "won", "lost" or "stalled"
    edges: int = 0  # Clever wins in a row
    signalled: bool = False  # its body language said it would rather run (a fearful clue)
    offered: bool = False  # it begged or bargained and the fight went on
    steadied: set[str] = field(default_factory=set)  # the follow-throughs already told ("flight", "offer")

    @property
    def voiced(self) -> bool:
        """Whether lines of NPC speech fit: not a player's character, an obstacle or a mindless thing."""
        return not self.pc and not self.obstacle and not self.mindless


def spoken_name(name: str, *, obstacle: bool = False) -> str:
    """The name as a sentence uses it.

    People go by their first name ("Espen Lind" -> "Espen") unless the first
    word is a title; a name in lower case after its first word is a description
    and gets "the" ("Town guard" -> "the town guard"), and so do obstacles
    ("Old lock" -> "the old lock"). Capitals at a sentence start are put back
    when a line is rendered.
    """
    words = name.split()
    if not words:
        return name
    if words[0].lower() in ("the", "a", "an"):
        return words[0].lower() + name[len(words[0]):]
    described = len(words) > 1 and all(w[:1].islower() for w in words[1:])
    if obstacle or described:
        if all(w[:1].isupper() for w in words) and len(words) > 1:
            return "the " + name  # a proper name: "the Iron Gate"
        first = words[0]
        if not (len(first) > 1 and first.isupper()):
            first = first[:1].lower() + first[1:]
        return "the " + " ".join([first] + words[1:])
    if 2 <= len(words) <= 3 and all(w[:1].isupper() for w in words) and words[0].lower() not in _TITLES:
        return words[0]
    return name


class Cast:
    """The people of one conflict by participant id.

    ``people`` gives what ``conflict_start`` lacks, by id: a Character or NPC
    (its pronoun, Code Block and mindlessness are read), or a table with any of
    ``name``, ``pronoun``, ``traits``, ``mindless``, ``temper``, ``breaks_by``.
    """

    def __init__(self, people: Mapping[str, PersonInfo] | None = None, *, settings: tuple[str, ...] = ()) -> None:
        self.people: dict[str, PersonInfo] = dict(people or {})
        self.given_settings = frozenset(settings)  # the adventure's words for where the conflicts happen
        self.persons: dict[str, Person] = {}
        self.type = GENERIC
        self.type_name = ""
        self.pool_name = ""
        self.started = False
        self.round = 0
        self.round_limit: int | None = None
        self.physical = False
        self.settings: frozenset[str] = frozenset(settings)

    # -- building ------------------------------------------------------------------
    def begin(self, event: Mapping[str, Any]) -> None:
        """Fill the cast from a ``conflict_start`` event (a new conflict starts afresh)."""
        self.type = event.get("type") or GENERIC
        self.type_name = event.get("type_name") or self.type.replace("_", " ")
        self.pool_name = event.get("pool_name") or ""
        self.round = 0
        self.round_limit = event.get("round_limit")
        self.physical = _physical(self.type, event)
        self.settings = self.given_settings | frozenset(str(s) for s in event.get("settings") or ())
        roles = event.get("roles") or {}
        chase = self.type.endswith("chase") or bool(roles)
        self.persons = {}
        for entry in event.get("participants") or []:
            pid = entry["id"]
            obstacle = bool(entry.get("obstacle"))
            person = Person(
                id=pid, name=spoken_name(entry.get("name") or pid, obstacle=obstacle),
                pronoun=_obstacle_pronoun(entry.get("name") or pid) if obstacle else "they",
                side=entry.get("side", "a"), pc=bool(entry.get("pc")),
                obstacle=obstacle, weapon=entry.get("weapon"), lenses=bool(entry.get("lenses", True)),
                pool=int(entry.get("pool") or 0),
                pool_max=int(entry.get("pool_max") or 0),
            )
            if chase:  # who hunts whom: the side that starts a chase pursues, unless the event says otherwise
                person.role = roles.get(pid) or ("pursuer" if person.side == "a" else "quarry")
            self._apply(person, self.people.get(pid))
            self.persons[pid] = person
        self.started = True

    def add(self, pid: str, *, name: str | None = None, side: str = "a", **info: Any) -> Person:
        """Add someone by hand (an escalation before any conflict_start, a test).

        Someone nobody described counts as a player's character, so narration
        never puts NPC speech in the mouth of a person it knows nothing about.
        """
        person = Person(id=pid, name=spoken_name(name or pid), side=side, pc=True)
        known = self.people.get(pid)
        if info:
            known = {**(known if isinstance(known, Mapping) else {}), **info} if not _is_character(known) else known
        self._apply(person, known)
        self.persons[pid] = person
        return person

    def _apply(self, person: Person, info: PersonInfo | None) -> None:
        if info is None:
            return
        if isinstance(info, Mapping):
            if info.get("name"):
                person.name = str(info["name"])
            if info.get("pronoun") in _PRONOUNS:
                person.pronoun = info["pronoun"]
            if info.get("traits"):
                person.traits = tuple(trait_key(str(t)) for t in info["traits"])
                person.pc = False  # only NPCs have personality entries
            person.mindless = bool(info.get("mindless", person.mindless))
            person.temper = info.get("temper", person.temper)
            person.breaks_by = info.get("breaks_by", person.breaks_by)
            if "pc" in info:
                person.pc = bool(info["pc"])
            return
        # a Character or an NPC
        person.pc = bool(getattr(info, "is_pc", person.pc))
        pronoun = getattr(info, "pronoun", None)
        if pronoun in _PRONOUNS:
            person.pronoun = pronoun
        person.mindless = bool(getattr(info, "mindless", False))
        block = getattr(info, "code_block", None)
        if block is not None:
            person.traits = tuple(trait_key(t.name) for t in block.personality)
        if hasattr(info, "leanings") and (block is not None or person.mindless):
            try:
                lean: Temperament | None = info.leanings()
            except (ValueError, KeyError):
                lean = None
            if lean is not None:
                person.temper = _temper(lean)
                person.breaks_by = _breaks_by(lean)

    # -- looking up ----------------------------------------------------------------
    @overload
    def person(self, pid: str) -> Person: ...
    @overload
    def person(self, pid: None) -> None: ...

    def person(self, pid: str | None) -> Person | None:
        """The person with this id; an id never announced becomes a bare person named by it."""
        if pid is None:
            return None
        if pid not in self.persons:
            return self.add(pid)
        return self.persons[pid]

    def first(self, side: str) -> Person | None:
        people = [p for p in self.persons.values() if p.side == side]
        active = [p for p in people if p.active]
        found = active or people
        return found[0] if found else None

    def opponent(self, person: Person | None) -> Person | None:
        """Whom a line about ``person`` is aimed at: the last foe still standing, else the first active one."""
        if person is None:
            return None
        foes = [p for p in self.persons.values() if p.side != person.side]
        if person.last_foe and person.last_foe in self.persons:
            last = self.persons[person.last_foe]
            if last.active or not any(p.active for p in foes):
                return last
        active = [p for p in foes if p.active]
        found = active or foes
        return found[0] if found else None

    def both_sides_in(self) -> bool:
        return {p.side for p in self.persons.values() if p.active} >= {"a", "b"}


def _obstacle_pronoun(name: str) -> str:
    """"it" for an old lock, "they" for parish records: the verbs of a line must agree with the name."""
    from .text import english

    last = name.split()[-1] if name.split() else name
    return "they" if last.isalpha() and english().singular_noun(last.lower()) else "it"


def _physical(ctype: str, event: Mapping[str, Any]) -> bool:
    """Whether weapons count in this conflict: the bundled type says so; an unknown one, if anyone strikes with one."""
    try:
        from ..rules.conflict_types import bundled_conflict_types

        return bundled_conflict_types()[ctype].physical
    except (KeyError, OSError, ValueError):
        return any(p.get("strikes_with") for p in event.get("participants") or ())


def _is_character(info: PersonInfo | None) -> TypeGuard[Character]:
    return info is not None and not isinstance(info, Mapping)


def _temper(lean: Temperament) -> str | None:
    """How an NPC carries a low Pool, from its Code Block: "fearful" looks for a way out, "stubborn" does not."""
    if lean.mindless or not lean.yields:
        return "stubborn"
    preservation = lean.lean.get("self_preservation", 0.0)
    resolve = lean.lean.get("resolve", 0.0)
    if preservation >= 0.4 or lean.flee_threshold >= 0.5:
        return "fearful"
    if resolve >= 0.6 or preservation <= -0.3:
        return "stubborn"
    return None


def _breaks_by(lean: Temperament) -> str | None:
    for reaction in lean.on_break:
        if reaction == "bargain":
            return "bargain"
        if reaction in ("beg", "surrender"):
            return "plea"
    return None
