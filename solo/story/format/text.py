"""Filling an author's text: conditional blocks, then the slots {pc}, {party}, {you}, {npc.ID}, {counter.NAME},
{words.NAME} ….

Used wherever author text meets the player (scene text, branch text, choice
labels), so every place fills it the same way. A conditional block
``{if COND}…{else}…{end}`` is read by the condition language of
:mod:`solo.story.format.expressions`, so text can ask exactly what a choice's ``if``
can; the engine picks the branches (it knows the game), the renderers fill the
slots. Parsing is bounded: a text nests at most :data:`MAX_TEXT_DEPTH` blocks
and holds at most :data:`MAX_BLOCKS`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from ...rules.character import pronoun_forms
from .expressions import Condition, Context, ExpressionError, parse_condition

_SLOT = re.compile(r"(?<!\{)\{([A-Za-z_.][A-Za-z0-9_.]*)\}(?!\})")
_IF = re.compile(r"\{\s*if(?![A-Za-z0-9_.])")
MAX_TEXT_DEPTH = 8
MAX_BLOCKS = 200


#: Slots that read right for one PC or several: the form for one, two, and three or more.
PARTY_FORMS = {"you": ("you", "you both", "you all"), "yourself": ("yourself", "yourselves", "yourselves")}
#: Slots that carry their own word: ``{each.bed}`` (a noun, plural for a party), ``{verb.goes}`` (a verb
#: agreeing with ``{party}``: "goes" for one PC, "go" for several).
PARTY_WORDS = ("each.", "verb.")
_WORD = re.compile(r"[A-Za-z]+")


def party_form(slot: str, size: int) -> str:
    """A party slot's words for a party of ``size`` (the slot's capital is the caller's to add).

    English plurals and verb agreement come from the project's one ``inflect`` engine.
    """
    key = slot[0].lower() + slot[1:]
    if key in PARTY_FORMS:
        return PARTY_FORMS[key][min(max(size, 1), 3) - 1]
    kind, _, word = key.partition(".")
    if size <= 1:
        return word
    from ...narration.text import english

    return english().plural_noun(word) if kind == "each" else english().plural_verb(word)


def party_slot_problem(slot: str) -> str | None:
    """Why a ``{each.…}`` or ``{verb.…}`` slot cannot be filled (None if it can): it needs one plain word."""
    kind, _, word = (slot[0].lower() + slot[1:]).partition(".")
    if not _WORD.fullmatch(word):
        return f"{{{slot}}} takes one plain word after '{kind}.', e.g. {{{kind}.{'bed' if kind == 'each' else 'goes'}}}"
    return None


class TextError(ValueError):
    """A text whose braces or blocks cannot be read; ``offset`` is where (0-based, in the text)."""

    def __init__(self, message: str, offset: int, code: str = "E008"):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.code = code  # E004 for a condition that does not parse, E008 for braces and blocks


@dataclass(frozen=True)
class Block:
    """``{if condition}then{else}otherwise{end}``; ``offset`` is where the ``{if`` starts."""

    condition: Condition
    then: tuple[Part, ...]
    otherwise: tuple[Part, ...]
    offset: int


Part = str | Block


def _close(text: str, i: int, quoted: bool) -> int:
    """The ``}`` closing the brace at ``i``; inside a condition, braces within quotes do not count."""
    if not quoted:
        return text.find("}", i)
    quote = None
    j = i
    while j < len(text):
        ch = text[j]
        if quote:
            if ch == "\\":
                j += 1  # the escaped character, whatever it is, as the condition's string token reads it
            elif ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "}":
            return j
        j += 1
    return -1


def _standalone(text: str, start: int, i: int, end: int) -> tuple[int, int] | None:
    """For a tag alone on its line: where the text before it ends and the text after it starts.

    Only the blanks beside the tag are looked at, so a long line costs no more than a short one.
    """
    j = i
    while j > start and text[j - 1] in " \t":
        j -= 1
    if j > 0 and text[j - 1] != "\n":
        return None
    k = end + 1
    while k < len(text) and text[k] in " \t\r":
        k += 1
    if k < len(text) and text[k] != "\n":
        return None
    return j, min(k + 1, len(text))


def _tokens(text: str) -> Iterator[tuple[str, str, int]]:
    """(kind, value, offset): "text" runs (slots kept in them), "if" with its condition, "else", "end"."""
    start = i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "}":
            if text.startswith("}}", i):
                i += 2
                continue
            raise TextError("a '}' without '{' (write '}}' for a literal brace)", i)
        if ch != "{":
            i += 1
            continue
        if text.startswith("{{", i):
            i += 2
            continue
        is_if = bool(_IF.match(text, i))
        end = _close(text, i, is_if)
        if end < 0:
            raise TextError("a '{' is never closed (write '{{' for a literal brace)", i)
        inner = text[i + 1:end].strip()
        if is_if or inner in ("else", "end"):
            alone = _standalone(text, start, i, end)
            before, after = alone if alone else (i, end + 1)
            yield "text", text[start:before], start
            if is_if:
                condition = inner[2:].strip()
                if not condition:
                    raise TextError("{if} needs a condition, as in {if door_open}", i)
                yield "if", condition, i
            else:
                yield inner, "", i
            start = i = after
        else:
            i = end + 1
    yield "text", text[start:], start


@lru_cache(maxsize=4096)
def parse_text(text: str) -> tuple[Part, ...]:
    """The text as runs and blocks; raises :class:`TextError` for unbalanced braces or blocks."""
    if "{" not in text and "}" not in text:
        return (text,) if text else ()
    root: list[Part] = []
    stack: list[tuple[Condition, list[Part], list[Part] | None, int]] = []
    current = root
    count = 0
    for kind, value, offset in _tokens(text):
        if kind == "text":
            if value:
                current.append(value)
        elif kind == "if":
            count += 1
            if count > MAX_BLOCKS:
                raise TextError(f"more than {MAX_BLOCKS} {{if}} blocks in one text", offset)
            if len(stack) >= MAX_TEXT_DEPTH:
                raise TextError(f"{{if}} blocks nest deeper than {MAX_TEXT_DEPTH} levels", offset)
            try:
                cond = parse_condition(value)
            except ExpressionError as exc:
                raise TextError(f"bad condition {value!r} in {{if}}: {exc}", offset, "E004") from None
            then: list[Part] = []
            stack.append((cond, then, None, offset))
            current = then
        elif not stack:
            raise TextError(f"{{{kind}}} without an {{if}} before it", offset)
        elif kind == "else":
            cond, then, otherwise, at = stack[-1]
            if otherwise is not None:
                raise TextError("a second {else} in one {if} block", offset)
            otherwise = []
            stack[-1] = (cond, then, otherwise, at)
            current = otherwise
        else:  # end
            cond, then, otherwise, at = stack.pop()
            current = stack[-1][2] if stack and stack[-1][2] is not None else stack[-1][1] if stack else root
            current.append(Block(cond, tuple(then), tuple(otherwise or ()), at))
    if stack:
        raise TextError("an {if} block is never closed with {end}", stack[-1][3])
    return tuple(root)


def blocks_of(parts: tuple[Part, ...]) -> Iterator[Block]:
    """Every block of a parsed text, nested ones too (for the checker)."""
    for part in parts:
        if isinstance(part, Block):
            yield part
            yield from blocks_of(part.then)
            yield from blocks_of(part.otherwise)


def runs_of(parts: tuple[Part, ...]) -> Iterator[str]:
    """Every run of plain text (with its slots) of a parsed text, in every branch."""
    for part in parts:
        if isinstance(part, Block):
            yield from runs_of(part.then)
            yield from runs_of(part.otherwise)
        else:
            yield part


def runs_opening(parts: tuple[Part, ...], opens: bool = True) -> Iterator[tuple[str, bool]]:
    """:func:`runs_of`, each with whether a sentence begins where it starts: at the start of the text, or of an
    ``{if}`` side whose text before it ended one ("It snows. {if a}{you} wait"). After an ``{end}`` it is not
    known (the sentence may have begun inside the block), and is taken not to."""
    for part in parts:
        if isinstance(part, Block):
            yield from runs_opening(part.then, opens)
            yield from runs_opening(part.otherwise, opens)
            opens = False
        else:
            yield part, opens
            opens = _ENDS_SENTENCE.search(part) is not None


#: A run that ends a sentence: its stop, and any closing quote and space after it.
_ENDS_SENTENCE = re.compile(r"(?:[.!?]|\.[\"'”’])\s*$")


def pick(text: str, context: Context) -> str:
    """The text with each block replaced by the branch its condition picks now; slots stay for :func:`fill`."""
    return shown(text, context)


def _chosen(parts: tuple[Part, ...], context: Context | None) -> Iterator[str]:
    for part in parts:
        if isinstance(part, Block):
            if context is None:
                yield from _chosen(part.then, None)
            else:
                yield from _chosen(part.then if part.condition.evaluate(context) else part.otherwise, context)
        else:
            yield part


def shown(text: str, context: Context | None = None) -> str:
    """A title or label as it is shown outside the scene panel: the ending line, a save's listing, the map, reports.

    With the game's ``context`` its blocks are picked as in the scene panel (:func:`pick`).
    Without a game (a map, a simulation report) there is no state to ask, so every block
    shows its first branch, the ``{if}`` side: the text as it reads when each condition holds.
    Slots stay for :func:`fill`; a text that does not parse shows as written.
    """
    if "{" not in text:
        return text
    try:
        parts = parse_text(text)
    except TextError:
        return text
    return "".join(_chosen(parts, context))


_NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                 "sixteen seventeen eighteen nineteen twenty").split()


def and_list(names: list[str]) -> str:
    """Names as a sentence lists them: "Ada", "Ada and Bo", "Ada, Bo and Cy" (the party slot, an assist, the
    Pools healed at an epilogue)."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def number_words(n: int) -> str:
    """A whole number as prose writes it: in words up to twenty ("two"), in figures above ("21", "-1")."""
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def fill(text: str, slots: dict, context: Context | None = None, *,
         escape: Callable[[str], str] | None = None) -> str:
    """``{{``/``}}`` are literal braces; an unset counter reads 0; unknown slots stay as written.

    With a ``context``, conditional blocks are picked first (:func:`pick`). ``escape``: applied to each slot's value
    (a player's name in text shown as Markdown is words, never a link: the journal's ``inline``).
    """
    if "{" not in text and "}" not in text:  # most labels: nothing to fill
        return text
    if context is not None:
        text = pick(text, context)
    forms = pronoun_forms(slots.get("pronoun", "they"))

    def one(match):
        key = match.group(1)
        if key in slots:
            return escape(str(slots[key])) if escape is not None else str(slots[key])
        if key.startswith("counter."):
            return "0"
        if key.startswith("words."):  # a counter in words, for prose: "two pieces of proof"
            return number_words(int(slots.get("counter." + key[6:], 0)))
        lower = key[0].lower() + key[1:]
        if lower in PARTY_FORMS or lower.startswith(PARTY_WORDS):
            word = party_form(key, int(slots.get("party_size", 1)))
            if not word:
                return match.group(0)
            return word[0].upper() + word[1:] if key[0].isupper() else word
        if lower in forms:
            word = forms[lower]
            return word[0].upper() + word[1:] if key[0].isupper() else word
        return match.group(0)

    return _SLOT.sub(one, text).replace("{{", "{").replace("}}", "}")
