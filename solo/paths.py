"""Where the bundled content lives, from any working directory.

In a wheel the top-level ``oracles/`` and ``scenes/`` folders are packed into
``solo/_bundled``; in a source checkout (editable install) they sit beside the
package. Users add folders of their own through options and environment
variables, searched before the bundled ones so theirs can override.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def bundled(name: str) -> Path:
    """The bundled folder ``name`` ("oracles" or "scenes")."""
    for candidate in (_PACKAGE / "_bundled" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"the bundled {name}/ folder is missing from this installation")


def search_path(name: str, extra: list[str | Path] | None = None, env: str | None = None) -> list[Path]:
    """User folders first (options, then the environment variable), the bundled one last."""
    folders = [Path(p) for p in extra or []]
    if env and os.environ.get(env):
        folders += [Path(p) for p in os.environ[env].split(os.pathsep) if p]
    folders.append(bundled(name))
    return folders


def default_saves() -> Path:
    """``SOLO_SAVES`` if set, else ``saves/`` in the working directory."""
    return Path(os.environ.get("SOLO_SAVES") or "saves")
