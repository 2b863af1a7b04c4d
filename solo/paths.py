"""Where files live, and how solo names, reads and writes them safely.

In a wheel the top-level ``oracles/`` and ``scenes/`` folders are packed into
``solo/_bundled``; in a source checkout (editable install) they sit beside the
package. Users add folders of their own through options and environment
variables, searched before the bundled ones so theirs can override.

A file name made from content (an adventure id, a save slot, a character's
name) goes through :func:`file_in`, which keeps it inside its folder and
within what the file system can hold. Files solo did not write are read with
:func:`read_bounded` (regular files only, a size limit), and every file solo
writes is replaced whole through :func:`write_atomic`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from .errors import SoloError

_PACKAGE = Path(__file__).resolve().parent


def bundled(name: str) -> Path:
    """The bundled folder ``name`` ("oracles" or "scenes")."""
    for candidate in (_PACKAGE / "_bundled" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"the bundled {name}/ folder is missing from this installation")


def search_path(name: str, extra: list[str | Path] | None = None, env: str | None = None) -> list[Path]:
    """User folders first (options, then the environment variable), the bundled one last."""
    folders = [Path(p) for p in extra or []]
    if env and os.environ.get(env):
        folders += [Path(p) for p in os.environ[env].split(os.pathsep) if p]
    folders.append(bundled(name))
    return folders


def solo_home() -> Path | None:
    """``SOLO_HOME``: one folder for a player's saves and roster of characters, wherever solo is run from."""
    home = os.environ.get("SOLO_HOME")
    return Path(home).expanduser() if home else None


def default_saves() -> Path:
    """``SOLO_SAVES`` if set, else ``$SOLO_HOME/saves``, else ``saves/`` in the working directory."""
    if os.environ.get("SOLO_SAVES"):
        return Path(os.environ["SOLO_SAVES"])
    home = solo_home()
    return home / "saves" if home is not None else Path("saves")


def default_roster() -> Path:
    """The roster of characters when no saves folder says otherwise: ``$SOLO_HOME/characters``, else
    ``characters/`` in the working directory (beside the default ``saves/``)."""
    home = solo_home()
    return home / "characters" if home is not None else Path("characters")


# -- file names built from what a user or an adventure gave -----------------------------------
NAME_MAX = 255  # bytes in one path component, where the file system does not say
PATH_MAX = 4096  # bytes in a whole path, where the file system does not say
SPARE = 16  # room kept for what solo adds to a name it was given ("-12", ".bak", ".error.txt")
READ_LIMIT = 16_000_000  # bytes read from a file solo did not write itself, unless a caller says less


class PathError(SoloError):
    """A file or folder name solo refuses: not a plain name, too long, leading outside its folder."""


def short(text: str, width: int = 40) -> str:
    """A name as a message shows it: at most ``width`` characters, so the message stays readable."""
    return text if len(text) <= width else text[:width] + "…"


def short_path(path: Path | str, width: int = 60) -> str:
    """A file as a message names it: the whole path when it is short, else ``…/`` and the file's own name
    (cut to ``width`` too), so a long folder never hides which file is meant."""
    text = str(path)
    if len(text) <= width:
        return text
    return "…/" + short(Path(text).name, width)


def _shown(text: str) -> str:
    return repr(short(text))


def plain_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be one file name in a folder (a separator, '.', '..', control characters), or None."""
    if not name:
        return "is empty"
    if "/" in name or "\\" in name or (os.altsep and os.altsep in name):
        return "must be a plain name, not a path"
    if name.startswith("."):
        return "must not start with '.'"
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        return "holds control characters"
    try:
        os.fsencode(name)
    except UnicodeError:
        return "holds characters this system cannot put in a file name"
    return None


def _limit(folder: Path, name: str, default: int) -> int:
    """What the file system holding ``folder`` (or its nearest existing parent) says, else ``default``."""
    probe = folder
    for _ in range(64):
        try:
            if probe.is_dir():
                return int(os.pathconf(probe, name))
        except (OSError, ValueError):
            return default
        if probe.parent == probe:
            break
        probe = probe.parent
    return default


def path_problem(path: Path) -> str | None:
    """Why the system could not open ``path`` whatever it holds (a name or the whole too long), or None."""
    text = str(path)
    if "\x00" in text:
        return f"{_shown(text)} holds a NUL character"
    try:
        size = len(os.fsencode(text))
    except UnicodeError:
        return f"{_shown(text)} holds characters this system cannot put in a file name"
    longest = _limit(path.parent, "PC_NAME_MAX", NAME_MAX)
    for part in path.parts:
        length = len(os.fsencode(part))
        if length > longest:
            return f"the name {_shown(part)} is too long for the file system ({length} bytes; at most {longest})"
    if size >= PATH_MAX:
        return f"the path {_shown(text)} is too long ({size} bytes; at most {PATH_MAX - 1})"
    return None


def file_in(folder: Path, name: str, *, what: str = "the file name", spare: int = SPARE) -> Path:
    """``folder/name``, refused unless ``name`` is a plain name the file system can hold (with ``spare``
    bytes left for suffixes solo adds) and the file it leads to, links followed, is inside ``folder``."""
    problem = plain_name_problem(name)
    if problem:
        raise PathError(f"{what} {_shown(name)} {problem}")
    longest = _limit(folder, "PC_NAME_MAX", NAME_MAX)
    length = len(os.fsencode(name))
    if length + spare > longest:
        raise PathError(f"{what} {_shown(name)} is too long for a file name ({length} bytes; "
                        f"at most {longest - spare} here)")
    problem = path_problem(folder / name)
    if problem:
        raise PathError(problem)
    path = folder / name
    try:
        inside = path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # a loop of links
        inside = False
    if not inside:
        raise PathError(f"{path} leads outside the folder {folder}")
    return path


def exists(path: Path) -> bool:
    """``path.exists()``, but False (not an error) for a name the system refuses, e.g. too long."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


# -- reading and writing files safely ---------------------------------------------------------
def read_bounded(path: Path, limit: int = READ_LIMIT, *, regular: bool = True, cut: bool = False) -> bytes:
    """The bytes of ``path``, at most ``limit`` of them.

    With ``regular`` (the default) only a regular file is read: a FIFO, a device or a folder is
    refused at once rather than blocking or reading without end. Raises :class:`PathError` for a
    refused or too large file (with ``cut``, a larger file gives its first ``limit`` bytes) and
    ``OSError`` when the system cannot read it.
    """
    import stat

    flags = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)) if regular else os.O_RDONLY
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as f:
        if regular and not stat.S_ISREG(os.fstat(fd).st_mode):
            raise PathError(f"{path}: not a regular file")
        data = f.read(limit + 1)
    if cut:
        return data[:limit]
    if len(data) > limit:
        raise PathError(f"{path}: larger than {_size(limit)}")
    return data


def _size(n: int) -> str:
    return f"{n // 1_000_000} MB" if n >= 1_000_000 else f"{n // 1000} kB" if n >= 1000 else f"{n} bytes"


def write_atomic(path: Path, data: str | bytes, *, durable: bool = False, exclusive: bool = False) -> None:
    """Replace ``path`` with ``data`` (text is written as UTF-8) all at once.

    The data goes first to a temporary file created exclusively, with an unpredictable name,
    in the same folder (so a planted file or link there is never written through), then takes
    the place of ``path`` (a link at ``path`` is replaced, not followed; a device, a FIFO or a
    folder there is refused). ``durable`` flushes it to the disk before. A failure leaves
    ``path`` as it was and no temporary file behind; the ``OSError`` is raised.

    ``exclusive`` creates ``path`` and never replaces anything: if a file of that name exists
    (or appears while this one is written, from another process) ``FileExistsError`` is raised.
    The finished file is hard-linked into place, which fails rather than replace; where the file
    system has no hard links, ``path`` is created with ``O_EXCL`` and written in place.
    """
    import errno
    import stat
    import tempfile

    try:
        target = os.stat(path, follow_symlinks=not exclusive)
    except OSError:
        target = None
    if exclusive and target is not None:
        raise FileExistsError(errno.EEXIST, "the file exists", str(path))
    if target is not None and not stat.S_ISREG(target.st_mode):  # a device, a FIFO, a folder: never replaced
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".solo-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            _fill(f, raw, durable)
            if hasattr(os, "fchmod"):  # the permissions a plain open() would give, not mkstemp's private ones
                os.fchmod(f.fileno(), _file_mode(path))
        if not exclusive:
            os.replace(tmp, path)
        elif not _link_new(tmp, path):
            os.unlink(tmp)
            _write_new(path, raw, durable)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _fill(f: IO[bytes], raw: bytes, durable: bool) -> None:
    f.write(raw)
    f.flush()
    if durable:
        os.fsync(f.fileno())


def _link_new(tmp: str, path: Path) -> bool:
    """Give the finished ``tmp`` the name ``path`` too, unless that name is taken (``FileExistsError``), and
    drop the name ``tmp``; False (``tmp`` left for the caller) where this file system has no hard links."""
    import errno

    try:
        os.link(tmp, path, follow_symlinks=False)
    except FileExistsError:
        os.unlink(tmp)
        raise
    except OSError as exc:
        if exc.errno in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV, errno.EMLINK, errno.ENOSYS):
            return False
        raise
    os.unlink(tmp)
    return True


def _write_new(path: Path, raw: bytes, durable: bool) -> None:
    """The fallback of an exclusive write without hard links: ``O_EXCL`` creation, written in place."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            _fill(f, raw, durable)
    except BaseException:
        path.unlink(missing_ok=True)
        raise


# -- the one rule for a file solo writes where a user asked ------------------------------------
HEAD_BYTES = 512  # how much of a file is read to tell whether solo wrote it


@dataclass(frozen=True)
class FileKind:
    """A kind of file solo writes (a character, a map, a journal …) and how to recognise one.

    A file is of this kind if it starts with one of ``starts`` or one of its first two lines holds
    one of ``marks``: solo puts a line in every such file saying what wrote it (the second line where
    the format must open with its own keyword, as a Mermaid diagram does).
    """

    name: str  # "a character file", as a message says it
    marks: tuple[bytes, ...] = ()
    starts: tuple[bytes, ...] = ()

    def recognises(self, path: Path) -> bool:
        """Whether ``path`` is a regular file of this kind (read without blocking, its first bytes only)."""
        try:
            head = read_bounded(path, HEAD_BYTES, cut=True)
        except (OSError, PathError):
            return False
        top = b"\n".join(head.split(b"\n", 2)[:2])
        return any(head.startswith(s) for s in self.starts) or any(m in top for m in self.marks)


class NotOurs(PathError):
    """A file the user named exists and is not one solo wrote: replaced only with ``--force``."""


def a_folder(path: Path | str) -> str:
    """Why a folder is no file to write: an empty name (``--out ""``) is the folder one is in, said so (". exists and is
    not a regular file" named neither: a review)."""
    if str(path) in ("", "."):
        return "an empty name is the folder you are in: give a file's name"
    return f"{path} is a folder: give a file's name"


def replace_problem(path: Path, kind: FileKind, *, force: bool = False, option: str | None = "--force",
                    action: str = "replace it", instead: str = "give another file name") -> str | None:
    """Why ``path`` may not be written now, or None. The one rule for every file solo writes at a
    user's request: create it, or replace a file of the same ``kind`` that solo wrote, or (with
    ``--force``) any regular file; never a folder, a device or a FIFO. ``option`` None: the command
    has no ``--force``, so the message says to move the file away."""
    import stat

    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    if not stat.S_ISREG(st.st_mode):
        if stat.S_ISDIR(st.st_mode):
            return a_folder(path)
        return f"{path} exists and is not a regular file"
    if force or kind.recognises(path):
        return None
    if option is None:
        return f"{path} exists and is not {kind.name} solo wrote; move it away to let solo write there"
    return (f"{path} exists and is not {kind.name} solo wrote; {instead}, "
            f"or add {option} to {action}")


def write_owned(path: Path, data: str | bytes, kind: FileKind, *, force: bool = False,
                option: str | None = "--force", instead: str = "give another file name") -> None:
    """Write ``path`` by the one rule (see :func:`replace_problem`): a new file is created exclusively, so
    one that appears meanwhile is not replaced unseen. Raises :class:`NotOurs` or ``OSError``. ``instead``: what
    the user can do other than force it, where the command names the file (a folder option names no file)."""
    for _ in range(3):
        problem = replace_problem(path, kind, force=force, option=option, instead=instead)
        if problem:
            raise NotOurs(problem)
        if exists(path):
            write_atomic(path, data)
            return
        try:
            write_atomic(path, data, exclusive=True)
            return
        except FileExistsError:
            continue  # somebody made it meanwhile: look at what it is
    raise NotOurs(f"{path} keeps changing while solo writes it; try again")


def _file_mode(path: Path) -> int:
    import stat

    try:
        st = os.stat(path, follow_symlinks=False)
        if stat.S_ISREG(st.st_mode):
            return stat.S_IMODE(st.st_mode)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def solo_program() -> str:
    """How to run this solo again from a new shell, wherever it opens, for the hints solo prints.

    A virtualenv's ``solo`` is on the PATH only while the venv is activated, so a hint that says plain
    ``solo`` fails in a new terminal, and one relative to the current folder fails in a terminal that
    opens in the home folder. Run from a venv that is not otherwise on the PATH, the hint names the
    program by its whole path; installed with pipx, a user or system install, or run as ``python -m
    solo``, it is plain ``solo``.
    """
    import shlex
    import shutil
    import sys

    argv0 = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if argv0 is None or argv0.name != "solo" or sys.prefix == sys.base_prefix:
        return "solo"
    program = Path(sys.prefix).absolute() / "bin" / "solo"
    found = shutil.which("solo")
    if found and Path(found).parent != program.parent and Path(found).resolve() == program.resolve():
        return "solo"  # a link on the PATH outside the venv (pipx): found in any shell
    if not program.exists():
        return "solo"
    return shlex.quote(str(program))


def resume_command(save: Path | str) -> str:
    """The command that resumes ``save``, runnable as printed in a new shell wherever it opens: the save by
    its whole path (``..`` folded away: a GM's ``--saves ../../x`` was printed back as it was typed, after a whole
    path), the program as :func:`solo_program` names it."""
    import os
    import shlex

    return f"{solo_program()} play --load {shlex.quote(os.path.abspath(save))}"


def within(path: Path, folder: Path) -> bool:
    """Whether ``path``, its links followed, is inside ``folder``: what a folder of content may read (an
    adventure's files, its tables, a folder of tables)."""
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # a loop of links
        return False
