"""Folder options (``--saves DIR``, ``--errors DIR`` …): a folder, never an empty value or a file, and one
solo can write in, found before the work that writes there starts."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click


class FolderPath(click.Path):
    """A folder option (``--saves DIR`` …): an empty value or an existing file is an error, never the
    current folder or a file's place taken by a folder."""

    name = "folder"

    def __init__(self) -> None:
        super().__init__(file_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("is empty: name a folder, or leave the option out for the default", param, ctx)
        return super().convert(value, param, ctx)


FOLDER = FolderPath()


def folder_problem(option: str, folder: Path) -> str | None:
    """Why ``folder`` (given by ``option``, or an environment variable) cannot be used as a folder, or None."""
    from ..paths import path_problem

    if not str(folder).strip():
        return f"{option} is empty: name a folder"
    problem = path_problem(folder)
    if problem:
        return f"{option}: {problem}"
    try:
        if folder.exists() and not folder.is_dir():
            return f"{option}: {folder} is not a folder"
    except OSError as exc:
        return f"{option}: {folder}: {exc.strerror or exc}"
    return None


def writable_folder_problem(folder: Path, *, keep: bool = True) -> str | None:
    """Why solo cannot write files in ``folder``, found before the work that would write them: the folder
    is made if it is missing, and a file is made in it and removed (a read-only mount, ``/proc``, a full
    quota or a folder of someone else's all fail here, with the system's reason). Without ``keep`` the
    folders made for the test are removed again, for a command that may have nothing to write."""
    import tempfile

    made = []
    try:
        missing = [folder, *folder.parents]
        for part in reversed(missing[: next((i for i, p in enumerate(missing) if p.exists()), len(missing))]):
            part.mkdir()
            made.append(part)
    except OSError as exc:
        _unmake(made)
        return f"cannot make the folder {folder}: {exc.strerror or exc}"
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".solo-", suffix=".probe")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return f"cannot write in the folder {folder}: {exc.strerror or exc}"
    finally:
        if not keep:
            _unmake(made)
    return None


def _unmake(folders: list[Path]) -> None:
    for part in reversed(folders):
        try:
            part.rmdir()
        except OSError:
            pass
