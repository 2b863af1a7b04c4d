"""Answers read line by line from a file or a stream (``--script``, piped input, tests)."""

from __future__ import annotations

from collections.abc import Iterable

from ..decisions import Question, QuestionError
from ..errors import SoloError


class ScriptError(SoloError):
    pass


class ScriptExhausted(ScriptError):
    """The script ran out of answers before the game asked its last question."""


class ScriptedDecider:
    """Answers the next question with the next non-blank, non-comment line.

    A wrong answer is an error naming the script's line, so a broken script
    fails loudly instead of drifting into a different game.
    """

    # its lines come from whoever reads the file (solo play --script reads it bounded, cli/play.py): the minds do
    # no I/O (an architecture audit found a reader here that no bound held)
    def __init__(self, lines: Iterable[str], *, name: str = "<script>"):
        self.name = name
        self._lines = [(i, line.rstrip("\n")) for i, line in enumerate(lines, 1)]
        self._pos = 0

    @property
    def remaining(self) -> int:
        return sum(1 for _, line in self._lines[self._pos:] if _is_answer(line))

    def decide(self, question: Question) -> str:
        while self._pos < len(self._lines):
            number, line = self._lines[self._pos]
            self._pos += 1
            if not _is_answer(line):
                continue
            try:
                return question.resolve(line)
            except QuestionError as exc:
                raise ScriptError(f"{self.name}:{number}: {exc} (question: {question.prompt})") from None
        raise ScriptExhausted(f"{self.name}: no answer left for: {question.prompt}")


def _is_answer(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")
