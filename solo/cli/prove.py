"""``solo prove``: search every state of an adventure; each ending shown reachable, with a walkthrough."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..paths import FileKind
from . import UserError
from .folders import FOLDER

#: The largest --max-states: each state costs about 2.5 KB (its node, moves and key; a state waiting to be searched
#: keeps its game packed in a few hundred bytes: 30,000 states of vellan took 112 MB in all), so this
#: bounds the memory a search may take to about 500 MB. Stated in --help, the error and docs/proving.md.
MAX_STATES_LIMIT = 200_000

if TYPE_CHECKING:
    from ..story.prove_walkthrough import Walkthrough


@click.command("prove")
@click.argument("adventure", metavar="ADVENTURE")
@click.option("--json", "as_json", is_flag=True,
              help="Print JSON: endings (reachable, shortest, seed, best_chance), soft_locks, "
                   "unreachable_choices, states, complete.")
@click.option("--max-states", type=click.IntRange(1, None), default=None, metavar="N",
              help=f"Stop after this many states (default 2000, at most {MAX_STATES_LIMIT:,}: each state "
                   "costs about 2.5 KB) and say what was not explored.")
@click.option("--pc", "pcs", metavar="FILE|NAME", multiple=True,
              help="Play these characters (as solo play --pc) instead of the adventure's own one.")
@click.option("--seeds", type=click.IntRange(0, 1_000_000), default=None, metavar="N",
              help="Seeds tried per ending for a replayable walkthrough (default 200; 0: none).")
@click.option("--scripts", "scripts_dir", type=FOLDER, default=None, metavar="DIR",
              help="Write each ending's walkthrough to DIR/ENDING.txt, ready for solo play --script.")
@click.option("--force", is_flag=True, help="With --scripts: replace files there that are not walkthroughs solo wrote.")
def command(adventure: str, as_json: bool, max_states: int | None, pcs: tuple[str, ...], seeds: int | None,
            scripts_dir: Path | None, force: bool) -> int:
    """Search every state ADVENTURE can reach and show each ending reachable, or not.

    Every roll, opposed roll, oracle question and conflict is a chance with
    its exact odds. For each ending: whether it is reachable, the shortest
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
    from ..story.library import find_adventure
    from ..story.loader import AdventureError, load_adventure
    from ..story.prove_report import exit_code, text_lines, to_json
    from ..story.prove_search import DEFAULT_MAX_STATES, prove
    from ..story.prove_walkthrough import DEFAULT_SEEDS, trap_walks, walk

    began = time.perf_counter()

    if max_states is not None and max_states > MAX_STATES_LIMIT:
        raise UserError(f"--max-states {max_states:,} is too many: at most {MAX_STATES_LIMIT:,} (each state costs "
                        "about 2.5 KB: 200,000 states take about 500 MB)")
    try:
        adv = load_adventure(find_adventure(adventure))
        party = None
        if pcs:
            from ..characters import load_character

            party = [load_character(spec) for spec in pcs]
            if not adv.party_min <= len(party) <= adv.party_max:
                raise UserError(f"{adv.title} is for {adv.party_min} to {adv.party_max} player(s); "
                                f"you gave {len(party)} character(s)")
    except AdventureError as exc:
        raise UserError(str(exc)) from None
    except SoloError as exc:
        raise UserError(str(exc)) from None
    tries = DEFAULT_SEEDS if seeds is None else seeds
    progress = ProgressLine(sys.stderr)
    proof = prove(adv, party, max_states=max_states or DEFAULT_MAX_STATES,
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
    scripts = _write_scripts(scripts_dir, walks, adv.id, force=force) if scripts_dir is not None else None
    if as_json:
        click.echo(json.dumps(to_json(proof, walks), indent=1, ensure_ascii=False))
    else:
        for line in text_lines(proof, walks, seeds=tries, pcs=list(pcs), spec=adventure, scripts=scripts):
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


def _write_scripts(folder: Path, walks: dict[str, Walkthrough | None], adventure: str, *,
                   force: bool) -> dict[str, str]:
    """Each walkthrough as ``folder/ENDING.txt`` (an ending id names it, kept inside the folder): ending -> path.
    A file there that is not a walkthrough solo wrote is replaced only with ``force``; none is written then."""
    from ..paths import PathError, file_in, replace_problem, write_owned

    written = {}
    try:
        paths = {name: file_in(folder, f"{name}.txt", what="the walkthrough for ending")
                 for name, walk in walks.items() if walk is not None and walk.answers}
        for path in paths.values():
            problem = replace_problem(path, WALKTHROUGH_FILE, force=force)
            if problem:
                raise UserError(f"--scripts: {problem}")
        folder.mkdir(parents=True, exist_ok=True)
        for name, path in paths.items():
            walk = walks[name]
            assert walk is not None
            head = f"{WALKTHROUGH_MARK.decode()} to the ending {name!r} of {adventure}"
            write_owned(path, "\n".join([head, *walk.answers]) + "\n", WALKTHROUGH_FILE, force=force)
            written[name] = str(path)
    except PathError as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"cannot write the walkthroughs to {folder}: {exc.strerror or exc}") from None
    return written
