"""The explorer: a bot that plays like a curious person, so that ``solo simulate`` figures mean a player.

The other bots take a scene's options blindly; a person does not. This one
remembers, within a run, which options each scene offered and which it took,
and it reads the scene graph (:mod:`solo.sim.ending_choices`) the way a
player reads the words of a choice ("Catch the noon bus" plainly ends the
trip). In order, it takes:

1. an option it has not tried here that keeps the story open: one that leads
   to a place not yet seen first (an ending, or a scene bound for one, is no such place: a finale whose
   stalemate comes back is not taken before the leads for its endings), then
   one that does something here or leads where something is left to try (one
   that cannot end the game first among equals, then one unlocked by a
   condition: what you found is what you try);
2. an option it has tried that leads back towards a scene not yet seen, or one
   with options not yet tried, the nearest first (a failed lock is tried
   again, a hub is crossed to reach an untried lead) — for a bounded number of
   moves without anything new, so a lead it can never open does not hold it;
3. an untried option that moves on for good (the next day, the next chapter);
4. only then an option that ends the game: the one with the most story still
   ahead of it, an unlocked one before the rest; when every option ends the
   game at once, doing something (a roll, a fight) before walking away.

An option that leads straight back into the scene with nothing changed ("Tread
water and wait") ends nothing and is no progress: it is tried once, like any
untried option, and then never again while the scene offers anything else (a
roll whose failure stays is taken again instead, the least tried first).

In a conflict it takes the Lens the player is shown as best
(:class:`~solo.story.play.advice.LensAdvisor`'s exact odds, or the Lens marked
"likely best" where there are none), never flees or gives up while that Lens
can still win (nor while a loss is no likelier than not: the last round of a limit, sure to end undecided,
is stayed), spends Luck on every flip the engine offers (it offers only
flips that turn a roll or a round) and on a blow of 3 or more or one that would
take it out, escalates a lost opposed roll, and plays the rest of a conflict as
the greedy bot (:class:`~solo.minds.bots.GreedyDecider`: the weakest foe, the
+20 edge after Clever, pushing on only when that wins more often than not). Spent
as a conflict begins once it has stopped looking for anything new, it pushes on
whatever the odds: staying out had it circle a loop that only pushing on leaves
(a back alley whose padlock it kept walking away from, to the turn cap), where a
person would grit their teeth and go in.
Asked for a character, it takes the adventure's own, else a random one with
the standard Pools. Every tie is broken by its own generator, so a seed fixes
the run.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..decisions import Question
from ..minds.bots import GreedyDecider
from .ending_choices import StoryShape, story_shape
from .policies import ReadingBot

if TYPE_CHECKING:
    from ..rules.conflict_view import ConflictView
    from ..rules.participants import Participant
    from ..story.format.adventure import Adventure, Choice
    from ..story.play.advice import LensAdvisor
    from ..story.play.state import GameState

#: Moves in a row with nothing new (no untried option, no new scene) before the explorer stops looking for
#: more, per scene of the adventure: enough to cross any hub to an open lead, not enough to circle forever.
WANDER_PER_SCENE = 2


class ExplorerBot(ReadingBot):
    """A curious player: untried options first, no ending while the story is still open, the exact odds."""

    def __init__(self, rng: random.Random):
        super().__init__(rng)
        self.greedy = GreedyDecider(rng)
        self._shape: tuple[Adventure, StoryShape] | None = None
        self._advisor: tuple[ConflictView, LensAdvisor] | None = None
        self.offered: dict[str, set[str]] = {}  # scene -> option keys it offered last time (those that keep the
        # story open)
        self.tried: dict[str, set[str]] = {}  # scene -> option keys taken there
        self.ending_offers: dict[str, dict[str, tuple[int, bool]]] = {}  # scene -> its game-ending options' worth
        self.idle = 0  # moves since the last new thing
        # scene -> options seen to bring it back to a state it had already been in since it was entered, after
        # the one before had changed something ("Put the cloak back on" after "Hang up the cloak")
        self.undoing: dict[str, set[str]] = {}
        self._stay: tuple[str | None, list[tuple], str | None] = (None, [], None)  # the scene in play, the states
        # it has been in since it was entered (what the story can tell apart), the option taken from the last

    def decide(self, question: Question) -> str:
        """Its own answer where it has one (``on_KIND``), the greedy bot's in a conflict, else the default."""
        if question.free_text:
            return question.default or "Bot"
        handler = getattr(self, f"on_{question.kind}", None)
        answer = handler(question) if handler is not None else None
        if answer is None and "conflict" in question.context:
            answer = self.greedy.decide(question)
        if answer is None or answer not in question.keys():
            if question.default is not None and question.default in question.keys():
                return question.default
            return self.rng.choice(question.options).key
        return answer

    # -- scene choices ---------------------------------------------------------------
    def shape(self, adventure: Adventure) -> StoryShape:
        if self._shape is None or self._shape[0] is not adventure:
            self._shape = (adventure, story_shape(adventure))
        return self._shape[1]

    def on_choice(self, question: Question) -> str | None:
        game = question.context.get("game")
        sid = question.context.get("scene")
        if game is None or not isinstance(sid, str) or sid not in game.adventure.scenes:
            return None
        adventure = game.adventure
        shape = self.shape(adventure)
        choices = {c.key: c for c in adventure.scenes[sid].choices}
        keys = [k for k in question.keys() if k in choices]
        if not keys:
            return None
        ending = [k for k in keys if shape.ends_game(sid, k)]
        open_ = [k for k in keys if k not in ending]
        undone = self._came_back(game.state, shape, sid)
        new_scene = sid not in self.offered
        self.offered[sid] = set(open_)  # what it offers now: an option that has gone since is not looked for
        tried = self.tried.setdefault(sid, set())
        self.idle = 0 if new_scene else self.idle + 1
        staying = [k for k in open_ if not shape.leaves(sid, k)]
        moving = [k for k in open_ if shape.leaves(sid, k)]
        idle = shape.idle.get(sid, frozenset())  # straight back here with nothing changed: no way towards anything
        if undone:  # back to a state already been in: no way towards anything either
            idle = idle | undone
        going = [k for k in staying if k not in idle] if idle else staying
        wander = self.idle <= WANDER_PER_SCENE * len(adventure.scenes)

        def untried_first(options: list[str]) -> str:
            """A place not yet seen first; then something to do here, or a way to a place with something left
            to try; a way back to places done with last. An unlocked option first among equals."""
            def rank(key: str) -> tuple[int, bool, bool]:
                to = shape.targets[sid][key] - {sid}
                # an ending not yet seen is no place to explore: a finale fight whose stalemate leads back to the
                # hub read as the newest road of all, and was taken before the leads (a GM's run)
                found = [self._unexplored(t) for t in to - shape.bound]
                novelty = 2 if 0 in found else (1 if not to or 1 in found else 0)
                may_end = bool(to & shape.bound)  # among equals, what keeps the story open first
                return novelty, not may_end, choices[key].condition is not None

            top = max(rank(k) for k in options)
            return self.rng.choice([k for k in options if rank(k) == top])

        self.ending_offers[sid] = {k: self._ending_value(shape, sid, k, choices) for k in ending}
        pick = None
        if untried := [k for k in staying if k not in tried]:
            pick = untried_first(untried)
        elif wander and (towards := self._nearest(shape, sid, going, self._unexplored)):
            pick = towards
        elif untried := [k for k in moving if k not in tried]:
            pick = untried_first(untried)
        elif wander and (towards := self._nearest(shape, sid, moving, self._unexplored)):
            pick = towards
        elif wander and (towards := self._towards_better_ending(shape, sid, going)):
            pick = towards
        elif ending:
            pick = self._best_ending(shape, sid, ending, choices)
        else:  # the least taken, one that can change something (a roll to try again) before one that cannot
            again = [k for k in open_ if k not in idle] or open_
            pick = min(again, key=lambda k: game.state.chosen.get(f"{sid}/{choices[k].name or k}", 0))
        if pick not in tried:
            self.idle = 0
            tried.add(pick)
        self._stay = (sid, self._stay[1], pick)
        return pick

    def _came_back(self, state: GameState, shape: StoryShape, sid: str) -> frozenset[str]:
        """The options of ``sid`` known to undo what was done here: one that, taken in this scene, brought it
        back to a state it had already been in since it was entered, when the option before had changed
        something. An option that changed nothing at all is not one (a knock that counts, a roll that failed)."""
        here = _story_state(state, shape.read)
        scene, states, last = self._stay
        if scene != sid:
            self._stay = (sid, [here], None)
        else:
            if last is not None and states[-1] != here and here in states:
                self.undoing.setdefault(sid, set()).add(last)
            states.append(here)
        return frozenset(self.undoing.get(sid, ()))

    def _unexplored(self, sid: str) -> int | None:
        """0 for a scene not yet seen, 1 for one that offered an option (keeping the story open) not yet
        taken, None for one where nothing is left to try."""
        if sid not in self.offered:
            return 0
        return 1 if self.offered[sid] - self.tried.get(sid, set()) else None

    def _nearest(self, shape: StoryShape, here: str, options: list[str],
                 wanted: Callable[[str], int | None]) -> str | None:
        """The option whose roads reach a ``wanted`` scene in the fewest steps (ending-bound scenes aside)."""
        best: list[str] = []
        best_steps: tuple[int, int] | None = None
        for key in options:
            steps = self._steps_to(shape, here, shape.targets[here][key], wanted)
            if steps is None:
                continue
            if best_steps is None or steps < best_steps:
                best, best_steps = [key], steps
            elif steps == best_steps:
                best.append(key)
        return self.rng.choice(best) if best else None

    def _steps_to(self, shape: StoryShape, here: str, starts: frozenset[str],
                  wanted: Callable[[str], int | None]) -> tuple[int, int] | None:
        """Steps to the nearest scene ``wanted`` ranks (lower first at equal steps): (steps, rank), or None.

        The roads are those the explorer knows: out of a scene it has seen, the options that scene offered
        last time (not a locked door it has never seen open); ``here`` and ending-bound scenes are not crossed.
        """
        seen = {here}
        layer = sorted(s for s in starts if s not in shape.bound)
        steps = 1
        while layer:
            ranks = [r for r in (wanted(s) for s in layer if s not in seen) if r is not None]
            if ranks:
                return steps, min(ranks)
            seen.update(layer)
            layer = sorted({t for s in layer for t in self._roads(shape, s) if t not in seen and t not in shape.bound})
            steps += 1
        return None

    def _roads(self, shape: StoryShape, sid: str) -> frozenset[str]:
        if sid not in self.offered:
            return shape.successors.get(sid, frozenset())
        by_key = shape.targets.get(sid, {})
        return frozenset(t for k in self.offered[sid] for t in by_key.get(k, ()))

    @staticmethod
    def _ending_value(shape: StoryShape, sid: str, key: str, choices: dict[str, Choice]) -> tuple[int, bool]:
        """How much an option that ends the game is worth: the story still ahead of it, then being unlocked."""
        return shape.story_ahead(sid, key), choices[key].condition is not None

    def _best_ending(self, shape: StoryShape, sid: str, ending: list[str], choices: dict[str, Choice]) -> str:
        """Of options that all end the game: the best :meth:`_ending_value`; at the very last step (no story
        ahead of any), doing something (a roll, a fight) before walking off, and the sure way otherwise."""
        def rank(key: str) -> tuple:
            ahead, unlocked = self._ending_value(shape, sid, key, choices)
            acts = choices[key].action is not None
            return ahead, unlocked, acts if ahead == 0 else not acts

        top = max(rank(k) for k in ending)
        return self.rng.choice([k for k in ending if rank(k) == top])

    def _towards_better_ending(self, shape: StoryShape, sid: str, options: list[str]) -> str | None:
        """An option towards a scene seen to offer a better way to end than any here (brought up to date at
        every visit, so a way that has closed since is not chased twice)."""
        here = max(self.ending_offers.get(sid, {}).values(), default=None)

        def better(other: str) -> int | None:
            there = max(self.ending_offers.get(other, {}).values(), default=None)
            return 0 if other != sid and there is not None and (here is None or there > here) else None

        return self._nearest(shape, sid, options, better)

    # -- conflicts ---------------------------------------------------------------------
    def on_lens(self, question: Question) -> str | None:
        view, me = question.context.get("conflict"), question.context.get("participant")
        keys = question.keys()
        if view is None or me is None:
            return None
        lenses = [k for k in keys if k not in ("flee", "surrender")]
        if len(lenses) <= 1:
            return lenses[0] if lenses else None
        best, win, lose = self.advised(view, me)
        # the shown odds say no Lens can win from here and a loss is likelier than not: get out if it may. A round
        # limit's last round can rarely be won outright, and leaving it had the explorer walk out of 70 % of a new
        # GM's arguments that it was all but sure to end in a stalemate, the branch the author wrote for them
        if win == 0.0 and lose is not None and lose > 0.5:
            for exit_ in ("flee", "surrender"):
                if exit_ in keys:
                    return exit_
        return best if best in lenses else self.greedy.decide(question)

    def advised(self, view: ConflictView, me: Participant) -> tuple[str, float | None, float | None]:
        """The Lens the player's odds mark best, and its exact chances to win and to lose (None where it is an
        estimate).

        The same calls as :class:`~solo.story.play.advice.LensAdvisor` makes for the menu (one advisor per
        conflict, keeping its chains), without the estimate's copies of the conflict: the Lens it would
        estimate is the one :func:`~solo.story.play.advice.likely_best` names.
        """
        from ..minds.foresight import Exact
        from ..story.play.advice import LensAdvisor, likely_best

        if self._advisor is None or self._advisor[0] is not view:
            self._advisor = (view, LensAdvisor(shared=_kept_chains()))
        advisor = self._advisor[1]
        try:
            exact = advisor.foresight.exact(view, me)
        except ValueError:
            exact = Exact({}, None, "beyond the exact odds")
        if exact.odds and exact.best is not None:
            odds = exact.odds[exact.best]
            return exact.best, odds.a_wins, odds.b_wins
        return likely_best(view, me), None, None

    def on_clever_follow_up(self, question: Question) -> str | None:
        keys = question.keys()
        return "skill" if "skill" in keys else None  # the edge the exact odds count on; never an exit

    def on_push(self, question: Question) -> str | None:
        """Spent as a conflict begins (the question has the game) once nothing new is left to look for: push on.
        Otherwise, and inside a conflict, as the greedy bot (only when that wins more often than not)."""
        game = question.context.get("game")
        # the one asked as a conflict begins carries it and the conflict: a scene's damage asks with the game alone
        # (and pushing on there only spends the Pool further: the review)
        if game is None or "conflict" not in question.context or "push" not in question.keys():
            return None
        return "push" if self.idle > WANDER_PER_SCENE * len(game.adventure.scenes) else None

    # -- the rest ---------------------------------------------------------------------
    def on_luck_flip(self, question: Question) -> str:
        return "yes"  # the engine offers a flip only when it turns the roll or the round

    def on_escalate(self, question: Question) -> str:
        return "yes"  # a lost opposed roll becomes a conflict it may still win: more of the story

    def on_willpower_acted(self, question: Question) -> str:
        return "yes"

    def on_luck_reduce(self, question: Question) -> str:
        """Luck on a blow of 3 or more, or one that would take it out (as an NPC's mind weighs it)."""
        amount = question.context.get("damage", 0)
        me = question.context.get("participant")
        big = amount >= 3 or (me is not None and amount >= me.pool.current)
        return "yes" if big else "no"

    def on_pc_source(self, question: Question) -> str | None:
        """The adventure's own character if it is free (written for the story), else one made at random."""
        keys = question.keys()
        return "pregen" if "pregen" in keys else ("random" if "random" in keys else None)

    def on_method(self, question: Question) -> str | None:
        return "random" if "random" in question.keys() else None  # a quick, complete character

    def on_pools(self, question: Question) -> str | None:
        return "assign" if "assign" in question.keys() else None  # the standard values: no bad luck to start

    def on_improve(self, question: Question) -> str | None:
        skills = [k for k in question.keys() if k.startswith("improve:")]
        return self.rng.choice(skills) if skills else None


def _story_state(state: GameState, read: tuple[str, ...] | None) -> tuple:
    """What the story can tell apart in ``state``: the flags and counters its conditions read, the items, the
    once-only choices taken, the NPCs' standing, who is still in play and their Pools and Luck. Not how often a
    scene was entered or a choice taken (the world is the same after hanging the cloak up twice)."""
    flags, counters = state.flags, state.counters
    if read is None:
        names: tuple = (tuple(sorted(flags.items())), tuple(sorted(counters.items())))
    else:
        names = tuple(counters[n] if n in counters else flags.get(n, False) for n in read)
    pcs = tuple((pc.luck, *(p.current for p in pc.pools.values())) for pc in state.party)
    return (names, tuple(state.items), tuple(state.taken), tuple(sorted(state.npc_status.items())),
            tuple(sorted(state.removed)), pcs)


_KEPT: list = []


def _kept_chains():
    """One store of solved Lens chains for every explorer in this process, by match-up: the same fight played
    again (prove fights each conflict 200 times, simulate meets the same NPC run after run) finds its chains
    solved instead of solving them again. The chains are the same function of the match-up either way."""
    if not _KEPT:
        from ..minds.foresight import SharedChains

        _KEPT.append(SharedChains())
    return _KEPT[0]
