"""``solo simulate``: play an adventure many times with bots and show what happens."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from . import UserError, broken_adventure
from .folders import FOLDER, folder_problem, writable_folder_problem
from .limits import MAX_JOBS, MAX_SIMULATE_RUNS, MAX_TURNS, SEED, Whole

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID


@click.command("simulate")
@click.argument("adventure")
@click.option("--runs", "-n", type=Whole(1, MAX_SIMULATE_RUNS), default=1000, show_default=True,
              help="How many games to play.")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="Base seed: run i plays with a seed made from it and i, whatever --jobs is.")
@click.option("--jobs", "-j", type=Whole(1, MAX_JOBS), default=1, show_default=True, help="Processes to play in.")
@click.option("--party", "party", multiple=True, metavar="FILE",
              help="A party member (a character file or a pregenerated name); repeat for more.")
@click.option("--party-size", type=Whole(1, 6), help="A party of K generated characters (the same K in every run).")
@click.option("--policy", type=click.Choice(["random", "cautious", "bold", "explorer"]), default="random",
              show_default=True,
              help="How the bots play: uniformly at random, carefully, boldly, or as a curious player who tries "
                   "every lead before an ending and takes the Lens the odds mark best (explorer: the figures "
                   "of a person playing to see the story; see docs/testing-adventures.md).")
@click.option("--max-turns", type=Whole(1, MAX_TURNS), default=1000, show_default=True,
              help="A run with more scene choices than this is reported as an error (a loop?).")
@click.option("--errors", "--errors-dir", "errors_dir", type=FOLDER, metavar="DIR",
              help="Where failing runs' answers are written (default: simulate-errors in the saves folder).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@click.option("--coverage", is_flag=True,
              help="Also list the scene texts, choices, branch texts and {if} sides no run showed, and the "
                   "outcomes written without text that no run took (not_shown).")
def command(adventure: str, runs: int, seed: int, jobs: int, party: tuple[str, ...], party_size: int | None,
            policy: str, max_turns: int, errors_dir: Path | None, as_json: bool, coverage: bool = False) -> int:
    """Auto-play ADVENTURE (a name, a .toml file or a folder) with bot players.

    Reports how often each ending is reached (with 95 % intervals), scenes
    never reached, every skill roll's success rate, and for every Extended
    Conflict how often it is fought and how it ends, its rounds and the
    Pool lost, and what the NPCs did. A run that crashes is reported with its
    seed and a command that replays it. Exits 1 if any run failed.

    \b
    Examples:
      solo simulate tutorial --runs 2000 --jobs 2
      solo simulate scenes/mill/ --party-size 3 --policy cautious --json > sim.json
      solo simulate vellan --policy explorer --jobs 2   # a thorough player's endings
    """
    from ..errors import SoloError
    from ..sim.simulate import Options, SimulationError, simulate
    from ..story.format.library import find_adventure
    from ..story.format.loader import AdventureError

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if jobs > cpus:  # more processes than CPUs only share them out, and each one costs memory
        click.echo(f"solo simulate: --jobs {jobs} is more than the {cpus} CPU{'' if cpus == 1 else 's'} here; "
                   f"playing in {cpus}", err=True)
        jobs = cpus
    if party and party_size is not None:
        raise UserError("give either --party FILE... or --party-size K, not both")
    if errors_dir is not None:  # said now, not after the runs, when a failing run has nowhere to go
        problem = folder_problem("--errors", errors_dir) or writable_folder_problem(errors_dir, keep=False)
        if problem:
            raise UserError(problem if problem.startswith("--errors") else f"--errors: {problem}")
    try:
        path = find_adventure(adventure)
    except SoloError as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:  # a name the system refuses, e.g. too long
        raise UserError(f"{adventure[:40]}: {exc.strerror or exc}") from None
    if party or party_size is not None:
        _takes_a_party(path, adventure, "--party" if party else "--party-size")
    options = Options(str(path), runs, seed=seed, policy=policy, party=tuple(party), party_size=party_size,
                      max_turns=max_turns, coverage=coverage)

    bar = _ProgressBar(runs) if sys.stderr.isatty() else None  # stderr: --json output stays clean
    try:
        report = simulate(options, jobs=jobs, errors_dir=errors_dir,
                          progress=bar.update if bar else None, on_pool_ready=bar.start if bar else None)
    except AdventureError as exc:
        raise broken_adventure(exc, adventure) from None
    except (SimulationError, SoloError) as exc:
        raise UserError(str(exc)) from None
    finally:
        if bar:
            bar.stop()
    if as_json:
        click.echo(json.dumps(report, indent=1, ensure_ascii=False))
    else:
        _show(report)
    # a run that stopped with no way on is a soft-lock the GM ships unless the status says so (a GM's CI gated on
    # this command passed an adventure that stranded two runs in three)
    return 1 if report["error_count"] or report.get("dead_ends") else 0


class _ProgressBar:
    """A rich progress bar on stderr, started only once the worker processes exist."""

    def __init__(self, total: int):
        self.total = total
        self.progress: Progress | None = None
        self.task: TaskID | None = None

    def start(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.progress = Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                                 console=Console(stderr=True), transient=True)
        self.progress.start()
        self.task = self.progress.add_task("runs", total=self.total)

    def update(self, done: int, total: int) -> None:
        if self.progress is not None and self.task is not None:
            self.progress.update(self.task, completed=done)

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None


def _pct(entry: dict) -> str:
    return f"{entry['rate']:.1%} ({entry['low']:.1%}–{entry['high']:.1%})"


def _fought(conflict: dict) -> str:
    """How often a conflict was fought: the share of runs that fought it, and where a run may fight it again (a
    retry loop), how many times a run fought it on average; 'fought 78,089 times (39044.5% of runs)' was no share
    (new-user run)."""
    n = conflict["fought"]
    said = f"fought {n:,} time{'' if n == 1 else 's'}"
    # a share of runs with its interval, as every sampled share is shown (a GM's run: "in 45.5% of runs" bare)
    share = (_pct({"rate": conflict["runs_rate"], "low": conflict["runs_low"], "high": conflict["runs_high"]})
             if "runs_low" in conflict else f"{conflict['runs_rate']:.1%}") + " of runs"
    if n == conflict["runs"]:  # never twice in a run: the times are the runs
        return f"{said}, in {share}"
    per_run = _mean(conflict["fought_per_run"], conflict.get("fought_per_run_error"), 2)
    return f"{said}, in {share}; {per_run} a run on average"


def _mean(value: float, error: float | None, places: int) -> str:
    """A sampled mean with its ± (one standard error, as solo duel shows its mean rounds): "7.3 ± 0.2"; an error
    too small for the mean's places is given to one significant figure, never "± 0.0" read as exact (the review)."""
    if not error:
        return f"{value:.{places}f}"
    from ..sampling import error_digits

    return f"{value:.{places}f} ± {error_digits(error, places)}"


def _share(entry: dict, interval: bool = True) -> str:
    """A share of runs, whole percent, with its 95 % interval where it is not none: a sampled figure says how sure it
    is (an audit of the numbers shown: "fled 49%" and "docked 3%" stood bare beside the endings' intervals); one under
    half a percent is "<1%", not a "0%" that reads as never."""
    if not interval or "low" not in entry:
        return _whole(entry["rate"])
    return f"{_whole(entry['rate'])} ({_whole(entry['low']).rstrip('%')}–{_whole(entry['high'])})"


def _whole(rate: float) -> str:
    """A share in whole percent, "<1%" for one under half a percent (a "0%" under "fled 0.2%" read as a
    contradiction: a new GM's run)."""
    whole = f"{rate:.0%}"
    if rate > 0 and whole == "0%":  # 0.005 itself rounds to even: "0%" (a GM's run)
        return "<1%"
    return ">99%" if rate < 1 and whole == "100%" else whole  # nor "100%" for a share that is not all (the review)


def engine_ending_label(eid: str) -> str:
    """An ending's id as a report's table shows it: an ending the engine reaches on its own (the whole party
    out, no way on) or a run that failed by what happened, not by its internal key."""
    from ..sim.report import RUN_ENDINGS

    return RUN_ENDINGS[eid][2] if eid in RUN_ENDINGS else eid


def _show(r: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    from ..ui.view import say

    # titles, texts and names come from the adventure: with markup off, no string here is read as rich markup
    console = Console(highlight=False, markup=False)
    speed = f"{r['runs_per_second']:,.0f} runs/s" if r["runs_per_second"] is not None else "too fast to time"
    say(console, (r["adventure"], "bold"), f": {r['runs']:,} runs, seed {r['seed']}, policy {r['policy']}, "
        f"{'party ' + ', '.join(r['party']) if r['party'] else 'no player character'} · {speed} on {r['jobs']} "
        f"process{'es' if r['jobs'] > 1 else ''}", soft_wrap=True)

    t = Table(title="Endings (95 % interval)", title_justify="left")
    for col in ("ending", "title", "runs", "rate"):
        t.add_column(col, justify="right" if col == "runs" else "left")
    for eid, e in r["endings"].items():
        t.add_row(engine_ending_label(eid), e["title"], f"{e['count']:,}", _pct(e))
    console.print(t)
    if r["unreached"]:
        say(console, ("Scenes never reached:", "yellow"), f" {', '.join(r['unreached'])}")
    else:
        console.print("Every scene was reached.")
    if "not_shown" in r:
        missed = r["not_shown"]
        if missed:
            say(console, (f"Never shown in {r['runs']:,} runs ({len(missed)}):", "yellow"))
            for m in missed:
                say(console, f"  {m['where']}: {_missed(m)}", soft_wrap=True)
        else:
            console.print("Every scene text, choice, branch text and {if} side was shown, and every outcome "
                          "written without text happened.")

    if r["checks"]:
        t = Table(title="Rolls (success after Luck, 95 % interval)", title_justify="left")
        for col in ("scene:choice", "roll", "tries", "success"):
            t.add_column(col, justify="right" if col == "tries" else "left")
        for c in r["checks"]:
            t.add_row(c["key"], f"{c['kind']} {c['skill']}", f"{c['attempts']:,}", _pct(c))
        console.print(t)

    if r["conflicts"]:
        say(console, ("Extended Conflicts", "bold"), " (outcomes for the party, 95 % intervals)")
        for c in r["conflicts"]:
            o = c["outcomes"]
            n = c["fought"]
            esc = " (escalated from the opposed roll)" if c["escalated"] else ""
            say(console, "  ", (c["key"], "bold"), f" {c['type']}{esc}: {c['text']}", soft_wrap=True)
            if n or not c["no_contest"]:  # ("fought 0 times" above "met 3 times … not fought" said it twice)
                console.print(f"    {_fought(c)}")
            if n:
                # a win is listed even when no run won: "won 0%" is the news, where its absence went unnoticed
                parts = [f"{name.replace('_', ' ')} {_pct(o[name])}" for name in o if o[name]["count"] or name == "won"]
                console.print("    " + " · ".join(parts), soft_wrap=True)
            if c["no_contest"]:  # met with one side spent: it leads on as a fight would, so it is counted too
                met = sum(c["no_contest"].values())
                said = ", ".join(f"{name.replace('_', ' ')} {k:,}" for name, k in c["no_contest"].items())
                console.print(f"    {'also ' if n else ''}met {met:,} time{'' if met == 1 else 's'} with one side "
                              f"already spent, so not fought: {said}", soft_wrap=True)
            if not n:
                continue
            lenses = ", ".join(f"{_lens_said(k)} {_whole(v)}"
                               for k, v in sorted(c["npc_lenses"].items(), key=lambda kv: -kv[1]))
            console.print(f"    rounds {_mean(c['rounds_mean'], c.get('rounds_mean_error'), 1)} on average, median "
                          f"{c['rounds_median']:g}; Pool lost: party "
                          f"{_mean(c['party_pool_lost_mean'], c.get('party_pool_lost_mean_error'), 1)}, opponents "
                          f"{_mean(c['opponents_pool_lost_mean'], c.get('opponents_pool_lost_mean_error'), 1)}; "
                          "party Luck spent "
                          f"{_mean(c['party_luck_spent_mean'], c.get('party_luck_spent_mean_error'), 2)}",
                          soft_wrap=True)
            if lenses or c["npc_fled"]["rate"] or c["npc_surrendered"]["rate"]:  # an obstacle declares nothing:
                # "NPCs declared nothing; fled in 0%" under a padlock read like a debug log (a new GM's run)
                spread = _lens_margin(c.get("npc_lenses_error", {}))
                if lenses and spread >= 0.005:  # sampled shares, counted conflict by conflict: said how sure
                    lenses += f" (95 % intervals up to ±{spread * 100:.0f} points)"
                console.print(f"    NPCs declared {lenses or 'nothing'}; fled in {_share(c['npc_fled'])}, "
                              f"surrendered in {_share(c['npc_surrendered'])} of these conflicts",
                              soft_wrap=True)
    if r["npcs"]:
        # one unit after the count: each NPC's Lenses as shares of its declarations, how its conflicts ended for
        # it as shares of those conflicts (out and in comae were counts beside the fled and surrendered shares)
        # the shares' intervals said once, by the widest, where a column each would squeeze the names out
        widest = max([max(e[how]["high"] - e[how]["rate"], e[how]["rate"] - e[how]["low"])
                      for e in r["npcs"].values() for how in ("fled", "surrendered", "out", "comae")
                      if "low" in e[how]] + [_lens_margin(e.get("lenses_error", {})) for e in r["npcs"].values()],
                     default=0.0)
        margin = f"; 95 % intervals up to ±{widest * 100:.0f} points, each in --json" if widest else ""
        t = Table(title="NPCs in conflicts (Lenses: share of its declarations; fled, surrendered, out and in comae: "
                  f"share of the conflicts it fought{margin})", title_justify="left")
        for col in ("NPC", "conflicts", "Lenses", "fled", "surrendered", "out", "in comae"):
            t.add_column(col, justify="right" if col == "conflicts" else "left")
        for nid, e in r["npcs"].items():
            ranked = sorted(e["lenses"].items(), key=lambda kv: -kv[1])
            lenses = ", ".join(f"{_lens_said(k)} {_whole(v)}" for k, v in ranked[:4])
            if len(ranked) > 4:  # the rest said, not dropped: the conflict's line above lists all seven
                most = _whole(max(v for _, v in ranked[4:]))
                lenses += f", {len(ranked) - 4} more " + ("under 1%" if most == "<1%" else f"at {most} or less")
            t.add_row(nid, f"{e['conflicts']:,}", lenses or "-",
                      *(_share(e[how], interval=False) for how in ("fled", "surrendered", "out", "comae")))
        console.print(t)
        if any(e["comae"]["count"] for e in r["npcs"].values()):
            from .duel import COMAE_NOTE

            say(console, f"  {COMAE_NOTE}", style="dim")

    state = r.get("state_at_end") or {}
    if state.get("counters") or state.get("flags") or state.get("items"):
        say(console, "At the end of a run", style="bold")
        for name, c in state.get("counters", {}).items():
            if c["median"] is None:  # every run failed: no counter has a final value
                console.print(f"  counter {name}: no run finished")
                continue
            bins = " · ".join(f"{lo}{f'–{hi}' if hi != lo else ''}: {k:,}" for lo, hi, k in c["bins"])
            span = f", {c['min']} to {c['max']}" if c["min"] != c["max"] else ""
            console.print(f"  counter {name}: mean {_mean(c['mean'], c.get('mean_error'), 2)}, median "
                          f"{c['median']:g}{span} ({bins})",
                          soft_wrap=True)
        for what in ("flags", "items"):
            entries = state.get(what, {})
            held = {name: e for name, e in entries.items() if e["count"]}
            if held:
                text = ", ".join(f"{name} {_share(e)}" for name, e in held.items())
                console.print(f"  {'flags set' if what == 'flags' else 'items held'}: {text}", soft_wrap=True)
            never = [name for name in entries if name not in held]
            if never:
                console.print(f"  {'never set' if what == 'flags' else 'never held'}: {', '.join(never)}",
                              soft_wrap=True)
    console.print(f"Turns per run: {_mean(r['turns']['mean'], r['turns'].get('mean_error'), 1)} on average, "
                  f"{r['turns']['max']} at most (± one standard error, as every mean here).")
    if r["error_count"]:
        from ..sim.tally import STUCK_ENDING

        stuck = r["endings"].get(STUCK_ENDING, {}).get("count", 0)
        failed = r["error_count"] - stuck
        if failed:
            say(console, f"{failed} run{'s' if failed != 1 else ''} failed on an error.", style="red bold")
        if stuck:  # the adventure's own loop, often a soft-lock: not a crash (a GM's run read it as one)
            say(console, f"{stuck} run{'s' if stuck != 1 else ''} never reached an ending: stopped at the turn "
                "limit, going round a loop the bots never leave (a soft-lock? solo prove finds them).",
                style="yellow bold")
        for kind in r["error_kinds"]:
            where = f" @ {kind['where']}" if kind["where"] else ""
            console.print(f"  {kind['count']} × {kind['error']}: {kind['message']}{where} (first: run "
                          f"{kind['first_run']}, seed {kind['first_seed']})", soft_wrap=True)
        shown = r["errors"][:3]
        for e in shown:
            say(console, (f"run {e['run']}, seed {e['seed']}:", "red"), f" {e['error']}: {e['message']}",
                (f" ({e['where']})" if e["where"] else "", "dim"), soft_wrap=True)
            console.print(f"  replay: {e['replay']}", soft_wrap=True)
        if r["error_count"] > len(shown):
            say(console, f"({r['error_count'] - len(shown)} more; --json lists {len(r['errors'])} with "
                "their replay commands)", style="dim")
    elif not r.get("dead_ends"):  # a dead end is a failure of its own, said below ("No run failed." read wrong)
        console.print("No run failed.")
    dead = r.get("dead_ends") or {}
    if dead:  # no crash, but the likeliest sign of a trap: where, and what finds why
        count = sum(dead.values())
        where = ", ".join(f"{scene} ({n})" for scene, n in dead.items())
        say(console, f"{count} run{'s' if count != 1 else ''} reached a dead end, with no choice offered: in "
            f"{where} (a soft-lock? solo prove names the choices that shut it).", style="yellow bold",
            soft_wrap=True)


def _takes_a_party(path: Path, adventure: str, option: str) -> None:
    """Refuse a party for an adventure played without player characters, rather than drop it unsaid."""
    from ..story.format.loader import AdventureError, load_adventure

    try:
        adv = load_adventure(path)
    except AdventureError as exc:
        raise broken_adventure(exc, adventure) from None
    if not adv.uses_pcs:
        raise UserError(f"{adv.title} has pc = false in its [adventure]: it is played without a player "
                        f"character, so {option} has no part in it; leave it out")


def _lens_margin(errors: dict[str, float]) -> float:
    """The widest 95 % half-interval of a set of Lens shares, from their standard errors (0: none sampled)."""
    from ..sampling import Z95

    return Z95 * max(errors.values(), default=0.0)


def _lens_said(lens: str) -> str:
    """A Lens as the report lists it: "none" alone read as no Lenses at all ("NPCs: Lenses none 100%")."""
    return "no Lens" if lens == "none" else lens


def _missed(entry: dict) -> str:
    """One thing no run showed, as an author reads it: "{if paid} was never false there", not "if {if paid} when
    false" (GM-tools review); a scene, choice or branch by its kind and words."""
    if entry["what"] == "if":
        condition, _, truth = str(entry["text"]).rpartition(" when ")
        return f"{condition} was never {truth} there"
    if entry["what"] == "outcome":  # a branch with no words of its own: "Force the firebox [success] never happened"
        return f"outcome {entry['text']} never happened"
    return f"{entry['what']} {entry['text']}"
