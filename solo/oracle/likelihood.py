"""Likelihood words and tension: the two inputs that set the oracle's chance of "yes".

The ladder is our own, in steps a player can feel at the table. The Comae
difficulty words are accepted too, read as modifiers to an even chance, so a
GM used to "Hard" or "Easy" need not learn a second vocabulary. Tension tilts
every chance by a fixed 5 points a step, so the effect of the track is the
same whatever the question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import SoloError, closest

__all__ = [
    "bare_odds",
    "LADDER",
    "COMAE_WORDS",
    "ALIASES",
    "TENSION_MIN",
    "TENSION_MAX",
    "TENSION_NEUTRAL",
    "TENSION_STEP",
    "CHANCE_MIN",
    "CHANCE_MAX",
    "OracleError",
    "Likelihood",
    "likelihood",
    "nearest_word",
    "check_tension",
    "chance_of_yes",
    "known_words",
]

#: Our likelihood ladder: word -> chance of "yes" (in %) at neutral tension.
LADDER: dict[str, int] = {
    "impossible": 5,
    "very unlikely": 15,
    "unlikely": 30,
    "somewhat unlikely": 40,
    "even": 50,
    "somewhat likely": 60,
    "likely": 70,
    "very likely": 85,
    "certain": 95,
}

#: The Comae difficulty words, read as 50 % plus their modifier. Routine,
#: which skips the roll in a skill check, is "certain" here: the oracle still
#: rolls, because a roll can raise a random event or a "but".
COMAE_WORDS: dict[str, int] = {
    "routine": 95,
    "easy": 70,
    "normal": 50,
    "hard": 30,
    "very hard": 10,
}

#: Other spellings people type at the table.
ALIASES: dict[str, str] = {
    "50/50": "even",
    "fifty fifty": "even",
    "even odds": "even",
    "coin flip": "even",
    "no way": "impossible",
    "sure thing": "certain",
    "near certain": "certain",
    "almost certain": "certain",
    "probable": "likely",
    "doubtful": "somewhat unlikely",
}

TENSION_MIN = 1
TENSION_MAX = 9
TENSION_NEUTRAL = 5
TENSION_STEP = 5
CHANCE_MIN = 1
CHANCE_MAX = 99


class OracleError(SoloError, ValueError):
    """An oracle input the user can fix: an unknown word, a tension off the track."""


@dataclass(frozen=True)
class Likelihood:
    """A resolved likelihood: the canonical word and its base chance at neutral tension."""

    word: str
    base: int


def nearest_word(word: str) -> str | None:
    """The likelihood word (or alias) ``word`` is a near miss of, or None: "likly" -> "likely". What the error of
    :func:`likelihood` suggests, and what tells a misspelt likelihood from other words in a question's brackets."""
    return closest(_norm(word), known_words())


def _norm(word: str) -> str:
    text = str(word).replace("_", " ").replace("-", " ").lower()
    return " ".join(text.split())


def known_words() -> list[str]:
    """Every word :func:`likelihood` accepts, ladder first."""
    return list(LADDER) + list(COMAE_WORDS) + list(ALIASES)


def likelihood(word: str | int | Likelihood) -> Likelihood:
    """Read a likelihood: a ladder word, a Comae difficulty word, an alias or a plain 1–99 %.

    A plain number lets a table use odds the ladder does not name; it is
    tilted by tension like any word.
    """
    if isinstance(word, Likelihood):
        return word
    if isinstance(word, bool):
        raise OracleError(f"not a likelihood: {word!r}")
    if isinstance(word, int):
        return _percent(word, str(word))
    number = _NUMBER.fullmatch(str(word).strip())
    if number:  # read before the words, whose dashes count as spaces: "-5" is minus five, not 5
        digits = number.group(2).lstrip("0") or "0"
        value = int(digits) if len(digits) <= 3 else CHANCE_MAX + 1  # never read a huge number
        return _percent(-value if number.group(1) == "-" else value, str(word))
    key = _norm(word)
    if key in LADDER:
        return Likelihood(key, LADDER[key])
    if key in COMAE_WORDS:
        return Likelihood(key, COMAE_WORDS[key])
    if key in ALIASES:
        canonical = ALIASES[key]
        return Likelihood(canonical, LADDER[canonical])
    close = nearest_word(key)
    # an alias suggested says what it stands for, as the list after it names only the ladder ("did you mean
    # 'probable'?", then a list without it, read as a word that is not one)
    meant = f", that is {ALIASES[close]!r}" if close in ALIASES else ""
    hint = "" if close is None else f" (did you mean {close!r}{meant}?)"
    ladder = ", ".join(LADDER)
    raise OracleError(
        f"unknown likelihood {str(word)!r}{hint}; use one of: {ladder} "
        f"(or easy, normal, hard, very hard, routine, or a percentage 1-99)"
    )


_NUMBER = re.compile(r"([+-]?)\s*([0-9]+)\s*%?")


def _percent(value: int, shown: str) -> Likelihood:
    if not CHANCE_MIN <= value <= CHANCE_MAX:
        raise OracleError(f"a likelihood given as a number must be 1-99, not {shown[:20]}")
    return Likelihood(f"{value}%", value)


def check_tension(tension: int) -> int:
    """Refuse a tension off the 1–9 track, with a message fit for the user."""
    if isinstance(tension, bool) or not isinstance(tension, int):
        raise OracleError(f"tension must be a whole number {TENSION_MIN}-{TENSION_MAX}, not {tension!r}")
    if not TENSION_MIN <= tension <= TENSION_MAX:
        raise OracleError(f"tension must be {TENSION_MIN}-{TENSION_MAX}, not {tension}")
    return tension


def chance_of_yes(word: str | int | Likelihood, tension: int = TENSION_NEUTRAL) -> int:
    """The target a d100 must roll at or under for "yes".

    ``clamp(base + 5 × (tension − 5), 1, 99)``: never certain either way, so
    a surprise is always possible and 00 is always a "no".
    """
    base = likelihood(word).base
    check_tension(tension)
    raw = base + TENSION_STEP * (tension - TENSION_NEUTRAL)
    return max(CHANCE_MIN, min(CHANCE_MAX, raw))


def trailing_odds(text: str) -> tuple[str, str | None]:
    """A question and the likelihood written in brackets at its end, as the game's prompt takes it: "Is the door
    locked? (likely)" -> ("Is the door locked?", "likely"); (text, None) where it ends in no brackets. What is in
    the brackets is not checked here: the game's prompt refuses a word that is no likelihood, ``solo oracle``
    keeps such brackets as part of the question."""
    match = re.search(r"\(([^()]+)\)\s*$", text)
    if not match:
        return text, None
    return text[: match.start()].strip(), match.group(1).strip()


def bare_odds(text: str) -> tuple[str, str | None]:
    """A likelihood typed after the question's mark without brackets ("Is the door locked? likely", "… ? [very
    likely]"), as ``solo oracle`` and the game's ``?`` take it: it was dropped, and the question asked at even odds
    (a GM-less table's run). Only what is a likelihood counts; other words after the mark stay part of the
    question."""
    head, mark, tail = text.rpartition("?")
    word = tail.strip().strip("[]()").strip()  # a bracket left open ("? (very likely") is a slip, not question
    if not mark or not word or not head.strip():
        return text, None
    try:
        likelihood(word)
    except (OracleError, ValueError):
        return text, None
    return head + mark, word
