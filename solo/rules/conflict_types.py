"""Conflict types as data (docs/rules.md §5.3): which skill, which Pool, what counts.

The bundled types live in ``oracles/conflicts.toml``; authors add or override
types from their own table folders, and every entry is checked on load.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import lru_cache
from pathlib import Path
from typing import Any, NoReturn

from ..errors import ContentError, did_you_mean
from ..terminal_text import CONTROL_PROBLEM, controlled
from .fiction import PURSUITS
from .rulebook import POOLS, rules


@dataclass(frozen=True)
class ConflictType:
    key: str
    name: str
    skill: str
    focuses: tuple[str, ...]
    pools: tuple[str, ...]
    round: str = ""
    physical: bool = False
    static: bool = False
    social: bool = False
    flight: bool = True
    opposed_by: tuple[str, tuple[str, ...]] | None = None
    heard: bool = True  # the sides hear each other (speech fits); not while sneaking past or tracking from afar
    pursuit: str | None = None  # "chase": side a pursues, side b flees; "hide": side a hides, side b seeks
    #: What a flashy move fits here: a skill ("Willpower": any Focus of it shows off too) or a skill and one Focus
    #: of it ("Cunning//Gambling": that Focus, and no other, fits); None: any skill but the conflict's own.
    flamboyant: tuple[str, ...] | None = None
    #: The list read apart, once for the type (every participant of every conflict takes them): its skills
    #: (:func:`flourish_skills`, None: any) and those only some Focuses of fit (:func:`flourish_focuses`).
    flourish_list: tuple[str, ...] | None = dataclass_field(init=False, repr=False, compare=False)
    flourish_fits: tuple[tuple[str, tuple[str, ...]], ...] = dataclass_field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        flashy = self.flamboyant
        object.__setattr__(self, "flourish_list", None if flashy is None else flourish_skills(flashy))
        object.__setattr__(self, "flourish_fits", () if flashy is None else flourish_focuses(flashy))

    @property
    def pool_label(self) -> str:
        return "/".join(self.pools)


#: What a ``flamboyant`` list must be, said where it is not one.
FLOURISH_LIST = ('expected the skills a flashy move fits here, each alone or with the one Focus of it that fits, '
                 'e.g. ["Willpower", "Move//Acrobatics"]')
#: Focuses no flashy move shows off: //Person and //Circle count only towards their person or circle, and one's own
#: tongue is no show (docs/rulings.md, "Covert and Flamboyant take a fitting Focus").
NOT_SHOWN_OFF = ("Person", "Circle", "Language")


def flourish_problem(entry: object, own_skill: str | None) -> str | None:
    """What is wrong with one entry of a ``flamboyant`` list ("Skill" or "Skill//Focus"), or None."""
    t = rules()
    if not isinstance(entry, str):
        return f"expected a skill, or a skill and a Focus of it (\"Move//Acrobatics\"), not {entry!r}"
    skill, mark, focus = entry.partition("//")
    if skill not in t.skills:
        return f"unknown skill {skill!r}{did_you_mean(skill, t.skills)}"
    if skill == own_skill:
        return f"{skill} is the conflict's own skill: Flamboyant rolls another"
    if mark and focus not in t.skills[skill].focuses:
        known = t.skills[skill].focuses
        return f"{focus!r} is not a Focus of {skill}" + (did_you_mean(focus, known)
                                                          or f" (its Focuses: {', '.join(known)})")
    if mark and focus in NOT_SHOWN_OFF:
        return f"//{focus} is never shown off: write {skill} alone, or another Focus of it"
    return None


@lru_cache(maxsize=128)  # an adventure's own list makes its type afresh at each conflict (conflict_type_of)
def flourish_skills(entries: tuple[str, ...]) -> tuple[str, ...]:
    """The skills a ``flamboyant`` list names, each once, in its order."""
    return tuple(dict.fromkeys(e.partition("//")[0] for e in entries))


@lru_cache(maxsize=128)
def flourish_focuses(entries: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The skills of a ``flamboyant`` list that only some Focuses of fit, with those Focuses: a skill named alone
    is not among them (any Focus of it shows off, but those :data:`NOT_SHOWN_OFF`)."""
    bare = {e for e in entries if "//" not in e}
    named: dict[str, list[str]] = {}
    for e in entries:
        skill, mark, focus = e.partition("//")
        if mark and skill not in bare:
            named.setdefault(skill, []).append(focus)
    return tuple((skill, tuple(focuses)) for skill, focuses in named.items())


_FIELDS = {"name", "round", "skill", "focuses", "pools", "physical", "static", "social", "flight", "opposed_by",
           "heard", "pursuit", "flamboyant"}


class _Bad(Exception):
    """One entry's first problem: the entry is left out and the next one checked."""


def parse_conflict_types(data: dict[str, Any], file: str | Path, text: str | None = None
                         ) -> tuple[dict[str, ConflictType], list[ContentError]]:
    """The conflict types of one file and every problem in it (each naming its TOML path and, given the
    file's ``text``, its line): an entry with a problem is left out, the others are kept."""
    problems: list[ContentError] = []

    def problem(where: str, msg: str) -> ContentError:
        return ContentError(msg, file=file, path=where, line=_line(text, where) if text else None)

    for section in data:
        if section != "conflict_types":
            problems.append(problem(section, f"unknown section [{section}]{did_you_mean(section, ['conflict_types'])}"
                                             "; a conflicts.toml holds [conflict_types.NAME] tables only"))
    out: dict[str, ConflictType] = {}
    table = data.get("conflict_types", {})
    if not isinstance(table, dict):
        problems.append(problem("conflict_types", "expected [conflict_types.NAME] tables"))
        return out, problems
    for key, entry in table.items():
        try:
            out[key] = _parse_one(key, entry)
        except _Bad as bad:
            where, msg = bad.args
            problems.append(problem(where, msg))
    return out, problems


def _parse_one(key: str, entry: Any) -> ConflictType:
    t = rules()
    path = f"conflict_types.{key}"

    def fail(field: str | None, msg: str) -> NoReturn:
        raise _Bad(f"{path}.{field}" if field else path, msg)

    if not isinstance(entry, dict):
        fail(None, "expected a table")
    for where in controlled(entry, limit=1):
        fail(where, CONTROL_PROBLEM)
    for field in entry:
        if field not in _FIELDS:
            fail(field, f"unknown field{did_you_mean(field, _FIELDS)}")
    skill = entry.get("skill")
    if skill not in t.skills:
        fail("skill", f"unknown skill {skill!r}{did_you_mean(str(skill), t.skills)}")
    focuses = entry.get("focuses", [])
    if not isinstance(focuses, list):
        fail("focuses", "expected a list of Focus names")
    for i, focus in enumerate(focuses):
        if focus not in t.skills[skill].focuses:
            fail(f"focuses[{i}]",
                 f"{focus!r} is not a Focus of {skill}{did_you_mean(str(focus), t.skills[skill].focuses)}")
    pools = entry.get("pools")
    if not isinstance(pools, list) or not 1 <= len(pools) <= 2:
        fail("pools", "expected one or two Pool names, e.g. [\"BODY\"] or [\"BODY\", \"POW\"]")
    for i, pool in enumerate(pools):
        if pool not in POOLS:
            fail(f"pools[{i}]", f"unknown Pool {pool!r}{did_you_mean(str(pool), POOLS)}")
    flags = {}
    for flag, default in (("physical", False), ("static", False), ("social", False), ("flight", True),
                          ("heard", True)):
        value = entry.get(flag, default)
        if not isinstance(value, bool):
            fail(flag, "expected true or false")
        flags[flag] = value
    opposed = None
    if "opposed_by" in entry:
        text = entry["opposed_by"]
        if not isinstance(text, str):
            fail("opposed_by", "expected \"Skill\" or \"Skill//Focus\"")
        o_skill, _, o_focus = text.partition("//")
        if o_skill not in t.skills:
            fail("opposed_by", f"unknown skill {o_skill!r}{did_you_mean(o_skill, t.skills)}")
        if o_focus and o_focus not in t.skills[o_skill].focuses:
            fail("opposed_by", f"{o_focus!r} is not a Focus of {o_skill}")
        opposed = (o_skill, (o_focus,) if o_focus else ())
    name = entry.get("name", key)
    if not isinstance(name, str):
        fail("name", "expected text")
    flamboyant = entry.get("flamboyant")
    if flamboyant is not None:
        if not isinstance(flamboyant, list):
            fail("flamboyant", FLOURISH_LIST)
        for i, flashy in enumerate(flamboyant):
            wrong = flourish_problem(flashy, skill)
            if wrong:
                fail(f"flamboyant[{i}]", wrong)
        flamboyant = tuple(flamboyant)
    pursuit = entry.get("pursuit")
    if pursuit is not None and pursuit not in PURSUITS:
        fail("pursuit", f"unknown pursuit {pursuit!r}{did_you_mean(str(pursuit), PURSUITS)}; known: "
                        f"{', '.join(PURSUITS)}")
    return ConflictType(
        key=key, name=name, skill=skill, focuses=tuple(focuses), pools=tuple(pools),
        round=str(entry.get("round", "")), opposed_by=opposed, pursuit=pursuit, flamboyant=flamboyant, **flags,
    )


def _line(text: str, where: str) -> int | None:
    """The line of ``where`` (``section``, ``conflict_types.KEY`` or ``conflict_types.KEY.FIELD[i]``): its
    table's header, or the field's line under it."""
    parts = where.split(".")
    header = re.compile(r"^[ \t]*\[[ \t]*" + r"[ \t]*\.[ \t]*".join(re.escape(p) for p in parts[:2])
                        + r"[ \t]*[.\]]", re.MULTILINE)
    match = header.search(text)
    if match is None:
        return None
    line = text.count("\n", 0, match.start()) + 1
    if len(parts) > 2:
        field = parts[2].split("[")[0]
        below = re.compile(rf"^[ \t]*{re.escape(field)}[ \t]*=", re.MULTILINE).search(text, match.end())
        if below is not None:
            line = text.count("\n", 0, below.start()) + 1
    return line


def read_conflict_types(folders: list[str | Path] | None = None
                        ) -> tuple[dict[str, ConflictType], list[ContentError]]:
    """The bundled types, overridden and extended by ``conflicts.toml`` in user folders, and every problem
    of every one of those files (``solo check`` reports them all)."""
    from ..paths import bundled, within

    # the bundled file is read and checked once a process (every adventure loaded starts from it); copied here
    shipped, shipped_problems = _read_bundled_file(bundled("oracles") / "conflicts.toml")
    types, problems = dict(shipped), list(shipped_problems)
    for folder in folders or []:
        candidate = Path(folder) / "conflicts.toml"
        if candidate.exists() and within(candidate, Path(folder)):  # a link out of the folder is not its own
            found, wrong = _read_file(candidate)
            types.update(found)
            problems += wrong
    return types, problems


def _read_file(file: Path) -> tuple[dict[str, ConflictType], list[ContentError]]:
    """One ``conflicts.toml``'s types and problems (a file that cannot be read is one problem)."""
    from ..paths import PathError, read_bounded
    from ..toml_files import loads_toml

    try:
        text = read_bounded(file).decode("utf-8")
        data = loads_toml(text, file=file)
    except ContentError as exc:
        return {}, [exc]
    except PathError as exc:
        return {}, [ContentError(str(exc).removeprefix(f"{file}: "), file=file)]
    except (OSError, UnicodeDecodeError) as exc:
        return {}, [ContentError(f"cannot read file: {exc}", file=file)]
    return parse_conflict_types(data, file, text)


#: The shipped file cannot change while solo runs; its types are frozen, read_conflict_types copies the rest.
_read_bundled_file = lru_cache(maxsize=4)(_read_file)


def load_conflict_types(folders: list[str | Path] | None = None) -> dict[str, ConflictType]:
    """The bundled types, overridden and extended by ``conflicts.toml`` in user folders; the first problem
    of any of them is raised as a :class:`ContentError`."""
    types, problems = read_conflict_types(folders)
    if problems:
        raise problems[0]
    return types


@lru_cache(maxsize=1)
def bundled_conflict_types() -> dict[str, ConflictType]:
    return load_conflict_types()


def conflict_type(key: str, types: dict[str, ConflictType] | None = None) -> ConflictType:
    types = types if types is not None else bundled_conflict_types()
    norm = key.strip().lower().replace(" ", "_").replace("-", "_")
    if norm in types:
        return types[norm]
    for ct in types.values():
        if ct.name.lower() == key.strip().lower():
            return ct
    raise KeyError(f"unknown conflict type {key!r}{did_you_mean(norm, types)}; known: {', '.join(types)}")
