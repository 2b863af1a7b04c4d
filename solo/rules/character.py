"""Characters: skills, Focuses, Tags, Conflict Pools and Luck (docs/rules.md §2).

A :class:`Character` is plain data that round-trips through ``to_dict`` and
``from_dict``; what a skill is worth in a situation is computed by
:func:`skill_target`, which returns every modifier by name so the player can
see why a number moved.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import EllipsisType
from typing import Any, NoReturn, Self, TypeVar, overload

from ..errors import ContentError, describe, did_you_mean
from ..terminal_text import ACTS_ON_TERMINAL, CONTROL_PROBLEM, controlled, name_problem, overlong
from .rolls import Modifier
from .rulebook import POOLS, SKILLS, Armour, RulesTables, Shield, Weapon, rules

#: Tags a character file or save may still spell as an older version of the table did.
RENAMED_TAGS = {"Headquarter": "Headquarters"}

_T = TypeVar("_T")

HURT_PENALTY = -20  # any Pool below zero (docs/rules.md §5.5)
MAX_SKILL = 100  # a skill's range, 0-100 % (docs/rules.md §2.1, book l.69); a Focus may take the target past it
MAX_NAME = 100  # characters in a character's or a player's name: any name fits, and every line that shows it
HURT_REASON = "hurt"  # the modifier's name wherever it is shown


def push_cost(maximum: int, *, death: bool = False) -> str:
    """What pushing on costs, beside the choice wherever it is offered: the penalty below zero, and where it ends,
    comae, or death where the story makes comae death (a player took "every skill -20 % while below zero" for all
    of it, and met comae, in that adventure death, without a word of warning); comae said with what it is (a player's
    run: "comae at -16" explained nothing)."""
    return f"every skill {HURT_PENALTY:+d} % once below zero; {'death' if death else 'comae'} at {-maximum}" + \
        ("" if death else " (a coma: out of the scenario)")


@dataclass
class Pool:
    maximum: int
    current: int

    def to_dict(self) -> dict[str, int]:
        return {"max": self.maximum, "current": self.current}


@dataclass
class Situation:
    """What the scene says about the people involved, for the Tags' Social modifiers."""

    upper_class: bool = False
    criminal: bool = False
    borderline_access: bool = False
    status_known: bool = False


@dataclass
class Character:
    name: str
    skills: dict[str, int]
    pools: dict[str, Pool]
    focuses: dict[str, int] = field(default_factory=dict)  # "Skill//Focus" -> bonus
    tags: list[str] = field(default_factory=list)
    luck: int = 2
    player: str | None = None
    career: str | None = None
    pronoun: str = "they"
    willpower: dict[str, dict[str, str]] = field(default_factory=dict)  # person/circle -> who, verb
    tag_notes: dict[str, str] = field(default_factory=dict)
    gear_bonus: int = 0
    weapon: str | None = None
    armour: str | None = None
    shield: str | None = None
    items: list[str] = field(default_factory=list)
    owed_failures: int = 0  # borrowed Luck due in this scene: successes still to turn into failures (§2.8)
    improvement_rolls: int = 0
    requests: dict[str, int] = field(default_factory=dict)  # Contact/Lab requests this scenario
    medicine_tried: list[str] = field(default_factory=list)  # Pools treated today
    level: str | None = None  # None for player characters; NPCs: common/skilled/master

    # -- derived -------------------------------------------------------
    @property
    def is_pc(self) -> bool:
        return self.level is None

    @property
    def luck_max(self) -> int:
        return 3 if "Auspicious" in self.tags else 2

    @property
    def can_push(self) -> bool:
        """PCs and Master NPCs may let a Pool go below zero (docs/rules.md §5.5)."""
        return self.level is None or self.level == "master"

    @property
    def hurt(self) -> bool:
        """Some Pool below zero (docs/rules.md §5.5): every skill takes the hurt penalty."""
        for p in self.pools.values():  # a loop, not any() over a generator: read at every conflict's set-up
            if p.current < 0:
                return True
        return False

    def has_focus(self, skill: str, focus: str) -> bool:
        return f"{skill}//{focus}" in self.focuses

    def focus_names(self, skill: str) -> list[str]:
        prefix = f"{skill}//"
        return [k[len(prefix):] for k in self.focuses if k.startswith(prefix)]

    # -- serialisation -------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        for key in ("player", "career", "level"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        out["pronoun"] = self.pronoun
        out["luck"] = self.luck
        out["skills"] = {s: self.skills[s] for s in SKILLS}
        out["focuses"] = dict(self.focuses)
        out["tags"] = list(self.tags)
        if self.tag_notes:
            out["tag_notes"] = dict(self.tag_notes)
        if self.gear_bonus:
            out["gear_bonus"] = self.gear_bonus
        out["pools"] = {p: self.pools[p].to_dict() for p in POOLS}
        if self.willpower:
            out["willpower"] = {k: dict(v) for k, v in self.willpower.items()}
        for key in ("weapon", "armour", "shield"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        for key in ("items", "medicine_tried"):
            if getattr(self, key):
                out[key] = list(getattr(self, key))
        for key in ("owed_failures", "improvement_rolls"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.requests:
            out["requests"] = dict(self.requests)
        return out

    @classmethod
    def from_dict(cls, data: object, *, file: str | Path | None = None, tables: RulesTables | None = None) -> Character:
        """Build a character from a file's data, checking every field."""
        return _CharacterReader(data, file, tables or rules()).build()

    def copy(self) -> Character:
        return Character.from_dict(self.to_dict())

    def duplicate(self) -> Self:
        """This character with every container made new, nothing checked again (it was when it was read):
        a search copies the party at every step. tests/test_npc_copy.py checks no container is shared.

        The new attributes are put in a copy of this one's ``__dict__`` before it becomes the new character's:
        a fifth quicker than setting them one by one on a :func:`shallow` copy (solo prove copies every NPC of a
        state at each step it takes)."""
        attrs = self.__dict__.copy()
        attrs["skills"] = dict(self.skills)
        attrs["pools"] = {k: Pool(p.maximum, p.current) for k, p in self.pools.items()}
        attrs["focuses"] = dict(self.focuses)
        attrs["tags"] = list(self.tags)
        attrs["willpower"] = {k: dict(v) for k, v in self.willpower.items()} if self.willpower else {}
        attrs["tag_notes"] = dict(self.tag_notes)
        attrs["items"] = list(self.items)
        attrs["requests"] = dict(self.requests)
        attrs["medicine_tried"] = list(self.medicine_tried)
        new = object.__new__(type(self))
        new.__dict__ = attrs
        return new


def shallow(obj: _T) -> _T:
    """What ``copy.copy`` gives for a plain class (a new object of its class, the same attribute values), without
    its generic protocol: solo prove copies each character and NPC at every step of its search."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


class _CharacterReader:
    def __init__(self, data: Any, file: str | Path | None, tables: RulesTables) -> None:
        self.data = data  # unchecked file content: build() checks that it is a table first
        self.file = file
        self.t = tables

    def fail(self, path: str, message: str) -> NoReturn:
        raise ContentError(message, file=self.file, path=path)

    def int_in(self, value: object, path: str, lo: int, hi: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            from ..errors import unquoted

            self.fail(path, f"expected a whole number, got {describe(value)}{unquoted(value, path.rsplit('.', 1)[-1])}")
        if not lo <= value <= hi:
            self.fail(path, f"{value} is out of range {lo}..{hi}")
        return value

    @overload
    def text(self, key: str) -> str: ...
    @overload
    def text(self, key: str, default: str) -> str: ...
    @overload
    def text(self, key: str, default: None) -> str | None: ...

    def text(self, key: str, default: str | None | EllipsisType = ...) -> str | None:
        value = self.data.get(key, default)
        if value is ...:
            self.fail(key, "missing field")
        if value is not None and not isinstance(value, str):
            self.fail(key, f"expected text, got {value!r}")
        return value

    def table(self, key: str) -> dict[str, Any]:
        value = self.data.get(key, {})
        if not isinstance(value, dict):
            self.fail(key, f"expected a table, got {value!r}")
        return value

    def list_of(self, key: str) -> list[Any]:
        value = self.data.get(key, [])
        if not isinstance(value, list):
            self.fail(key, f"expected a list, got {value!r}")
        return value

    def build(self) -> Character:
        d = self.data
        if not isinstance(d, dict):
            self.fail("", "a character must be a table of fields")
        if not _FIELD_SET.issuperset(d):
            key = next(k for k in d if k not in _FIELD_SET)
            self.fail(str(key), f"unknown field{did_you_mean(str(key), _FIELDS) or _FIELDS_LISTED}")
        # the free text only: every other field is a number or a name looked up in the rules' tables, which refuse
        # what they do not know (a character is read at every game's start: a walk over all of it cost 8 µs of 13)
        # (a save's party was written by an earlier solo, whose typed names could hold a direction mark: read)
        free: dict[str, Any] = {k: d[k] for k in _FREE_TEXT if k in d}
        if isinstance(d.get("requests"), dict):  # its keys are a Tag's name as written, not looked up
            free["requests"] = list(d["requests"])
        for where in controlled(free, limit=1, pattern=ACTS_ON_TERMINAL):
            self.fail(where, CONTROL_PROBLEM)
        name = self.text("name")
        for key, value in (("name", name), ("player", self.text("player", None))):
            problem = name_problem(value) if value is not None else None  # a line break would draw a menu of its own
            if problem:
                self.fail(key, problem)
        for key, value in (("name", name), ("player", self.text("player", None))):
            if value is not None and len(value) > MAX_NAME:
                self.fail(key, f"a name has at most {MAX_NAME} characters, not {len(value):,}")
        long = overlong(free)  # (after the names, whose own bound is the tighter)
        if long is not None:
            self.fail(*long)
        skills_in = d.get("skills", {})
        if not isinstance(skills_in, dict):
            self.fail("skills", "expected a table of skill = value")
        skills = {}
        for skill in SKILLS:
            skills[skill] = self.int_in(skills_in.get(skill, self.t.untrained), f"skills.{skill}", 0, MAX_SKILL)
        for skill in skills_in:
            if skill not in SKILLS:
                self.fail(f"skills.{skill}", f"unknown skill{did_you_mean(skill, SKILLS)}")
        focuses = {}
        for key, bonus in self.table("focuses").items():
            skill, _, focus = key.partition("//")
            if skill not in self.t.skills:
                self.fail(f"focuses.{key}",
                          f"unknown skill {skill!r}{did_you_mean(skill, SKILLS)} (write Skill//Focus)")
            if focus not in self.t.skills[skill].focuses:
                self.fail(f"focuses.{key}",
                          f"{focus!r} is not a Focus of {skill}{did_you_mean(focus, self.t.skills[skill].focuses)}")
            focuses[key] = self.int_in(bonus, f"focuses.{key}", 0, 100)
        tags = d.get("tags", [])
        if not isinstance(tags, list):
            self.fail("tags", "expected a list of tag names")
        tags = [RENAMED_TAGS.get(tag, tag) if isinstance(tag, str) else tag for tag in tags]
        for i, tag in enumerate(tags):
            if tag not in self.t.tags:
                self.fail(f"tags[{i}]", f"unknown tag {tag!r}{did_you_mean(tag, self.t.tags)}")
        pools_in = d.get("pools")
        if not isinstance(pools_in, dict):
            self.fail("pools", "missing table of Conflict Pools (BODY, INT, POW, CHA)")
        pools = {}
        for p in POOLS:
            entry = pools_in.get(p)
            if isinstance(entry, int) and not isinstance(entry, bool):
                entry = {"max": entry, "current": entry}
            if not isinstance(entry, dict):
                self.fail(f"pools.{p}", "expected a number or {max = N, current = N}")
            maximum = self.int_in(entry.get("max"), f"pools.{p}.max", 1, 99)
            current = self.int_in(entry.get("current", maximum), f"pools.{p}.current", -maximum, maximum)
            pools[p] = Pool(maximum, current)
        for p in pools_in:
            if p not in POOLS:
                self.fail(f"pools.{p}", f"unknown Pool{did_you_mean(p, POOLS)}")
        level = self.text("level", None)
        if level is not None and level not in ("common", "skilled", "master"):
            self.fail("level", "expected common, skilled or master")
        char = Character(
            name=name, skills=skills, pools=pools, focuses=focuses, tags=list(tags),
            player=self.text("player", None), career=self.text("career", None),
            pronoun=self.text("pronoun", "they"), level=level,
        )
        if char.pronoun not in PRONOUNS:
            self.fail("pronoun", f"expected one of {', '.join(PRONOUNS)}")
        char.luck = self.int_in(d.get("luck", char.luck_max), "luck", -2, 10)
        char.gear_bonus = self.int_in(d.get("gear_bonus", 0), "gear_bonus", 0, 3)
        for key in ("weapon", "armour", "shield"):
            value = self.text(key, None)
            if value is not None:
                lookups: dict[str, Callable[[str], Weapon | Armour | Shield]] = {
                    "weapon": self.t.weapon, "armour": self.t.armour_named, "shield": self.t.shield}
                lookup = lookups[key]
                try:
                    value = lookup(value).key
                except KeyError as exc:
                    self.fail(key, exc.args[0])
            setattr(char, key, value)
        char.willpower = {}
        for slot, entry in self.table("willpower").items():
            if slot not in ("person", "circle") or not isinstance(entry, dict):
                self.fail(f"willpower.{slot}", "expected [willpower.person] or [willpower.circle] tables")
            for k, v in entry.items():  # (a number as a verb was shown on the sheet: "//Person (5 your ward)")
                if k not in ("who", "verb") or not isinstance(v, str):
                    self.fail(f"willpower.{slot}.{k}", f"expected who = \"…\" and verb = \"…\" (text), got "
                              f"{k} = {describe(v)}")
            char.willpower[slot] = {str(k): str(v) for k, v in entry.items()}
        char.tag_notes = {RENAMED_TAGS.get(str(k), str(k)): str(v) for k, v in self.table("tag_notes").items()}
        char.items = [str(x) for x in self.list_of("items")]
        char.medicine_tried = [str(x) for x in self.list_of("medicine_tried")]
        char.owed_failures = self.int_in(d.get("owed_failures", 0), "owed_failures", 0, 2)
        char.improvement_rolls = self.int_in(d.get("improvement_rolls", 0), "improvement_rolls", 0, 1000)
        char.requests = {str(k): self.int_in(v, f"requests.{k}", 0, 1000) for k, v in self.table("requests").items()}
        return char


#: The fields a character's file may have: what a player writes and what play keeps (a save's party), and the
#: ``[roster]`` table solo keeps in a roster's files (solo/characters.py), which no one writes by hand.
_FIELDS = tuple(f.name for f in fields(Character)) + ("roster",)
_FIELDS_LISTED = f" (a character has: {', '.join(_FIELDS[:-1])})"
_FIELD_SET = frozenset(_FIELDS)
#: The fields whose text is a player's own words, shown as written.
_FREE_TEXT = ("name", "player", "career", "willpower", "tag_notes", "items", "medicine_tried", "roster")


PRONOUNS = {
    "he": {"they": "he", "them": "him", "their": "his", "theirs": "his", "themself": "himself"},
    "she": {"they": "she", "them": "her", "their": "her", "theirs": "hers", "themself": "herself"},
    "they": {"they": "they", "them": "them", "their": "their", "theirs": "theirs", "themself": "themself"},
    "it": {"they": "it", "them": "it", "their": "its", "theirs": "its", "themself": "itself"},
}


def pronoun_forms(pronoun: str) -> dict[str, str]:
    """A pronoun's forms ("they", "them", "their", "theirs", "themself"); an unknown one reads as "they"."""
    return PRONOUNS.get(pronoun, PRONOUNS["they"])


def pronoun_words(pronoun: str) -> str:
    """A pronoun as a player reads it on a sheet or in the question that sets it: "she/her", "they/them"."""
    forms = pronoun_forms(pronoun)
    return f"{forms['they']}/{forms['them']}" if forms["they"] != forms["them"] else f"{forms['they']}/{forms['their']}"


def spoken_language(value: int, tables: RulesTables | None = None) -> int:
    """A Knowledge //Language value as a roll counts it: never below the native tongue's 40 % (rules §2.2). The one
    home of that floor: the roll, the character card and the improvement menu read it here."""
    return max(value, (tables or rules()).native_language)


def skill_target(
    char: Character,
    skill: str,
    focus: str | Iterable[str] | None = None,
    *,
    situation: Situation | None = None,
    extra: Iterable[Modifier] = (),
    tables: RulesTables | None = None,
) -> tuple[int, list[Modifier]]:
    """The effective skill for an action, and every modifier that went into it.

    ``focus`` may name one Focus or several that fit the action (a chase on
    foot accepts Acrobatics or Athletics; in a fight, only the weapon's Combat
    Focus fits, see :meth:`Participant.fitting_focuses`): the best the
    character has is used. With no fitting Focus, a similar one (another
    Focus of the same skill) counts at −20 (docs/rules.md §2.2 ruling);
    otherwise the bare skill.
    """
    t = tables or rules()
    if skill not in t.skills:
        raise KeyError(f"unknown skill {skill!r}{did_you_mean(skill, SKILLS)}")
    base = char.skills[skill]
    mods: list[Modifier] = []
    wanted = [focus] if isinstance(focus, str) else list(focus or [])
    focuses = char.focuses
    prefix = skill + "//"
    fitting = [(focuses[prefix + f], f) for f in wanted if prefix + f in focuses]
    if fitting:
        bonus, name = max(fitting)
        mods.append(Modifier(f"//{name}", bonus))
    elif wanted and focuses:
        similar = [
            (bonus - t.similar_focus_penalty, key[len(prefix):])
            for key, bonus in focuses.items()
            if key.startswith(prefix) and key[len(prefix):] not in ("Person", "Circle", "Language")
        ]
        if similar:
            bonus, name = max(similar)
            if bonus > 0:
                mods.append(Modifier(f"//{name} (similar)", bonus))
    if skill == "Knowledge" and "Language" in wanted:
        value = base + sum(m.value for m in mods)
        floor = spoken_language(value, t)
        if floor > value:
            mods.append(Modifier("native language", floor - value))
    if skill == "Social" and situation is not None:
        mods.extend(_tag_modifiers(char, situation))
    if char.hurt:
        mods.append(Modifier(HURT_REASON, HURT_PENALTY))
    if char.armour:
        armour = t.armour.get(char.armour)
        if armour and skill in armour.skill_penalties:
            mods.append(Modifier(armour.name, armour.skill_penalties[skill]))
    mods.extend(extra)
    return base + sum(m.value for m in mods), mods


_VALUES: dict[tuple, int] = {}


def skill_value(char: Character, skill: str, focus: tuple[str, ...]) -> int:
    """``skill_target(char, skill, focus)[0]``, remembered for each state of what it reads: the skill, the
    Focuses, hurt and armour (and the rules tables). A conflict's set-up asks it for the same characters
    and skills again and again (the simulator's cast, a duel of thousands of conflicts)."""
    t = rules()
    key = (skill, focus, char.skills.get(skill), tuple(char.focuses.items()), char.hurt, char.armour, id(t))
    value = _VALUES.get(key)
    if value is None:
        if len(_VALUES) >= 4096:
            _VALUES.clear()
        value = _VALUES[key] = skill_target(char, skill, focus, tables=t)[0]
    return value


def _tag_modifiers(char: Character, s: Situation) -> list[Modifier]:
    mods = []
    if s.upper_class and "High Society" not in char.tags:
        mods.append(Modifier("no #High Society", -20))
    if s.criminal and "Streetwise" not in char.tags:
        mods.append(Modifier("no #Streetwise", -20))
    if s.borderline_access and "Pass" in char.tags:
        mods.append(Modifier("#Pass", 20))
    if s.status_known and "Status" in char.tags:
        mods.append(Modifier("#Status", 20))
    return mods


def request_chance(previous_requests: int) -> int:
    """Contact and Lab: the first request succeeds, each later one at half the chance.

    100, 50, 25, 13, 6, 3, 2, 1, 0 … (halves rounded half up, as the book's 13 %).
    """
    if previous_requests < 0:
        raise ValueError("previous_requests cannot be negative")
    return int(100 / 2**previous_requests + 0.5)


def willpower_aim(entry: dict[str, str], tables: RulesTables | None = None) -> str:
    """What a Willpower Focus asks of the character, in words: "fear your partner", "find your fellow inmates"
    (the table's verb and Person or Circle, read as a sentence: the table's ``says`` where "your" and the
    name would not read as English)."""
    who = entry.get("who", "")
    says = (tables or rules()).willpower_says.get(who) or (f"your {who.lower()}" if who else "")
    return f"{entry.get('verb', '').lower()} {says}".strip()
