"""The rules tables (skills, Focuses, Tags, careers, Willpower, gear) as typed data.

They live as TOML next to this module so authors can read them and so the
engine has one source of truth; every entry is checked on load and a bad one
stops the program with the file and the entry named.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, NoReturn, TypedDict, TypeVar

from ..errors import ContentError, did_you_mean
from ..toml_files import load_toml
from .dice import DiceError, DiceExpr, parse

DATA_DIR = Path(__file__).parent / "data"

SKILLS = (
    "Awareness", "Combat", "Cunning", "Knowledge", "Move", "Science", "Social", "Tech", "Willpower",
)
POOLS = ("BODY", "INT", "POW", "CHA")


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    focuses: tuple[str, ...]


@dataclass(frozen=True)
class Tag:
    roll: int
    name: str
    effect: str
    description: str


@dataclass(frozen=True)
class Career:
    name: str
    skills: tuple[tuple[str, str | None], ...]  # (skill, focus or None), in pyramid order
    tags: tuple[str, ...]
    tag_choices: tuple[str, ...] = ()
    membership: str | None = None


@dataclass(frozen=True)
class Weapon:
    key: str
    name: str
    damage: DiceExpr
    kind: str  # melee | ranged
    range: int | None = None
    firearm: bool = False
    focus: str = ""  # the Combat Focus that fits it (docs/rules.md §2.2); the loader always sets it


@dataclass(frozen=True)
class Shield:
    key: str
    name: str
    penalty: int
    against: tuple[str, ...]


@dataclass(frozen=True)
class Armour:
    key: str
    name: str
    points: int
    firearm_points: int | None = None
    skill_penalties: dict[str, int] = field(default_factory=dict)

    def points_against(self, weapon: Weapon | None) -> int:
        if weapon is not None and weapon.firearm and self.firearm_points is not None:
            return self.firearm_points
        return self.points


#: Careers as they are also spelt: the rulebook's "Archeologist" is more often written "Archaeologist" (a GM-less
#: table's --career was refused).
CAREER_SPELLINGS = {"archaeologist": "archeologist"}


@dataclass(frozen=True)
class RulesTables:
    skills: dict[str, Skill]
    focus_bonus: int
    similar_focus_penalty: int
    native_language: int
    untrained: int
    tags: dict[str, Tag]
    careers: dict[str, Career]
    persons: tuple[str, ...]
    circles: tuple[str, ...]
    verbs: tuple[str, ...]
    weapons: dict[str, Weapon]
    shields: dict[str, Shield]
    armour: dict[str, Armour]
    #: How a Person or Circle reads after its verb ("find your fellow inmates"), where "your" and its name would
    #: not ("find your prison"); willpower.toml's ``[says]``.
    willpower_says: dict[str, str] = field(default_factory=dict)

    def skill_of_focus(self, focus: str) -> str | None:
        for skill in self.skills.values():
            if focus in skill.focuses:
                return skill.name
        return None

    def tag_by_roll(self, roll: int) -> Tag:
        for tag in self.tags.values():
            if tag.roll == roll:
                return tag
        raise KeyError(roll)

    def career(self, name: str) -> Career:
        wanted = CAREER_SPELLINGS.get(name.strip().lower(), name.strip().lower())
        for key, career in self.careers.items():
            if key.lower() == wanted:
                return career
        raise KeyError(f"unknown career {name!r}{did_you_mean(name.title(), self.careers)}"
                       f"; careers: {', '.join(self.careers)}")

    def weapon(self, name: str) -> Weapon:
        return _lookup(self.weapons, name, "weapon")

    def armour_named(self, name: str) -> Armour:
        return _lookup(self.armour, name, "armour")

    def shield(self, name: str) -> Shield:
        return _lookup(self.shields, name, "shield")


_Gear = TypeVar("_Gear", Weapon, Shield, Armour)


def _lookup(table: dict[str, _Gear], name: str, what: str) -> _Gear:
    key = name.strip().lower().replace(" ", "_").replace("-", "_")
    if key in table:
        return table[key]
    for item in table.values():
        if item.name.lower() == name.strip().lower():
            return item
    raise KeyError(f"unknown {what} {name!r}{did_you_mean(key, table)}; known: {', '.join(table)}")


class _Reader:
    """Typed access to one TOML document, naming the file and entry on any error."""

    def __init__(self, file: Path, data: dict[str, Any]) -> None:
        self.file = file
        self.data = data

    def fail(self, path: str, message: str) -> NoReturn:
        raise ContentError(message, file=self.file, path=path)

    def get(self, table: dict[str, Any], key: str, kind: type | tuple[type, ...], path: str, default: Any = ...) -> Any:
        if key not in table:
            if default is ...:
                self.fail(path, f"missing field {key!r}")
            return default
        value = table[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            self.fail(f"{path}.{key}", f"expected {kind_name(kinds)}, got a boolean")
        if not isinstance(value, kinds):
            self.fail(f"{path}.{key}", f"expected {kind_name(kinds)}, got {type(value).__name__}")
        return value

    def strings(self, table: dict[str, Any], key: str, path: str, default: Any = ...) -> tuple[str, ...]:
        value = self.get(table, key, list, path, default)
        if value is default and default is not ...:
            return tuple(default)
        for i, item in enumerate(value):
            if not isinstance(item, str) or not item.strip():
                self.fail(f"{path}.{key}[{i}]", "expected a non-empty string")
        return tuple(value)

    def dice(self, table: dict[str, Any], key: str, path: str) -> DiceExpr:
        text = self.get(table, key, str, path)
        try:
            return parse(text)
        except DiceError as exc:
            self.fail(f"{path}.{key}", str(exc))


def kind_name(kinds: tuple[type, ...]) -> str:
    names = {str: "text", int: "a whole number", float: "a number", list: "a list", dict: "a table", bool: "true/false"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


class _Numbers(TypedDict):
    focus_bonus: int
    similar_focus_penalty: int
    native_language: int
    untrained: int


def _load_skills(folder: Path) -> tuple[dict[str, Skill], _Numbers]:
    file = folder / "skills.toml"
    r = _Reader(file, load_toml(file))
    skills_table = r.get(r.data, "skills", dict, "")
    skills: dict[str, Skill] = {}
    for name in SKILLS:
        if name not in skills_table:
            r.fail("skills", f"the skill {name!r} is missing")
    for name, entry in skills_table.items():
        path = f"skills.{name}"
        if name not in SKILLS:
            r.fail(path, f"unknown skill {name!r}{did_you_mean(name, SKILLS)}")
        if not isinstance(entry, dict):
            r.fail(path, "expected a table")
        skills[name] = Skill(name, r.get(entry, "description", str, path), r.strings(entry, "focuses", path))
    numbers = _Numbers(
        focus_bonus=r.get(r.data, "focus_bonus", int, ""),
        similar_focus_penalty=r.get(r.data, "similar_focus_penalty", int, ""),
        native_language=r.get(r.data, "native_language", int, ""),
        untrained=r.get(r.data, "untrained", int, ""),
    )
    return skills, numbers


def _load_tags(folder: Path) -> dict[str, Tag]:
    file = folder / "tags.toml"
    r = _Reader(file, load_toml(file))
    tags: dict[str, Tag] = {}
    effects = {"request", "upper_class", "borderline_access", "criminal", "narrative", "status", "gear", "luck"}
    for i, entry in enumerate(r.get(r.data, "tags", list, "")):
        path = f"tags[{i}]"
        if not isinstance(entry, dict):
            r.fail(path, "expected a table")
        name = r.get(entry, "name", str, path)
        effect = r.get(entry, "effect", str, path)
        if effect not in effects:
            r.fail(f"{path}.effect", f"unknown effect {effect!r}{did_you_mean(effect, effects)}")
        tags[name] = Tag(r.get(entry, "roll", int, path), name, effect, r.get(entry, "description", str, path))
    rolls = sorted(t.roll for t in tags.values())
    if rolls != list(range(1, 13)):
        r.fail("tags", f"the rolls must be 1..12 once each, got {rolls}")
    return tags


def _split_skill(text: str) -> tuple[str, str | None]:
    if "//" in text:
        skill, focus = text.split("//", 1)
        return skill.strip(), focus.strip()
    return text.strip(), None


def _load_careers(folder: Path, skills: dict[str, Skill], tags: dict[str, Tag]) -> dict[str, Career]:
    file = folder / "careers.toml"
    r = _Reader(file, load_toml(file))
    careers: dict[str, Career] = {}
    for name, entry in r.get(r.data, "careers", dict, "").items():
        path = f"careers.{name}"
        if not isinstance(entry, dict):
            r.fail(path, "expected a table")
        picks = []
        for i, text in enumerate(r.strings(entry, "skills", path)):
            skill, focus = _split_skill(text)
            if skill not in skills:
                r.fail(f"{path}.skills[{i}]", f"unknown skill {skill!r}{did_you_mean(skill, skills)}")
            if focus is not None and focus not in skills[skill].focuses:
                r.fail(f"{path}.skills[{i}]",
                       f"{focus!r} is not a Focus of {skill}{did_you_mean(focus, skills[skill].focuses)}")
            picks.append((skill, focus))
        if len(picks) != 3:
            r.fail(f"{path}.skills", "a career suggests exactly three skills")
        tag_names = r.strings(entry, "tags", path)
        choices = r.strings(entry, "tag_choices", path, ())
        for key, names in (("tags", tag_names), ("tag_choices", choices)):
            for i, tag in enumerate(names):
                if tag not in tags:
                    r.fail(f"{path}.{key}[{i}]", f"unknown tag {tag!r}{did_you_mean(tag, tags)}")
        if len(tag_names) + (1 if choices else 0) != 2:
            r.fail(path, "a career gives two Tags (its tags plus one of tag_choices)")
        careers[name] = Career(name, tuple(picks), tag_names, choices, r.get(entry, "membership", str, path, None))
    if not careers:
        r.fail("careers", "no careers defined")
    return careers


def _load_willpower(folder: Path) -> tuple[tuple[tuple[str, ...], ...], dict[str, str]]:
    file = folder / "willpower.toml"
    r = _Reader(file, load_toml(file))
    out: list[tuple[str, ...]] = []
    for key in ("persons", "circles", "verbs"):
        values = r.strings(r.data, key, "")
        if len(values) != 10:
            r.fail(key, f"the Willpower table needs 10 entries (1d10), got {len(values)}")
        out.append(values)
    says = r.get(r.data, "says", dict, "", {})
    for who, words in says.items():
        if who not in out[0] + out[1]:
            r.fail(f"says.{who}", f"not a Person or Circle of the table{did_you_mean(who, out[0] + out[1])}")
        if not isinstance(words, str) or not words.strip():
            r.fail(f"says.{who}", "expected a non-empty string")
    return tuple(out), {who: words.strip() for who, words in says.items()}


#: The Combat Focus a weapon fits when gear.toml does not name one (docs/rules.md §2.2).
WEAPON_FOCUS_BY_KIND = {"melee": "Melee", "ranged": "Ranged"}


def _load_gear(
    folder: Path, skills: dict[str, Skill]
) -> tuple[dict[str, Weapon], dict[str, Shield], dict[str, Armour]]:
    file = folder / "gear.toml"
    r = _Reader(file, load_toml(file))
    weapons: dict[str, Weapon] = {}
    shields: dict[str, Shield] = {}
    armour: dict[str, Armour] = {}
    for key, entry in r.get(r.data, "weapons", dict, "").items():
        path = f"weapons.{key}"
        if not isinstance(entry, dict):
            r.fail(path, "expected a table")
        kind = r.get(entry, "kind", str, path)
        if kind not in ("melee", "ranged"):
            r.fail(f"{path}.kind", "expected 'melee' or 'ranged'")
        focus = r.get(entry, "focus", str, path, WEAPON_FOCUS_BY_KIND[kind])
        if focus not in skills["Combat"].focuses:
            r.fail(f"{path}.focus", f"expected a Combat Focus ({', '.join(skills['Combat'].focuses)})")
        weapons[key] = Weapon(
            key, r.get(entry, "name", str, path), r.dice(entry, "damage", path), kind,
            r.get(entry, "range", int, path, None), r.get(entry, "firearm", bool, path, False), focus,
        )
    for key, entry in r.get(r.data, "shields", dict, "").items():
        path = f"shields.{key}"
        if not isinstance(entry, dict):
            r.fail(path, "expected a table")
        against = r.strings(entry, "against", path)
        for i, kind in enumerate(against):
            if kind not in ("melee", "ranged"):
                r.fail(f"{path}.against[{i}]", "expected 'melee' or 'ranged'")
        shields[key] = Shield(key, r.get(entry, "name", str, path), r.get(entry, "penalty", int, path), against)
    for key, entry in r.get(r.data, "armour", dict, "").items():
        path = f"armour.{key}"
        if not isinstance(entry, dict):
            r.fail(path, "expected a table")
        points = r.get(entry, "points", int, path)
        if points < 0:
            r.fail(f"{path}.points", "armour points cannot be negative")
        penalties = r.get(entry, "skill_penalties", dict, path, {})
        for skill, value in penalties.items():
            if skill not in skills:
                r.fail(f"{path}.skill_penalties.{skill}", f"unknown skill{did_you_mean(skill, skills)}")
            if not isinstance(value, int) or isinstance(value, bool):
                r.fail(f"{path}.skill_penalties.{skill}", "expected a whole number")
        armour[key] = Armour(
            key, r.get(entry, "name", str, path), points,
            r.get(entry, "firearm_points", int, path, None), dict(penalties),
        )
    return weapons, shields, armour


def load_rules(folder: str | Path | None = None) -> RulesTables:
    """Load and check every rules table in ``folder`` (the bundled one by default)."""
    folder = Path(folder) if folder is not None else DATA_DIR
    skills, numbers = _load_skills(folder)
    tags = _load_tags(folder)
    careers = _load_careers(folder, skills, tags)
    (persons, circles, verbs), willpower_says = _load_willpower(folder)
    weapons, shields, armour = _load_gear(folder, skills)
    return RulesTables(
        skills=skills, tags=tags, careers=careers, persons=persons, circles=circles, verbs=verbs,
        weapons=weapons, shields=shields, armour=armour, willpower_says=willpower_says, **numbers,
    )


@lru_cache(maxsize=1)
def rules() -> RulesTables:
    """The bundled tables, loaded once per process."""
    return load_rules()
