"""Finding adventures: a path, or a name looked up in the scene folders.

Users add folders with ``SOLO_SCENES`` (paths separated like PATH); the
bundled ``scenes/`` folder is searched last.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from ...errors import SoloError, closest, did_you_mean
from ...paths import search_path

DEFAULT_ADVENTURE = "tutorial"


def scene_folders() -> list[Path]:
    return search_path("scenes", env="SOLO_SCENES")


def available() -> dict[str, Path]:
    """Adventure name -> file or folder, user folders first."""
    found: dict[str, Path] = {}
    for folder in scene_folders():
        if not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir()):
            if entry.name.startswith((".", "_")):
                continue
            if entry.is_file() and entry.suffix == ".toml":
                found.setdefault(entry.stem, entry)
            elif entry.is_dir() and any(entry.glob("*.toml")):
                found.setdefault(entry.name, entry)
    return found


def find_adventure(spec: str | None) -> Path:
    """A path if ``spec`` names one, else the adventure of that name (or the default)."""
    if spec is None:
        spec = DEFAULT_ADVENTURE
    path = Path(spec)
    if path.exists():
        return path
    known = available()
    if spec in known:
        return known[spec]
    alike = [name for name in known if name.casefold() == spec.casefold()]
    if len(alike) == 1:  # "Kaldskard" as the title writes it (a new player's run); two that differ by case: neither
        return known[alike[0]]
    if path.suffix.lower() == ".toml" or len(path.parts) > 1:  # a file or folder was meant, not a name
        raise SoloError(f"no such file or folder: {spec} (an adventure is a .toml file, a folder of them, or the "
                        f"name of one: {', '.join(known) or 'none'})")
    hint = did_you_mean(spec, known)
    if not hint:
        here = _here()
        close = closest(spec, here)
        hint = f" (did you mean {here[close]!r}?)" if close is not None else ""
    raise SoloError(f"no adventure {spec!r}{hint}; bundled and yours: {', '.join(known) or 'none'}")


def saved_adventure(source: str, adventure_id: str) -> tuple[Path, str | None]:
    """Where the adventure a save was played in is read from, and what to say when it is not where the save
    recorded it: the file named by its id then (a bundled one after an upgrade moved it, your own folder's); the
    caller says it where the files found are not the ones the save was made with.
    A save records its adventure by an absolute path; one written before did by the path as typed, which from
    another folder named nothing ("no adventure 'mytale'"), and a copy of the tutorial was quietly replayed as
    the bundled one (a bad-input audit)."""
    recorded = Path(source)
    if recorded.exists():
        return recorded, None
    found = find_adventure(adventure_id)
    return found, (f"The adventure file this save names, {source}, is not there; playing the adventure named "
                   f"{adventure_id!r} from {found} instead.")


#: At most this many entries of the working folder are looked at for a name that was meant there.
HERE_LIMIT = 500


def _here() -> dict[str, str]:
    """The adventures in the working folder by name, each as a path that names it there ('hollin': './hollin',
    'mill': './mill.toml'): a file with an [adventure] section, or a folder with one among its top files. A name
    misspelt from one of them is pointed at it, where only the bundled ones were offered (a new GM typed 'solo
    check holin' for the folder hollin beside them); an NPC's file is not offered."""
    from .loader import has_adventure_header

    out: dict[str, str] = {}
    try:
        entries = list(itertools.islice(Path.cwd().iterdir(), HERE_LIMIT))
    except OSError:  # a working folder gone or unreadable: nothing to offer from it
        return {}
    for entry in entries:
        if entry.name.startswith("."):
            continue
        try:
            if entry.is_file() and entry.suffix.lower() == ".toml" and has_adventure_header(entry):
                out.setdefault(entry.stem, f"./{entry.name}")
            elif entry.is_dir() and any(has_adventure_header(f) for f in itertools.islice(
                    (f for f in entry.iterdir() if f.suffix.lower() == ".toml"), 50)):
                out.setdefault(entry.name, f"./{entry.name}")
        except OSError:  # this one unreadable: the others still offered
            continue
    return out
