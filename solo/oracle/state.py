"""What the oracle remembers between questions: tension, the NPCs met, the open threads.

It is the game's to save, so it is a plain record that round-trips through
JSON; the rules that move it (scene end, adding and closing, the weight of an
entry written on a list again, a thread's progress track) live here too so
every front end moves it the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .likelihood import TENSION_MAX, TENSION_MIN, TENSION_NEUTRAL, check_tension

__all__ = ["STATE_VERSION", "MAX_WEIGHT", "TRACK", "FLASHPOINTS", "MAX_STEP", "OracleState", "ProgressStep",
           "raise_tension", "lower_tension", "tension_after_scene"]

STATE_VERSION = 1
#: An entry of the NPC or thread list written on it again counts again, up to this many times (the Mythic habit).
MAX_WEIGHT = 3
#: A thread's progress track: its points, and the points at which it comes to a head (docs/oracle.md).
TRACK = 10
FLASHPOINTS = (5, 10)
#: The most points one step of progress may add (1 a step, 2 a big one, 3 a breakthrough).
MAX_STEP = 3


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


@dataclass(frozen=True)
class ProgressStep:
    """Points added to a thread's track: where it stood, where it stands, the flashpoints it reached."""

    thread: str
    before: int
    after: int
    flashpoints: tuple[int, ...] = ()

    @property
    def ended(self) -> bool:
        """The track is full: the thread is ready to be settled."""
        return self.after >= TRACK

    def to_dict(self) -> dict[str, Any]:
        return {"thread": self.thread, "before": self.before, "after": self.after, "track": TRACK,
                "flashpoints": list(self.flashpoints)}


@dataclass
class OracleState:
    """Tension (1–9), NPCs in play, open threads, (optionally) the PCs' names and the scene's situation.

    Lists keep insertion order and hold no duplicates, so a save is stable and an NPC met in
    two scenes is not twice as likely to act. Weight is given on purpose: an entry the player
    writes on the list again (``again=True``) counts again, up to :data:`MAX_WEIGHT`, and a
    random pick from the list (:meth:`slots`) honours it. ``npc_weights`` and
    ``thread_weights`` hold only the entries that count more than once; ``progress`` only the
    threads with points on their track; ``searched`` the threads given a discovery check in
    this scene (one each per scene; :meth:`end_scene` clears it).
    """

    tension: int = TENSION_NEUTRAL
    npcs: list[str] = field(default_factory=list)
    threads: list[str] = field(default_factory=list)
    pcs: list[str] = field(default_factory=list)
    context: str = ""  # what the current scene is about, when whoever runs the scene says so
    npc_weights: dict[str, int] = field(default_factory=dict)
    thread_weights: dict[str, int] = field(default_factory=dict)
    progress: dict[str, int] = field(default_factory=dict)
    searched: list[str] = field(default_factory=list)

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
        if found:  # which ones, as an NPC's start is answered (a review: the two were worded apart)
            listed = ", ".join(f"{i}. {self.threads[i - 1]}" for i in dict.fromkeys(found))
            raise ValueError(f"\u201c{text}\u201d starts more than one thread ({listed}): give more of it, or its "
                             "number")
        raise ValueError(f"no open thread starts with \u201c{text}\u201d")

    def __post_init__(self) -> None:
        check_tension(self.tension)

    def end_scene(self, pcs_in_control: bool | None) -> int:
        self.tension = tension_after_scene(self.tension, pcs_in_control)
        self.new_scene()
        return self.tension

    def new_scene(self) -> None:
        """A new scene, however the last one went: every thread may be looked into again."""
        self.searched.clear()

    def add_npc(self, name: str, *, again: bool = False) -> int:
        """Put an NPC on the list; with ``again``, one already there counts once more. Returns their weight."""
        return _add(self.npcs, self.npc_weights, name, again, "NPC")

    def among(self, names: list[str]) -> OracleState:
        """This state as read by the events of one scene's set-up, whose people are ``names``: its NPC list holds
        only those (with their weights). For reading only (a set-up reads its state, never changes it): the other
        lists are this state's own, not copies."""
        keep = [n for n in self.npcs if n in names]
        return replace(self, npcs=keep, npc_weights={n: w for n, w in self.npc_weights.items() if n in keep})

    def remove_npc(self, name: str) -> None:
        _remove(self.npcs, name, "NPC")
        self.npc_weights.pop(name, None)

    def rename_npc(self, old: str, new: str) -> None:
        """An entry of the list of people now goes by another name (the PCs learned it), in its place and with
        its weight; if the new name is listed already, the two are one entry counting both (up to the most)."""
        if old == new or old not in self.npcs:
            return
        weight = self.npc_weights.pop(old, 1)
        if new in self.npcs:
            self.npcs.remove(old)
            weight += self.npc_weight(new)
        else:
            self.npcs[self.npcs.index(old)] = new
        weight = min(weight, MAX_WEIGHT)
        if weight > 1:
            self.npc_weights[new] = weight
        else:
            self.npc_weights.pop(new, None)

    def add_thread(self, text: str, *, again: bool = False) -> int:
        """Open a thread; with ``again``, one already open counts once more. Returns its weight."""
        return _add(self.threads, self.thread_weights, text, again, "thread")

    def close_thread(self, text: str) -> None:
        _remove(self.threads, text, "thread")
        self.thread_weights.pop(text, None)
        self.progress.pop(text, None)
        if text in self.searched:
            self.searched.remove(text)

    def npc_weight(self, name: str) -> int:
        """How many times an NPC counts when one is picked at random (0: not on the list)."""
        return self.npc_weights.get(name, 1) if name in self.npcs else 0

    def thread_weight(self, text: str) -> int:
        """How many times a thread counts when one is picked at random (0: not open)."""
        return self.thread_weights.get(text, 1) if text in self.threads else 0

    def thread_progress(self, text: str) -> int:
        """The points on a thread's track, 0 to :data:`TRACK`."""
        return self.progress.get(text, 0)

    def add_progress(self, text: str, points: int = 1) -> ProgressStep:
        """Move an open thread along its track by 1 to :data:`MAX_STEP` points (never past the end)."""
        if text not in self.threads:
            raise ValueError(f"no thread {text!r} in play")
        if isinstance(points, bool) or not isinstance(points, int) or not 1 <= points <= MAX_STEP:
            raise ValueError(f"progress is 1 to {MAX_STEP} points at a time, not {points!r}")
        before = self.thread_progress(text)
        if before >= TRACK:
            raise ValueError(f"{text!r} is at the end of its track ({TRACK} of {TRACK}): settle it and close it")
        return self.gain(text, points)

    def gain(self, text: str, points: int) -> ProgressStep:
        """Move an open thread on by ``points`` (0 or more), stopping at the end of its track."""
        before = self.thread_progress(text)
        after = min(TRACK, before + max(0, points))
        if after > before:
            self.progress[text] = after
        return ProgressStep(text, before, after, tuple(f for f in FLASHPOINTS if before < f <= after))

    def slots(self) -> dict[str, list[str]]:
        """The lists table rows draw ``{npc}``, ``{thread}`` and ``{pc}`` from.

        An entry that counts twice is in its list twice, so a pick honours the
        weights (and lists with no weights are the lists as they are).
        PCs are offered only when known: a game without PC names should still
        get "trouble for a PC", read with the default phrase.
        """
        out = {"npc": [n for n in self.npcs for _ in range(self.npc_weight(n))],
               "thread": [t for t in self.threads for _ in range(self.thread_weight(t))]}
        if self.pcs:
            out["pc"] = list(self.pcs)
        return out

    def to_dict(self) -> dict[str, Any]:
        weights = {k: dict(v) for k, v in (("npcs", self.npc_weights), ("threads", self.thread_weights)) if v}
        return {
            "version": STATE_VERSION,
            "tension": self.tension,
            "npcs": list(self.npcs),
            "threads": list(self.threads),
            "pcs": list(self.pcs),
            # each absent while empty, so a state without them reads and writes as before
            **({"context": self.context} if self.context else {}),
            **({"weights": weights} if weights else {}),
            **({"progress": dict(self.progress)} if self.progress else {}),
            **({"searched": list(self.searched)} if self.searched else {}),
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
        npcs = _names(data.get("npcs", []), "npcs")
        threads = _names(data.get("threads", []), "threads")
        weights = data.get("weights", {})
        if not isinstance(weights, dict) or set(weights) - {"npcs", "threads"}:
            raise ValueError("weights must be a table of npcs and threads")
        searched = _names(data.get("searched", []), "searched")
        if any(t not in threads for t in searched):
            raise ValueError("searched names a thread that is not open")
        return cls(
            tension=check_tension(tension),
            npcs=npcs,
            threads=threads,
            pcs=_names(data.get("pcs", []), "pcs"),
            context=_text(data.get("context", ""), "context"),
            npc_weights=_counts(weights.get("npcs", {}), npcs, 2, MAX_WEIGHT, "weights.npcs"),
            thread_weights=_counts(weights.get("threads", {}), threads, 2, MAX_WEIGHT, "weights.threads"),
            progress=_counts(data.get("progress", {}), threads, 1, TRACK, "progress"),
            searched=list(dict.fromkeys(searched)),
        )


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} must be text")
    return value


def _are(count: int, what: str) -> str:
    return f"is 1 {what}" if count == 1 else f"are {count} {what}s"


def _counts(values: object, names: list[str], low: int, high: int, what: str) -> dict[str, int]:
    """A table of whole numbers low..high, each for an entry of ``names``."""
    if not isinstance(values, dict):
        raise ValueError(f"{what} must be a table of whole numbers")
    out: dict[str, int] = {}
    for name, count in values.items():
        if name not in names:
            raise ValueError(f"{what}: {name!r} is not on the list")
        if isinstance(count, bool) or not isinstance(count, int) or not low <= count <= high:
            raise ValueError(f"{what}: {name!r} must be a whole number {low}-{high}, not {count!r}")
        out[name] = count
    return out


def _add(items: list[str], weights: dict[str, int], value: str, again: bool, what: str) -> int:
    value = value.strip()
    if not value:
        raise ValueError("a name cannot be empty")
    if value not in items:
        items.append(value)
        return 1
    weight = weights.get(value, 1)
    if not again:
        return weight
    if weight >= MAX_WEIGHT:
        # the words play's own check says (ui/story_commands.py), so the docs quote one message
        one = "an NPC" if what == "NPC" else f"a {what}"
        raise ValueError(f"\u201c{value}\u201d already counts {MAX_WEIGHT} times, the most {one} can")
    weights[value] = weight + 1
    return weight + 1


def _remove(items: list[str], value: str, what: str) -> None:
    try:
        items.remove(value)
    except ValueError:
        raise ValueError(f"no {what} {value!r} in play") from None
