"""The tests' text alphabet is Hypothesis's own default for ``st.text()``, named without its slow codec walk."""

from __future__ import annotations

import sys

from conftest import TEXT_ALPHABET
from hypothesis.strategies._internal.lazy import unwrap_strategies


def test_the_text_alphabet_is_every_character_utf8_encodes():
    """``st.text()`` draws from ``characters(codec="utf-8")``: every code point whose ``encode("utf-8")`` works,
    which is every one but the surrogates. The suite's alphabet is those intervals, by category (asking for the
    codec here would walk all 1.1 million code points, which is the cost it saves)."""
    assert unwrap_strategies(TEXT_ALPHABET).intervals.intervals == ((0, 0xD7FF), (0xE000, sys.maxunicode))
    for code in (0, 0xD7FF, 0xE000, 0xFFFF, 0x10000, sys.maxunicode):
        chr(code).encode("utf-8")
    for code in (0xD800, 0xDBFF, 0xDC00, 0xDFFF):
        try:
            chr(code).encode("utf-8")
        except UnicodeEncodeError:
            continue
        raise AssertionError(f"U+{code:04X} encodes in UTF-8")
