"""Narration templates as data: what may be said, keyed by conflict type, event and variant.

Templates are content (``oracles/narration/*.toml``, adventure folders and an
adventure's ``[narration]`` section), so this module only reads, checks and
merges plain data; choosing and filling a line is :mod:`solo.narration.narrator`'s
job. Keeping the two apart lets the adventure checker load an author's
templates and report every fault without ever narrating.

A key is ``(scope, event, variant)``: ``scope`` is a conflict type key, the
fallback ``generic``, or a side view such as ``sneaking.side_b`` (lines for the
side that did not start the conflict); ``variant`` is a Lens, a severity, a
personality … or ``any`` for the event's plain lines (docs/narration.md).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ..errors import ContentError, did_you_mean
from ..rules.fiction import trait_key
from ..rules.lenses import LENSES
from ..toml_files import loads_toml
from .context import CLAIMS, MANNERS, ORDINARY, WEAPON_KINDS, parse_filters

__all__ = [
    "ANY", "EVENTS", "EventSpec", "GENERIC", "LENSES", "MIN_LINES", "PRONOUN_SLOTS", "Problem", "SIDES",
    "SLOTS", "Template", "Templates", "WORD_TABLES", "allowed_slots", "load_templates", "parse_template",
    "slot_errors", "template_data", "trait_key",
]

GENERIC = "generic"
ANY = "any"
MIN_LINES = 3
SIDES = ("side_a", "side_b")
PRONOUN_SLOTS = ("they", "them", "their", "theirs", "themself")
#: Slots every line may use. ``target_*`` pronouns belong to the target.
SLOTS = frozenset(
    ("actor", "target", "weapon", "target_weapon", "pool", "type")
    + PRONOUN_SLOTS
    + tuple(f"target_{p}" for p in PRONOUN_SLOTS)
)
WORD_TABLES = ("weapons", "pools", "skills", "said", "weapon_kinds")
_RESERVED = {"merge", "words"}
_TYPE_KEY = re.compile(r"^[a-z][a-z0-9_]*$")
_VERB_PART = re.compile(r"^[A-Za-z][A-Za-z' -]*$")
_TOKEN = re.compile(r"\{([^{}]*)\}")
_WORDS = re.compile(r"\{[^{}]*\}|[a-z']+")  # a line's words and slots, for Template.phrases
#: Words of four letters or more that give a run of three words no weight of its own ("keeps to the", "with them").
_COMMON = frozenset("that them they their theirs this than then there these those what when where which while with "
                    "from into onto over have does been were will would could should just only once some more "
                    "much very each every keeps stays takes makes gives goes lets gets puts comes".split())
#: Runs of two short words that tell as much as a longer run, and would otherwise carry no weight: a line with one
#: shares it as a phrase ("eyes flicking towards the way out" ... "glances about, as if for a way out").
_SHORT_PHRASES = frozenset({"way out"})
#: One idea in other words: a line that says it is a line that shares a phrase with any other that does ("~" marks
#: the idea's name among the phrases). A player's runs: "Espen has no good reply." then "Espen has no answer at all,
#: and it shows."; "hesitates a heartbeat too long" then "a fraction too slow"; "keeps low and careful" then "moves
#: carefully, as though the ground might give".
SAME_IDEA = {
    "~no reply": ("no good reply", "no answer", "no reply", "no ready answer", "out of arguments"),
    "~too slow": ("too slow", "heartbeat too long", "a beat late"),
    "~careful": ("careful",),
    # a reading of narrated conflicts: "goes down on one knee, and struggles back up" then "should be down, but gets
    # up"; "knocked half apart and still reaches" then "is a wreck, and still comes on"; "staggers half a step"
    # then "sways on its feet"; "flinches, then steadies" then "is not as steady as he was"; "stares at the page
    # while the words swim" then "can barely focus on the page"
    "~back up": ("back up", "gets up", "should be down", "on one knee"),
    "~still coming": ("still reaches", "still comes on", "and still comes"),
    "~unsteady": ("staggers", "sways on", "reels", "unsteady", "totters"),
    "~steady": ("steadies", "as steady as"),
    "~blurred page": ("words swim", "barely focus", "page blurs"),
    # a reading of Kaldskard's fights: "Ulrik is tired, cold and doubting every mark." then "Ulrik is tired, and
    # doubts creep in."; "Tarjei is breathing harder now." then "Tarjei's breath comes ragged."
    "~doubting": ("doubting every", "doubts creep"),
    "~out of breath": ("breathing harder", "breath comes ragged", "gasping", "gasps for air"),
    # a later reading: "Hedda flinches, then steadies. Hedda flinches at every feint."; "The first barrow-wight badly
    # misjudges the distance." then "Ingrid misjudges it"; "Ingrid has to wait, heart in mouth. Ingrid's heart is
    # hammering."
    "~flinch": ("flinches", "flinching"),
    "~misjudge": ("misjudge",),
    "~heart": ("heart pounding", "heart in mouth", "heart is hammering", "heart hammering", "heart thumping"),
    # a reading of Kaldskard's barrow sneak: "Espen makes it across a stretch, quiet as falling snow. Espen crosses a
    # long stretch without a sound."
    "~stretch": ("a stretch", "long stretch", "open stretch", "longest stretch", "the stretch"),
}


def phrases_of(text: str) -> frozenset[str]:
    """A text's telling runs of words (:attr:`Template.phrases`): every run of three words with no slot among them
    and one a word of weight, every run of :data:`_SHORT_PHRASES`, and each idea of :data:`SAME_IDEA` it says. Two
    lines of a round that share one read as the narrator saying a thing twice."""
    lowered = text.lower()
    words = _WORDS.findall(lowered)
    runs = {" ".join(words[i:i + 3]) for i in range(len(words) - 2)
            if "{" not in "".join(words[i:i + 3]) and any(len(w) > 3 and w not in _COMMON for w in words[i:i + 3])}
    runs.update(pair for pair in (" ".join(words[i:i + 2]) for i in range(len(words) - 1)) if pair in _SHORT_PHRASES)
    runs.update(idea for idea, forms in SAME_IDEA.items() if any(form in lowered for form in forms))
    return frozenset(runs)


# The personality entries of docs/rules.md §7.2 (both tables), as variant keys for NPC speech.
_TRAITS = (
    "Reserved", "Shy", "Indifferent", "Nervous", "Stressed", "Aggressive", "Pushy", "Irritating", "Generous",
    "Extroverted", "Manipulative", "Charming", "Cheerful", "Moody", "Correct", "Talkative", "Inquisitive",
    "Bitter", "Lying", "Boring", "Self-Centred", "Non-Empathic", "Sadistic", "Scheming", "Impulsive", "Fanatic",
)


TRAITS = tuple(trait_key(t) for t in _TRAITS)
TEMPERS = ("fearful", "stubborn")
MANNER_KEYS = tuple(dict.fromkeys(MANNERS.values()))  # fierce, timid, sly, cold, warm
SEVERITIES = ("none", "light", "heavy")


@dataclass(frozen=True)
class EventSpec:
    """What the check expects of one event: its variants, which of them must each have lines, extra slots."""

    variants: tuple[str, ...] = ()
    required: tuple[str, ...] = ()  # each needs MIN_LINES (counting fallbacks); () = the event itself
    slots: Mapping[str, frozenset] = field(default_factory=dict)  # variant -> slots only it may use
    about: str = ""


_SPEECH = EventSpec(TRAITS, (), {}, "an NPC speaks; variant = one of its personality entries")

#: Every event a template file may name. The order is the order docs/narration.md lists them in.
EVENTS: dict[str, EventSpec] = {
    "start": EventSpec(about="the conflict opens; actor = side a, target = side b"),
    "declare": EventSpec(LENSES + ("quick_leave",), LENSES, {"flamboyant": frozenset({"skill"})},
                         "a participant declares; variant = Lens (quick_leave: Quick to get away)"),
    "follow_up": EventSpec(("skill", "damage"), ("skill", "damage"), {},
                           "the round after a Clever round, won or not: variant = the edge chosen"),
    "round_won": EventSpec(LENSES, LENSES, {}, "a person wins the round; variant = the winner's Lens"),
    "exceptional_success": EventSpec(LENSES, (), {}, "a round won with doubles; replaces round_won"),
    "exceptional_failure": EventSpec(about="a person rolls failing doubles (or 00)"),
    "obstacle_wins": EventSpec(about="a static obstacle wins the round; actor = the obstacle"),
    "stalemate_failed": EventSpec(about="nobody succeeded; actor = side a, target = side b"),
    "stalemate_tie": EventSpec(about="the best successes tied; actor = side a, target = side b"),
    "stalemate_allies": EventSpec(about="two of one side tied with the best success, which makes a stalemate too; "
                                  "actor and target are those two allies"),
    "stalemate_run": EventSpec(("before", "ended"), ("before", "ended"),
                               {ANY: frozenset({"rounds"}), "before": frozenset({"rounds"}),
                                "ended": frozenset({"rounds"})},
                               "more rounds in a row without a result, told as one; {rounds}: how many, in words; "
                               "before: told after the result of the round that ended the run, looking back; "
                               "ended: the run lasted to the conflict's end, told after it ('the last {rounds}')"),
    "damage_none": EventSpec(LENSES, (), {}, "a blow that does nothing (armour); actor = dealer"),
    "damage_light": EventSpec(LENSES, (), {}, "less than a third of the hit Pool's maximum"),
    "damage_heavy": EventSpec(LENSES, (), {}, "a third of the hit Pool's maximum or more"),
    "progress_light": EventSpec(about="a person wears down an obstacle a little; target = obstacle"),
    "progress_heavy": EventSpec(about="a person wears down an obstacle a lot"),
    "setback_light": EventSpec(about="an obstacle costs a person a little; actor = obstacle"),
    "setback_heavy": EventSpec(about="an obstacle costs a person a lot"),
    "wavering": EventSpec(TEMPERS, (), {}, "actor's Pool fell to half or below: a clue; variant = temper"),
    "breaking": EventSpec(TEMPERS, (), {}, "actor's Pool fell to a quarter or below; variant = temper"),
    "yielding": EventSpec(about="an obstacle's Pool fell to a third or below"),
    "out": EventSpec(about="actor's Pool is spent: out of the conflict"),
    "obstacle_out": EventSpec(about="the obstacle is beaten (the lock opens, the answer is found)"),
    "push": EventSpec(about="actor pushes on below zero"),
    "comae": EventSpec(about="actor's Pool hit its full negative value"),
    "fled": EventSpec(about="actor runs from the conflict"),
    "surrendered": EventSpec(about="actor gives up or surrenders"),
    "leave_failed": EventSpec(about="a Quick attempt to get away fails"),
    "extra_action": EventSpec(("weapon", "item", "ready"), ("weapon", "item", "ready"),
                              {"item": frozenset({"item"})}, "Quick's extra action; weapon = the new one"),
    "luck": EventSpec(("flip", "reduce_damage", "refreshed"), ("flip", "reduce_damage", "refreshed"), {},
                      "a Luck Point spent by actor"),
    "escalate": EventSpec(about="a lost opposed roll becomes a conflict of this type; actor escalates"),
    "against_odds": EventSpec(about="the round's winner had less than a fifth of a chance (exact odds)"),
    "steadies": EventSpec(("flight", "offer"), ("flight", "offer"), {},
                          "someone who showed signs of flight, or begged or bargained, fights on after all"),
    "aftermath": EventSpec(("won", "fled", "surrendered"), ("won", "fled", "surrendered"),
                           {}, "after the conflict: actor = the winner, target = the loser; variant = how it ended"),
    "time_up": EventSpec(about="the round limit ends the conflict undecided"),
    "bearing": EventSpec(MANNER_KEYS, MANNER_KEYS, {}, "an NPC's manner after a round, from its Code Block; "
                         "variant = its bearing now (fierce, timid, sly, cold, warm)"),
    "manner_shift": EventSpec(MANNER_KEYS, (), {}, "a Moody or Impulsive NPC's manner swings, with the cause; "
                              "variant = the new bearing"),
    "taunt": _SPEECH,
    "plea": _SPEECH,
    "bargain": _SPEECH,
    "strain": _SPEECH,
}


@dataclass(frozen=True)
class Problem:
    """One fault in the templates, pointing at where an author can fix it."""

    file: str | None
    path: str
    message: str
    line: int | None = None
    severity: str = "error"  # or "warning"

    def __str__(self) -> str:
        where = self.file or "<templates>"
        if self.line:
            where += f":{self.line}"
        return f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"

    def to_error(self) -> ContentError:
        return ContentError(self.message, file=self.file, path=self.path or None, line=self.line)


# A parsed template: literal text, or ("slot", name, capital) / ("verb", who, singular, plural, by): ``by`` is
# "name" for a verb right after the name it agrees with ("{actor} {keeps|keep}"), else "pronoun" ("{they} …").
Piece = str | tuple


def parse_template(text: str) -> tuple[tuple[Piece, ...], frozenset, list[str]]:
    """Split a line into text and slots; returns (pieces, slot names used, errors).

    Slots are ``{name}`` (``{Name}`` capitalises the value), ``{singular|plural}``
    (a verb agreeing with the actor) and ``{target:singular|plural}``. Right after the name
    (``{actor} {keeps|keep}``) a verb agrees with the name, plural only for one named in the
    plural (an obstacle or a crowd that says "they": "the parish records keep"); elsewhere with the
    pronoun (``{they} {keeps|keep}``: "they keep", for a singular "they" too).
    Any other brace is an error: a finished line never shows ``{`` or ``}``.
    """
    pieces: list[Piece] = []
    used: set[str] = set()
    errors: list[str] = []
    pos = 0
    for m in _TOKEN.finditer(text):
        literal = text[pos:m.start()]
        if "{" in literal or "}" in literal:
            errors.append("unbalanced brace: write slots as {name}")
        if literal:
            pieces.append(literal)
        body = m.group(1).strip()
        pos = m.end()
        if "|" in body:
            who, _, forms = body.rpartition(":") if ":" in body else ("actor", "", body)
            who = who.strip() or "actor"
            parts = [p.strip() for p in forms.split("|")]
            if who not in ("actor", "target"):
                errors.append(f"verb slot {{{body}}}: agree with 'actor' or 'target', not {who!r}")
            elif len(parts) != 2 or not all(_VERB_PART.match(p) for p in parts):
                errors.append(f"verb slot {{{body}}} must be {{singular|plural}}, e.g. {{keeps|keep}}")
            else:
                after_name = (len(pieces) >= 2 and isinstance(pieces[-1], str) and pieces[-1].strip() == ""
                              and pieces[-2][:2] == ("slot", who))
                pieces.append(("verb", who, parts[0], parts[1], "name" if after_name else "pronoun"))
            continue
        name = body
        capital = bool(name) and name[0].isupper()
        key = name[0].lower() + name[1:] if name else name
        if not name:
            errors.append("empty slot {}")
            continue
        used.add(key)
        pieces.append(("slot", key, capital))
    tail = text[pos:]
    if "{" in tail or "}" in tail:
        errors.append("unbalanced brace: write slots as {name}")
    if tail:
        pieces.append(tail)
    return tuple(pieces), frozenset(used), errors


_EXTRA_SLOTS = {slot: [f"{e}.{v}" for e, spec in EVENTS.items() for v, ss in spec.slots.items() if slot in ss]
                for spec in EVENTS.values() for ss in spec.slots.values() for slot in ss}


def allowed_slots(event: str, variant: str = ANY) -> frozenset:
    """The slots a line of ``event``/``variant`` may use: every line's, plus the variant's own."""
    spec = EVENTS.get(event)
    return SLOTS | (spec.slots.get(variant, frozenset()) if spec else frozenset())


def slot_errors(event: str, variant: str, used: Iterable[str]) -> list[str]:
    """Why some slots of a line can never be filled where it stands (empty if all can)."""
    allowed = allowed_slots(event, variant)
    errors = []
    for slot in sorted(set(used) - allowed):
        if slot in _EXTRA_SLOTS:
            errors.append(f"{{{slot}}} is only filled in {', '.join(_EXTRA_SLOTS[slot])}")
        else:
            errors.append(f"unknown slot {{{slot}}}{did_you_mean(slot, sorted(allowed))}")
    return errors


@dataclass(frozen=True)
class Template:
    text: str
    pieces: tuple
    slots: frozenset
    file: str | None = None
    line: int | None = None
    path: str = ""
    filters: Mapping[str, frozenset[str]] = field(default_factory=dict)  # [name:value] conditions and claims

    @cached_property
    def restricted(self) -> bool:
        """Whether the line only fits some moments (it has filters other than claims).

        A body filter that admits flesh, the body of nearly everyone, does not count: "Bleeding, Espen fights
        on" fits any moment a person of flesh is in, and is only kept from a machine or a draugr (nor does one
        of :data:`ORDINARY`'s others: a blow that hurt at all, two fighters, one not spent). Worked out
        once per line (a template never changes): the narrator asks it of every candidate at every line.
        """
        return any(name not in CLAIMS and not (name in ORDINARY and ORDINARY[name] <= values)
                   for name, values in self.filters.items())

    def claim(self, name: str) -> str | None:
        """The single value a claim filter states (``shows:wary``), if the line makes it."""
        values = self.filters.get(name)
        return next(iter(values)) if values and len(values) == 1 else None

    @cached_property
    def uid(self) -> str:
        """A short id that stays the same across runs (for the Narrator's saved memory); hashed once per line."""
        return f"{zlib.crc32(self.text.encode('utf-8')):08x}"

    @cached_property
    def slot_order(self) -> tuple[str, ...]:
        """The slots in one order, for the narrator's note of a sentence told (worked out once per line)."""
        return tuple(sorted(self.slots))

    @cached_property
    def phrases(self) -> frozenset[str]:
        """The line's telling runs of words (:func:`phrases_of`): two lines of a round that share one read as the
        narrator saying a thing twice ("… and Jonas has no answer. Jonas has no answer at all"; "steadies his
        voice and starts again" … "clears his throat and starts again")."""
        return phrases_of(self.text)


@dataclass
class Templates:
    """Every line by key, the word tables, and what went wrong while loading (non-strict)."""

    lines: dict[tuple[str, str, str], list[Template]] = field(default_factory=dict)
    words: dict[str, dict[str, str]] = field(default_factory=lambda: {t: {} for t in WORD_TABLES})
    problems: list[Problem] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)

    def copy(self) -> Templates:
        """A copy whose lists and tables can change without touching this one (templates are frozen)."""
        return Templates({key: list(lines) for key, lines in self.lines.items()},
                         {table: dict(entries) for table, entries in self.words.items()},
                         list(self.problems), list(self.sources))

    def get(self, scope: str, event: str, variant: str = ANY) -> list[Template]:
        return self.lines.get((scope, event, variant), [])

    def scopes(self) -> set[str]:
        return {k[0] for k in self.lines}

    def count(self) -> int:
        return sum(len(v) for v in self.lines.values())

    def word(self, table: str, name: str | None, default: str, scope: str | None = None) -> str:
        """A game term as narration says it (weapon, Pool, skill), by exact or case-blind name.

        ``scope`` (a conflict type) is tried first as ``"scope.name"``: a debate
        names a Flamboyant Combat roll differently from a brawl.
        """
        if name is None:
            return self.words.get(table, {}).get("none", default)
        entries = self.words.get(table, {})
        if scope is not None:
            scoped = self.word(table, f"{scope}.{name}", "")
            if scoped:
                return scoped
        if name in entries:
            return entries[name]
        wanted = _norm(name)
        for key, text in entries.items():
            if _norm(key) == wanted:
                return text
        return default


def _norm(name: str) -> str:
    return re.sub(r"[\s_-]+", "_", name.strip().lower())


class _Lines:
    """Finds the line of a template in its file's text, where that can be told (tomli gives none).

    The file is indexed in one pass: where each ``[table]`` header and each
    ``dotted.key =`` first appears. Looking a key up is then a dictionary read,
    not a scan of the file per template line.
    """

    def __init__(self, source: str | None):
        self.lines = source.splitlines() if source else []
        self.tables: dict[tuple[str, ...], int] = {}
        self.keys: dict[tuple[str, ...], int] = {}
        for number, text in enumerate(self.lines, 1):
            if m := _HEADER.match(text):
                self.tables.setdefault(_key_parts(m.group(1)), number)
            if m := _DOTTED.match(text):
                self.keys.setdefault(_key_parts(m.group(1)), number)

    def find(self, scope: str, event: str, variant: str, text: str) -> int | None:
        if not self.lines:
            return None
        start = self.header(scope, event)
        needle = _needle(text)
        if needle:
            for number in range(start or 1, len(self.lines) + 1):
                if needle in self.lines[number - 1]:
                    return number
        return start

    def header(self, scope: str, event: str | None) -> int | None:
        parts = tuple(scope.split(".")) + ((event,) if event else ())
        line = self.tables.get(parts)
        return line if line is not None else self.keys.get(parts)  # dotted keys: combat.out = [...]


_HEADER = re.compile(r"^\s*\[([^\[\]]*)\]")
_DOTTED = re.compile(r"^\s*([^=]*?)\s*=")


def _key_parts(key: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in key.split("."))


def _needle(text: str) -> str:
    """A piece of a line as it is written in the file: text between characters TOML may escape."""
    for part in re.split(r'["\\]', text):
        if len(part) >= 8:
            return part[:40]
    return ""


class _Reader:
    def __init__(self, templates: Templates, name: str, source: str | None, strict: bool):
        self.t = templates
        self.file = name
        self.where = _Lines(source)
        self.strict = strict

    def problem(self, path: str, message: str, line: int | None = None, severity: str = "error") -> None:
        p = Problem(self.file, path, message, line, severity)
        if self.strict and severity == "error":
            raise p.to_error()
        self.t.problems.append(p)

    def read(self, data: Mapping) -> None:
        if not isinstance(data, Mapping):
            self.problem("", "narration templates must be a table of conflict types")
            return
        mode = data.get("merge", "extend")
        if mode not in ("extend", "replace"):
            self.problem("merge", f"merge must be \"extend\" or \"replace\", not {mode!r}")
            mode = "extend"
        for key, value in data.items():
            if key == "merge":
                continue
            if key == "words":
                self.read_words(value)
                continue
            if not isinstance(key, str) or not _TYPE_KEY.match(key):
                self.problem(str(key), "a conflict type key is lower-case letters, digits and '_'",
                             self.where.header(str(key), None))
                continue
            if not isinstance(value, Mapping):
                self.problem(key, "expected a table of events, e.g. [" + key + ".round_won]",
                             self.where.header(key, None))
                continue
            self.read_scope(key, value, mode, allow_sides=True)

    def read_words(self, value: object) -> None:
        if not isinstance(value, Mapping):
            self.problem("words", "expected [words.weapons], [words.pools] and [words.skills] tables")
            return
        for table, entries in value.items():
            if table not in WORD_TABLES:
                self.problem(f"words.{table}", f"unknown word table{did_you_mean(table, WORD_TABLES)}; "
                             f"known: {', '.join(WORD_TABLES)}", self.where.header("words", table))
                continue
            if not isinstance(entries, Mapping) or not all(isinstance(v, str) and v for v in entries.values()):
                self.problem(f"words.{table}", "expected name = \"words\" pairs", self.where.header("words", table))
                continue
            for name, text in entries.items():
                if "{" in text or "}" in text:
                    self.problem(f"words.{table}.{name}", "words cannot hold slots or braces")
                    continue
                if table == "weapon_kinds" and text not in WEAPON_KINDS:
                    self.problem(f"words.{table}.{name}", f"unknown weapon kind {text!r}; known: "
                                 f"{', '.join(WEAPON_KINDS)}", self.where.header("words", table))
                    continue
                self.t.words.setdefault(table, {})[name] = text

    def read_scope(self, scope: str, table: Mapping, mode: str, *, allow_sides: bool) -> None:
        for event, value in table.items():
            path = f"{scope}.{event}"
            if allow_sides and event in SIDES:
                if not isinstance(value, Mapping):
                    self.problem(path, "expected a table of events", self.where.header(scope, event))
                    continue
                self.read_scope(f"{scope}.{event}", value, mode, allow_sides=False)
                continue
            spec = EVENTS.get(event)
            if spec is None:
                known = list(EVENTS) + (list(SIDES) if allow_sides else [])
                self.problem(path, f"unknown event{did_you_mean(event, known)}", self.where.header(scope, event))
                continue
            if isinstance(value, list):
                self.add(scope, event, ANY, value, mode)
            elif isinstance(value, Mapping):
                for variant, lines in value.items():
                    if variant != ANY and variant not in spec.variants:
                        known = [ANY, *spec.variants]
                        hint = did_you_mean(variant, known)
                        self.problem(f"{path}.{variant}", f"unknown variant of {event}{hint}; known: "
                                     f"{', '.join(known) if len(known) < 12 else 'any, or a personality key'}",
                                     self.where.header(scope, event))
                        continue
                    if not isinstance(lines, list):
                        self.problem(f"{path}.{variant}", "expected a list of lines", self.where.header(scope, event))
                        continue
                    self.add(scope, event, variant, lines, mode)
            else:
                self.problem(path, "expected a list of lines or a table of variants", self.where.header(scope, event))

    def add(self, scope: str, event: str, variant: str, lines: list, mode: str) -> None:
        key = (scope, event, variant)
        base = f"{scope}.{event}" + ("" if variant == ANY else f".{variant}")
        out: list[Template] = []
        for i, text in enumerate(lines):
            path = f"{base}[{i}]"
            if not isinstance(text, str) or not text.strip():
                self.problem(path, "a line must be non-empty text", self.where.header(scope, event))
                continue
            text = " ".join(text.split())
            line = self.where.find(scope, event, variant, text)
            body, filters, errors = parse_filters(text)
            if "shows" in filters and event not in ("declare", "follow_up"):
                errors.append("the filter shows: belongs to declare and follow_up lines only")
            pieces, used, slot_problems = parse_template(body)
            errors += slot_problems + slot_errors(event, variant, used)
            for err in errors:
                self.problem(path, err, line)
            if errors:
                continue
            out.append(Template(body, pieces, used, self.file, line, path, filters))
        if mode == "replace" or key not in self.t.lines:
            self.t.lines[key] = out
        else:
            self.t.lines[key] = self.t.lines[key] + out


def template_files(folder: Path) -> list[Path]:
    """The template files of a folder: its ``narration/`` subfolder if it has one, else its own TOML files."""
    sub = folder / "narration"
    return sorted((sub if sub.is_dir() else folder).glob("*.toml"))


def load_templates(
    extra_folders: Sequence[str | Path] = (),
    extra_data: Iterable[Mapping | tuple[str, Mapping]] = (),
    *,
    strict: bool = True,
    bundled: bool = True,
) -> Templates:
    """The bundled templates, then each extra folder, then each extra data table, later ones winning.

    A source extends the lists it names unless it says ``merge = "replace"``.
    ``extra_data`` items are tables (an adventure's ``[narration]``) or
    ``(name, table)`` pairs, the name being used in problems. ``strict``
    raises :class:`ContentError` at the first fault (the game must not start on
    broken text); ``strict=False`` skips bad entries and keeps every problem in
    ``templates.problems`` for :func:`~solo.narration.lint.check_templates`.
    """
    t = Templates()
    files: list[Path] = []
    for folder in extra_folders:
        folder = Path(folder)
        if not folder.is_dir():
            p = Problem(str(folder), "", "template folder not found")
            if strict:
                raise p.to_error()
            t.problems.append(p)
            continue
        files += template_files(folder)
    if bundled:
        missing, t = t.problems, _bundled_templates(strict)
        t.problems[:0] = missing
    _read_files(t, files, strict)
    for i, item in enumerate(extra_data):
        name, data = item if isinstance(item, tuple) else (f"<narration data {i + 1}>", item)
        t.sources.append(name)
        _Reader(t, name, None, strict).read(data)
    return t


#: The bundled templates as read once in this process, by folder; never handed out, only copied.
_BUNDLED: dict[Path, Templates] = {}


def _bundled_templates(strict: bool) -> Templates:
    """A copy of the bundled templates: every game, duel and check starts from them, and they never change."""
    from ..paths import bundled as bundled_folder

    folder = bundled_folder("oracles") / "narration"
    files = sorted(folder.glob("*.toml"))
    base = _BUNDLED.get(folder)
    if base is None:
        base = _BUNDLED[folder] = Templates()
        _read_files(base, files, strict=False)
    if strict and any(p.severity == "error" for p in base.problems):
        _read_files(Templates(), files, strict=True)  # raises the first fault, as a fresh strict read meets it
    return base.copy()


def _read_files(t: Templates, files: Iterable[Path], strict: bool) -> None:
    for path in files:
        name = str(path)
        t.sources.append(name)
        try:
            text = path.read_text(encoding="utf-8")
            data = loads_toml(text, file=path)
        except UnicodeDecodeError as exc:
            err = ContentError(f"cannot read file: {exc}", file=path)
            if strict:
                raise err from None
            t.problems.append(Problem(name, "", err.message))
            continue
        except OSError as exc:
            if strict:
                raise ContentError(f"cannot read file: {exc}", file=path) from None
            t.problems.append(Problem(name, "", f"cannot read file: {exc}"))
            continue
        except ContentError as exc:
            if strict:
                raise
            t.problems.append(Problem(exc.file, "", exc.message, exc.line))
            continue
        _Reader(t, name, text, strict).read(data)


def template_data(text: str, name: str = "<text>") -> dict:
    """TOML text as template data (raises :class:`ContentError` with the line on a syntax error)."""
    return loads_toml(text, file=name)
