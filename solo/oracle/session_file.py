"""A named oracle session kept on disk, for players who roll their own dice beside a book.

``solo oracle``, ``solo table`` and ``solo scene`` forget everything between
two commands unless they are given ``--session NAME``: then tension, threads
and NPCs live in ``sessions/NAME.toml`` (beside the saves folder, or under
``$SOLO_HOME``), read before the command and written back after it. The state
is the game's own :class:`OracleState`, so the tension, the weights of the lists
and the threads' progress move by the same functions as in ``solo play``. An
entry listed two or three times in the file counts that many times. The file is plain TOML a player may edit, so it
is read as untrusted: size, list lengths and entry lengths are bounded, and a
broken file is reported with its name and line.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ContentError
from ..paths import PathError, default_saves, file_in, read_bounded, write_atomic
from ..terminal_text import CONTROL, LINE_BREAKS
from ..toml_files import loads_toml
from .likelihood import OracleError
from .state import MAX_WEIGHT, STATE_VERSION, TRACK, OracleState, ProgressStep

__all__ = ["SESSION_VERSION", "MAX_ENTRIES", "MAX_TEXT", "OracleSession", "sessions_folder", "session_path",
           "load_session", "save_session", "session_names", "pick_entry"]

SESSION_VERSION = 1
MAX_ENTRIES = 100  # open threads, and NPCs (each once, however often listed): more than a table can follow
MAX_TEXT = 200  # characters in one thread or NPC name
MAX_SCENES = 100_000
READ_LIMIT = 256_000  # bytes: a full session, every entry listed three times, is about 130 kB
SUFFIX = ".toml"
_FIELDS = {"version", "tension", "scenes", "closed", "threads", "npcs", "pcs", "context", "progress", "searched"}


def sessions_folder(saves: Path | None = None) -> Path:
    """``$SOLO_HOME/sessions`` if SOLO_HOME is set, else ``sessions/`` beside the saves folder."""
    home = os.environ.get("SOLO_HOME")
    if home and saves is None:
        return Path(home) / "sessions"
    base = saves if saves is not None else default_saves()
    return Path(os.path.abspath(base)).parent / "sessions"


def session_path(name: str, folder: Path) -> Path:
    """``folder/NAME.toml``; the name must be a plain name that keeps the file inside ``folder``."""
    stem = name.strip().removesuffix(SUFFIX)
    if not stem:
        raise PathError("a session needs a name, e.g. --session heist")
    return file_in(folder, stem + SUFFIX, what="the session name")


def session_names(folder: Path) -> list[str]:
    """The sessions kept in ``folder``, by name."""
    if not folder.is_dir():
        return []
    return sorted(p.name.removesuffix(SUFFIX) for p in folder.iterdir()
                  if p.name.endswith(SUFFIX) and not p.name.startswith(".") and p.is_file())


@dataclass
class OracleSession:
    """One session: its file, the oracle state and how many scenes were set up."""

    name: str
    path: Path
    state: OracleState = field(default_factory=OracleState)
    scenes: int = 0
    #: Whether the scene in play (the last set up, number ``scenes``) was closed with ``solo scene --end``: a
    #: second close of it moved the tension again and emptied the scene's searches again (a new player's run)
    closed: bool = False
    #: Read from no file: this command starts it (said at the foot of its answer, with a name it may have meant).
    new: bool = False
    #: What a command printed for this session must add to find it again (" --saves DIR" where the folder was given
    #: so): kept in no file (a group's evening: hints printed with --saves acted on ./sessions, another session).
    flags: str = ""

    def add_thread(self, text: str, *, again: bool = False) -> int:
        """Open a thread; with ``again`` one already open (its words in any case) counts once more. Its weight."""
        _check_entry(text, "a thread")
        if text.strip().isdigit():  # `--close 1984` reads a number: such a thread could never be named by its words
            raise OracleError(f"a thread needs words, not a number alone ({text.strip()[:12]!r}): every command "
                              "reads a number as a thread's place in the list")
        text = known_entry(self.state.threads, text)  # its words in another case are the same thread
        if len(self.state.threads) >= MAX_ENTRIES and text.strip() not in self.state.threads:
            raise OracleError(f"a session keeps at most {MAX_ENTRIES} open threads; close one first")
        return _weigh(self.state.add_thread, text, again)

    def add_npc(self, name: str, *, again: bool = False) -> int:
        """Add an NPC; with ``again`` one already there (their name in any case) counts once more. Their weight."""
        _check_entry(name, "an NPC's name")
        name = known_entry(self.state.npcs, name)  # "edda holm" is Edda Holm (a GM-less table: listed twice)
        if len(self.state.npcs) >= MAX_ENTRIES and name.strip() not in self.state.npcs:
            raise OracleError(f"a session keeps at most {MAX_ENTRIES} NPCs; remove one first")
        return _weigh(self.state.add_npc, name, again)

    def add_progress(self, which: str, points: int = 1) -> ProgressStep:
        """Move a thread (by number or the start of its words) along its track."""
        try:
            return self.state.add_progress(self.thread(which), points)
        except ValueError as exc:
            raise OracleError(str(exc)) from None

    def close_thread(self, which: str) -> str:
        """Close a thread by its number in the list (1 = first) or by its words; returns its text."""
        text = self.thread(which)
        self.state.close_thread(text)
        return text

    def thread(self, which: str) -> str:
        """An open thread by its number or the start of its words, read as ``threads close`` reads it in play."""
        try:
            return self.state.threads[self.state.thread_number(which) - 1]
        except ValueError as exc:
            raise OracleError(str(exc)) from None

    def set_context(self, text: str) -> None:
        """What the current scene is about: random events that name nobody follow it."""
        _check_entry(text, "what you expect of the scene")  # (a table read "the scene's context" as jargon)
        self.state.context = text.strip()

    def remove_npc(self, which: str) -> str:
        name = pick_entry(self.state.npcs, which, "NPC")
        self.state.remove_npc(name)
        return name

    def to_toml(self) -> str:
        from ..toml_write import dumps

        head = (f"# solo oracle session {self.name!r}: read and written by solo oracle, table, scene and session.\n"
                "# Edit it if you like: tension 1-9, threads and npcs are lists of text, and pcs the player\n"
                "# characters' names (no command sets it). solo writes the file whole each time, so comments\n"
                "# added here are not kept.\n")
        head += ("# An entry listed twice or three times counts that many times when one is picked at random;\n"
                 "# progress is each thread's points on its track of 10.\n")
        s = self.state
        data: dict[str, object] = {
            "version": SESSION_VERSION, "tension": s.tension, "scenes": self.scenes,
            "threads": [t for t in s.threads for _ in range(s.thread_weight(t))],
            "npcs": [n for n in s.npcs for _ in range(s.npc_weight(n))]}
        if s.pcs:
            data["pcs"] = s.pcs
        if s.context:
            data["context"] = s.context
        if self.closed:
            data["closed"] = True
        if s.searched:
            data["searched"] = s.searched
        if s.progress:
            data["progress"] = {t: s.progress[t] for t in s.threads if t in s.progress}
        return head + dumps(data)


def no_session(name: str, folder: Path, flags: str = "") -> str:
    """Why a command that needs the session NAME refuses: there is none, the kept one it may have meant, and how to
    start one by that name, said after the name meant (a group's evening: "did you mean 'ferry'?; start one with solo
    scene --session fery" recommended the slip)."""
    import shlex

    from ..errors import closest

    meant = closest(name, [n for n in session_names(folder) if n != name])
    start = f"solo scene \"…\" --session {shlex.quote(name)}{flags}"
    if meant:
        return f"no session {name!r} yet: did you mean {meant!r}? (to start one called {name!r}: {start})"
    return f"no session {name!r} yet; start one with {start}"


def load_session(name: str, folder: Path, *, must_exist: bool = False, flags: str = "") -> OracleSession:
    """The session NAME in ``folder``: a new one (tension 5, empty lists) if it has no file yet.

    Every problem is a :class:`ContentError` naming the file, and the line where there is one. ``flags``: what a
    command printed for it adds (:attr:`OracleSession.flags`).
    """
    path = session_path(name, folder)
    try:
        raw = read_bounded(path, READ_LIMIT)
    except FileNotFoundError:
        if must_exist:
            raise ContentError(no_session(path.stem, folder, flags), file=path) from None
        return OracleSession(path.stem, path, new=True, flags=flags)
    except PathError as exc:
        raise ContentError(str(exc).removeprefix(f"{path}: "), file=path) from None
    except OSError as exc:
        raise ContentError(f"cannot read the session: {exc.strerror or exc}", file=path) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ContentError("the session file is not UTF-8 text", file=path) from None
    data = loads_toml(text, file=path)
    session = _from_data(path, text, data)
    session.flags = flags
    return session


def save_session(session: OracleSession) -> None:
    """Write the session whole (an exclusive temporary file, then a rename), making its folder if needed."""
    try:
        session.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(session.path, session.to_toml())
    except OSError as exc:
        raise ContentError(f"cannot write the session: {exc.strerror or exc}", file=session.path) from None


# -- reading and checking ---------------------------------------------------------------------
def _from_data(path: Path, text: str, data: dict[str, object]) -> OracleSession:
    def fail(key: str, message: str) -> ContentError:
        return ContentError(message, file=path, path=key, line=_line_of(text, key))

    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise fail(unknown[0], f"unknown field {unknown[0]!r} (a session has: {', '.join(sorted(_FIELDS))})")
    version = data.get("version", SESSION_VERSION)
    if version != SESSION_VERSION:
        raise fail("version", f"session version {version!r} is not supported (this solo reads {SESSION_VERSION})")
    scenes = data.get("scenes", 0)
    if isinstance(scenes, bool) or not isinstance(scenes, int) or not 0 <= scenes <= MAX_SCENES:
        raise fail("scenes", f"scenes must be a whole number 0-{MAX_SCENES}, not {scenes!r}")
    closed = data.get("closed", False)
    if not isinstance(closed, bool):
        raise fail("closed", f"closed must be true or false, not {closed!r}")
    context = data.get("context", "")
    if not isinstance(context, str) or (context and _entry_problem(context)):
        raise fail("context", f"context must be one line of text up to {MAX_TEXT} characters")
    counts: dict[str, dict[str, int]] = {}
    for key in ("threads", "npcs", "pcs", "searched"):
        values = data.get(key, [])
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise fail(key, f"{key} must be a list of text, e.g. {key} = [\"…\"]")
        for value in values:
            problem = _entry_problem(value)
            if problem:
                raise fail(key, f"{key}: an entry {problem}")
        # an entry listed again counts again (threads and npcs), up to MAX_WEIGHT times
        counted = counts[key] = {}
        for value in values:
            counted[value.strip()] = counted.get(value.strip(), 0) + 1
        if len(counted) > MAX_ENTRIES:
            raise fail(key, f"{key} holds {len(counted)} entries; a session keeps at most {MAX_ENTRIES}")
        most = max(counted.items(), key=lambda kv: kv[1], default=("", 0))
        if key in ("threads", "npcs") and most[1] > MAX_WEIGHT:
            # (the path names the field: "npcs: npcs: 'Edda Holm' is listed 4 times" said it twice, a GM-less table)
            raise fail(key, f"{most[0]!r} is listed {most[1]} times; an entry counts at most {MAX_WEIGHT} times")
    progress = data.get("progress", {})
    if not isinstance(progress, dict):
        raise fail("progress", "progress must be a table of threads and their points, e.g. progress = { \"…\" = 3 }")
    for thread, points in progress.items():
        if thread.strip() not in counts["threads"]:
            raise fail("progress", f"progress: {thread!r} is not one of the threads")
        if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= TRACK:
            raise fail("progress", f"progress: {thread!r} must be a whole number 0-{TRACK}, not {points!r}")
    for thread in counts["searched"]:
        if thread not in counts["threads"]:
            raise fail("searched", f"searched: {thread!r} is not one of the threads")
    threads, npcs = counts["threads"], counts["npcs"]
    try:
        state = OracleState.from_dict({
            **{k: v for k, v in data.items() if k in ("tension", "context")},
            "version": STATE_VERSION, "threads": list(threads), "npcs": list(npcs), "pcs": list(counts["pcs"]),
            "weights": {"threads": {t: n for t, n in threads.items() if n > 1},
                        "npcs": {t: n for t, n in npcs.items() if n > 1}},
            "progress": {t.strip(): p for t, p in progress.items() if p},
            "searched": list(counts["searched"])})
    except (ValueError, OracleError) as exc:
        raise fail("tension", str(exc)) from None
    return OracleSession(path.stem, path, state, scenes, closed)


def _line_of(text: str, key: str) -> int | None:
    match = re.search(rf"^[ \t]*\"?{re.escape(key)}\"?[ \t]*=", text, re.MULTILINE)
    return text.count("\n", 0, match.start()) + 1 if match else None


def _entry_problem(value: str) -> str | None:
    if not value.strip():
        return "is empty"
    if len(value) > MAX_TEXT:
        return f"is {len(value)} characters long (at most {MAX_TEXT})"
    if not LINE_BREAKS.isdisjoint(value) or CONTROL.search(value):
        return "holds control characters (a new line, a tab, ESC, a direction override …)"
    return None


def known_entry(items: list[str], value: str) -> str:
    """The entry of ``items`` that ``value`` names, in any case; else ``value`` itself."""
    return next((item for item in items if item.casefold() == value.strip().casefold()), value)


def _weigh(add: Callable[..., int], value: str, again: bool) -> int:
    try:
        return add(value, again=again)
    except ValueError as exc:
        raise OracleError(str(exc)) from None


def _check_entry(value: str, what: str) -> None:
    problem = _entry_problem(value)
    if problem:
        raise OracleError(f"{what} {problem}")


def pick_entry(items: list[str], which: str, what: str) -> str:
    """An entry by its number as listed (1 = first), its text (any case) or the start of it where only one entry
    starts so, as a thread is picked ("--npc-gone maud" for Maud Hallam; a name with an emoji at its end had to be
    typed whole: a group's evening)."""
    which = which.strip()
    if which.isdigit():
        n = int(which)
        if 1 <= n <= len(items):
            return items[n - 1]
        listed = f"1-{len(items)}" if items else f"the session has no {what}s"
        raise OracleError(f"no {what} number {n} ({listed})")
    for item in items:
        if item.casefold() == which.casefold():
            return item
    starting = list(dict.fromkeys(item for item in items if which and item.casefold().startswith(which.casefold())))
    if len(starting) == 1:
        return starting[0]
    if starting:
        listed = ", ".join(f"{items.index(item) + 1}. {item}" for item in starting)
        raise OracleError(f"\u201c{which}\u201d starts more than one {what} ({listed}): give more of it, or its "
                          "number")
    listed = f" (its {what}s: {', '.join(dict.fromkeys(items))})" if items else ""
    raise OracleError(f"no {what} {which!r} in this session{listed}")
