"""``solo play``: play an adventure in the terminal."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from . import UserError, broken_adventure
from .folders import FOLDER, folder_problem
from .limits import SEED

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.console import Console

    from ..file_lock import Held
    from ..rules.character import Character
    from ..saves import LogEntry
    from ..story.format.adventure import Adventure
    from ..story.play.engine import Game
    from ..story.play.think_ahead import ThinkAhead
    from ..ui.line_input import LineInput


@click.command("play")
@click.argument("args", nargs=-1, metavar="[ADVENTURE] [CHARACTER...]")
@click.option("--seed", type=SEED, help="Seed the dice: the same seed and answers give the same game.")
@click.option("--pc", "pcs", metavar="FILE|NAME", multiple=True,
              help="A character: a file from 'solo new', one of your roster by name (solo characters) or a "
                   "pregenerated one (espen: your roster's copy of it, if you have played it and kept one copy; "
                   "with several copies, the ready-made one; the menu without --pc offers them all). Repeat for "
                   "a party.")
@click.option("--party", is_flag=True, help="Group play: the CHARACTER files after the adventure form the party.")
@click.option("--script", type=click.Path(dir_okay=False, path_type=Path),
              help="Answer the prompts from this file, a line each: an answer that fits no option stops "
                   "the game (exit 3), and so does a script that ends before the game (exit 4).")
@click.option("--partial", is_flag=True,
              help="With --script: the script may end before the game does (the game is saved; exit 0).")
@click.option("--keep-characters", "keep_characters", type=FOLDER,
              metavar="DIR", help="Write the characters to DIR when the game ends. Scripted or piped play "
                                  "writes none unless this is given.")
@click.option("--transcript", type=click.Path(dir_okay=False, path_type=Path),
              help="Write a Markdown journal of the session here.")
@click.option("--events", "events_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Append every engine event to this file as JSON Lines (docs/playing.md).")
@click.option("--force", is_flag=True,
              help="Let --transcript replace (and --events add to) a file that is not one solo wrote.")
@click.option("--load", "load", metavar="NAME|FILE", help="Resume a saved game (see 'solo saves').")
@click.option("--save", "save_name", metavar="NAME", help="Name of the save slot (default: the adventure's id).")
@click.option("--saves", "saves_dir", type=FOLDER,
              help="Folder for saves (default: $SOLO_SAVES, $SOLO_HOME/saves or ./saves); with --saves DIR, "
                   "or SOLO_SAVES, your roster is DIR/characters unless SOLO_HOME is set.")
@click.option("--no-odds", is_flag=True,
              help="Do not show the chances to win a conflict, on the scene menus or on the Lens menus.")
@click.option("--explain", is_flag=True, help="Show why each NPC does what it does (for GMs testing an adventure).")
@click.option("--open", "open_play", is_flag=True,
              help="Open play: no written adventure; the tables and the oracle drive the story.")
@click.option("--list", "list_them", is_flag=True, help="List the adventures you can play, and stop.")
def command(args: tuple[str, ...], seed: int | None, pcs: tuple[str, ...], party: bool, script: Path | None,
            partial: bool, keep_characters: Path | None, transcript: Path | None, events_file: Path | None,
            force: bool, load: str | None, save_name: str | None, saves_dir: Path | None, no_odds: bool, explain: bool,
            open_play: bool, list_them: bool) -> None:
    """Play ADVENTURE (a name, a .toml file or a folder; default: the tutorial).

    The game saves itself at every scene and every conflict round. Type
    'help' at any prompt for the commands you can use while playing. For a
    group around one keyboard, pass several characters with --party (or
    leave them out and solo asks how many players there are).

    \b
    Examples:
      solo play
      solo play tutorial --pc espen --seed 7
      solo play vellan --party ada.toml bo.toml cy.toml
      solo play kaldskard   # a winter crossing for one to three players
      solo play --open      # no written adventure: the tables and the oracle drive it
      solo play --load tutorial
    """
    from rich.console import Console

    from ..characters import roster_folder, roster_layout
    from ..errors import OutputGone, SoloError
    from ..paths import (
        PathError,
        default_saves,
        file_in,
        path_problem,
        replace_problem,
        resume_command,
        short,
        short_path,
    )
    from ..rules.dice import new_rng
    from ..saves import SaveError, SaveWriteError, read_save, write_save
    from ..story.format.library import DEFAULT_ADVENTURE, available, find_adventure, saved_adventure
    from ..story.format.loader import AdventureError, load_adventure
    from ..ui.event_stream import EVENTS_FILE
    from ..ui.journal import JOURNAL_FILE
    from ..ui.line_input import piped_line
    from ..ui.script import Script
    from ..ui.session import Session, save_data
    from ..ui.view import say

    console = Console(highlight=False)
    if list_them:
        from ..story.format.loader import read_adventure

        found = available()
        width = max((len(n) for n in found), default=0)
        for name, path in found.items():
            adv, _ = read_adventure(path)
            title = adv.title if adv else "(has errors: run solo check)"
            say(console, (f"{name:<{width}}", "bold"), f"  {title}")
        return
    from ..story.play.engine import Game, edition_of

    folder = saves_dir or default_saves()
    if partial and script is None:
        raise UserError("--partial goes with --script: it lets a script end before the game does")
    problem = folder_problem("--saves" if saves_dir else "SOLO_SAVES", folder)
    if problem:
        raise UserError(problem)
    for option, given in (("--transcript", transcript), ("--events", events_file),
                          ("--keep-characters", keep_characters)):
        problem = path_problem(given) if given is not None else None
        if problem:
            raise UserError(f"{option}: {problem}")
    if force and transcript is None and events_file is None:
        raise UserError("--force goes with --transcript or --events: it lets solo write over (or add to) a file "
                        "it did not write")
    for option, given, kind, action in (("--transcript", transcript, JOURNAL_FILE, "replace it"),
                                        ("--events", events_file, EVENTS_FILE, "add to it")):
        problem = replace_problem(given, kind, force=force, action=action) if given is not None else None
        if problem:  # the one rule for files solo writes (docs/saves.md): said before anything is played
            raise UserError(f"{option}: {problem}")
    if script is None and sys.stdin is None:
        raise UserError("standard input is closed: play at a terminal, pipe the answers in, or give --script FILE")
    game_class: Callable[..., Game] = Game
    log: list[LogEntry] | None = None
    edition = None  # a new game's: the latest (Game.edition); a saved one's, its own, so that its log replays
    adventure, character_files = _split_args(args, party)
    characters: list[Character] | None = None
    sources: dict[str, Path] = {}
    layout: object = None  # how a loaded game's roster lay from its save (solo.characters.ROSTER_LAYOUTS)
    if load is not None and not load.strip():
        raise UserError("--load needs the name or file of a saved game (see 'solo saves')")
    if load and (args or pcs or seed is not None):
        raise UserError("--load resumes a saved game as it was: leave out the adventure, characters and --seed")
    if save_name is not None:
        save_name = save_name.removesuffix(".json") or save_name  # --save x.json is the slot x, not x.json.json
        try:
            file_in(folder, save_name, what="--save", spare=SLOT_SPARE)
        except PathError as exc:
            raise UserError(str(exc)) from None
    try:
        if load:
            path = _save_to_load(load, folder)
            try:
                data = read_save(path)
            except SaveError as exc:
                raise UserError(str(exc)) from None
            from ..story.play.open_play import OPEN_ID, OpenGame, open_adventure

            moved = None
            if data.adventure_id == OPEN_ID:
                adv, game_class = open_adventure(), OpenGame
            else:
                try:
                    source, moved = saved_adventure(data.adventure_source, data.adventure_id)
                    adv = load_adventure(source)
                except (SoloError, OSError, ValueError) as exc:
                    detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
                    raise UserError(f"{short_path(path)}: the adventure this save was played in cannot be "
                                    f"loaded: {detail}") from None
            try:  # refused before anything is said of the adventure
                edition = edition_of(data.options)
            except SoloError as exc:
                raise UserError(f"{short_path(path)}: {exc}") from None
            if moved and not adv.made_from(data.adventure_hash):  # the same files elsewhere: nothing to say
                from rich.markup import escape

                console.print(f"[yellow]{escape(moved)}[/]")
            if not adv.made_from(data.adventure_hash):
                console.print("[yellow]The adventure changed since this save; replaying it may not fit.[/]")
            seed = data.seed
            log = data.log
            layout = data.options.get("roster")
            save_path, save_folder = path, path.parent
            if data.party:
                from ..rules.character import Character

                try:
                    characters = [Character.from_dict(p) for p in data.party]
                except (SoloError, ValueError, TypeError, KeyError, AttributeError) as exc:
                    raise UserError(f"{short_path(path)}: damaged save: a character of the party cannot be "
                                    f"read ({exc})") from None
                sources = saved_sources(data.options.get("character_files"), characters)
        else:
            if open_play:
                if adventure:
                    raise UserError("--open plays without a written adventure; leave out the adventure name")
                from ..story.play.open_play import OpenGame, open_adventure

                adv, game_class = open_adventure(), OpenGame
            else:
                adv = load_adventure(find_adventure(adventure))
            if seed is None:
                seed = new_rng(None).randrange(1, 10**9)
            save_folder = folder
            wanted = list(pcs) + character_files
            if wanted and not adv.uses_pcs:
                raise UserError(f"{adv.title} has pc = false in its [adventure]: it is played without a player "
                                f"character, so {wanted[0]!r} has no part in it; leave out --pc and --party")
            if wanted:
                characters, sources = _load_characters(wanted, roster_folder(saves_dir, folder / "game.json"))
                names = [p.name for p in characters]
                if len(set(names)) != len(names):
                    raise UserError(f"two characters share a name in the party: {', '.join(names)}")
                misfit = adv.party_misfit(len(characters))
                if misfit:
                    raise UserError(misfit)
    except AdventureError as exc:
        raise broken_adventure(exc, adventure or DEFAULT_ADVENTURE) from None
    except SoloError as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:  # a name the system refuses (too long …) anywhere above
        raise UserError(f"{short(str(exc.filename or 'a file'))}: {exc.strerror or exc}") from None
    if adv.templates:  # the story layer cannot read narration: its errors stop play here, as they stop solo check
        from ..sim.lint import narration_problems

        broken = [p for p in narration_problems(Path(adv.source)) if p.severity == "error"]
        if broken:
            raise UserError(str(AdventureError(broken)))

    answers: Script | None = None
    reader: Callable[[str], str]
    line_input = None
    if script is not None:
        answers = reader = Script(str(script), _script_lines(script))
        echo, interactive = True, False
    else:
        interactive = sys.stdin.isatty()
        if interactive:
            reader, line_input = _terminal_reader(console, save_folder)
        else:
            reader = piped_line
        echo = not interactive
    # a game played at the keyboard keeps its characters; scripted or piped play only when asked
    # a loaded game keeps the roster it began with, wherever solo is run from (docs/characters.md)
    roster_dir = roster_folder(saves_dir, save_folder / "game.json", layout)
    characters_dir = keep_characters or (roster_dir if interactive else None)
    problem = (_unwritable(save_folder) or (_unwritable(transcript.parent) if transcript else None)
               or (_unwritable(events_file.parent) if events_file else None)
               or (_unwritable(keep_characters) if keep_characters else None))
    if problem:
        raise UserError(problem)
    roster_kind = roster_layout(roster_dir, save_folder)  # where this game's roster lies, as its save records it
    try:
        if load:
            held = _hold(save_path)
        else:  # the new game's save is made now, in a slot no other game has or takes meanwhile
            fresh = save_data(adv, seed, characters, advise=not no_odds, roster=roster_kind,
                              character_files=sources if keep_characters is None else None)
            save_path, held = _fresh_slot(folder, save_name or adv.id, console, explicit=bool(save_name),
                                          claim=lambda path: write_save(path, fresh, new=True))
    except SaveWriteError as exc:
        raise UserError(str(exc)) from None
    except SoloError as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"cannot use the saves folder {save_folder}: {exc.strerror or exc}") from None
    stream = None
    try:
        if events_file is not None:
            from ..ui.event_stream import EventStream, EventStreamError

            try:
                stream = EventStream.open(events_file)
            except EventStreamError as exc:
                if not load:  # nothing was played: the new game's save goes with it
                    save_path.unlink(missing_ok=True)
                raise UserError(f"--events: {exc}") from None
        if not load:
            say(console, f"Seed {seed}. Saving to {save_path}. Type 'help' at any prompt.", style="dim")
        else:  # a long game takes a moment to replay: the screen says so at once
            say(console, f"Loading {save_path}…", style="dim")
        # at the keyboard, a scene's conflicts are priced while the player reads it (solo/story/play/think_ahead.py)
        thinker = None
        if interactive and not no_odds:
            from ..story.play.think_ahead import ThinkAhead

            thinker = ThinkAhead()
        # a new game's save is on disk already, with no decisions yet: its log starts empty, not unknown
        session = Session(adv, seed=seed, console=console, reader=reader, save_path=save_path,
                          transcript=transcript, party=characters, log=log if load else [], advise=not no_odds,
                          echo_answers=echo,
                          explain=explain, game_class=_game_maker(game_class, adv, roster_dir, line_input, thinker),
                          characters_dir=characters_dir,
                          character_files=sources if keep_characters is None else {}, events=stream,
                          script=answers, partial=partial, roster_layout=roster_kind, edition=edition)
        try:
            code = session.run()
        finally:
            if thinker is not None:
                thinker.close()
    except OutputGone as gone:  # before the game began (or after it): its save is on disk as it stands
        if not gone.note:
            gone.note = f"the game is saved; resume it with {resume_command(save_path)}"
        raise
    finally:
        if stream is not None:
            stream.close()
        held.release()
    if code:
        sys.exit(code)


def saved_sources(saved: object, party: list[Character]) -> dict[str, Path]:
    """The character files a save says its party was read from, each kept only while it is still that
    character's file: a TOML file solo wrote (its mark on the first lines), outside solo's own folder, that
    reads as a character of the same name. The save is the player's file and may have been edited, or come
    from someone else: the game's end writes a character back over each file kept, never over one it does not
    recognise, such as a ready-made character's (a character left out gets a file of its own, as a
    pregenerated one does; the review had a crafted save rewrite the shipped Espen Lind)."""
    from .. import __file__ as package_file
    from ..characters import CHARACTER_FILE, load_character
    from ..errors import SoloError

    if not isinstance(saved, dict):
        return {}
    package = Path(package_file).resolve().parent
    names = {pc.name for pc in party}
    kept: dict[str, Path] = {}
    for name, where in saved.items():
        if name not in names or not isinstance(where, str):
            continue
        path = Path(where)
        try:
            if (path.suffix == ".toml" and path.is_file() and not path.resolve().is_relative_to(package)
                    and CHARACTER_FILE.recognises(path) and load_character(str(path)).name == name):
                kept[name] = path
        except (SoloError, OSError, ValueError):
            continue
    return kept


def _load_characters(wanted: list[str], roster: Path) -> tuple[list[Character], dict[str, Path]]:
    """The characters ``--pc``/``--party`` name, and the files of those read from a file or the roster
    (written back there when the game ends; a pregenerated one gets a new file)."""
    from ..characters import find_in_roster, load_character

    characters: list[Character] = []
    sources: dict[str, Path] = {}
    for spec in wanted:
        if Path(spec).suffix == ".toml" or Path(spec).is_file():
            pc = load_character(spec)
            if Path(spec).is_file():
                sources[pc.name] = Path(spec)
        elif (entry := find_in_roster(roster, spec)) is not None:
            pc = entry.load()
            sources[pc.name] = entry.path
        else:
            pc = load_character(spec, roster)  # not in the roster: a ready-made one, or an error naming the roster
        characters.append(pc)
    return characters, sources


def _game_maker(game_class: Callable[..., Game], adventure: Adventure, roster_dir: Path,
                line_input: LineInput | None, thinker: ThinkAhead | None = None) -> Callable[..., Game]:
    """Builds each play-through's game (an undo builds another) with the player's roster to offer and,
    at a terminal with readline, a decider that tells the line reader which answers Tab completes; at
    the keyboard, the session's one thinker that prices a menu's conflicts while the player reads."""
    from ..characters import read_roster
    from ..story.play.engine import Game

    roster = read_roster(roster_dir) if adventure.uses_pcs else None

    def make(**options: Any) -> Game:
        if line_input is not None:
            from ..ui.line_input import Offering

            options["decider"] = Offering(options["decider"], line_input)
        game = game_class(adventure, **options) if game_class is Game else game_class(**options)
        if roster is not None:
            setattr(game, "roster", roster.fresh())  # read by story.party.roster_of  # noqa: B010
        game.think_ahead = thinker
        if line_input is not None:  # Tab after "table" offers this game's tables, the adventure's own among them
            line_input.follow("table", lambda: _table_names(game))
        return game

    return make


def _table_names(game: Game) -> list[str]:
    """What may follow ``table`` in this game: ``list`` and the names of its tables (none if a folder is broken:
    that is reported when a table is rolled, not at Tab)."""
    from ..errors import SoloError

    try:
        return ["list", *game.tables.names()]
    except (SoloError, OSError):
        return ["list"]


def _terminal_reader(console: Console, saves: Path) -> tuple[Callable[[str], str], LineInput | None]:
    """A line editor with history and Tab completion where readline exists, else rich's plain input."""
    from ..ui.line_input import HISTORY_NAME, LineInput, load_readline

    readline = load_readline()
    if readline is None:
        return (lambda prompt: console.input(prompt)), None
    line_input = LineInput(saves / HISTORY_NAME, readline=readline)
    return line_input, line_input


def _split_args(args: tuple[str, ...], party: bool) -> tuple[str | None, list[str]]:
    """The first argument is the adventure unless it is a character file; with --party the rest are characters."""
    if not args:
        return None, []
    first, rest = args[0], list(args[1:])
    if party and _is_character_file(first):
        return None, list(args)
    if rest and not party:
        raise UserError(f"unexpected argument {rest[0]!r}; "
                        "for group play write: solo play ADVENTURE --party A.toml B.toml")
    return first, rest


def _is_character_file(arg: str) -> bool:
    path = Path(arg)
    try:
        if path.suffix != ".toml" or not path.is_file():
            return False
        with open(path, "rb") as f:  # the start is enough, however large the file
            head = f.read(4000).decode("utf-8", errors="replace")
    except OSError:
        return False
    return "[adventure]" not in head and "[scenes." not in head


def _save_to_load(load: str, folder: Path) -> Path:
    """The file ``--load`` means: a path as given, or a plain NAME as NAME.json in the saves folder."""
    from ..paths import PathError, exists, file_in, path_problem, short

    path = Path(load)
    problem = path_problem(path)
    if problem:
        raise UserError(f"--load: {problem}")
    if exists(path) or path.suffix or path.name != load:
        if not path.name or path.is_dir():
            raise UserError(f"--load {short(load)}: that is a folder; give a saved game's NAME or its .json file "
                            "(see 'solo saves')")
        return path
    try:
        return file_in(folder, f"{load}.json", what="--load")
    except PathError as exc:
        raise UserError(str(exc)) from None


MAX_SCRIPT_BYTES = 4_000_000  # answers a line each: far more than any game asks


def _script_lines(script: Path) -> list[str]:
    """The lines of a --script file, read whole: at most MAX_SCRIPT_BYTES of UTF-8 text."""
    from ..paths import PathError, path_problem, read_bounded

    problem = path_problem(script)
    if problem:
        raise UserError(f"--script: {problem}")
    try:
        raw = read_bounded(script, MAX_SCRIPT_BYTES, regular=False)  # a pipe (<(...)) is a fine script
    except PathError as exc:
        raise UserError(f"--script {exc}") from None
    except OSError as exc:
        raise UserError(f"cannot read script {script}: {exc.strerror or exc}") from None
    try:
        return raw.decode("utf-8-sig").splitlines()  # a byte-order mark an editor wrote is not part of line 1
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise UserError(f"{script}:{line}: the script is not UTF-8 text") from None


def _characters_dir(saves_dir: Path | None, save_path: Path) -> Path:
    """The roster of a game (see :func:`solo.characters.roster_folder`)."""
    from ..characters import roster_folder

    return roster_folder(saves_dir, save_path)


def _fresh_slot(folder: Path, name: str, console: Console, *, explicit: bool,
                claim: Callable[[Path], None]) -> tuple[Path, Held]:
    """A save slot for a new game that never overwrites another game or its journal, made with ``claim``
    (which creates the file exclusively), and the lock the game holds on it while it is played.

    Slots are chosen under a lock of the saves folder, and one whose file exists, whose journal
    exists or whose lock another game holds is passed over: two games started at once get two slots.
    A finished game is a record the player may want to read again, so it is kept like a game in
    progress; only the "in progress" warning is spared for it.
    """
    from ..file_lock import locked, try_lock
    from ..paths import exists, file_in, resume_command
    from ..saves import SaveError, read_save
    from ..ui.session import journal_path
    from ..ui.view import say

    file_in(folder, name, what="the save name", spare=SLOT_SPARE)  # the adventure's id, or --save
    folder.mkdir(parents=True, exist_ok=True)
    with locked(folder / SLOTS_LOCK, what=f"the saves folder {folder}"):
        for n in range(1, MAX_SLOTS + 1):
            path = file_in(folder, f"{name}.json" if n == 1 else f"{name}-{n}.json", what="the save name")
            if not exists(path) and not exists(journal_path(path)):
                held = try_lock(path)
                if held is not None:
                    try:
                        claim(path)
                        return path, held
                    except FileExistsError:  # made meanwhile by a solo that took no lock: pass it over
                        pass
                    except BaseException:
                        held.release()
                        raise
                    held.release()
                    continue
            if n == 1:  # only the slot the player expects is read, to say what is there; later ones are skipped
                finished = not exists(path)  # a journal without its save: nothing to resume
                if exists(path):
                    try:
                        finished = bool((read_save(path).snapshot or {}).get("ending"))
                    except SaveError:
                        finished = False  # a damaged save is kept for its backup
                if explicit and finished:
                    raise UserError(f"the save slot {name!r} in {folder} holds a finished game and its journal: "
                                    f"choose another --save NAME, or move {path.name} away to reuse the name")
                if explicit:
                    raise UserError(f"the save slot {name!r} holds a game in progress: resume it with "
                                    f"{resume_command(path)}, or choose another --save NAME")
                if not finished:
                    say(console, f"A game of this adventure is in progress in {path}; it stays there "
                        f"({resume_command(path)}).", style="yellow", soft_wrap=True)
    raise UserError(f"{MAX_SLOTS} games of {name!r} are kept in {folder}: "
                    f"move some away, or choose another --save NAME")


def _hold(save: Path) -> Held:
    """The lock of a loaded game's save, held while it is played: two solo processes never play one save."""
    from ..file_lock import lock_path, try_lock

    try:
        held = try_lock(save)
    except OSError as exc:
        raise UserError(f"cannot lock {save} ({lock_path(save)}: {exc.strerror or exc})") from None
    if held is None:
        raise UserError(f"{save} is being played in another solo right now; finish that game first "
                        "(two games on one save would each write over the other's moves)")
    return held


MAX_SLOTS = 999
SLOTS_LOCK = "slots"  # the saves folder's lock (.slots.lock) while a new game chooses its slot
SLOT_SPARE = 24  # "-999.json" and what solo adds to a save's name (".bak", ".error.txt")


def _unwritable(folder: Path) -> str | None:
    """Say so before the game starts if a folder we must write to cannot be made or written."""
    from .folders import writable_folder_problem

    return writable_folder_problem(folder)
