"""Loading adventures: reading their files and TOML, checking every field, reporting every problem.

``load_adventure`` raises :class:`AdventureError` listing all problems found;
``read_adventure`` returns the adventure (or ``None``) together with the
problems, for ``solo check``. Each problem names the file, the TOML path and
the line, with "did you mean" for misspelt ids. Loading never lets a Python
traceback reach the user, whatever the file holds.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from ...errors import ContentError, did_you_mean
from ...oracle.loader import table_files
from ...paths import PathError, read_bounded, within
from ...rules.conflict_types import read_conflict_types
from ...terminal_text import CONTROL_PROBLEM, controlled, may_hold_control
from ...toml_files import TOMLError, loads_toml
from .adventure import Adventure
from .locate import LineMap
from .problems import AdventureError, Collector, Problem
from .schema import Builder

MAX_FILE_BYTES = 2_000_000
RESERVED_ID = "open"  # the save id of open play (story/play/open_play.py OPEN_ID)
SECTIONS = ("adventure", "npcs", "scenes", "narration", "responses")


#: How far solo looks into an adventure folder: its subfolders this deep, this many entries seen in all
#: (files and folders), this many ``.toml`` files read. A path that leads elsewhere (``/``, a home folder)
#: is refused after a glance, never walked.
MAX_FOLDER_DEPTH = 4
MAX_FOLDER_ENTRIES = 5_000
MAX_ADVENTURE_FILES = 200


class NotAnAdventure(ContentError):
    """A path that cannot be an adventure: refused before any of its files is read."""


#: Said of a scene or NPC defined twice: what is not checked until it is defined once.
WHOLE_STORY_WAITS = ("; the checks of the whole story (scenes not reached, dead ends, no ending in reach, names never "
                     "set) wait until it is defined once")


def read_as_part(source: Path, file: Path) -> bool:
    """Whether a file written at ``file`` would be read with the folder adventure ``source`` (as one of its files,
    as :func:`adventure_files` finds them, or among its own conflict types in ``tables/``)."""
    if not source.is_dir() or not file.name.lower().endswith(".toml"):
        return False
    try:
        parts = file.resolve().relative_to(source.resolve()).parts
    except ValueError:
        return False
    if any(part.startswith(".") for part in parts):
        return False
    return parts[0] == "tables" or len(parts) - 1 <= MAX_FOLDER_DEPTH


def adventure_files(source: Path) -> list[Path]:
    """The TOML files of an adventure: the file itself, or every one in its folder but its tables.

    A folder must hold a ``.toml`` file at its top; its subfolders are read to :data:`MAX_FOLDER_DEPTH`
    levels, hidden ones and ``tables/`` left out, links to folders not followed. Raises
    :class:`NotAnAdventure` (naming only ``source``) for a file that is not ``.toml``, a folder with
    none at its top, or one larger than the bounds above.
    """
    import os

    if not source.is_dir():
        if source.suffix.lower() != ".toml":
            raise NotAnAdventure("an adventure is a .toml file or a folder of them", file=source)
        return [source]
    files: list[Path] = []
    seen = 0
    stack: list[tuple[Path, int]] = [(source, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            raise NotAnAdventure(f"cannot read the folder: {exc.strerror or exc}", file=source) from None
        seen += len(entries)
        if seen > MAX_FOLDER_ENTRIES:
            raise NotAnAdventure(f"more than {MAX_FOLDER_ENTRIES:,} files and folders in it: an adventure folder "
                                 "holds its own files only", file=source)
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_symlink() and not within(Path(entry.path), source):
                continue  # a link out of the folder is not the adventure's (an audit: notes.toml -> a private file)
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "tables" and depth < MAX_FOLDER_DEPTH:
                    stack.append((Path(entry.path), depth + 1))
            elif entry.name.endswith(".toml"):
                files.append(Path(entry.path))
        if depth == 0 and not files:
            raise NotAnAdventure("no .toml file at the top of this folder: not an adventure", file=source)
        if len(files) > MAX_ADVENTURE_FILES:
            raise NotAnAdventure(f"more than {MAX_ADVENTURE_FILES} .toml files: an adventure has fewer", file=source)
    return sorted(files)


def content_hash(files: list[tuple[Path, bytes]]) -> str:
    """A short hash of the files, so a save can tell the adventure it was played with has changed."""
    digest = hashlib.sha256()
    for f, raw in files:
        digest.update(f.name.encode())
        digest.update(raw)
    return digest.hexdigest()[:16]


def own_tables_folder(source: Path) -> bool:
    """Whether the adventure folder ``source`` has a ``tables`` folder of its own (not a link out of it)."""
    tables = source / "tables"
    return tables.is_dir() and within(tables, source)


def _tables_read(folders: list[Path]) -> list[tuple[Path, bytes]]:
    """The adventure's own table files (its ``tables/`` folder: oracle tables, conflict types), for its hash: a
    replay reads them as surely as the scenes. A link out of the folder or a file that cannot be read counts
    as its name alone (the tables' own loader says what is wrong with it)."""
    read: list[tuple[Path, bytes]] = []
    for folder in folders:
        for f in table_files(folder):  # the files the tables' loader reads, links out of the folder left out
            try:
                raw = read_bounded(f, MAX_FILE_BYTES)
            except (PathError, OSError):
                raw = b""
            read.append((Path("tables") / f.name, raw))
    return read


def read_adventure(source: str | Path, *, conflict_folders: list[str | Path] | None = None
                   ) -> tuple[Adventure | None, list[Problem]]:
    """Parse and check an adventure file or folder; returns it (or None) and every problem."""
    source = Path(source)
    c = Collector()
    if not source.exists():
        c.add(str(source), "", "E010", "no such file or folder")
        return None, c.problems
    try:
        files = adventure_files(source)
    except NotAnAdventure as exc:
        c.add(str(source), "", "E010", exc.message)
        return None, c.problems
    read: list[tuple[Path, bytes]] = []
    merged: dict[str, Any] = {"adventure": None, "npcs": {}, "scenes": {}, "narration": {}, "responses": {}}
    origin: dict[str, str] = {}
    # problems after which the adventure cannot be read on (a file not read, a section not understood): any other
    # (a scene or NPC defined twice, the first kept) is reported beside whatever the building finds, all at once
    lost = False
    twice = False  # a scene or NPC defined in two places: which of them the story means is not known
    for f in files:
        name = str(f)
        try:
            raw = read_bounded(f, MAX_FILE_BYTES)
            read.append((f, raw))
            text = raw.decode("utf-8")
        except PathError as exc:  # a FIFO, a device or a file over the limit
            c.add(name, "", "E010", str(exc).removeprefix(f"{f}: "))
            lost = True
            continue
        except UnicodeDecodeError as exc:  # where, as an author finds it: "byte 0xfc in position 1854" was Python's
            line = raw.count(b"\n", 0, exc.start) + 1
            column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
            c.add(name, "", "E010", f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at column {column} cannot be read "
                                    "(save the file as UTF-8)", line=line)
            lost = True
            continue
        except OSError as exc:
            c.add(name, "", "E010", f"cannot read the file: {exc.strerror or exc}")
            lost = True
            continue
        try:
            data = loads_toml(text, file=name)
        except TOMLError as exc:
            c.add(name, "", "E001", exc.reason, line=exc.line, column=exc.column)
            lost = True
            continue
        c.maps[name] = LineMap(text)
        for where in controlled(data) if may_hold_control(text) else ():
            c.add(name, where, "E002", CONTROL_PROBLEM)
            lost = True  # (not read on: every line that shows the text would be checked with it)
        # not one section, nor a name near one ([scenez]): another kind of file
        if data and not any(key in SECTIONS or did_you_mean(key, SECTIONS) for key in data):
            person = {"name", "skills"} <= data.keys()
            headless = {"title", "start"} & data.keys()  # [adventure]'s own fields, its header forgotten
            c.add(name, "", "E002", "not an adventure file: it has none of the sections "
                  + ", ".join(f"[{k}]" for k in SECTIONS)
                  + (" (its name and skills read as a character or an NPC: a character plays with solo play "
                     "--pc FILE, an NPC fights in solo duel --npc FILE)" if person else
                     f" (its {' and '.join(sorted(headless))} read as fields of [adventure]: put that header above "
                     "them)" if headless else ""))
            lost = True
            continue
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
                    lost = True
                    continue
                for item_id, item in value.items():
                    if item_id in merged[key] and key != "narration":
                        held = key in ("scenes", "npcs")  # said where it is held back: nothing else says it
                        first = origin[f"{key}.{item_id}"]  # the file that gave it first, and its line there
                        at = c.maps[first].line(f"{key}.{item_id}") if first in c.maps else None
                        c.add(name, f"{key}.{item_id}", "E002",
                              # neither called the copy: files are read in name order, and the one read first
                              # may be the one just added (a GM's run called the original the duplicate)
                              f"{key[:-1]} {item_id!r} is defined twice: here and in {first}"
                              + (f" (line {at})" if at else "") + (WHOLE_STORY_WAITS if held else ""))
                        twice = twice or held
                        continue
                    merged[key][item_id] = item
                    origin[f"{key}.{item_id}"] = name
            else:
                field = key in ("title", "start") and "adventure" not in data  # its header forgotten above it
                c.add(name, key, "E002", f"unknown section [{key}]" + (
                    ": a field of [adventure], whose header is missing above it" if field
                    else did_you_mean(key, SECTIONS)))
                lost = True
    if lost:
        return None, c.problems
    if merged["adventure"] is None:
        c.add(str(files[0]), "adventure", "E002", "missing [adventure] section (title, start …)"
              + _folder_meant(source))
        return None, c.problems
    own_tables = [source / "tables"] if source.is_dir() and own_tables_folder(source) else []
    types, wrong = read_conflict_types([*(conflict_folders or []), *own_tables])
    for bad in wrong:  # every problem of every conflicts.toml, not only the first
        c.add(bad.file or "", bad.path or "", "E001" if isinstance(bad, TOMLError) else "E002", bad.message,
              line=bad.line, column=bad.column)
    if wrong:
        return None, c.problems
    builder = Builder(c, merged, origin, types, source, files, content_hash(read + _tables_read(own_tables)))
    adventure = builder.build()
    if adventure is not None and own_tables:
        # a save made before the tables counted holds the hash of the scenes alone: it still fits (an audit found a
        # changed gossip table or conflict type went unnoticed; old saves are not told of a change that was none)
        adventure.earlier_hashes = (content_hash(read),)
    if adventure is not None:
        _check_id(adventure.id, merged["adventure"], origin["adventure"], c)
        from .graph import graph_problems

        # the checks of the whole story (what is reached, what leads on, which names are set) wait while a scene or
        # NPC is defined twice: they would judge the story by the definition kept, the one first read, and a stray
        # file's one-line scene made twelve problems of one (a new GM's run)
        if not twice:
            graph_problems(adventure, c)
    return (adventure if not c.errors else None), c.problems


def _folder_meant(source: Path) -> str:
    """Where one file of a folder adventure was checked alone, the folder it belongs to: another file beside it holds
    the [adventure] section and the folder reads as one adventure (a new GM checked hollin/scenes.toml and read only
    'missing [adventure]'); beside whole adventures of their own (a folder of them), no folder is offered."""
    if not source.is_file():
        return ""
    try:
        header = next((other for other in sorted(source.parent.glob("*.toml"))[:200]
                       if other != source and has_adventure_header(other)), None)
    except OSError:
        return ""
    if header is None:
        return ""
    _, problems = read_adventure(source.parent)
    if any(p.code == "E010" or "is defined twice" in p.message for p in problems):
        return ""  # the files beside it are adventures of their own, or the folder is none
    return f": it is one file of the adventure in {source.parent}/ ({header.name} holds the section): check the folder"


def has_adventure_header(path: Path) -> bool:
    """Whether a .toml file (of a readable size) has an [adventure] section: an adventure's file, not an NPC's."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return False
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return any(line.strip().startswith("[adventure]") for line in text.splitlines())


MAX_ID_CHARS = 100


def _check_id(adv_id: str, meta: object, file: str, c: Collector) -> None:
    """The id names the save file (and simulate's replay files): a plain, short file name, never a path."""
    from ...paths import plain_name_problem

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


def load_adventure(source: str | Path, *, conflict_folders: list[str | Path] | None = None) -> Adventure:
    """Load an adventure or raise :class:`AdventureError` with every problem found."""
    adventure, problems = read_adventure(source, conflict_folders=conflict_folders)
    if adventure is None:
        raise AdventureError(problems)
    return adventure
