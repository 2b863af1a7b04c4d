"""A scene's conflicts priced while the player reads it (issue 12, speed at the keyboard).

The thinker works on copies in a thread of its own; the conflict's advisor takes what it priced from
a store shared by match-up. These tests check that the game plays the same with it, that the
conflict then builds no chain of its own, that the thinker drops what the player did not choose,
and that the store hands a match-up from one thread to the other only when it is done.
"""

from __future__ import annotations

import random
import threading

import pytest
from conftest import make_char

from solo.events import EventLog
from solo.minds.bots import GreedyDecider, LensKeeper
from solo.minds.foresight import Foresight, SharedChains
from solo.minds.npc import NPCMind
from solo.npc import NPC
from solo.rules import lens_arrays
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.participants import from_character
from solo.story.play.engine import Game
from solo.story.play.think_ahead import Job, ThinkAhead, first_menu

COMBAT = conflict_type("combat")
NPC_FILE = {"name": "Vera", "level": "skilled", "skills": {"Combat": 55, "Cunning": 60, "Social": 50},
            "pools": {"BODY": 8, "INT": 8, "POW": 14, "CHA": 14}, "weapon": "dagger",
            "code_block": {"personality": ["Correct", "Bitter"], "motivation": ["Faith"],
                           "event": {"topic": "Money", "sign": "negative"}}}
WAIT = 60.0  # seconds: a bound on waits that end at once when all is well, so a bug fails instead of hanging


def _duel(seed: int = 1, combat: int = 55):
    """A fresh one-against-one conflict at round 1: a PC against an NPC with a mind of its own."""
    npc = NPC.from_dict({**NPC_FILE, "skills": {**NPC_FILE["skills"], "Combat": combat}})
    pc = make_char("Ada", pools=8, luck=0, Combat=60, Cunning=55, Social=45)
    a = from_character(pc, "a", COMBAT, decider=LensKeeper("none"))
    b = from_character(npc, "b", COMBAT, decider=NPCMind(npc, random.Random(seed)))
    conflict = Conflict(COMBAT, [a, b], random.Random(seed), round_limit=12)
    conflict.round = 1
    return conflict.view, a


@pytest.fixture
def walks(monkeypatch):
    """Counts the chains solved (each a walk over a match-up's states)."""
    count = [0]
    solve = lens_arrays.Walk.__init__

    def counting(self, *args, **kwargs):
        count[0] += 1
        solve(self, *args, **kwargs)

    monkeypatch.setattr(lens_arrays.Walk, "__init__", counting)
    return count


class _Reader(GreedyDecider):
    """A bot that, at each scene menu, waits for the thinker as a slow reader would, and fights when it can."""

    def __init__(self, thinker: ThinkAhead | None, walks: list[int]):
        super().__init__(random.Random(3))
        self.thinker, self.walks = thinker, walks
        self.at_choice: int | None = None
        self.at_menu: int | None = None  # chains solved when the fight's first Lens menu came

    def decide(self, question):
        if question.kind == "lens" and self.at_choice is not None and self.at_menu is None:
            self.at_menu = self.walks[0]
        if question.kind == "choice":
            if self.thinker is not None:
                assert self.thinker.idle(WAIT)
            fight = next((o for o in question.options if "(Combat)" in o.label), None)
            if fight is not None:
                self.at_choice = self.walks[0]
                return fight.key
        return super().decide(question)


def _play(adventure, thinker: ThinkAhead | None, walks: list[int]):
    log = EventLog()
    reader = _Reader(thinker, walks)
    game = Game(adventure, seed=5, decider=reader, advise=True, sink=log)
    game.think_ahead = thinker
    game.play()
    return [(e.kind, e.data) for e in log.events], reader


def test_a_game_plays_the_same_with_a_thinker_and_its_conflict_solves_no_chain(tutorial, walks):
    alone, _ = _play(tutorial, None, walks)
    before = walks[0]
    thinker = ThinkAhead()
    try:
        helped, reader = _play(tutorial, thinker, walks)
    finally:
        thinker.close()
    assert helped == alone  # every event, the odds shown among them
    assert reader.at_choice is not None, "the bot reached the fight"
    assert reader.at_menu == reader.at_choice, "the fight's first menu took its chains from the thinker"
    assert reader.at_choice > before, "the thinker priced the scene's conflicts while the bot 'read'"
    shown = [d for k, d in helped if k == "chance" and d.get("option") in ("cautious", "aggressive")]
    assert shown, "the priced menus were shown"


def test_the_conflicts_advisor_takes_the_thinkers_chains_and_shows_the_same_odds(walks):
    cold = Foresight().exact(*_duel())
    solved = walks[0]
    store = SharedChains()
    ahead, ahead_pc = _duel(seed=2)  # a twin of the mind, with a generator of its own
    job = first_menu("fight", ahead, ahead_pc, store)
    assert job is not None
    job.work(lambda: False)
    assert walks[0] == 2 * solved
    live = Foresight(shared=store).exact(*_duel(seed=3))
    assert walks[0] == 2 * solved, "nothing solved again"
    assert live.odds == cold.odds and live.best == cold.best


def test_two_minds_of_one_npc_are_one_match_up_and_another_npc_is_not():
    keys = [Foresight().key_for(*_duel(seed)) for seed in (1, 2)]
    assert keys[0] is not None and keys[0] == keys[1]
    assert Foresight().key_for(*_duel(combat=65)) != keys[0]


def test_a_match_up_is_claimed_once_and_never_once_it_is_kept():
    store = SharedChains()
    assert store.claim("m") and not store.claim("m")
    store.release("m", None)  # nothing to keep: free again
    assert store.claim("m")
    store.release("m", {"none": "chains"})  # type: ignore[dict-item]
    assert "m" in store and not store.claim("m")
    assert store.take("m") == {"none": "chains"}


def test_taking_a_match_up_being_priced_waits_for_it():
    store = SharedChains()
    assert store.claim("m")
    got: list[object] = []
    taken = threading.Event()

    def take():
        got.append(store.take("m"))
        taken.set()

    threading.Thread(target=take, daemon=True).start()
    assert not taken.wait(0.2), "take() returned while the match-up was still being priced"
    store.release("m", {"none": "chains"})  # type: ignore[dict-item]
    assert taken.wait(WAIT)
    assert got == [{"none": "chains"}]


def _job(key: str, log: list[tuple[str, str]], gate: threading.Event, finish: threading.Event) -> Job:
    """A job that waits for ``gate``, then works (as if Lens by Lens) until told to stop or to ``finish``."""

    def work(stop):
        log.append(("ran", key))
        gate.wait(WAIT)
        while not stop() and not finish.is_set():
            finish.wait(0.01)
        log.append(("stopped" if stop() else "finished", key))

    return Job(key, work, drop=lambda: log.append(("dropped", key)))


def test_the_choice_taken_keeps_its_job_and_the_others_are_dropped_or_stopped():
    thinker = ThinkAhead()
    log: list[tuple[str, str]] = []
    gate, finish = threading.Event(), threading.Event()
    try:
        fight, talk, sneak = (_job(k, log, gate, finish) for k in ("fight", "talk", "sneak"))
        thinker.offer([fight, talk, sneak])
        thinker.narrow("talk")  # "fight" may be running already: it is told to stop; "sneak" never runs
        gate.set()
        assert sneak.done.wait(WAIT) and fight.done.wait(WAIT)
        finish.set()
        assert talk.done.wait(WAIT) and thinker.idle(WAIT)
    finally:
        thinker.close()
    assert ("dropped", "sneak") in log and ("ran", "sneak") not in log
    assert ("dropped", "fight") in log or ("stopped", "fight") in log
    assert ("finished", "talk") in log and not talk.cancelled.is_set()


def test_a_new_menu_drops_the_last_ones_jobs():
    thinker = ThinkAhead()
    log: list[tuple[str, str]] = []
    gate, finish = threading.Event(), threading.Event()
    try:
        a, b = _job("a", log, gate, finish), _job("b", log, gate, finish)
        thinker.offer([a, b])
        c = _job("c", log, gate, finish)
        thinker.offer([c])
        assert a.cancelled.is_set() and b.cancelled.is_set()
        gate.set()
        assert a.done.wait(WAIT)
        finish.set()
        assert c.done.wait(WAIT) and thinker.idle(WAIT)
    finally:
        thinker.close()
    assert ("dropped", "b") in log and ("ran", "b") not in log
    assert ("dropped", "a") in log or ("stopped", "a") in log
    assert ("finished", "c") in log


def test_a_job_that_fails_frees_its_match_up_and_keeps_the_error():
    store = SharedChains()
    view, pc = _duel()

    class Broken(Foresight):
        def exact(self, *args, **kwargs):
            raise RuntimeError("boom")

    job = first_menu("fight", view, pc, store, Broken)
    assert job is not None
    thinker = ThinkAhead(store)
    try:
        thinker.offer([job])
        assert job.done.wait(WAIT) and thinker.idle(WAIT)
    finally:
        thinker.close()
    assert isinstance(job.error, RuntimeError)
    match = Foresight().key_for(view, pc)
    assert match not in store and store.claim(match)


def test_a_stopped_walk_prices_nothing_and_keeps_nothing():
    """Every Lens is priced in one walk: a thinker told to stop part-way through it keeps no part of it (a part of
    the Lenses must not pass for the whole); the same Foresight asked again prices them all, as a fresh one does."""
    view, pc = _duel()
    asked = [0]

    def stop():
        asked[0] += 1
        return asked[0] > 2

    foresight = Foresight()
    partial = foresight.exact(view, pc, stop=stop)
    assert partial.odds == {} and partial.best is None and asked[0] == 3
    again = foresight.exact(view, pc)
    full = Foresight().exact(view, pc)
    assert again.odds == full.odds and again.best == full.best and len(full.odds) == 7


class _Recording(ThinkAhead):
    """A thinker that notes every menu's jobs, by answer."""

    def __init__(self):
        super().__init__()
        self.offered: list[list[str]] = []

    def offer(self, jobs):
        self.offered.append([job.key for job in jobs])
        super().offer(jobs)


class _Escalator(GreedyDecider):
    """Sneaks aboard, insists with the guard, and escalates a lost argument; waits for the thinker at each menu."""

    def __init__(self, thinker: ThinkAhead, walks: list[int]):
        super().__init__(random.Random(3))
        self.thinker, self.walks = thinker, walks
        self.at_escalation: int | None = None
        self.at_menu: int | None = None  # chains solved when the escalated conflict's first Lens menu came

    def decide(self, question):
        if question.kind == "lens" and self.at_escalation is not None and self.at_menu is None:
            self.at_menu = self.walks[0]
        if question.kind in ("choice", "escalate"):
            assert self.thinker.idle(WAIT)
        if question.kind == "escalate":
            self.at_escalation = self.walks[0]
            self.escalate_detail = question.options[0].detail
            return "yes"
        if question.kind == "choice":
            for word in ("Slip aboard", "Insist"):
                option = next((o for o in question.options if o.label.startswith(word)), None)
                if option is not None:
                    return option.key
        return super().decide(question)


def test_a_lost_roll_that_may_escalate_has_its_conflict_priced_while_the_player_decides(tutorial, walks):
    for seed in range(1, 60):
        thinker = _Recording()
        bot = _Escalator(thinker, walks)
        try:
            game = Game(tutorial, seed=seed, decider=bot, advise=True, sink=EventLog())
            game.think_ahead = thinker
            game.play()
        finally:
            thinker.close()
        if bot.at_escalation is not None:
            break
    else:
        pytest.fail("no seed led to an escalation")
    # the escalation's conflict is priced for the question itself, which shows its best Lens's chance
    # (issue 31, point 2), into the thinker's store: its first Lens menu walks nothing new
    assert " to win" in bot.escalate_detail, bot.escalate_detail
    assert bot.at_menu == bot.at_escalation, "the escalated conflict's first menu took its chains from the store"


def test_a_job_stopped_on_the_way_keeps_nothing_and_frees_its_match_up():
    store = SharedChains()
    view, pc = _duel()
    job = first_menu("fight", view, pc, store)
    assert job is not None and job.work is not None
    asked = [0]

    def stop():  # told to stop after the second Lens
        asked[0] += 1
        return asked[0] > 2

    job.work(stop)
    match = Foresight().key_for(view, pc)
    assert match not in store, "a part of the Lenses would pass for the whole"
    assert first_menu("fight", view, pc, store) is not None  # a later question prices it again


def test_a_new_question_that_wants_the_running_match_up_keeps_its_job_going():
    store = SharedChains()
    thinker = ThinkAhead(store)
    view, pc = _duel()
    started, go_on = threading.Event(), threading.Event()
    job = first_menu("fight", view, pc, store)
    assert job is not None and job.work is not None
    price = job.work

    def slow(stop):
        started.set()
        go_on.wait(WAIT)
        price(stop)

    job.work = slow
    try:
        thinker.offer([job])
        assert started.wait(WAIT)
        running = thinker.prepare()  # the next menu offers the same fight, under another answer
        again = first_menu("c2", *_duel(seed=2), store, running=running)
        assert again is not None and again.work is None and again.match == job.match
        thinker.offer([again])
        assert not job.cancelled.is_set() and job.key == "c2"
        thinker.narrow("c2")
        go_on.set()
        assert job.done.wait(WAIT) and thinker.idle(WAIT)
    finally:
        go_on.set()
        thinker.close()
    assert job.match in store  # priced whole, for the answer that now starts it


def test_jobs_offered_after_close_are_dropped_so_nobody_waits_for_them():
    store = SharedChains()
    thinker = ThinkAhead(store)
    thinker.close()
    view, pc = _duel()
    job = first_menu("fight", view, pc, store)
    assert job is not None
    thinker.offer([job])
    assert job.done.is_set() and job.cancelled.is_set()
    assert store.claim(job.match)  # its claim was released


class _OpenFighter(GreedyDecider):
    """Open play: starts a fight against someone new, takes its time over the stakes, then ends the story."""

    def __init__(self, thinker: ThinkAhead, walks: list[int]):
        super().__init__(random.Random(4))
        self.thinker, self.walks = thinker, walks
        self.actions = ["conflict", "end"]
        self.at_terms: int | None = None
        self.at_menu: int | None = None

    def decide(self, question):
        kind = question.kind
        if kind == "open_action":
            return self.actions.pop(0) if self.actions else "end"
        if kind == "end_story":  # a thread is still open: Enter would play on
            return "end"
        if kind == "conflict_type":
            return "combat"
        if kind == "opponent":
            return "new"
        if kind == "round_limit":  # the player read and chose: the thinker had the time
            assert self.thinker.idle(WAIT)
            self.at_terms = self.walks[0]
            return "scene"
        if kind == "lens" and self.at_terms is not None and self.at_menu is None:
            self.at_menu = self.walks[0]
        if kind == "stakes":
            return "the map"
        return super().decide(question)


def test_open_play_prices_a_fight_while_the_player_names_its_stakes_and_length(walks):
    from solo.rules.creation import pregenerated
    from solo.story.play.open_play import OpenGame

    thinker = _Recording()
    bot = _OpenFighter(thinker, walks)
    try:
        game = OpenGame(seed=6, decider=bot, sink=EventLog(), party=[pregenerated("espen")], advise=True)
        game.think_ahead = thinker
        game.play()
    finally:
        thinker.close()
    assert ["open"] in thinker.offered
    assert bot.at_menu is not None and bot.at_menu == bot.at_terms, "the first menu took the thinker's chains"
    assert bot.at_terms > 0, "the thinker priced the fight (at the longest limit, which covers the one chosen)"


def test_a_resumed_game_prices_only_the_question_it_goes_live_at(tutorial, tmp_path, monkeypatch):
    """Replaying a save answers every recorded question from the log: nobody reads those menus, so neither the
    Lens advice nor the thinker works on them; the question the game goes live at gets its odds."""
    from conftest import run_play, script_lines

    from solo.saves import read_save
    from solo.story.play.advice import LensAdvisor

    asked: list[str] = []
    advise = LensAdvisor.__call__

    def counting(self, view, p):
        asked.append(p.name)
        return advise(self, view, p)

    monkeypatch.setattr(LensAdvisor, "__call__", counting)
    run_play(tutorial, script_lines("tutorial_seed5.txt")[:12], tmp_path)
    assert len(asked) >= 2, "the script reaches a fight with several Lens menus"
    asked.clear()
    _, out, _ = run_play(tutorial, [], tmp_path, log=read_save(tmp_path / "game.json").log)
    assert "Resumed from" in out
    assert len(asked) <= 1  # at most the live question, never the replayed ones
