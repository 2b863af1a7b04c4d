"""Reading TOML content files with errors that point at the file and line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import tomli

from .errors import ContentError


def load_toml(path: str | Path) -> dict[str, Any]:
    """Parse one TOML file; syntax errors become :class:`ContentError` with line and column."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ContentError("file not found", file=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ContentError(f"cannot read file: {exc}", file=path) from None
    return loads_toml(text, file=path)


def loads_toml(text: str, *, file: str | Path | None = None) -> dict[str, Any]:
    try:
        return tomli.loads(text)
    except tomli.TOMLDecodeError as exc:
        raise ContentError(
            f"TOML syntax error: {exc.msg}", file=file, line=exc.lineno, column=exc.colno
        ) from None
