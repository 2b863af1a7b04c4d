"""Reading TOML content files with errors that point at the file and line."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import tomli

from .errors import ContentError
from .paths import PathError, read_bounded

__all__ = ["TOMLError", "load_shipped_toml", "load_toml", "loads_toml"]

#: How deep tomli lets inline arrays and tables nest, and how many parts it lets a key have.
_NESTING_LIMIT = 400
_KEY_PARTS_LIMIT = 1000
#: Python reads at most this many digits into a whole number (sys.get_int_max_str_digits()).
_DIGITS_LIMIT = 4300
_LONG_NUMBER = re.compile(rf"[0-9][0-9_]{{{_DIGITS_LIMIT - 1},}}")


class TOMLError(ContentError):
    """A file that TOML cannot read; ``reason`` is the message without the file and line."""

    def __init__(self, reason: str, *, file: str | Path | None = None, line: int | None = None,
                 column: int | None = None, syntax: bool = True) -> None:
        self.reason = reason
        super().__init__(f"TOML syntax error: {reason}" if syntax else reason, file=file, line=line, column=column)


def load_toml(path: str | Path) -> dict[str, Any]:
    """Parse one TOML file; syntax errors become :class:`ContentError` with line and column."""
    path = Path(path)
    try:
        text = read_bounded(path).decode("utf-8")
    except FileNotFoundError:
        raise ContentError("file not found", file=path) from None
    except PathError as exc:  # a FIFO, a device or a file over the limit: refused, not read without end
        raise ContentError(str(exc).removeprefix(f"{path}: "), file=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ContentError(f"cannot read file: {exc}", file=path) from None
    return loads_toml(text, file=path)


@lru_cache(maxsize=64)
def load_shipped_toml(path: Path) -> dict[str, Any]:
    """A file shipped inside the package (``paths.bundled``), parsed once a process; callers only read it.

    Such a file cannot change while solo runs, and some are read for every character or NPC made: the
    names for each random name and each pronoun, a ready-made character each time one is asked for (open play
    meets people one by one; re-reading oracles/names.toml for each was 1.2 % of the test suite's CPU).
    Never for a user's file, which may change between two reads.
    """
    return load_toml(path)


def loads_toml(text: str, *, file: str | Path | None = None) -> dict[str, Any]:
    """Parse TOML text; every way it can fail is a :class:`TOMLError` naming the line where it can.

    tomli reports syntax errors with their position, but refuses values nested
    too deeply (``RecursionError``) and numbers too long for Python
    (``ValueError``) without one: those are found here by a scan of the text.
    """
    text = text.removeprefix("\ufeff")  # the byte-order mark an editor on Windows may write: no part of the TOML
    try:
        return tomli.loads(text)
    except tomli.TOMLDecodeError as exc:
        opened = _opened_at(exc.msg, text, exc.lineno)
        if opened is not None:  # said where the bracket was opened, not at the header tomli stopped on
            at, close = opened
            raise TOMLError(f"{exc.msg.lower()} opened here: add its closing {close}", file=file, line=at,
                            column=None) from None
        raise TOMLError(_said(exc.msg, text, exc.lineno, exc.colno), file=file, line=exc.lineno,
                        column=exc.colno) from None
    except RecursionError:
        where = _deep_spot(text, _NESTING_LIMIT)
        if where is not None:
            reason = f"arrays and inline tables nested more than {_NESTING_LIMIT} levels deep"
        else:
            where = _long_key_spot(text)
            reason = f"a key or table name of more than {_KEY_PARTS_LIMIT} dotted parts"
        line, column = where or (None, None)
        raise TOMLError(reason, file=file, line=line, column=column, syntax=False) from None
    except ValueError:  # tomli's own errors are TOMLDecodeError, handled above
        line, column = _long_number_spot(text) or (None, None)
        raise TOMLError(f"a number of more than {_DIGITS_LIMIT} digits", file=file, line=line, column=column,
                        syntax=False) from None


_TWICE = re.compile(r"Cannot declare \((.*)\) twice")
#: The tables the formats keep as lists ([[scenes.X.choices]], a random table's [[rows]] and its kin).
_LISTS_OF_TABLES = frozenset({"choices", "rows", "personality", "dark_triad", "motivation", "recent_event",
                              "disposition"})
_HEADER = re.compile(r"\s*\[\[?\s*(.*?)\s*\]\]?\s*(#.*)?$")


def _said(message: str, text: str, lineno: int | None, colno: int | None) -> str:
    """tomli's message as an author reads it: "Cannot declare ('scenes', 'hall', 'choices') twice" named a table by a
    Python tuple, and "Cannot overwrite a value" named no key (GM-tools review). Names are shown as the line
    writes them (``[scenes."my.hall"]`` keeps its quotes)."""
    lines = text.splitlines()
    line = lines[lineno - 1] if lineno and 0 < lineno <= len(lines) else ""
    if _TWICE.fullmatch(message):
        header = _HEADER.fullmatch(line)
        if header:
            table = header.group(1)
            first = next((n for n, earlier in enumerate(lines[: (lineno or 1) - 1], 1)
                          if (h := _HEADER.fullmatch(earlier)) and h.group(1) == table and "[[" not in earlier), None)
            at = f" (first at line {first})" if first else ""
            # a list of tables only where the format keeps one (a scene's choices, a table's rows): "write
            # [[scenes.lobby]]" for a scene written twice would break the adventure (a new GM's run)
            if table.rsplit(".", 1)[-1].strip("\"'") in _LISTS_OF_TABLES:
                return (f"the table [{table}] is declared twice{at} (if you meant a list of tables, write "
                        f"[[{table}]], with double brackets, once for each)")
            return f"the table [{table}] is declared twice{at}: write it once, or give one of them another name"
    if message == "Cannot overwrite a value":
        key = re.match(r"\s*([\w.\-\"' ]+?)\s*=", line[: colno or len(line)])
        if key:
            # the key by its whole path, and the line that gave it first, where the table's own lines hold it (a GM's
            # run: "title is given a value twice" named neither the scene nor the first title)
            name, table, first = key.group(1), "", None
            quoted = _in_long_strings(lines)
            for n in range((lineno or 1) - 1, 0, -1):
                if n in quoted:
                    continue
                earlier = lines[n - 1]
                header = _HEADER.fullmatch(earlier)
                if header:
                    table = header.group(1)
                    break
                same = re.match(r"\s*([\w.\-\"' ]+?)\s*=", earlier)
                if same and same.group(1) == name:
                    first = n  # going up: the last found is the first written
            whole = f"{table}.{name}" if table else name
            at = f" (first at line {first})" if first else ""
            return f"{whole} is given a value twice{at} (or a part of that name already holds one)"
    return message + _hint(message, text, lineno)


#: A line that begins something new, a header or a key: an array or table still open there was never closed. A line
#: that begins another item instead is a comma missing before it (tomli says "Unclosed array" of both).
_NEW_STATEMENT = re.compile(r"\[|#|[\w\"'.\- ]+=")
_OPENERS = {"Unclosed array": ("[", "]", re.compile(r"=\s*\[")),
            # a table is opened after a key or inside an array (effects = [ { set = "y" }, { give = "z" …)
            "Unclosed inline table": ("{", "}", re.compile(r"(?:[=\[,]|^)\s*\{"))}


def _opened_at(message: str, text: str, lineno: int | None) -> tuple[int, str] | None:
    """Where an array or inline table tomli found unclosed was opened, and its closing bracket: tomli names the line
    it reached (a GM's run: "line 81: Unclosed array" of the `[[…choices]]` header after `npcs = ["dog"` on line 79).
    The nearest line above that opens one (``= [``) and closes fewer than it opens; None if none does."""
    opener = _OPENERS.get(message)
    if opener is None or not lineno:
        return None
    open_, close, starts = opener
    lines = text.splitlines()
    quoted = _in_long_strings(lines)
    stopped = lines[lineno - 1].strip() if lineno <= len(lines) else ""
    if stopped and not _NEW_STATEMENT.match(stopped):  # an item: a comma missing before it, not the bracket
        return None
    for n in range(min(lineno, len(lines)), 0, -1):
        line = lines[n - 1]
        if n not in quoted and starts.search(line) and line.count(open_) > line.count(close):
            return n, close
    return None


def _in_long_strings(lines: list[str]) -> set[int]:
    """The numbers (from 1) of the lines inside a multi-line string (between triple quotes): a scan for a key
    or a header skips them, as a scene's text may hold "[A note]" or "title = x" (a review). Outside a text, a triple
    quote in a comment or in a one-line string opens nothing."""
    inside: set[int] = set()
    mark = None  # the triple quote of the text the scan is in
    for n, line in enumerate(lines, 1):
        if mark is not None:
            inside.add(n)
        i, quote = 0, None  # quote: the one-line string the scan is in
        while i < len(line):
            if mark is not None:
                end = line.find(mark, i)
                if end < 0:
                    break
                mark, i = None, end + 3
                continue
            ch = line[i]
            if quote is not None:
                if ch == "\\" and quote == '"':
                    i += 2
                    continue
                if ch == quote:
                    quote = None
            elif line.startswith(('"""', "'''"), i):
                mark, i = line[i:i + 3], i + 3
                continue
            elif ch in "\"'":
                quote = ch
            elif ch == "#":
                break
            i += 1
    return inside


def _hint(message: str, text: str, lineno: int | None) -> str:
    """What a terse TOML message most often means, said beside it: "Illegal character '\\n'" alone named the end
    of the line, not the quote missing before it (GM-tools review)."""
    lines = text.splitlines()
    line = lines[lineno - 1] if lineno and 0 < lineno <= len(lines) else ""
    if message == "Illegal character '\\n'" and ('"' in line or "'" in line):
        return " (a string is not closed on this line: a quote is missing, or text over several lines needs \"\"\")"
    if message in _OPENERS:
        return f" (a comma missing between two items, or the closing {_OPENERS[message][1]} missing)"
    if message == "Invalid value":
        return " (text needs quotes, as in title = \"The mill\"; true and false are written in lower case)"
    if message.startswith("Expected newline or end of document") and _QUOTE_IN_QUOTES.search(line):
        # a condition's "…" inside a text's "…" ends the text there (a GM's run: {if has("key")} in a label)
        return (" (a \" inside a \"…\" text ends the text: write the condition's text in single quotes, "
                "{if has('key')}, or put \\\" for each inner \")")
    return ""


#: A value in double quotes holding a double-quoted argument of a condition: ``text = "… {if has("key")} …"``.
_QUOTE_IN_QUOTES = re.compile(r'=\s*"[^"]*\{[^}"]*\("')


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _long_number_spot(text: str) -> tuple[int, int] | None:
    match = _LONG_NUMBER.search(text)
    return _position(text, match.start()) if match else None


def _long_key_spot(text: str) -> tuple[int, int] | None:
    start = 0
    for raw in text.splitlines(keepends=True):
        if raw.count(".") >= _KEY_PARTS_LIMIT - 1:
            return _position(text, start)
        start += len(raw)
    return None


def _deep_spot(text: str, limit: int) -> tuple[int, int] | None:
    """Where brackets and braces first nest deeper than ``limit``, skipping strings and comments."""
    depth = 0
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if ch in "\"'":
            triple = text.startswith(ch * 3, i)
            quote = ch * 3 if triple else ch
            j = i + len(quote)
            while j < n:
                if ch == '"' and text[j] == "\\":
                    j += 2
                    continue
                if text.startswith(quote, j) or (not triple and text[j] == "\n"):
                    break
                j += 1
            i = j + len(quote)
            continue
        if ch in "[{":
            depth += 1
            if depth > limit:
                return _position(text, i)
        elif ch in "]}":
            depth = max(0, depth - 1)
        i += 1
    return None
