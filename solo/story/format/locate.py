"""Finding the line of a TOML path, so problems can point at ``file:line``.

TOML parsers give line numbers only for syntax errors. For everything found
later (an unknown scene, a bad condition) we scan the text once and map each
table header and key to its line: enough to send an author to the right spot.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY_PART = r'(?:[A-Za-z0-9_-]+|"[^"]*"|\'[^\']*\')'
_KEY = re.compile(rf"^\s*({_KEY_PART}(?:\s*\.\s*{_KEY_PART})*)\s*=\s*(.*)$")


def _split_key(text: str) -> list[str]:
    parts = re.findall(r'"([^"]*)"|\'([^\']*)\'|([A-Za-z0-9_-]+)', text)
    return [a or b or c for a, b, c in parts]


class LineMap:
    """Path -> line (1-based) for one TOML text, worked out when a line is first asked for.

    Every file an adventure is read from gets one, and most are read without a problem to place: scanning them
    all up front cost a fifth of reading a clean adventure.
    """

    def __init__(self, text: str):
        self._text = text

    @functools.cached_property
    def lines(self) -> dict[str, int]:
        lines: dict[str, int] = {}  # cached only once whole: a scan that fails caches nothing and may be asked again
        arrays: dict[str, int] = {}
        current = ""
        in_multiline: str | None = None
        inline: _Inline | None = None  # an inline table or an array written over several lines, read on
        for number, line in enumerate(self._text.splitlines(), 1):
            if inline is not None and not (_HEADER.match(line) and not _KEY.match(line) and inline.quote is None
                                           and inline.stack[-1][0] == "table"):  # "[3, 4]" in an array is a value
                # (a header inside a multi-line string is text; a one-line string never runs on: see feed)
                if not inline.feed(line, number):
                    inline = None
                continue
            inline = None  # a table's header: whatever was open is closed (a slip of ours never eats the file)
            if in_multiline:
                if in_multiline in line:
                    in_multiline = None
                continue
            header = _HEADER.match(line)
            if header and not _KEY.match(line):
                name = ".".join(_split_key(header.group(2)))
                if header.group(1) == "[[":
                    index = arrays.get(name, -1) + 1
                    arrays[name] = index
                    current = f"{name}[{index}]"
                else:
                    current = self._resolve(name, arrays)
                lines.setdefault(current, number)
                parts = name.split(".")
                for end in range(1, len(parts)):  # [scenez.x] opens [scenez] too: a problem of it has this line
                    lines.setdefault(".".join(parts[:end]), number)
                continue
            key = _KEY.match(line)
            if key:
                path = ".".join(([current] if current else []) + _split_key(key.group(1)))
                lines.setdefault(path, number)
                value = key.group(2).strip()
                for quote in ('"""', "'''"):
                    if value.startswith(quote) and value.count(quote) == 1:
                        in_multiline = quote
                if value.startswith(("{", "[")):  # an inline table or an array: its keys and elements at their
                    inline = _Inline(lines, path, "table" if value[0] == "{" else "array")  # own lines, nested
                    if not inline.feed(value[1:], number):
                        inline = None
        self._text = ""  # the map is all that is asked of it from now on
        return lines

    @staticmethod
    def _resolve(name: str, arrays: dict[str, int]) -> str:
        """``[a.b.c]`` after ``[[a.b]]`` means the last element of a.b."""
        parts = name.split(".")
        out = []
        for i, part in enumerate(parts):
            out.append(part)
            prefix = ".".join(parts[: i + 1])
            if prefix in arrays and i < len(parts) - 1:
                out[-1] = f"{part}[{arrays[prefix]}]"
        return ".".join(out)

    def line(self, path: str) -> int | None:
        """The line of ``path``, or of its nearest enclosing entry."""
        probe = path
        while probe:
            if probe in self.lines:
                return self.lines[probe]
            if probe.endswith("]"):
                probe = probe[: probe.rindex("[")]
            elif "." in probe:
                probe = probe.rsplit(".", 1)[0]
            else:
                break
        return None


class _Inline:
    """The keys and elements of an inline table or an array, on one line or over several, each at its own line and
    nested path: an E002 in `roll = {` … `success = { effects = [ { ad = "clues" } ] }` … `}` was placed at the line
    the table opened (a GM's run), where the same content as [tables] was placed right. The one scanner of values:
    strings (escapes, triple quotes), comments, nesting."""

    def __init__(self, lines: dict[str, int], path: str, kind: str = "table"):
        self.lines = lines
        self.stack: list[list] = [[kind, path, 0]]  # each open table (its path) or array (its path, element)
        self.key: str | None = None  # a key read, its value not begun yet
        self.quote: str | None = None

    def feed(self, text: str, number: int) -> bool:
        """Read one more line of it; False once the table has closed."""
        i = 0
        while i < len(text):
            ch = text[i]
            if self.quote:
                if ch == "\\" and self.quote[0] == '"':  # an escape in a basic string: \" ends nothing
                    i += 2
                    continue
                if text.startswith(self.quote, i):
                    i += len(self.quote)
                    self.quote = None
                    continue
                i += 1
                continue
            kind, path, index = self.stack[-1]
            if ch == "#":
                break
            if kind == "table" and self.key is None:  # a key first, quoted ("odd key" = 1) or bare
                found = _KEY_AT.match(text, i)
                if found:
                    self.key = f"{path}.{'.'.join(_split_key(found.group(1)))}"
                    self.lines.setdefault(self.key, number)
                    i = found.end()
                    continue
            if ch in "\"'":
                self.quote = text[i:i + 3] if text[i:i + 3] in ('"""', "'''") else ch
                i += len(self.quote)
                self.key = None
                continue
            if ch == "{":
                where = self.key if self.key is not None else f"{path}[{index}]" if kind == "array" else path
                self.lines.setdefault(where, number)
                self.stack.append(["table", where, 0])
                self.key = None
            elif ch == "[":
                where = self.key if self.key is not None else f"{path}[{index}]"
                self.stack.append(["array", where, 0])
                self.key = None
            elif ch in "}]":
                self.stack.pop()
                self.key = None
                if not self.stack:
                    return False
            elif ch == ",":
                self.key = None
                if kind == "array":
                    self.stack[-1][2] += 1
            elif not ch.isspace():
                self.key = None  # a plain value: a number, true, a date, read past whole (never a key inside it: a
                found = _PLAIN_VALUE.match(text, i)  # long run of digits would cost quadratic time)
                i = found.end() if found else i + 1
                continue
            i += 1
        if self.quote in ('"', "'"):  # a one-line string left open is a slip: it ends with its line
            self.quote = None
        return True


_PLAIN_VALUE = re.compile(r"[^,\]}\s#\"'{\[]+|.")
_KEY_AT = re.compile(rf"({_KEY_PART}(?:\s*\.\s*{_KEY_PART})*)\s*=(?!=)\s*")


class Places:
    """Where a part of an adventure is written, as ``solo check`` points at it: "heist.toml:167:
    scenes.vault.choices[0]", each file read once for its lines. solo prove's findings and solo simulate's coverage
    both say so (a new GM read "mill.toml: scenes.office" in the coverage, where check and prove gave a line)."""

    def __init__(self) -> None:
        self.maps: dict[str, LineMap | None] = {}

    def __call__(self, where: Any) -> dict[str, Any]:
        """``where`` (its ``file`` and TOML ``path``) as ``{"where": "file:line: path", "line": line or None}``."""
        return self.at(where.file, where.path)

    def at(self, file: str, path: str) -> dict[str, Any]:
        if file not in self.maps:
            try:
                self.maps[file] = LineMap(Path(file).read_text(encoding="utf-8"))
            except (OSError, UnicodeError):  # moved or changed since it was read: the path alone still points
                self.maps[file] = None
        found = self.maps[file]
        number = found.line(path) if found is not None else None
        at = f"{file}:{number}" if number else file
        return {"where": f"{at}: {path}", "line": number}
