"""``solo prove``: search every state of an adventure; each ending shown reachable, with a walkthrough."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..paths import FileKind
from ..sim.prove.limits import DEFAULT_MAX_STATES, MAX_STATES_LIMIT
from . import UserError, broken_adventure
from .folders import FOLDER
from .limits import Whole

if TYPE_CHECKING:
    from ..sim.prove.walkthrough import Walkthrough


@click.command("prove")
@click.argument("adventure", metavar="ADVENTURE")
@click.option("--json", "as_json", is_flag=True,
              help="Print JSON: endings (reachable, shortest, seed, best_chance), soft_locks, "
                   "unreachable_choices, states, complete.")
@click.option("--max-states", default=None, metavar="N",
              type=Whole(1, MAX_STATES_LIMIT, in_help=False, over="each state costs about 3 KB beyond what the "
                         "fights' odds hold: 200,000 states of Vellan take about 800 MB"),
              help=f"Stop after this many states (default {DEFAULT_MAX_STATES:,}, at most {MAX_STATES_LIMIT:,}: "
                   "each state costs about 3 KB beyond what the fights' odds hold) and say what was not explored.")
@click.option("--pc", "pcs", metavar="FILE|NAME", multiple=True,
              help="Play these characters (as solo play --pc) instead of the adventure's own one.")
@click.option("--seeds", type=Whole(0, 1_000_000, in_help=False), default=None, metavar="N",
              help="Seeds tried per ending for a replayable walkthrough (default 200; 0: none).")
@click.option("--scripts", "scripts_dir", type=FOLDER, default=None, metavar="DIR",
              help="Write each ending's walkthrough to DIR/ENDING.txt, ready for solo play --script.")
@click.option("--force", is_flag=True, help="With --scripts: replace files there that are not walkthroughs solo wrote.")
def command(adventure: str, as_json: bool, max_states: int | None, pcs: tuple[str, ...], seeds: int | None,
            scripts_dir: Path | None, force: bool) -> int:
    """Search every state ADVENTURE can reach and show each ending reachable, or not.

    Every roll, opposed roll and oracle question is a chance with its exact
    odds; so is a conflict of one against one the Lens chain can work out,
    while any other, and every fight as solo simulate's bots fight it, is
    estimated from plays (the report counts them and marks each chance that
    rests on them). A Luck flip that would turn a roll is the player's to
    take or leave, as in play. For each ending: whether it is reachable, the shortest
    walkthrough as a script for 'solo play --script' with a --seed under
    which the dice fall that way, and the chance of reaching it playing
    best. Also: soft-locks (states no ending can be reached from, with the
    shortest way in) and choices or scenes no reachable state offers.
    docs/proving.md says what a state holds and what is left out.

    \b
    Examples:
      solo prove tutorial
      solo prove scenes/my_adventure/ --json --max-states 50000
      solo prove vellan --scripts walkthroughs/
    """
    import sys
    import time

    from ..errors import SoloError
    from ..sim.prove.report import exit_code, text_lines, to_json
    from ..sim.prove.search import prove
    from ..sim.prove.walkthrough import DEFAULT_SEEDS, trap_walks, walk
    from ..story.format.library import find_adventure
    from ..story.format.loader import AdventureError, load_adventure

    began = time.perf_counter()

    try:
        adv = load_adventure(find_adventure(adventure))
        party = None
        if pcs:
            from ..characters import current_roster, load_character, replay_spec

            roster = current_roster()
            party = [load_character(spec, roster=roster) for spec in pcs]  # as solo play --pc finds it
            pcs = tuple(replay_spec(spec, roster) for spec in pcs)  # as the replay commands must name them
            misfit = adv.party_misfit(len(party))
            if misfit:
                raise UserError(misfit)
    except AdventureError as exc:
        raise broken_adventure(exc, adventure) from None
    except SoloError as exc:
        raise UserError(str(exc)) from None
    tries = DEFAULT_SEEDS if seeds is None else seeds
    script_paths = (_script_paths(scripts_dir, [e.id for e in adv.endings()], force=force)
                    if scripts_dir is not None else None)
    progress = ProgressLine(sys.stderr)
    from ..collector import searching
    from ..sim.policies import prove_fighters

    with searching():  # the collector as Python sets it: a proof's reach is bounded by its memory
        proof = prove(adv, party, max_states=max_states or DEFAULT_MAX_STATES, fighters=prove_fighters(),
                      progress=lambda searched, found: progress.show(f"{searched:,} states searched, {found:,} found"))
    walks: dict[str, Walkthrough | None] = {}
    for name, found in proof.endings.items():
        if found["reachable"] and tries:
            progress.show(f"the walkthrough to {name}", now=True)
        walks[name] = walk(proof, name, seeds=tries, party=party) if found["reachable"] and tries else None
    if proof.soft_locks:
        progress.show("the way into each soft-lock", now=True)
    trap_walks(proof, seeds=tries, party=party)
    progress.done()
    proof.walk_seconds = time.perf_counter() - began - proof.seconds  # everything but the search: load included
    import os

    # the adventure as a new shell finds it: a file or folder by its whole path, a bundled one by its name (a review:
    # the walkthrough command, typed in a terminal opened elsewhere, found no adventure and no script)
    spec = os.path.abspath(adventure) if os.path.exists(adventure) else adventure
    scripts = (_write_scripts(script_paths, walks, adv.id, spec, pcs, force=force)
               if script_paths is not None else None)
    if as_json:
        click.echo(json.dumps(to_json(proof, walks), indent=1, ensure_ascii=False))
    else:
        for line in text_lines(proof, walks, seeds=tries, pcs=list(pcs), spec=spec, scripts=scripts):
            click.echo(line)
    return exit_code(proof)


class ProgressLine:
    """One line on a terminal's stderr, rewritten as a long run goes on (at most every PERIOD seconds), and
    wiped at the end; nothing at all where stderr is not a terminal (a pipe, a file, a CI log)."""

    PERIOD = 0.25

    def __init__(self, stream) -> None:
        self.stream = stream
        self.on = bool(getattr(stream, "isatty", lambda: False)())
        self.began = time_now()
        self.last = 0.0
        self.shown = False

    def show(self, text: str, *, now: bool = False) -> None:
        if not self.on:
            return
        moment = time_now()
        if not now and moment - self.last < self.PERIOD:
            return
        self.last = moment
        self.stream.write(f"\r\x1b[Ksolo prove: {text} ({moment - self.began:.0f} s)")
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def time_now() -> float:
    import time

    return time.perf_counter()


#: The first line of a walkthrough solo prove wrote (a comment to solo play --script).
WALKTHROUGH_MARK = b"# solo prove: a walkthrough"
WALKTHROUGH_FILE = FileKind("a walkthrough", starts=(WALKTHROUGH_MARK,))
#: What to do instead of --force where a file is in the way: the files are named by their endings, not by the user
SCRIPTS_ELSEWHERE = "give --scripts another folder"


def walkthrough_stem(ending: str) -> str:
    """The file name an ending's walkthrough is written under: its id, where that is a plain name, else the id
    with everything but letters, digits, '_' and '-' as '_' (a bad-input audit: an ending called
    '../../x' threw the whole search away, "must be a plain name, not a path"); two made alike are told apart
    by a number (:func:`_script_paths`)."""
    from ..paths import plain_name_problem

    if plain_name_problem(ending) is None and len(ending) <= 100:
        return ending
    stem = re.sub(r"[^\w-]+", "_", ending).strip("._")[:100]
    return stem or "ending"


def _script_paths(folder: Path, endings: list[str], *, force: bool) -> dict[str, Path]:
    """Where each ending's walkthrough goes (``folder/ENDING.txt``, kept inside the folder), checked before the
    search so that a file in the way stops the run at once, not after minutes of searching: a file there that
    is not a walkthrough solo wrote is replaced only with ``force``."""
    from ..paths import PathError, file_in, replace_problem

    try:
        paths: dict[str, Path] = {}
        for name in endings:
            stem = base = walkthrough_stem(name)
            n = 2
            while any(p.name == f"{stem}.txt" for p in paths.values()):  # two ids made alike: each its own file
                stem, n = f"{base}_{n}", n + 1
            paths[name] = file_in(folder, f"{stem}.txt", what="the walkthrough for ending")
        for path in paths.values():
            problem = replace_problem(path, WALKTHROUGH_FILE, force=force, instead=SCRIPTS_ELSEWHERE)
            if problem:
                raise UserError(f"--scripts: {problem}")
    except PathError as exc:
        raise UserError(str(exc)) from None
    return paths


def _write_scripts(paths: dict[str, Path], walks: dict[str, Walkthrough | None], adventure: str, spec: str,
                   pcs: tuple[str, ...], *, force: bool) -> dict[str, str]:
    """Each walkthrough with answers to its path from :func:`_script_paths`: ending -> path. Its first line
    names the seed it needs and the command that plays it, as a comment ``solo play --script`` skips: the
    report's own command (the adventure as named to prove, its characters, the script where it was written),
    not the adventure's id, which names no file of a user's own."""
    from ..paths import PathError, write_owned
    from ..sim.prove.report import replay_command

    written = {}
    try:
        for name, walk in walks.items():
            if walk is None or not walk.answers or name not in paths:
                continue
            path = paths[name]
            path.parent.mkdir(parents=True, exist_ok=True)
            head = (f"{WALKTHROUGH_MARK.decode()} to the ending {name!r} of {adventure}, seed {walk.seed}: "
                    f"{replay_command(spec, pcs, walk.seed, str(path))}")
            write_owned(path, "\n".join([head, *walk.answers]) + "\n", WALKTHROUGH_FILE, force=force,
                        instead=SCRIPTS_ELSEWHERE)
            written[name] = str(path)
    except PathError as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"cannot write the walkthroughs to {paths and next(iter(paths.values())).parent}: "
                        f"{exc.strerror or exc}") from None
    return written


