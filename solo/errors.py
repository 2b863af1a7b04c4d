"""Errors a user is meant to read.

Anything that reaches the command line as a :class:`SoloError` is printed as one
line and never as a traceback; content errors name the file, the TOML path and
the line where we know it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: the command line imports this module at start-up
    from pathlib import Path


class SoloError(Exception):
    """A problem caused by what the user gave us (a file, an option, an answer)."""


class ContentError(SoloError):
    """A problem in a content file (a table, a template set, an adventure)."""

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = message
        self.file = str(file) if file is not None else None
        self.path = path
        self.line = line
        self.column = column
        #: More problems found in the same reading, after this one (a Code Block with two unknown entries): a
        #: checker that lists every problem lists these too (:meth:`every`).
        self.others: list[ContentError] = []
        super().__init__(str(self))

    def every(self) -> list[ContentError]:
        """This problem and the others found with it, in the order found."""
        return [self, *self.others]

    def __str__(self) -> str:
        where = self.file or "<content>"
        if self.line:
            where += f":{self.line}"
            if self.column:
                where += f":{self.column}"
        if self.path:
            return f"{where}: {self.path}: {self.message}"
        return f"{where}: {self.message}"


def closest(word: object, known: Iterable[object]) -> str | None:
    """The known name a misspelt one most likely means, or None."""
    import difflib  # only when a name is misspelt: not at every start-up

    close = difflib.get_close_matches(str(word), [str(k) for k in known], n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(word: object, known: Iterable[object]) -> str:
    """A ' (did you mean X?)' hint for a misspelt name, or ''. A name cut short ("intro" for introduction) is offered
    the one it begins (a GM's run got the list of fields and no hint, where the docs promise one): in the hint only,
    never in :func:`closest`, which callers act on (an oracle's "(sure)" would become "sure thing": a review)."""
    names = [str(k) for k in known]
    close = closest(word, names)
    if close is None:
        typed = str(word).lower()
        begun = [n for n in names if len(typed) >= 3 and n.lower().startswith(typed)]
        close = begun[0] if len(begun) == 1 else None
    return f" (did you mean {close!r}?)" if close is not None else ""


class OutputGone(Exception):
    """Standard output cannot be written any more (a closed pipe, a full disk): not a bug, not the user's
    mistake. A game saves and stops on it; the command line ends quietly (``solo.cli.output``)."""

    def __init__(self, cause: OSError) -> None:
        self.errno = cause.errno
        self.strerror = cause.strerror or str(cause)
        self.note = ""  # what became of the work under way (a game: saved or not), for the one line on stderr
        super().__init__(self.strerror)


def describe(value: object) -> str:
    """A value as an author wrote it, for "expected X, got Y": TOML's words, never Python's (a bad-input audit
    read "got True" and "got datetime.date(1979, 5, 27)")."""
    import datetime

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"text {value!r}"
    if isinstance(value, (datetime.date, datetime.time)):  # (a datetime is a date)
        return f"a date or time ({value.isoformat()})"
    if isinstance(value, float):
        return f"the number {value:g}"
    return repr(value)


def unquoted(value: object, key: str) -> str:
    """For a number written in quotes (``tension = "5"``), the fix said beside an "expected a whole number": TOML's
    quotes are the slip, not the number (a GM's run). Nothing for any other value."""
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return f" (write it without quotes: {key} = {value.strip()})"
    return ""
