"""NPC roles: the coherent skill, gear and Tag sets the generator builds on.

Without a role, random top skills and random gear give a scholar with a
heavy blaster; a role keeps a generated NPC recognisable at a glance. Roles
are data (``data/roles.toml``) so a setting can add its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import NoReturn

from ..errors import ContentError, did_you_mean
from ..rules.character import PRONOUNS
from ..rules.fiction import BODIES
from ..rules.rulebook import Armour, RulesTables, Shield, Weapon, rules
from ..toml_files import load_toml

ROLES_FILE = Path(__file__).parent / "data" / "roles.toml"
NONE = "none"
UNDRAWN_FOCUSES = ("Person", "Circle", "Language")  # tied to someone or native: never drawn at random


@dataclass(frozen=True)
class Role:
    key: str
    name: str
    description: str
    skills: tuple[tuple[str, str | None], ...]  # (skill, Focus or None), main skill first
    weapons: tuple[str | None, ...]
    armour: tuple[str | None, ...]
    shields: tuple[str | None, ...]
    tags: tuple[str, ...]
    mindless: bool = False
    pronoun: str | None = None
    body: str | None = None  # what the role is made of, for the words (solo.rules.fiction.BODIES); None: flesh


def load_roles(file: str | Path | None = None, tables: RulesTables | None = None) -> dict[str, Role]:
    """Read and check a roles file against the rules tables (skills, Focuses, gear, Tags)."""
    file = Path(file) if file is not None else ROLES_FILE
    t = tables or rules()
    data = load_toml(file)

    def fail(path: str, message: str) -> NoReturn:
        raise ContentError(message, file=file, path=path)

    table = data.get("roles")
    if not isinstance(table, dict) or not table:
        fail("roles", "expected [roles.NAME] tables")
    known = ("name", "description", "skills", "weapons", "armour", "shields", "tags", "mindless", "pronoun", "body")
    roles: dict[str, Role] = {}
    for key, entry in table.items():
        path = f"roles.{key}"
        if not isinstance(entry, dict):
            fail(path, "expected a table")
        for field in entry:
            if field not in known:
                fail(f"{path}.{field}", f"unknown field{did_you_mean(field, known)}")
        for field in ("name", "description"):
            if not isinstance(entry.get(field), str) or not entry[field].strip():
                fail(f"{path}.{field}", "expected non-empty text")
        skills: list[tuple[str, str | None]] = []
        raw = entry.get("skills")
        if not isinstance(raw, list) or not 1 <= len(raw) <= 3:
            fail(f"{path}.skills", "expected one to three skills, main skill first")
        for i, text in enumerate(raw):
            skill, _, focus = str(text).partition("//")
            if skill not in t.skills:
                fail(f"{path}.skills[{i}]", f"unknown skill {skill!r}{did_you_mean(skill, t.skills)}")
            if focus and focus not in t.skills[skill].focuses:
                fail(f"{path}.skills[{i}]",
                     f"{focus!r} is not a Focus of {skill}{did_you_mean(focus, t.skills[skill].focuses)}")
            skills.append((skill, focus or None))
        if len({s for s, _ in skills}) != len(skills):
            fail(f"{path}.skills", "a skill is listed twice")
        main, main_focus = skills[0]
        if main_focus is None and all(f in UNDRAWN_FOCUSES for f in t.skills[main].focuses):
            fail(f"{path}.skills[0]", f"name the main skill's Focus (Skilled NPCs get one): {main}//…")
        gear: dict[str, tuple[str | None, ...]] = {}
        lookups: tuple[tuple[str, Callable[[str], Weapon | Armour | Shield]], ...] = (
            ("weapons", t.weapon), ("armour", t.armour_named), ("shields", t.shield))
        for field, lookup in lookups:
            names = entry.get(field, [NONE])
            if not isinstance(names, list) or not names:
                fail(f"{path}.{field}", f'expected a list of {field} (or ["none"])')
            keys: list[str | None] = []
            for i, name in enumerate(names):
                if name == NONE:
                    keys.append(None)
                    continue
                try:
                    keys.append(lookup(str(name)).key)
                except KeyError as exc:
                    fail(f"{path}.{field}[{i}]", exc.args[0])
            gear[field] = tuple(keys)
        tags = entry.get("tags", [])
        if not isinstance(tags, list):
            fail(f"{path}.tags", "expected a list of Tags")
        for i, tag in enumerate(tags):
            if tag not in t.tags:
                fail(f"{path}.tags[{i}]", f"unknown tag {tag!r}{did_you_mean(tag, t.tags)}")
        mindless = entry.get("mindless", False)
        if not isinstance(mindless, bool):
            fail(f"{path}.mindless", "expected true or false")
        pronoun = entry.get("pronoun")
        if pronoun is not None and pronoun not in PRONOUNS:
            fail(f"{path}.pronoun", f"expected one of {', '.join(PRONOUNS)}")
        body = entry.get("body")
        if body is not None and body not in BODIES:
            fail(f"{path}.body", f"unknown body {body!r}{did_you_mean(str(body), BODIES)}; known: {', '.join(BODIES)}")
        roles[key] = Role(key, entry["name"].strip(), entry["description"].strip(), tuple(skills),
                          gear["weapons"], gear["armour"], gear["shields"], tuple(tags), mindless, pronoun, body)
    return roles


@lru_cache(maxsize=1)
def roles() -> dict[str, Role]:
    """The bundled roles, loaded once per process."""
    return load_roles()


def find_role(name: str, table: dict[str, Role] | None = None) -> Role | None:
    """A role by key or display name, in any case ("thug", "Sentry automaton"), or None: for a caller that
    only asks (an adventure's NPC whose role is a word of its own, "harbourmaster", asked at every conflict)."""
    table = table if table is not None else roles()
    wanted = str(name).strip().lower().replace(" ", "_")
    for role in table.values():
        if wanted in (role.key, role.name.lower().replace(" ", "_")):
            return role
    return None


def role_named(name: str, table: dict[str, Role] | None = None) -> Role:
    """A role by key or display name, in any case; an unknown one is an error that says what is known."""
    table = table if table is not None else roles()
    role = find_role(name, table)
    if role is None:
        wanted = str(name).strip().lower().replace(" ", "_")
        raise KeyError(f"unknown role {name!r}{did_you_mean(wanted, table)}; known: {', '.join(table)}")
    return role
