"""Character files: reading and writing the TOML files players keep between games.

The rules core only builds and checks characters; finding them on disk, by
path or by the name of a pregenerated one, and writing them back lives here.
A file name made from a character's name keeps only letters, digits and
underscores, and is cut short, so it always stays inside its folder.
"""

from __future__ import annotations

import re
from pathlib import Path

from .errors import SoloError
from .paths import exists, file_in, write_atomic
from .rules.character import Character
from .rules.creation import pregenerated
from .toml_files import load_toml

SLUG_CHARS = 60  # a file name from a character's name: short, whatever the name's length
MAX_SAME_NAME = 999  # name_2.toml … name_999.toml, then solo asks for another name


def load_character(spec: str | Path) -> Character:
    """A character from a TOML file, or a pregenerated one by name."""
    path = Path(spec)
    if path.suffix == ".toml" or exists(path):
        return Character.from_dict(load_toml(path), file=path)
    return pregenerated(str(spec))


def character_slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")[:SLUG_CHARS].rstrip("_")
    return slug or "character"


def free_character_path(folder: Path, name: str) -> Path:
    """``folder/name.toml``, or ``name_2.toml`` … if taken: a new character never replaces another."""
    stem = character_slug(name)
    path = file_in(folder, f"{stem}.toml")
    n = 2
    while path.exists() or path.is_symlink():
        if n > MAX_SAME_NAME:
            raise SoloError(f"{folder} already holds {MAX_SAME_NAME} characters called {stem!r}: choose another name")
        path = file_in(folder, f"{stem}_{n}.toml")
        n += 1
    return path


def save_character(char: Character, path: Path) -> None:
    """Write a character file that a person can read and edit (and solo checks on load).

    The file is replaced whole (see :func:`solo.paths.write_atomic`); an ``OSError`` says why not.
    """
    from .toml_write import dumps

    path.parent.mkdir(parents=True, exist_ok=True)
    name = "".join(ch if ch.isprintable() else " " for ch in char.name)  # the header stays one comment line
    header = f"# {name}: a Comae Engine character made by solo. Edit freely; solo checks it on load.\n"
    write_atomic(path, header + dumps(char.to_dict()))
