"""A small TOML writer for the files we write ourselves (characters, NPC cards).

Only what those files hold is supported: text, whole numbers, floats, booleans,
lists of those, nested tables and lists of tables.
"""

from __future__ import annotations

import json
import re
from typing import Any

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _string(text: str) -> str:
    # JSON escapes the control characters TOML forbids, except DEL (U+007F)
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _key(key: str) -> str:
    return key if _BARE.fullmatch(key) else _string(key)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _is_table_list(value: object) -> bool:
    return isinstance(value, (list, tuple)) and bool(value) and all(isinstance(v, dict) for v in value)


def dumps(data: dict[str, Any], *, _prefix: str = "") -> str:
    lines: list[str] = []
    tables: list[tuple[str, Any]] = []
    for key, value in data.items():
        if value is None:
            continue
        if isinstance(value, dict) and any(isinstance(v, dict) for v in value.values()) or (
            isinstance(value, dict) and len(value) > 4
        ):
            tables.append((key, value))
        elif _is_table_list(value):
            tables.append((key, value))
        else:
            lines.append(f"{_key(key)} = {_value(value)}")
    out = "\n".join(lines)
    for key, value in tables:
        name = f"{_prefix}{_key(key)}"
        if isinstance(value, dict):
            out += f"\n\n[{name}]\n" + dumps(value, _prefix=name + ".")
        else:
            for item in value:
                out += f"\n\n[[{name}]]\n" + dumps(item, _prefix=name + ".")
    return out.strip("\n") + ("\n" if not _prefix else "")
