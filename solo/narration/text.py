"""Turning a template into a finished sentence: slots, verb agreement, a/an and capitals.

Kept apart from selection so the rules of English live in one place and the
tests can hold them to account: a slot value changes what article goes before
it ("a dagger", "an axe") and where a sentence begins (a line that opens with
"the old lock" must read "The old lock").
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import inflect

    from .templates import Piece

__all__ = ["article_for", "capitalise", "fix_articles", "fill", "with_article_if_one"]

_ARTICLE = re.compile(r"\b(a|an|A|An)(\s+)([A-Za-z][\w'-]*)")


@lru_cache(maxsize=1)
def english() -> inflect.engine:
    """The one ``inflect`` engine (building one reads its word lists: do it once).

    Imported here, not at the top: the first screen of a game narrates nothing."""
    return _import_inflect().engine()


def _import_inflect() -> ModuleType:
    """inflect, imported without typeguard's run-time checks on its own functions.

    inflect 7 decorates its functions with ``typeguard.typechecked``, which re-parses the whole
    of inflect's source for every decorated function: 4 s at the first narrated line of a game
    (measured: 4.3 s, against 0.15 s without, the engine built). Those checks guard inflect's own calls against
    wrong argument types, a debugging aid that a game does not need; while inflect is imported
    the decorator is swapped for one that leaves functions as they are, then put back.
    """
    if "inflect" in sys.modules:
        return sys.modules["inflect"]
    try:
        import typeguard
    except ImportError:  # an inflect that does not use typeguard
        return importlib.import_module("inflect")
    checked = typeguard.typechecked

    def unchecked(target: Any = None, **_options: Any) -> Any:
        return target if target is not None else unchecked

    typeguard.typechecked = unchecked
    try:
        return importlib.import_module("inflect")
    finally:
        typeguard.typechecked = checked


@lru_cache(maxsize=2048)
def article_for(word: str) -> str:
    """'a' or 'an' for the word that follows, by how it sounds ("an hour", "a unicorn", "an NPC").

    The rules of English articles are many and odd; ``inflect`` keeps them, so
    this project does not keep a word list of its own.
    """
    return english().a(word).split(" ", 1)[0].lower()


#: Words that open a noun phrase with its own determiner: "some rope", "two torches", "my old coat".
_DETERMINERS = frozenset("a an the some any my your his her its our their this that these those one two three four "
                         "five six seven eight nine ten several many few".split())


def with_article_if_one(thing: str) -> str:
    """A thing a player named, as it reads after a verb: "umbrella" -> "an umbrella"; a plural ("lock picks")
    or one that has its own determiner ("some rope", "two torches") as it is."""
    words = thing.split()
    if not words or words[0].lower() in _DETERMINERS or words[0][:1].isdigit():
        return thing
    head = thing.split(" of ", 1)[0].split()[-1]
    if english().singular_noun(head.lower()):  # a plural: no article
        return thing
    return f"{article_for(thing)} {thing}"


def fix_articles(text: str) -> str:
    """Make every standalone a/an agree with the next word, keeping its capital."""

    def repl(m: re.Match[str]) -> str:
        want = article_for(m.group(3))
        if m.group(1)[0].isupper():
            want = want.capitalize()
        return want + m.group(2) + m.group(3)

    return _ARTICLE.sub(repl, text)


def capitalise(text: str) -> str:
    """Upper-case the first letter of every sentence.

    A sentence starts the line, follows ``.``, ``!`` or ``?`` and a space, or
    opens a quotation (``"`` after a space). After a quotation that ends in
    ``!``/``?``/``.`` and its closing quote, the words that follow are the
    speaker tag and stay as written ("Run!" she shouts).
    """
    chars = list(text)
    n = len(chars)
    cap = True
    i = 0
    while i < n:
        c = chars[i]
        if cap:
            if c.isalpha():
                chars[i] = c.upper()
                cap = False
            elif not (c.isspace() or c in "\"“'‘("):
                cap = False
        if c in ".!?":
            j = i + 1
            while j < n and chars[j] in ".!?":
                j += 1
            if j < n and chars[j].isspace():
                cap = True
            i = j
            continue
        if c in "\"“" and (i == 0 or chars[i - 1].isspace()) and i + 1 < n and not chars[i + 1].isspace():
            cap = True
        i += 1
    return "".join(chars)


def fill(pieces: Sequence[Piece], values: Mapping[str, str], plural: Mapping[str, bool]) -> str:
    """Put the values into a parsed template and tidy the result.

    ``plural`` says, for "actor" and "target", whether verbs agree in the
    plural (singular "they" takes "they keep"), and for "actor:name" and
    "target:name" whether a verb right after the name does (a name in the
    plural: "the parish records keep"; "Runa keeps" whatever her pronoun).
    """
    out: list[str] = []
    for piece in pieces:
        if isinstance(piece, str):
            out.append(piece)
        elif piece[0] == "slot":
            value = values[piece[1]]
            if piece[2] and value:
                value = value[0].upper() + value[1:]
            out.append(value)
        else:  # ("verb", who, singular, plural, by): by the name or by the pronoun
            key = piece[1] + ":name" if piece[4] == "name" else piece[1]
            out.append(piece[3] if plural.get(key) else piece[2])
    text = " ".join("".join(out).split())
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    return capitalise(fix_articles(text))
