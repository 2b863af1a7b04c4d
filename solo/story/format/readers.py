"""Small readers for an adventure's TOML values: each checks one value and reports what is wrong.

Texts with their slots, conditions, scene ids and unknown fields are read the
same way in every section and by every verb, so a mistake reads the same
wherever it is made.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping

from ...errors import closest, describe, did_you_mean, unquoted
from ...rules.rolls import DIFFICULTIES
from ...rules.rulebook import POOLS, RulesTables
from ..play.luck import LUCK_COMMANDS
from .expressions import Condition, ExpressionError, parse_condition
from .problems import Collector
from .text import PARTY_WORDS, TextError, blocks_of, parse_text, party_slot_problem, runs_opening

TEXT_SLOTS = ("pc", "party", "others", "they", "them", "their", "They", "Their", "theirs", "themself",
              "you", "You", "yourself", "Yourself")

#: Every slot a text may hold, as an unknown slot's message lists them: from :data:`TEXT_SLOTS` itself, so that
#: a slot added there is listed (a docs audit: {others}, {theirs} and {themself} worked and were never named).
KNOWN_SLOTS = ", ".join([f"{{{s}}}" for s in TEXT_SLOTS if s.islower()]
                        + ["{each.NOUN}", "{verb.VERB}", "{npc.ID}", "{counter.NAME}", "{words.NAME}",
                           "{if …}…{else}…{end}"]) + "; to start a sentence: " + ", ".join(
                               f"{{{s}}}" for s in TEXT_SLOTS if not s.islower())
#: An unknown field's message lists the fields that fit where there are at most this many.
MAX_FIELDS_LISTED = 24
#: A kind of field said with the values it takes, where a bare name would leave the GM to look them up (a GM's run:
#: "expected text (difficulty), got 5").
KIND_WORDS: dict[str, str] = {
    "difficulty": f"a difficulty: {', '.join(DIFFICULTIES)}",
    "Pool": f"a Pool: {', '.join(POOLS)}",
}
#: What a verb field of each kind (:class:`solo.story.format.verbs.Field`) holds in TOML: "text", "number" (a
#: whole number), "texts" (a list of texts), "table" or "bool". A value of another shape is reported before
#: the verb's own check sees it, so no check compares, hashes or parses a value of the wrong type.
KIND_SHAPES: dict[str, tuple[str, ...]] = {
    **{kind: ("text",) for kind in (
        "text", "flag name", "counter name", "item name", "NPC id", "skill", "Focus", "conflict type",
        "difficulty", "Pool", "who", "deed", "random table", "disposition", '"Contact" or "Lab"', "weapon",
        '"night" or "days"', "body", "pronoun", "party or opponents")},
    "true or false": ("bool",), "table of outcome = text": ("table",),
    "whole number": ("number",), "skill value": ("number",),
    "likelihood": ("text", "number"), "dice or whole number": ("text", "number"),
    "Focus or list of Focuses": ("text", "texts"), "list": ("texts",), "list of NPC ids": ("texts",),
    "list of skills": ("texts",), "facet or list of facets": ("text", "texts"),
    "obstacle table": ("table",), "conflict table": ("table",),
}
#: The largest whole number a verb field takes either way: far beyond any story's need, and small enough
#: that no sum or product of them a game makes grows without end.
MAX_WHOLE = 1_000_000
_SHAPE_WORDS = {"text": "text", "number": "a whole number", "texts": "a list of texts", "table": "a table",
                "bool": "true or false"}


def _has_shape(value: object, shape: str) -> bool:
    if shape == "text":
        return isinstance(value, str)
    if shape == "number":
        return isinstance(value, int) and not isinstance(value, bool) and -MAX_WHOLE <= value <= MAX_WHOLE
    if shape == "texts":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if shape == "bool":
        return isinstance(value, bool)
    return isinstance(value, dict)
#: Condition functions that take numbers rather than names.
NUMERIC_FUNCTIONS = ("min", "max", "luck", "tension", "party_size", "fallen", "unarmed")
#: Condition functions that read the player characters: meaningless in an adventure with ``pc = false``.
PC_FUNCTIONS = ("skill", "pool", "pool_max", "luck", "tag", "party_size", "fallen", "unarmed")
_SLOT_NAME = re.compile(r"\{([^{}]*)\}")
#: A Focus named in a text as a menu writes it ("//Athletics", "//Art & Music"), and a capitalised word (a skill's name
#: is one) before it.
_FOCUS_NAMED = re.compile(r"(?<![:/\w])//([A-Z][A-Za-z]*(?: & [A-Z][A-Za-z]*)?)")
_WORD = re.compile(r"\b([A-Z][a-z]+)\b")
#: A ``{verb.…}`` whose subject is the acting PC's name or pronoun, or an NPC, not the party: right after it, or
#: after a few plain words of the same clause ("{pc}'s legs {verb.give} out", "{npc.gudrun} quietly {verb.goes}").
#: The verb agrees with the party, not with that subject.
_VERB_AFTER_PC = re.compile(r"(?<!\{)\{(pc|others|[Tt]hey|[Yy]ou|npc\.[A-Za-z0-9_]+)\}"
                            r"((?:'s)?(?:\s+[A-Za-z'-]+){0,3}?)\s+\{([Vv]erb\.[A-Za-z]*)\}")

#: A slot whose words are lower case and that has a capital form ("you", "they", a plural noun, a verb) where a
#: sentence begins: at the start of the text, or after a full stop, a question or an exclamation mark. After a
#: closing quote only a full stop counts: '"Go!" {you} shout' is how English tags speech. The text would read
#: "...as you left it. you stand"; the slot's capital (``{You}``) is the author's to write.
_LOWER_SLOT_OPENS = re.compile(r"(?:^\s*|(?P<stop>[.!?]\s|\.[\"'”’]\s)\s*)\{(?P<slot>you|yourself|they|their|"
                               r"(?:each|verb)\.[A-Za-z_]*)\}")


def _others_for_one(parts: tuple, guarded: bool = False) -> bool:
    """Whether ``{others}`` stands where one PC alone would read it: not on a side of an ``{if}`` that cannot be
    shown to one PC, by what its condition says of ``party_size()`` (the first side of ``party_size() > 1``, the
    ``{else}`` of ``party_size() < 2``; a side the condition leaves open keeps what held around it)."""
    for part in parts:
        if isinstance(part, str):
            if not guarded and "{others}" in part:
                return True
            continue
        alone = _holds_for_one(part.condition.tree)
        if (_others_for_one(part.then, guarded or alone is False)
                or _others_for_one(part.otherwise, guarded or alone is True)):
            return True
    return False


_COMPARE: dict[str, Callable[[float, float], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
_PARTY_SIZE = ("call", "party_size", ())


def _holds_for_one(node: tuple) -> bool | None:
    """Whether a condition holds when one PC plays, as far as its ``party_size()`` decides it: True or False where
    that settles it whatever else it reads, None where it does not (a flag, a counter, a comparison with a name)."""
    kind = node[0]
    if kind == "not":
        inner = _holds_for_one(node[1])
        return None if inner is None else not inner
    if kind in ("and", "or"):
        left, right = _holds_for_one(node[1]), _holds_for_one(node[2])
        settles = kind == "or"  # a side True settles an "or"; a side False settles an "and"
        if settles in (left, right):
            return settles
        return (not settles) if left is not None and right is not None else None
    if node == _PARTY_SIZE:
        return True  # one PC: 1, which is true
    if kind == "cmp" and node[1] in _COMPARE:
        left, right = node[2], node[3]
        if left == _PARTY_SIZE and right[0] == "num":
            return _COMPARE[node[1]](1, right[1])
        if right == _PARTY_SIZE and left[0] == "num":
            return _COMPARE[node[1]](left[1], 1)
    return None


class Readers:
    """The readers, with what they check names against: scene and NPC ids and the rules' tables."""

    def __init__(self, c: Collector, scene_ids: set[str], npc_ids: set[str], t: RulesTables):
        self.c = c
        self.scene_ids = scene_ids
        self.npc_ids = npc_ids
        self.t = t
        self.uses_pcs = True  # pc = false: texts and conditions may not read a player character
        self.choice_names: dict[str, list[str]] = {}  # scene id -> what chosen() may call its choices

    def fail(self, file: str, path: str, message: str, code: str = "E002") -> None:
        self.c.add(file, path, code, message)

    def expect(self, file: str, path: str, value: object, kinds: type | tuple[type, ...], what: str) -> bool:
        kinds = kinds if isinstance(kinds, tuple) else (kinds,)
        if isinstance(value, bool) and bool not in kinds:
            self.fail(file, path, f"expected {what}, got true/false")
            return False
        if not isinstance(value, kinds):
            hint = unquoted(value, path.rsplit(".", 1)[-1]) if int in kinds else ""  # counters: n = "3"
            self.fail(file, path, f"expected {what}, got {describe(value)}{hint}")
            return False
        return True

    def field_shapes(self, file: str, path: str, fields: Mapping[str, object], given: Mapping[str, object]) -> bool:
        """Report every given field whose value has the wrong shape for its kind; True if all fit.

        ``fields`` maps names to :class:`~solo.story.format.verbs.Field` (anything with a ``kind``); a
        kind missing from :data:`KIND_SHAPES` is left to the verb.
        """
        ok = True
        for name, value in given.items():
            kind = getattr(fields.get(name), "kind", None)
            shapes = KIND_SHAPES.get(kind, ()) if isinstance(kind, str) else ()
            if not shapes or any(_has_shape(value, s) for s in shapes):
                continue
            ok = False
            where = f"{path}.{name}"
            wanted = " or ".join(_SHAPE_WORDS[s] for s in shapes)
            if "number" in shapes and isinstance(value, int) and not isinstance(value, bool):  # too big
                wanted = wanted.replace("a whole number", f"a whole number within ±{MAX_WHOLE:,}")
            if "texts" in shapes and isinstance(value, list):  # point at the first item that is not text
                i = next(i for i, v in enumerate(value) if not isinstance(v, str))
                where, value, wanted = f"{where}[{i}]", value[i], "text"
            about = "" if str(kind) in wanted else f" ({KIND_WORDS.get(str(kind), kind)})"
            # a number in quotes is TOML's slip, not the value's: say the fix (a GM's run: amount = "1", by = "2")
            fix = unquoted(value, name) if "number" in shapes else ""
            self.fail(file, where, f"expected {wanted}{about}, got {describe(value)}{fix}")
        return ok

    def plain_id(self, file: str, section: str, name: str) -> bool:
        """A scene or NPC id is written into saves, maps and messages: no control characters (NUL …) in it."""
        if name.strip() and not any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
            return True
        # Said as TOML escapes it (the path must not carry the characters either), which finds its line too.
        def escaped(digits: str) -> str:
            return "".join("\\u" + format(ord(ch), digits) if ord(ch) < 32 or ord(ch) == 127 else ch for ch in name)

        lines = self.c.maps.get(file)
        line = lines.line(f"{section}.{escaped('04X')}") or lines.line(f"{section}.{escaped('04x')}") if lines else None
        self.c.add(file, f"{section}.{escaped('04X')}", "E002", f"an id must be a visible name, not {name[:40]!r}",
                   line=line)
        return False

    def unknown_fields(self, file: str, path: str, table: Mapping[str, object], allowed: Collection[str]) -> None:
        for key in table:
            if key not in allowed:
                # no near spelling: the fields that fit here, when they are few enough to read
                hint = did_you_mean(key, allowed) or (f" (here: {', '.join(sorted(allowed))})"
                                                      if len(allowed) <= MAX_FIELDS_LISTED else "")
                self.fail(file, f"{path}.{key}", f"unknown field {key!r}{hint}")

    def text(self, file: str, path: str, table: Mapping[str, object], key: str, required: bool = False,
             default: str = "") -> str:
        if key not in table:
            if required:
                self.fail(file, path, f"missing field {key!r}")
            return default
        value = table[key]
        if self.expect(file, f"{path}.{key}", value, str, "text") and isinstance(value, str):
            self.check_slots(file, f"{path}.{key}", value)
            return value
        return default

    def focus_problems(self, text: str) -> list[str]:
        """Each ``//Focus`` a text names that is no Focus of the skill named nearest before it ("Willpower
        //Courage", "(Combat //Melee or //Courage)"), or of any skill where none is named: the player reads a
        Focus the roll will not count. A Focus is named whole ("//Art & Music"; "//Chem" is none)."""
        skills = self.t.skills
        out = []
        for named in _FOCUS_NAMED.finditer(text):
            focus = named.group(1)
            before = [m.group(1) for m in _WORD.finditer(text, 0, named.start()) if m.group(1) in skills]
            skill = before[-1] if before else None
            known = skills[skill].focuses if skill else tuple(f for s in skills.values() for f in s.focuses)
            if focus not in known:
                owner = f"no Focus of {skill} (its Focuses: {', '.join(known)})" if skill else "no Focus of any skill"
                out.append(f"//{focus} names {owner}: the player reads a Focus the roll will not count")
        return out

    def check_slots(self, file: str, path: str, text: str) -> None:
        """Slots, braces and ``{if}`` blocks of one text; a block's condition is checked as an ``if`` is."""
        try:
            parts = parse_text(text)
        except TextError as exc:
            self.fail(file, path, exc.message, exc.code)
            return
        for block in blocks_of(parts):
            self.check_condition(file, path, block.condition)
        for unknown_focus in self.focus_problems(text):
            self.fail(file, path, unknown_focus, "W111")
        if "{others}" in text and _others_for_one(parts):
            self.fail(file, path, "{others} names nobody when one PC plays (an empty name where it stands): write "
                                  "it inside {if party_size() > 1}…{end}", "W109")
        for run, opens in runs_opening(parts):
            for opening in _LOWER_SLOT_OPENS.finditer(run):
                if opening.group("stop") or (opens and opening.start() == 0):
                    slot = opening.group("slot")
                    self.fail(file, path, f"{{{slot}}} begins a sentence, where it reads in lower case: write "
                                          f"{{{slot[0].upper() + slot[1:]}}}", "W110")
            for agreeing in _VERB_AFTER_PC.finditer(run):
                slot, between, verb = agreeing.group(1), agreeing.group(2), agreeing.group(3)
                if slot.startswith("npc."):
                    reads = "'Gudrun go' for a party of two"
                else:
                    reads = {"pc": "'Jonas go' for a party of two", "you": "'you goes' for one PC",
                             "others": "'Signe go' for a party of two"}.get(
                        slot.lower(), "'he go' for a party of two, 'they goes' for one PC whose pronoun is they")
                subject = f"{{{slot}}}{between}"
                self.fail(file, path, f"{{{verb}}} agrees with {{party}}, not with {subject}: it reads {reads}; "
                                      "write that verb another way", "E008")
            for slot in _SLOT_NAME.findall(run.replace("{{", "").replace("}}", "")):
                if not slot.strip():  # '{else{}…': a brace pair with nothing in it names no slot
                    self.fail(file, path, "an empty {} in the text: name a slot inside it, or write {{ and }} for "
                                          "braces the reader sees", "E008")
                elif slot.startswith("npc."):
                    npc = slot[4:]
                    if npc not in self.npc_ids:
                        self.fail(file, path, f"unknown NPC {npc!r} in {{{slot}}}{did_you_mean(npc, self.npc_ids)}",
                                  "E006")
                elif (slot[0].lower() + slot[1:]).startswith(PARTY_WORDS):
                    problem = party_slot_problem(slot)
                    if problem:
                        self.fail(file, path, problem, "E008")
                    elif not self.uses_pcs:
                        self.fail(file, path, f"{{{slot}}} reads the party, and this adventure has none "
                                              "(pc = false)", "E008")
                elif not (slot in TEXT_SLOTS or slot.startswith(("counter.", "words."))):
                    self.fail(file, path, f"unknown slot {{{slot}}}{did_you_mean(slot, TEXT_SLOTS)} (known: "
                                          f"{KNOWN_SLOTS})", "E008")
                elif slot in TEXT_SLOTS and not self.uses_pcs:
                    self.fail(file, path, f"{{{slot}}} names the player character, and this adventure has none "
                                          "(pc = false)", "E008")

    def condition(self, file: str, path: str, value: object) -> Condition | None:
        if not (self.expect(file, path, value, str, "a condition in quotes") and isinstance(value, str)):
            return None
        try:
            cond = parse_condition(value)
        except ExpressionError as exc:
            self.fail(file, path, f"bad condition {value!r}: {exc}", "E004")
            return None
        self.check_condition(file, path, cond)
        return cond

    def check_condition(self, file: str, path: str, cond: Condition) -> None:
        """The names a parsed condition gives its functions: scenes, choices, NPCs, skills, Pools, Tags."""
        for fn, args in cond.calls():
            name = args[0] if args and isinstance(args[0], str) else None
            named = fn not in NUMERIC_FUNCTIONS
            if named and any(isinstance(a, int) for a in args):
                self.fail(file, path, f"{fn}() takes names in quotes, e.g. {fn}(\"...\"), not numbers", "E004")
                continue
            if fn in PC_FUNCTIONS and not self.uses_pcs:
                self.fail(file, path, f"{fn}() reads the player characters, and this adventure has none (pc = false)")
            if name is None:
                continue
            if fn in ("visited", "visits") and name not in self.scene_ids:
                self.fail(file, path, f"unknown scene {name!r}{did_you_mean(name, self.scene_ids)}", "E003")
            if fn == "chosen":
                self.check_chosen(file, path, name)
            if fn in ("disposition", "npc_status") and name not in self.npc_ids:
                self.fail(file, path, f"unknown NPC {name!r}{did_you_mean(name, self.npc_ids)}", "E006")
            if fn == "skill" and name not in self.t.skills:
                self.fail(file, path, f"unknown skill {name!r}{did_you_mean(name, self.t.skills)}", "E005")
            if fn in ("pool", "pool_max") and name not in POOLS:
                self.fail(file, path, f"unknown Pool {name!r}{did_you_mean(name, POOLS)}", "E005")
            if fn == "tag" and name not in self.t.tags:
                self.fail(file, path, f"unknown Tag {name!r}{did_you_mean(name, self.t.tags)}", "E005")
            if fn == "used_luck" and name not in LUCK_COMMANDS:
                self.fail(file, path, f"unknown Luck use {name!r}: expected {' or '.join(map(repr, LUCK_COMMANDS))}",
                          "E005")

    def check_chosen(self, file: str, path: str, name: str) -> None:
        """``chosen("scene/choice")``: the scene exists and has a choice of that id (or position)."""
        sid, slash, choice = name.rpartition("/")
        if not slash:
            self.fail(file, path, f"chosen() takes \"scene/choice\" (a scene id, a slash, the choice's id or "
                                  f"position), not {name!r}", "E004")
        elif sid not in self.scene_ids:
            self.fail(file, path, f"unknown scene {sid!r} in chosen(){did_you_mean(sid, self.scene_ids)}", "E003")
        elif choice not in self.choice_names.get(sid, ()):
            known = self.choice_names.get(sid, [])
            self.fail(file, path, f"scene {sid!r} has no choice {choice!r}{did_you_mean(choice, known)} "
                                  f"(its choices: {', '.join(known) or 'none'})", "E003")

    def target(self, file: str, path: str, value: object) -> str | None:
        """A branch's scene. An unknown one is an error (E003), and the adventure is never played; the whole-graph
        checks that run after it read it as the scene it most likely means (else as the name written, a way out
        to nowhere), so one misspelt goto is one problem: it had also made its scene a dead end (E009) and
        everything past it unreachable (W101), eleven problems for one slip (a new GM's run)."""
        if not self.expect(file, path, value, str, "a scene id") or not isinstance(value, str):
            return None
        if value not in self.scene_ids:
            self.fail(file, path, f"unknown scene {value!r}{did_you_mean(value, self.scene_ids)}", "E003")
            return closest(value, self.scene_ids) or value
        return value
