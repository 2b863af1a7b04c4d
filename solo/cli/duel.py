"""``solo duel``: pit an NPC mind against a PC many times and see how it behaves (issue 4)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..rules.lenses import LENSES
from . import UserError, broken_adventure, opposed_type
from .limits import MAX_DUEL_RUNS, MAX_ROUNDS, SEED, Whole

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rich.console import Console

    from ..events import Event
    from ..minds.arena import DuelStats
    from ..npc import NPC
    from ..rules.character import Character
    from ..rules.conflict_types import ConflictType
    from ..story.format.adventure import NPCDef

_DEFAULT_RUNS = 100


@click.command("duel")
@click.option("--npc", "npc_file", type=click.Path(path_type=Path),
              help="An NPC file (docs/npcs.md), or ADVENTURE:ID for one of an adventure's NPCs (a file of it, its "
                   "folder or its name: tutorial:courier); the Code Block flags below override its own (its "
                   "level and role stand).")
@click.option("--level", "-l", default="skilled", show_default=True, metavar="LEVEL",
              help="common, skilled or master (or minion, minor, moderate, major).")
@click.option("--role", metavar="ROLE", help="Thug, Courtier, Draugr … (default: one that fits the conflict type).")
@click.option("--personality", "-p", multiple=True, metavar="NAME",
              help="A personality entry; give it twice for both (dark:NAME for the Dark Triad's).")
@click.option("--motivation", "-m", multiple=True, metavar="NAME", help="Money, Faith, Health … (once or twice).")
@click.option("--event", metavar="TOPIC±", help="The recent event, e.g. Money+ or Love- (or random).")
@click.option("--disposition", metavar="NAME", help="Affectionate, Friendly, Neutral, Unfriendly or Malicious.")
@click.option("--mindless", is_flag=True, help="A creature with no will of its own: never yields.")
@click.option("--pc", "pc_spec", default="espen", show_default=True, metavar="FILE|NAME",
              help="The PC: a character file, one of your roster by name, or a ready-made one (espen).")
@click.option("--type", "-t", "ctype_name", default="combat", show_default=True, metavar="TYPE",
              help="The conflict type: combat, social, foot_chase, car_chase, sneaking, tracking …")
@click.option("--pc-lens", type=click.Choice(LENSES, case_sensitive=False), metavar="LENS",
              help="The PC keeps this Lens every round (Clever: with the +20 edge), spends no Luck and never pushes "
                   "on, as `solo odds` counts; default: the greedy bot (each round the best of a plain roll, "
                   "Aggressive or Cautious), which a Lens kept may beat.")
@click.option("--runs", "-n", type=Whole(1, MAX_DUEL_RUNS), default=_DEFAULT_RUNS, show_default=True,
              help="How many conflicts.")
@click.option("--seed", type=SEED, help="Seed the NPC, the dice and the mind, for a duel you can replay.")
@click.option("--rounds", "round_limit", type=Whole(1, MAX_ROUNDS), default=30, show_default=True,
              help="Round limit of each conflict (then it is a stalemate).")
@click.option("--json", "as_json", is_flag=True, help="Print the tallies as one JSON object.")
@click.option("--explain", is_flag=True, help="Show why the NPC chose what it chose (first conflict and totals).")
@click.option("--narrate", is_flag=True, help="Tell the first conflict as a story.")
def command(npc_file: Path | None, level: str, role: str | None, personality: tuple[str, ...],
            motivation: tuple[str, ...], event: str | None, disposition: str | None, mindless: bool, pc_spec: str,
            ctype_name: str, pc_lens: str | None, runs: int, seed: int | None, round_limit: int, as_json: bool,
            explain: bool, narrate: bool) -> None:
    """Watch an NPC's mind fight: many conflicts against a PC, and what it chose.

    The NPC comes from --npc FILE or from the flags (a generated NPC of
    --level and --role with the Code Block parts you give, the rest rolled).
    The PC is played by a greedy bot (each round the best of a plain roll,
    Aggressive or Cautious by the exact odds; it never yields), or keeps one
    Lens every round with --pc-lens, so that `solo odds --pc … --npc …
    --lens-a LENS` can be checked against play. In a chase, a sneak or a
    trail the NPC takes the first part (it gives chase, sneaks past, or
    tracks) and the PC the other, the reverse of `solo odds`, where the PC
    takes it: the header says who does which. To size a fight, compare
    with the Lens `solo odds` marks best; the bot also spends Luck and
    pushes on, which `solo odds` leaves out, so either may win more often.
    The tallies count the Lenses the NPC declared and how each conflict
    ended for the NPC.

    \b
    Examples:
      solo duel --personality Aggressive --personality Sadistic --runs 1000
      solo duel --level master --motivation Faith --pc espen --seed 7 --explain
      solo duel --type social --role courtier -p Charming -p Extroverted --json
      solo duel --mindless --role draugr --narrate --runs 1
      solo duel --npc brakk.toml --pc hero.toml --pc-lens cautious --runs 4000 --json

    (hero.toml and brakk.toml are your own files: solo new --out hero.toml
    makes a character, solo npc --out brakk.toml an NPC.)
    """
    from ..characters import current_roster, load_character
    from ..errors import SoloError
    from ..minds.arena import duel_npc, run_duels

    ctype = opposed_type(ctype_name)
    import random

    if npc_file is not None:  # the file's own level and role stand: said, not dropped (a group's evening)
        source = click.get_current_context().get_parameter_source
        given = [f"--{name}" for name in ("level", "role")
                 if source(name) is click.core.ParameterSource.COMMANDLINE]
        if given:
            raise UserError(f"{' and '.join(given)} draw{'s' if len(given) == 1 else ''} an NPC; --npc {npc_file} "
                            "gives its own, level and role included: leave "
                            f"{'it' if len(given) == 1 else 'them'} out, or change the file")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    try:
        base = _load_npc(npc_file, seed) if npc_file else None
        npc = duel_npc(random.Random(f"duel-npc:{seed}"), ctype, base=base, level=level, role=role,
                       personality=personality, motivation=motivation, event=event, disposition=disposition,
                       mindless=mindless)
        pc = load_character(pc_spec, roster=current_roster())  # a file, your roster's, or a ready-made one
    except SoloError as exc:
        raise UserError(str(exc)) from None
    no_mind = mindless_argument(ctype, npc)
    if no_mind:
        raise UserError(no_mind)
    if pc.name == npc.name:
        pc.name = f"{pc.name} (PC)"
    keeper = None
    if pc_lens is not None:
        from ..minds.bots import LensKeeper

        keeper = LensKeeper(pc_lens.lower())
    start = time.perf_counter()
    stats = run_duels(npc, pc, ctype, runs=runs, seed=seed, round_limit=round_limit, explain=explain or narrate,
                      pc_decider=keeper)
    elapsed = time.perf_counter() - start
    story = _story(stats.first, seed) if narrate else None
    if as_json:
        from ..rules.fiction import pursuit_parts

        parts = pursuit_parts(ctype)  # in a pursuit, who does which: the reverse of solo odds (the review)
        data = {"npc": npc.name, "pc": pc.name, "type": ctype.key, "seed": seed,
                "pc_lens": pc_lens.lower() if pc_lens else None,
                "parts": {"npc": parts["a"], "pc": parts["b"]} if parts else None, **stats.to_dict()}
        if explain:
            data["explain"] = {"first": [e.to_dict() for e in stats.first if e.kind.startswith("npc_")],
                               "reasons": _reason_table(stats)}
        if story is not None:
            data["narration"] = story
        click.echo(json.dumps(data, ensure_ascii=False))
        return
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False)
    with console.capture() as capture:
        _show(console, npc, pc, ctype, stats, elapsed, seed, pc_lens.lower() if pc_lens else None)
        if explain:
            _show_explain(console, stats, ctype)
        if story is not None:
            console.rule("The first conflict, told")
            console.print(Text(story))
    click.echo(capture.get(), nl=False)


def mindless_argument(ctype, npc) -> str | None:
    """Why ``npc`` cannot be argued with in ``ctype``, or None: a mindless NPC has nothing to argue with, and its
    "composure" would be told taking blows (a reading of narrated conflicts; ``solo check`` warns of it, W112)."""
    from ..rules.fiction import no_mind_to_argue

    if ctype.social and getattr(npc, "mindless", False):
        return f"{no_mind_to_argue(npc.name, ctype.key)}; pit it in a fight, a chase or a sneak (--type)"
    return None


def _load_npc(path: Path, seed: int) -> NPC:
    """``--npc FILE``: an NPC file (solo npc --out), or an NPC of an adventure as ``FILE:ID`` (an adventure's only
    NPC needs no ID): a GM prices the adventure's own fighter without copying it out (new-user run: an adventure
    file read as an NPC's, 'adventure: unknown field'). FILE is one of the adventure's files, or the adventure as
    every other command takes it, a folder or a name ('vellan:jonas', 'tutorial:courier': they read 'no such file'
    here alone)."""
    import random

    from ..npc import NPC
    from ..story.play.npcs import npc_fields
    from ..toml_files import load_toml

    npc_id = None
    head, colon, tail = str(path).rpartition(":")
    if not path.exists() and colon and head:
        path, npc_id = Path(head), tail.strip()
    rng = random.Random(f"duel-file:{seed}")
    if not path.is_file():
        if not path.exists() and npc_id is None and path.suffix.lower() == ".toml":
            raise UserError(f"--npc {path}: no such file")
        defs = _adventure_npcs(path)
        npc_id = _one_npc(path, npc_id, list(defs))
        return NPC.from_dict(npc_fields(defs[npc_id].data), file=defs[npc_id].where.file, rng=rng)
    data = load_toml(path)
    npcs = data.get("npcs") if isinstance(data, dict) else None
    if isinstance(npcs, dict):  # an adventure's file, or one of its NPC files: [npcs.ID] tables
        npc_id = _one_npc(path, npc_id, [nid for nid, table in npcs.items() if isinstance(table, dict)])
        return NPC.from_dict(npc_fields(npcs[npc_id]), file=path, rng=rng)
    if isinstance(data, dict) and ("adventure" in data or "scenes" in data):
        raise UserError(f"--npc {path}: an adventure's file with no [npcs] in it; its NPCs' file is the one to name")
    if npc_id is not None:
        raise UserError(f"--npc {path}:{npc_id}: that file is one NPC's, not a file of [npcs.ID] tables; "
                        f"name it alone: --npc {path}")
    return NPC.from_dict(data, file=path, rng=rng)


def _adventure_npcs(spec: Path) -> dict[str, NPCDef]:
    """The NPCs of the adventure ``spec`` names as find_adventure reads it (a folder or a bundled or own name),
    loaded and checked as a game loads them."""
    from ..errors import SoloError
    from ..story.format.library import find_adventure
    from ..story.format.loader import AdventureError, load_adventure

    try:
        return load_adventure(find_adventure(str(spec))).npcs
    except AdventureError as exc:
        raise broken_adventure(exc, str(spec)) from None
    except SoloError as exc:
        raise UserError(f"--npc {spec}: {exc}") from None


def _one_npc(where: Path, npc_id: str | None, ids: list[str]) -> str:
    """The NPC ``--npc WHERE:ID`` names among ``ids``; with no ID, the only one there is."""
    from ..errors import did_you_mean

    if npc_id is None:
        if len(ids) != 1:
            raise UserError(f"--npc {where} holds {len(ids)} NPCs ({', '.join(ids) or 'none'}): name one, "
                            f"e.g. --npc {where}:{ids[0] if ids else 'ID'}")
        return ids[0]
    if npc_id not in ids:
        raise UserError(f"--npc {where}: no NPC {npc_id!r} there{did_you_mean(npc_id, ids)}; "
                        f"it holds: {', '.join(ids) or 'none'}")
    return npc_id


def _story(events: Sequence[Event], seed: int) -> str:
    """The first conflict as prose, through the narration's renderer."""
    try:
        from ..narration import Narrator, load_templates, narration_rng
        from ..narration.transcript import transcript
    except ImportError:  # pragma: no cover - only while narration is missing
        raise UserError("--narrate needs solo.narration, which this installation lacks") from None
    from ..ui.describe import WaysOut

    # the events say who is who; the ways out are told as the screen tells them, which the story leaves to it
    narrator = Narrator(load_templates(), narration_rng(seed))
    return transcript(events, narrator, screen=WaysOut(answers=False).line).rstrip()


def _reason_table(stats: DuelStats) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for (lens, why), count in sorted(stats.reasons.items(), key=lambda kv: (-kv[1], kv[0])):
        out.setdefault(lens, {})[why] = count
    return out


#: What each part in a pursuit does, as the duel's header says it; a trail's own words by its type.
PART_WORDS = {"pursuer": "gives chase", "quarry": "is pursued", "hider": "sneaks past", "seeker": "keeps watch",
              "tracking.pursuer": "tracks", "tracking.quarry": "is tracked"}


def part_words(ctype: ConflictType, part: str) -> str:
    """What ``part`` does in a conflict of ``ctype``: "tracks" on a trail, "gives chase" in a chase."""
    return PART_WORDS.get(f"{ctype.key}.{part}", PART_WORDS[part])


def _show(console: Console, npc: NPC, pc: Character, ctype: ConflictType, stats: DuelStats, elapsed: float,
          seed: int, pc_lens: str | None = None) -> None:
    from rich.table import Table
    from rich.text import Text

    from ..rules.fiction import hunts, pursuit_parts
    from ..ui.view import say
    from .npc import _temperament

    # names and Code Blocks come from NPC and character files: printed as plain text, never as markup
    cb = npc.code_block
    level = (npc.level or "common").title()
    # a mindless creature is named after its role: "Sentry automaton (Skilled Sentry automaton)" said it twice
    what = level if (npc.role or "").casefold() == npc.name.casefold() else f"{level} {npc.role or 'NPC'}"
    say(console, (npc.name, "bold"), f" ({what}) against ",
        (pc.name, "bold"), f" · {ctype.name} · {stats.runs} conflict{'' if stats.runs == 1 else 's'} · seed {seed}")
    if cb is not None:
        say(console, f"  {' · '.join(str(t) for t in cb.personality)} · {' · '.join(cb.motivation)} · "
            f"{cb.disposition} · recent event: {cb.event}")
    say(console, "  ", (_temperament(npc, social=ctype.social, hunts=hunts(ctype, "a")), "dim"))
    say(console, f"  {pc.name} ", (f"keeps {pc_lens} every round" if pc_lens else
                                      "is played by the greedy bot (a plain roll, Aggressive or Cautious)", "dim"))
    parts = pursuit_parts(ctype)
    if parts:  # who does which in a pursuit: the NPC leads here, where solo odds has the PC lead (a GM's evening)
        say(console, "  ", (f"{npc.name} {part_words(ctype, parts['a'])}; {pc.name} {part_words(ctype, parts['b'])} "
                            "(solo odds has the PC take the first part)", "dim"))
    # the NPC named, so that "won" below is read as its win, not the PC's (its name is plain text, not markup);
    # a table as wide as its title, which would otherwise fold at the table's width
    title = f"Lenses {npc.name} declared"
    lenses = Table(title=Text(title), title_justify="left", show_edge=False, min_width=len(title))
    lenses.add_column("Lens")
    lenses.add_column("times", justify="right")
    lenses.add_column("share ± s.e." if stats.runs > 1 else "share", justify="right")  # one standard error, as
    total = sum(stats.lenses.values()) or 1  # the mean rounds' ± below; the outcomes' are 95 % intervals, so said
    from ..sampling import error_digits

    errors = stats.lens_errors()
    for lens, count in stats.lenses.items():  # sampled, and counted by conflict: said with its ± as every share is
        share = f"{count / total:.1%}"
        if count and share == "0.0%":  # seen, if rarely: not "0.0%", nor "± 0.0" read as exact
            share = "<0.1%"
        elif count < total and share == "100.0%":  # nor all, where one round in thousands went otherwise
            share = ">99.9%"
        error = errors[lens]
        lenses.add_row(lens, str(count), share + (f" ± {error_digits(100 * error, 1)}" if error else ""))
    title = f"How it ended for {npc.name}"
    outcomes = Table(title=Text(title), title_justify="left", show_edge=False, min_width=len(title))
    outcomes.add_column("outcome")
    outcomes.add_column("times", justify="right")
    outcomes.add_column("share", justify="right")
    outcomes.add_column("95 % interval", justify="right")  # sampled: said how sure (an audit of the numbers shown)
    from ..rules.conflict import EXIT_WORDS, exit_way
    from ..rules.outcomes import FLED, SURRENDERED
    from ..sampling import wilson

    # the ways out as its menu names them (an argument is walked out of, a sneak given up, a fight surrendered)
    # and by the NPC's part in a pursuit (it is side a, which gives chase or hides): a tracker walked away
    words = {**OUTCOME_WORDS, **{how: EXIT_WORDS[exit_way(ctype, how, hunts=hunts(ctype, "a"))][3]
                                 for how in (FLED, SURRENDERED)}}
    for outcome, count in stats.outcomes.items():
        low, high = wilson(count, stats.runs)
        outcomes.add_row(words.get(outcome, outcome), str(count), f"{count / stats.runs:.1%}",
                         f"{low:.1%}–{high:.1%}")
    console.print(lenses)
    note = lean_note(npc, stats.lenses)
    if note:
        say(console, f"  {note}", style="dim")
    console.print(outcomes)
    if stats.outcomes.get("comae"):
        say(console, f"  {COMAE_NOTE}", style="dim")
    # a sampled mean, with its spread as the outcomes have theirs (a GM-less table's evening: "Mean rounds 28.97" bare)
    line = f"Mean rounds {stats.mean_rounds:.2f}" + (f" ± {stats.rounds_error:.2f}" if stats.runs > 1 else "")
    if stats.breaks:
        from ..minds.npc import break_words

        hunter = hunts(ctype, "a")
        line += " · when its nerve broke: " + ", ".join(
            f"{break_words(k, social=ctype.social, hunts=hunter, plural=True)} {v}"
            for k, v in sorted(stats.breaks.items(), key=lambda kv: -kv[1]))
    if stats.pc_gave_up:
        line += f" · the PC gave up {stats.pc_gave_up} times"
    say(console, line)
    played = f"{stats.runs:,} conflict{'s' if stats.runs != 1 else ''} played in {elapsed:.2f} s."
    say(console, played, style="dim")  # (it read "1,024 conflicts/s", a benchmark's line, under the tables)


def lean_note(npc: NPC, declared: dict[str, int]) -> str | None:
    """Where the card's "leans Quick, Clever" and the table disagree: a Lens it never names was declared more
    often than any it does (a lean is one weight among the odds and its other leans, docs/npcs.md)."""
    from .npc import strong_leans

    strong = strong_leans(npc) if npc.uses_lenses and not npc.mindless else []
    chosen = {lens: n for lens, n in declared.items() if lens != "none" and n}
    if not strong or not chosen:
        return None
    most = max(chosen.values())
    if any(chosen.get(lens, 0) == most for lens in strong):
        return None
    top = " and ".join(lens for lens, n in chosen.items() if n == most)
    return (f"the card names the Lenses its Code Block leans to most; in play {top} was declared most often (a lean "
            "is one weight among the odds and the situation)")


#: How an outcome reads in the table (the JSON keeps the keys).
OUTCOME_WORDS = {"comae": "in comae"}
#: Under a table that counts some: what the word means (docs/rules.md §5.5).
COMAE_NOTE = "in comae: the NPC pushed on below zero until its Pool was minus its full value"


def _show_explain(console: Console, stats: DuelStats, ctype) -> None:
    from rich.table import Table
    from rich.text import Text

    from ..minds.npc import break_words
    from ..rules.fiction import hunts, pursuit_parts
    from ..ui.describe import TRIGGER_WORDS, decision_words, question_words

    first = Table(title="Why: the NPC's decisions in the first conflict", title_justify="left", show_edge=False)
    first.add_column("round", justify="right")
    first.add_column("question")
    first.add_column("choice")
    first.add_column("reason")
    for e in stats.first:
        if e.kind == "npc_decision":
            asked = question_words(e["question"])
            # an exit as the menu offered it
            choice = decision_words(e, {"static": ctype.static, "social": ctype.social, "physical": ctype.physical,
                                        "parts": pursuit_parts(ctype)}, "a")
            first.add_row(str(e["round"]), Text(asked), Text(choice), Text(e["reason"]))
        elif e.kind == "npc_morale":
            state = (f"{e['before']} → {e['after']}" if e["failed"] or e["before"] != e["after"]
                     else f"holds ({e['before']})")
            first.add_row(str(e["round"]), "morale", Text(state),
                          Text(f"{', '.join(TRIGGER_WORDS.get(t, t) for t in e['triggers'])}: "
                               f"{e['chance']:.0%} to fail; {e['clue']}"))
        elif e.kind == "npc_break":
            first.add_row(str(e["round"]), "breaks",
                          Text(break_words(e["reaction"], social=ctype.social, hunts=hunts(ctype, "a"), plural=True)),
                          Text(e["clue"]))
    console.print(first)
    totals = Table(title="What tipped each Lens, over all conflicts", title_justify="left", show_edge=False)
    totals.add_column("Lens")
    totals.add_column("strongest consideration (times)")
    for lens, whys in _reason_table(stats).items():
        totals.add_row(lens, Text(", ".join(f"{why} {n}" for why, n in whys.items())))
    console.print(totals)
