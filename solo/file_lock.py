"""Advisory locks, so two solo processes never lose each other's writes (docs/saves.md).

A file that solo reads, changes and writes back (an oracle session, a roster
character's file, the choice of a free save slot) is changed only while its
lock is held; a game holds the lock of its save for as long as it is played.
The lock is a small hidden file beside the one it guards (``.NAME.lock``),
locked with ``fcntl.flock`` where the system has it (Linux, macOS, the BSDs),
else ``msvcrt.locking`` (Windows). The system drops such a lock when its
process ends, even by ``kill -9``, so a lock is never left stale. Where
neither exists, :data:`KIND` is ``"none"`` and the guarded writes are only
atomic, not serialised (docs/saves.md says so).

The holder removes the lock file before it lets go, so folders stay clean. A
process that was waiting on the removed file finds, once it has the lock, that
the name no longer leads to the file it locked, and starts again on the new
one: only one process at a time ever holds the lock that the name leads to.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from .errors import SoloError

fcntl: ModuleType | None
msvcrt: ModuleType | None
try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None
try:
    import msvcrt
except ImportError:
    msvcrt = None

#: How the locks are taken here: "fcntl", "msvcrt", or "none" (writes are atomic but not serialised).
KIND = "fcntl" if fcntl is not None else "msvcrt" if msvcrt is not None else "none"
#: Seconds a read-modify-write waits for another solo to finish with the same file.
LOCK_WAIT = 10.0


class LockBusy(SoloError):
    """Another solo process holds the lock (for longer than we wait)."""


def lock_path(target: Path) -> Path:
    """The lock file that guards ``target``: ``.NAME.lock`` in the same folder."""
    return target.with_name(f".{target.name}.lock")


class Held:
    """A lock this process holds, until :meth:`release` (or the process ends)."""

    def __init__(self, fd: int | None, path: Path) -> None:
        self.fd = fd
        self.path = path

    def release(self) -> None:
        if self.fd is None:
            return
        fd, self.fd = self.fd, None
        try:
            os.unlink(self.path)  # while still held: a waiter sees the name gone and starts again
        except OSError:
            pass
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
            elif msvcrt is not None:  # pragma: no cover - Windows
                os.lseek(fd, 0, os.SEEK_SET)
                msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        except OSError:
            pass
        finally:
            os.close(fd)

    def __enter__(self) -> Held:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _open(lock: Path) -> int:
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    return os.open(lock, flags, 0o666)


def _try(fd: int) -> bool:
    """Take the lock on ``fd`` without waiting: True if taken, False if another process holds it."""
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        elif msvcrt is not None:  # pragma: no cover - Windows
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except (BlockingIOError, PermissionError):
        return False
    except OSError as exc:
        import errno

        if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EDEADLK):
            return False
        raise
    return True


def _current(fd: int, lock: Path) -> bool:
    """Whether the locked ``fd`` is still the file the name ``lock`` leads to (not one a holder removed)."""
    try:
        here, there = os.fstat(fd), os.stat(lock, follow_symlinks=False)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def try_lock(target: Path) -> Held | None:
    """The lock of ``target`` if nobody holds it now, else None. ``OSError`` if the lock file cannot be
    made (a folder that cannot be written, a link planted in its place)."""
    return _take(target, wait=None)


def acquire(target: Path, *, wait: float = LOCK_WAIT, what: str | None = None) -> Held:
    """The lock of ``target``, waiting up to ``wait`` seconds for another process to let it go.

    Raises :class:`LockBusy` naming ``what`` (default: the file) when it is still held then.
    """
    held = _take(target, wait=wait)
    if held is None:
        lock = lock_path(target)
        raise LockBusy(f"{what or target} is being changed by another solo process (waited {wait:g} s; "
                       f"the lock is {lock}); try again when it has finished")
    return held


def _take(target: Path, *, wait: float | None) -> Held | None:
    lock = lock_path(target)
    if KIND == "none":  # pragma: no cover - neither fcntl nor msvcrt
        return Held(None, lock)
    deadline = time.monotonic() + (wait or 0.0)
    pause = 0.005
    while True:
        fd = _open(lock)
        if _try(fd):
            if _current(fd, lock):
                return Held(fd, lock)
            os.close(fd)  # its holder removed it as we waited: lock the file the name leads to now
            continue
        os.close(fd)
        if wait is None or time.monotonic() >= deadline:
            return None
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


@contextmanager
def locked(target: Path, *, wait: float = LOCK_WAIT, what: str | None = None) -> Iterator[Held]:
    """``with locked(path):`` read, change and write ``path`` while no other solo process does."""
    held = acquire(target, wait=wait, what=what)
    try:
        yield held
    finally:
        held.release()
