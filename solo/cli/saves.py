"""``solo saves``: the saved games in the save folder."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Any

import click

from ..paths import solo_program
from . import UserError
from .folders import FOLDER, folder_problem


@click.command("saves")
@click.option("--saves", "saves_dir", type=FOLDER,
              help="Folder to list (default: $SOLO_SAVES, $SOLO_HOME/saves or ./saves).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def command(saves_dir: Path | None, as_json: bool) -> None:
    """List saved games: where each one stands and how to resume it.

    A file that cannot be read as a save (damaged, not a regular file, too
    large) is listed with the reason; the others are listed as usual.
    """
    from ..paths import default_saves, resume_command
    from ..saves import list_saves

    folder = saves_dir or default_saves()
    problem = folder_problem("--saves" if saves_dir else "SOLO_SAVES", folder)
    if problem:
        raise UserError(problem)
    rows: list[dict[str, Any]] = []  # the --json output, one object per file
    try:
        found = list_saves(folder)
    except OSError as exc:
        raise UserError(f"cannot list the saves in {folder}: {exc.strerror or exc}") from None
    for path, data, problem in found:
        if data is None:
            rows.append({"file": str(path), "ok": False, "problem": problem})
            continue
        snap = data.snapshot or {}
        party = [pc.get("name", "?") for pc in snap.get("party", [])]
        decisions = sum(1 for e in data.log if e[0] == "a")
        rows.append({"file": str(path), "ok": True, "name": path.stem, "adventure": data.adventure_id,
                     "where": data.label, "party": party, "pc": data.options.get("pc") is not False,
                     "decisions": decisions,
                     "ended": bool(snap.get("ending")), "improving": snap.get("improving") is True})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    if not rows:
        # the folder whole: "No saves in saves." named no place a player could look (a new player's run)
        click.echo(f"No saves in {os.path.abspath(folder)}. Start a game with: {solo_program()} play")
        return
    for row in rows:
        if not row["ok"]:
            reason = row["problem"].removeprefix(f"{row['file']}: ").rstrip(".")
            click.echo(_one_line(f"{row['file']}: cannot be read ({reason})"))
            continue
        state = ("at its end, the improvements still to choose" if row["improving"] else "finished") if row["ended"] \
            else f"{row['decisions']} decision{'' if row['decisions'] == 1 else 's'}"
        names = ", ".join(row["party"]) or ("no party yet" if row["pc"] else "no player character")
        # the command that resumes it on a line of its own: at the end of a long row a terminal wrapped it, and
        # "solo" copied apart from "play --load" (a new player's run)
        click.echo(_one_line(f"{row['name']:<16} {row['where']}  [{names}; {state}]"))
        if row["ended"] and not row["improving"]:  # nothing to resume: loading it said "Start a new one" (a group)
            journal = f"{solo_program()} journal {shlex.quote(os.path.abspath(row['file']))}"
            click.echo("  read it: " + _one_line(journal))
        else:
            click.echo("  " + _one_line(resume_command(row["file"])))


def _one_line(text: str) -> str:
    """A row as one line: whatever a save holds, its line breaks and control characters are shown as spaces,
    and a lone surrogate (a byte a terminal could not decode, kept as ``\\ud800`` in the JSON) as U+FFFD."""
    return "".join(" " if ord(ch) < 32 or ord(ch) == 127 else "\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch
                   for ch in text)
