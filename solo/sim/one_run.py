"""One simulated game: a bot answers for the party, and every failure is kept with its seed and answers."""

from __future__ import annotations

import hashlib
import os
import random
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..decisions import Decider, Question
from ..events import Event
from .options import DEFAULT_MAX_TURNS

if TYPE_CHECKING:
    from ..rules.character import Character
    from ..story.format.adventure import Adventure

QUESTIONS_PER_TURN = 200  # a turn may hold a whole conflict: a generous ceiling on questions


class TurnLimit(Exception):
    """A run that went on past the turn cap: probably a loop the bots cannot leave."""


def run_seed(base: int, index: int) -> int:
    """The seed of run ``index``: a hash of both, the same in every process and on every machine."""
    digest = hashlib.blake2b(f"{base}:{index}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


class _Player:
    """The bot, plus the log of its answers and the turn cap."""

    def __init__(self, bot: Decider, max_turns: int):
        self.bot = bot
        self.max_turns = max_turns
        self.max_questions = max_turns * QUESTIONS_PER_TURN
        self.turns = 0
        self.log: list[tuple[Question, str]] = []  # each question and its key; RunResult.answers writes them out

    def decide(self, question: Question) -> str:
        if question.kind == "choice":
            if self.turns >= self.max_turns:  # (its turns are those it took: "1001 at most" beside "after 1000")
                raise TurnLimit(f"still playing after {self.max_turns} turns (in scene "
                                f"{question.context.get('scene')!r}): a loop the bots never leave?")
            self.turns += 1
        if len(self.log) >= self.max_questions:
            raise TurnLimit(f"more than {self.max_questions} questions in one run")
        answer = self.bot.decide(question)
        self.log.append((question, answer))
        return answer


@dataclass
class RunResult:
    seed: int
    ending: str | None
    turns: int
    asked: list[tuple[Question, str]]  # each question and the key answered
    error: BaseException | None = None
    where: str = ""
    flags: tuple[str, ...] = ()  # flags set at the end
    counters: tuple[tuple[str, int], ...] = ()  # counters at the end
    items: tuple[str, ...] = ()  # items held at the end
    stopped_in: str | None = None  # a run that reached a dead end (no way on): the scene it stood in

    @property
    def answers(self) -> list[tuple[str, str]]:
        """(question kind, the answer as typed at its menu: the number it shows), a script a person reads.

        Written out only when asked for (a failing run's example, a test): working out each menu's
        number was a tenth of a simple adventure's run when every run did it.
        """
        return [(question.kind, question.menu_answer(key)) for question, key in self.asked]


def play_one(adventure: Adventure, party: list[Character], seed: int, policy: str, *,
             sink: Callable[[Event], None] | None = None, max_turns: int = DEFAULT_MAX_TURNS) -> RunResult:
    """Play one game with seed ``seed``; errors are caught and returned with the answers so far."""
    from ..story.play.engine import DEAD_END, Game
    from .policies import make_policy

    player = _Player(make_policy(policy, random.Random(seed ^ 0x5EED5EED)), max_turns)
    try:
        game = Game(adventure, seed=seed, decider=player, sink=sink, party=party)
        if sink is not None and hasattr(sink, "begin"):
            sink.begin(game)
        ending = game.play()
        st = game.state
        return RunResult(seed, ending, player.turns, player.log,
                         flags=tuple(k for k, v in st.flags.items() if v),
                         counters=tuple(st.counters.items()), items=tuple(st.items),
                         stopped_in=st.scene if ending == DEAD_END else None)
    except Exception as exc:  # noqa: BLE001 - every failure becomes a report entry with its seed
        return RunResult(seed, None, player.turns, player.log, exc, _where(exc))


def _where(exc: BaseException) -> str:
    """The innermost line of solo's own code (outside the simulator) that the error passed through; none for a run
    stopped at the turn cap, which is the adventure's loop, not a place in solo's code (the engine's line there read
    as a bug of solo's: new-user run)."""
    if isinstance(exc, TurnLimit):
        return ""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if f"{os.sep}solo{os.sep}" in f.filename and f"{os.sep}sim{os.sep}" not in f.filename]
    if not (ours or frames):
        return ""
    frame = (ours or frames)[-1]
    return f"{_short(frame.filename)}:{frame.lineno} in {frame.name}"


def _short(filename: str) -> str:
    marker = f"{os.sep}solo{os.sep}"
    i = filename.rfind(marker)
    return "solo/" + filename[i + len(marker):].replace(os.sep, "/") if i >= 0 else filename
