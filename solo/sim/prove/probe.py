"""The engine, one choice at a time: a game copied at a choice, told how its action turns out, played on.

:class:`ProbeGame` is the real :class:`~solo.story.play.engine.Game`; only the
resolution of the chosen choice's action is decided by the search (a
:class:`~solo.story.play.chances.Plan`) instead of the dice. Effects, branches,
routes, ``once``, visits, endings and whatever the format adds later all run
as the engine runs them. A step ends when the game asks its next choice (the
question is put before anything of that turn changes) or when it ends.
"""

from __future__ import annotations

import marshal
import zlib
from typing import TYPE_CHECKING

from ...decisions import Question
from ...rules.dice import new_rng
from ...story.play.engine import Game, plain_answer
from ...story.play.state import GameState

if TYPE_CHECKING:
    from ...rules.character import Character
    from ...story.format.adventure import Action, Adventure, Branch
    from ...story.play.chances import Plan

#: The dice a probe game keeps for what the search does not branch on (a scene's damage dice, tables).
PROBE_SEED = 14


class Stop(Exception):
    """The game asks its next choice: the step is over."""


class StepDecider:
    """Answers the one choice of a step, stops at the next; anything else the way the exact odds assume.

    No Luck is spent and nobody pushes on; the epilogue keeps its improvement rolls.
    """

    def __init__(self, key: str | None):
        self.key = key

    def decide(self, question: Question) -> str:
        if question.kind == "choice":
            if self.key is None:
                raise Stop
            key, self.key = self.key, None
            return key
        return plain_answer(question)


class ProbeGame(Game):
    """A game whose next action resolves as the search says (its :attr:`plan`), not as the dice fall."""

    plan: Plan | None = None

    def resolve(self, action: Action) -> Branch | None:
        plan, self.plan = self.plan, None
        if plan is None:
            return super().resolve(action)
        return plan.apply(self, action)

    def roller_first(self, action: Action, best: bool = False) -> Action:
        """The roller the plan names made the active PC before the choice is paid for, as the engine makes the
        one it asked (the plan's chances were priced on a game paid so: :func:`~.search.paid`); with no plan, or
        once paying has taken the plan's roller out (the engine then asks again), the best at it, as best play picks."""
        plan = self.plan
        s = self.state
        if plan is not None and plan.roller is not None and plan.roller not in s.removed:
            s.active = next(i for i, pc in enumerate(s.party) if pc.name == plan.roller)
            return action
        return super().roller_first(action, best=True)


def start(adventure: Adventure, party: list[Character] | None) -> ProbeGame:
    """A game at its first choice (or already over, if the story ends before one)."""
    game = ProbeGame(adventure, seed=PROBE_SEED, decider=StepDecider(None), party=party)
    try:
        game.play()
    except Stop:
        pass
    return game


def fork(game: ProbeGame, key: str | None = None) -> ProbeGame:
    """A copy of ``game`` to play on without touching it: its own state, the probe's fixed dice, and a decider that
    takes choice ``key`` (None: none) and stops at the next."""
    return game.clone(game.state.copy(), decider=StepDecider(key), rng=new_rng(PROBE_SEED))


def step(game: ProbeGame, key: str, plan: Plan | None) -> ProbeGame:
    """A copy of ``game`` that takes choice ``key`` (its action turning out as ``plan`` says), up to the next choice."""
    g = fork(game, key)
    g.plan = plan
    try:
        g.play()
    except Stop:
        pass
    return g


def raw_state(game: Game) -> bytes:
    """The game's state as bytes: the save format's snapshot (plain data: dicts, lists, strings, numbers), with
    the one thing a snapshot leaves to the replay, how the scene in play has gone.

    Written with :mod:`marshal`, quicker both ways than JSON (a search of Vellan writes 6,000 and reads 3,000
    back): the bytes never leave this process, and hold only the plain values ``to_dict`` made here, which
    marshal gives back type for type as JSON would (tests/test_prove_fast_paths.py holds it), nothing that runs
    when read back. Version 2, without marshal's back-references (which hang on what Python happened to share
    in memory), so that two states alike are bytes alike and compress against each other as well as JSON does.
    """
    state = game.state
    return marshal.dumps([state.to_dict(), state.went], MARSHAL_VERSION)


#: marshal's format 2: plain values written out in full, no back-references (see :func:`raw_state`).
MARSHAL_VERSION = 2


def state_of(raw: bytes) -> GameState:
    """The state :func:`raw_state` wrote, read back as a save's is (checked field by field)."""
    snapshot, went = marshal.loads(raw)
    state = GameState.from_dict(snapshot)
    state.went = int(went)
    return state


#: zlib's level for a packed state: marshal's bytes at 6 are smaller than JSON's were at 1 (about 360 bytes
#: against 470 for a state of Vellan), and packing them so still costs less than writing JSON did.
PACK_LEVEL = 6


class Packer:
    """A waiting state stored compactly: its snapshot (:func:`raw_state`), compressed against the first
    state's (most of a game is the characters and NPCs as they began), a few hundred bytes instead of a game
    (about 10 KB). :meth:`unpack` gives back a game that plays on exactly as the one packed would have."""

    def __init__(self, template: ProbeGame):
        self.template = template
        self.base = raw_state(template)
        #: A compressor that has taken in :attr:`base` as its dictionary: each state is packed by a copy of it,
        #: which writes the same bytes as a new one given the dictionary again, without indexing it afresh.
        self.primed = zlib.compressobj(PACK_LEVEL, zdict=self.base)

    def pack(self, game: ProbeGame) -> tuple[str, bytes]:
        squeeze = self.primed.copy()
        return game.flow_state, squeeze.compress(raw_state(game)) + squeeze.flush()

    def unpack(self, packed: tuple[str, bytes]) -> ProbeGame:
        flow, data = packed
        stretch = zlib.decompressobj(zdict=self.base)
        template = self.template
        return template.clone(state_of(stretch.decompress(data) + stretch.flush()), decider=template.decider,
                              flow_state=flow)
