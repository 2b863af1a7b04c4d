"""docs/adventures.md shows a complete example adventure; it must load cleanly and match its file."""

from __future__ import annotations

import re
from pathlib import Path

from solo.story.format.loader import read_adventure

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "adventures.md"
EXAMPLE = ROOT / "tests" / "data" / "example_adventure.toml"
MARKER = "<!-- example: tests/data/example_adventure.toml -->"


CLOAK = ROOT / "tests" / "data" / "format" / "cloak.toml"
CLOAK_MARKER = "<!-- example: tests/data/format/cloak.toml -->"


def _example_block(marker: str = MARKER) -> str:
    text = DOC.read_text(encoding="utf-8")
    assert marker in text, "docs/adventures.md lost the marker before its example"
    after = text[text.index(marker) + len(marker):]
    match = re.match(r"\s*```toml\n(.*?)\n```", after, re.DOTALL)
    assert match, "the marker must be followed by a ```toml block"
    return match.group(1) + "\n"


def test_docs_example_equals_the_test_file():
    assert _example_block() == EXAMPLE.read_text(encoding="utf-8")


def test_docs_example_loads_without_problems(tmp_path):
    path = tmp_path / "example.toml"
    path.write_text(_example_block(), encoding="utf-8")
    adventure, problems = read_adventure(path)
    assert problems == [], "\n".join(str(p) for p in problems)
    assert adventure is not None
    assert 4 <= len(adventure.scenes) <= 5
    assert {s.outcome for s in adventure.endings()} == {"lit", "dark"}


def test_example_file_loads_without_problems():
    adventure, problems = read_adventure(EXAMPLE)
    assert problems == [], "\n".join(str(p) for p in problems)
    assert adventure is not None and adventure.id == "skarv"


def test_docs_cloak_example_equals_the_test_file():
    assert _example_block(CLOAK_MARKER) == CLOAK.read_text(encoding="utf-8")


def test_docs_cloak_example_uses_every_newer_part_of_the_format(tmp_path):
    path = tmp_path / "cloak.toml"
    path.write_text(_example_block(CLOAK_MARKER), encoding="utf-8")
    adventure, problems = read_adventure(path)
    assert problems == [], "\n".join(str(p) for p in problems)
    assert adventure is not None and not adventure.uses_pcs
    assert adventure.flags and adventure.counters and adventure.responses
    choices = [c for s in adventure.scenes.values() for c in s.choices]
    effects = [e for c in choices for e in c.effects] + [e for r in adventure.responses.values() for e in r.effects]
    assert any(e.condition is not None for e in effects)
    assert any(c.goto is not None and c.goto.routes for c in choices)
    assert any(c.goto is not None and c.goto.use for c in choices)
    assert any("{if" in c.text and "chosen(" in c.text for c in choices)
    assert sum("{if" in s.text for s in adventure.scenes.values()) >= 2
    assert len(CLOAK.read_text(encoding="utf-8").splitlines()) <= 100  # about as short as the same game in ink
