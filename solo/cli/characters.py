"""``solo characters``: the roster, one line a character, and how to play each one."""

from __future__ import annotations

from pathlib import Path

import click

from . import UserError
from .folders import FOLDER


@click.command("characters")
@click.option("--saves", "saves_dir", type=FOLDER,
              help="The saves folder whose characters/ to list (default: $SOLO_HOME/characters, else "
                   "characters/ inside $SOLO_SAVES, else ./characters).")
def command(saves_dir: Path | None) -> None:
    """List the characters of your roster: career, best skills, Luck and scenarios played.

    Finished games write their characters back here; 'solo play' offers them
    at "Who will you play?", and --pc NAME picks one by name.
    """
    import os
    import shlex

    from rich.console import Console

    from ..characters import current_roster, read_roster
    from ..paths import path_problem, solo_program
    from ..terminal_text import inert
    from ..ui.view import say

    folder = current_roster(saves_dir)
    problem = path_problem(folder)
    if problem:
        raise UserError(f"--saves: {problem}")
    console = Console(highlight=False)
    roster = read_roster(folder)
    if not roster.entries:
        # the folder whole ("No characters in characters yet" read as a slip: a group's evening)
        say(console, f"Your roster is empty: no characters in {folder.absolute()} yet. Finish a game, or make one "
                     "with 'solo new'.", soft_wrap=True)
    for entry in roster.entries:
        say(console, (inert(entry.name), "bold"), f"  {entry.summary}", soft_wrap=True)  # (a hand's direction mark)
        where = f" --saves {shlex.quote(os.path.abspath(saves_dir))}" if saves_dir is not None else ""
        if entry.fell:  # listed, with no command to play: the roster plays no one who died
            say(console, f"  {entry.path}", style="dim", soft_wrap=True)
            continue
        # by its whole path: a name is looked up in the roster of the folder solo is run from (a newcomer's run)
        say(console, f"  {entry.path}   play: {solo_program()} play --pc {shlex.quote(os.path.abspath(entry.path))}"
            f"{where}", style="dim", soft_wrap=True)
    for line in roster.problems:
        say(console, line, style="yellow", soft_wrap=True)
