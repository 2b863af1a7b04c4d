"""Finding and reading table files: the only part of the oracle that touches the disk.

Folders are searched user-first (``--tables`` options, then ``SOLO_TABLES``,
then the bundled ``oracles/``), so a user's table replaces a bundled one of
the same name without editing the installation. A TOML file counts as a
table file only if it has a top-level ``[tables]`` section; other content
in the same folders (such as ``names.toml``) is left alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ..errors import ContentError
from ..paths import PathError, read_bounded, search_path, within
from ..toml_files import loads_toml
from .tables import Table, TableSet, tables_from_data

__all__ = ["ENV_VAR", "table_folders", "table_files", "read_folder", "load_tables"]

ENV_VAR = "SOLO_TABLES"


def table_folders(extra: Sequence[str | Path] = (), *, use_env: bool = True) -> list[Path]:
    """The folders searched, first one winning; a user folder that is not there is an error."""
    folders = search_path("oracles", list(extra), ENV_VAR if use_env else None)
    for folder in folders[:-1]:
        if folder.is_file():  # "table folder not found" of a file that is there read as a lie (a GM-less table)
            raise ContentError(f"this is a file, and --tables (or {ENV_VAR}) takes a folder of tables: give the "
                               f"folder it is in, {folder.parent}", file=folder)
        if not folder.is_dir():
            raise ContentError("table folder not found", file=folder)
    return folders


def table_files(folder: Path) -> list[Path]:
    """TOML files directly in ``folder`` and in its ``tables/`` subfolder, in name order; a link that
    leads out of ``folder`` is not its own and is left out (a bad-input audit: an adventure's
    ``tables/secret.toml -> /elsewhere`` was read and its rows shown in play, as an adventure's own file is not)."""
    files = sorted(folder.glob("*.toml"))
    sub = folder / "tables"
    if sub.is_dir() and within(sub, folder):
        files += sorted(sub.glob("*.toml"))
    return [f for f in files if not f.is_symlink() or within(f, folder)]


#: Bytes of one file of tables: as much as an adventure's file (a reader of TOML in Python takes seconds a megabyte).
TABLES_FILE_LIMIT = 2_000_000


def _text(path: Path) -> str:
    try:
        return read_bounded(path, TABLES_FILE_LIMIT).decode("utf-8")
    except PathError as exc:
        raise ContentError(str(exc).removeprefix(f"{path}: "), file=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ContentError(f"cannot read file: {exc}", file=path) from None


def read_folder(folder: Path, texts: Mapping[Path, str] | None = None,
                skipped: list[Path] | None = None) -> dict[str, Table]:
    """Every table in one folder; the same name in two files of one folder is an error. ``texts``: the files'
    contents already read (by path); ``skipped``: where to list the files read that hold no ``[tables]``."""
    out: dict[str, Table] = {}
    for path in table_files(folder):
        text = texts[path] if texts is not None and path in texts else _text(path)
        data = loads_toml(text, file=path)
        if "tables" not in data:
            if skipped is not None:
                skipped.append(path)
            continue
        for name, table in tables_from_data(data, file=str(path), source=text).items():
            if name in out:
                raise ContentError(
                    f"table {name!r} is also defined in {out[name].file}",
                    file=path, path=f"tables.{name}", line=table.line,
                )
            out[name] = table
    return out


def load_tables(extra: Sequence[str | Path] = (), *, use_env: bool = True) -> TableSet:
    """The merged, checked tables of every folder; raises :class:`ContentError` on any fault.

    The same files with the same contents give the same tables, so a process keeps the last few it built by
    what it read (a :class:`TableSet` is never changed once made): building and checking a thousand rows
    again cost more than reading the files.
    """
    folders = table_folders(extra, use_env=use_env)
    texts = {path: _text(path) for folder in folders for path in table_files(folder)}
    key = (tuple(folders), tuple(texts.items()))
    tables = _LOADED.get(key)
    if tables is None:
        # a file of the user's own with no [tables] is read as no table: named where a table is not found (a GM-less
        # table's loot.toml, written without it, gave only "no table named 'loot'"); the bundled folder's other
        # files (names, Code Blocks) are no one's mistake
        skipped: list[Path] = []
        tables = TableSet.from_layers([read_folder(folder, texts, skipped if i < len(folders) - 1 else None)
                                       for i, folder in enumerate(folders)])
        tables.skipped = tuple(skipped)
        if len(_LOADED) >= 8:
            _LOADED.clear()
        _LOADED[key] = tables
    return tables


#: Tables built, by the folders searched and every file's path and contents (see :func:`load_tables`).
_LOADED: dict[tuple, TableSet] = {}
