"""``solo map``: an adventure's scenes and the ways between them, as a diagram."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..sim.prove.limits import DEFAULT_MAX_STATES, MAX_STATES_LIMIT
from . import UserError, broken_adventure
from .limits import Whole

if TYPE_CHECKING:
    from ..story.format.adventure import Adventure


@click.command("map")
@click.argument("adventure")
@click.option("--format", "fmt", type=click.Choice(["mermaid", "dot"]), default="mermaid", show_default=True,
              help="Mermaid (GitHub and many editors draw it) or Graphviz DOT (dot -Tsvg).")
@click.option("--stats", type=click.Path(dir_okay=False, path_type=Path), metavar="SIM.json",
              help="A 'solo simulate --json' report: show how often each scene was visited.")
@click.option("--prove", "prove_it", is_flag=True,
              help="Search the adventure's states first (solo prove, conditions and dice counted): mark the scenes a "
                   "soft-lock traps the party in, and those no reachable state enters.")
@click.option("--max-states", default=None, metavar="N",
              type=Whole(1, MAX_STATES_LIMIT, in_help=False, over="each state costs about 3 KB beyond what the "
                         "fights' odds hold"),
              help=f"With --prove: stop its search after this many states (default {DEFAULT_MAX_STATES:,}, at most "
                   f"{MAX_STATES_LIMIT:,}), as solo prove --max-states.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="Write here instead of stdout (a new file, or a map solo drew).")
@click.option("--force", is_flag=True, help="With --output: replace an existing file that is not a map solo drew.")
def command(adventure: str, fmt: str, stats: Path | None, prove_it: bool, max_states: int | None,
            output: Path | None, force: bool) -> None:
    """Draw ADVENTURE's scene graph (a name, a .toml file or a folder).

    Edges are the choices, with their condition ([if cloak_off]) and the
    outcome for rolls and conflicts ([success], [won] …; an ending of a
    conflict left to its fallback is starred: [lost, stalemate*]); a choice that
    keeps the story in its scene is a dotted loop back to it. Endings, the
    start, scenes that cannot be reached, dead ends and loops with no ending
    are marked with their own styles. With --prove, what 'solo prove' finds
    is marked too: soft-lock scenes, and scenes no reachable state enters
    (only when the search is complete, within solo prove's state limit, or
    --max-states). A search that stops at that limit is said on stderr; the
    map is drawn all the same and the exit status stays 0.

    \b
    Examples:
      solo map tutorial > tutorial.mmd
      solo simulate tutorial --json > sim.json && solo map tutorial --stats sim.json
      solo map tutorial --format dot | dot -Tsvg > tutorial.svg
      solo map tutorial --prove
    """
    from ..errors import SoloError
    from ..paths import PathError, replace_problem, write_owned
    from ..sim.drawing import MAP_FILE, render
    from ..story.format.library import find_adventure
    from ..story.format.loader import AdventureError, load_adventure, read_as_part

    if force and output is None:
        raise UserError("--force goes with --output: it lets solo replace a file that is not a map it drew")
    if max_states is not None and not prove_it:
        raise UserError("--max-states goes with --prove: it bounds the search that marks the map")
    problem = replace_problem(output, MAP_FILE, force=force, option="--force") if output is not None else None
    if problem:  # said before the adventure is read and drawn
        raise UserError(f"--output: {problem}")
    try:
        source = find_adventure(adventure)
        adv = load_adventure(source)
    except AdventureError as exc:
        raise broken_adventure(exc, adventure) from None
    except SoloError as exc:
        raise UserError(str(exc)) from None
    if output is not None and read_as_part(source, output):
        # read as one more file of the adventure, the map would break it for every command after (a new GM's run)
        raise UserError(f"--output: {output} would be read as one more file of the adventure in {source}: write the "
                        "map elsewhere, or as .mmd or .dot")
    data = None
    if stats is not None:
        data = _read_stats(stats, adv)
        made = data.get("adventure_hash")
        if made is not None and not adv.made_from(made):  # said, the map still drawn (a GM's run)
            click.echo(f"solo map: {stats} was simulated on another version of {adv.id!r}: the adventure has "
                       "changed since, so its figures may not fit the map. Simulate it again for figures that do.",
                       err=True)
    proven = None
    if prove_it:
        proven, stopped_at = proven_marks(adv, max_states)
        if stopped_at is not None:  # said, not left to an exit status: the map itself is drawn whole
            click.echo(f"solo map: the --prove search stopped at its limit of {stopped_at:,} states before it was "
                       "complete, so the soft-lock marks cover only the states it searched and no scene is marked "
                       "as never entered (--max-states searches further)", err=True)
    text = render(adv, fmt, data, proven)
    if output is not None:
        try:
            write_owned(output, text, MAP_FILE, force=force)
        except PathError as exc:
            raise UserError(f"--output: {exc}") from None
        except OSError as exc:
            raise UserError(f"cannot write {output}: {exc.strerror or exc}") from None
    else:
        click.echo(text, nl=False)


#: The largest ``--stats`` report read: a simulation of a very large adventure is a few MB.
MAX_STATS_BYTES = 16_000_000


def _read_stats(path: Path, adv: Adventure) -> dict:
    from ..json_files import JSONRefused, loads
    from ..paths import PathError, read_bounded

    try:
        data = loads(read_bounded(path, MAX_STATS_BYTES).decode("utf-8"))
    except PathError as exc:
        raise UserError(f"--stats {exc}") from None
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None
    except JSONRefused as exc:
        raise UserError(f"{path}: not a report from 'solo simulate --json': {exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"{path}: not a JSON report from 'solo simulate --json' ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("scenes"), dict) or "runs" not in data:
        raise UserError(f"{path}: not a report from 'solo simulate --json' (no 'scenes' and 'runs')")
    if data.get("adventure") not in (None, adv.id):
        raise UserError(f"{path} is a simulation of {data['adventure']!r}, not of {adv.id!r}")
    if not all(isinstance(v, dict) and isinstance(v.get("rate", 0), (int, float)) for v in data["scenes"].values()):
        raise UserError(f"{path}: the 'scenes' of this report are damaged")
    return data


def proven_marks(adv: Adventure, max_states: int | None = None) -> tuple[dict[str, set[str]], int | None]:
    """What ``solo prove`` finds, as marks for the map: the scenes soft-locks trap the party in (certain, even
    from a search that stopped at its limit), and the scenes no reachable state enters (only from a complete one);
    then the state limit the search stopped at, or None when it was complete, since marks from a part of the
    states would otherwise pass for the whole proof (new-user run: vellan's map said nothing of it)."""
    from ..sim.policies import prove_fighters
    from ..sim.prove import limits
    from ..sim.prove.search import prove

    limit = max_states or limits.DEFAULT_MAX_STATES
    proof = prove(adv, max_states=limit, fighters=prove_fighters())
    softlock = {cause[0] for cause in proof.soft_lock_groups if cause[0]}
    never = {u["scene"] for u in proof.unreachable if u["choice"] is None} if proof.complete else set()
    return {"softlock": softlock, "never": never}, None if proof.complete else limit
