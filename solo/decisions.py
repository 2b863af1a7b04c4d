"""The one decision interface: a :class:`Question` in, an option key out.

Every question the engine can ask has a kind in :data:`KINDS`, with the
context keys it carries and what it means, so a bot or a mind can be written
against this page instead of against the code that asks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from .events import Chance
from .terminal_text import inert

#: The longest answer taken, typed or from a script: more than any name, note or oracle question needs.
#: A longer one is refused before anything else looks at it (or prints it back).
MAX_ANSWER = 1000


class QuestionError(ValueError):
    """An answer that does not fit the question; the message says what would."""


def clean_typed(text: str) -> str:
    """Typed text as valid, inert Unicode: undecodable bytes and control characters become U+FFFD.

    Python keeps undecodable input as lone surrogates, which no file can hold as UTF-8; a save or a
    journal that met one would fail. Cleaned where a line is read, nothing later sees them.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return inert(text)  # an ESC typed or pasted is shown, never acted on


#: Free-text questions that ask for a name (a character's, a player's). A name with no letter in it ("1",
#: "2.") is refused: it is nearly always a menu's number typed one prompt too late, and would make a PC called
#: "1" that every line of the story then names. Recorded answers are never refused again: a save replays
#: free text as it was kept.
NAME_KINDS = frozenset({"name", "player"})


def too_long(answer: str) -> str | None:
    """Why ``answer`` is refused for its length, or None."""
    if len(answer) > MAX_ANSWER:
        return f"an answer has at most {MAX_ANSWER:,} characters, not {len(answer):,}"
    return None


def _shown(text: str) -> str:
    """An answer quoted back in a message: its start, if it is long."""
    return repr(text if len(text) <= 40 else text[:40] + "…")


@dataclass(frozen=True)
class Option:
    key: str  # stable answer id: "aggressive", "north", "yes"
    label: str  # what a person reads
    detail: str = ""  # e.g. "61 % to win the conflict"
    chance: Chance | None = None  # the chance of the roll this option leads to, with its parts
    number: int | None = None  # the number the menu shows and a typed number means; None: its position


@dataclass(frozen=True)
class Question:
    """One decision the engine needs.

    ``kind`` tells bots and minds what is being asked ("lens", "target",
    "choice", "luck_flip", "name" …); ``actor`` names who decides (for
    hot-seat play); ``context`` carries machine-readable facts (odds, Pools)
    so a bot need not parse prose. A question with no options takes free text.
    """

    kind: str
    prompt: str
    options: tuple[Option, ...] = ()
    actor: str | None = None
    context: dict[str, Any] = field(default_factory=dict)
    default: str | None = None
    limit: int | None = None  # free text: at most this many characters (a name)

    @property
    def free_text(self) -> bool:
        return not self.options

    def keys(self) -> list[str]:
        return [o.key for o in self.options]

    def numbered(self) -> list[tuple[int, Option]]:
        """Each option with the number a person sees and types for it.

        An option's own ``number`` when it has one (a scene keeps its choices' numbers from
        visit to visit, so a hidden choice leaves a gap), else its position from 1.
        """
        return [(o.number if o.number is not None else i, o) for i, o in enumerate(self.options, 1)]

    def option(self, key: str) -> Option:
        for o in self.options:
            if o.key == key:
                return o
        raise KeyError(key)

    def enter_takes(self) -> str | None:
        """What Enter alone answers: the default, else the only option of a menu of one (None: nothing). The
        prompt says so from this ("(Enter for …)"): a menu of one took Enter without a word of it."""
        if self.default is not None:
            return self.default
        if len(self.options) == 1 and not self.free_text:
            return self.options[0].key
        return None

    def resolve(self, answer: str) -> str:
        """Map what someone typed to an option key: the key, its number, or a unique prefix.

        This is the one place answers are normalised: the conflict, the game,
        the prompt, scripts and saves all pass what a decider said through it.
        Free-text questions accept any non-empty text, except that a name (:data:`NAME_KINDS`) needs a
        letter. Raises :class:`QuestionError` with the valid answers otherwise.
        """
        for o in self.options:  # the usual case: a decider that already answers with a key
            if answer == o.key:
                return answer
        problem = too_long(answer or "")
        if problem:
            raise QuestionError(problem)
        text = (answer or "").strip()
        takes = None if text else self.enter_takes()
        if takes is not None:
            if not self.free_text and any(o.key == takes for o in self.options):
                return takes
            text = takes
        if self.free_text:
            if not text:
                raise QuestionError("Please type an answer.")
            if self.limit is not None and len(text) > self.limit:
                raise QuestionError(f"at most {self.limit:,} characters here, not {len(text):,}")
            if self.kind in NAME_KINDS and not any(ch.isalpha() for ch in text):
                raise QuestionError(f"{_shown(text)} is not a name: type the name itself, with at least one letter.")
            return text
        lowered = text.lower()
        for o in self.options:
            if lowered == o.key.lower() or lowered == o.label.lower():
                return o.key
        alias = (self.context.get("aliases") or {}).get(lowered)  # a word an option also answers to ("combat")
        if alias is not None and any(o.key == alias for o in self.options):
            return str(alias)
        numbered = self.numbered()
        number = int(text) if text.isdecimal() and text.isascii() and len(text) <= 6 else None
        if number is not None:
            for i, o in numbered:
                if i == number:
                    return o.key
        matches = [(i, o) for i, o in numbered
                   if o.key.lower().startswith(lowered) or o.label.lower().startswith(lowered)]
        typed = lowered.split()
        if not matches and len(typed) > 1:  # the first letters of each word: "som l" for Somewhat Likely
            matches = [(i, o) for i, o in numbered if _starts_words(typed, o.label.lower().split())]
        aliases = self.context.get("aliases") or {}
        if not matches and len(lowered) >= 3 and aliases:  # the first letters of a word an option answers to: "cun"
            # for Cunning at "Improve Cunning" (a player's Kaldskard: "cunning" was an answer, "cun" was not)
            keys = {key for word, key in aliases.items() if str(word).startswith(lowered)}
            matches = [(i, o) for i, o in numbered if o.key in keys]
        if typed and len(typed[0]) >= 3 and self.kind in BY_NAME:
            # a name in the label: "espen" for "Play Espen Lind" (a new player's run), at a menu of people alone,
            # where nothing is spent by a word picked (the review: "back" at the push question spent Luck); beside
            # the options it begins, so that "espen" (or "espen lind") is no answer where it names two ("Play Espen
            # Lind" and the roster's "Espen Lind": a player got the roster's copy without a word). A name is
            # capitalised: "cha" is Charlotte's, not a word of "Make a new character" (a review)
            named = [(i, o) for i, o in numbered if _names(typed, o.label)]
            matches += [m for m in named if m not in matches]
            matches.sort(key=lambda m: m[0])
            if not matches and len(typed) == 1:  # any other word of a label, where nothing else fits ("random")
                matches = [(i, o) for i, o in numbered if _names(typed, o.label, capitalised=False)]
        if lowered and len({o.key for _, o in matches}) == 1:
            return matches[0][1].key
        valid = _menu(numbered)  # named as the menu shows them, never by their inner keys
        if lowered and len(matches) > 1:
            # whole, its aside too: "4 (Espen Lind)" beside "1 (Play Espen Lind)" hid that 4 is the roster's (a review)
            could = ", ".join(f"{i} ({_whole(o)})" for i, o in matches)
            raise QuestionError(f"{_shown(text)} could be {could}. Answer with one of: {valid}.")
        if not text:  # worded as a wrong answer is: what was given, then the answers there are
            raise QuestionError(f"Enter alone is not an answer here. Answer with one of: {valid}.")
        gone = self.context.get("gone") or {}  # a number an earlier menu of the question showed, and why it is not here
        if number in gone:
            raise QuestionError(f"{text} ({gone[number]}) is not on offer now. Answer with one of: {valid}.")
        raise QuestionError(f"{_shown(text)} is not an answer here. Answer with one of: {valid}.")


    def menu_answer(self, key: str) -> str:
        """What to type for option ``key`` at this menu: its number as the menu shows it.

        Scripts written for people (``solo simulate``'s replays) use it, so every line matches
        what the player sees. Where that number would mean another option (an option whose key
        is that number), the key itself; free text, or a key that is no option, as it is.
        """
        for i, o in self.numbered():
            if o.key == key:
                number = str(i)
                return number if self.resolve(number) == key else key
        return key


def asked(kind: str, prompt: str, options: tuple[Option, ...], actor: str | None, context: dict[str, Any],
          default: str | None = None) -> Question:
    """``Question(kind, prompt, options, actor=actor, context=context, default=default)``, made without the frozen
    dataclass's ``__init__`` (a call of ``object.__setattr__`` a field): the same fields, in their order, so an
    equal question. A conflict asks one at every declaration of every decider, and that ``__init__`` cost more
    than many a bot's answer. Question has no ``__post_init__`` for this to skip (a test holds both to it)."""
    q = _new(Question)
    q.__dict__.update(kind=kind, prompt=prompt, options=options, actor=actor, context=context, default=default,
                      limit=None)
    return q


_new = object.__new__


def _starts_words(typed: list[str], words: list[str]) -> bool:
    """Each typed word starts the label's word in the same place: ["som", "l"] fits "somewhat likely"."""
    return len(typed) <= len(words) and all(w.startswith(t) for t, w in zip(typed, words, strict=False))


def _names(typed: list[str], label: str, *, capitalised: bool = True) -> bool:
    """Whether the typed words start, in order, words of ``label`` from one that begins a name (a capitalised word;
    with ``capitalised`` False, any word): "espen" and "espen lind" name "Play Espen Lind"; "cha" names no
    "character"."""
    words = [w.strip("()[]:,.;!?'\"") for w in label.split()]
    return any((words[i][:1].isupper() or not capitalised) and len(words) - i >= len(typed)
               and all(w.lower().startswith(t) for t, w in zip(typed, words[i:], strict=False))
               for i in range(len(words)))


def _label(option: Option) -> str:
    """An option's words, short, for a message naming it next to its number: its words before any aside in
    brackets ("Search the desk (Awareness //Search)" cut at 30 read "2 (Search the desk (Awareness //…)", a
    bracket left open inside the number's own)."""
    flat = " ".join(option.label.split())
    words = flat.split(" (", 1)[0] or flat
    return words if len(words) <= 30 else words[:29].rstrip() + "…"


def _whole(option: Option) -> str:
    """An option's words whole, its aside in brackets too ("Espen Lind (your roster)"), cut at 50."""
    flat = " ".join(option.label.split())
    return flat if len(flat) <= 50 else flat[:49].rstrip() + "…"


def _menu(numbered: list[tuple[int, Option]]) -> str:
    """The answers a menu takes, as the player sees them: "1 (Ask the oracle), 2 (Meet someone)".

    A long menu is cut in the middle so the message stays a line or two; its last number still shows
    how far the numbers go.
    """
    shown = [f"{i} ({_label(o)})" if o.label.strip() and o.label.strip() != str(i) else str(i)
             for i, o in numbered]
    # cut only where naming them all would not fit a line or two: "… 7 (Patron), …, 10 (Teacher)" hid Ward and
    # Neighbour, short names that fitted (a new player); an "…" standing for one option would hide it for nothing
    if len(shown) > MENU_SHOWN + 1 and len(", ".join(shown)) > MENU_CHARS:
        shown = [*shown[:MENU_SHOWN - 1], "…", shown[-1]]
    return ", ".join(shown)


MENU_SHOWN = 8  # options named in an error message before the rest become "…", where they do not all fit
MENU_CHARS = 240  # what every option's name may take in one, before the cut


def answers_from_record(decider: object) -> bool:
    """Whether ``decider`` answers its next question from a recorded log (a save being replayed), so nobody
    reads that question's menu. A decider that replays says so with ``upcoming()``: the kind of its next
    recorded answer, None once it is live; one without ``upcoming`` is always live."""
    upcoming = getattr(decider, "upcoming", None)
    return callable(upcoming) and upcoming() is not None


class Decider(Protocol):
    """Anything that answers questions: returns an option key (or free text)."""

    def decide(self, question: Question) -> str: ...


@dataclass(frozen=True)
class Kind:
    """One kind of question: what it asks and the context keys it may carry."""

    key: str
    meaning: str
    context: frozenset[str] = frozenset()


# -- asked by the conflict engine (context: the conflict's read-only view and the participant)
LENS = "lens"
CLEVER_FOLLOW_UP = "clever_follow_up"
FLAMBOYANT_SKILL = "flamboyant_skill"
QUICK_ACTION = "quick_action"
LUCK_FLIP = "luck_flip"
TARGET = "target"
DAMAGE_POOL = "damage_pool"
LUCK_REDUCE = "luck_reduce"
PUSH = "push"
EXIT_OFFER = "exit_offer"

_IN_CONFLICT = frozenset({"conflict", "participant"})
_IN_GAME = frozenset({"game"})

#: Kinds asked since saves were first made, with the answer that is what the game did before it asked
#: (None: the question's default; ``lineup``: everyone takes part; ``end_story``: the story ended, though
#: its default now plays on while a thread is open; ``pronoun``: asked of a random character too, its default
#: the pronoun the dice drew, where a character made question by question has none to fall back on).
#: Replaying an older save, a question of one of these kinds that the save's log does not hold is answered
#: so (one with no such answer never is), and the log goes on with its next answer.
#: The menus whose options are people, answered by a name in their label as well ("espen" for "Play Espen Lind").
BY_NAME = frozenset({"pc_source", "who"})
DEFAULTED_IN_OLD_SAVES: dict[str, str | None] = {"lineup": None, EXIT_OFFER: None, "end_story": "end",
                                                 "pronoun": None}
#: Kinds an older save may hold where the game no longer asks (``damage_pool`` against a mindless foe, since a side
#: Pool needs a mind: docs/rulings.md): replaying it, such an answer is passed over when the game asks another kind.
ASKED_NO_MORE: frozenset[str] = frozenset({"damage_pool"})

#: Every question kind solo asks, by key.
KINDS: dict[str, Kind] = {k.key: k for k in (
    Kind(LENS, "this round's Lens, or an exit (flee, surrender)", _IN_CONFLICT | {"earlier"}),
    Kind(CLEVER_FOLLOW_UP, "the round after Clever: +20 % to the roll or damage twice, or an exit", _IN_CONFLICT),
    Kind(FLAMBOYANT_SKILL, "the skill a Flamboyant participant rolls instead of the conflict's", _IN_CONFLICT),
    Kind(QUICK_ACTION, "Quick's extra action: leave, switch weapon, use an item or get ready", _IN_CONFLICT),
    Kind(LUCK_FLIP, "spend a Luck Point to swap the digits of a d100 roll",
         _IN_CONFLICT | {"roll", "flipped", "outcomes"} | _IN_GAME),
    Kind(TARGET, "whom the round's winner strikes when several foes are still in", _IN_CONFLICT),
    Kind(DAMAGE_POOL, "the Pool a Covert or Flamboyant blow hits: the conflict's or the side Pool", _IN_CONFLICT),
    Kind(LUCK_REDUCE, "spend a Luck Point to take 1 damage instead of the blow (a conflict's or a scene's)",
         _IN_CONFLICT | {"damage"} | _IN_GAME),
    Kind(PUSH, "a spent Pool: push on below zero, spend Luck to get back to 1, or go down (or stop at 0 "
               "outside a conflict)", _IN_CONFLICT | {"pool", "maximum"} | _IN_GAME),
    Kind(EXIT_OFFER, "an NPC opponent yields or runs: accept or refuse its surrender (it fights on), let it go or "
                     "give chase (call it back, in an argument: it must make a Move roll to get away)",
         _IN_CONFLICT | {"npc", "exit"}),
    # -- asked by the game (context: the game)
    Kind("choice", "which of a scene's choices to take", _IN_GAME | {"scene"}),
    Kind("who", "which character of the party acts (rolls, or drives a conflict's vehicle)", _IN_GAME),
    Kind("lineup", "a party's conflict: everyone takes part, or each PC says what they do", _IN_GAME),
    Kind("part", "one PC's part in a party's conflict: take part, assist or sit out", _IN_GAME),
    Kind("assist", "which participant an assisting PC helps", _IN_GAME),
    Kind("escalate", "a lost opposed roll: turn it into an Extended Conflict", _IN_GAME),
    Kind("willpower_acted", "at a session's end: did the character act by their Willpower Focuses", _IN_GAME),
    Kind("improve", "spend an improvement roll now, or keep it (gone: the numbers of earlier menus not on this one, "
                    "and why; aliases: a skill's name for its option)", _IN_GAME | {"gone", "aliases"}),
    Kind("party_size", "how many players are at the table", _IN_GAME),
    Kind("luck_spend", "at a prompt, 'luck contact' or 'luck find': spend the Luck Point (yes) or keep it (no)"),
    Kind("end_story", "open play's 'End the story here': end it now (the epilogue follows) or play on", _IN_GAME),
    Kind("player", "a player's name (free text, with at least one letter)"),
    Kind("pc_source", "a player's character: the ready-made one, a new one, a random one or one from the roster",
         _IN_GAME),
    # -- asked in open play (context: the game)
    Kind("scene_expectation", "at a scene's start in open play: what the players expect of it (free text)"),
    Kind("meet", "whom the characters meet: someone met before, someone tied to a thread, or a stranger", _IN_GAME),
    Kind("stakes", "what an open-play conflict is about (free text)"),
    Kind("round_limit", "how many rounds an open-play conflict may run before it ends in a stalemate", _IN_GAME),
    Kind("open_action", "what happens next in a story without a written adventure", _IN_GAME),
    Kind("oracle_question", "a yes-or-no question for the oracle (free text)"),
    Kind("likelihood", "how likely the oracle's yes is", _IN_GAME),
    Kind("npc_level", "how capable a newly met character is", _IN_GAME),
    Kind("difficulty", "how hard a roll or an obstacle is", _IN_GAME),
    Kind("conflict_type", "the kind of Extended Conflict to start", _IN_GAME),
    Kind("opponent", "whom the conflict is against", _IN_GAME),
    Kind("note_text", "a line for the journal (free text)"),
    Kind("control", "at a scene's end: were the characters in control (the oracle's tension)", _IN_GAME),
    # -- asked while making a character (in open play also: skill and focus for a roll, with the game)
    Kind("name", "the new character's name (free text, with at least one letter)"),
    Kind("pronoun", "how the story refers to the character"),
    Kind("method", "how to build the character: by career, skill by skill, or at random"),
    Kind("career", "the character's career"),
    Kind("skill", "a skill: the next one to rank, or the one to roll", _IN_GAME),
    Kind("focus", "a Focus for a skill (or none)", _IN_GAME),
    Kind("tag", "a Tag for the character"),
    Kind("pools", "the conflict Pools: assign the standard values or roll them"),
    Kind("pool", "which Pool gets the next value"),
    Kind("willpower", "the Willpower Focuses: roll them or choose them"),
    Kind("person", "the Person of the Willpower Focuses"),
    Kind("verb", "what the character does about their Person or Circle"),
    Kind("circle", "the Circle of the Willpower Focuses"),
)}

