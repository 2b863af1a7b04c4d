"""Pricing a scene's conflicts while the player reads it, so the first Lens menu of a conflict need not wait.

The exact Lens odds against an NPC mind (:class:`~solo.minds.foresight.Foresight`)
cost a new match-up a walk over every state the conflict can reach, for every
Lens at once: about 0.1 s at the Pools where the game prices them exactly, and
the first conflict of a session also imports numpy (``benchmarks/lens_odds.py``).
Every later menu of the same conflict is a look-up. At the keyboard most of a game's time is the player reading a
scene and choosing, and the menu already says which choices start a conflict.

So when a scene's menu, the question whether to escalate a lost roll, or
open play's stakes for a fight is put to a person (``Game.price_ahead``),
:class:`ThinkAhead` builds each conflict an answer would start as it would
start now (copies of the characters, fresh twins of the NPC minds, as
``solo prove`` does) and prices its first Lens menu in a background thread,
one conflict after another, while the main thread waits for the answer (the
wait releases the interpreter; numpy's array steps release it too). The chains go to a
:class:`~solo.minds.foresight.SharedChains` store by match-up, where the
conflict's own advisor finds them, or waits for the one being built. The
moment the player answers (``Game.answered``), every conflict but the chosen
one is dropped; the one being priced stops before the next round of its walk
and keeps nothing, unless the next question offers the same fight.

The game itself is untouched: the thinker reads copies, draws from its own
generator, and the odds are pure functions of the match-up, so a game plays
the same, event for event and word for word, with or without it (a test
checks this). Only a person at a terminal gets one (``solo play`` at a TTY);
scripted input, bots, the simulator and a save being replayed answer at once
and have no reading time to use.
"""

from __future__ import annotations

import copy
import random
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...minds.foresight import Foresight, SharedChains

if TYPE_CHECKING:
    from ...rules.conflict_view import ConflictView
    from ...rules.participants import Participant
    from .engine import Game

#: A job's work: given a "should I stop" test, price what it was made for.
Work = Callable[[Callable[[], bool]], None]


@dataclass
class Job:
    """One conflict to price ahead, for the answer ``key`` that would start it.

    ``match`` is the match-up it prices (claimed in the store when the job
    was made); a job with no ``work`` stands for the one already running for
    that match-up, which a new question wants too (:meth:`ThinkAhead.offer`).
    """

    key: str
    work: Work | None
    match: object = None
    drop: Callable[[], None] = lambda: None  # undoes what making the job claimed, when it is dropped unrun
    cancelled: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None  # what the work raised (for tests): the conflict then prices itself

    def dropped(self) -> None:
        """Never to run: release its claim."""
        self.cancelled.set()
        self.drop()
        self.done.set()


class ThinkAhead:
    """One background thread that runs the jobs of the latest question, in order, until the player answers.

    A question goes in three steps: :meth:`prepare` (the last question's
    queued jobs are dropped, their match-ups free again), the new jobs are
    made (:func:`conflict_jobs`, claiming their match-ups), :meth:`offer`
    (the job still running goes on if the new question wants its match-up,
    else it stops at its next round of walking); then :meth:`narrow` with the answer.
    """

    def __init__(self, store: SharedChains | None = None):
        self.store = store if store is not None else SharedChains()
        self._cond = threading.Condition()
        self._queue: list[Job] = []
        self._running: Job | None = None
        self._thread: threading.Thread | None = None
        self._closed = False

    def prepare(self) -> object:
        """Drop what is queued (a new question is coming); the match-up of the job still running, or None."""
        with self._cond:
            for job in self._queue:
                job.dropped()
            self._queue = []
            return None if self._running is None or self._running.cancelled.is_set() else self._running.match

    def offer(self, jobs: list[Job]) -> None:
        """A new question's jobs, run in their order; the last question's are dropped or stopped.

        A job without work names the running job's match-up: that job goes on,
        now for this question's answer ``key``.
        """
        with self._cond:
            for job in self._queue:
                job.dropped()
            running = self._running
            going_on = next((j for j in jobs if j.work is None and running is not None and j.match == running.match),
                            None)
            if running is not None:
                if going_on is not None and not running.cancelled.is_set():
                    running.key = going_on.key
                else:
                    running.cancelled.set()
            self._queue = [j for j in jobs if j.work is not None]
            if self._closed:  # nothing runs any more: nobody may wait for these
                for job in self._queue:
                    job.dropped()
                self._queue = []
            elif self._queue and self._thread is None:
                self._thread = threading.Thread(target=self._work, name="solo-think-ahead", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def narrow(self, key: str | None) -> None:
        """The player answered ``key``: only that answer's job goes on (None: none of them)."""
        with self._cond:
            keep = [j for j in self._queue if j.key == key]
            for job in self._queue:
                if job.key != key:
                    job.dropped()
            self._queue = keep
            if self._running is not None and self._running.key != key:
                self._running.cancelled.set()
            self._cond.notify_all()

    def idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing is queued or running (for tests and benchmarks); False if ``timeout`` ran out."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and self._running is None, timeout)

    def close(self) -> None:
        """Stop the thread (after the job at hand stops, at its next round of walking)."""
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
        try:
            while True:
                with self._cond:
                    self._cond.wait_for(lambda: self._queue or self._closed)
                    if self._closed:
                        return
                    job = self._running = self._queue.pop(0)
                try:
                    assert job.work is not None
                    job.work(job.cancelled.is_set)
                except Exception as exc:  # noqa: BLE001 - an aid: the conflict prices itself, and meets any error
                    job.error = exc
                finally:
                    with self._cond:
                        self._running = None
                        job.done.set()
                        self._cond.notify_all()
        finally:  # however the thread ends, nothing queued is left holding a claim, and a later job starts anew
            with self._cond:
                for job in self._queue:
                    job.dropped()
                self._queue = []
                self._thread = None
                self._cond.notify_all()


def conflict_jobs(game: Game, conflicts: list[tuple[str, dict]], thinker: ThinkAhead) -> list[Job]:
    """A job for each (answer, conflict spec) that would start a conflict at once, everything it reads copied
    now (in the main thread), after :meth:`ThinkAhead.prepare` has freed the last question's match-ups."""
    running = thinker.prepare()
    jobs = []
    for key, spec in conflicts:
        try:
            job = conflict_job(game, key, spec, thinker.store, running)
        except Exception:  # noqa: BLE001 - pricing ahead is an aid: the conflict itself meets any such error
            job = None
        if job is not None:
            jobs.append(job)
    return jobs


def conflict_job(game: Game, key: str, spec: dict, store: SharedChains, running: object = None) -> Job | None:
    """The first Lens menu of the conflict ``spec`` as it would start now, to price in the background.

    None where there is nothing to price ahead: a party (it says who takes
    part first, and the odds of a group are an estimate), a side with a spent
    Pool (pushing on), another kind of NPC mind than the game's own, or a
    conflict that is not one against one.
    """
    started = conflict_as_it_starts(game, spec)
    if started is None or len(started.participants) != 2:
        return None
    return first_menu(key, started, started.participants[0], store, running=running)


def no_contest(game: Game, spec: dict) -> str | None:
    """Where the conflict ``spec`` would have nobody against the party, because every NPC in it is spent and
    cannot push on (or in comae), the menu's words for it: "no contest: Ragna Ulvsdotter is spent (CHA 0)". A
    social conflict offered against an NPC talked down an hour before read "lose, and she may win you" with no
    odds, then was no contest. None where someone would face the party (or an obstacle is in it)."""
    from .actions import ACTIONS, conflict_type_of, obstacle_of

    verb = ACTIONS["conflict"]
    if obstacle_of(spec) is not None or spec.get("vehicle") is not None:
        return None
    npc_ids = list(verb.arg(spec, "npcs"))
    if not npc_ids:
        return None
    ctype = conflict_type_of(game, spec)
    parts, _, in_comae = game.conflict_sides(ctype, npc_ids, None, pc_decider=None, mind=lambda nid, npc: None,
                                             copies=True)
    foes = [p for p in parts if p.side == "b"]
    if any(p.pool.current > 0 or p.can_push for p in foes):
        return None
    said = [f"{p.name} is spent ({ctype.pool_label} {p.pool.current})" for p in foes]
    said += [f"{name} is in comae" for name in in_comae]
    return "no contest: " + "; ".join(said) if said else None


def conflict_as_it_starts(game: Game, spec: dict) -> ConflictView | None:
    """The conflict ``spec`` as its first round would stand if it started now, built from copies (the PC
    keeping no Lens, the NPCs as fresh twins of their minds, drawing from a generator of their own): what
    its first Lens menu is worked out from. None for a party (it says who takes part first), another kind
    of NPC mind than the game's own, or a side with nobody in or with a spent Pool (pushing on)."""
    from ...minds.bots import LensKeeper
    from ...rules.conflict import Conflict
    from ...rules.outcomes import COMAE
    from .actions import ACTIONS, conflict_type_of, obstacle_of
    from .npcs import default_mind

    s = game.state
    if len(s.pcs) != 1 or game.mind_factory is not None:
        return None
    verb = ACTIONS["conflict"]
    ctype = conflict_type_of(game, spec)
    npc_ids = [n for n in verb.arg(spec, "npcs") if s.npc_status.get(n) != COMAE]
    memory = {nid: copy.deepcopy(s.memory.get(nid)) for nid in npc_ids}
    rng = random.Random(0)  # the twins' own generator: pricing draws nothing, and never from the game's
    parts, npcs, _ = game.conflict_sides(ctype, npc_ids, obstacle_of(spec), pc_decider=LensKeeper("none"),
                                         mind=lambda nid, npc: default_mind(npc, rng, memory=memory[nid],
                                                                           edition=game.edition),
                                         copies=True, vehicle=spec.get("vehicle"))
    if {p.side for p in parts} != {"a", "b"} or any(p.pool.current < 1 for p in parts):
        return None
    conflict = Conflict(ctype, parts, rng, round_limit=verb.arg(spec, "rounds"),
                        negative_luck=game.adventure.negative_luck, standing=game.disposition_bonus(ctype, parts, npcs))
    conflict.round = 1
    return conflict.view


def best_lens_words(game: Game, spec: dict, store: SharedChains | None = None) -> str | None:
    """What the first Lens menu of the conflict ``spec`` will say for its best Lens, if it started now, for
    the menu that offers it: "Cautious every round: 44 % to win", "Cautious every round: ≈ 41 % ± 6 to win · from
    60 tries". The very advisor the conflict asks (:class:`~solo.story.play.advice.LensAdvisor`), on
    :func:`conflict_as_it_starts`; with ``store`` (the thinker's) the chains it works out are kept for the
    conflict's own first menu."""
    from ...rules.lenses import LENS_TABLE
    from .advice import LensAdvisor, nerve_assumed

    view = conflict_as_it_starts(game, spec)
    if view is None:
        return None
    pc = next(p for p in view.participants if p.side == "a")
    advisor = LensAdvisor(shared=store)
    advisor.told = True  # the first menu says what its numbers assume; here only the best Lens's nerve, below
    words = advisor(view, pc)
    best = next((k for k, w in words.items() if w.endswith("best")), None)
    if best is None:
        return None
    text = words[best].removesuffix(" · likely best").removesuffix(" · best")
    nerve = nerve_assumed(view, pc)  # what the numbers assume of the foe's nerve (one Lens is named: not of it)
    if nerve and " to win" in text and "≈" not in text:
        text = text.replace(" to win", f" to win if{nerve.removeprefix(' and')}", 1)
    text = re.sub(r" after (\d+ more rounds|this round)", "", text)
    # the Lens kept: the odds are of keeping it every round, which the choice's line says (a new GM read
    # "Flamboyant: 11 % to win" as the fight's chance, where changing Lens as it goes nearly tripled it)
    return f"{LENS_TABLE[best].name} every round: {text}"


def first_menu(key: str, view: ConflictView, pc: Participant, store: SharedChains,
               foresight_of: Callable[[], Foresight] = Foresight, *, running: object = None) -> Job | None:
    """A job pricing ``pc``'s Lens menu in ``view`` (a conflict nobody else touches) into ``store``, or None.

    The match-up is claimed in the store at once (in the calling thread), so
    a conflict that asks for it before the job has even started waits for
    the job instead of pricing it a second time beside it. Only a job that
    priced every Lens hands its chains over; one stopped on the way frees the
    match-up for a later question. ``running``: the match-up of the job
    running now (:meth:`ThinkAhead.prepare`); wanted again, the job made is
    a marker that keeps that one going. None: no exact odds here, or the
    match-up is already priced or being priced. ``foresight_of`` makes the
    job's own Foresight: the game's limits by default, larger ones in the
    benchmark.
    """
    foresight = foresight_of()
    match = foresight.key_for(view, pc)
    if match is None:
        return None
    if running is not None and match == running:
        return Job(key, None, match)
    if not store.claim(match):
        return None

    def work(stop: Callable[[], bool]) -> None:
        chains = None
        try:
            foresight.exact(view, pc, stop=stop)
            if not stop():  # every Lens priced: a stopped job's part would pass for the whole
                chains = foresight.chains_for(match)
        finally:
            store.release(match, chains)

    return Job(key, work, match, drop=lambda: store.release(match, None))


__all__ = ["Job", "ThinkAhead", "best_lens_words", "conflict_as_it_starts", "conflict_job", "conflict_jobs",
           "first_menu"]
