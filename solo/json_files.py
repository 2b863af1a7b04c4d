"""Reading JSON that solo did not write itself (a save sent by someone, a ``--stats`` report) within bounds.

Python's ``json`` parses nested arrays by recursion, so a file of 100,000 ``[`` ends in a
``RecursionError`` after a deep descent, and it refuses a whole number of more than 4,300 digits
with a bare ``ValueError``. :func:`loads` measures the nesting first, in one pass that runs in C,
and reads whole numbers of at most :data:`MAX_JSON_DIGITS` digits; a text beyond either is
refused with the limit in the message.
"""

from __future__ import annotations

import json
import re
from array import array
from itertools import accumulate
from typing import Any

#: How deep a JSON file solo reads may nest; solo's own files (saves, reports) nest less than ten levels.
MAX_JSON_DEPTH = 100
#: Digits of a whole number in a JSON file solo reads (a seed has at most 19; Python stops at 4,300).
MAX_JSON_DIGITS = 1000

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = str.maketrans({"[": "\x01", "{": "\x01", "]": "\xff", "}": "\xff"})  # +1 and -1 as signed bytes


class JSONRefused(ValueError):
    """A JSON text beyond the reader's bounds: nested too deeply, or a number too long."""


def depth(text: str) -> int:
    """How deep ``text`` nests its arrays and objects (brackets inside strings do not count)."""
    steps = array("b", _NOT_BRACKET.sub("", _STRING.sub("", text)).translate(_STEP).encode("latin-1"))
    return max(accumulate(steps), default=0)


def _whole(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_JSON_DIGITS:
        raise JSONRefused(f"a number of {len(digits.lstrip('-')):,} digits; at most {MAX_JSON_DIGITS:,}")
    return int(digits)


def loads(text: str, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads(text)``, refused with :class:`JSONRefused` if it nests deeper than ``max_depth`` or holds
    a whole number of more than :data:`MAX_JSON_DIGITS` digits.

    Other faults are ``json.JSONDecodeError`` as usual (a ``ValueError``, with a line).
    """
    text = text.removeprefix("\ufeff")  # a byte-order mark, from an editor that writes one: no part of the JSON
    deepest = depth(text)
    if deepest > max_depth:
        raise JSONRefused(f"nested {deepest:,} levels deep; at most {max_depth}")
    try:
        return json.loads(text, parse_int=_whole)
    except RecursionError:  # cannot happen below the limit; kept so no traceback ever can
        raise JSONRefused(f"nested too deeply; at most {max_depth} levels") from None
