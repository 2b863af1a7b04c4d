"""``solo saves``: the saved games in the save folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click


@click.command("saves")
@click.option("--saves", "saves_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Folder to list (default: $SOLO_SAVES or ./saves).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def command(saves_dir: Path | None, as_json: bool) -> None:
    """List saved games: where each one stands and how to resume it."""
    from ..paths import default_saves
    from ..saves import list_saves

    folder = saves_dir or default_saves()
    rows: list[dict[str, Any]] = []  # the --json output, one object per file
    for path, data, problem in list_saves(folder):
        if data is None:
            rows.append({"file": str(path), "ok": False, "problem": problem})
            continue
        snap = data.snapshot or {}
        party = [pc.get("name", "?") for pc in snap.get("party", [])]
        decisions = sum(1 for e in data.log if e[0] == "a")
        rows.append({"file": str(path), "ok": True, "name": path.stem, "adventure": data.adventure_id,
                     "where": data.label, "party": party, "decisions": decisions,
                     "ended": bool(snap.get("ending"))})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    if not rows:
        click.echo(f"No saves in {folder}. Start a game with: solo play")
        return
    for row in rows:
        if not row["ok"]:
            click.echo(f"{row['file']}: cannot be read ({row['problem']})")
            continue
        state = "finished" if row["ended"] else f"{row['decisions']} decisions"
        names = ", ".join(row["party"]) or "no party yet"
        click.echo(f"{row['name']:<16} {row['where']}  [{names}; {state}]  -> solo play --load {row['file']}")
