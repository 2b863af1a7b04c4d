"""``solo simulate``: auto-play an adventure many times with bot players and count what happens.

Every run is a real :class:`~solo.story.engine.Game` with a bot
(:mod:`solo.sim.policies`) answering for the party and the NPCs' own minds
answering for them. The event sink narrates nothing: it only adds numbers
into a :class:`Tally` of plain integers (counters, sums and a histogram of
round counts for the median), so memory stays flat however many runs there
are, and tallies from several processes add up to the same report in any
order.

Run ``i`` plays with seed :func:`run_seed` ``(base, i)``, whatever the number of
processes; the runs are split into chunks, each process reloads the adventure
from its path (only plain data crosses between processes), and the parent
adds the chunks' tallies in order. A run that raises, or goes on past the turn
cap, is an error that keeps its seed and its answers, so it can be replayed
with ``solo play --seed S --script FILE``.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from ..events import Event

DEFAULT_MAX_TURNS = 1000
QUESTIONS_PER_TURN = 200  # a turn may hold a whole conflict: a generous ceiling on questions
SLOT_SEED = 1000  # generated party member i is built from random.Random(SLOT_SEED + i)
MAX_EXAMPLES = 10  # runtime errors kept with their answers (the rest are only counted)
MAX_ERROR_KINDS = 100
Z95 = 1.959963984540054
PARTY_OUTCOMES = ("won", "lost", "fled", "surrendered", "comae", "stalemate", "opponent_fled", "opponent_surrendered")


class SimulationError(Exception):
    """Options that cannot be simulated (bad party, unknown policy …); the message says why."""


class TurnLimit(Exception):
    """A run that went on past the turn cap: probably a loop the bots cannot leave."""


@dataclass(frozen=True)
class Options:
    """Everything a worker needs, as plain data."""

    adventure: str  # a path
    runs: int
    seed: int = 1
    policy: str = "random"
    party: tuple[str, ...] = ()  # character files or pregenerated names
    party_size: int | None = None
    max_turns: int = DEFAULT_MAX_TURNS
    max_examples: int = MAX_EXAMPLES

    def to_dict(self) -> dict:
        return asdict(self)


def run_seed(base: int, index: int) -> int:
    """The seed of run ``index``: a hash of both, the same in every process and on every machine."""
    digest = hashlib.blake2b(f"{base}:{index}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


# -- the party ---------------------------------------------------------------------
@dataclass
class Party:
    members: list  # Character
    pc_specs: list[str] | None  # what `solo play --pc` takes to play the same characters (None: write files)
    how: str  # "pregen", "files", "generated"


def build_party(adventure, options: Options) -> Party:
    """The characters every run starts with (copied by the engine, so runs never share state)."""
    from ..characters import load_character
    from ..errors import SoloError
    from ..rules.creation import build_character, pregenerated, random_choices

    if options.party:
        members = []
        for spec in options.party:
            try:
                members.append(load_character(spec))
            except SoloError as exc:
                raise SimulationError(str(exc)) from None
        names = [m.name for m in members]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise SimulationError(f"party members need different names: {', '.join(dupes)} twice")
        specs = [str(Path(spec).resolve()) if Path(spec).exists() else spec for spec in options.party]
        return _fits(adventure, Party(members, specs, "files"))
    if options.party_size is None and adventure.pc:
        try:
            return Party([pregenerated(adventure.pc)], [adventure.pc], "pregen")
        except SoloError as exc:
            raise SimulationError(f"the adventure's pregenerated character: {exc}") from None
    size = options.party_size or 1
    if not 1 <= size <= 6:
        raise SimulationError(f"a party has 1 to 6 characters, not {size}")
    members, names = [], set()
    for slot in range(size):
        char = build_character(random_choices(random.Random(SLOT_SEED + slot)))
        name, n = char.name, 2
        while char.name in names:
            char.name = f"{name} {n}"
            n += 1
        names.add(char.name)
        members.append(char)
    return _fits(adventure, Party(members, None, "generated"))


def _fits(adventure, party: Party) -> Party:
    if len(party.members) > adventure.party_max:
        raise SimulationError(f"{adventure.title} is for at most {adventure.party_max} player(s); "
                              f"the party has {len(party.members)}")
    return party


# -- one run ---------------------------------------------------------------------------
class _Player:
    """The bot, plus the log of its answers and the turn cap."""

    def __init__(self, bot, max_turns: int):
        self.bot = bot
        self.max_turns = max_turns
        self.max_questions = max_turns * QUESTIONS_PER_TURN
        self.turns = 0
        self.log: list[tuple[str, str]] = []

    def decide(self, question) -> str:
        if question.kind == "choice":
            self.turns += 1
            if self.turns > self.max_turns:
                raise TurnLimit(f"still playing after {self.max_turns} turns (in scene "
                                f"{question.context.get('scene')!r}): a loop the bots never leave?")
        if len(self.log) >= self.max_questions:
            raise TurnLimit(f"more than {self.max_questions} questions in one run")
        answer = self.bot.decide(question)
        self.log.append((question.kind, answer))
        return answer


@dataclass
class RunResult:
    seed: int
    ending: str | None
    turns: int
    answers: list[tuple[str, str]]
    error: BaseException | None = None
    where: str = ""
    flags: tuple[str, ...] = ()  # flags set at the end
    counters: tuple[tuple[str, int], ...] = ()  # counters at the end
    items: tuple[str, ...] = ()  # items held at the end


def play_one(adventure, party: list, seed: int, policy: str, *, sink=None,
             max_turns: int = DEFAULT_MAX_TURNS) -> RunResult:
    """Play one game with seed ``seed``; errors are caught and returned with the answers so far."""
    from ..story.engine import Game
    from .policies import make_policy

    player = _Player(make_policy(policy, random.Random(seed ^ 0x5EED5EED)), max_turns)
    game = None
    try:
        game = Game(adventure, seed=seed, decider=player, sink=sink, party=party)
        if sink is not None and hasattr(sink, "begin"):
            sink.begin(game)
        ending = game.play()
        st = game.state
        return RunResult(seed, ending, player.turns, player.log,
                         flags=tuple(k for k, v in st.flags.items() if v),
                         counters=tuple(st.counters.items()), items=tuple(st.items))
    except Exception as exc:  # noqa: BLE001 - every failure becomes a report entry with its seed
        return RunResult(seed, None, player.turns, player.log, exc, _where(exc))
    finally:
        if game is not None:
            game.close()


def _where(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if f"{os.sep}solo{os.sep}" in f.filename and f"{os.sep}sim{os.sep}" not in f.filename]
    frame = (ours or frames or [None])[-1]
    if frame is None:
        return ""
    return f"{_short(frame.filename)}:{frame.lineno} in {frame.name}"


def _short(filename: str) -> str:
    marker = f"{os.sep}solo{os.sep}"
    i = filename.rfind(marker)
    return "solo/" + filename[i + len(marker):].replace(os.sep, "/") if i >= 0 else filename


# -- counting -------------------------------------------------------------------------------
def _bump(d: dict, key, by: int = 1) -> None:
    d[key] = d.get(key, 0) + by


class Tally:
    """Integer counts of everything the report shows; also the event sink of each run."""

    def __init__(self):
        self.runs = 0
        self.endings: dict[str, int] = {}
        self.flags: dict[str, int] = {}  # runs that ended with the flag set
        self.counters: dict[str, dict[str, int]] = {}  # counter -> {final value: runs}
        self.items: dict[str, int] = {}  # runs that ended holding the item
        self.scene_runs: dict[str, int] = {}
        self.scene_visits: dict[str, int] = {}
        self.checks: dict[str, dict] = {}
        self.conflicts: dict[str, dict] = {}
        self.npcs: dict[str, dict] = {}
        self.turns = 0
        self.max_turns = 0
        self.error_count = 0
        self.error_kinds: dict[str, dict] = {}
        self.examples: list[dict] = []
        # per-run state, reset by begin()
        self._game = None
        self._seen: set[str] = set()
        self._scene = None
        self._choice = None
        self._escalated = False
        self._sides: dict[str, tuple[str, str | None, bool]] = {}  # participant id -> (side, npc id, obstacle)
        self._conflict: dict | None = None
        self._npc_exits: set[str] = set()
        self._pending_skill = ""

    # -- the sink ------------------------------------------------------------------------
    def begin(self, game) -> None:
        self._game = game
        self._seen = set()
        self._scene = None
        self._choice = None
        self._conflict = None

    def __call__(self, event: Event) -> None:
        handler = _HANDLERS.get(event.kind)
        if handler is not None:
            handler(self, event.data)

    def _on_scene(self, d) -> None:
        sid = d["scene"]
        self._scene = sid
        _bump(self.scene_visits, sid)
        if sid not in self._seen:
            self._seen.add(sid)
            _bump(self.scene_runs, sid)

    def _on_choice(self, d) -> None:
        self._choice = f"{d['scene']}:{d['key']}"
        self._escalated = False

    def _check(self, kind: str, skill: str) -> dict:
        key = self._choice or f"{self._scene}:?"
        entry = self.checks.get(key)
        if entry is None:
            entry = self.checks[key] = {"kind": kind, "skill": skill, "attempts": 0, "successes": 0, "outcomes": {}}
        return entry

    def _on_skill_roll(self, d) -> None:
        self._pending_skill = d["skill"]

    def _on_roll_outcome(self, d) -> None:
        entry = self._check("roll", getattr(self, "_pending_skill", ""))
        entry["attempts"] += 1
        outcome = d["outcome"]
        if outcome in ("success", "exceptional_success"):
            entry["successes"] += 1
        _bump(entry["outcomes"], outcome)

    def _on_opposed_roll(self, d) -> None:
        self._pending_skill = d["skill"]

    def _on_opposed_outcome(self, d) -> None:
        entry = self._check("opposed", getattr(self, "_pending_skill", ""))
        entry["attempts"] += 1
        if d["outcome"] == "win":
            entry["successes"] += 1
        _bump(entry["outcomes"], d["outcome"])

    def _on_escalate(self, d) -> None:
        self._escalated = True

    def _on_conflict_start(self, d) -> None:
        key = (self._choice or f"{self._scene}:?") + ("+escalated" if self._escalated else "")
        entry = self.conflicts.get(key)
        if entry is None:
            entry = self.conflicts[key] = {
                "type": d["type"], "fought": 0, "outcomes": {}, "rounds": {}, "party_pool_lost": 0,
                "opponents_pool_lost": 0, "npc_lenses": {}, "pc_lenses": {}, "npc_fled": 0,
                "npc_surrendered": 0, "pc_fled": 0, "pc_surrendered": 0, "luck": 0,
            }
        names = {}
        if self._game is not None:
            names = {npc.name: nid for nid, npc in self._game.state.npcs.items()}
        self._sides = {}
        for p in d["participants"]:
            nid = None if p["pc"] or p["obstacle"] else names.get(p["id"], p["id"])
            self._sides[p["id"]] = (p["side"], nid, p["obstacle"])
            if nid is not None:
                npc = self._npc(nid)
                npc["conflicts"] += 1
        self._conflict = entry
        self._npc_exits = set()

    def _npc(self, nid: str) -> dict:
        entry = self.npcs.get(nid)
        if entry is None:
            entry = self.npcs[nid] = {"conflicts": 0, "declarations": 0, "lenses": {}, "fled": 0,
                                      "surrendered": 0, "out": 0, "comae": 0}
        return entry

    def _on_declare(self, d) -> None:
        c = self._conflict
        if c is None:
            return
        side, nid, obstacle = self._sides.get(d["actor"], ("a", None, False))
        if obstacle:
            return
        if nid is not None:
            _bump(c["npc_lenses"], d["lens"])
            npc = self._npc(nid)
            npc["declarations"] += 1
            _bump(npc["lenses"], d["lens"])
        elif side == "a":
            _bump(c["pc_lenses"], d["lens"])

    def _on_exit(self, d) -> None:
        c = self._conflict
        if c is None:
            return
        side, nid, _ = self._sides.get(d["actor"], ("a", None, False))
        how = "fled" if d["how"] == "fled" else "surrendered"
        if nid is not None:
            self._npc(nid)[how] += 1
            if how not in self._npc_exits:  # a conflict counts once, however many of them ran
                self._npc_exits.add(how)
                c[f"npc_{how}"] += 1
        elif side == "a":
            c[f"pc_{how}"] += 1

    def _on_luck(self, d) -> None:
        if self._conflict is not None and d.get("round") is not None:
            side, nid, _ = self._sides.get(d["actor"], ("b", None, False))
            if nid is None and side == "a":
                self._conflict["luck"] += 1

    def _on_conflict_end(self, d) -> None:
        c = self._conflict
        if c is None:
            return
        c["fought"] += 1
        _bump(c["outcomes"], d["outcome"])
        _bump(c["rounds"], str(d["rounds"]))
        for pid, lost in d["pool_lost"].items():
            side, nid, _ = self._sides.get(pid, ("b", None, False))
            c["party_pool_lost" if side == "a" else "opponents_pool_lost"] += lost
        for pid, status in d["statuses"].items():
            _, nid, _ = self._sides.get(pid, ("a", None, False))
            if nid is not None and status in ("out", "comae"):
                self._npc(nid)[status] += 1
        self._conflict = None

    # -- whole runs ----------------------------------------------------------------------
    def add_run(self, result: RunResult, index: int, max_examples: int) -> None:
        self.runs += 1
        self.turns += result.turns
        self.max_turns = max(self.max_turns, result.turns)
        if result.error is None:
            _bump(self.endings, result.ending)
            for name in result.flags:
                _bump(self.flags, name)
            for name, value in result.counters:
                _bump(self.counters.setdefault(name, {}), str(value))
            for name in result.items:
                _bump(self.items, name)
            return
        _bump(self.endings, ERROR_ENDING)
        self.error_count += 1
        exc = result.error
        kind = type(exc).__name__
        message = str(exc).splitlines()[0] if str(exc) else kind
        signature = f"{kind}: {message} @ {result.where}"
        entry = self.error_kinds.get(signature)
        if entry is None and len(self.error_kinds) < MAX_ERROR_KINDS:
            entry = self.error_kinds[signature] = {"count": 0, "first_run": index, "first_seed": result.seed}
        if entry is not None:
            entry["count"] += 1
            if index < entry["first_run"]:
                entry["first_run"], entry["first_seed"] = index, result.seed
        if len(self.examples) < max_examples:
            self.examples.append({"run": index, "seed": result.seed, "error": kind, "message": message,
                                  "where": result.where, "turns": result.turns,
                                  "answers": [list(a) for a in result.answers]})

    def to_dict(self) -> dict:
        return {k: v for k, v in vars(self).items() if not k.startswith("_")}

    @classmethod
    def from_dict(cls, data: dict) -> Tally:
        t = cls()
        for k, v in data.items():
            setattr(t, k, v)
        return t

    def merge(self, other: Tally, max_examples: int) -> None:
        self.runs += other.runs
        self.turns += other.turns
        self.max_turns = max(self.max_turns, other.max_turns)
        self.error_count += other.error_count
        for name in ("endings", "flags", "counters", "items", "scene_runs", "scene_visits", "checks", "conflicts", "npcs"):
            _add(getattr(self, name), getattr(other, name))
        for sig, e in other.error_kinds.items():
            mine = self.error_kinds.get(sig)
            if mine is None:
                if len(self.error_kinds) < MAX_ERROR_KINDS:
                    self.error_kinds[sig] = dict(e)
                continue
            mine["count"] += e["count"]
            if e["first_run"] < mine["first_run"]:
                mine["first_run"], mine["first_seed"] = e["first_run"], e["first_seed"]
        self.examples = sorted(self.examples + other.examples, key=lambda e: e["run"])[:max_examples]


def _add(mine: dict, theirs: dict) -> None:
    """Add nested dicts of integers (strings, such as a conflict's type, are kept as they are)."""
    for key, value in theirs.items():
        if isinstance(value, dict):
            _add(mine.setdefault(key, {}), value)
        elif isinstance(value, int) and not isinstance(value, bool):
            mine[key] = mine.get(key, 0) + value
        else:
            mine.setdefault(key, value)


_HANDLERS: dict[str, Callable] = {
    "scene_entered": Tally._on_scene,
    "choice": Tally._on_choice,
    "skill_roll": Tally._on_skill_roll,
    "roll_outcome": Tally._on_roll_outcome,
    "opposed_roll": Tally._on_opposed_roll,
    "opposed_outcome": Tally._on_opposed_outcome,
    "escalate": Tally._on_escalate,
    "conflict_start": Tally._on_conflict_start,
    "declare": Tally._on_declare,
    "exit": Tally._on_exit,
    "luck": Tally._on_luck,
    "conflict_end": Tally._on_conflict_end,
}
ERROR_ENDING = "__error__"


# -- chunks of runs, in this process or another ----------------------------------------
_WORKER_CACHE: dict[tuple, tuple] = {}


def _prepared(options: Options):
    key = (options.adventure, options.party, options.party_size)
    if key not in _WORKER_CACHE:
        from ..story.loader import load_adventure

        adventure = load_adventure(options.adventure)
        _WORKER_CACHE.clear()
        _WORKER_CACHE[key] = (adventure, build_party(adventure, options))
    return _WORKER_CACHE[key]


def run_chunk(options: Options, start: int, count: int) -> Tally:
    """Runs ``start`` .. ``start + count - 1``, tallied."""
    adventure, party = _prepared(options)
    tally = Tally()
    for index in range(start, start + count):
        tally.begin(None)
        result = play_one(adventure, party.members, run_seed(options.seed, index), options.policy, sink=tally,
                          max_turns=options.max_turns)
        tally.add_run(result, index, options.max_examples)
    return tally


def _worker(task: tuple[dict, int, int]) -> dict:
    options, start, count = task
    return run_chunk(Options(**{**options, "party": tuple(options["party"])}), start, count).to_dict()


def chunks(runs: int, jobs: int) -> list[tuple[int, int]]:
    """(start, count) pieces: small enough to share out evenly and to move a progress bar."""
    size = max(1, min(500, math.ceil(runs / max(1, jobs * 8))))
    return [(start, min(size, runs - start)) for start in range(0, runs, size)]


def simulate(options: Options, *, jobs: int = 1, progress: Callable[[int, int], None] | None = None,
             errors_dir: str | Path | None = None, on_pool_ready: Callable[[], None] | None = None) -> dict:
    """Play ``options.runs`` games and return the report (a JSON-able dict).

    ``progress(done, total)`` is called after every chunk. ``errors_dir`` is
    where the answers of failing runs are written (default: a ``solo-simulate``
    folder in the system temporary folder). ``on_pool_ready`` is called once the
    worker processes exist (start a progress bar's thread only after that).
    """
    from ..story.loader import load_adventure

    if options.runs < 1:
        raise SimulationError("--runs must be at least 1")
    if jobs < 1:
        raise SimulationError("--jobs must be at least 1")
    from .policies import POLICIES

    if options.policy not in POLICIES:
        raise SimulationError(f"unknown policy {options.policy!r} (known: {', '.join(POLICIES)})")
    adventure = load_adventure(options.adventure)
    party = build_party(adventure, options)
    pieces = chunks(options.runs, jobs)
    total = Tally()
    done = 0
    start = time.perf_counter()
    # Forked workers inherit the loaded adventure; spawned ones load it again from its path.
    _WORKER_CACHE.clear()
    _WORKER_CACHE[(options.adventure, options.party, options.party_size)] = (adventure, party)
    if jobs == 1 or len(pieces) == 1:
        if on_pool_ready:
            on_pool_ready()
        for first, count in pieces:
            total.merge(run_chunk(options, first, count), options.max_examples)
            done += count
            if progress:
                progress(done, options.runs)
    else:
        import multiprocessing

        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
        plain = options.to_dict()
        import gc

        gc.freeze()  # forked workers then share the parent's objects instead of copying them on collection
        try:
            pool = ctx.Pool(min(jobs, len(pieces)))
        finally:
            gc.unfreeze()
        with pool:
            if on_pool_ready:
                on_pool_ready()
            for (first, count), data in zip(pieces, pool.imap(_worker, [(plain, f, c) for f, c in pieces])):
                total.merge(Tally.from_dict(data), options.max_examples)
                done += count
                if progress:
                    progress(done, options.runs)
    elapsed = time.perf_counter() - start
    return build_report(total, adventure, options, party, jobs=jobs, seconds=elapsed, errors_dir=errors_dir)


# -- the report ----------------------------------------------------------------------------
def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` tries (95 % by default)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _rate(k: int, n: int) -> dict:
    low, high = wilson(k, n)
    return {"count": k, "rate": round(k / n, 6) if n else 0.0, "low": round(low, 6), "high": round(high, 6)}


def median_of(histogram: dict) -> float | None:
    """The median of values given as {value: count} (values may be strings of integers)."""
    items = sorted((int(v), c) for v, c in histogram.items() if c)
    n = sum(c for _, c in items)
    if n == 0:
        return None
    lo_rank, hi_rank = (n - 1) // 2, n // 2
    seen, lo = 0, None
    for value, count in items:
        if lo is None and seen + count > lo_rank:
            lo = value
        if seen + count > hi_rank:
            return (lo + value) / 2
        seen += count
    return None  # pragma: no cover


def _choice_text(adventure, key: str) -> tuple[str, str, str]:
    scene, _, choice_key = key.split("+", 1)[0].rpartition(":")
    text = ""
    s = adventure.scenes.get(scene)
    if s is not None:
        text = next((c.text for c in s.choices if c.key == choice_key), "")
    return scene, choice_key, text


def build_report(t: Tally, adventure, options: Options, party: Party, *, jobs: int, seconds: float,
                 errors_dir: str | Path | None = None) -> dict:
    runs = t.runs
    titles = {sid: s for sid, s in adventure.scenes.items()}
    endings = {}
    for eid in sorted(t.endings, key=lambda e: (-t.endings[e], e)):
        entry = _rate(t.endings[eid], runs)
        scene = titles.get(eid)
        entry["title"] = scene.title if scene else eid
        entry["outcome"] = (scene.outcome or eid) if scene else eid
        endings[eid] = entry
    for scene in adventure.endings():
        if scene.id not in endings:
            endings[scene.id] = {**_rate(0, runs), "title": scene.title, "outcome": scene.outcome or scene.id}
    scenes = {sid: {"runs": t.scene_runs.get(sid, 0), "rate": round(t.scene_runs.get(sid, 0) / runs, 6),
                    "visits": t.scene_visits.get(sid, 0)} for sid in adventure.scenes}
    unreached = [sid for sid in adventure.scenes if not t.scene_runs.get(sid)]
    checks = []
    for key in sorted(t.checks):
        c = t.checks[key]
        scene, choice, text = _choice_text(adventure, key)
        checks.append({"key": key, "scene": scene, "choice": choice, "text": text, "kind": c["kind"],
                       "skill": c["skill"], "attempts": c["attempts"], "successes": c["successes"],
                       **{k: v for k, v in _rate(c["successes"], c["attempts"]).items() if k != "count"},
                       "outcomes": dict(sorted(c["outcomes"].items()))})
    conflicts = []
    for key in sorted(t.conflicts):
        c = t.conflicts[key]
        n = c["fought"]
        scene, choice, text = _choice_text(adventure, key)
        rounds_total = sum(int(r) * k for r, k in c["rounds"].items())
        lens_total = sum(c["npc_lenses"].values())
        conflicts.append({
            "key": key, "scene": scene, "choice": choice, "text": text, "type": c["type"],
            "escalated": key.endswith("+escalated"), "fought": n, "fought_per_run": round(n / runs, 6),
            "outcomes": {o: _rate(c["outcomes"].get(o, 0), n) for o in PARTY_OUTCOMES},
            "rounds_mean": round(rounds_total / n, 4) if n else None,
            "rounds_median": median_of(c["rounds"]),
            "rounds": dict(sorted(c["rounds"].items(), key=lambda kv: int(kv[0]))),
            "party_pool_lost_mean": round(c["party_pool_lost"] / n, 4) if n else None,
            "opponents_pool_lost_mean": round(c["opponents_pool_lost"] / n, 4) if n else None,
            "party_luck_spent_mean": round(c["luck"] / n, 4) if n else None,
            "pc_lenses": dict(sorted(c["pc_lenses"].items())),
            "npc_lenses": {lens: round(k / lens_total, 6) for lens, k in sorted(c["npc_lenses"].items())},
            "npc_declarations": lens_total,
            "npc_fled": _rate(c["npc_fled"], n), "npc_surrendered": _rate(c["npc_surrendered"], n),
            "pc_fled": c["pc_fled"], "pc_surrendered": c["pc_surrendered"],
        })
    npcs = {}
    for nid in sorted(t.npcs):
        e = t.npcs[nid]
        n = e["conflicts"]
        decl = e["declarations"]
        npcs[nid] = {"conflicts": n, "declarations": decl,
                     "lenses": {lens: round(k / decl, 6) for lens, k in sorted(e["lenses"].items())} if decl else {},
                     "fled": _rate(e["fled"], n), "surrendered": _rate(e["surrendered"], n),
                     "out": e["out"], "comae": e["comae"]}
    errors = [_error_entry(e, adventure, options, party, errors_dir) for e in t.examples]
    return {
        "adventure": adventure.id, "source": str(options.adventure), "runs": runs, "seed": options.seed,
        "policy": options.policy, "party": [m.name for m in party.members], "party_from": party.how,
        "max_turns": options.max_turns,
        "endings": endings, "scenes": scenes, "unreached": unreached, "checks": checks, "conflicts": conflicts,
        "npcs": npcs,
        "state_at_end": _state_at_end(t, adventure, runs),
        "turns": {"mean": round(t.turns / runs, 4), "max": t.max_turns},
        "error_count": t.error_count,
        "error_kinds": [{"error": sig, **e} for sig, e in sorted(t.error_kinds.items(), key=lambda kv: kv[1]["first_run"])],
        "errors": errors,
        "jobs": jobs, "seconds": round(seconds, 4), "runs_per_second": round(runs / seconds, 2) if seconds > 0 else None,
    }


def _state_at_end(t: Tally, adventure, runs: int) -> dict:
    """How the story's own state ends up: flags and items per run, each counter's final values."""
    from ..story.graph import _all_effects

    named = {"set": set(), "counter": set(), "give": set()}
    for e in _all_effects(adventure):
        kind = {"set": "set", "clear": "set", "add": "counter", "counter": "counter", "give": "give"}.get(e.kind)
        if kind:
            named[kind].add(e.args[e.kind])
    counters = {}
    for name in sorted(named["counter"] | set(t.counters)):
        hist = t.counters.get(name, {})
        finished = sum(hist.values())
        hist = {**hist, "0": hist.get("0", 0) + (runs - t.error_count - finished)}  # never touched: 0
        total = sum(int(v) * k for v, k in hist.items())
        counters[name] = {"mean": round(total / max(1, runs - t.error_count), 4), "median": median_of(hist),
                          "values": dict(sorted(((v, k) for v, k in hist.items() if k), key=lambda kv: int(kv[0])))}
    return {
        "flags": {name: _rate(t.flags.get(name, 0), runs) for name in sorted(named["set"] | set(t.flags))},
        "counters": counters,
        "items": {name: _rate(t.items.get(name, 0), runs) for name in sorted(named["give"] | set(t.items))},
    }


def _error_entry(e: dict, adventure, options: Options, party: Party, errors_dir) -> dict:
    """The example error with the files and the command that replay it."""
    folder = Path(errors_dir) if errors_dir else Path(tempfile.gettempdir()) / "solo-simulate"
    out = {k: v for k, v in e.items() if k != "answers"}
    stem = f"{adventure.id}-seed{e['seed']}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        script = folder / f"{stem}.txt"
        lines = [f"# solo simulate: run {e['run']} of {adventure.id}, seed {e['seed']}, policy {options.policy}",
                 f"# {e['error']}: {e['message']}", "# one answer a line, in the order the game asks"]
        lines += [answer for _, answer in e["answers"]]
        script.write_text("\n".join(lines) + "\n", encoding="utf-8")
        pcs = party.pc_specs
        if pcs is None:
            from ..toml_write import dumps

            pcs = []
            for i, member in enumerate(party.members, 1):
                pc_file = folder / f"{stem}-pc{i}.toml"
                pc_file.write_text(dumps(member.to_dict()), encoding="utf-8")
                pcs.append(str(pc_file))
    except OSError as exc:
        out["replay"] = f"(could not write the replay files to {folder}: {exc.strerror or exc})"
        return out
    out["script"] = str(script)
    source = str(Path(options.adventure).resolve())
    pc_args = " ".join(f"--pc {_quote(pc)}" for pc in pcs)
    out["replay"] = (f"solo play {_quote(source)} --seed {e['seed']} {pc_args} --script {_quote(str(script))} "
                     f"--saves {_quote(str(folder))} --save {_quote(stem)}")
    return out


def _quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


__all__ = ["Options", "SimulationError", "Tally", "TurnLimit", "build_party", "chunks", "median_of", "play_one",
           "run_chunk", "run_seed", "simulate", "wilson"]
