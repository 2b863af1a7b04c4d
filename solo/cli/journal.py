"""``solo journal``: the journal of a saved game, shown or exported.

Every game keeps its journal beside its save (``saves/NAME.md``). A save from
before that has none: its journal is rebuilt by replaying the save out of
sight, as loading it would, and written beside it for next time.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from . import UserError
from .folders import FOLDER, folder_problem

if TYPE_CHECKING:
    from ..saves import SaveData
    from ..ui.session import Session

MAX_JOURNAL_BYTES = 16_000_000  # as large as a save may be: a journal is a few times its log at most


@click.command("journal")
@click.argument("name", metavar="NAME|FILE")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the journal (Markdown) to this file instead of printing it.")
@click.option("--force", is_flag=True,
              help="With --out: replace an existing file that is not a journal solo wrote.")
@click.option("--saves", "saves_dir", type=FOLDER,
              help="Folder of the saves (default: $SOLO_SAVES, $SOLO_HOME/saves or ./saves).")
def command(name: str, out: Path | None, saves_dir: Path | None, force: bool) -> None:
    """Show the journal of the saved game NAME (see 'solo saves'), or of a save FILE.

    At a terminal it is shown formatted; piped, or with --out, it is the
    Markdown itself, front matter included. A save from before solo kept
    journals gets its journal rebuilt from the save (and written beside it).

    \b
    Examples:
      solo journal tutorial
      solo journal vellan --out ~/vault/vellan.md
    """
    from ..paths import PathError, default_saves, path_problem, read_bounded, write_owned
    from ..ui.journal import JOURNAL_FILE
    from ..ui.session import journal_path

    folder = saves_dir or default_saves()
    problem = folder_problem("--saves" if saves_dir else "SOLO_SAVES", folder)
    if problem:
        raise UserError(problem)
    problem = path_problem(out) if out is not None else None
    if problem:
        raise UserError(f"--out: {problem}")
    save = _save_of(name, folder)
    kept = journal_path(save)
    text: str | None = None
    try:
        text = read_bounded(kept, MAX_JOURNAL_BYTES).decode("utf-8", errors="replace")
    except FileNotFoundError:
        text = None
    except (PathError, OSError) as exc:
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise UserError(f"cannot read the journal {kept}: {detail}") from None
    if out is not None:
        _check_out(out, save, force=force)  # before any rebuild, which may take a while
    if text is None:
        text = _rebuild(save, kept)
    if out is not None:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            write_owned(out, text, JOURNAL_FILE, force=force)
        except PathError as exc:
            raise UserError(f"--out: {exc}") from None
        except OSError as exc:
            raise UserError(f"--out: cannot write {out}: {exc.strerror or exc}") from None
        click.echo(f"Wrote the journal of {save.name} to {out}.")
        return
    if sys.stdout.isatty():
        _show(text)
    else:  # piped: the Markdown itself, but a journal edited by hand is never acted on where it is shown next
        from ..terminal_text import inert

        click.echo(inert(text), nl=False)


def _check_out(out: Path, save: Path, *, force: bool) -> None:
    """Refuse an --out that would destroy a game (the save, its backup) or a file that is not a journal solo
    wrote, unless --force."""
    from ..paths import replace_problem
    from ..ui.journal import JOURNAL_FILE

    for kept, what in ((save, "the save itself"), (save.with_name(save.name + ".bak"), "the save's backup")):
        if _same_path(out, kept):
            raise UserError(f"--out: {out} is {what}; give another file name (for example {save.stem}-journal.md)")
    problem = replace_problem(out, JOURNAL_FILE, force=force)
    if problem:
        raise UserError(f"--out: {problem}")


def _same_path(one: Path, other: Path) -> bool:
    """Whether two paths name one file, existing or not (a link or another spelling of it counts)."""
    try:
        if one.exists() and other.exists():
            return one.samefile(other)
        return one.resolve() == other.resolve()
    except OSError:
        return False


def _save_of(name: str, folder: Path) -> Path:
    """The save NAME means: a file as given (a save, or the journal beside one), else NAME.json in the folder."""
    from ..paths import PathError, exists, file_in, short

    if not name.strip():
        raise UserError("NAME: give the name of a saved game (see 'solo saves')")
    path = Path(name)
    if not path.name or exists(path) and path.is_dir():
        raise UserError(f"{short(name)}: that is a folder; give a saved game's NAME or its .json file "
                        "(see 'solo saves')")
    if exists(path) and path.is_file() or path.suffix in (".json", ".md") or path.name != name:
        if path.suffix == ".md":
            path = path.with_name(path.name.removesuffix(".md") + ".json")
        return path
    try:
        return file_in(folder, f"{name}.json", what="the save name")
    except PathError as exc:
        raise UserError(str(exc)) from None


def _rebuild(save: Path, kept: Path) -> str:
    """The journal of an old save, rebuilt by replaying it out of sight, then kept beside it if it replayed whole."""
    from ..paths import exists, short_path, write_atomic
    from ..saves import SaveError, read_save

    if not exists(save):
        from ..oracle.session_file import session_names, sessions_folder

        # a session's name given for a game's (a GM-less table's run): a session keeps no journal
        if save.stem in session_names(sessions_folder(save.parent)):
            raise UserError(f"no saved game at {save}: {save.stem!r} is a session, which keeps its tension, threads "
                            f"and NPCs but no journal (solo session {save.stem} shows them); see 'solo saves' for "
                            "the games")
        raise UserError(f"no saved game at {save} (see 'solo saves')")
    try:
        data = read_save(save)
    except SaveError as exc:
        raise UserError(str(exc)) from None
    session = _session_for(save, data)
    text, code = session.rebuild_journal()
    if code not in (0,):
        click.echo(f"{short_path(save)}: the save could not be replayed to its end; this journal stops where "
                   "the replay did.", err=True)
        return text
    try:
        write_atomic(kept, text, exclusive=True)  # a game resumed meanwhile writes its own: that one stays
        where = f"and written to {kept}"
    except FileExistsError:
        where = f"and not written: {kept} appeared meanwhile"
    except OSError as exc:
        where = f"but could not be written to {kept} ({exc.strerror or exc})"
    click.echo(f"{save.name} had no journal beside it: rebuilt by replaying the save, {where}.", err=True)
    return text


def _session_for(save: Path, data: SaveData) -> Session:
    """A session that replays ``data`` as ``solo play --load`` would, on a console nobody sees."""
    from rich.console import Console

    from ..errors import SoloError
    from ..paths import short_path
    from ..rules.character import Character
    from ..story.format.library import saved_adventure
    from ..story.format.loader import load_adventure
    from ..story.play.engine import Game, edition_of
    from ..story.play.open_play import OPEN_ID, OpenGame, open_adventure
    from ..ui.session import Session

    game_class: type[Game] = Game
    moved: str | None = None
    try:
        edition = edition_of(data.options)  # a newer solo's game is refused first, as a reason, not an internal error
        if data.adventure_id == OPEN_ID:
            adventure, game_class = open_adventure(), OpenGame
        else:
            source, moved = saved_adventure(data.adventure_source, data.adventure_id)
            adventure = load_adventure(source)
        party = [Character.from_dict(p) for p in data.party] if data.party else None
    except (SoloError, OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise UserError(f"{short_path(save)}: the game cannot be replayed to rebuild its journal: {detail}") from None
    if moved and not adventure.made_from(data.adventure_hash):  # the same files elsewhere: nothing to say
        click.echo(f"{short_path(save)}: {moved}", err=True)
    if not adventure.made_from(data.adventure_hash):
        click.echo(f"{short_path(save)}: the adventure changed since this save; the rebuilt journal may not fit.",
                   err=True)
    quiet = Console(file=io.StringIO(), width=100, color_system=None, highlight=False)  # highlighting is quadratic
    return Session(adventure, seed=data.seed, console=quiet, reader=lambda prompt: "", save_path=save,
                   party=party, log=data.log, advise=bool(data.options.get("advise", True)), game_class=game_class,
                   edition=edition)


def _show(text: str) -> None:
    """The journal formatted for a terminal: a line for the front matter, the body as rich renders Markdown."""
    from rich.console import Console
    from rich.markdown import Markdown

    from ..terminal_text import inert
    from ..ui.journal import split_front_matter
    from ..ui.view import say

    meta, body = split_front_matter(inert(text))  # a journal edited by hand: shown, never acted on
    console = Console(highlight=False)
    facts = []
    for key in ("characters", "date", "seed", "ending"):
        if key in meta:
            facts.append(f"{key}: {inert(_unquoted(meta[key]))}")  # (a JSON string's \u001b is an ESC again)
    if facts:
        say(console, " · ".join(facts), style="dim", soft_wrap=True)
    console.print(Markdown(body, hyperlinks=False))  # a link shows where it leads


def _unquoted(value: str) -> str:
    """A front-matter value as a person reads it: strings without their quotes, a list as its items."""
    from ..json_files import loads

    try:
        parsed = loads(value)
    except ValueError:  # (JSONRefused is one: a list nested thousands deep)
        return value
    if isinstance(parsed, list):
        return ", ".join(str(v) for v in parsed)
    return str(parsed)
