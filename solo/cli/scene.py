"""``solo scene``: set up the next scene, or close one, for players running their own game.

The check is the one ``solo play --open`` makes (expected, altered, interrupted
by the tension) and the close moves the tension by the game's own rule. With
``--session NAME`` both read and keep the tension, threads and NPCs in a
session file; this module also holds the ``--session`` plumbing that
``solo oracle``, ``solo table`` and ``solo session`` share.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from . import UserError
from .folders import FOLDER
from .limits import SEED, TENSION

if TYPE_CHECKING:
    from ..oracle.session_file import OracleSession

F = TypeVar("F", bound=Callable[..., Any])
WENT = {"well": True, "badly": False, "mixed": None}  # were the PCs in control (tension_after_scene)


def session_options(func: F | None = None, *, reads: str | None = None) -> Any:
    """``--session NAME`` and ``--saves DIR`` (where the sessions folder is), for every command that keeps one;
    ``reads``: what a command that only reads the session takes from it (its help must not promise to keep)."""
    def add(func: F) -> F:
        func = click.option("--saves", "saves_dir", type=FOLDER, metavar="DIR",
                            help="The saves folder; sessions are kept in sessions/ beside it (default: beside "
                                 "./saves or SOLO_SAVES; $SOLO_HOME/sessions when SOLO_HOME is set).")(func)
        told = (f"Read {reads} from the session NAME, which must exist; it is never changed"
                if reads else "Keep tension, threads and NPCs in the session NAME between commands")
        func = click.option("--session", "session_name", metavar="NAME",
                            help=f"{told} (see 'solo session NAME').")(func)
        return func

    return add(func) if func is not None else add


def open_session(name: str, saves_dir: Path | None, *, must_exist: bool = False) -> OracleSession:
    """The session NAME as it is on disk now, to read (a command that changes it uses :func:`held_session`)."""
    from ..errors import SoloError
    from ..oracle.session_file import load_session, sessions_folder

    try:
        return load_session(name, sessions_folder(saves_dir), must_exist=must_exist, flags=saves_flag(saves_dir))
    except SoloError as exc:
        raise UserError(str(exc)) from None


def saves_flag(saves_dir: Path | None) -> str:
    """" --saves DIR" for a command printed for a session found through --saves (its whole path), else nothing."""
    import os

    return f" --saves {shlex.quote(os.path.abspath(saves_dir))}" if saves_dir is not None else ""


def session_flags(session: OracleSession) -> str:
    """``--session NAME`` as a command printed for ``session`` must say it, with its --saves where one was given."""
    return f"--session {shlex.quote(session.name)}{session.flags}"


@contextmanager
def held_session(name: str | None, saves_dir: Path | None) -> Iterator[OracleSession | None]:
    """``with held_session(NAME, DIR) as session:`` the session NAME (None without a name), read and
    written back (by :func:`keep_session`) while its lock is held, so that a second solo changing the
    same session at the same moment waits for this one and builds on what it wrote (docs/saves.md)."""
    if name is None:
        yield None
        return
    from ..errors import SoloError
    from ..file_lock import locked
    from ..oracle.session_file import session_path, sessions_folder

    folder = sessions_folder(saves_dir)
    try:
        path = session_path(name, folder)
        folder.mkdir(parents=True, exist_ok=True)
        with locked(path, what=f"the session {path.stem!r}"):
            yield open_session(name, saves_dir)
    except SoloError as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"cannot keep the session in {folder}: {exc.strerror or exc}") from None


def keep_session(session: OracleSession) -> None:
    from ..errors import SoloError
    from ..oracle.session_file import save_session

    try:
        save_session(session)
    except SoloError as exc:
        raise UserError(str(exc)) from None


def meant_session(session: OracleSession) -> str | None:
    """For a session this command starts, the kept one its name may have been meant for: a misspelt name starts a
    session of its own (a GM-less table's 'dokc' beside 'dock')."""
    if not session.new:
        return None
    from ..errors import closest
    from ..oracle.session_file import session_names

    return closest(session.name, [n for n in session_names(session.path.parent) if n != session.name])


def session_shell(session: OracleSession | None) -> str:
    """The command an event's follow-ups name at a shell: the session's own, or one with NAME for a session to keep
    them in (``npcs add NAME`` is a command of play: typed at a shell it read "bash: npcs: command not found")."""
    from ..ui.describe import UNKEPT

    return f"solo session {shlex.quote(session.name)}{session.flags}" if session is not None else UNKEPT


def session_line(session: OracleSession) -> str:
    """One line at the foot of a command's answer: what the session now holds."""
    s = session.state
    meant = meant_session(session)
    started = (f", new (did you mean {meant!r}?)" if meant else ", new") if session.new else ""
    return (f"Session {session.name}{started}: tension {s.tension} of 9 · scene {session.scenes} · "
            f"{_count(len(s.threads), 'open thread')} · {_count(len(s.npcs), 'NPC')}")


def look_alike(session: OracleSession, kind: str, added: str) -> str | None:
    """A note for a name just added that is not one the session keeps but reads like one ("Mag the ferrywomen" beside
    "Mag the ferrywoman"), with the command that takes it out again: kept as a second entry, it was picked as often
    as the first, and nothing said so (a GM-less table's evening). ``kind``: "npc" or "thread"."""
    from ..errors import closest

    entries = session.state.npcs if kind == "npc" else session.state.threads
    key = added.strip().casefold()
    if any(e.casefold() == key for e in entries):  # kept already: it counts once more, and reads like nothing new
        return None
    near = closest(added.strip(), entries)
    if near is None:
        return None
    gone = "--npc-gone" if kind == "npc" else "--close"
    what = "an NPC" if kind == "npc" else "a thread"
    return (f"Added {what} of its own: {added.strip()!r}, though {near!r} is kept already; if they are one, take the "
            f"new one out: {session_shell(session)} {gone} {shlex.quote(added.strip())}")


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


@click.command("scene")
@click.argument("expected", nargs=-1)
@click.option("--end", "went", type=click.Choice(sorted(WENT), case_sensitive=False), metavar="well|badly|mixed",
              help="Close the scene instead: well (the PCs were in control: tension -1), badly (+1), mixed (=).")
@click.option("--tension", "-t", type=TENSION, metavar="N",
              help="The tension track, 1-9 (default 5; with --session, the session's; given, it is kept).")
@session_options
@click.option("--tables", "folders", multiple=True, metavar="DIR",
              help="A folder of your own tables, searched before the bundled ones (repeatable; also SOLO_TABLES).")
@click.option("--seed", type=SEED, help="Seed the dice, for a result you can repeat.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def command(expected: tuple[str, ...], went: str | None, tension: int | None, session_name: str | None,
            saves_dir: Path | None, folders: tuple[str, ...], seed: int | None, as_json: bool) -> None:
    """Check how the next scene starts: say what you EXPECT, the oracle says if it holds.

    One d100 against the tension: low rolls interrupt the scene with a random
    event, the next band alters it, the rest leave it as expected. After the
    scene, close it with --end: the tension falls when the PCs kept control and
    rises when they lost it.

    \b
    Examples:
      solo scene "We search the harbour office before dawn" --session heist
      solo scene --end badly --session heist
      solo scene --tension 7 --seed 3
    """
    from ..errors import SoloError
    from ..oracle import OracleState, check_tension

    text = " ".join(expected).strip()
    if went is not None and text:
        raise UserError("--end closes a scene; say what you expect only when you start one")
    with held_session(session_name, saves_dir) as session:
        try:
            if tension is not None:
                check_tension(tension)
            state = session.state if session else OracleState()
            if tension is not None:
                state.tension = tension
            if went is not None:
                result = _end(state, went, session)
            else:
                result = _check(state, text, folders, seed, session)
        except SoloError as exc:
            raise UserError(str(exc)) from None
        if session:
            keep_session(session)
            result["session"], result["session_new"] = session.name, session.new
    if as_json:
        click.echo(json.dumps(result))
        return
    for line in result.pop("lines"):
        click.echo(line)
    if session:
        click.echo(session_line(session))
    elif went is not None:  # the new tension is the player's to carry: nothing keeps it (a GM-less table's run)
        click.echo(f"No session keeps it: give --tension {result['tension']} to the next command, or keep a session "
                   "with --session NAME.")


#: How a scene went, as a sentence says it ("Scene 2 went mixed" read oddly).
_WENT_WORDS = {"well": "went well", "badly": "went badly", "mixed": "had mixed results"}


def _end(state: Any, went: str, session: OracleSession | None) -> dict[str, Any]:
    scene = f"Scene {session.scenes}" if session and session.scenes else "The scene"
    if session is not None and session.new:  # a slip of the name, most likely: not "no scene yet" of a session
        from ..oracle.session_file import no_session  # that does not exist (a group's evening: --session fery)

        raise UserError(no_session(session.name, session.path.parent, session.flags))
    if session is not None and not session.scenes:  # nothing set up to close (a group's evening: "scene 0" went badly)
        raise UserError(f"Session {session.name} has no scene yet to close; set one up first: "
                        f"solo scene \"…\" {session_flags(session)}")
    if session is not None and session.closed:  # once a scene: the tension moves once for it
        raise UserError(f"{scene} of session {session.name} is closed already; set up the next first: "
                        f"solo scene \"…\" {session_flags(session)}")
    before = state.tension
    after = state.end_scene(WENT[went])
    if session is not None:
        session.closed = True
    if after == before:
        why = {"mixed": "a mixed scene leaves it", "well": "it cannot fall below 1",
               "badly": "it cannot rise above 9"}[went]
        change = f"the tension stays at {after} ({why})"
    else:
        change = f"the tension {'eases' if after < before else 'rises'} from {before} to {after}"
    return {"went": went, "tension_before": before, "tension": after,
            "lines": [f"{scene} {_WENT_WORDS[went]}: {change}."]}


def _check(state: Any, text: str, folders: tuple[str, ...], seed: int | None,
           session: OracleSession | None) -> dict[str, Any]:
    from ..oracle import load_tables, set_up_scene
    from ..oracle.scenes import scene_faces
    from ..rules.dice import new_rng, two_digits
    from ..ui.describe import scene_setup

    tables = load_tables(folders)
    number = None
    open_before = ""
    if session is not None and session.scenes and not session.closed:
        # a scene set up over one never closed: its end would have moved the tension (a GM-less table's run)
        open_before = (f"Scene {session.scenes} was not closed, so the tension stays at {state.tension} (close a "
                       f"scene with solo scene --end well|badly|mixed {session_flags(session)}).")
    if session is not None:
        session.scenes += 1
        session.closed = False
        number = session.scenes
        state.new_scene()
        # the scene's situation: what random events that name nobody follow; a scene set up with none has none (a
        # group's evening: scene 6's event "follows the current situation" of scene 4, two scenes old)
        if text:
            session.set_context(text)
        else:
            state.context = ""
    setup = set_up_scene(new_rng(seed), tables, state)
    data = setup.to_dict()
    bands = []
    for kind, faces in sorted(scene_faces(setup.tension).items(), key=lambda kv: kv[1] or (101, 0)):
        if faces:
            low, high = faces
            word = "as expected" if kind == "expected" else kind
            bands.append(f"{word} {low}-{high if high < 100 else '00'}")
    head = f"Scene {number}" if number else "Next scene"
    lines = [open_before] if open_before else []
    lines.append(f"{head}, as you expect it: {text.rstrip('.')}." if text else f"{head}.")
    lines.append(f"Tension {setup.tension}: " + ", ".join(bands) + ".")
    told = scene_setup(data, session_shell(session), kept=session is not None)
    lines.append(f"Roll: {two_digits(setup.roll)} → {told}")
    return {**data, "expected": text, "scene": number, "lines": lines}
