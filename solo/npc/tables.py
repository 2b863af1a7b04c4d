"""The Code Block tables of ``oracles/codeblocks.toml`` as typed, checked data.

The tables are content, so authors may tune the lean numbers without touching
code; that is only safe if a bad edit stops the program at load time with the
file and the entry named, rather than skewing every NPC mind in silence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, NoReturn, Protocol, TypeVar

from ..errors import ContentError, did_you_mean
from ..toml_files import load_toml

DIE = 20
LENS_LEANS = ("aggression", "caution", "cunning", "flair", "curiosity", "haste")
LEANS = LENS_LEANS + ("self_preservation", "resolve", "cruelty", "warmth")
LEAN_LENS = {
    "aggression": "aggressive", "caution": "cautious", "cunning": "covert",
    "flair": "flamboyant", "curiosity": "clever", "haste": "quick",
}
BREAKS = ("flee", "surrender", "beg", "bargain", "call_for_help", "fight_on")
TRAIT_TABLES = ("personality", "dark_triad")
TABLE_TITLES = {"personality": "Personality", "dark_triad": "Dark Triad"}


@dataclass(frozen=True)
class TraitEntry:
    """One Personality or Dark Triad entry and its pull on the NPC's choices."""

    table: str
    name: str
    faces: tuple[int, ...]
    description: str
    lean: dict[str, float]


@dataclass(frozen=True)
class Drive:
    """What a motivation (or mindlessness) makes an NPC willing to risk."""

    name: str
    faces: tuple[int, ...]
    description: str
    risk_tolerance: float
    flee_threshold: float
    surrender_bias: float
    resolve: float
    on_break: tuple[str, ...]
    lean: dict[str, float]
    #: What the NPC wants, in words that follow "wants" ("to help others"); empty where a file gives none.
    says: str = ""


@dataclass(frozen=True)
class Disposition:
    name: str
    modifier: int
    surrender_shift: float
    description: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class EventTopic:
    topic: str
    faces: tuple[int, ...]
    positive: tuple[str, ...]
    negative: tuple[str, ...]

    def examples(self, positive: bool) -> tuple[str, ...]:
        return self.positive if positive else self.negative


@dataclass(frozen=True)
class CodeBlockTables:
    personality: dict[str, TraitEntry]
    dark_triad: dict[str, TraitEntry]
    dispositions: tuple[Disposition, ...]  # best to worst
    motivations: dict[str, Drive]
    events: dict[str, EventTopic]
    mood_positive: float
    mood_negative: float
    mindless: Drive
    mindless_target: str
    file: str | None = None

    # -- lookups by die face ---------------------------------------------
    def trait_by_roll(self, table: str, face: int) -> TraitEntry:
        return _by_face(self.trait_table(table).values(), face)

    def motivation_by_roll(self, face: int) -> Drive:
        return _by_face(self.motivations.values(), face)

    def event_by_roll(self, face: int) -> tuple[EventTopic, bool]:
        """The topic of a Recent Event roll and whether it is good news (an even face)."""
        return _by_face(self.events.values(), face), face % 2 == 0

    # -- lookups by name ----------------------------------------------------
    def trait_table(self, table: str) -> dict[str, TraitEntry]:
        if table not in TRAIT_TABLES:
            raise KeyError(f"unknown trait table {table!r}; expected personality or dark_triad")
        return self.personality if table == "personality" else self.dark_triad

    def trait(self, table: str, name: str) -> TraitEntry:
        return _named(self.trait_table(table), name, f"{TABLE_TITLES[table]} entry")

    def motivation(self, name: str) -> Drive:
        return _named(self.motivations, name, "motivation")

    def event(self, topic: str) -> EventTopic:
        return _named(self.events, topic, "Recent Event topic")

    def disposition(self, name: str) -> Disposition:
        found = self._dispositions_by_name.get(str(name).strip().lower())
        if found is not None:
            return found
        names = [d.name for d in self.dispositions]
        raise KeyError(f"unknown disposition {name!r}{did_you_mean(str(name).title(), names)}; "
                       f"known: {', '.join(names)}")

    @cached_property
    def _dispositions_by_name(self) -> dict[str, Disposition]:
        """Each disposition by its name and its aliases, lower-cased, the first in table order taking a name
        they share: what a scan of the table finds, looked up at once (solo prove keys every NPC's disposition
        at every state it meets)."""
        found: dict[str, Disposition] = {}
        for disp in self.dispositions:
            for spelled in (disp.name, *disp.aliases):
                found.setdefault(spelled.lower(), disp)
        return found

    @property
    def default_disposition(self) -> Disposition:
        return next(d for d in self.dispositions if d.modifier == 0)


class _Faced(Protocol):
    @property
    def faces(self) -> tuple[int, ...]: ...


_F = TypeVar("_F", bound=_Faced)
_V = TypeVar("_V")


def _by_face(entries: Iterable[_F], face: int) -> _F:
    for entry in entries:
        if face in entry.faces:
            return entry
    raise ValueError(f"no entry for the face {face} (a d{DIE} gives 1..{DIE})")


def _named(table: Mapping[str, _V], name: str, what: str) -> _V:
    wanted = str(name).strip().lower()
    for key, entry in table.items():
        if key.lower() == wanted:
            return entry
    raise KeyError(f"unknown {what} {name!r}{did_you_mean(str(name).title(), table)}; known: {', '.join(table)}")


class _Reader:
    """Typed access to the document, raising ContentError with file and TOML path."""

    def __init__(self, file: str | Path, data: dict[str, Any]) -> None:
        self.file = file
        self.data = data

    def fail(self, path: str, message: str) -> NoReturn:
        raise ContentError(message, file=self.file, path=path)

    def table(self, parent: dict[str, Any], key: str, path: str) -> dict[str, Any]:
        value = parent.get(key)
        if not isinstance(value, dict):
            self.fail(_join(path, key), "missing table" if value is None else "expected a table")
        return value

    def entries(self, key: str) -> list[dict[str, Any]]:
        value = self.data.get(key)
        if not isinstance(value, list) or not value:
            self.fail(key, f"expected one or more [[{key}]] entries")
        for i, entry in enumerate(value):
            if not isinstance(entry, dict):
                self.fail(f"{key}[{i}]", "expected a table")
        return value

    def text(self, entry: dict[str, Any], key: str, path: str) -> str:
        value = entry.get(key)
        if not isinstance(value, str) or not value.strip():
            self.fail(_join(path, key), "missing text" if value is None else "expected non-empty text")
        return value.strip()

    def number(self, entry: dict[str, Any], key: str, path: str, lo: float, hi: float,
               default: float | None = None) -> float:
        value = entry.get(key, default)
        if value is None:
            self.fail(_join(path, key), "missing number")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(_join(path, key), f"expected a number, got {value!r}")
        if not lo <= value <= hi:
            self.fail(_join(path, key), f"{value} is out of range {lo}..{hi}")
        return float(value)

    def strings(self, entry: dict[str, Any], key: str, path: str) -> tuple[str, ...]:
        value = entry.get(key)
        if not isinstance(value, list) or not value:
            self.fail(_join(path, key), "expected a non-empty list of text")
        for i, item in enumerate(value):
            if not isinstance(item, str) or not item.strip():
                self.fail(f"{_join(path, key)}[{i}]", "expected non-empty text")
        return tuple(item.strip() for item in value)

    def faces(self, entry: dict[str, Any], path: str) -> tuple[int, ...]:
        if ("roll" in entry) == ("rolls" in entry):
            self.fail(path, "give the die faces as roll = N or rolls = [low, high]")
        if "roll" in entry:
            low = high = entry["roll"]
        else:
            pair = entry["rolls"]
            if not isinstance(pair, list) or len(pair) != 2:
                self.fail(f"{path}.rolls", "expected [low, high]")
            low, high = pair
        for value in (low, high):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= DIE:
                self.fail(path, f"die faces must be whole numbers 1..{DIE}, got {value!r}")
        if low > high:
            self.fail(f"{path}.rolls", f"the range {low}..{high} runs backwards")
        return tuple(range(low, high + 1))

    def lean(self, entry: dict[str, Any], path: str) -> dict[str, float]:
        value = entry.get("lean", {})
        if not isinstance(value, dict):
            self.fail(f"{path}.lean", "expected a table of lean = number")
        out = {}
        for key in value:
            if key not in LEANS:
                self.fail(f"{path}.lean.{key}",
                          f"unknown lean{did_you_mean(key, LEANS)}; known: {', '.join(LEANS)}")
            out[key] = self.number(value, key, f"{path}.lean", -1.0, 1.0)
        return out

    def unknown_keys(self, entry: dict[str, Any], path: str, known: tuple[str, ...]) -> None:
        for key in entry:
            if key not in known:
                self.fail(_join(path, key), f"unknown field{did_you_mean(key, known)}")

    def covers_die(self, key: str, entries: Iterable[TraitEntry | Drive | EventTopic]) -> None:
        seen: dict[int, str] = {}
        for entry in entries:
            label = entry.topic if isinstance(entry, EventTopic) else entry.name
            for face in entry.faces:
                if face in seen:
                    self.fail(key, f"the face {face} belongs to both {seen[face]!r} and {label!r}")
                seen[face] = label
        missing = [f for f in range(1, DIE + 1) if f not in seen]
        if missing:
            faces = f"face{'' if len(missing) == 1 else 's'} {', '.join(map(str, missing))}"
            self.fail(key, f"no entry for the {faces} of the d{DIE}")

    def unique(self, key: str, names: list[str]) -> None:
        seen: set[str] = set()
        for i, name in enumerate(names):
            if name.lower() in seen:
                self.fail(f"{key}[{i}]", f"{name!r} appears twice")
            seen.add(name.lower())


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _traits(r: _Reader, table: str) -> dict[str, TraitEntry]:
    out = {}
    for i, entry in enumerate(r.entries(table)):
        path = f"{table}[{i}]"
        r.unknown_keys(entry, path, ("roll", "rolls", "name", "description", "lean"))
        name = r.text(entry, "name", path)
        out[name] = TraitEntry(table, name, r.faces(entry, path), r.text(entry, "description", path),
                               r.lean(entry, path))
    r.unique(table, [e.get("name", "") for e in r.entries(table)])
    r.covers_die(table, out.values())
    return out


_DRIVE_KEYS = (
    "name", "description", "risk_tolerance", "flee_threshold", "surrender_bias", "resolve", "on_break", "lean",
)


def _drive(r: _Reader, entry: dict[str, Any], path: str, name: str, faces: tuple[int, ...]) -> Drive:
    on_break = r.strings(entry, "on_break", path)
    for i, what in enumerate(on_break):
        if what not in BREAKS:
            r.fail(f"{path}.on_break[{i}]",
                   f"unknown reaction {what!r}{did_you_mean(what, BREAKS)}; known: {', '.join(BREAKS)}")
    return Drive(
        name=name, faces=faces, description=r.text(entry, "description", path),
        risk_tolerance=r.number(entry, "risk_tolerance", path, 0.0, 1.0),
        flee_threshold=r.number(entry, "flee_threshold", path, 0.0, 1.0),
        surrender_bias=r.number(entry, "surrender_bias", path, 0.0, 1.0),
        resolve=r.number(entry, "resolve", path, -1.0, 1.0),
        on_break=on_break, lean=r.lean(entry, path),
    )


def _motivations(r: _Reader) -> dict[str, Drive]:
    out = {}
    for i, entry in enumerate(r.entries("motivation")):
        path = f"motivation[{i}]"
        r.unknown_keys(entry, path, _DRIVE_KEYS + ("roll", "rolls", "says"))
        name = r.text(entry, "name", path)
        says = r.text(entry, "says", path) if "says" in entry else ""
        out[name] = replace(_drive(r, entry, path, name, r.faces(entry, path)), says=says)
    r.unique("motivation", [e.get("name", "") for e in r.entries("motivation")])
    r.covers_die("motivation", out.values())
    return out


def _dispositions(r: _Reader) -> tuple[Disposition, ...]:
    out = []
    for i, entry in enumerate(r.entries("disposition")):
        path = f"disposition[{i}]"
        r.unknown_keys(entry, path, ("name", "modifier", "surrender_shift", "description", "aliases"))
        modifier = entry.get("modifier")
        if isinstance(modifier, bool) or not isinstance(modifier, int) or not -100 <= modifier <= 100:
            r.fail(f"{path}.modifier", f"expected a whole number -100..100, got {modifier!r}")
        aliases = r.strings(entry, "aliases", path) if "aliases" in entry else ()
        out.append(Disposition(
            r.text(entry, "name", path), modifier, r.number(entry, "surrender_shift", path, -1.0, 1.0),
            r.text(entry, "description", path), aliases,
        ))
    r.unique("disposition", [n for d in out for n in (d.name, *d.aliases)])
    for i in range(1, len(out)):
        if out[i].modifier >= out[i - 1].modifier:
            r.fail(f"disposition[{i}].modifier", "list dispositions from best to worst (modifiers falling)")
    if sum(1 for d in out if d.modifier == 0) != 1:
        r.fail("disposition", "exactly one disposition must have modifier 0 (the default, Neutral)")
    return tuple(out)


def _events(r: _Reader) -> dict[str, EventTopic]:
    out = {}
    for i, entry in enumerate(r.entries("recent_event")):
        path = f"recent_event[{i}]"
        r.unknown_keys(entry, path, ("roll", "rolls", "topic", "positive", "negative"))
        topic = r.text(entry, "topic", path)
        faces = r.faces(entry, path)
        if not any(f % 2 for f in faces) or not any(f % 2 == 0 for f in faces):
            r.fail(path, "a topic needs an odd face (bad news) and an even face (good news)")
        out[topic] = EventTopic(topic, faces, r.strings(entry, "positive", path), r.strings(entry, "negative", path))
    r.unique("recent_event", [e.get("topic", "") for e in r.entries("recent_event")])
    r.covers_die("recent_event", out.values())
    return out


def load_codeblocks(file: str | Path | None = None) -> CodeBlockTables:
    """Load and check a Code Block table file (the bundled one by default)."""
    if file is None:
        from ..paths import bundled

        file = bundled("oracles") / "codeblocks.toml"
    r = _Reader(file, load_toml(file))
    r.unknown_keys(r.data, "", ("mood", "mindless", *TRAIT_TABLES, "disposition", "motivation", "recent_event"))
    mood = r.table(r.data, "mood", "")
    r.unknown_keys(mood, "mood", ("positive", "negative"))
    mindless = r.table(r.data, "mindless", "")
    r.unknown_keys(mindless, "mindless", _DRIVE_KEYS + ("target",))
    target = r.text(mindless, "target", "mindless")
    if target != "weakest":
        r.fail("mindless.target", "the only target rule is 'weakest' (least Pool, then least armour)")
    return CodeBlockTables(
        personality=_traits(r, "personality"),
        dark_triad=_traits(r, "dark_triad"),
        dispositions=_dispositions(r),
        motivations=_motivations(r),
        events=_events(r),
        mood_positive=r.number(mood, "positive", "mood", 0.0, 1.0),
        mood_negative=r.number(mood, "negative", "mood", -1.0, 0.0),
        mindless=_drive(r, mindless, "mindless", "mindless", ()),
        mindless_target=target,
        file=str(file),
    )


@lru_cache(maxsize=1)
def codeblocks() -> CodeBlockTables:
    """The bundled tables, loaded once per process."""
    return load_codeblocks()
