"""Who is who in a narrated conflict: names, pronouns, bodies and temper by participant id.

A projection of the events: ``conflict_start`` says what each participant is
(its pronoun, body, whether it speaks and is heard, what its weapon is called,
an NPC's personality and temper) and the conflict's frame (physical or not,
who pursues or hides, the settings), as :mod:`solo.rules.fiction` settles them;
the cast copies those facts and guesses none. It then follows the fight as
events arrive (who is still in, how low a Pool is, who last hit whom, whether
the conflict is decided), which is what a GM watches to give clues.

``people`` (a table, a Character or an NPC by id) only fills in what a
hand-built event leaves out: a test, or an escalation told before any
``conflict_start``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard, overload

from ..rules.character import Character
from ..rules.fiction import PARTS, fiction_of_character, temperament
from .context import condition, manner_of
from .templates import GENERIC, trait_key

#: The parts a pursuit's lines are written for first (the one chasing or tracking, the one hiding): a type keeps
#: their lines under its own name, the other part's under ``TYPE.side_b`` (the quarry, the watchers).
_LEADING_PARTS = frozenset(first for first, _ in PARTS.values())

_TITLES = {"doctor", "dr", "dr.", "mr", "mr.", "mrs", "mrs.", "ms", "ms.", "miss", "captain", "sister",
           "brother", "father", "mother", "lady", "lord", "sir", "professor", "inspector", "sergeant",
           "officer", "madame", "master", "old", "young", "the", "a", "an", "uncle", "aunt",
           # (a fiction audit: "Magistrate Holm" was told as "Magistrate opens the debate")
           "magistrate", "judge", "sheriff", "constable", "mayor", "bishop", "reverend", "pastor", "colonel",
           "major", "lieutenant", "general", "admiral", "king", "queen", "prince", "princess", "count",
           "countess", "baron", "baroness", "duke", "duchess", "dame", "chief", "commissioner", "detective",
           "nurse", "widow", "skipper"}
_PRONOUNS = ("he", "she", "they", "it")

# What the game knows about someone: a Character (or an NPC, whose Code Block is read) or a plain table.
PersonInfo = Character | Mapping[str, Any]


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
    body: str = "flesh"  # what it is made of (solo.rules.fiction.BODIES): which lines fit it
    speaks: bool = True  # it can speak at all
    heard: bool = True  # and the other side hears it in this conflict
    weapon_called: str | None = None  # what the text calls its weapon, overriding the gear table's word
    carries_on: bool = True  # a spent Pool may not end it for this one (it may push on or spend Luck)
    temper: str | None = None  # "fearful", "stubborn" or None: flavours the Pool clues
    manner: str | None = None  # its bearing now (solo.narration.context.MANNERS); Moody and Impulsive swing
    breaks_by: str | None = None  # "plea" or "bargain": what it says when its nerve goes
    # -- followed as the conflict goes on
    active: bool = True
    pool: int = 0
    pool_max: int = 0
    clue: int = 0  # 0 fine, 1 wavering told, 2 breaking told
    pushing: bool = False  # it pushes on below zero: from now on only its full negative value ends it (comae)
    last_foe: str | None = None
    chased_by: str | None = None  # the one who gave chase when it ran (exit_answer): who catches it, if anyone
    outran: str | None = None  # who gave chase and was outrun (no "lets her run" of the one who chased)
    struck_by: str | None = None  # who dealt it the last blow (the one a closing names)
    struck_aside: bool = False  # that blow hit a Pool the conflict is not fought with (Flamboyant's CHA, Covert's POW)
    role: str | None = None  # its part in a pursuit: "pursuer" or "quarry", "hider" or "seeker"
    # -- this round and the ones before, for lines that depend on what came before
    lens: str = "none"  # declared this round
    leaving: bool = False  # declared Quick to get away this round
    exiting: bool = False  # declared this round that it yields or runs (exit_offer): its plea is told
    shown: str | None = None  # the stance its told declaration showed (docs/narration.md, "Filters")
    was: str | None = None  # the stance it showed the round before (None: it declared nothing told then)
    target: int | None = None  # this round's roll: its target, face and success
    roll: int | None = None
    focus: str | None = None  # the Focus its last flashy move counted ("Brawn"): the move is named by it
    success: bool | None = None
    misses: int = 0  # rolls missed in a row
    results: list[str] = field(default_factory=list)  # per round: "won", "lost" or "stalled"
    edges: int = 0  # Clever wins in a row
    signalled: bool = False  # its body language said it would rather run (a fearful clue)
    afraid: int = -1  # the last round its fear was shown: a fearful Pool clue, or its nerve failing (npc_morale)
    shaken: bool = False  # its nerve is failing now (npc_morale shaken or broken, until it steadies): it taunts nobody
    jolted: int = -1  # the last round a heavy blow struck it: its bearing then is no calm one ("stammers, badly
    # caught out", then "it is all business" read wrong)
    finished: int = -1  # the last round a line told the blow that ended it ([blow:final]): no out or comae line then
    gone: str = ""  # how it left the conflict (out, comae, fled, surrendered): the conflict's ending reads it
    #: its nerve broke, and the screen's clue said how it leaves ("Torgny looks round … then makes to leave"): its
    #: going is not told again
    broke: bool = False
    studied: str = ""  # the foe its last Clever declaration watched: its follow-up names that one, or nobody
    #: when it left the conflict (went down, gave up or ran): (the round, the order of leaving), (-1, -1) while in;
    #: the closing is told of the last to leave, not of one who gave up rounds before the one whose going ended it
    left: tuple[int, int] = (-1, -1)
    offered: bool = False  # it begged or bargained and the fight went on
    #: its surrender was refused or its flight caught: it fights on to the end, and offers nothing again (the engine
    #: closes its exits; docs/rulings.md: nobody offers twice what was refused)
    held: bool = False
    steadied: set[str] = field(default_factory=set)  # the follow-throughs already told ("flight", "offer")
    flourishes: int = 0  # its flashy moves told so far: the skill shown off is named in one of every FLAIR_EVERY
    #: the people a side's stand-in (:meth:`Cast.group`) names together: what they carry is theirs, not its own
    members: tuple[Person, ...] = field(default=(), repr=False, compare=False)

    @property
    def condition(self) -> str | None:
        """How hurt this one is now, by its Pool (:func:`solo.narration.context.condition`): the one reading that
        the Pool clues and the ``state`` filters share."""
        return condition(self.pool, self.pool_max)

    @property
    def told_side(self) -> str:
        """Whose lines tell this one: in a pursuit, its part's (a party hunted by the NPC it would hunt, as an
        adventure's ``pursuer = "opponents"`` has it, is told as the quarry, not as the tracker: a fiction audit had
        the hunted man "bend to the ground and read" the trail he was covering); elsewhere its side's."""
        if self.role is None:
            return self.side
        return "a" if self.role in _LEADING_PARTS else "b"

    @property
    def bites(self) -> bool:
        """A beast with no weapon: it fights with its teeth, not fists (no "raises its fists", no unarmed line of a
        person's guard; a fiction audit's boar)."""
        return self.body == "animal" and self.weapon in (None, "Unarmed")

    @property
    def strikes_bare(self) -> bool:
        """A machine or a thing with no weapon: it strikes with its own bulk, not fists (a GM's wheel: "The great
        wheel raises its fists", "can barely lift its fists"), and no line of a person's guard is told of it."""
        return self.body in ("machine", "object") and self.weapon in (None, "Unarmed")

    @property
    def voiced(self) -> bool:
        """Whether lines of NPC speech fit: an NPC that can speak and is heard (not a PC, an obstacle, a mindless
        thing, a watchman who must not notice anyone, a quarry far off)."""
        return not self.pc and not self.obstacle and not self.mindless and self.speaks and self.heard


def spoken_name(name: str, *, obstacle: bool = False) -> str:
    """The name as a sentence uses it.

    People go by their first name ("Espen Lind" -> "Espen") unless the first
    word is a title; a name in lower case after its first word is a description
    and gets "the" ("Town guard" -> "the town guard"), and so do obstacles
    ("Old lock" -> "the old lock"). Capitals at a sentence start are put back
    when a line is rendered.
    """
    # a word with no letter (an emoji a player gave the name) is no part of the name spoken (a group's evening, a
    # review: "Town guard 🛡" was said whole, not "the town guard")
    lettered = [w for w in name.split() if any(ch.isalpha() for ch in w)]
    if lettered and len(lettered) < len(name.split()):
        name = " ".join(lettered)
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
    # a nickname in quotes is what the story calls them ('Jonas "Gull" Pike' is Gull): such a name was said whole
    # every time, ten times a round (a group's evening)
    nick = re.search(r'["\u201c]([^"\u201d]{1,24})["\u201d]', name)
    if nick and nick.group(1).strip() and words[0].lower() not in _TITLES:
        return nick.group(1).strip()
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
        self.frame: Mapping[str, Any] = {}
        self.decided = False  # one side has nobody left in: the events say so (out, exit, comae)
        self.left_count = 0  # how many have left the conflict so far (Person.left)

    # -- building ------------------------------------------------------------------
    def begin(self, event: Mapping[str, Any]) -> None:
        """Fill the cast from a ``conflict_start`` event (a new conflict starts afresh)."""
        self.type = event.get("type") or GENERIC
        self.type_name = event.get("type_name") or self.type.replace("_", " ")
        self.pool_name = event.get("pool_name") or ""
        self.round = 0
        self.left_count = 0
        self.round_limit = event.get("round_limit")
        frame = self.frame = event.get("frame") or {}
        self.physical = bool(frame.get("physical"))
        self.decided = False
        self.settings = self.given_settings | frozenset(str(s) for s in frame.get("settings") or ())
        self.persons = {}
        for entry in event.get("participants") or []:
            pid = entry["id"]
            obstacle = bool(entry.get("obstacle"))
            pronoun = entry.get("pronoun")
            person = Person(
                id=pid, name=entry.get("called") or _obstacle_or_spoken(entry.get("name") or pid, obstacle, pronoun),
                pronoun=pronoun if pronoun in _PRONOUNS else "it" if obstacle else "they",
                side=entry.get("side", "a"), pc=bool(entry.get("pc")),
                obstacle=obstacle, weapon=entry.get("weapon"), lenses=bool(entry.get("lenses", True)),
                pool=int(entry.get("pool") or 0),
                pool_max=int(entry.get("pool_max") or 0),
                # one who comes into it pushing on (asked before the first round, below zero) goes on until its full
                # negative value: a blow tells at once, in its round (it was told a round late, after the next round's
                # heading: a fiction audit); a log from before the flag reads it off the Pool
                pushing=bool(entry.get("pushing", int(entry.get("pool") or 0) < 0)),
                body=entry.get("body") or ("object" if obstacle else "flesh"),
                speaks=bool(entry.get("speaks", not obstacle)), heard=bool(entry.get("heard", not obstacle)),
                weapon_called=entry.get("weapon_called"), role=entry.get("part"),
                carries_on=bool(entry.get("carries_on", not obstacle)),
                traits=tuple(entry.get("traits") or ()), mindless=bool(entry.get("mindless")),
                temper=entry.get("temper"), breaks_by=entry.get("breaks_by"),
            )
            self._apply(person, self.people.get(pid))
            person.manner = manner_of(person.traits) if not person.pc else None
            self.persons[pid] = person
        self._tell_apart({entry["id"]: entry.get("name") or entry["id"] for entry in event.get("participants") or []})
        self.started = True

    def _tell_apart(self, full: Mapping[str, str]) -> None:
        """Two people one name would confuse ("Ingrid never finds her footing, and Ingrid does") go by their
        full names; two with the very same name, the later one as "the other Ingrid". One who goes by a first name
        another still bears ("Halvard" beside "Halvard Brekke", a lock-like foe keeping its full name) goes by the
        full name too: "Halvard raises his hands" read as Brekke giving up."""
        for person in self.persons.values():
            own = full.get(person.id, person.name)
            if person.obstacle or person.name == own:
                continue
            if any(other is not person and full.get(other.id, other.name).split(" ")[0] == person.name
                   for other in self.persons.values()):
                person.name = own
        by_name: dict[str, list[Person]] = {}
        for person in self.persons.values():
            by_name.setdefault(person.name, []).append(person)
        for same in by_name.values():
            if len(same) < 2:
                continue
            seen: set[str] = set()
            for person in same:
                name = full.get(person.id, person.name) if not person.obstacle else person.name
                person.name = name if name not in seen else f"the other {spoken_name(name)}"
                seen.add(name)

    def sides(self) -> tuple[str, str]:
        """The two sides in the order a line told of both names them: in a pursuit, the leading part first (the
        tracker, the one sneaking), as a type's own lines have it ("The hunt begins: {actor} is on {target}'s
        trail"), whichever side plays it (an adventure's ``pursuer = "opponents"``); elsewhere a, then b."""
        parts = self.frame.get("parts") or {}
        return ("b", "a") if parts.get("b") in _LEADING_PARTS else ("a", "b")

    def group(self, side: str, *, active_first: bool = True, among: Iterable[Person] | None = None) -> Person | None:
        """A side as one line names it: its only member, or the party as a party ("Espen's party", "Knut's side").

        A collective name reads right whether a line agrees its verb with "they" or was written in the singular.
        Only those still in the conflict count while anyone of the side is (``active_first``), so a party is
        never named after a PC who has fled it; ``among``: only these of the side (an ending told of those it
        ended for). The party carries no weapon of its own: its ``members`` say what it carries (the narrator's
        ``weapon`` fact is theirs when they all carry one kind), so two PCs with axes are not told as a party
        that "raises their fists".
        """
        people = [p for p in self.persons.values() if p.side == side]
        if among is not None:
            chosen = {id(p) for p in among}
            people = [p for p in people if id(p) in chosen]
        if active_first and any(p.active for p in people):
            people = [p for p in people if p.active]
        if len(people) <= 1:
            return people[0] if people else None
        lead = people[0]
        name = _kin(people) or f"{lead.name}'s {'party' if all(p.pc for p in people) else 'side'}"  # as a party
        return Person(id=f"side_{side}", name=name, pronoun="they",
                      side=side, pc=all(p.pc for p in people), role=lead.role, body=lead.body,
                      speaks=False, heard=False, pool=sum(p.pool for p in people),
                      pool_max=sum(p.pool_max for p in people), members=tuple(people))

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
            for key in ("body", "speaks", "heard", "weapon_called"):
                if key in info:
                    setattr(person, key, info[key])
            if info.get("called"):
                person.name = str(info["called"])
            if "pc" in info:
                person.pc = bool(info["pc"])
            return
        # a Character or an NPC: the same facts the engine announces (solo.rules.fiction)
        person.pc = bool(getattr(info, "is_pc", person.pc))
        facts = fiction_of_character(info)
        person.pronoun = facts.pronoun if facts.pronoun in _PRONOUNS else person.pronoun
        person.body, person.speaks = facts.body or "flesh", bool(facts.speaks)
        person.weapon_called = facts.weapon_called
        if facts.called:
            person.name = facts.called
        if not person.pc:
            told = temperament(info)
            person.traits = tuple(told.get("traits") or person.traits)
            person.mindless = bool(told.get("mindless"))
            person.temper, person.breaks_by = told.get("temper"), told.get("breaks_by")

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
        """Whom a line about ``person`` is aimed at: the last foe still standing, else the first active one; one
        who is not on the way out before one who is (a reading of group fights: "Eyvind turns to get away", then
        "Sander stays compact, covering the line Eyvind would take" while Hallstein was still there to face)."""
        if person is None:
            return None
        foes = [p for p in self.persons.values() if p.side != person.side]
        staying = [p for p in foes if p.active and not (p.exiting or p.leaving or p.broke)]
        if person.last_foe and person.last_foe in self.persons:
            last = self.persons[person.last_foe]
            if last in staying or (last.active and not staying) or not any(p.active for p in foes):
                return last
        active = [p for p in foes if p.active]
        found = staying or active or foes
        return found[0] if found else None

    def both_sides_in(self) -> bool:
        return {p.side for p in self.persons.values() if p.active} >= {"a", "b"}

    def leaves(self, person: Person) -> None:
        """Note when ``person`` left the conflict (the round, and the order among all who left)."""
        self.left_count += 1
        person.left = (self.round, self.left_count)

    def last_of_side(self, person: Person) -> bool:
        """Whether nobody else on ``person``'s side is still in: its going would end the conflict."""
        return not any(p.active and p.side == person.side and p is not person for p in self.persons.values())


_ORDINAL = re.compile(r"^the (first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|other) (.+)$")


def _kin(people: list[Person]) -> str | None:
    """A side of NPCs told apart only by number ("the first barrow-wight", "the second barrow-wight") named as
    what they are: "the barrow-wights' side", not "the first barrow-wight's side" (a side, in the singular as
    every group name is: lines written for one read right). None for any other side."""
    kinds = set()
    for person in people:
        m = _ORDINAL.match(person.name)
        if person.pc or m is None:
            return None
        kinds.add(m.group(2))
    if len(kinds) != 1:
        return None
    from .text import english

    plural = english().plural_noun(kinds.pop())
    possessive = plural + "'" if plural.endswith("s") else plural + "'s"  # the wolves' side, the men's side
    return f"the {possessive} side"


def _obstacle_or_spoken(name: str, obstacle: bool, pronoun: str | None) -> str:
    """How the lines name a participant: a person who stands as an obstacle (Brekke, weighed by the proof on his
    desk: pronoun he or she) keeps the name the author wrote, not "the Halvard Brekke" as a gate would be."""
    if obstacle and pronoun in ("he", "she"):
        return name
    return spoken_name(name, obstacle=obstacle)


def _is_character(info: PersonInfo | None) -> TypeGuard[Character]:
    return info is not None and not isinstance(info, Mapping)
