"""Table-side commands contributed from outside the session: one registry, so help, dispatch and replay agree.

The session handles its own few commands (help, sheet, save, quit, undo, note,
recap, luck, the oracle); every other command a player may type at any prompt
(``threads``, ``npcs``, ``roll``, ``table``, ``meaning``…) is a :class:`TableCommand`
registered by a module listed in :data:`PROVIDERS`. A command that changes the
story records a meta entry in the save (``session.record(word, *args)``) and
gets it back through ``replay`` when the game is loaded or an undo replays it,
so loading a save rebuilds exactly what the player had.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..decisions import Question
    from .session import Session

#: Modules that register table commands when imported (each calls :func:`register`).
PROVIDERS: tuple[str, ...] = ("solo.ui.story_commands",)


@dataclass(frozen=True)
class TableCommand:
    word: str  # what the player types first, lower case
    help: str  # its line in the in-game help, e.g. "threads        the open threads of the story"; "" for an alias
    run: Callable[[Session, str, Question], None]  # (session, the rest of the line, the question asked)
    replay: Callable[[Session, list[Any]], None] | None = None  # re-applies a recorded entry's arguments
    needs_pcs: bool = False  # left out of help (and refused) in an adventure with pc = false


_REGISTRY: dict[str, TableCommand] = {}
_loaded = False


def register(command: TableCommand) -> TableCommand:
    if command.word in _REGISTRY and _REGISTRY[command.word] is not command:
        raise ValueError(f"table command {command.word!r} is registered twice")
    _REGISTRY[command.word] = command
    return command


def commands() -> dict[str, TableCommand]:
    """Every registered command by its word (the providers are imported on first use)."""
    global _loaded
    if not _loaded:
        _loaded = True
        for name in PROVIDERS:
            importlib.import_module(name)
    return _REGISTRY
