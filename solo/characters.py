"""Character files: reading and writing the TOML files players keep between games.

The rules core only builds and checks characters; finding them on disk, by
path or by the name of a pregenerated one, and writing them back lives here.
"""

from __future__ import annotations

import re
from pathlib import Path

from .rules.character import Character
from .rules.creation import pregenerated
from .toml_files import load_toml


def load_character(spec: str | Path) -> Character:
    """A character from a TOML file, or a pregenerated one by name."""
    path = Path(spec)
    if path.suffix == ".toml" or path.exists():
        return Character.from_dict(load_toml(path), file=path)
    return pregenerated(str(spec))


def character_slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "character"


def free_character_path(folder: Path, name: str) -> Path:
    """``folder/name.toml``, or ``name_2.toml`` … if taken: a new character never replaces another."""
    stem = character_slug(name)
    path = folder / f"{stem}.toml"
    n = 2
    while path.exists():
        path = folder / f"{stem}_{n}.toml"
        n += 1
    return path


def save_character(char: Character, path: Path) -> None:
    """Write a character file that a person can read and edit (and solo checks on load)."""
    from .toml_write import dumps

    path.parent.mkdir(parents=True, exist_ok=True)
    header = f"# {char.name}: a Comae Engine character made by solo. Edit freely; solo checks it on load.\n"
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(header + dumps(char.to_dict()), encoding="utf-8")
    tmp.replace(path)
