"""Character files: reading and writing the TOML files players keep between games, and the roster.

The rules core only builds and checks characters; finding them on disk, by
path, by the name of a roster character or of a pregenerated one, and writing
them back lives here. A file name made from a character's name keeps only
letters, digits and underscores, and is cut short, so it always stays inside
its folder.

The roster is the folder of a player's characters (``characters/`` beside the
saves, or ``$SOLO_HOME/characters``): each file one character, rewritten in
place after every finished game, with a small ``[roster]`` table of solo's own
(how many scenarios the character has finished) that the rules ignore.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ContentError, SoloError
from .paths import FileKind, PathError, exists, file_in, read_bounded, write_atomic
from .rules.character import Character
from .rules.creation import pregenerated
from .rules.rulebook import SKILLS
from .toml_files import load_toml, loads_toml

SLUG_CHARS = 60  # a file name from a character's name: short, whatever the name's length
MAX_SAME_NAME = 999  # name_2.toml … name_999.toml, then solo asks for another name
ROSTER_MAX = 200  # character files read from a roster folder: a menu, not a library
ROSTER_FILE_LIMIT = 1_000_000  # bytes of one roster file; a character is a few hundred
BEST_SKILLS = 3  # skills a roster line names


def load_character(spec: str | Path, roster: Path | None = None) -> Character:
    """A character from a TOML file, a roster character by name, or a pregenerated one by name."""
    path = Path(spec)
    if path.suffix == ".toml" or exists(path):
        return Character.from_dict(load_toml(path), file=path)
    if roster is not None:
        entry = find_in_roster(roster, str(spec))
        if entry is not None:
            if entry.fell:  # the file itself still loads, given as a file: a choice made knowingly
                raise SoloError(f"{entry.name} died in {entry.fell}; the roster plays no one who died (to play "
                                f"the character again all the same, give the file: {entry.path})")
            return entry.load()
    return pregenerated(str(spec), roster=roster_place(roster) if roster is not None else None)


def replay_spec(spec: str | Path, roster: Path | None = None) -> str:
    """``spec`` as a command to replay a game must give it: a file or a roster character by its whole path (a
    replay's ``--saves`` moves the roster a name would be looked up in: a GM's walkthrough of ``--pc ada_berg``
    failed to find her), a ready-made character by its name."""
    path = Path(spec)
    if path.suffix == ".toml" or exists(path):
        return os.path.abspath(path)
    entry = find_in_roster(roster, str(spec)) if roster is not None else None
    return os.path.abspath(entry.path) if entry is not None else str(spec)


def roster_place(roster: Path) -> str:
    """The roster folder as an error names it: whole, and whether it is there at all."""
    whole = str(roster.absolute())
    return whole if roster.is_dir() else f"{whole}, which does not exist"


#: Letters that no accent-stripping turns into plain ones, as a file name spells them.
_SPELLED = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "þ": "th", "ð": "d", "ł": "l", "ı": "i"})


def character_slug(name: str) -> str:
    """The file name a character is saved under: its name in plain letters and digits ("Ørjan Ås" is orjan_as,
    where the letters outside a-z were dropped, "rjan_s", and "Åse Ødegård" was "se_deg_rd": a GM-less table of the
    bundled name tables' own Norwegian names)."""
    import unicodedata

    plain = unicodedata.normalize("NFKD", name.lower().translate(_SPELLED))
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    slug = re.sub(r"[^a-z0-9]+", "_", plain).strip("_")[:SLUG_CHARS].rstrip("_")
    return slug or "character"


def free_character_path(folder: Path, name: str) -> Path:
    """``folder/name.toml``, or ``name_2.toml`` … if taken: a new character never replaces another."""
    stem = character_slug(name)
    path = file_in(folder, f"{stem}.toml")
    n = 2
    while path.exists() or path.is_symlink():
        if n > MAX_SAME_NAME:
            raise SoloError(f"{folder} already holds {MAX_SAME_NAME} characters called {stem!r}: choose another name")
        path = file_in(folder, f"{stem}_{n}.toml")
        n += 1
    return path


#: A character file solo wrote: its first line says so (see :func:`character_text`).
CHARACTER_FILE = FileKind("a character file", marks=(b"a Comae Engine character made by solo",))


def character_text(char: Character, *, scenarios: int | None = None, fell: str | None = None) -> str:
    """A character file that a person can read and edit (and solo checks on load), with the header that
    tells solo it wrote it. ``scenarios`` (the scenarios this character has finished) goes in a
    ``[roster]`` table that only the roster reads, and so does ``fell``: the adventure the character died in."""
    from .toml_write import dumps

    name = "".join(ch if ch.isprintable() else " " for ch in char.name)  # the header stays one comment line
    header = f"# {name}: a Comae Engine character made by solo. Edit freely; solo checks it on load.\n"
    data: dict[str, Any] = char.to_dict()
    if scenarios is not None or fell:
        data["roster"] = {**({"scenarios": scenarios} if scenarios is not None else {}),
                          **({"fell": fell} if fell else {})}
    return header + dumps(data)


def save_character(char: Character, path: Path, *, scenarios: int | None = None, new: bool = False,
                   fell: str | None = None) -> None:
    """Write ``path`` whole (see :func:`solo.paths.write_atomic`); with ``new`` only if no file has that name
    (``FileExistsError`` otherwise). An ``OSError`` says why not."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, character_text(char, scenarios=scenarios, fell=fell), exclusive=new)


def save_new_character(char: Character, folder: Path, *, scenarios: int | None = None) -> Path:
    """A new file in ``folder`` for ``char`` (``name.toml``, ``name_2.toml`` …), created exclusively: a game or a
    ``solo new`` writing a character of the same name at the same moment takes the next name, never this file."""
    for _ in range(MAX_SAME_NAME):
        path = free_character_path(folder, char.name)
        try:
            save_character(char, path, scenarios=scenarios, new=True)
            return path
        except FileExistsError:
            continue
    raise SoloError(f"{folder}: no free file name for {char.name!r}; choose another name")


def update_character(char: Character, path: Path, *, begun: Character | None = None) -> bool:
    """Write a finished game's character back over its own file, one more scenario played: read and written
    under the file's lock, so two games that end at once with the same character both count. With ``begun`` (the
    character as the game began with it) only while the file still holds it: False, and nothing written, where
    another game or an edit changed it since (compared under the lock, so two games ending at once with it do not
    both find it unchanged)."""
    from .file_lock import locked

    with locked(path, what=f"the character file {path}"):
        if begun is not None and not holds(path, begun):
            return False
        save_character(char, path, scenarios=played_scenarios(path) + 1)
        return True


def mark_fallen(path: Path, adventure: str) -> bool:
    """Write into a roster character's own file that the character died in ``adventure`` (its ``[roster]`` table's
    ``fell``), under the file's lock: the roster then lists it as dead and offers it to no game (a hot-seat group's
    next game offered "Alma Berg", who had died in Kaldskard). False, and nothing written, where the file holds no
    character solo can read."""
    from .file_lock import locked

    with locked(path, what=f"the character file {path}"):
        try:
            _, data, char = _read_character_file(path)
        except _UNREADABLE:
            return False
        save_character(char, path, scenarios=_scenarios(data), fell=adventure)
        return True


def holds(path: Path, char: Character) -> bool:
    """Whether the character file ``path`` reads as ``char`` (every field a file keeps); a file that cannot be read
    counts as holding it, as before such files were compared."""
    try:
        now = load_character(str(path))
    except (SoloError, OSError, ValueError):
        return True
    return now.to_dict() == char.to_dict()


# -- the roster -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class RosterEntry:
    """One character file of the roster, as it was read when the roster was listed."""

    path: Path
    data: dict[str, Any] = field(repr=False)
    character: Character = field(repr=False)
    digest: str  # the first hex digits of the file's SHA-256: a save names the very file it was played with
    scenarios: int | None  # finished scenarios, when solo wrote the file
    fell: str | None = None  # the adventure the character died in: listed, never offered to a game

    @property
    def name(self) -> str:
        return self.character.name

    @property
    def key(self) -> str:
        """The option key of "Who will you play?": the file and its content, so a resumed game that
        finds the file changed says so instead of replaying another character."""
        return f"roster:{self.path.stem}@{self.digest}"

    @property
    def summary(self) -> str:
        line = roster_line(self.character, self.scenarios)
        return f"{line} · died in {self.fell}" if self.fell else line

    @property
    def file(self) -> str:
        """The file's name without its folder and suffix: what tells two characters of one name apart."""
        return self.path.stem

    def load(self) -> Character:
        """A fresh copy of the character as the file held it when listed."""
        return Character.from_dict(self.data, file=self.path)


@dataclass
class Roster:
    """The roster offered in one game, and the files its players chose (to be rewritten, not copied)."""

    folder: Path
    entries: list[RosterEntry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # files that are no character, said by 'solo characters'
    chosen: dict[str, Path] = field(default_factory=dict)  # PC name -> the roster file it came from

    def fresh(self) -> Roster:
        """The same entries with nothing chosen yet: each play-through (an undo replays) chooses anew."""
        return Roster(self.folder, self.entries, self.problems)

    def choose(self, entry: RosterEntry) -> Character:
        pc = entry.load()
        self.chosen[pc.name] = entry.path
        return pc


def read_roster(folder: Path) -> Roster:
    """The character files of ``folder`` (at most :data:`ROSTER_MAX`, by file name); a missing folder is an
    empty roster, and a file that holds no valid character is left out with a problem naming it."""
    roster = Roster(folder)
    try:
        files = sorted(p for p in folder.glob("*.toml") if not p.name.startswith("."))
    except OSError as exc:
        roster.problems.append(f"{folder}: {exc.strerror or exc}")
        return roster
    if len(files) > ROSTER_MAX:
        roster.problems.append(f"{folder}: {len(files)} character files; only the first {ROSTER_MAX} are listed")
        files = files[:ROSTER_MAX]
    for path in files:
        try:
            raw, data, char = _read_character_file(path)
        except _UNREADABLE as exc:
            roster.problems.append(f"{path}: not a character ({exc})")
            continue
        roster.entries.append(RosterEntry(path, data, char, hashlib.sha256(raw).hexdigest()[:8],
                                          _scenarios(data), _fell(data)))
    return roster


def played_scenarios(path: Path) -> int:
    """How many scenarios the character in ``path`` has finished, as its ``[roster]`` table says (0 if unsaid)."""
    try:
        return _scenarios(loads_toml(read_bounded(path, ROSTER_FILE_LIMIT).decode("utf-8"), file=path)) or 0
    except (PathError, ContentError, OSError, UnicodeDecodeError):
        return 0


def in_folder(path: Path, folder: Path) -> bool:
    """Whether ``path`` lies directly in ``folder`` (links followed): a roster file of that roster."""
    try:
        return path.resolve().parent == folder.resolve()
    except (OSError, RuntimeError):
        return path.parent == folder


#: What reading a file of the roster as a character may raise: it is then no character of the roster.
_UNREADABLE = (PathError, ContentError, OSError, UnicodeDecodeError, ValueError)


def _read_character_file(path: Path) -> tuple[bytes, dict[str, Any], Character]:
    """A roster file as read: its bytes, its tables (solo's ``[roster]`` among them) and the character."""
    raw = read_bounded(path, ROSTER_FILE_LIMIT)
    data = loads_toml(raw.decode("utf-8"), file=path)
    return raw, data, Character.from_dict(data, file=path)


def _fell(data: dict[str, Any]) -> str | None:
    table = data.get("roster")
    value = table.get("fell") if isinstance(table, dict) else None
    return value.strip()[:200] or None if isinstance(value, str) else None


def _scenarios(data: dict[str, Any]) -> int | None:
    table = data.get("roster")
    value = table.get("scenarios") if isinstance(table, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def roster_line(char: Character, scenarios: int | None = None) -> str:
    """One line about a character: career, best skills (with their best Focus), Luck, scenarios finished."""
    best = sorted(SKILLS, key=lambda s: (-_best(char, s), SKILLS.index(s)))[:BEST_SKILLS]
    parts = [char.career or "no career", ", ".join(f"{_best_name(char, s)} {_best(char, s)}" for s in best),
             f"Luck {char.luck}/{char.luck_max}"]
    if scenarios is not None:
        parts.append(f"{scenarios} scenario{'s' if scenarios != 1 else ''} played")
    return " · ".join(parts)


def _best_name(char: Character, skill: str) -> str:
    """The skill, with the Focus its best value comes from ("Combat //Gunnery"): a number reached only
    through a narrow Focus is not the skill's."""
    focus = max(char.focus_names(skill), key=lambda f: char.focuses[f"{skill}//{f}"], default=None)
    if focus is None or char.focuses[f"{skill}//{focus}"] <= 0:
        return skill
    return f"{skill} //{focus}"


def _best(char: Character, skill: str) -> int:
    """A skill's value with its best Focus, as the character would roll it at best."""
    bonus = max((char.focuses[f"{skill}//{f}"] for f in char.focus_names(skill)), default=0)
    return char.skills[skill] + bonus


def find_in_roster(folder: Path, name: str) -> RosterEntry | None:
    """The roster character ``name`` means: its full name or file name (any case), else the one whose
    name or file name starts with it; None if none does, an error if several do.

    Several that a ready-made character's name also names (``espen``: the roster holds an Espen Lind from
    each time the ready-made one was played as new) are not an error but None, so the ready-made one is
    meant, as the help's examples and ``solo duel``'s default say; ``solo characters`` gives each of
    yours a file name that picks it alone.
    """
    wanted = name.strip().lower()
    if not wanted:
        return None
    entries = read_roster(folder).entries
    slug = character_slug(wanted)
    exact = [e for e in entries if e.name.lower() == wanted or e.path.stem == slug]
    if len(exact) == 1:
        return exact[0]
    starts = exact or [e for e in entries if e.name.lower().startswith(wanted) or e.path.stem.startswith(slug)]
    if not exact and _ready_made(wanted):  # "espen" is the ready-made Espen Lind, or a copy of him: never Espen Dahl
        starts = [e for e in starts if _ready_made(e.name.lower())]  # (a GM-less table's run)
    if len(starts) > 1:
        if _ready_made(wanted):
            return None
        listed = ", ".join(f"{e.name} ({e.path.name})" for e in starts[:8])
        raise SoloError(f"{name!r} could be several characters of the roster in {folder}: {listed}; "
                        "give the file instead")
    return starts[0] if starts else None


def _ready_made(wanted: str) -> bool:
    """Whether ``wanted`` (lower case) names a ready-made character: its short name (``espen``), its file name
    or its full name."""
    from .rules.creation import PREGENS

    slug = wanted.replace(" ", "_")
    return any(wanted == f.stem.split("_")[0] or slug == f.stem for f in PREGENS.glob("*.toml"))


#: How a game's roster lies from the folder of its save, written in the save (``options.roster``) when the
#: game begins, so that ``--load`` from any folder finds the roster the game began with. A word, never a
#: path: a save someone sent you cannot send characters anywhere else.
ROSTER_LAYOUTS = {
    "beside": "characters/ beside the saves folder (./saves and ./characters, or $SOLO_HOME's)",
    "inside": "characters/ inside the saves folder (--saves DIR, SOLO_SAVES)",
    "home": "$SOLO_HOME/characters",
}


def roster_folder(saves_dir: Path | None, save_path: Path, layout: object = None) -> Path:
    """Where the characters of a game live.

    A loaded game whose save says how its roster lay (``layout``, see :data:`ROSTER_LAYOUTS`) keeps that
    roster, wherever solo is run from. Otherwise ``$SOLO_HOME/characters`` when SOLO_HOME is set; else
    beside its saves, in their folder's ``characters/``: only a game saved in the default ./saves keeps
    them in ./characters, where 'solo new' puts them, and a game whose saves are elsewhere (--saves,
    SOLO_SAVES) never writes into this folder. A save older than the layout, loaded by its file from
    another folder, is read as its folder's name says: one in a folder called ``saves`` was played in
    that folder's default saves, so its roster is the ``characters/`` beside it.
    """
    from .paths import default_roster, default_saves, solo_home

    if layout == "inside":
        return save_path.parent / "characters"
    if layout == "beside":
        return save_path.parent.parent / "characters"
    home = solo_home()
    if home is not None:
        return home / "characters"
    if saves_dir is not None:
        return saves_dir / "characters"
    folder = _folder_of(save_path)
    if folder == _folder_of(default_saves() / "x"):
        return save_path.parent / "characters" if os.environ.get("SOLO_SAVES") else default_roster()
    if layout is None and save_path.parent.name == "saves":  # an older save: ./saves of another folder
        return save_path.parent.parent / "characters"
    return save_path.parent / "characters"


def current_roster(saves_dir: Path | None = None) -> Path:
    """The roster of a command that plays no game ('solo new', 'solo characters', a '--pc NAME'): the one a
    game begun now with the same saves folder would read and write, so a character made under SOLO_SAVES or
    ``--saves DIR`` is the one 'solo play' then offers."""
    from .paths import default_saves

    return roster_folder(saves_dir, (saves_dir or default_saves()) / "game.json")


def roster_layout(roster: Path, save_folder: Path) -> str | None:
    """How ``roster`` lies from ``save_folder`` (a key of :data:`ROSTER_LAYOUTS`), or None if none says it."""
    from .paths import solo_home

    where = _resolved(roster)
    if where == _resolved(save_folder / "characters"):
        return "inside"
    if where == _resolved(save_folder.parent / "characters"):
        return "beside"
    home = solo_home()
    if home is not None and where == _resolved(home / "characters"):
        return "home"
    return None


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except OSError:  # a path the system cannot follow: compare it as written
        return path


def _folder_of(path: Path) -> Path:
    try:
        return path.parent.resolve()
    except OSError:  # a path the system cannot follow: compare it as written
        return path.parent
