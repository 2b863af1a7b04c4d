"""Conflict types as data (docs/rules.md §5.3): which skill, which Pool, what counts.

The bundled types live in ``oracles/conflicts.toml``; authors add or override
types from their own table folders, and every entry is checked on load.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, NoReturn

from ..errors import ContentError, did_you_mean
from ..toml_files import load_toml
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

    @property
    def pool_label(self) -> str:
        return "/".join(self.pools)


_FIELDS = {"name", "round", "skill", "focuses", "pools", "physical", "static", "social", "flight", "opposed_by"}


def parse_conflict_types(data: dict[str, Any], file: str | Path) -> dict[str, ConflictType]:
    t = rules()
    out: dict[str, ConflictType] = {}
    table = data.get("conflict_types", {})
    if not isinstance(table, dict):
        raise ContentError("expected [conflict_types.NAME] tables", file=file, path="conflict_types")
    for key, entry in table.items():
        path = f"conflict_types.{key}"

        def fail(field: str | None, msg: str, path: str = path) -> NoReturn:
            raise ContentError(msg, file=file, path=f"{path}.{field}" if field else path)

        if not isinstance(entry, dict):
            fail(None, "expected a table")
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
        for flag, default in (("physical", False), ("static", False), ("social", False), ("flight", True)):
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
        out[key] = ConflictType(
            key=key, name=name, skill=skill, focuses=tuple(focuses), pools=tuple(pools),
            round=str(entry.get("round", "")), opposed_by=opposed, **flags,
        )
    return out


def load_conflict_types(folders: list[str | Path] | None = None) -> dict[str, ConflictType]:
    """The bundled types, overridden and extended by ``conflicts.toml`` in user folders."""
    from ..paths import bundled

    files = [bundled("oracles") / "conflicts.toml"]
    for folder in folders or []:
        candidate = Path(folder) / "conflicts.toml"
        if candidate.exists():
            files.append(candidate)
    types: dict[str, ConflictType] = {}
    for file in files:
        types.update(parse_conflict_types(load_toml(file), file))
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
