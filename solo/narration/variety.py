"""How varied a told story is: the figures issue 13 holds narration to, measured the same way everywhere.

A reader notices a sentence that comes back every few rounds long before
any template count says the pool is small, so variety is measured on the
finished text, by sentence and by round. The test and
``benchmarks/narration_stats.py`` both read these figures, so "no sentence in
more than 5 % of rounds" means one thing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["COMBAT_WORDS", "Variety", "combat_words_in", "sentences", "variety"]

_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[\"“(]?[A-Z])")
#: Words that belong to a fight and never to an argument (a social conflict is checked against them).
COMBAT_WORDS = ("weapon", "blade", "sword", "axe", "dagger", "pistol", "gun", "fist", "blow", "punch",
                "fighting", "combat", "armour", "blood", "bleed", "wound", "ammunition", "bullet", "stab", "slash")
_COMBAT = re.compile(r"\b(" + "|".join(COMBAT_WORDS) + r")(s|es|ed|ing)?\b", re.IGNORECASE)


def sentences(line: str) -> list[str]:
    """A told line cut into sentences; a quotation and its speaker tag stay one sentence."""
    return [s.strip() for s in _SPLIT.split(line.strip()) if s.strip()]


def combat_words_in(text: str) -> list[str]:
    return [m.group(0) for m in _COMBAT.finditer(text)]


@dataclass
class Variety:
    """The figures for a run of narrated rounds (each round a list of lines)."""

    rounds: int
    sentences: int
    distinct: int
    top: list[tuple[str, float]] = field(default_factory=list)  # the commonest sentences, share of rounds
    repeats: list[str] = field(default_factory=list)  # sentences told twice in a row
    unfilled: list[str] = field(default_factory=list)  # sentences still showing a brace
    uncapitalised: list[str] = field(default_factory=list)

    @property
    def worst_share(self) -> float:
        return self.top[0][1] if self.top else 0.0

    def __str__(self) -> str:
        head = (f"{self.rounds} rounds, {self.sentences} sentences, {self.distinct} distinct; "
                f"most common in {self.worst_share:.1%} of rounds; {len(self.repeats)} back-to-back repeats, "
                f"{len(self.unfilled)} unfilled slots, {len(self.uncapitalised)} without a capital")
        return head + "".join(f"\n  {share:5.1%}  {text}" for text, share in self.top[:5])


def variety(rounds: Sequence[Iterable[str]]) -> Variety:
    """Measure told rounds: how often each sentence comes back, repeats, braces and capitals."""
    in_rounds: Counter[str] = Counter()
    told: list[str] = []
    for lines in rounds:
        said = [s for line in lines for s in sentences(line)]
        told += said
        in_rounds.update(set(said))
    n = max(1, len(rounds))
    return Variety(
        rounds=len(rounds), sentences=len(told), distinct=len(set(told)),
        top=[(text, count / n) for text, count in in_rounds.most_common(10)],
        repeats=[x for x, y in zip(told, told[1:]) if x == y],
        unfilled=[s for s in told if "{" in s or "}" in s],
        uncapitalised=[s for s in told if not _starts_with_capital(s)],
    )


def _starts_with_capital(sentence: str) -> bool:
    first = next((c for c in sentence if c.isalpha()), "")
    return first.isupper()
