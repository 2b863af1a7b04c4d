"""Finding adventures: a path, or a name looked up in the scene folders.

Users add folders with ``SOLO_SCENES`` (paths separated like PATH); the
bundled ``scenes/`` folder is searched last.
"""

from __future__ import annotations

from pathlib import Path

from ...errors import SoloError, did_you_mean
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
    raise SoloError(f"no adventure {spec!r}{did_you_mean(spec, known)}; "
                    f"bundled and yours: {', '.join(known) or 'none'}")
