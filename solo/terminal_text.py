"""Which characters of untrusted text a terminal would act on rather than show, in one place.

Adventures, tables, conflict types, characters, saves, sessions and typed answers all reach the screen;
each is checked (or cleaned) against the same set, so that a file cannot clear the screen, retitle the
window, fake a menu or turn the line around in one command and pass in another.
"""

from __future__ import annotations

import re
from typing import Any

#: C0 controls but tab and line breaks, DEL, C1 (U+009B is an 8-bit CSI), and the bidirectional
#: embeddings, overrides and isolates, which reorder what follows them on the line (U+202A to U+202E,
#: U+2066 to U+2069). Right-to-left letters need none of them: the terminal orders those itself.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

#: What a terminal acts on (C0 but tab and line breaks, DEL, C1), without the direction marks: the test for text an
#: earlier solo wrote itself into a save or a character file, where typed text kept them (its ``clean_typed`` stripped
#: these alone), so that such a save still loads. A direction mark reorders a line; it runs no command.
ACTS_ON_TERMINAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")

#: Characters that break a name over lines: a name is one line.
LINE_BREAKS = frozenset("\n\r\t\u2028\u2029")

#: The TOML and JSON escapes that can make a control character out of visible text: \b, \f, the \u and \U
#: numbers, and TOML 1.1's \e (ESC) and \xHH.
_ESCAPED_CONTROL = re.compile(r"\\[bfeuUx]")

#: What the problem is, in the words every file's message uses.
CONTROL_HELD = ("holds a control character (ESC, NUL, a direction override …) that a terminal would act on rather "
                "than show")
CONTROL_PROBLEM = f"{CONTROL_HELD}: remove it"


def may_hold_control(text: str) -> bool:
    """Whether any value read from the file ``text`` can hold a control character: one written as it is, or an
    escape that may make one. Most files have neither, and a look at the text costs far less than a walk."""
    return CONTROL.search(text) is not None or _ESCAPED_CONTROL.search(text) is not None


def controlled(data: Any, path: str = "", limit: int = 20, *, pattern: re.Pattern[str] = CONTROL) -> list[str]:
    """The key paths of text values in ``data`` that hold a control character (``pattern``), at most ``limit``.
    Nearly every file holds none: a walk that names no path says so first (a character is read at every game's
    start and every copy: the paths cost twice the rest of its reading)."""
    if not _holds(data, pattern):
        return []
    found: list[str] = []
    stack: list[tuple[str, Any]] = [(path, data)]
    while stack and len(found) < limit:
        where, value = stack.pop()
        if isinstance(value, str):
            if pattern.search(value):
                found.append(where)
        elif isinstance(value, dict):  # (keys are names, each checked where it is looked up)
            stack.extend((f"{where}.{k}" if where else str(k), v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((f"{where}[{i}]", v) for i, v in reversed(list(enumerate(value))))
    return found


#: Bounds of the free text in a character's or an NPC's file (docs/limits.md): a field of 300,000 characters was
#: read and printed whole by `sheet` and `solo duel` (an architecture audit); no sheet line needs a tenth of this.
MAX_FREE_TEXT = 2_000  # characters in one text value
MAX_ENTRIES = 500  # entries in one list or table


def overlong(data: Any, path: str = "") -> tuple[str, str] | None:
    """The first text value in ``data`` longer than :data:`MAX_FREE_TEXT`, or list or table with more than
    :data:`MAX_ENTRIES` entries: (its key path, what is wrong), or None."""
    stack: list[tuple[str, Any]] = [(path, data)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, str):
            if len(value) > MAX_FREE_TEXT:
                return where, f"at most {MAX_FREE_TEXT:,} characters, not {len(value):,}"
        elif isinstance(value, dict | list):
            if len(value) > MAX_ENTRIES:
                return where, f"at most {MAX_ENTRIES} entries, not {len(value):,}"
            items = value.items() if isinstance(value, dict) else enumerate(value)
            stack.extend((f"{where}.{k}" if isinstance(value, dict) and where else
                          str(k) if isinstance(value, dict) else f"{where}[{k}]", v) for k, v in items)
    return None


def _holds(data: Any, pattern: re.Pattern[str]) -> bool:
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if pattern.search(value):
                return True
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


def inert(text: str) -> str:
    """``text`` with every control character shown as U+FFFD: for text that is shown whatever it holds."""
    return CONTROL.sub("\ufffd", text)


def visible(text: str) -> bool:
    """Whether ``text`` shows anything: a name of spaces or zero-width characters alone names nobody."""
    return any(ch.isprintable() and not ch.isspace() and ch not in _INVISIBLE for ch in text)


def name_problem(name: str) -> str | None:
    """Why ``name`` is no name to show, or None: one line, nothing a terminal acts on, something that shows. The one
    rule for a character's name and an NPC's typed one (a no-break space or a zero-width non-joiner inside a name is
    the name's own: `isprintable` refused them)."""
    if not LINE_BREAKS.isdisjoint(name):
        return "a name is one line (no line break or tab)"
    if ACTS_ON_TERMINAL.search(name):
        return CONTROL_HELD
    if not visible(name):
        return "a name must show (not spaces or zero-width characters alone)"
    return None


#: Printable by Python's reckoning yet drawn as nothing.
_INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\ufeff\u180e\u3164\u115f\u1160\uffa0")


#: Characters of an error message shown: whatever a user typed and a message quotes, the line stays readable.
MESSAGE_LIMIT = 600


def one_line(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """A message as one inert line of at most ``limit`` characters: what an error quotes of a file or of what was
    typed (a 1,000-digit number, an ESC) cannot flood the screen or act on it."""
    line = " ".join(inert(message).split())
    return line if len(line) <= limit else line[:limit - 1] + "…"
