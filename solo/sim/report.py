"""The report of a simulation: rates with 95 % intervals, medians, and errors with the commands that replay them.

It is a JSON-able dict (what ``solo simulate --json`` prints); the text
report of :mod:`solo.cli.simulate` is drawn from the same dict.
"""

from __future__ import annotations

from pathlib import Path
from shlex import quote
from typing import TYPE_CHECKING, Any

from ..paths import solo_program
from ..rules.outcomes import OUTCOMES
from ..sampling import mean_error, wilson
from ..story.play.engine import ENGINE_ENDINGS
from .one_run import TurnLimit
from .options import Options
from .party import Party
from .tally import ERROR_ENDING, STUCK_ENDING, Tally

if TYPE_CHECKING:
    from ..story.format.adventure import Adventure, Choice

#: Endings no scene of the adventure holds, as a report names them (title, outcome, the label in the ending column):
#: the engine's own, and a run that stopped on an error (listed with its replay under the table), never by key.
RUN_ENDINGS: dict[str, tuple[str, str | None, str]] = {
    **ENGINE_ENDINGS, ERROR_ENDING: ("A run that stopped on an error", None, "(run failed)"),
    STUCK_ENDING: ("A run that never reached an ending", None, "(stuck: turn limit)")}
#: A conflict's endings for the party as the report lists them: the party's own first, then the opponents' exits.
PARTY_OUTCOMES = tuple(sorted(OUTCOMES, key=lambda outcome: outcome.startswith("opponent_")))


def _rate(k: int, n: int) -> dict[str, Any]:
    low, high = wilson(k, n)
    return {"count": k, "rate": round(k / n, 6) if n else 0.0, "low": round(low, 6), "high": round(high, 6)}


def _error(total: float, squares: float, n: int) -> float | None:
    """One standard error of a sampled mean (solo/sampling.py), None where nothing was sampled."""
    return round(mean_error(total, squares, n), 4) if n else None


def _lens_errors(counts: dict[str, int], entry: dict) -> dict[str, float]:
    """One standard error of each Lens's share of ``counts``, counted conflict by conflict (solo/sampling.py): the
    rounds of one conflict lean together, so they are not independent tries."""
    from ..sampling import cluster_errors

    return {lens: round(e, 6) for lens, e in sorted(cluster_errors(counts, entry.get("lens_sums", {})).items())}


def median_of(histogram: dict[str, int] | dict[int, int]) -> float | None:
    """The median of values given as {value: count} (values may be strings of integers)."""
    items = sorted((int(v), c) for v, c in histogram.items() if c)
    n = sum(c for _, c in items)
    if n == 0:
        return None
    lo_rank, hi_rank = (n - 1) // 2, n // 2
    seen, lo = 0, 0
    for value, count in items:
        if seen <= lo_rank < seen + count:
            lo = value
        if seen + count > hi_rank:
            return (lo + value) / 2
        seen += count
    return None  # pragma: no cover


HISTOGRAM_BINS = 8  # a counter's final values as the text report shows them: a line, however many values


def histogram_bins(values: dict[str, int] | dict[int, int], bins: int = HISTOGRAM_BINS) -> list[list[int]]:
    """``[low, high, runs]`` for a counter's final values ({value: runs}): a small histogram.

    Up to ``bins`` distinct values are shown one each (low == high); more are grouped in
    ``bins`` ranges of equal width from the lowest value to the highest, empty ranges kept so
    the shape is honest.
    """
    counts = sorted((int(v), c) for v, c in values.items() if c)
    if not counts:
        return []
    if len(counts) <= bins:
        return [[v, v, c] for v, c in counts]
    low, high = counts[0][0], counts[-1][0]
    width = -(-(high - low + 1) // bins)  # ceiling: every value falls in one of the ranges
    out = [[low + i * width, min(high, low + (i + 1) * width - 1), 0] for i in range(bins)]
    out = [b for b in out if b[0] <= high]
    for value, count in counts:
        out[(value - low) // width][2] += count
    return out


def _choice_named(adventure: Adventure, key: str) -> tuple[str, str, Choice | None]:
    """A report's key ("scene:choice", "+escalated" after it) as its scene, its choice's name and the choice."""
    scene, _, name = key.split("+", 1)[0].rpartition(":")
    s = adventure.scenes.get(scene)
    return scene, name, next((c for c in s.choices if c.name == name), None) if s is not None else None


def _menu_order(adventure: Adventure, key: str) -> tuple[str, int, str]:
    """A key's place in a report: by scene, then as the scene's menu numbers its choices ("bar:10" after "bar:2")."""
    scene, _, choice = _choice_named(adventure, key)
    return scene, choice.number if choice is not None else 0, key


def _choice_text(adventure: Adventure, key: str) -> tuple[str, str, str]:
    scene, name, choice = _choice_named(adventure, key)
    return scene, name, adventure.as_listed(choice.text) if choice is not None else ""


def build_report(t: Tally, adventure: Adventure, options: Options, party: Party, *, jobs: int, seconds: float,
                 errors_dir: str | Path | None = None) -> dict[str, Any]:
    runs = t.runs
    titles = {sid: s for sid, s in adventure.scenes.items()}
    endings = {}
    for eid in sorted(t.endings, key=lambda e: (-t.endings[e], e)):
        entry = _rate(t.endings[eid], runs)
        ending = titles.get(eid)
        if ending is not None:
            entry["title"], entry["outcome"] = adventure.as_listed(ending.title), ending.outcome or eid
        else:  # one the engine reaches on its own (the whole party out, no way on), named as the game names it
            # no way on and a failed run have no outcome: null, as the docs say (the party's fall is "fallen")
            title, outcome, _ = RUN_ENDINGS.get(eid, (eid, None, eid))
            entry["title"], entry["outcome"] = title, outcome
        endings[eid] = entry
    for ending in adventure.endings():
        if ending.id not in endings:
            endings[ending.id] = {**_rate(0, runs), "title": adventure.as_listed(ending.title),
                                  "outcome": ending.outcome or ending.id}
    # each scene's share of runs with its interval, as every other share (solo map --stats draws it)
    scenes = {sid: {"runs": t.scene_runs.get(sid, 0),
                    **{k: v for k, v in _rate(t.scene_runs.get(sid, 0), runs).items() if k != "count"},
                    "visits": t.scene_visits.get(sid, 0)} for sid in adventure.scenes}
    unreached = [sid for sid in adventure.scenes if not t.scene_runs.get(sid)]
    checks = []
    for key in sorted(t.checks, key=lambda k: _menu_order(adventure, k)):
        c = t.checks[key]
        scene, choice, text = _choice_text(adventure, key)
        checks.append({"key": key, "scene": scene, "choice": choice, "text": text, "kind": c["kind"],
                       "skill": c["skill"], "attempts": c["attempts"], "successes": c["successes"],
                       **{k: v for k, v in _rate(c["successes"], c["attempts"]).items() if k != "count"},
                       "outcomes": dict(sorted(c["outcomes"].items()))})
    conflicts = []
    for key in sorted(t.conflicts, key=lambda k: _menu_order(adventure, k)):
        c = t.conflicts[key]
        n = c["fought"]
        scene, choice, text = _choice_text(adventure, key)
        rounds_total = sum(int(r) * k for r, k in c["rounds"].items())
        rounds_sq = sum(int(r) ** 2 * k for r, k in c["rounds"].items())
        within = _rate(c["runs"], runs)
        lens_total = sum(c["npc_lenses"].values())
        conflicts.append({
            "key": key, "scene": scene, "choice": choice, "text": text, "type": c["type"],
            "escalated": key.endswith("+escalated"), "fought": n, "fought_per_run": round(n / runs, 6),
            "fought_per_run_error": _error(n, c.get("fought_sq", 0), runs),
            "runs": c["runs"], "runs_rate": round(c["runs"] / runs, 6), "runs_low": within["low"],
            "runs_high": within["high"],
            "outcomes": {o: _rate(c["outcomes"].get(o, 0), n) for o in PARTY_OUTCOMES},
            "rounds_mean": round(rounds_total / n, 4) if n else None,
            "rounds_mean_error": _error(rounds_total, rounds_sq, n),
            "rounds_median": median_of(c["rounds"]),
            "rounds": dict(sorted(c["rounds"].items(), key=lambda kv: int(kv[0]))),
            "party_pool_lost_mean": round(c["party_pool_lost"] / n, 4) if n else None,
            "party_pool_lost_mean_error": _error(c["party_pool_lost"], c.get("party_pool_lost_sq", 0), n),
            "opponents_pool_lost_mean": round(c["opponents_pool_lost"] / n, 4) if n else None,
            "opponents_pool_lost_mean_error": _error(c["opponents_pool_lost"], c.get("opponents_pool_lost_sq", 0), n),
            "party_luck_spent_mean": round(c["luck"] / n, 4) if n else None,
            "party_luck_spent_mean_error": _error(c["luck"], c.get("luck_sq", 0), n),
            "pc_lenses": dict(sorted(c["pc_lenses"].items())),
            "npc_lenses": {lens: round(k / lens_total, 6) for lens, k in sorted(c["npc_lenses"].items())},
            "npc_lenses_error": _lens_errors(c["npc_lenses"], c),
            "npc_declarations": lens_total,
            "npc_fled": _rate(c["npc_fled"], n), "npc_surrendered": _rate(c["npc_surrendered"], n),
            "pc_fled": c["pc_fled"], "pc_surrendered": c["pc_surrendered"],
            "no_contest": dict(sorted(c.get("no_contest", {}).items())),
        })
    npcs = {}
    for nid in sorted(t.npcs):
        e = t.npcs[nid]
        n = e["conflicts"]
        decl = e["declarations"]
        npcs[nid] = {"conflicts": n, "declarations": decl,
                     "lenses": {lens: round(k / decl, 6) for lens, k in sorted(e["lenses"].items())} if decl else {},
                     "lenses_error": _lens_errors(e["lenses"], e),
                     "fled": _rate(e["fled"], n), "surrendered": _rate(e["surrendered"], n),
                     "out": _rate(e["out"], n), "comae": _rate(e["comae"], n)}
    errors = [_error_entry(e, adventure, options, party, errors_dir) for e in t.examples]
    coverage = {}
    if options.coverage:
        from .coverage import not_shown

        coverage = {"not_shown": not_shown(adventure, t.shown)}
    return {
        "adventure": adventure.id, "adventure_hash": adventure.content_hash, "source": str(options.adventure),
        "runs": runs, "seed": options.seed,
        "policy": options.policy, "party": [m.name for m in party.members], "party_from": party.how,
        "max_turns": options.max_turns,
        "endings": endings, "scenes": scenes, "unreached": unreached, "checks": checks, "conflicts": conflicts,
        "npcs": npcs,
        # the runs that stopped with no way on, by the scene they stood in, most first (a GM's evening: 67 of them,
        # and no word of where)
        "dead_ends": dict(sorted(t.dead_ends.items(), key=lambda kv: (-kv[1], kv[0]))),
        "state_at_end": _state_at_end(t, adventure, runs),
        "turns": {"mean": round(t.turns / runs, 4), "mean_error": _error(t.turns, t.turns_sq, runs),
                  "max": t.max_turns},
        "error_count": t.error_count,
        "error_kinds": sorted(t.error_kinds.values(), key=lambda e: e["first_run"]),
        "errors": errors,
        "jobs": jobs, "seconds": round(seconds, 4),
        "runs_per_second": round(runs / seconds, 2) if seconds > 0 else None,
        **coverage,
    }


def _state_at_end(t: Tally, adventure: Adventure, runs: int) -> dict[str, Any]:
    """How the story's own state ends up: flags and items per run, each counter's final values."""
    from ..story.format.graph import all_effects
    from ..story.play.effects import EFFECTS

    named: dict[str, set[str]] = {"flag": set(), "counter": set(), "give": set()}
    for e in all_effects(adventure):
        verb = EFFECTS[e.kind]
        kind = verb.writes or ("give" if verb.gives_item else None)
        if kind:
            named[kind].add(e.args[e.kind])
    counters = {}
    for name in sorted(named["counter"] | set(t.counters)):
        hist = t.counters.get(name, {})
        finished = sum(hist.values())
        hist = {**hist, "0": hist.get("0", 0) + (runs - t.error_count - finished)}  # never touched: 0
        total = sum(int(v) * k for v, k in hist.items())
        squares = sum(int(v) ** 2 * k for v, k in hist.items())
        values = dict(sorted(((v, k) for v, k in hist.items() if k), key=lambda kv: int(kv[0])))
        counters[name] = {"mean": round(total / max(1, runs - t.error_count), 4),
                          "mean_error": _error(total, squares, runs - t.error_count), "median": median_of(hist),
                          "min": min(map(int, values), default=None), "max": max(map(int, values), default=None),
                          "bins": histogram_bins(values), "values": values}
    return {
        "flags": {name: _rate(t.flags.get(name, 0), runs) for name in sorted(named["flag"] | set(t.flags))},
        "counters": counters,
        "items": {name: _rate(t.items.get(name, 0), runs) for name in sorted(named["give"] | set(t.items))},
    }


#: The folder of failing runs' replays under the saves folder, unless --errors names another.
ERRORS_SUBFOLDER = "simulate-errors"


def errors_folder() -> Path:
    """Where failing runs' replays go by default: ``simulate-errors`` in the saves folder (``SOLO_SAVES``,
    ``$SOLO_HOME/saves`` or ``saves/``), the project's own, never a temporary folder every project shares."""
    from ..paths import default_saves

    return default_saves() / ERRORS_SUBFOLDER


def _error_entry(e: dict, adventure: Adventure, options: Options, party: Party,
                 errors_dir: str | Path | None) -> dict[str, Any]:
    """The example error with the files and the command that replay it."""
    from ..characters import CHARACTER_FILE, character_text
    from ..paths import FileKind, PathError, file_in, write_owned

    folder = Path(errors_dir) if errors_dir else errors_folder()
    out = {k: v for k, v in e.items() if k != "answers"}
    stem = f"{adventure.id}-seed{e['seed']}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        script = file_in(folder, f"{stem}.txt")
        lines = [f"# solo simulate: run {e['run']} of {adventure.id}, seed {e['seed']}, policy {options.policy}",
                 f"# {e['error']}: {' '.join(str(e['message']).splitlines())}",  # one comment line, whatever it says
                 "# one answer a line, in the order the game asks"]
        lines += [answer for _, answer in e["answers"]]
        # the one rule for files solo writes: a replay of an earlier simulation is replaced, nobody else's file
        write_owned(script, "\n".join(lines) + "\n", FileKind("a replay script", starts=(b"# solo simulate:",)),
                    option=None)
        pcs = party.pc_specs
        if pcs is None:
            pcs = []
            for i, member in enumerate(party.members, 1):
                pc_file = file_in(folder, f"{stem}-pc{i}.toml")
                write_owned(pc_file, character_text(member), CHARACTER_FILE, option=None)
                pcs.append(str(Path(pc_file).absolute()))
    except OSError as exc:
        out["replay"] = f"(could not write the replay files to {folder}: {exc.strerror or exc})"
        return out
    except PathError as exc:  # the adventure's id cannot name a file there (the loader refuses such ids)
        out["replay"] = f"(could not write the replay files: {exc})"
        return out
    # every path whole, as the adventure's is: the command runs as printed from whatever folder a new shell opens in
    out["script"] = str(Path(script).absolute())
    source = str(Path(options.adventure).resolve())
    pc_args = " ".join(f"--pc {quote(pc)}" for pc in pcs)
    cut = " --partial" if e["error"] == TurnLimit.__name__ else ""  # the run was cut off: so is its script
    out["replay"] = (f"{solo_program()} play {quote(source)} --seed {e['seed']} {pc_args} --script "
                     f"{quote(out['script'])}{cut} --saves {quote(str(Path(folder).absolute()))} --save {quote(stem)}")
    return out
