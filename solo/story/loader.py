"""Loading adventures: reading their files and TOML, checking every field, reporting every problem.

``load_adventure`` raises :class:`AdventureError` listing all problems found;
``read_adventure`` returns the adventure (or ``None``) together with the
problems, for ``solo check``. Each problem names the file, the TOML path and
the line, with "did you mean" for misspelt ids. Loading never lets a Python
traceback reach the user, whatever the file holds.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from ..errors import ContentError, did_you_mean
from ..paths import PathError, read_bounded
from ..rules.conflict_types import load_conflict_types
from ..toml_files import TOMLError, loads_toml
from .adventure import Adventure
from .locate import LineMap
from .problems import AdventureError, Collector, Problem
from .schema import Builder

MAX_FILE_BYTES = 2_000_000
RESERVED_ID = "open"  # the save id of open play (story/open_play.py OPEN_ID)
SECTIONS = ("adventure", "npcs", "scenes", "narration", "responses")


def adventure_files(source: Path) -> list[Path]:
    """The TOML files of an adventure: the file itself, or every one in its folder but its tables."""
    if source.is_dir():
        return sorted(p for p in source.rglob("*.toml") if "tables" not in p.relative_to(source).parts[:-1])
    return [source]


def content_hash(files: list[Path]) -> str:
    """A short hash of the files, so a save can tell the adventure it was played with has changed."""
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.name.encode())
        digest.update(f.read_bytes())
    return digest.hexdigest()[:16]


def read_adventure(source: str | Path, *, conflict_folders: list[str | Path] | None = None
                   ) -> tuple[Adventure | None, list[Problem]]:
    """Parse and check an adventure file or folder; returns it (or None) and every problem."""
    source = Path(source)
    c = Collector()
    if not source.exists():
        c.add(str(source), "", "E010", "no such file or folder")
        return None, c.problems
    files = adventure_files(source)
    if not files:
        c.add(str(source), "", "E010", "no .toml files in this folder")
        return None, c.problems
    merged: dict[str, Any] = {"adventure": None, "npcs": {}, "scenes": {}, "narration": {}, "responses": {}}
    origin: dict[str, str] = {}
    for f in files:
        name = str(f)
        try:
            text = read_bounded(f, MAX_FILE_BYTES).decode("utf-8")
        except PathError as exc:  # a FIFO, a device or a file over the limit
            c.add(name, "", "E010", str(exc).removeprefix(f"{f}: "))
            continue
        except (OSError, UnicodeDecodeError) as exc:
            c.add(name, "", "E010", f"cannot read the file: {exc}")
            continue
        try:
            data = loads_toml(text, file=name)
        except TOMLError as exc:
            c.add(name, "", "E001", exc.reason, line=exc.line, column=exc.column)
            continue
        c.maps[name] = LineMap(text)
        for where in _controlled(data):
            c.add(name, where, "E002", "holds a control character (ESC, NUL …) that a terminal would act on "
                  "rather than show: remove it")
        for key, value in data.items():
            if key == "adventure":
                if merged["adventure"] is not None:
                    c.add(name, "adventure", "E002", f"[adventure] is already defined in {origin['adventure']}")
                    continue
                merged["adventure"] = value
                origin["adventure"] = name
            elif key in ("npcs", "scenes", "narration", "responses"):
                if not isinstance(value, dict):
                    c.add(name, key, "E002", f"[{key}] must be a table")
                    continue
                for item_id, item in value.items():
                    if item_id in merged[key] and key != "narration":
                        c.add(name, f"{key}.{item_id}", "E002",
                              f"{key[:-1]} {item_id!r} is already defined in {origin[f'{key}.{item_id}']}")
                        continue
                    merged[key][item_id] = item
                    origin[f"{key}.{item_id}"] = name
            else:
                c.add(name, key, "E002", f"unknown section [{key}]{did_you_mean(key, SECTIONS)}")
    if c.errors:
        return None, c.problems
    if merged["adventure"] is None:
        c.add(str(files[0]), "adventure", "E002", "missing [adventure] section (title, start …)")
        return None, c.problems
    own_tables = [source / "tables"] if source.is_dir() and (source / "tables").is_dir() else []
    try:
        types = load_conflict_types([*(conflict_folders or []), *own_tables])
    except ContentError as exc:
        c.add(exc.file or "", exc.path or "", "E002", exc.message)
        return None, c.problems
    builder = Builder(c, merged, origin, types, source, files, content_hash(files))
    adventure = builder.build()
    if adventure is not None:
        _check_id(adventure.id, merged["adventure"], origin["adventure"], c)
        from .graph import graph_problems

        graph_problems(adventure, c)
    return (adventure if not c.errors else None), c.problems


MAX_ID_CHARS = 100


def _check_id(adv_id: str, meta: object, file: str, c: Collector) -> None:
    """The id names the save file (and simulate's replay files): a plain, short file name, never a path."""
    from ..paths import plain_name_problem

    problem = plain_name_problem(adv_id) or (f"is longer than {MAX_ID_CHARS} bytes"
                                             if len(adv_id.encode("utf-8", "replace")) > MAX_ID_CHARS else None)
    if not problem and adv_id.strip().lower() == RESERVED_ID:
        problem = "is kept for open play (solo play --open)"
    if not problem and any(ch.isspace() or not ch.isprintable() for ch in adv_id):
        problem = "holds a space or an invisible character, which a typed --load could not name"
    if problem:
        given = isinstance(meta, dict) and "id" in meta
        what = "the id" if given else "the id taken from the file or folder name (set one with id = ...)"
        c.add(file, "adventure.id" if given else "adventure", "E011",
              f"{what} {adv_id[:40]!r} {problem}: it names the save file")


#: Characters a terminal acts on (C0 but tab and line breaks, DEL, C1): an ESC can clear a screen or retitle it.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _controlled(data: Any, path: str = "", limit: int = 20) -> list[str]:
    """The key paths of text values that hold a control character (at most ``limit`` of them)."""
    found: list[str] = []
    stack: list[tuple[str, Any]] = [(path, data)]
    while stack and len(found) < limit:
        where, value = stack.pop()
        if isinstance(value, str):
            if CONTROL.search(value):
                found.append(where)
        elif isinstance(value, dict):
            stack.extend((f"{where}.{k}" if where else str(k), v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((f"{where}[{i}]", v) for i, v in reversed(list(enumerate(value))))
    return found


def load_adventure(source: str | Path, *, conflict_folders: list[str | Path] | None = None) -> Adventure:
    """Load an adventure or raise :class:`AdventureError` with every problem found."""
    adventure, problems = read_adventure(source, conflict_folders=conflict_folders)
    if adventure is None:
        raise AdventureError(problems)
    return adventure
