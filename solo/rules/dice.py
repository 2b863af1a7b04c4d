"""Dice for the Comae Engine.

Every draw goes through a ``random.Random`` that the caller owns, so a game is
reproducible from its seed and its generator state can be saved as JSON.
Nothing here keeps global state or performs I/O.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

__all__ = [
    "DiceError",
    "DiceExpr",
    "DiceRoll",
    "new_rng",
    "rng_state",
    "rng_from_state",
    "words_between",
    "spend_words",
    "d",
    "d100",
    "is_exceptional",
    "flip",
    "two_digits",
    "target_text",
    "roll_against",
    "parse",
]


class DiceError(ValueError):
    """A dice expression that cannot be read."""


def new_rng(seed: int | None = None) -> random.Random:
    """The one generator a game owns; ``None`` picks a fresh seed."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    return random.Random(seed)


def rng_state(rng: random.Random) -> list[Any]:
    """The generator's state as plain JSON-able lists."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_state(state: Any) -> random.Random:
    """Rebuild a generator from :func:`rng_state` output; raises ValueError if malformed."""
    try:
        version, internal, gauss = state
        rng = random.Random()
        rng.setstate((int(version), tuple(int(x) for x in internal), gauss))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not a generator state: {exc}") from None
    return rng


_MT_WORDS = 624  # a Mersenne Twister state: 624 words, its index moving one word per 32 bits drawn
MAX_SPENT_WORDS = 5_000_000  # far past what any stretch between two decisions draws (a few hundred)


def words_between(before: Any, after: Any, *, limit: int = MAX_SPENT_WORDS) -> int | None:
    """How many 32-bit words a generator drew to go from state ``before`` to state ``after`` (both from
    ``getstate()``); None if ``after`` is not reached within ``limit`` words. Every draw of
    ``random.Random`` (``random()``, ``randint``, ``choice`` …) takes whole words, so a state reached by
    drawing is always a whole number of words on."""
    probe = random.Random()
    probe.setstate(before)
    spent = (after[1][-1] - before[1][-1]) % _MT_WORDS  # the index moves one a word, round a 624-word cycle
    spend_words(probe, spent)
    while spent <= limit:
        if probe.getstate() == after:
            return spent
        spend_words(probe, _MT_WORDS)
        spent += _MT_WORDS
    return None


def spend_words(rng: random.Random, words: int) -> None:
    """Draw ``words`` 32-bit words from ``rng`` and throw them away: the dice those words were are spent."""
    while words > 0:  # in chunks: one draw of a million words would build a 4 MB number
        chunk = min(words, 64 * _MT_WORDS)
        rng.getrandbits(32 * chunk)
        words -= chunk


def d(rng: random.Random, sides: int) -> int:
    """One die of ``sides`` faces, 1..sides."""
    return rng.randint(1, sides)


#: ``Random._randbelow(100)`` draws ``getrandbits(7)`` until it is below 100 (CPython 3.11 to 3.13): the
#: conflict engine's fused loop (``Conflict._run_plain``) writes its d100s out that way, for a plain
#: ``random.Random`` only; tests/test_conflict_plain.py holds its draws to the phase table's, which
#: roll through :func:`draw_below`.
D100_BITS = (100).bit_length()


def draw_below(rng: random.Random) -> Callable[[int], int]:
    """0..n-1, such that ``draw_below(rng)(n) + 1`` is one die of ``n`` sides drawing exactly what
    ``rng.randint(1, n)`` draws: for hot loops, one call a die where ``randint`` makes four.

    For a plain ``random.Random`` it is the generator's own ``_randbelow``: CPython's
    ``randint(1, n)`` is ``1 + _randbelow(n)`` after two layers of argument checks, so the
    stream of numbers is the same (tests/test_conflict_plain.py holds the two equal, seed by
    seed). Any other generator (a subclass that records or replays its draws) gets its own ``randint``.
    """
    if type(rng) is random.Random:
        return rng._randbelow  # type: ignore[attr-defined]
    randint = rng.randint
    return lambda n: randint(1, n) - 1


def d100(rng: random.Random) -> int:
    """A percentile roll, 1..100, where 100 is the face "00"."""
    return rng.randint(1, 100)


def is_exceptional(result: int) -> bool:
    """Doubles (11, 22 … 99) and 100 ("00") are exceptional."""
    if result == 100:
        return True
    return 1 <= result <= 99 and result % 11 == 0


def two_digits(result: int) -> str:
    """How a d100 result is read off the dice: 7 -> "07", 100 -> "00"."""
    return "00" if result == 100 else f"{result:02d}"


def target_text(target: int) -> str:
    """A d100 target as the rules read it (docs/rules.md §3: an effective skill of 0 or less always fails): the
    number from 1 up, and "0 (cannot succeed)" below that, never a negative number a player would try to roll
    under. Every place that shows a roll's target (the round table, roll lines, the journal) says it this way."""
    return str(target) if target >= 1 else "0 (cannot succeed)"


def roll_against(roll: int, target: int, parts: str = "") -> str:
    """A roll and its target as a player reads them: "37 against 50 = Social 30 · //Influence +20"; a target
    below 1 keeps its sum beside what it means: "22 against 0 (cannot succeed: Social 30 · Aggressive -20 = -10)".
    ``parts``: the target taken apart (its skill and modifiers), if the line shows them."""
    if target >= 1:
        return f"{two_digits(roll)} against {target}" + (f" = {parts}" if parts else "")
    if parts:
        return f"{two_digits(roll)} against 0 (cannot succeed: {parts} = {target})"
    return f"{two_digits(roll)} against {target_text(target)}"


def flip(result: int) -> int:
    """Swap the tens and units digits: 73 -> 37, 40 -> 4, 5 -> 50, 100 stays 100."""
    if result == 100:
        return 100
    tens, units = divmod(result, 10)
    flipped = units * 10 + tens
    return 100 if flipped == 0 else flipped


@dataclass(frozen=True)
class DiceTerm:
    count: int
    sides: int  # 0 for a plain number
    sign: int

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}" if self.sides else str(self.count)


@dataclass(frozen=True)
class DiceRoll:
    """The outcome of rolling an expression: every die as it fell, and the total.

    ``signs`` says for each die whether it was added (1) or taken away (-1): ``2d6-1d4`` rolled 5, 3 and 3 totals
    5, and its breakdown read "5 + 3 + 3" until the sign of the last was kept (empty: every die added)."""

    expression: str
    dice: tuple[int, ...]
    modifier: int
    total: int
    signs: tuple[int, ...] = ()

    def signed(self) -> list[int]:
        """Each die as it counts towards the total: the faces of dice taken away negated."""
        return [face * sign for face, sign in zip(self.dice, self.signs)] if self.signs else list(self.dice)

    def breakdown(self) -> str:
        """The dice and the modifier as they add up to the total: "5 + 3 - 3", "5 - 2"."""
        parts = self.signed() + ([self.modifier] if self.modifier else [])
        out = ""
        for i, n in enumerate(parts):
            out += (str(n) if i == 0 else f" {'-' if n < 0 else '+'} {abs(n)}")
        return out

    def line(self) -> str:
        """The roll as ``solo roll`` and the ``roll`` command in play print it: "3d6+2: 16  (5 + 3 + 6 + 2)",
        "2d6-1d4: 5  (5 + 3 - 3)", a lone die by its total alone ("1d100: 80")."""
        if len(self.dice) == 1 and not self.modifier and self.total >= 0:
            return f"{self.expression}: {self.total}"
        if len(self.dice) > SHOWN_DICE:  # "1000d1000" printed a thousand numbers (a GM-less table's run)
            return f"{self.expression}: {self.total}  ({len(self.dice)} dice, too many to list one by one)"
        return f"{self.expression}: {self.total}  ({self.breakdown()})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "expression": self.expression,
            "dice": list(self.dice),
            "signed": self.signed(),
            "modifier": self.modifier,
            "total": self.total,
        }


#: The most dice a roll's line lists one by one (``--json`` lists them all).
SHOWN_DICE = 40
_TERM = re.compile(r"([+-]?)\s*(?:(\d*)\s*[dD]\s*(\d+|%)|(\d+))")
#: Bounds on an expression, so no text (an adventure's damage, a command-line roll) can ask for work or
#: numbers without end: its length, its terms, the dice in all, their sides, a plain number, the total.
_MAX_LENGTH = 100
_MAX_TERMS = 20
_MAX_DICE = 1000
_MAX_SIDES = 10_000
_MAX_NUMBER = 1_000_000
_MAX_TOTAL = 10_000_000


@dataclass(frozen=True)
class DiceExpr:
    """A parsed ``NdM±K`` expression (terms may repeat: ``2d6+1d4-1``)."""

    terms: tuple[DiceTerm, ...]

    def __str__(self) -> str:
        # made once per expression (frozen, so it cannot change): the minds and the odds engine key their
        # tables by it, some thousands of times a conflict
        out = self.__dict__.get("_text")
        if out is None:
            out = ""
            for i, term in enumerate(self.terms):
                if i == 0:
                    out += ("-" if term.sign < 0 else "") + str(term)
                else:
                    out += ("-" if term.sign < 0 else "+") + str(term)
            object.__setattr__(self, "_text", out)
        return out

    @property
    def is_d100(self) -> bool:
        return len(self.terms) == 1 and self.terms[0] == DiceTerm(1, 100, 1)

    @cached_property
    def _single(self) -> int:
        """The sides of a lone die with no modifier (``1d6``), else 0."""
        if len(self.terms) == 1 and self.terms[0].count == 1 and self.terms[0].sign == 1:
            return self.terms[0].sides
        return 0

    def total(self, rng: random.Random, below: Callable[[int], int] | None = None) -> int:
        """Just the total, without keeping the dice: the fast path for auto-play damage.

        ``below`` is :func:`draw_below` of ``rng`` when the caller keeps one (the same draws, cheaper).
        """
        if below is None:
            below = draw_below(rng)
        single = self._single
        if single:
            return below(single) + 1
        total = 0
        for term in self.terms:
            if term.sides:
                for _ in range(term.count):
                    total += term.sign * (below(term.sides) + 1)
            else:
                total += term.sign * term.count
        return total

    def distribution(self) -> dict[int, float]:
        """Exact probability of every total, for the odds engine."""
        dist = {0: 1.0}
        for term in self.terms:
            if term.sides:
                one = {term.sign * face: 1.0 / term.sides for face in range(1, term.sides + 1)}
                for _ in range(term.count):
                    dist = _convolve(dist, one)
            else:
                dist = {k + term.sign * term.count: p for k, p in dist.items()}
        return dist

    def roll(self, rng: random.Random) -> DiceRoll:
        dice: list[int] = []
        signs: list[int] = []
        total = 0
        modifier = 0
        for term in self.terms:
            if term.sides:
                for _ in range(term.count):
                    face = rng.randint(1, term.sides)
                    dice.append(face)
                    signs.append(term.sign)
                    total += term.sign * face
            else:
                modifier += term.sign * term.count
        return DiceRoll(str(self), tuple(dice), modifier, total + modifier, tuple(signs))


def _convolve(a: dict[int, float], b: dict[int, float]) -> dict[int, float]:
    out: dict[int, float] = {}
    for ka, pa in a.items():
        for kb, pb in b.items():
            out[ka + kb] = out.get(ka + kb, 0.0) + pa * pb
    return out


def parse(text: str) -> DiceExpr:
    """Read ``d100``, ``3d6+2``, ``1d8-1``, ``d%`` or a plain number.

    Raises :class:`DiceError` with a message fit to show a user. A text read before gives the same
    (immutable) expression again: a conflict's fighters are built with their damage read from text, once
    per conflict in a duel or a ``--simulate`` of thousands. A text that fails is read, and refused, anew.
    """
    return _parse_text(text) if type(text) is str else _parse(text)


@lru_cache(maxsize=1024)
def _parse_text(text: str) -> DiceExpr:
    return _parse(text)


def _parse(text: str) -> DiceExpr:
    source = str(text).strip()
    if not source:
        raise DiceError("empty dice expression")
    if len(source) > _MAX_LENGTH:
        raise DiceError(f"a dice expression has at most {_MAX_LENGTH} characters, not {len(source):,}")
    terms: list[DiceTerm] = []
    pos = 0
    while pos < len(source):
        match = _TERM.match(source, pos)
        if not match or match.end() == pos:
            raise DiceError(f"cannot read dice expression {text!r} (expected something like 3d6+2 or d100)")
        sign_text, count_text, sides_text, number_text = match.groups()
        if terms and not sign_text:
            raise DiceError(f"cannot read dice expression {text!r}: missing + or - before {match.group(0)!r}")
        sign = -1 if sign_text == "-" else 1
        if len(terms) == _MAX_TERMS:
            raise DiceError(f"a dice expression has at most {_MAX_TERMS} terms, in {text!r}")
        if number_text is not None:
            number = _bounded(number_text, _MAX_NUMBER)
            if number > _MAX_NUMBER:
                raise DiceError(f"numbers in dice are at most {_MAX_NUMBER:,}, in {text!r}")
            terms.append(DiceTerm(number, 0, sign))
        else:
            count = _bounded(count_text, _MAX_DICE) if count_text else 1
            sides = 100 if sides_text == "%" else _bounded(sides_text, _MAX_SIDES)
            if count < 1 or count > _MAX_DICE:
                raise DiceError(f"dice count must be 1..{_MAX_DICE} in {text!r}")
            if sides < 1 or sides > _MAX_SIDES:
                raise DiceError(f"dice need 1..{_MAX_SIDES} sides in {text!r}")
            terms.append(DiceTerm(count, sides, sign))
        pos = match.end()
        while pos < len(source) and source[pos].isspace():
            pos += 1
    if not any(t.sides for t in terms):
        raise DiceError(f"{text!r} has no dice in it (expected something like 3d6+2 or d100)")
    if sum(t.count for t in terms if t.sides) > _MAX_DICE:
        raise DiceError(f"at most {_MAX_DICE} dice in all, in {text!r}")
    if sum(t.count * (t.sides or 1) for t in terms) > _MAX_TOTAL:
        raise DiceError(f"{text!r} could total more than {_MAX_TOTAL:,}")
    return DiceExpr(tuple(terms))


def _bounded(digits: str, limit: int) -> int:
    """The number ``digits`` spell, or ``limit + 1`` when they spell more (never reading a huge number)."""
    return int(digits) if len(digits.lstrip("0")) <= len(str(limit)) else limit + 1


def roll_keep_higher(expr: DiceExpr, rng: random.Random) -> tuple[DiceRoll, DiceRoll, DiceRoll]:
    """Roll twice and keep the higher total (Aggressive and Clever's damage option).

    Returns ``(kept, first, second)`` so a renderer can show both rolls.
    """
    first = expr.roll(rng)
    second = expr.roll(rng)
    kept = first if first.total >= second.total else second
    return kept, first, second


def keep_higher_distribution(dist: dict[int, float]) -> dict[int, float]:
    """Exact distribution of the higher of two independent rolls."""
    keys = sorted(dist)
    out: dict[int, float] = {}
    cumulative = 0.0
    for k in keys:
        below = cumulative
        cumulative += dist[k]
        out[k] = cumulative**2 - below**2
    return out
