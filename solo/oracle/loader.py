"""Finding and reading table files: the only part of the oracle that touches the disk.

Folders are searched user-first (``--tables`` options, then ``SOLO_TABLES``,
then the bundled ``oracles/``), so a user's table replaces a bundled one of
the same name without editing the installation. A TOML file counts as a
table file only if it has a top-level ``[tables]`` section; other content
in the same folders (such as ``names.toml``) is left alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ContentError
from ..paths import PathError, read_bounded, search_path
from ..toml_files import loads_toml
from .tables import Table, TableSet, tables_from_data

__all__ = ["ENV_VAR", "table_folders", "table_files", "read_folder", "load_tables"]

ENV_VAR = "SOLO_TABLES"


def table_folders(extra: Sequence[str | Path] = (), *, use_env: bool = True) -> list[Path]:
    """The folders searched, first one winning; a user folder that is not there is an error."""
    folders = search_path("oracles", list(extra), ENV_VAR if use_env else None)
    for folder in folders[:-1]:
        if not folder.is_dir():
            raise ContentError("table folder not found", file=folder)
    return folders


def table_files(folder: Path) -> list[Path]:
    """TOML files directly in ``folder`` and in its ``tables/`` subfolder, in name order."""
    files = sorted(folder.glob("*.toml"))
    sub = folder / "tables"
    if sub.is_dir():
        files += sorted(sub.glob("*.toml"))
    return files


def _read(path: Path) -> tuple[str, dict[str, Any]]:
    try:
        text = read_bounded(path).decode("utf-8")
    except PathError as exc:
        raise ContentError(str(exc).removeprefix(f"{path}: "), file=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ContentError(f"cannot read file: {exc}", file=path) from None
    return text, loads_toml(text, file=path)


def read_folder(folder: Path) -> dict[str, Table]:
    """Every table in one folder; the same name in two files of one folder is an error."""
    out: dict[str, Table] = {}
    for path in table_files(folder):
        text, data = _read(path)
        if "tables" not in data:
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
    """The merged, checked tables of every folder; raises :class:`ContentError` on any fault."""
    return TableSet.from_layers([read_folder(folder) for folder in table_folders(extra, use_env=use_env)])
