"""``solo play --events FILE``: every engine event as JSON Lines, for tools and tests to read a game.

Each line is one JSON object: ``kind`` and the event's data, written and flushed
as the event happens, so a game cut short still leaves every line up to that
moment. Besides the engine's events the stream has a few lines of its own:

* ``stream``: a session starts writing (the adventure, the seed, whether it resumed a save);
* ``roll``: one line for every d100 roll against a target. A conflict's rolls are
  the engine's own ``roll`` events; for a skill roll, an opposed roll (one line a
  side), Quick's getaway, the oracle, a discovery check and a #Contact or #Lab request the stream
  adds a ``roll`` line after the event, with ``from`` naming that event. Every
  ``roll`` line has ``actor``, ``skill``, ``target``, ``modifiers``, ``face`` and
  ``success``, and ``chance_id``: the ``id`` of the ``chance`` line that showed
  the player this roll's chance (None when none was shown);
* ``undo``: the player stepped back one decision; the lines after it replace
  those since that decision, whose chance ids come again.

The file is opened to append (a resumed game goes on in the file it started) and is
never followed through a link; only a regular file is written.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import IO, Any

from ..events import Event
from ..paths import FileKind, PathError, file_in, path_problem

#: An events file solo wrote opens with the ``stream`` line of the session that made it.
EVENTS_FILE = FileKind("an event stream", starts=(b'{"kind": "stream"',))


class EventStreamError(Exception):
    """The events file cannot be opened or written: the message says why."""


def open_stream_file(path: Path) -> IO[str]:
    """``path`` opened to append, after the checks every file solo writes gets.

    The name must be one the file system can hold and lead to a file inside its
    folder; a link at the last step is refused (``O_NOFOLLOW``), and so is anything
    but a regular file (a FIFO or a device would block or swallow the stream).
    """
    problem = path_problem(path)
    if problem:
        raise EventStreamError(problem)
    try:
        path = file_in(path.parent, path.name, what="--events")
    except PathError as exc:
        raise EventStreamError(str(exc)) from None
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    flags |= getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        raise EventStreamError(f"cannot open {path}: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise EventStreamError(f"{path}: not a regular file")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "a", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise


def _jsonable(value: Any) -> Any:
    """What json cannot write itself: sets as sorted lists, anything else as its text."""
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    return str(value)


def roll_records(event: Event) -> list[dict[str, Any]]:
    """The ``roll`` lines a game event stands for (none for most events, two for an opposed roll).

    A conflict's ``roll`` event is already one and is written as it is.
    """
    k, e = event.kind, event
    if k == "skill_roll" and not e.get("automatic"):
        return [_roll(k, e["actor"], e["skill"], e["target"], e.get("modifiers"), e["roll"], e["success"],
                      e.get("chance_id"))]
    if k == "opposed_roll":
        out = []
        if not e.get("automatic") and e.get("roll") is not None:
            out.append(_roll(k, e["actor"], e["skill"], e["target"], e.get("modifiers"), e["roll"], e["success"],
                             e.get("chance_id")))
        out.append(_roll(k, e["opponent"], e["opponent_skill"], e["opponent_target"], e.get("opponent_modifiers"),
                         e["opponent_roll"], e["opponent_success"], None))
        return out
    if k == "leave_attempt":
        return [_roll(k, e["actor"], e.get("skill", "Move"), e["target"], e.get("modifiers"),
                      e.get("face", e["roll"]), e.get("first_success", e["success"]), e.get("chance_id"))]
    if k == "oracle":
        odds = e.get("odds") or {}
        chance = odds.get("chance", e.get("chance"))
        return [_roll(k, None, e.get("skill", "oracle"), chance, e.get("modifiers"), e["roll"],
                      str(e.get("answer", "")).startswith("yes"), e.get("chance_id"))]
    if k == "discovery":
        return [_roll(k, None, "discovery", e["chance"], e.get("modifiers"), e["roll"], bool(e.get("found")), None)]
    if k == "request" and e.get("roll") is not None:
        return [_roll(k, e["actor"], f"#{e['tag']}", e["chance"], [], e["roll"], e["granted"], None)]
    return []


def _roll(source: str, actor: str | None, skill: str, target: int, modifiers: Any, face: int, success: bool,
          chance_id: int | None) -> dict[str, Any]:
    mods = [[n, v] for n, v in (modifiers or ())]
    return {"kind": "roll", "from": source, "actor": actor, "skill": skill, "target": target,
            "base": target - sum(v for _, v in mods), "modifiers": mods, "face": face, "success": success,
            "chance_id": chance_id}


class EventStream:
    """A sink writing each event (and the ``roll`` lines it stands for) as a JSON line, flushed at once."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out

    @classmethod
    def open(cls, path: Path) -> EventStream:
        return cls(open_stream_file(path))

    def __call__(self, event: Event) -> None:
        self._write(event.to_dict())
        for record in roll_records(event):
            self._write(record)

    def note(self, kind: str, **data: Any) -> None:
        """A line of the stream's own (``stream``, ``undo``)."""
        self._write({"kind": kind, **data})

    def _write(self, record: dict[str, Any]) -> None:
        try:
            self.out.write(json.dumps(record, ensure_ascii=False, default=_jsonable) + "\n")
            self.out.flush()
        except OSError as exc:
            raise EventStreamError(f"cannot write the events file: {exc.strerror or exc}") from None

    def close(self) -> None:
        try:
            self.out.close()
        except OSError:
            pass
