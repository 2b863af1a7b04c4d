"""``solo new``: make a character and save it to a file later commands load."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from . import UserError
from .folders import FOLDER
from .limits import SEED

if TYPE_CHECKING:
    import random

    from ..rules.character import Character


@click.command("new")
@click.option("--random", "at_random", is_flag=True, help="Roll everything; ask nothing.")
@click.option("--career", metavar="NAME", help="With --random: follow this career (Detective, Pilot, Doctor …).")
@click.option("--name", help="The character's name (random characters get one from the name table).")
@click.option("--player", help="The player's name, for group play.")
@click.option("--pronoun", type=click.Choice(["she", "he", "they"]),
              help="With --random: how the story refers to the character (default: drawn with the name).")
@click.option("--roll-pools", is_flag=True, help="Roll 2d6+6 for each Pool instead of assigning 16/14/12/10.")
@click.option("--seed", type=SEED, help="Seed the dice, for a character you can make again.")
@click.option("--out", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="Where to save (default: your roster's NAME.toml, the folder 'solo characters' lists).")
@click.option("--saves", "saves_dir", type=FOLDER,
              help="Save into the roster 'solo play --saves DIR' reads: DIR/characters, or $SOLO_HOME/characters "
                   "when SOLO_HOME is set (default: $SOLO_HOME/characters, else characters/ inside $SOLO_SAVES, "
                   "else ./characters).")
@click.option("--force", is_flag=True, help="With --out: replace an existing file that is not a character solo wrote.")
@click.option("--json", "as_json", is_flag=True, help="Print the character as JSON (saved only with --out).")
def command(at_random: bool, career: str | None, name: str | None, player: str | None, pronoun: str | None,
            roll_pools: bool, seed: int | None, out: Path | None, saves_dir: Path | None, force: bool,
            as_json: bool) -> None:
    """Create a character for the Comae Engine.

    Without --random, solo asks you each choice in turn: career or your own
    skill pyramid, Focuses, Pools, Tags and the Person and Circle your
    character cares about.

    \b
    Examples:
      solo new
      solo new --random --career Soldier --seed 3
      solo new --random --json
    """
    from ..characters import current_roster, save_new_character
    from ..decisions import clean_typed
    from ..errors import SoloError
    from ..paths import path_problem
    from ..rules.creation import build_character, career_choices, random_choices
    from ..rules.dice import new_rng

    name = clean_typed(name) if name is not None else None  # bytes the terminal could not decode
    player = clean_typed(player) if player is not None else None
    from ..rules.character import MAX_NAME
    from ..terminal_text import name_problem

    for option, value in (("--name", name), ("--player", player)):  # refused before any question is asked
        if value is not None and not value.strip():
            raise UserError(f"{option}: a name cannot be blank")
        if value is not None and len(value) > MAX_NAME:
            raise UserError(f"{option}: a name has at most {MAX_NAME} characters, not {len(value):,}")
        problem = name_problem(value) if value is not None else None
        if problem:  # the loader's own rule: a file written here that `solo play` refused (a bad-input audit)
            raise UserError(f"{option}: {problem}")
    if force and out is None:
        raise UserError("--force goes with --out: it lets solo replace a file that is not a character it wrote")
    if out is not None and saves_dir is not None:
        raise UserError("--out and --saves both say where to save: give one")
    if as_json and saves_dir is not None:  # --json saves only with --out: a --saves kept quietly would save nothing
        raise UserError("--json prints the character and saves it only with --out; --saves goes without --json")
    if out is not None:
        problem = _unwritable(out, force=force)
        if problem:
            raise UserError(f"--out: {problem}")
    roster = current_roster(saves_dir)
    problem = path_problem(roster) if out is None else None
    if problem:  # refused before any question is asked, as a bad --out is
        raise UserError(f"--saves: {problem}" if saves_dir is not None else f"cannot write in {roster}: {problem}")
    rng = new_rng(seed)
    try:
        if at_random:
            if career:
                c = career_choices(career, rng, name=name, roll_pool_values=roll_pools)
            else:
                c = random_choices(rng, name=name, roll_pool_values=roll_pools)
            c.player = player
            if pronoun is not None:
                c.pronoun = pronoun
            char = build_character(c)
        else:
            if career or roll_pools or pronoun:
                raise UserError("--career, --pronoun and --roll-pools go with --random; without it solo asks you")
            if sys.stdin is None:
                raise UserError("standard input is closed: answer at a terminal, pipe the answers in, "
                                "or roll a character with --random")
            char = _interactive(rng, player, name)
    except KeyError as exc:
        raise UserError(exc.args[0]) from None
    except SoloError as exc:
        raise UserError(str(exc)) from None
    if as_json:
        if out:
            _save(char, out, force=force)
        click.echo(json.dumps(char.to_dict(), indent=2))
        return
    from rich.console import Console

    from ..ui.sheet import character_card
    from ..ui.view import say, tell

    console = Console(highlight=False)
    console.print(character_card(char))
    if out is not None:
        path = out
        _save(char, out, force=force)
    else:
        try:
            path = save_new_character(char, roster)
        except SoloError as exc:
            raise UserError(f"{exc}; the character was not saved") from None
        except OSError as exc:
            raise UserError(f"cannot write in {roster}: {exc.strerror or exc}; "
                            "the character was not saved") from None
    # the adventure named (a bare "solo play --pc" opened the tutorial, unsaid: a new player's run) and the program
    # as a new shell finds it, as every other hint of solo's
    import os
    import shlex

    from ..paths import solo_program

    whole = os.path.abspath(path)  # runs as printed from any folder, as every other hint of solo's (a newcomer's run)
    # broken between words, the path kept whole ("put another ad|venture's name" at 100 columns: a group's run)
    tell(console, "Saved to ", (whole, "bold"), ". Play with it (the tutorial here; put another adventure's name, "
         "such as vellan, in its place):")
    # the command on a line of its own, never broken (a GM-less table pasted half of it: "solo play --pc")
    say(console, "  ", (f"{solo_program()} play tutorial --pc {shlex.quote(whole)}", "bold"), soft_wrap=True)


def _unwritable(out: Path, *, force: bool) -> str | None:
    """Why a character could not be written to ``out``, said before any question is asked."""
    import os

    from ..characters import CHARACTER_FILE
    from ..paths import a_folder, path_problem, replace_problem

    problem = path_problem(out)
    if problem:
        return problem
    folder = out.parent
    try:
        if out.is_dir():
            return a_folder(out)
        if folder.exists() and not folder.is_dir():
            return f"{folder} is not a folder"
        if folder.is_dir() and not os.access(folder, os.W_OK):
            return f"cannot write in the folder {folder}"
    except OSError as exc:
        return f"{out}: {exc.strerror or exc}"
    return replace_problem(out, CHARACTER_FILE, force=force)


def _save(char: Character, path: Path, *, force: bool) -> None:
    """Write the character file by the rule for files solo writes (docs/saves.md), or stop with a one-line
    error that says nothing was saved."""
    from ..characters import CHARACTER_FILE, character_text
    from ..paths import PathError, write_owned

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_owned(path, character_text(char), CHARACTER_FILE, force=force)
    except PathError as exc:
        raise UserError(f"--out: {exc}; the character was not saved") from None
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror or exc}; the character was not saved") from None


def _interactive(rng: random.Random, player: str | None, name: str | None = None) -> Character:
    from rich.console import Console

    from ..story.play.creation import create_character
    from ..ui.prompt import TerminalDecider

    console = Console(highlight=False)
    console.print("[bold]A new character for the Comae Engine.[/] Answer with a number or a word; Ctrl-C stops.")
    try:
        return create_character(TerminalDecider(console), rng, player=player, name=name)
    except EOFError:
        raise UserError("input ended before the character was finished; nothing was saved") from None
