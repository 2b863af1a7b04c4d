"""What an adventure's `{if}` blocks join up reads as one sentence would: bots play every bundled adventure and
no scene or branch text they are shown has a doubled space or a space before a stop (Vellan's page six read
"to hang a shipowner.  It repeats" where a condition's text began with its own space)."""

from __future__ import annotations

import functools
import random
import re

import pytest

from solo.events import EventLog
from solo.rules.creation import pregenerated
from solo.sim.policies import make_policy
from solo.story.format.library import find_adventure
from solo.story.format.loader import load_adventure
from solo.story.format.text import Block, fill, parse_text
from solo.story.play.engine import Game

BAD_JOIN = re.compile(r"\S  +\S| [.,;:!?](?:\s|$)")


@functools.cache
def adventure_named(name: str):
    """A bundled adventure, loaded once for the file's nine tests: a game plays it without changing it (the same
    games, played on one loaded adventure and on a fresh load each, log the same events)."""
    return load_adventure(find_adventure(name))


@pytest.mark.parametrize("name", ["tutorial", "vellan", "kaldskard"])
def test_bots_are_shown_no_badly_joined_text(name):
    adventure = adventure_named(name)
    seen = 0
    for seed in range(12):
        log = EventLog()
        bot = make_policy(("random", "cautious", "bold")[seed % 3], random.Random(seed))
        Game(adventure, seed=seed, decider=bot, sink=log, party=[pregenerated("espen")]).play()
        for event in log.events:
            if event.kind in ("scene_entered", "branch_text"):
                for line in str(event.data.get("text", "")).splitlines():
                    seen += 1
                    assert not BAD_JOIN.search(line.strip()), (name, seed, line)
    assert seen > 100


def _shown_texts(name: str, size: int, seeds: int = 30):
    """Every scene and branch text bots are shown playing ``name`` with a party of ``size``, slots filled as the
    screen fills them: (seed, the acting PC's name, the text)."""
    adventure = adventure_named(name)
    for seed in range(seeds):
        log = EventLog()
        bot = make_policy(("random", "cautious", "bold")[seed % 3], random.Random(seed))
        party = []
        for who in ("Hedda Myhre", "Bente Lie", "Elin Strand")[:size]:
            pc = pregenerated("espen")
            pc.name = who
            party.append(pc)
        Game(adventure, seed=seed, decider=bot, sink=log, party=party).play()
        for event in log.events:
            if event.kind in ("scene_entered", "branch_text"):
                slots = {**(event.data.get("slots") or {}), "party_size": size}
                yield seed, str(slots.get("pc", "")), fill(str(event.data.get("text", "")), slots)


QUOTED = re.compile(r'"[^"]*"')


@pytest.mark.parametrize("name", ["tutorial", "vellan", "kaldskard"])
@pytest.mark.parametrize("size", [2, 3])
def test_a_party_is_never_told_you_all_are(name, size):
    """Before, Kaldskard's outlaw ending for three: 'By spring you all are outlaws too, as far as the sheriff is
    concerned, and perhaps as far as you all are.', and the saddle: 'You all are still wet from below'. {you} reads
    "you all" or "you both" for a party, and a verb after it reads wrong: such a sentence is recast."""
    wrong = []
    for seed, _pc, text in _shown_texts(name, size):
        wrong += [(seed, m.group(0)) for m in re.finditer(r"\byou (?:all|both) (?:are|were|have|had)\b",
                                                          QUOTED.sub("", text), re.IGNORECASE)]
    assert wrong == []


@pytest.mark.parametrize("name", ["tutorial", "vellan", "kaldskard"])
def test_one_player_is_told_of_in_one_person(name):
    """Before, Kaldskard's snow bridge for one player: 'The snow gives under Hedda Myhre with a sigh … and Hedda
    Myhre crawls clear. Wet to the skin, you lose an hour getting warm again.': the same person named, then
    addressed. With one PC "you" is that PC, so a text that names the acting PC does not also say "you" (outside
    speech); a party's texts may, since there "you" is the party."""
    switched = []
    for seed, pc, text in _shown_texts(name, 1, seeds=60):
        for para in text.split("\n\n"):
            told = QUOTED.sub("", para)
            if pc and pc in told and re.search(r"\byou(?:r|rs|rself)?\b", told, re.IGNORECASE):
                switched.append((seed, para))
    assert switched == []


def _endings(parts) -> set[str]:
    """The last character each way of reading ``parts`` can end on, every ``{if}`` taken either way ("" where a way
    shows nothing at all)."""
    out = {""}
    for part in parts:
        if isinstance(part, Block):
            after = _endings(part.then) | _endings(part.otherwise)
        else:
            after = {part.rstrip()[-1:]} if part.strip() else {""}
        out = {b or a for a in out for b in after}
    return out


def _texts(obj):
    """Every ``text`` an adventure's TOML holds (scenes, choices, outcomes, responses), as written."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key == "text" and isinstance(value, str):
                yield value
            else:
                yield from _texts(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from _texts(value)


def test_no_way_through_a_bundled_text_ends_on_a_comma():
    """Before, Vellan's lost confrontation ended 'He shows you out, all courtesy,' (one side of an {if} whose other
    side went on to a full stop). Every text of the bundled adventures is read every way its {if} blocks can go,
    conditions aside: none ends on a comma or a semicolon (a colon may open a list whose items the conditions pick)."""
    from pathlib import Path

    from solo.paths import bundled
    from solo.toml_files import loads_toml

    read = 0
    for name in ("tutorial.toml", "vellan", "kaldskard"):
        root = bundled("scenes") / name
        for path in sorted(root.rglob("*.toml")) if root.is_dir() else [Path(root)]:
            for text in _texts(loads_toml(path.read_text(encoding="utf-8"))):
                read += 1
                assert not _endings(parse_text(text)) & {",", ";"}, (path.name, text[-120:])
    assert read > 500


def _readings(parts, limit: int = 64) -> list[str]:
    """The ways ``parts`` can read, every ``{if}`` taken either way (conditions aside), the first ``limit``."""
    out = [""]
    for part in parts:
        if isinstance(part, Block):
            sides = _readings(part.then, limit) + _readings(part.otherwise, limit)
            out = [a + b for a in out for b in sides][:limit]
        else:
            out = [a + part for a in out]
    return out


def test_no_bundled_sentence_names_the_acting_pc_twice():
    """A group's run at Kaldskard's ford: "The river knocks Jonas Nygaard down twice, and the others haul Jonas Nygaard
    out on the far side", where the second is "him". No sentence of a bundled text, read every way its {if} blocks
    go, holds {pc} twice."""
    from pathlib import Path

    from solo.paths import bundled
    from solo.toml_files import loads_toml

    read = 0
    for name in ("tutorial.toml", "vellan", "kaldskard"):
        root = bundled("scenes") / name
        for path in sorted(root.rglob("*.toml")) if root.is_dir() else [Path(root)]:
            for text in _texts(loads_toml(path.read_text(encoding="utf-8"))):
                for reading in set(_readings(parse_text(text))):
                    for sentence in re.split(r"(?<=[.!?])\s", reading):
                        read += 1
                        assert sentence.count("{pc}") < 2, (path.name, sentence)
    assert read > 2000
