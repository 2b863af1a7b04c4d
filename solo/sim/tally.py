"""Counting what happens in simulated runs: the event sink of each run, and the sum of many.

A :class:`Tally` holds plain integers only (counters, sums and a histogram of
round counts for the median), so memory stays flat however many runs there
are, and tallies from several processes add up to the same numbers in any
order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..events import Event
from ..rules.outcomes import COMAE, FLED, OUT, SURRENDERED
from .one_run import RunResult, TurnLimit

if TYPE_CHECKING:
    from ..story.format.adventure import Choice
    from ..story.play.engine import Game

MAX_ERROR_KINDS = 100
ERROR_ENDING = "__error__"
#: A run stopped at the turn cap: it went round without reaching an ending, a loop the bots never leave (often the
#: adventure's own soft-lock), told apart from a run that met an error (a GM read the soft-lock as a crash).
STUCK_ENDING = "__stuck__"


def _bump(d: dict, key: str | None, by: int = 1) -> None:
    d[key] = d.get(key, 0) + by


class Tally:
    """Integer counts of everything the report shows; also the event sink of each run."""

    detail = False  # it counts: the engine need not take targets apart for it (events.wants_detail)

    def __init__(self, coverage: bool = False) -> None:
        self.coverage = coverage  # note what each run showed (solo simulate --coverage, solo.sim.coverage)
        self.shown: dict[str, int] = {}
        self.runs = 0
        self.endings: dict[str, int] = {}
        self.dead_ends: dict[str, int] = {}  # runs that stopped with no way on, by the scene they stood in
        self.flags: dict[str, int] = {}  # runs that ended with the flag set
        self.counters: dict[str, dict[str, int]] = {}  # counter -> {final value: runs}
        self.items: dict[str, int] = {}  # runs that ended holding the item
        self.scene_runs: dict[str, int] = {}
        self.scene_visits: dict[str, int] = {}
        self.checks: dict[str, dict] = {}
        self.conflicts: dict[str, dict] = {}
        self.npcs: dict[str, dict] = {}
        self.turns = 0
        self.turns_sq = 0  # for the ± of the turns a run took
        self.max_turns = 0
        self.error_count = 0
        self.error_kinds: dict[str, dict] = {}
        self.examples: list[dict] = []
        # per-run state, reset by begin()
        self._game: Game | None = None
        self._seen: set[str] = set()
        self._scene: str | None = None
        self._choice: str | None = None
        self._choice_key: str | None = None
        self._last_covered: str | None = None  # the outcome --coverage noted last (an escalation takes it back)
        self._escalated = False
        self._sides: dict[str, tuple[str, str | None, bool]] = {}  # participant id -> (side, npc id, obstacle)
        self._conflict: dict | None = None
        self._conflict_key = ""
        self._npc_exits: set[str] = set()
        self._fought: dict[str, int] = {}  # how often this run has fought each conflict: fought again, it is one run
        self._luck_here = 0  # the Luck the party spent in the conflict in hand
        # the conflict in hand's NPC Lens declarations, by NPC id (None: all of its NPCs) and Lens: a share's ± is
        # worked out conflict by conflict, its rounds leaning together (solo.sampling.clustered_share_error)
        self._lenses_here: dict[tuple[str | None, str], int] = {}
        self._pending_skill = ""

    # -- the sink ------------------------------------------------------------------------
    def begin(self, game: Game | None) -> None:
        self._game = game
        self._seen = set()
        self._scene = None
        self._choice = None
        self._choice_key = None
        self._last_covered = None
        self._conflict = None
        self._fought = {}

    def __call__(self, event: Event) -> None:
        handler = _HANDLERS.get(event.kind)
        if handler is not None:
            handler(self, event.data)

    def _on_scene(self, d: dict[str, Any]) -> None:
        sid = d["scene"]
        self._scene = sid
        if self.coverage and self._game is not None:
            from .coverage import mark_scene

            mark_scene(self.shown, self._game, self._game.adventure.scenes[sid])
        _bump(self.scene_visits, sid)
        if sid not in self._seen:
            self._seen.add(sid)
            _bump(self.scene_runs, sid)

    def _on_choice(self, d: dict[str, Any]) -> None:
        # the choice by the name an author gives it in chosen("scene/…"): its id, else its place from 1 (it read
        # "a:c1", the engine's own key, for a choice whose id is "c2": GM-tools review)
        self._choice = f"{d['scene']}:{d.get('name') or d['key']}"
        self._choice_key = d["key"]
        self._escalated = False
        self._last_covered = None
        if self.coverage and self._game is not None:
            from .coverage import mark_menu

            mark_menu(self.shown, self._game, self._game.adventure.scenes[d["scene"]])

    def _check(self, kind: str, skill: str) -> dict:
        key = self._choice or f"{self._scene}:?"
        entry = self.checks.get(key)
        if entry is None:
            entry = self.checks[key] = {"kind": kind, "skill": skill, "attempts": 0, "successes": 0, "outcomes": {}}
        return entry

    def _on_skill_roll(self, d: dict[str, Any]) -> None:
        self._pending_skill = d["skill"]

    def _covered(self, kind: str, outcome: str, escalated: bool = False) -> None:
        """The branch an outcome took, for --coverage (a branch with no text is known taken only so)."""
        game = self._game
        if game is None or self._scene is None:
            return
        from .coverage import mark_outcome

        self._last_covered = mark_outcome(self.shown, self._choice_in_hand(game), kind, outcome, escalated)

    def _choice_in_hand(self, game: Game) -> Choice | None:
        """The choice the story is resolving (by the last ``choice`` event's key), for --coverage's marks."""
        assert self._scene is not None
        scene = game.adventure.scenes[self._scene]
        return next((c for c in scene.choices if c.key == self._choice_key), None)

    def _on_conflict_outcome(self, d: dict[str, Any]) -> None:
        if self.coverage:
            self._covered("conflict", d["outcome"], self._escalated)

    def _on_oracle(self, d: dict[str, Any]) -> None:
        if self.coverage and d.get("answer"):
            from ..oracle.answer import grade_key

            self._covered("oracle", grade_key(str(d["answer"])))  # "yes, but" as the branch's key, yes_but

    def _on_roll_outcome(self, d: dict[str, Any]) -> None:
        if self.coverage:
            self._covered("roll", d["outcome"])
        entry = self._check("roll", self._pending_skill)
        entry["attempts"] += 1
        outcome = d["outcome"]
        if outcome in ("success", "exceptional_success"):
            entry["successes"] += 1
        _bump(entry["outcomes"], outcome)

    def _on_opposed_roll(self, d: dict[str, Any]) -> None:
        self._pending_skill = d["skill"]

    def _on_opposed_outcome(self, d: dict[str, Any]) -> None:
        if self.coverage:
            self._covered("opposed", d["outcome"])
        entry = self._check("opposed", self._pending_skill)
        entry["attempts"] += 1
        if d["outcome"] == "win":
            entry["successes"] += 1
        _bump(entry["outcomes"], d["outcome"])

    def _on_escalate(self, d: dict[str, Any]) -> None:
        self._escalated = True
        if self.coverage and self._last_covered is not None:  # the loss just said took no branch: it became a fight
            from .coverage import unmark

            unmark(self.shown, self._last_covered)
            self._last_covered = None

    def _entry(self, ctype: str) -> tuple[str, dict]:
        """The conflict of the choice in hand: its key and its counts."""
        key = (self._choice or f"{self._scene}:?") + ("+escalated" if self._escalated else "")
        entry = self.conflicts.get(key)
        if entry is None:
            entry = self.conflicts[key] = {
                "type": ctype, "fought": 0, "runs": 0, "outcomes": {}, "rounds": {}, "party_pool_lost": 0,
                "opponents_pool_lost": 0, "npc_lenses": {}, "pc_lenses": {}, "npc_fled": 0,
                "npc_surrendered": 0, "pc_fled": 0, "pc_surrendered": 0, "luck": 0, "no_contest": {},
                # the sums of squares every sampled mean's ± is worked out from (solo/sampling.py): of each
                # conflict's Pool lost by each side and Luck spent, and of how many times each run fought it
                "party_pool_lost_sq": 0, "opponents_pool_lost_sq": 0, "luck_sq": 0, "fought_sq": 0,
            }
        return key, entry

    def _on_no_contest(self, d: dict[str, Any]) -> None:
        """A conflict one side of which had nobody left to take part (the party spent before a rematch): not
        fought, but its outcome leads on as a fought one's would, so it is counted beside them (a new GM's run:
        176 fights lost and one in comae fed an ending reached 178 times)."""
        _bump(self._entry(d["type"])[1]["no_contest"], d["outcome"])

    def _on_conflict_start(self, d: dict[str, Any]) -> None:
        key, entry = self._entry(d["type"])
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
        self._conflict_key = key
        self._luck_here = 0
        self._lenses_here = {}
        self._npc_exits = set()

    def _npc(self, nid: str) -> dict:
        entry = self.npcs.get(nid)
        if entry is None:
            entry = self.npcs[nid] = {"conflicts": 0, "declarations": 0, "lenses": {}, "fled": 0,
                                      "surrendered": 0, "out": 0, "comae": 0}
        return entry

    def _on_declare(self, d: dict[str, Any]) -> None:
        c = self._conflict
        if c is None:
            return
        side, nid, obstacle = self._sides.get(d["actor"], ("a", None, False))
        if obstacle:
            return
        if nid is not None:
            _bump(c["npc_lenses"], d["lens"])
            here = self._lenses_here
            here[None, d["lens"]] = here.get((None, d["lens"]), 0) + 1
            here[nid, d["lens"]] = here.get((nid, d["lens"]), 0) + 1
            npc = self._npc(nid)
            npc["declarations"] += 1
            _bump(npc["lenses"], d["lens"])
        elif side == "a":
            _bump(c["pc_lenses"], d["lens"])

    def _on_exit(self, d: dict[str, Any]) -> None:
        c = self._conflict
        if c is None:
            return
        side, nid, _ = self._sides.get(d["actor"], ("a", None, False))
        how = FLED if d["how"] == FLED else SURRENDERED
        if nid is not None:
            self._npc(nid)[how] += 1
            if how not in self._npc_exits:  # a conflict counts once, however many of them ran
                self._npc_exits.add(how)
                c[f"npc_{how}"] += 1
        elif side == "a":
            c[f"pc_{how}"] += 1

    def _on_luck(self, d: dict[str, Any]) -> None:
        if self._conflict is not None and d.get("round") is not None and d.get("use") != "pay_back":
            side, nid, _ = self._sides.get(d["actor"], ("b", None, False))
            if nid is None and side == "a":
                self._conflict["luck"] += 1
                self._luck_here += 1

    def _on_conflict_end(self, d: dict[str, Any]) -> None:
        c = self._conflict
        if c is None:
            return
        c["fought"] += 1
        times = self._fought[self._conflict_key] = self._fought.get(self._conflict_key, 0) + 1
        if times == 1:
            c["runs"] += 1
        c["fought_sq"] += 2 * times - 1  # k fights in a run add up to k squared
        _bump(c["outcomes"], d["outcome"])
        _bump(c["rounds"], str(d["rounds"]))
        lost_by = {"a": 0, "b": 0}
        for pid, lost in d["pool_lost"].items():
            side, nid, _ = self._sides.get(pid, ("b", None, False))
            lost_by["a" if side == "a" else "b"] += lost
        c["party_pool_lost"] += lost_by["a"]
        c["opponents_pool_lost"] += lost_by["b"]
        c["party_pool_lost_sq"] += lost_by["a"] ** 2
        c["opponents_pool_lost_sq"] += lost_by["b"] ** 2
        c["luck_sq"] += self._luck_here ** 2
        self._luck_here = 0
        if self._lenses_here:
            self._fold_lenses(c)
        for pid, status in d["statuses"].items():
            _, nid, _ = self._sides.get(pid, ("a", None, False))
            if nid is not None and status in (OUT, COMAE):
                self._npc(nid)[status] += 1
        self._conflict = None

    def _fold_lenses(self, c: dict) -> None:
        """The conflict's own Lens counts into the sums each share's ± is worked out from (sampling.add_cluster),
        for the conflict's NPCs together and for each NPC."""
        from ..sampling import add_cluster

        by_npc: dict[str | None, dict[str, int]] = {}
        for (nid, lens), x in self._lenses_here.items():
            by_npc.setdefault(nid, {})[lens] = x
        for nid, counts in by_npc.items():
            add_cluster((c if nid is None else self.npcs[nid]).setdefault("lens_sums", {}), counts)
        self._lenses_here = {}

    # -- whole runs ----------------------------------------------------------------------
    def add_run(self, result: RunResult, index: int, max_examples: int) -> None:
        self.runs += 1
        self.turns += result.turns
        self.turns_sq += result.turns ** 2
        self.max_turns = max(self.max_turns, result.turns)
        if result.error is None:
            _bump(self.endings, result.ending)
            if result.stopped_in is not None:
                _bump(self.dead_ends, result.stopped_in)
            for name in result.flags:
                _bump(self.flags, name)
            for name, value in result.counters:
                _bump(self.counters.setdefault(name, {}), str(value))
            for name in result.items:
                _bump(self.items, name)
            return
        _bump(self.endings, STUCK_ENDING if isinstance(result.error, TurnLimit) else ERROR_ENDING)
        self.error_count += 1
        exc = result.error
        kind = type(exc).__name__
        message = str(exc).splitlines()[0] if str(exc) else kind
        signature = f"{kind}: {message}" + (f" @ {result.where}" if result.where else "")
        entry = self.error_kinds.get(signature)
        if entry is None and len(self.error_kinds) < MAX_ERROR_KINDS:
            entry = self.error_kinds[signature] = {"error": kind, "message": message, "where": result.where,
                                                   "count": 0, "first_run": index, "first_seed": result.seed}
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
        self.turns_sq += other.turns_sq
        self.max_turns = max(self.max_turns, other.max_turns)
        self.error_count += other.error_count
        for name in ("endings", "dead_ends", "flags", "counters", "items", "scene_runs", "scene_visits", "checks",
                     "conflicts", "npcs", "shown"):
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


def _on_branch_text(tally: Tally, d: dict[str, Any]) -> None:
    game = tally._game
    if tally.coverage and game is not None and tally._scene is not None:
        from .coverage import mark_branch

        mark_branch(tally.shown, game, tally._choice_in_hand(game), d.get("text", ""))


_HANDLERS: dict[str, Callable[[Tally, dict[str, Any]], None]] = {
    "branch_text": _on_branch_text,
    "scene_entered": Tally._on_scene,
    "choice": Tally._on_choice,
    "skill_roll": Tally._on_skill_roll,
    "roll_outcome": Tally._on_roll_outcome,
    "opposed_roll": Tally._on_opposed_roll,
    "opposed_outcome": Tally._on_opposed_outcome,
    "escalate": Tally._on_escalate,
    "conflict_start": Tally._on_conflict_start,
    "no_contest": Tally._on_no_contest,
    "declare": Tally._on_declare,
    "exit": Tally._on_exit,
    "luck": Tally._on_luck,
    "conflict_end": Tally._on_conflict_end,
    "conflict_outcome": Tally._on_conflict_outcome,
    "oracle": Tally._on_oracle,
}
