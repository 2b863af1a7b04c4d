"""Filling the slots of an author's text: {pc}, {party}, {npc.ID}, {counter.NAME}, pronouns.

Used wherever author text meets the player (scene text, branch text, choice
labels), so every place fills slots the same way.
"""

from __future__ import annotations

import re

from ..rules.character import PRONOUNS

_SLOT = re.compile(r"(?<!\{)\{([A-Za-z_.][A-Za-z0-9_.]*)\}(?!\})")


def fill(text: str, slots: dict) -> str:
    """``{{``/``}}`` are literal braces; an unset counter reads 0; unknown slots stay as written."""
    forms = PRONOUNS.get(slots.get("pronoun", "they"), PRONOUNS["they"])

    def one(match):
        key = match.group(1)
        if key in slots:
            return str(slots[key])
        if key.startswith("counter."):
            return "0"
        lower = key[0].lower() + key[1:]
        if lower in forms:
            word = forms[lower]
            return word[0].upper() + word[1:] if key[0].isupper() else word
        return match.group(0)

    return _SLOT.sub(one, text).replace("{{", "{").replace("}}", "}")
