"""Skill rolls and opposed rolls (docs/rules.md §3 and §4).

A check is split in two: :func:`roll_check` draws the die, :func:`judge` reads a
number against a target. Keeping judgement pure lets a Luck flip re-read the
same roll, and lets the odds engine enumerate all 100 faces exactly.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, replace
from typing import Any

from .dice import d100, flip, is_exceptional

__all__ = [
    "DIFFICULTIES",
    "QUALITY_WORDS",
    "Modifier",
    "CheckResult",
    "OpposedResult",
    "difficulty_modifier",
    "judge",
    "roll_check",
    "flip_check",
    "flip_that_helps",
    "resolve_opposed",
    "roll_opposed",
    "success_chance",
    "luck_left",
]

#: The Comae difficulty ladder; ``None`` means automatic success without a roll.
DIFFICULTIES: dict[str, int | None] = {
    "routine": None,
    "easy": 20,
    "normal": 0,
    "hard": -20,
    "very hard": -40,
}

#: Seed 002's quality words, which authors may use as modifiers.
QUALITY_WORDS: dict[str, int] = {
    "terrible": -50,
    "awful": -40,
    "bad": -30,
    "weak": -20,
    "poor": -10,
    "fair": 10,
    "fine": 20,
    "good": 30,
    "superior": 40,
    "incredible": 50,
}


def _norm(word: str) -> str:
    return " ".join(word.replace("_", " ").replace("-", " ").lower().split())


def difficulty_modifier(word: str) -> int | None:
    """The modifier a difficulty or quality word stands for.

    Comae words win over quality words ("normal" is 0 in both). ``None`` is
    Routine. Raises ``KeyError`` with the known words for anything else.
    """
    key = _norm(word)
    if key in DIFFICULTIES:
        return DIFFICULTIES[key]
    if key in QUALITY_WORDS:
        return QUALITY_WORDS[key]
    from ..errors import did_you_mean  # only for a word that is no difficulty

    known = ", ".join([w.title() for w in DIFFICULTIES] + [w.title() for w in QUALITY_WORDS])
    raise KeyError(f"unknown difficulty {word!r}{did_you_mean(key, [*DIFFICULTIES, *QUALITY_WORDS])} "
                   f"(known: {known})")


@dataclass(frozen=True)
class Modifier:
    """A named bonus or penalty, kept by name so the player can see why a target moved."""

    name: str
    value: int

    def __str__(self) -> str:
        return f"{self.name} {self.value:+d}"


@dataclass(slots=True)
class CheckResult:
    """A d100 read against a target.

    ``roll`` is ``None`` for an automatic (Routine) success. ``flipped`` records
    that Luck swapped the digits; ``original`` keeps the roll as it fell.

    Treat it as immutable: it is not frozen only because auto-play makes
    millions of them and frozen instances are slower to build.
    """

    target: int
    roll: int | None
    success: bool
    exceptional: bool
    automatic: bool = False
    flipped: bool = False
    original: int | None = None

    @property
    def exceptional_success(self) -> bool:
        return self.success and self.exceptional

    @property
    def exceptional_failure(self) -> bool:
        return not self.success and self.exceptional

    @property
    def can_flip(self) -> bool:
        """A flip is worth offering only when it would turn a failure into a success."""
        if self.automatic or self.flipped or self.success or self.roll is None:
            return False
        return judge(flip(self.roll), self.target).success

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "roll": self.roll,
            "success": self.success,
            "exceptional": self.exceptional,
            "automatic": self.automatic,
            "flipped": self.flipped,
        }


def judge(roll: int, target: int) -> CheckResult:
    """Read a d100 result against an effective skill (docs/rules.md §3).

    The target is not capped: above 99 the only failure is 100; at or below 0
    every roll fails. 100 always fails, and exceptionally.
    """
    if not 1 <= roll <= 100:
        raise ValueError(f"a d100 result is 1..100, not {roll}")
    success = roll != 100 and roll <= target
    return CheckResult(target=target, roll=roll, success=success, exceptional=is_exceptional(roll))


def roll_check(rng: random.Random, target: int, *, routine: bool = False) -> CheckResult:
    """Roll d100 against ``target``; a Routine task succeeds without a roll."""
    if routine:
        return CheckResult(target=target, roll=None, success=True, exceptional=False, automatic=True)
    return judge(d100(rng), target)


def flip_check(result: CheckResult) -> CheckResult:
    """The same roll with its digits swapped by a Luck Point; the flipped number stands."""
    if result.automatic or result.roll is None:
        raise ValueError("an automatic success has no dice to flip")
    if result.flipped:
        raise ValueError("this roll was already flipped")
    flipped = judge(flip(result.roll), result.target)
    return replace(flipped, flipped=True, original=result.roll)


def flip_that_helps(result: CheckResult, *, best_other: int = 0, best_ally: int = 0,
                    tie_loses: bool = False) -> CheckResult | None:
    """The flipped check, if spending Luck on it would change who wins; otherwise None.

    ``best_other`` is the best opposing success (0: none), ``best_ally`` the
    best success on one's own side besides this roll. A flip is worth it when it
    wins, or when it turns a loss into a tie where ties are stalemates
    (conflict rounds) rather than the defender's (``tie_loses``, opposed rolls).
    A plain skill roll is the case with no opposition: a failure the flip turns
    into a success.
    """
    if result.automatic or result.flipped or result.roll is None:
        return None
    mine = result.roll if result.success else 0
    ours = max(mine, best_ally)
    if ours > best_other:
        return None  # already winning
    roll = flip(result.roll)
    flipped = judge(roll, result.target)
    if not flipped.success:
        return None
    if roll > best_other or (roll == best_other and not tie_loses and ours < best_other):
        return replace(flipped, flipped=True, original=result.roll)
    return None


def luck_left(luck: int) -> str:
    """What spending one Luck Point (say, on a flip) leaves, in words: "1 Luck", "no Luck", "-1 Luck"."""
    left = luck - 1
    return "no Luck" if left == 0 else f"{left} Luck"


def success_chance(target: int) -> float:
    """Exact chance that a d100 roll succeeds against ``target`` (enumerating all faces)."""
    return sum(1 for face in range(1, 101) if judge(face, target).success) / 100


@dataclass(frozen=True)
class OpposedResult:
    """Two checks read against each other (docs/rules.md §4).

    ``winner`` is ``"a"``, ``"b"`` or ``None`` when both failed. A tie between
    equal successes goes to the defender. Only a side that lost may escalate.
    """

    a: CheckResult
    b: CheckResult
    defender: str
    winner: str | None
    tie: bool

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        return "b" if self.winner == "a" else "a"

    @property
    def loser_may_escalate(self) -> bool:
        return self.winner is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "defender": self.defender,
            "winner": self.winner,
            "tie": self.tie,
            "loser_may_escalate": self.loser_may_escalate,
        }


def _score(result: CheckResult) -> int:
    """Higher is better among successes; an automatic success counts as the best roll."""
    if not result.success:
        return -1
    return 101 if result.roll is None else result.roll


def resolve_opposed(a: CheckResult, b: CheckResult, *, defender: str = "b") -> OpposedResult:
    """Decide an opposed roll from two checks (after any flips)."""
    if defender not in ("a", "b"):
        raise ValueError("defender must be 'a' or 'b'")
    sa, sb = _score(a), _score(b)
    if sa < 0 and sb < 0:
        return OpposedResult(a, b, defender, None, False)
    if sa == sb:
        return OpposedResult(a, b, defender, defender, True)
    return OpposedResult(a, b, defender, "a" if sa > sb else "b", False)


def opposed_flip_beats(result: OpposedResult) -> int | None:
    """Whether a flip may be worth asking for on an opposed roll (the side ``a``), and what it must beat: where the
    roll lost, or both failed, the opposing success to beat (ties lost; 0 when they failed), else None (the roll
    won: no flip). The one gate the engine's opposed roll, ``solo prove``'s faces and ``solo roll --against`` go
    through."""
    if result.winner == "b" or (result.winner is None and not result.a.success):
        return (result.b.roll or 101) if result.b.success else 0
    return None


@functools.lru_cache(maxsize=256)
def opposed_odds(target_a: int, target_b: int, *, defender: str = "b") -> tuple[int, int, int]:
    """How many of the 10,000 pairs of faces side a wins, side b wins and nobody wins: exact odds of an opposed
    roll before any Luck (out of 10,000).

    Counted through the rule itself (:func:`resolve_opposed`), 8 ms a pair of targets, so kept: a table that
    rolls the same two skills again (or a test that rolls them sixty times) counts them once."""
    ours, theirs = [judge(f, target_a) for f in range(1, 101)], [judge(f, target_b) for f in range(1, 101)]
    counts = {"a": 0, "b": 0, None: 0}
    for a in ours:
        for b in theirs:
            counts[resolve_opposed(a, b, defender=defender).winner] += 1
    return counts["a"], counts["b"], counts[None]


def roll_opposed(
    rng: random.Random, target_a: int, target_b: int, *, defender: str = "b"
) -> OpposedResult:
    """Both sides roll; the side that did not start the action is the defender."""
    return resolve_opposed(roll_check(rng, target_a), roll_check(rng, target_b), defender=defender)
