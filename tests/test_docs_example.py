"""docs/adventures.md shows a complete example adventure; it must load cleanly and match its file."""

from __future__ import annotations

import re
from pathlib import Path

from solo.story.loader import read_adventure

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "adventures.md"
EXAMPLE = ROOT / "tests" / "data" / "example_adventure.toml"
MARKER = "<!-- example: tests/data/example_adventure.toml -->"


def _example_block() -> str:
    text = DOC.read_text(encoding="utf-8")
    assert MARKER in text, "docs/adventures.md lost the marker before its example"
    after = text[text.index(MARKER) + len(MARKER):]
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
