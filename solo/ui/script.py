"""Answers read from a ``--script`` file, each knowing the line it came from.

A script is strict: the session stops at the first answer that fits no option,
or table-side command that cannot be done, and names the file and line, rather
than feed the lines after it to questions they were never written for; lines
left over when the game ends are named too.
"""

from __future__ import annotations


class ScriptRefused(Exception):
    """A script's answer fits no option: the game stops there (``solo play`` exits 3)."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where


class Script:
    """The answers of a script, a line each: a blank line is Enter, a line starting with ``#`` a comment."""

    def __init__(self, name: str, lines: list[str]) -> None:
        self.name = name
        self.lines = lines
        self.line = 0  # the line of the last answer given (from 1); 0 before the first
        self.answers = 0  # answers given so far

    def __call__(self, prompt: str) -> str:
        while self.line < len(self.lines):
            self.line += 1
            text = self.lines[self.line - 1]
            if not text.lstrip().startswith("#"):
                self.answers += 1
                return text
        raise EOFError

    def unused(self) -> int | None:
        """The first line after the last answer that would have been an answer, if any.

        Blank lines and comments do not count: a script may end with either.
        """
        for number in range(self.line + 1, len(self.lines) + 1):
            text = self.lines[number - 1]
            if text.strip() and not text.lstrip().startswith("#"):
                return number
        return None

    def where(self) -> str:
        """``file:line`` of the last answer given."""
        return f"{self.name}:{self.line}"
