"""Random events: what happens when the dice say the story moves on its own.

An event is a focus (who or what it concerns, drawn from ``event_focus``)
and a pair of meaning words (``action`` × ``subject``) for the player to
interpret. The focus is tied to the game's own NPCs and threads through the
table's ``{npc}`` and ``{thread}`` slots, so it never points at nobody; a
focus that moves a thread towards its end says which thread the player may
close, and a focus that names nobody is tied to the current situation.

The meaning words come from a generator of their own (:func:`offshoot`), so
the word lists can grow without moving the game's dice: the game's generator
still rolls the two dice it rolled when each list had 62 words, and games saved
before the lists grew replay exactly as they were played.
"""

from __future__ import annotations

import hashlib
import random
import struct
from dataclasses import dataclass
from typing import Any

from ..rules.dice import is_exceptional
from .state import TRACK, OracleState
from .tables import TableResult, TableSet

__all__ = [
    "FOCUS_TABLE",
    "ACTION_TABLE",
    "SUBJECT_TABLE",
    "event_digit",
    "event_triggered",
    "ADVERB_TABLE",
    "ADJECTIVE_TABLE",
    "CONTEXT_FOCI",
    "offshoot",
    "Meaning",
    "Description",
    "RandomEvent",
    "meaning",
    "meaning_words",
    "description",
    "random_event",
]

FOCUS_TABLE = "event_focus"
ACTION_TABLE = "action"
SUBJECT_TABLE = "subject"
ADVERB_TABLE = "adverb"
ADJECTIVE_TABLE = "adjective"
#: Foci that name nobody: the event follows the current situation instead.
CONTEXT_FOCI = frozenset({"remote", "new_npc", "new_thread", "ambiguous"})
#: Foci that move a thread towards its end: the player may close it.
CLOSING_FOCI = frozenset({"thread_closer"})
#: Each meaning list had this many words before they grew; the game's generator still rolls that die.
_WORDS_BEFORE = 62


def offshoot(rng: random.Random, purpose: str) -> random.Random:
    """A generator of its own, seeded from where ``rng`` stands, without drawing from it.

    The same game at the same point gives the same offshoot (so replays and undo see the
    same words), and the game's own dice go on exactly as if nothing had been drawn.
    ``purpose`` keeps two offshoots taken at one point apart.
    """
    _, internal, _ = rng.getstate()
    digest = hashlib.blake2b(struct.pack(f"<{len(internal)}I", *internal), digest_size=16,
                             person=purpose.encode()[:16]).digest()
    return random.Random(int.from_bytes(digest, "big"))


def event_digit(roll: int) -> int | None:
    """The repeated digit of a double (11 -> 1 … 99 -> 9, 00 -> 0), else None."""
    if not is_exceptional(roll):
        return None
    return 0 if roll == 100 else roll // 11


def event_triggered(roll: int, tension: int) -> bool:
    """A double whose digit is at or below the tension. 00 reads as digit 0, so it always triggers."""
    digit = event_digit(roll)
    return digit is not None and digit <= tension


@dataclass(frozen=True)
class Meaning:
    action: str
    subject: str

    def __str__(self) -> str:
        return f"{self.action} / {self.subject}"

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "subject": self.subject}


@dataclass(frozen=True)
class Description:
    """How something is or is done: an adverb and an adjective, read together ("Quietly / Ancient")."""

    adverb: str
    adjective: str

    def __str__(self) -> str:
        return f"{self.adverb} / {self.adjective}"

    def to_dict(self) -> dict[str, Any]:
        return {"adverb": self.adverb, "adjective": self.adjective}


def meaning_words(rng: random.Random, tables: TableSet) -> Meaning:
    """An action and a subject, both drawn from ``rng``."""
    return Meaning(tables.roll(ACTION_TABLE, rng).text, tables.roll(SUBJECT_TABLE, rng).text)


def description(rng: random.Random, tables: TableSet) -> Description:
    """An adverb and an adjective, both drawn from ``rng``."""
    return Description(tables.roll(ADVERB_TABLE, rng).text, tables.roll(ADJECTIVE_TABLE, rng).text)


def meaning(rng: random.Random, tables: TableSet) -> Meaning:
    """Two words to read together, for something the game's own dice raised (an event, a twist).

    The words come from an offshoot of ``rng``; ``rng`` itself moves by the two dice it
    always rolled here, so the game's later rolls do not depend on the lists' length.
    """
    words = offshoot(rng, "meaning")
    rng.randint(1, _WORDS_BEFORE)
    rng.randint(1, _WORDS_BEFORE)
    return meaning_words(words, tables)


@dataclass(frozen=True)
class RandomEvent:
    """``focus`` is the row's key (e.g. ``npc_acts``) so code can branch on it; ``text`` is for people."""

    focus: str
    text: str
    meaning: Meaning
    npc: str | None = None
    thread: str | None = None
    pc: str | None = None
    focus_roll: TableResult | None = None
    closes: int | None = None  # the thread's number in the open threads, when the focus may end it
    context: str | None = None  # the situation a focus that names nobody follows
    context_thread: bool = False  # that situation is the first open thread (no scene's own was set)
    track_full: bool = False  # the thread it may close is at the end of its track: it can only be closed now

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "focus": self.focus,
            "text": self.text,
            "meaning": self.meaning.to_dict(),
            "npc": self.npc,
            "thread": self.thread,
            "pc": self.pc,
            "focus_roll": self.focus_roll.to_dict() if self.focus_roll else None,
        }
        if self.closes is not None:
            out["closes"] = self.closes
            if self.track_full:
                out["track_full"] = True
        if self.context:
            out["context"] = self.context
            if self.context_thread:
                out["context_thread"] = True
        return out


def random_event(rng: random.Random, tables: TableSet, state: OracleState | None = None) -> RandomEvent:
    """Draw a focus and a meaning pair.

    With a state, rows about NPCs or threads are drawn only when it lists
    some, and name one of them. Without one (a table-side question with no
    game behind it) every row can come up and reads with generic words.
    A focus that brings a thread towards its end carries the thread's number
    (the player decides whether it closes); one that names nobody carries the
    state's current situation. Neither is drawn: the dice are as before.
    """
    slots = state.slots() if state is not None else {}
    focus = tables.roll(FOCUS_TABLE, rng, slots=slots)
    words = meaning(rng, tables)
    key = focus.key or f"{FOCUS_TABLE}:{focus.row}"
    thread = focus.slots.get("thread") if slots.get("thread") else None
    closes = None
    if state is not None and key in CLOSING_FOCI and thread in state.threads:
        closes = state.threads.index(thread) + 1
    context = state.situation() if state is not None and key in CONTEXT_FOCI else None
    return RandomEvent(
        focus=key,
        # a sentence, whatever its first slot was filled with ("one of the PCs is caught out …", a GM-less table)
        text=focus.text[:1].upper() + focus.text[1:],
        meaning=words,
        npc=focus.slots.get("npc") if slots.get("npc") else None,
        thread=thread,
        pc=focus.slots.get("pc") if slots.get("pc") else None,
        focus_roll=focus,
        closes=closes,
        context=context,
        context_thread=context is not None and not state.context if state is not None else False,
        track_full=closes is not None and state is not None and state.thread_progress(str(thread)) >= TRACK,
    )
