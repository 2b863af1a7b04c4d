"""What NPCs remember of the PCs, kept in the game state (issue 4, docs/rules.md §7.2).

Disposition "shifts as encounters go": an NPC the PCs spared or helped
warms to them, one they humiliated or lied to cools. Each deed adds to a
running *regard*; a whole point of regard moves the disposition one rung
and is spent, so a single favour does not turn an enemy into a friend, and
a cold NPC (low ``warmth``) needs more favours than a warm one. The counts
of deeds stay too, because some things colour more than the disposition:
an NPC that was spared trusts the PCs to spare it again (it yields sooner),
one that was lied to will not bargain, one that was humiliated holds a
grudge (crueller, harder to break).

The record is plain data with ``to_dict``/``from_dict`` so it saves with
the game; NPCs are keyed by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..npc.disposition import disposition_step, normalise_disposition, shift_disposition
from ..npc.leanings import Leanings

MEMORY_VERSION = 1


@dataclass(frozen=True)
class Deed:
    """Something the PCs did to an NPC, and how far it moves the NPC's regard."""

    key: str
    regard: float  # + warms, − cools; ±1.0 is one rung for an NPC of neutral warmth
    description: str  # as the players read it on the NPC's card: "you", and the NPC's pronouns as {them}, {they}

    def told(self, pronoun: str = "they") -> str:
        """The deed as a card tells it of this NPC: "you let him go when you had him at your mercy"."""
        from ..rules.character import pronoun_forms

        forms = pronoun_forms(pronoun)
        return self.description.format(them=forms["them"], they=forms["they"])


DEEDS: dict[str, Deed] = {d.key: d for d in (
    # a chase caught or an argument won is at one's mercy too: "could have finished him" was a fight's words, said of
    # a frightened bookkeeper run down in the fish market (a new player's Vellan)
    Deed("spared", 1.0, "you let {them} go when you had {them} at your mercy"),
    Deed("helped", 1.0, "you did {them} a good turn"),
    Deed("humiliated", -1.0, "you made a fool of {them} in front of others"),
    Deed("lied_to", -1.0, "you lied to {them}, and {they} found out"),
    Deed("hurt", -0.5, "you beat {them} in a fight"),
    Deed("threatened", -0.5, "you threatened {them}"),
    Deed("paid", 0.5, "you gave {them} something {they} wanted"),  # money or a thing: said as both are
    Deed("refused", -1.0, "you would not let {them} yield, and kept on at {them}"),
    Deed("chased", -0.5, "you would not let {them} leave"),  # ran after it, or called it back: said as both are
)}

#: Motivations and personality entries that feel a deed more than others (×).
FEELS_MORE = {
    "humiliated": ("Status", "Bitter", "Self-Centred", "Pushy"),
    "lied_to": ("Order and Logic", "Correct", "Inquisitive"),
    "paid": ("Money",),
    "helped": ("Altruism", "Circle"),
    "spared": ("Health", "Enjoy Life", "Loiter"),
}


@dataclass(frozen=True)
class Shift:
    """What one remembered deed did: the disposition before and after, and the regard left over."""

    name: str
    deed: str
    before: str
    after: str
    regard: float

    @property
    def moved(self) -> int:
        """Rungs moved: +1 warmer, −1 colder, 0 when the regard has not added up yet."""
        return disposition_step(self.after) - disposition_step(self.before)

    def to_dict(self) -> dict:
        return {"npc": self.name, "deed": self.deed, "before": self.before, "after": self.after,
                "regard": round(self.regard, 3)}


@dataclass
class NPCRecord:
    """One NPC's memory of the PCs."""

    disposition: str = "Neutral"
    regard: float = 0.0
    deeds: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def count(self, deed: str) -> int:
        return self.deeds.get(deed, 0)

    def to_dict(self) -> dict:
        out: dict = {"disposition": self.disposition, "regard": round(self.regard, 6)}
        if self.deeds:
            out["deeds"] = dict(self.deeds)
        if self.notes:
            out["notes"] = list(self.notes)
        return out


@dataclass(frozen=True)
class Influence:
    """How remembered deeds bend an NPC's leanings when it faces the PCs again."""

    surrender: float = 0.0  # added to surrender_bias
    cruelty: float = 0.0
    resolve: float = 0.0
    bargains: bool = True   # False once lied to: it will not trust a deal

    @property
    def neutral(self) -> bool:
        return self == Influence()


class NPCMemory:
    """Every NPC's memory of the PCs; part of the game state."""

    def __init__(self, records: dict[str, NPCRecord] | None = None):
        self.records: dict[str, NPCRecord] = dict(records or {})

    @classmethod
    def of_deeds(cls, name: str, deeds, *, disposition: str = "Neutral") -> NPCMemory:
        """A memory of one NPC from a bare list of deed names (how an adventure's state may keep it).

        The disposition is taken as given (the caller moves it); unknown
        deed names are ignored, so an adventure's own words do no harm.
        """
        rec = NPCRecord(disposition=normalise_disposition(disposition))
        for deed in deeds:
            if deed in DEEDS:
                rec.deeds[deed] = rec.deeds.get(deed, 0) + 1
        return cls({name: rec})

    # -- reading ------------------------------------------------------------
    def __contains__(self, name: str) -> bool:
        return name in self.records

    def record_of(self, name: str) -> NPCRecord | None:
        return self.records.get(name)

    def disposition(self, name: str, default: str = "Neutral") -> str:
        rec = self.records.get(name)
        return rec.disposition if rec is not None else normalise_disposition(default)

    def influence(self, name: str) -> Influence:
        rec = self.records.get(name)
        if rec is None:
            return Influence()
        spared, helped = rec.count("spared"), rec.count("helped")
        humiliated, lied = rec.count("humiliated"), rec.count("lied_to")
        return Influence(
            surrender=min(0.3, 0.15 * spared + 0.05 * helped) - min(0.2, 0.1 * lied),
            cruelty=min(0.4, 0.2 * humiliated) - min(0.4, 0.15 * (spared + helped)),
            resolve=min(0.3, 0.15 * humiliated),
            bargains=lied == 0,
        )

    # -- writing ------------------------------------------------------------
    def meet(self, npc) -> NPCRecord:
        """Start remembering an NPC (an :class:`~solo.npc.NPC`) at its Code Block's disposition."""
        rec = self.records.get(npc.name)
        if rec is None:
            start = npc.code_block.disposition if getattr(npc, "code_block", None) is not None else "Neutral"
            rec = self.records[npc.name] = NPCRecord(disposition=normalise_disposition(start))
        return rec

    def record(self, npc, deed: str, *, note: str = "") -> Shift:
        """Remember that the PCs did ``deed`` to ``npc`` and move its disposition if regard allows.

        ``npc`` is an NPC (its warmth and Code Block scale the deed) or a
        bare name (a deed of neutral weight). Raises KeyError for an unknown
        deed.
        """
        if deed not in DEEDS:
            raise KeyError(f"unknown deed {deed!r}; known: {', '.join(DEEDS)}")
        if isinstance(npc, str):
            name, lean, words = npc, None, ()
            rec = self.records.setdefault(name, NPCRecord())
        else:
            name = npc.name
            rec = self.meet(npc)
            lean = npc.leanings()
            cb = getattr(npc, "code_block", None)
            words = (*(t.name for t in cb.personality), *cb.motivation) if cb is not None else ()
        rec.deeds[deed] = rec.deeds.get(deed, 0) + 1
        if note:
            rec.notes.append(note)
        rec.regard += deed_weight(deed, lean, words)
        before = rec.disposition
        while rec.regard >= 1.0 - 1e-9 or rec.regard <= -1.0 + 1e-9:
            step = 1 if rec.regard > 0 else -1
            moved = shift_disposition(rec.disposition, step)
            rec.regard -= step
            if moved == rec.disposition:  # at the end of the ladder: the regard is spent all the same
                break
            rec.disposition = moved
        if abs(rec.regard) >= 1.0:
            rec.regard = 0.0
        return Shift(name, deed, before, rec.disposition, rec.regard)

    # -- saving -------------------------------------------------------------
    def to_dict(self) -> dict:
        return {"version": MEMORY_VERSION, "npcs": {name: rec.to_dict() for name, rec in self.records.items()}}

    @classmethod
    def from_dict(cls, data: dict) -> NPCMemory:
        """Read a saved memory; raises ValueError naming the field that is wrong."""
        if not isinstance(data, dict):
            raise ValueError("NPC memory: expected a table")
        version = data.get("version", MEMORY_VERSION)
        if version != MEMORY_VERSION:
            raise ValueError(f"NPC memory: unknown version {version!r} (this solo reads {MEMORY_VERSION})")
        npcs = data.get("npcs", {})
        if not isinstance(npcs, dict):
            raise ValueError("NPC memory: npcs must be a table")
        records = {}
        for name, entry in npcs.items():
            where = f"NPC memory: npcs.{name}"
            if not isinstance(entry, dict):
                raise ValueError(f"{where}: expected a table")
            try:
                disposition = normalise_disposition(entry.get("disposition", "Neutral"))
            except KeyError as exc:
                raise ValueError(f"{where}.disposition: {exc.args[0]}") from None
            regard = entry.get("regard", 0.0)
            if isinstance(regard, bool) or not isinstance(regard, (int, float)) or not -1.0 < regard < 1.0:
                raise ValueError(f"{where}.regard: expected a number between -1 and 1")
            deeds = entry.get("deeds", {})
            if not isinstance(deeds, dict) or any(
                    k not in DEEDS or isinstance(v, bool) or not isinstance(v, int) or v < 0 for k, v in deeds.items()):
                raise ValueError(f"{where}.deeds: expected counts of {', '.join(DEEDS)}")
            notes = entry.get("notes", [])
            if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
                raise ValueError(f"{where}.notes: expected a list of text")
            records[name] = NPCRecord(disposition, float(regard), dict(deeds), list(notes))
        return cls(records)


def deed_weight(deed: str, lean: Leanings | None, words=()) -> float:
    """How far one deed moves this NPC's regard.

    Warmth makes good deeds count for more (a Generous NPC warms fast, a
    Non-Empathic one barely); a cold NPC takes slights harder. A deed that
    touches what the NPC cares about (a Status seeker humiliated, a Correct
    one lied to) counts half again.
    """
    base = DEEDS[deed].regard
    if lean is not None:
        warmth = lean.lean["warmth"]
        if base > 0:
            base *= max(0.25, min(2.0, 1.0 + warmth))
        else:
            base *= max(0.5, min(2.0, 1.0 - 0.5 * warmth))
    if any(w in FEELS_MORE.get(deed, ()) for w in words):
        base *= 1.5
    return base
