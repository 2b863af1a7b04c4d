"""``solo session``: show and tend what an oracle session keeps (tension, threads, NPCs).

The session itself is used by ``solo oracle``, ``solo table`` and ``solo scene``
with ``--session NAME``; this is where a player looks at it, adds a thread or an
NPC the story brought in (or writes one on its list again, so it counts again),
moves a thread along its progress track or makes a discovery check on it, and
closes what the story settled.
"""

from __future__ import annotations

import json
from collections import Counter
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from . import UserError
from .folders import FOLDER
from .limits import SEED, TENSION
from .scene import (
    held_session,
    keep_session,
    look_alike,
    meant_session,
    open_session,
    saves_flag,
    session_flags,
    session_shell,
)

if TYPE_CHECKING:
    from ..oracle import Discovery
    from ..oracle.session_file import OracleSession


@click.command("session")
@click.argument("name", required=False)
@click.option("--thread", "threads", multiple=True, metavar="TEXT",
              help="Open a thread; one already open counts again, up to 3 times (repeatable).")
@click.option("--close", "closes", multiple=True, metavar="N|TEXT",
              help="Close a thread by its number in the list or its text (repeatable).")
@click.option("--progress", "progress", multiple=True, metavar="N|TEXT",
              help="Move a thread one point along its track of 10 (repeatable: twice is 2 points).")
@click.option("--discover", "discovers", multiple=True, metavar="N|TEXT",
              help="A discovery check on a thread: the PCs look for a lead (once per thread per scene; one a "
                   "command).")
@click.option("--npc", "npcs", multiple=True, metavar="NAME",
              help="Add an NPC to the story; one already there counts again, up to 3 times (repeatable).")
@click.option("--npc-gone", "gone", multiple=True, metavar="N|NAME",
              help="Take an NPC out of the story by number or name (repeatable).")
@click.option("--tension", "-t", type=TENSION, metavar="N", help="Set the tension track, 1-9.")
@click.option("--saves", "saves_dir", type=FOLDER, metavar="DIR",
              help="The saves folder; sessions are kept in sessions/ beside it "
                   "(default: beside ./saves or SOLO_SAVES; $SOLO_HOME/sessions when SOLO_HOME is set).")
@click.option("--tables", "folders", multiple=True, metavar="DIR",
              help="A folder of your own tables, for the words of --discover (repeatable; also SOLO_TABLES).")
@click.option("--seed", type=SEED, help="Seed the dice of --discover, for a result you can repeat.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def command(name: str | None, threads: tuple[str, ...], closes: tuple[str, ...], progress: tuple[str, ...],
            discovers: tuple[str, ...], npcs: tuple[str, ...], gone: tuple[str, ...], tension: int | None,
            saves_dir: Path | None, folders: tuple[str, ...], seed: int | None, as_json: bool) -> None:
    """Show the oracle session NAME, or list the sessions kept.

    A session keeps the tension track, the open threads (with their progress)
    and the NPCs in play for 'solo oracle', 'solo table' and 'solo scene' run
    with --session NAME. Numbers in --close, --progress, --discover and
    --npc-gone are the ones this command lists. A thread or an NPC added again
    counts again when the oracle picks one (shown as ×2, up to ×3).

    \b
    Examples:
      solo session
      solo session heist --thread "Who hired the courier?" --npc "Nora Dahl"
      solo session heist --progress 1 --discover 1
      solo session heist --close 1 --tension 6
    """
    from ..errors import SoloError
    from ..oracle import FLASHPOINTS, TRACK, check_tension
    from ..oracle.session_file import known_entry, pick_entry, session_names, sessions_folder

    if len(discovers) > 1:  # the first was dropped without a word (a group's evening): say why one at a time
        raise UserError("one --discover a command: a discovery check is a scene's search for one thread's lead; "
                        "run the command again for another thread")
    discover = discovers[0] if discovers else None
    if name is None:
        if threads or closes or npcs or gone or progress or discover or tension is not None:
            raise UserError("name the session to change, e.g. solo session heist --thread TEXT")
        folder = sessions_folder(saves_dir)
        names = session_names(folder)
        if as_json:
            click.echo(json.dumps({"folder": str(folder), "sessions": names}))
        elif names:
            click.echo(f"Sessions in {folder}:")
            for n in names:
                click.echo(f"  {n}")
        else:
            click.echo(f"No sessions in {folder} yet: start one with solo scene --session NAME"
                       f"{saves_flag(saves_dir)}.")
        return
    changing = bool(threads or closes or npcs or gone or progress or discover or tension is not None)
    with held_session(name, saves_dir) if changing else nullcontext(open_session(name, saves_dir)) as session:
        assert session is not None
        notes: list[str] = []
        found = None
        steps = []
        if session.new and (closes or progress or discover or gone):  # numbers of a session that is not there
            from ..oracle.session_file import no_session  # (a group's evening: "no thread number 1" of --session fery)

            raise UserError(no_session(session.name, session.path.parent, session.flags))
        try:
            # numbers are read against the lists as last shown, before anything moves up
            moving = [session.thread(which) for which in progress]
            searching = session.thread(discover) if discover else None
            closing = [session.thread(which) for which in closes]
            leaving = [pick_entry(session.state.npcs, which, "NPC") for which in gone]
            for text, points in Counter(moving).items():  # each --progress a point, shown as one step a thread
                first = session.add_progress(text)
                last = first
                for _ in range(points - 1):
                    last = session.add_progress(text) if last.after < TRACK else last
                steps.append(replace(last, before=first.before,
                                     flashpoints=tuple(f for f in FLASHPOINTS if first.before < f <= last.after)))
            if searching is not None:
                found = _discover(session, searching, folders, seed)
            for text in dict.fromkeys(closing):
                notes.append(f"Closed thread: {session.close_thread(text)}")
            for npc in dict.fromkeys(leaving):
                notes.append(f"Gone from the story: {session.remove_npc(npc)}")
            for i, text in enumerate(threads):
                alike = look_alike(session, "thread", text)
                weight = _weighed(session.add_thread, text, threads[:i], "--thread")
                if weight > 1:
                    notes.append(f"Thread counts \u00d7{weight}: {known_entry(session.state.threads, text)}")
                elif alike:
                    notes.append(alike)
            for i, npc in enumerate(npcs):
                alike = look_alike(session, "npc", npc)
                weight = _weighed(session.add_npc, npc, npcs[:i], "--npc")
                if weight > 1:
                    notes.append(f"NPC counts \u00d7{weight}: {known_entry(session.state.npcs, npc)}")
                elif alike:
                    notes.append(alike)
            if tension is not None:
                session.state.tension = check_tension(tension)
        except SoloError as exc:
            raise UserError(str(exc)) from None
        known = session.path.exists()
        if changing:
            keep_session(session)
    s = session.state
    if as_json:
        data = {"name": session.name, "file": str(session.path), "tension": s.tension, "scenes": session.scenes,
                "context": s.context, "closed": session.closed, "threads": s.threads, "npcs": s.npcs, "pcs": s.pcs,
                "weights": {"threads": {t: s.thread_weight(t) for t in s.threads},
                            "npcs": {n: s.npc_weight(n) for n in s.npcs}},
                "progress": {t: s.thread_progress(t) for t in s.threads}, "searched": s.searched,
                "new": session.new}
        if steps:
            data["steps"] = [step.to_dict() for step in steps]
        if found is not None:
            data["discovery"] = found.to_dict()
        click.echo(json.dumps(data))
        return
    from ..ui.describe import discovery, thread_progress, track_text, weight_mark

    def close(thread: str) -> str | None:
        """The command that closes ``thread``; none for one this command closed already (--progress 1 --close 1 had
        crashed looking the closed thread up, the change already saved: a group's evening)."""
        return f"{session_shell(session)} --close {s.threads.index(thread) + 1}" if thread in s.threads else None

    for step in steps:
        click.echo(thread_progress(step.to_dict(), close(step.thread), settled=step.thread not in s.threads))
    if found is not None:
        click.echo(discovery(found.to_dict(), close(found.thread), settled=found.thread not in s.threads))
    for line in notes:
        click.echo(line)
    meant = meant_session(session)
    if not (known or changing):
        # nothing is made by looking: said, with how one begins (a newcomer read "new" and then had 'solo oracle
        # --session test' refuse a session that was never kept)
        fresh = (f" (not begun: nothing is kept until a thread, an NPC, a tension or a scene is: "
                 f"{session_shell(session)} --thread \"…\", or solo scene \"…\" {session_flags(session)}"
                 f"{f'; did you mean {meant!r}?' if meant else ''})")
    else:
        fresh = (f", new (did you mean {meant!r}?)" if meant else ", new") if session.new else ""
    click.echo(f"Session {session.name}{fresh}: tension {s.tension} of 9, {session.scenes} scene"
               f"{'' if session.scenes == 1 else 's'} set up.")
    if s.context:  # a scene closed with --end is the last one, not this one (a group's evening)
        click.echo(f"{'Last scene (closed)' if session.closed else 'This scene'}: {s.context}")
    click.echo("Open threads:" if s.threads else "Open threads: none.")
    for i, text in enumerate(s.threads, 1):
        click.echo(f"  {i}. {text}{weight_mark(s.thread_weight(text))} \u00b7 {track_text(s.thread_progress(text))}")
    click.echo("NPCs:" if s.npcs else "NPCs: none.")
    for i, npc in enumerate(s.npcs, 1):
        click.echo(f"  {i}. {npc}{weight_mark(s.npc_weight(npc))}")
    if s.pcs:  # named in the file alone (docs/oracle.md §8): shown, as what random events may name
        click.echo("Player characters: " + ", ".join(s.pcs))


def _weighed(add, name: str, before: tuple[str, ...], option: str) -> int:
    """Add ``name`` once more; past the most an entry may count, say how many of those this command gave it, and
    that nothing was kept: "'Nora Dahl' already counts 3 times" came after two of the three were this command's
    own, and the session was left as it was (a new player's run)."""
    try:
        return add(name, again=True)
    except ValueError as exc:
        mine = sum(b.strip().casefold() == name.strip().casefold() for b in before)  # as known_entry matches
        if not mine:
            raise
        raise UserError(f"{option} {name}: {exc}, {mine} of them named in this command; the session is left as "
                        "it was") from None


def _discover(session: OracleSession, thread: str, folders: tuple[str, ...], seed: int | None) -> Discovery:
    """A discovery check on the session's thread, with the given seed (or fresh dice)."""
    from ..oracle import discover, load_tables
    from ..oracle.likelihood import OracleError
    from ..rules.dice import new_rng

    tables = load_tables(folders)
    try:
        return discover(new_rng(seed), session.state, thread, tables)
    except ValueError as exc:
        raise OracleError(str(exc)) from None
