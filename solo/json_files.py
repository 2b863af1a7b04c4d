"""Reading JSON that solo did not write itself (a save sent by someone, a ``--stats`` report) within bounds.

Python's ``json`` parses nested arrays by recursion, so a file of 100,000 ``[`` ends in a
``RecursionError`` after a deep descent. :func:`loads` measures the nesting first, in one pass
that runs in C, and refuses a text nested deeper than its limit with the limit in the message.
"""

from __future__ import annotations

import json
import re
from array import array
from itertools import accumulate
from typing import Any

#: How deep a JSON file solo reads may nest; solo's own files (saves, reports) nest less than ten levels.
MAX_JSON_DEPTH = 100

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = str.maketrans({"[": "\x01", "{": "\x01", "]": "\xff", "}": "\xff"})  # +1 and -1 as signed bytes


class JSONTooDeep(ValueError):
    """A JSON text nested deeper than the reader allows."""


def depth(text: str) -> int:
    """How deep ``text`` nests its arrays and objects (brackets inside strings do not count)."""
    steps = array("b", _NOT_BRACKET.sub("", _STRING.sub("", text)).translate(_STEP).encode("latin-1"))
    return max(accumulate(steps), default=0)


def loads(text: str, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads(text)``, refused with :class:`JSONTooDeep` if it nests deeper than ``max_depth``.

    Other faults are ``json.JSONDecodeError`` as usual (a ``ValueError``, with a line).
    """
    deepest = depth(text)
    if deepest > max_depth:
        raise JSONTooDeep(f"nested {deepest:,} levels deep; at most {max_depth}")
    try:
        return json.loads(text)
    except RecursionError:  # cannot happen below the limit; kept so no traceback ever can
        raise JSONTooDeep(f"nested too deeply; at most {max_depth} levels") from None
