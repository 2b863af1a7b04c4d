"""Typing answers like in a modern shell: line editing, up-arrow history and Tab completion.

It uses the standard ``readline`` module (GNU readline or libedit), so solo needs
no new dependency; where there is none (Windows without pyreadline) or standard
input is not a terminal, solo reads lines as before and this module is not used,
which keeps scripted and piped play exactly as it was.

History is kept per saves folder in one small file (``.solo_history``), read and
written by solo itself (bounded in lines and bytes, written whole through
:func:`solo.paths.write_atomic`) rather than by readline's own history functions,
whose file formats differ between readline and libedit. Tab completes the
in-game words (help, sheet, note …, and every registered table command), the
labels of the options of the question being asked, and after ``table `` the names
of the random tables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from ..decisions import MAX_ANSWER

if TYPE_CHECKING:
    from ..decisions import Decider, Question

HISTORY_NAME = ".solo_history"
HISTORY_LINES = 500  # lines kept from one session to the next
HISTORY_BYTES = 200_000  # a history file larger than this is not read (solo never writes one)
HISTORY_LINE_MAX = 200  # characters: a longer line (pasted text) is not kept
SESSION_WORDS = ("help", "sheet", "note", "recap", "luck", "save", "quit", "undo")
#: Commands that take nothing after them; Tab completes every other command with a space, ready for what follows.
WHOLE_WORDS = frozenset({"help", "recap", "save", "quit", "undo", "items", "clues"})


def table_words() -> list[str]:
    """Every word a player may type first at any prompt: the session's own and the registered table commands."""
    from .table_commands import commands

    return sorted(set(SESSION_WORDS) | set(commands()))


def table_names() -> list[str]:
    """What may follow ``table``: the names of the tables every game has (and SOLO_TABLES'), and ``list``.

    A game whose adventure brings tables of its own sets them with :meth:`LineInput.follow`.
    """
    from ..errors import SoloError
    from ..oracle.loader import load_tables

    try:
        names = load_tables().names()
    except (SoloError, OSError):
        names = []  # a broken table folder is reported when a table is rolled, not at Tab
    return ["list", *sorted(names)]


def load_readline() -> ModuleType | None:
    """The ``readline`` module, or None where this Python has none."""
    try:
        import readline
    except ImportError:
        return None
    return readline


class LineInput:
    """A reader for the terminal: ``reader(prompt)`` returns one edited line, with history and completion.

    ``words`` gives the commands to complete (read when Tab is first pressed, so building the reader
    costs nothing at start-up); :meth:`offer` sets the labels of the question being asked.
    """

    def __init__(self, history: Path | None, *, readline: ModuleType | None = None,
                 words: Callable[[], Iterable[str]] = table_words) -> None:
        self.rl = readline if readline is not None else load_readline()
        self.history = history
        self._words_of = words
        self._words: list[str] | None = None
        self.answers: list[str] = []  # the current question's option labels
        self._matches: list[str] = []
        # what may follow a command word, read when Tab is first pressed after it
        self._after: dict[str, Callable[[], Iterable[str]]] = {"table": table_names}
        self._after_read: dict[str, list[str]] = {}
        self.problem: str | None = None  # why the history could not be written, once
        if self.rl is not None:
            self.rl.set_completer(self.complete)
            self.rl.set_completer_delims("")  # the whole line is completed: labels hold spaces
            if "libedit" in (getattr(self.rl, "__doc__", "") or ""):
                self.rl.parse_and_bind("bind ^I rl_complete")
            else:
                self.rl.parse_and_bind("tab: complete")
            self.rl.set_history_length(HISTORY_LINES)
            self._read_history()

    # -- reading ------------------------------------------------------------------------
    def __call__(self, prompt: str) -> str:
        line = input(prompt)  # readline edits it; EOFError and KeyboardInterrupt go up
        if self.rl is not None:
            self._keep(line)
        return line

    def offer(self, question: Question) -> None:
        """Complete the answers of ``question`` (its option labels) until the next one is asked."""
        from .prompt import one_line

        self.answers = [one_line(o.label) for o in question.options]

    def follow(self, word: str, names: Callable[[], Iterable[str]]) -> None:
        """Complete what follows the command ``word`` from ``names`` (asked once, at the first Tab after it)."""
        self._after[word] = names
        self._after_read.pop(word, None)

    # -- completion ---------------------------------------------------------------------
    def candidates(self, text: str) -> list[str]:
        """What ``text`` (the line so far) may become: a command, an answer, or what follows a command
        (``table lo`` -> ``table location``), matched without case."""
        word, space, rest = text.partition(" ")
        if space and word.lower() in self._after and " " not in rest.strip():
            if word.lower() not in self._after_read:
                self._after_read[word.lower()] = list(self._after[word.lower()]())
            start = rest.lstrip().lower()
            answers = [label for label in self.answers if label.lower().startswith(text.lower())]
            return [*answers, *(f"{word} {name}" for name in self._after_read[word.lower()]
                                if name.lower().startswith(start))]
        if self._words is None:
            self._words = list(self._words_of())
        lowered = text.lower()
        seen: dict[str, None] = {}
        for word in self.answers:
            if word.lower().startswith(lowered):
                seen[word] = None
        for word in self._words:  # a command that takes more comes with its space (readline adds none)
            if word.lower().startswith(lowered) and len(text) <= len(word):
                seen[word if word in WHOLE_WORDS else word + " "] = None
        return list(seen)

    def complete(self, text: str, state: int) -> str | None:
        """readline's completer: the ``state``-th candidate for ``text``, or None when there are no more."""
        if state == 0:
            self._matches = self.candidates(text)
        return self._matches[state] if state < len(self._matches) else None

    # -- history ------------------------------------------------------------------------
    def _read_history(self) -> None:
        from ..paths import PathError, read_bounded

        if self.history is None or self.rl is None:
            return
        try:
            raw = read_bounded(self.history, HISTORY_BYTES)
        except (OSError, PathError):
            return  # none yet, or not one solo wrote: start without history
        for line in raw.decode("utf-8", errors="replace").splitlines()[-HISTORY_LINES:]:
            if _keepable(line):
                self.rl.add_history(line)

    def _keep(self, line: str) -> None:
        """readline added the line to its history; drop what is not worth recalling, then write the file."""
        rl = self.rl
        if rl is None:
            return
        size = rl.get_current_history_length()
        last = rl.get_history_item(size) if size else None
        if last == line and (not _keepable(line) or (size > 1 and rl.get_history_item(size - 1) == line)):
            rl.remove_history_item(size - 1)  # not kept, or the same as the line before
        self._write_history()

    def _write_history(self) -> None:
        from ..paths import write_atomic

        if self.history is None or self.rl is None:
            return
        rl = self.rl
        size = rl.get_current_history_length()
        lines = [rl.get_history_item(i) for i in range(max(1, size - HISTORY_LINES + 1), size + 1)]
        text = "".join(f"{line}\n" for line in lines if line and _keepable(line))
        try:
            self.history.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.history, text)
        except OSError as exc:
            self.problem = self.problem or f"cannot keep the answer history in {self.history}: {exc.strerror or exc}"


def _keepable(line: str) -> bool:
    return bool(line.strip()) and len(line) <= HISTORY_LINE_MAX and line.isprintable()


class Offering:
    """A Decider that tells the line reader each question before passing it on, so Tab knows its answers."""

    def __init__(self, inner: Decider, reader: LineInput) -> None:
        self.inner = inner
        self.reader = reader

    def decide(self, question: Question) -> str:
        self.reader.offer(question)
        return self.inner.decide(question)

    def upcoming(self) -> str | None:
        """What the inner decider says of its next recorded answer (a replayed save), as if unwrapped."""
        inner = getattr(self.inner, "upcoming", None)
        return inner() if callable(inner) else None


#: Characters of one piped line kept and looked at; the rest of a longer line is read and dropped.
PIPED_LINE_CHARS = 4 * MAX_ANSWER + 2
#: Characters read without a line break before piped input counts as ended (``< /dev/zero``).
PIPED_LINE_LIMIT = 64_000_000


def piped_line(prompt: str = "") -> str:
    """One line of input that is not a terminal, read in bounded pieces: an endless line is cut, not kept,
    and one of more than :data:`PIPED_LINE_LIMIT` characters ends the input (``EOFError``).

    What is kept is still longer than any answer may be, so the prompt refuses it with one line.
    """
    import sys

    if sys.stdin is None:
        raise EOFError
    line = sys.stdin.readline(PIPED_LINE_CHARS)
    if not line:
        raise EOFError
    if not line.endswith("\n"):
        rest, read = line, len(line)
        while len(rest) == PIPED_LINE_CHARS and not rest.endswith("\n"):  # drop the rest, a piece at a time
            if read > PIPED_LINE_LIMIT:  # no answer, and no end in sight
                raise EOFError
            rest = sys.stdin.readline(PIPED_LINE_CHARS)
            read += len(rest)
    return line.rstrip("\n")
