"""Text statistics for authors: how many words each scene holds (``solo check --stats``).

A word is what an author wrote: every run of text of a scene (its title, its text, its choices'
words and hints, the texts of the branches its choices lead through), on both sides of every
``{if}`` block, a slot (``{pc}``, ``{counter.clues}``) counting as one word. A shared response
counts once, in the first scene that uses it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..story.format.graph import branches_of
from ..story.format.text import TextError, parse_text, runs_of

if TYPE_CHECKING:
    from ..story.format.adventure import Adventure

_SLOT = re.compile(r"\{[^{}]*\}")
_WORDLIKE = re.compile(r"\w")


def words(text: str | None) -> int:
    """The words of one text, both sides of every ``{if}`` block, a slot as one word."""
    if not text:
        return 0
    try:
        runs = list(runs_of(parse_text(text)))
    except TextError:  # solo check reports it; count what is written
        runs = [text]
    # a run may start or end at an {if}'s edge: a comma or a full stop left alone there is no word (a GM counted
    # 6 words in "One two{if x}, three{end}." where there are 3 or 2)
    return sum(1 for run in runs for token in _SLOT.sub("x", run).split() if _WORDLIKE.search(token))


def word_counts(adventure: Adventure) -> dict[str, Any]:
    """``{"introduction": n, "scenes": {scene id: n}, "total": n}``, the scenes in the order written."""
    seen: set[object] = set()
    scenes = {}
    for sid, scene in adventure.scenes.items():
        n = words(scene.title) + words(scene.text)
        for choice in scene.choices:
            n += words(choice.text) + words(choice.hint)
        for _, branch, _ in branches_of(scene):
            mark = (branch.where.file, branch.where.path) if branch.where is not None else id(branch)
            if branch.text and mark not in seen:
                seen.add(mark)
                n += words(branch.text)
        scenes[sid] = n
    intro = words(adventure.introduction)
    return {"introduction": intro, "scenes": scenes, "total": intro + sum(scenes.values())}


def stats_lines(name: str, counts: dict[str, Any]) -> list[str]:
    """The statistics as ``solo check --stats`` prints them: the total, then a scene a line."""
    scenes = counts["scenes"]
    width = max((len(sid) for sid in scenes), default=0)
    in_scenes = f"{sum(scenes.values()):,} words in {len(scenes)} scene{'' if len(scenes) == 1 else 's'}"
    # the total and its two parts, so the scenes' lines below add up to the number beside them ("466 words in 11
    # scenes (the introduction 23)" over scenes that made 443: a GM's run)
    out = [f"{name}: {counts['total']:,} words, {in_scenes} and {counts['introduction']:,} in the introduction"
           if counts["introduction"] else f"{name}: {in_scenes}"]
    out += [f"  {sid:<{width}}  {n:>6,}" for sid, n in scenes.items()]
    return out
