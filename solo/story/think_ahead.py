"""Pricing a scene's conflicts while the player reads it, so the first Lens menu of a conflict need not wait.

The exact Lens odds against an NPC mind (:class:`~solo.minds.foresight.Foresight`)
cost a new match-up every state the conflict can reach, for every Lens: up to
a second or more of pure Python at the Pools where the game prices them
exactly (``benchmarks/lens_odds.py``). Every later menu of the same conflict
is a look-up. At the keyboard most of a game's time is the player reading a
scene and choosing, and the menu already says which choices start a conflict.

So when a scene's menu (or the question whether to escalate a lost roll)
is put to a person, :class:`ThinkAhead` builds each conflict an answer
would start as it would start now (copies of the characters, fresh twins of
the NPC minds, as ``solo prove`` does) and prices its first Lens menu in a
background thread, one conflict after another, while the main thread waits
for the answer (the wait releases the interpreter). The chains go to a
:class:`~solo.minds.foresight.SharedChains` store by match-up, where the
conflict's own advisor finds them, or waits for the one being built. The
moment the player answers, every conflict but the chosen one is dropped (the
one being priced stops before its next Lens).

The game itself is untouched: the thinker reads copies, draws from its own
generator, and the odds are pure functions of the match-up, so a game plays
the same, number for number, with or without it (a test checks this). Only a
person at a terminal gets one (``solo play`` at a TTY); scripted input,
bots and the simulator answer at once and have no reading time to use.
"""

from __future__ import annotations

import copy
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..minds.foresight import Foresight, SharedChains

if TYPE_CHECKING:
    from ..rules.conflict_view import ConflictView
    from ..rules.participants import Participant
    from .engine import Game

#: A job's work: given a "should I stop" test, price what it was made for.
Work = Callable[[Callable[[], bool]], None]


@dataclass
class Job:
    """One conflict to price ahead, for the choice ``key`` that would start it."""

    key: str
    work: Work
    drop: Callable[[], None] = lambda: None  # undoes what making the job claimed, when it is dropped unrun
    cancelled: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None  # what the work raised: the conflict then prices itself, and shows it

    def dropped(self) -> None:
        """Never to run: release its claim."""
        self.cancelled.set()
        self.drop()
        self.done.set()


class ThinkAhead:
    """One background thread that runs the jobs of the latest menu, in order, until the player answers."""

    def __init__(self, store: SharedChains | None = None):
        self.store = store if store is not None else SharedChains()
        self._cond = threading.Condition()
        self._queue: list[Job] = []
        self._running: Job | None = None
        self._thread: threading.Thread | None = None
        self._closed = False

    def offer(self, jobs: list[Job]) -> None:
        """A new menu: what was queued or running for the last one is dropped, these are run in their order."""
        with self._cond:
            for job in self._queue:
                job.dropped()
            if self._running is not None:
                self._running.cancelled.set()
            self._queue = list(jobs)
            if jobs and self._thread is None and not self._closed:
                self._thread = threading.Thread(target=self._work, name="solo-think-ahead", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def narrow(self, key: str | None) -> None:
        """The player chose ``key``: only that choice's job goes on (None: none of them)."""
        with self._cond:
            keep = [j for j in self._queue if j.key == key]
            for job in self._queue:
                if job.key != key:
                    job.dropped()
            self._queue = keep
            if self._running is not None and self._running.key != key:
                self._running.cancelled.set()

    def idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing is queued or running (for tests and benchmarks); False if ``timeout`` ran out."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and self._running is None, timeout)

    def close(self) -> None:
        """Stop the thread (after the job at hand stops, at its next Lens)."""
        with self._cond:
            self._closed = True
            for job in self._queue:
                job.dropped()
            self._queue = []
            if self._running is not None:
                self._running.cancelled.set()
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5.0)

    def _work(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._queue or self._closed)
                if self._closed:
                    return
                job = self._running = self._queue.pop(0)
            try:
                job.work(job.cancelled.is_set)
            except Exception as exc:  # noqa: BLE001 - best effort: the conflict prices itself and shows any error
                job.error = exc
            finally:
                with self._cond:
                    self._running = None
                    job.done.set()
                    self._cond.notify_all()


def conflict_jobs(game: Game, conflicts: list[tuple[str, dict]], store: SharedChains) -> list[Job]:
    """A job for each (answer, conflict spec) that would start a conflict at once, everything it reads copied
    now (in the main thread)."""
    jobs = []
    for key, spec in conflicts:
        try:
            job = conflict_job(game, key, spec, store)
        except Exception:  # noqa: BLE001 - pricing ahead is an aid: the conflict itself meets any such error
            job = None
        if job is not None:
            jobs.append(job)
    return jobs


def conflict_job(game: Game, key: str, spec: dict, store: SharedChains) -> Job | None:
    """The first Lens menu of the conflict ``spec`` as it would start now, to price in the background.

    None where there is nothing to price ahead: a party (it says who takes
    part first, and the odds of a group are an estimate), a side with a spent
    Pool (pushing on), another kind of NPC mind than the game's own, or a
    conflict that is not one against one.
    """
    from ..minds.bots import LensKeeper
    from ..rules.conflict import Conflict
    from ..rules.outcomes import COMAE
    from .actions import ACTIONS, obstacle_of
    from .npcs import default_mind

    s = game.state
    if len(s.pcs) != 1 or game.mind_factory is not None:
        return None
    verb = ACTIONS["conflict"]
    ctype = game.conflict_types[spec["type"]]
    npc_ids = [n for n in verb.arg(spec, "npcs") if s.npc_status.get(n) != COMAE]
    memory = {nid: copy.deepcopy(s.memory.get(nid)) for nid in npc_ids}
    rng = random.Random(0)  # the twins' own generator: pricing draws nothing, and never from the game's
    parts, npcs, _ = game.conflict_sides(ctype, npc_ids, obstacle_of(spec), pc_decider=LensKeeper("none"),
                                         mind=lambda nid, npc: default_mind(npc, rng, memory=memory[nid]),
                                         copies=True, vehicle=spec.get("vehicle"))
    if len(parts) != 2 or {p.side for p in parts} != {"a", "b"} or any(p.pool.current < 1 for p in parts):
        return None
    game.disposition_bonus(ctype, parts, next(iter(npcs), None))
    conflict = Conflict(ctype, parts, rng, round_limit=verb.arg(spec, "rounds"),
                        negative_luck=game.adventure.negative_luck)
    conflict.round = 1
    return first_menu(key, conflict.view, parts[0], store)


def first_menu(key: str, view: ConflictView, pc: Participant, store: SharedChains,
               foresight_of: Callable[[], Foresight] = Foresight) -> Job | None:
    """A job pricing ``pc``'s Lens menu in ``view`` (a conflict nobody else touches) into ``store``, or None.

    The match-up is claimed in the store at once (in the calling thread), so
    a conflict that asks for it before the job has even started waits for
    the job instead of pricing it a second time beside it. None: no exact
    odds here, or the match-up is already priced or being priced.
    ``foresight_of`` makes the job's own Foresight: the game's limits by
    default, larger ones in the benchmark.
    """
    foresight = foresight_of()
    match = foresight.key_for(view, pc)
    if match is None or not store.claim(match):
        return None

    def work(stop: Callable[[], bool]) -> None:
        chains = None
        try:
            foresight.exact(view, pc, stop=stop)
            chains = foresight.chains_for(match)
        finally:
            store.release(match, chains)

    return Job(key, work, drop=lambda: store.release(match, None))


__all__ = ["Job", "ThinkAhead", "conflict_job", "conflict_jobs", "first_menu"]
