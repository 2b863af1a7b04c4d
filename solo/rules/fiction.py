"""The facts of the fiction: what each participant is, and what frame the conflict stands in.

The dice need none of this; the words do. A clockwork guard has no lip to
split, a draugr does not beg, a watchman being sneaked past hears nothing and
a lock never "has little left to hide". So the engine says, once, in its
``conflict_start`` event, what every participant is (:func:`participant_facts`)
and what the conflict is (:func:`conflict_frame`); the narration, the Lens
hints and the NPC speech read those facts and never guess them again
(docs/narration.md, "The facts of the fiction").

Defaults come from what the engine already knows (a PC is flesh and speaks,
an obstacle is an object, a mindless NPC does not speak, a role such as the
draugr names its body); an NPC file, an adventure's NPC and an obstacle table
can say more (``body = "machine"``, ``weapon_called = "iron hands"``), and
:func:`check_fiction` is the one place that says which values are known.

Nothing here runs while a conflict is fought without anyone listening: the
facts are gathered when ``conflict_start`` is announced to a sink.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .conflict_types import ConflictType
    from .participants import Participant

__all__ = [
    "BODIES", "ENDS", "FICTION_FIELDS", "Fiction", "PURSUITS", "check_fiction", "conflict_frame",
    "fiction_of", "fiction_of_character", "participant_facts", "pursuit_parts", "temperament", "trait_key",
]

#: What a participant is made of, as the words must respect it.
BODIES = ("flesh", "machine", "undead", "animal", "crowd", "object")
#: The bodies that speak unless a file says otherwise (a crowd shouts; a machine, a corpse, a beast, a lock do not).
SPEAKING = frozenset({"flesh", "crowd"})
#: The fields an NPC file, an adventure's NPC or an obstacle table may add, and what each takes.
FICTION_FIELDS: Mapping[str, str] = {
    "body": "one of " + ", ".join(BODIES),
    "speaks": "true or false",
    "weapon_called": "a few words, e.g. \"iron hands\"",
    "called": "the name the narration calls it by, e.g. \"Brekke\"",
}
#: How a conflict type sets its sides against each other: one chases the other, or one hides from the other.
PURSUITS = ("chase", "hide")
#: The parts each side plays in a pursuit, side a first (the side that starts the conflict).
PARTS: Mapping[str, tuple[str, str]] = {"chase": ("pursuer", "quarry"), "hide": ("hider", "seeker")}
#: How a conflict can end for a side: spent, in comae, run off, given up, or the round limit reached.
ENDS = ("out", "comae", "fled", "surrendered", "time")
MAX_CALLED = 40


@dataclass(frozen=True, slots=True)
class Fiction:
    """What a file says about a participant beyond its numbers; ``None`` leaves the default."""

    body: str | None = None
    speaks: bool | None = None
    weapon_called: str | None = None
    pronoun: str | None = None
    #: The name the narration calls it by ("Brekke" for Halvard Brekke, whom the story calls so), over its first name.
    called: str | None = None

    @classmethod
    def from_table(cls, data: Mapping[str, Any]) -> Fiction:
        """The fiction fields of a checked table (an NPC file, an obstacle); other keys are ignored."""
        speaks = data.get("speaks")
        return cls(body=data.get("body") or None, speaks=speaks if isinstance(speaks, bool) else None,
                   weapon_called=data.get("weapon_called") or None, pronoun=data.get("pronoun") or None,
                   called=data.get("called") or None)

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in (("body", self.body), ("speaks", self.speaks),
                                   ("weapon_called", self.weapon_called), ("called", self.called)) if v is not None}


def check_fiction(data: Mapping[str, Any], fail: Callable[[str, str], Any], prefix: str = "") -> None:
    """Report each fiction field of ``data`` holding a value nobody knows: ``fail(path, message)``."""
    body = data.get("body")
    if body is not None and body not in BODIES:
        from ..errors import did_you_mean

        fail(prefix + "body", f"unknown body {body!r}{did_you_mean(str(body), BODIES)}; known: {', '.join(BODIES)}")
    if "speaks" in data and not isinstance(data["speaks"], bool):
        fail(prefix + "speaks", "expected true or false")
    for key, what, example in (("weapon_called", "what the text calls its weapon, in a few words", "iron hands"),
                               ("called", "the name the narration calls it by", "Brekke")):
        value = data.get(key)
        if value is not None and not (isinstance(value, str) and 0 < len(value.strip()) <= MAX_CALLED
                                      and value.isprintable() and "{" not in value and "}" not in value):
            fail(prefix + key, f"expected {what} (at most {MAX_CALLED} characters, no braces), e.g. \"{example}\"")


def trait_key(name: str) -> str:
    """A personality name as a TOML-friendly key: "Self-Centred" -> "self_centred"."""
    return re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")


def fiction_of(p: Participant) -> Fiction:
    """Every fact of one participant settled: the file's word where it gave one, else the default."""
    given = p.fiction or Fiction()
    if p.char is None:  # an obstacle: a lock, a registry, a storm, a crowd in the way
        body = given.body or "object"
        return Fiction(body, given.speaks if given.speaks is not None else False, given.weapon_called,
                       given.pronoun or "it", given.called)
    return fiction_of_character(p.char, given)


def fiction_of_character(char: Any, given: Fiction | None = None) -> Fiction:
    """The facts of a character (a PC, an NPC): ``given`` first, then its file's, then the defaults (a PC is
    flesh and speaks; a mindless NPC does not speak and, without a role that names its body, is an animal)."""
    given = given or Fiction()
    mindless = bool(getattr(char, "mindless", False))
    own = getattr(char, "fiction_body", None)  # an NPC's: its file's word, else its role's (solo.npc.model)
    body = given.body or (own() if callable(own) else None)
    if body is None:
        body = "animal" if mindless else "flesh"
    speaks = given.speaks if given.speaks is not None else getattr(char, "speaks", None)
    if speaks is None:
        speaks = bool(getattr(char, "is_pc", False)) or (not mindless and body in SPEAKING)
    called = given.weapon_called or getattr(char, "weapon_called", None)
    return Fiction(body, bool(speaks), called, given.pronoun or getattr(char, "pronoun", None),
                   given.called or getattr(char, "called", None))


def participant_facts(p: Participant, frame: Mapping[str, Any]) -> dict[str, Any]:
    """What ``conflict_start`` says of one participant: body, speech, the weapon's name in the text, pronoun,
    its part in a pursuit, and an NPC's temper (its Code Block's personality keys and how it breaks)."""
    f = fiction_of(p)
    facts: dict[str, Any] = {"body": f.body, "speaks": f.speaks, "heard": bool(f.speaks and frame.get("heard", True)),
                             "pronoun": f.pronoun, "weapon_called": f.weapon_called,
                             **({"called": f.called} if f.called else {}),
                             # a spent Pool may not end it for this one: it may push on or spend Luck
                             "carries_on": bool(p.decider is not None and (p.can_push or p.luck_allowed))}
    part = (frame.get("parts") or {}).get(p.side)
    if part:
        facts["part"] = part
    char = p.char
    if char is not None and not char.is_pc:
        facts.update(temperament(char))
    return facts


def conflict_frame(ctype: ConflictType, participants: Sequence[Participant], *, round_limit: int | None,
                   given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The conflict's frame: its type, whether the sides hear each other, who pursues or hides, who is
    present, where it happens (the adventure's ``settings``) and how it can end for each side."""
    given = given or {}
    heard = given.get("heard")
    frame: dict[str, Any] = {
        "type": ctype.key, "physical": ctype.physical, "social": ctype.social, "static": ctype.static,
        "heard": ctype.heard if heard is None else bool(heard),
        "present": [p.id for p in participants],
        "settings": [str(s) for s in given.get("settings") or ()],
    }
    parts = pursuit_parts(ctype, given)
    if parts:
        frame["pursuit"] = ctype.pursuit
        frame["parts"] = parts
    frame["ends"] = {side: _ends(ctype, [p for p in participants if p.side == side],
                                 [p for p in participants if p.side != side],
                                 parts.get(side) in HUNTERS, round_limit)
                     for side in ("a", "b")}
    if given.get("opening") is not None:  # the adventure's first word: its own opening line, or "" for none
        frame["opening"] = str(given["opening"])
    if given.get("closing"):  # the adventure's last word per outcome: its own closing line, or "" for none
        frame["closing"] = {str(k): str(v) for k, v in given["closing"].items()}
    if given.get("told"):  # the outcomes whose end the adventure tells in its own words
        frame["told"] = [str(outcome) for outcome in given["told"]]
    return frame


def named_in_plural(pronoun: str | None, obstacle: bool, body: str | None) -> bool:
    """Whether a verb right after this one's name is plural: an obstacle or a crowd that says "they" is named in
    the plural ("the parish records yield", docs/adventures.md); a person who says "they" is named in the
    singular. The narration's lines and the rules' lines on the screen both ask here."""
    return pronoun == "they" and (bool(obstacle) or body == "crowd")


def pursuit_parts(ctype: ConflictType, given: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Each side's part in a pursuit by side ({"a": "hider", "b": "seeker"}), or none for a conflict that is not
    one: what ``conflict_start`` announces and what an NPC's mind reads, so both say one thing."""
    if not ctype.pursuit:
        return {}
    first, second = PARTS[ctype.pursuit]
    leads = (given or {}).get("pursuer", "a")  # the side that chases or hides: the side that starts, unless told
    return {"a": first, "b": second} if leads == "a" else {"a": second, "b": first}


#: The parts in a pursuit that hunt (give chase, keep watch): such a side walks away and may always stop.
HUNTERS = frozenset({"pursuer", "seeker"})


def hunts(ctype: ConflictType, side: str, given: Mapping[str, Any] | None = None) -> bool:
    """Whether ``side`` gives chase or keeps watch in this conflict (:func:`pursuit_parts`, :data:`HUNTERS`): the one
    test the Lens menu, the exit's words, the proof, the map and ``solo duel`` ask."""
    return ctype.pursuit is not None and pursuit_parts(ctype, given).get(side) in HUNTERS


def _ends(ctype: ConflictType, side: Iterable[Participant], foes: Iterable[Participant], hunts: bool,
          round_limit: int | None) -> list[str]:
    """How the conflict can end for a side: its Pools spent, comae for one who may push, fleeing where
    running is not the contest itself, giving up for anyone who decides where someone can take it (or as one who
    hunts: :func:`~solo.rules.participants.may_give_up`), and the round limit."""
    from .participants import may_give_up

    people = list(side)
    ends = ["out"]
    if any(p.can_push for p in people):
        ends.append("comae")
    deciding = [p for p in people if p.decider is not None]
    if deciding and ctype.flight:
        ends.append("fled")
    if deciding and may_give_up(foes, hunts):
        ends.append("surrendered")
    if round_limit:
        ends.append("time")
    return ends


def temperament(char: Any) -> dict[str, Any]:
    """An NPC's personality keys (for its manner and speech), its temper and how it breaks, from its Code Block."""
    out: dict[str, Any] = {}
    block = getattr(char, "code_block", None)
    if block is not None:
        out["traits"] = [trait_key(t.name) for t in block.personality]
    mindless = bool(getattr(char, "mindless", False))
    if mindless:
        out["mindless"] = True
    if hasattr(char, "leanings") and (block is not None or mindless):
        try:
            lean = char.leanings()
        except (ValueError, KeyError):
            return out
        out["temper"] = _temper(lean)
        out["breaks_by"] = _breaks_by(lean)
    return out


def _temper(lean: Any) -> str | None:
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


def _breaks_by(lean: Any) -> str | None:
    for reaction in lean.on_break:
        if reaction == "bargain":
            return "bargain"
        if reaction in ("beg", "surrender"):
            return "plea"
    return None


def no_mind_to_argue(who: str, ctype_key: str) -> str:
    """Why a mindless NPC cannot be argued with, in the words ``solo check`` (W112), ``solo duel`` and ``solo odds``
    all say it: its "composure" would be told taking blows ("A heavy setback for the grey wolf's composure", a
    reading of narrated conflicts)."""
    return f"{who} is mindless: a {ctype_key} conflict argues with someone, and it has nothing to argue with"
