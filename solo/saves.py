"""Saves that lose nothing: versioned, atomic, replayable.

A save is the seed, the log of every decision and the adventure's content
hash, plus a snapshot of the state (so ``solo saves`` can say where a game stands).
Loading replays the log through the engine, so a game resumes exactly where
it stopped with the same future dice; undo is the same replay minus the last
decision. Files are JSON with sorted keys, written to a temporary file
(created exclusively, under a name nobody can guess), flushed and renamed over
the old save, whose previous version stays as a ``.bak`` backup. A save is read
only if it is a regular file no larger than :data:`MAX_SAVE_BYTES`.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .decisions import ASKED_NO_MORE, DEFAULTED_IN_OLD_SAVES, MAX_ANSWER, Decider, Question
from .errors import SoloError
from .json_files import JSONRefused
from .json_files import loads as loads_json
from .paths import PathError, read_bounded, write_atomic
from .terminal_text import ACTS_ON_TERMINAL, CONTROL_HELD, controlled

if TYPE_CHECKING:
    import random

SAVE_FORMAT = "solo-save"
SAVE_VERSION = 1
MAX_SAVE_BYTES = 16_000_000  # a long campaign's log is well under 1 MB
MAX_ENTRY_PARTS = 8  # an entry of the log: "a", its kind and the answer; "m", its kind and a few words
#: Entries of a decision log: a long campaign makes a few thousand, and loading replays each (a third of a
#: millisecond apiece), so a save cannot hold a replay of minutes.
MAX_LOG_ENTRIES = 20_000

# One decision-log entry: ["a", question kind, answer] or ["m", meta kind, *payload], all text.
LogEntry = list[str]


class SaveError(SoloError):
    """A save that cannot be read or does not fit; the message names the file."""

    def __init__(self, message: str, *, path: Path | None = None, backup: Path | None = None) -> None:
        self.path = path
        self.backup = backup
        super().__init__(message)


class SaveWriteError(SaveError):
    """The save could not be written (a full disk, a folder that cannot be written): the old one is intact."""


class SaveMismatch(SoloError):
    """Replaying a log asked a different question than the one recorded."""


@dataclass
class SaveData:
    adventure_id: str
    adventure_source: str
    adventure_hash: str
    seed: int
    log: list[LogEntry] = field(default_factory=list)
    party: list[dict[str, Any]] | None = None  # characters given at the start (--pc, --party), if any
    snapshot: dict[str, Any] | None = None
    label: str = ""
    options: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "adventure": {"id": self.adventure_id, "source": self.adventure_source, "hash": self.adventure_hash},
            "seed": self.seed,
            "log": self.log,
            "party": self.party,
            "snapshot": self.snapshot,
            "label": self.label,
            "options": self.options,
        }

    @classmethod
    def from_dict(cls, data: object, *, path: Path | None = None) -> SaveData:
        where = f"{path}: " if path else ""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveError(f"{where}this is not a solo save", path=path)
        if data.get("version") != SAVE_VERSION:
            raise SaveError(f"{where}save format version {data.get('version')!r} is not supported "
                            f"(this solo reads version {SAVE_VERSION})", path=path)
        try:
            adv = data["adventure"]
            log = data["log"]
            if not isinstance(log, list) or not all(_valid_entry(e) for e in log):
                raise ValueError("the decision log is damaged")
            if len(log) > MAX_LOG_ENTRIES:
                raise ValueError(f"the decision log has {len(log):,} entries; at most {MAX_LOG_ENTRIES:,}")
            # what was typed was cleaned when it was, but an earlier solo let direction marks through: not those
            for field_path in controlled(data, limit=1, pattern=ACTS_ON_TERMINAL):
                raise ValueError(f"{field_path} {CONTROL_HELD}")
            longest = max((len(x) for e in log for x in e), default=0)
            if longest > MAX_ANSWER:
                raise ValueError(f"an answer in the decision log is {longest:,} characters long; "
                                 f"at most {MAX_ANSWER:,}")
            seed = data["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise ValueError("the seed is not a number")
            if not 0 <= seed <= MAX_SAVED_SEED:  # (a 900-digit seed was copied into the journal's front matter)
                raise ValueError(f"the seed is not one solo plays: 0 to {MAX_SAVED_SEED:,}, not {str(seed)[:24]}"
                                 + ("…" if len(str(seed)) > 24 else ""))
            party = data.get("party")
            if party is not None and not (isinstance(party, list) and all(isinstance(p, dict) for p in party)):
                raise ValueError("the party is damaged")
            snapshot = data.get("snapshot")
            if snapshot is not None and not (
                isinstance(snapshot, dict) and isinstance(snapshot.get("party", []), list)
                and all(isinstance(p, dict) and isinstance(p.get("name", ""), str)
                        for p in snapshot.get("party", []))
            ):
                raise ValueError("the snapshot is damaged")
            if not isinstance(data.get("label", ""), str):
                raise ValueError("the label is not text")
            names = [len(p.get("name", "")) for p in (snapshot or {}).get("party", [])]
            if max(names, default=0) > MAX_ANSWER:
                raise ValueError(f"a name in the snapshot is {max(names):,} characters long; at most {MAX_ANSWER:,}")
            if len(data.get("label", "")) > MAX_ANSWER:
                raise ValueError(f"the label is longer than {MAX_ANSWER:,} characters")
            if not isinstance(data.get("options") or {}, dict):
                raise ValueError("the options are damaged")
            edition = (data.get("options") or {}).get("edition", 0)
            if not isinstance(edition, int) or isinstance(edition, bool) or edition < 0:
                raise ValueError(f"the edition of play it names, {edition!r:.20}, is not a whole number")
            return cls(
                adventure_id=str(adv["id"]), adventure_source=str(adv["source"]), adventure_hash=str(adv["hash"]),
                seed=seed, log=log, party=party, snapshot=data.get("snapshot"),
                label=str(data.get("label", "")), options=dict(data.get("options") or {}),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            if isinstance(exc, ValueError) and exc.args:
                reason = exc.args[0]
            elif isinstance(exc, KeyError):
                reason = f"the field {exc.args[0]!r} is missing" if exc.args else "a field is missing"
            else:  # a list where a table belongs, a number where text does …
                reason = "a field holds the wrong kind of value"
            raise SaveError(f"{where}damaged save: {reason}", path=path) from None


def _valid_entry(entry: object) -> bool:
    if not isinstance(entry, list) or not 3 <= len(entry) <= MAX_ENTRY_PARTS or entry[0] not in ("a", "m"):
        return False
    return all(isinstance(x, str) for x in entry)


def backup_of(path: Path) -> Path:
    return path.with_name(path.name + ".bak") if path.name else path


def write_save(path: Path, data: SaveData, *, new: bool = False) -> None:
    """Write atomically; the previous save becomes the backup. A crash leaves one of the two intact.

    ``new`` creates the save of a new game: exclusively, so that ``FileExistsError`` (not a
    :class:`SaveWriteError`) says another game took the slot first. Raises
    :class:`SaveWriteError` naming the file and the reason when the save could not be written;
    the file then still holds the previous save.
    """
    text = json.dumps(data.to_dict(), sort_keys=True, indent=1, ensure_ascii=False)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if new:
            write_atomic(path, text, durable=True, exclusive=True)
            return
        _keep_backup(path)
        write_atomic(path, text, durable=True)
    except FileExistsError:
        if new:
            raise
        raise SaveWriteError(f"cannot write the save {path}: a file appeared in its place", path=path) from None
    except OSError as exc:
        raise SaveWriteError(f"cannot write the save {path}: {exc.strerror or exc}", path=path) from None
    except UnicodeError:  # a byte the terminal could not decode, kept as a lone surrogate
        raise SaveWriteError(f"cannot write the save {path}: it holds text that is not valid UTF-8",
                             path=path) from None
    except PathError as exc:  # the old save, copied to the backup, turned out not to be one
        raise SaveWriteError(f"cannot write the save {path}: {exc}", path=path) from None


def _keep_backup(path: Path) -> None:
    """The save about to be replaced becomes ``NAME.json.bak`` (links are not followed)."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(st.st_mode):
        return
    bak = backup_of(path)
    try:
        tmp_link = path.with_name(f".{os.urandom(8).hex()}.bak.tmp")
        os.link(path, tmp_link, follow_symlinks=False)  # fails if the name exists: nothing is written through
    except OSError:
        write_atomic(bak, read_bounded(path, MAX_SAVE_BYTES))
        return
    try:
        os.replace(tmp_link, bak)
    finally:  # a rename onto another link to the same file does nothing and leaves the name behind
        tmp_link.unlink(missing_ok=True)


#: The seeds a save may hold: those `--seed` takes (solo.cli.limits.MAX_SEED; a test holds the two equal).
MAX_SAVED_SEED = 2**63 - 1


def backup_offered(path: Path) -> Path | None:
    """The save's backup, where it is there."""
    backup = backup_of(path)
    return backup if _is_file(backup) else None


def backup_hint(path: Path) -> str:
    """" A backup exists: load it with --load PATH.bak", where the save's backup is there ("" where not): said by
    every message of a save that cannot be read or replayed."""
    return _offered(backup_offered(path))


def _offered(backup: Path | None) -> str:
    return f" A backup exists: load it with --load {backup}" if backup else ""


def read_save(path: Path) -> SaveData:
    offer = backup_offered(path)
    hint = _offered(offer)
    try:
        raw = read_bounded(path, MAX_SAVE_BYTES).decode("utf-8")
    except FileNotFoundError:
        raise SaveError(f"{path}: no such save.{hint or ' solo saves lists the saves there are.'}", path=path,
                        backup=offer) from None
    except PathError as exc:
        raise SaveError(f"{exc}: not a save.{hint}", path=path, backup=offer) from None
    except UnicodeDecodeError:
        raise SaveError(f"{path}: the save is corrupt (not UTF-8 text).{hint}", path=path, backup=offer) from None
    except OSError as exc:
        raise SaveError(f"{path}: cannot read the save ({exc.strerror or exc}).{hint}", path=path,
                        backup=offer) from None
    try:
        data = loads_json(raw)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path}:{exc.lineno}: the save is corrupt ({exc.msg}).{hint}", path=path,
                        backup=offer) from None
    except JSONRefused as exc:
        raise SaveError(f"{path}: the save is corrupt ({exc}).{hint}", path=path, backup=offer) from None
    try:
        return SaveData.from_dict(data, path=path)
    except SaveError as exc:
        raise SaveError(f"{exc}.{hint}" if hint else str(exc), path=path, backup=offer) from None
    except RecursionError:
        raise SaveError(f"{path}: damaged save: nested too deeply.{hint}", path=path, backup=offer) from None


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:
        return False


def list_saves(folder: Path) -> list[tuple[Path, SaveData | None, str]]:
    """Every save in ``folder`` with its data, or None and the reason it cannot be read."""
    out: list[tuple[Path, SaveData | None, str]] = []
    if not folder.is_dir():
        return out
    for path in sorted(folder.glob("*.json")):  # a bad file is listed with its reason; the others still are
        try:
            out.append((path, read_save(path), ""))
        except SaveError as exc:
            out.append((path, None, str(exc)))
    return out


# -- recording and replaying decisions -------------------------------------------------------
class Recorder:
    """Wraps the live decider and keeps every answer in the log, in order.

    Given the game's generator (``dice``), it also notes the generator's state as each answer is
    given, so that an undo can tell how many dice were drawn since the answer it takes back
    and keep them spent.
    """

    def __init__(self, inner: Decider, log: list[LogEntry], dice: random.Random | None = None) -> None:
        self.inner = inner
        self.log = log
        self.dice = dice
        self.answered: Any = None  # the generator's state when the last answer was given

    def decide(self, question: Question) -> str:
        answer = self.inner.decide(question)
        if question.options:  # free text is kept as typed
            answer = question.resolve(answer)
        if self.dice is not None:
            self.answered = self.dice.getstate()
        self.log.append(["a", question.kind, answer])
        return answer

    def meta(self, kind: str, *payload: str) -> None:
        self.log.append(["m", kind, *payload])

    def upcoming(self) -> str | None:
        """The kind of the next recorded answer still to replay (None when play is live): open play asks it
        to tell a save from before a question existed."""
        inner = getattr(self.inner, "upcoming", None)
        return inner() if callable(inner) else None


def _not_an_option(answer: str, question: Question) -> str:
    """Why a recorded answer no longer fits its question, in the player's terms where solo knows them."""
    if answer.startswith("roster:"):  # roster:FILE@DIGEST (solo.characters.RosterEntry.key)
        stem = answer.removeprefix("roster:").split("@", 1)[0]
        return (f"this game began with the roster character {stem!r} as it was then, and that character has "
                f"changed since (it finished another game), so the game cannot be replayed as it was played; "
                f"start a new one with --pc {stem}")
    return f"the saved answer {answer!r} is not an option of {question.prompt!r}"


class Replayer:
    """Answers from a recorded log first, then hands over to the live decider.

    ``on_meta`` re-performs table-side actions (oracle questions, notes) at the
    point they were made; ``on_live`` is called once, when the log runs out.
    """

    def __init__(self, entries: list[LogEntry], live: Decider, *, on_meta: Callable[[LogEntry], None],
                 on_live: Callable[[], None] | None = None,
                 on_answer: Callable[[Question, str], None] | None = None) -> None:
        self.entries = entries
        self.pos = 0
        self.live = live
        self.on_meta = on_meta
        self.on_live = on_live
        self.on_answer = on_answer  # told each question the log answers, with its answer
        self.live_now = not entries

    def decide(self, question: Question) -> str:
        # table-side commands, and the answers a save from when they were still asked holds to questions the game
        # no longer asks here (they change nothing now), passed in one loop: a save is the player's file, and any
        # number of them may stand in a row
        while self.pos < len(self.entries):
            entry = self.entries[self.pos]
            if entry[0] == "m":
                self.on_meta(entry)
            elif not (entry[0] == "a" and entry[1] != question.kind and entry[1] in ASKED_NO_MORE):
                break
            self.pos += 1
        if self.pos < len(self.entries):
            entry = self.entries[self.pos]
            before = DEFAULTED_IN_OLD_SAVES.get(question.kind) or question.default
            if entry[1] != question.kind and question.kind in DEFAULTED_IN_OLD_SAVES and before is not None:
                return before  # a save from before this question: the game did what it answers
            self.pos += 1
            if entry[1] != question.kind:
                raise SaveMismatch(f"the save expected a {entry[1]!r} decision but the game asks for "
                                   f"{question.kind!r}: the adventure or the rules changed since it was saved")
            if question.options and entry[2] not in question.keys():
                raise SaveMismatch(_not_an_option(str(entry[2]), question))
            if self.on_answer is not None:
                self.on_answer(question, entry[2])
            return entry[2]
        self._go_live()
        return self.live.decide(question)

    def upcoming(self) -> str | None:
        """The kind of the next recorded answer, or None once the log is used up."""
        return next((str(e[1]) for e in self.entries[self.pos:] if e[0] == "a"), None)

    def _go_live(self) -> None:
        if not self.live_now:
            self.live_now = True
            if self.on_live:
                self.on_live()
