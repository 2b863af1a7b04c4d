"""``solo session``: show and tend what an oracle session keeps (tension, threads, NPCs).

The session itself is used by ``solo oracle``, ``solo table`` and ``solo scene``
with ``--session NAME``; this is where a player looks at it, adds a thread or an
NPC the story brought in, and closes what the story settled.
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from pathlib import Path

import click

from . import UserError
from .folders import FOLDER
from .limits import TENSION
from .scene import held_session, keep_session, open_session


@click.command("session")
@click.argument("name", required=False)
@click.option("--thread", "threads", multiple=True, metavar="TEXT", help="Open a thread (repeatable).")
@click.option("--close", "closes", multiple=True, metavar="N|TEXT",
              help="Close a thread by its number in the list or its text (repeatable).")
@click.option("--npc", "npcs", multiple=True, metavar="NAME", help="Add an NPC to the story (repeatable).")
@click.option("--npc-gone", "gone", multiple=True, metavar="N|NAME",
              help="Take an NPC out of the story by number or name (repeatable).")
@click.option("--tension", "-t", type=TENSION, metavar="N", help="Set the tension track, 1-9.")
@click.option("--saves", "saves_dir", type=FOLDER, metavar="DIR",
              help="The saves folder; sessions are kept in sessions/ beside it "
                   "(default: beside ./saves or SOLO_SAVES; $SOLO_HOME/sessions when SOLO_HOME is set).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def command(name: str | None, threads: tuple[str, ...], closes: tuple[str, ...], npcs: tuple[str, ...],
            gone: tuple[str, ...], tension: int | None, saves_dir: Path | None, as_json: bool) -> None:
    """Show the oracle session NAME, or list the sessions kept.

    A session keeps the tension track, the open threads and the NPCs in play
    for 'solo oracle', 'solo table' and 'solo scene' run with --session NAME.
    Numbers in --close and --npc-gone are the ones this command lists.

    \b
    Examples:
      solo session
      solo session heist --thread "Who hired the courier?" --npc "Nora Dahl"
      solo session heist --close 1 --tension 6
    """
    from ..errors import SoloError
    from ..oracle import check_tension
    from ..oracle.session_file import pick_entry, session_names, sessions_folder

    if name is None:
        if threads or closes or npcs or gone or tension is not None:
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
            click.echo(f"No sessions in {folder} yet: start one with solo scene --session NAME.")
        return
    changing = bool(threads or closes or npcs or gone or tension is not None)
    with held_session(name, saves_dir) if changing else nullcontext(open_session(name, saves_dir)) as session:
        assert session is not None
        notes: list[str] = []
        try:
            # numbers are read against the lists as last shown, before anything moves up
            closing = [session.thread(which) for which in closes]
            leaving = [pick_entry(session.state.npcs, which, "NPC") for which in gone]
            for text in dict.fromkeys(closing):
                notes.append(f"Closed thread: {session.close_thread(text)}")
            for npc in dict.fromkeys(leaving):
                notes.append(f"Gone from the story: {session.remove_npc(npc)}")
            for text in threads:
                session.add_thread(text)
            for npc in npcs:
                session.add_npc(npc)
            if tension is not None:
                session.state.tension = check_tension(tension)
        except SoloError as exc:
            raise UserError(str(exc)) from None
        known = session.path.exists()
        if changing:
            keep_session(session)
    s = session.state
    if as_json:
        click.echo(json.dumps({"name": session.name, "file": str(session.path), "tension": s.tension,
                               "scenes": session.scenes, "context": s.context, "threads": s.threads,
                               "npcs": s.npcs}))
        return
    for line in notes:
        click.echo(line)
    fresh = "" if known or changing else " (new: nothing kept yet)"
    click.echo(f"Session {session.name}{fresh}: tension {s.tension} of 9, {session.scenes} scene"
               f"{'' if session.scenes == 1 else 's'} set up.")
    if s.context:
        click.echo(f"This scene: {s.context}")
    click.echo("Open threads:" if s.threads else "Open threads: none.")
    for i, text in enumerate(s.threads, 1):
        click.echo(f"  {i}. {text}")
    click.echo("NPCs:" if s.npcs else "NPCs: none.")
    for i, npc in enumerate(s.npcs, 1):
        click.echo(f"  {i}. {npc}")
