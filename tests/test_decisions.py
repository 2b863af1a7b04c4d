"""The decision interface: every question solo asks is catalogued, and answers are normalised in one place."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest
from conftest import make_char

import solo
from solo import decisions
from solo.decisions import KINDS, Option, Question, QuestionError
from solo.minds.bots import RandomDecider
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.conflict_view import ConflictView
from solo.rules.creation import pregenerated
from solo.rules.participants import from_character
from solo.story.format.library import find_adventure
from solo.story.format.loader import load_adventure
from solo.story.play.engine import Game
from solo.story.play.open_play import OpenGame

PACKAGE = Path(solo.__file__).parent
ASKERS = {"Question", "ask", "_ask", "ask_name_apart"}  # the calls that put a question: its kind is the first literal
# argument among their first two
#: A call of one of them names it as a whole word in the source (an identifier cannot be split): a file without
#: any is parsed for nothing (most of solo's 160 files; parsing them all took 1.3 s of this test's 1.5).
NAMES_AN_ASKER = re.compile(r"\b(?:" + "|".join(sorted(ASKERS)) + r")\b")


def _asked_kinds() -> dict[str, list[str]]:
    """Every question kind written in solo's source, with where it is asked."""
    found: dict[str, list[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        if not NAMES_AN_ASKER.search(source):
            continue
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name not in ASKERS:
                continue
            for arg in node.args[:2]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    kind = arg.value
                elif isinstance(arg, ast.Name) and arg.id.isupper() and hasattr(decisions, arg.id):
                    kind = getattr(decisions, arg.id)
                else:
                    continue
                found.setdefault(kind, []).append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
                break
    return found


def test_every_question_in_the_source_has_a_catalogued_kind_and_every_kind_is_asked():
    asked = _asked_kinds()
    unknown = {k: where for k, where in asked.items() if k not in KINDS}
    assert not unknown, f"question kinds missing from solo.decisions.KINDS: {unknown}"
    assert set(KINDS) == set(asked), f"catalogued but never asked: {sorted(set(KINDS) - set(asked))}"
    for key, kind in KINDS.items():
        assert kind.key == key and kind.meaning


class Recording:
    """A random player that checks each question against the catalogue before answering it."""

    def __init__(self, rng: random.Random):
        self.inner = RandomDecider(rng)
        self.seen: set[str] = set()

    def decide(self, question: Question) -> str:
        kind = KINDS.get(question.kind)
        assert kind is not None, f"uncatalogued question kind {question.kind!r}"
        extra = set(question.context) - kind.context
        assert not extra, f"{question.kind} carries context keys the catalogue does not list: {extra}"
        conflict = question.context.get("conflict")
        assert conflict is None or isinstance(conflict, ConflictView)  # minds never get the live engine
        self.seen.add(question.kind)
        return self.inner.decide(question)


def test_conflicts_ask_only_catalogued_questions_with_their_context():
    combat = conflict_type("combat")
    seen: set[str] = set()
    for seed in range(40):
        hero = make_char("Hero", Combat=60, Cunning=50, Move=50, pools=6, luck=3)
        hero.items = ["Axe", "Rope"]
        minds = [Recording(random.Random(seed)), Recording(random.Random(-seed))]
        foes = [make_char(f"Foe {i}", level="master", Combat=55, pools=5) for i in (1, 2)]
        participants = [from_character(hero, "a", combat, decider=minds[0], luck_allowed=True)]
        participants += [from_character(f, "b", combat, decider=minds[1] if i == 0 else None)
                         for i, f in enumerate(foes)]
        Conflict(combat, participants, random.Random(seed), round_limit=15).run()
        seen |= minds[0].seen | minds[1].seen
    assert {decisions.LENS, decisions.TARGET, decisions.PUSH, decisions.LUCK_FLIP, decisions.QUICK_ACTION,
            decisions.FLAMBOYANT_SKILL, decisions.DAMAGE_POOL, decisions.CLEVER_FOLLOW_UP} <= seen, seen


def test_games_ask_only_catalogued_questions_with_their_context():
    adventure = load_adventure(find_adventure("tutorial"))
    seen: set[str] = set()
    for seed in range(6):
        player = Recording(random.Random(seed))
        Game(adventure, seed=seed, decider=player, party=[pregenerated("espen")]).play()
        seen |= player.seen
        player = Recording(random.Random(seed))
        OpenGame(seed=seed, decider=player, party=[pregenerated("espen")]).play()
        seen |= player.seen
    assert {"choice", "lens", "open_action"} <= seen, seen


def test_resolve_takes_keys_numbers_labels_and_unique_prefixes():
    q = Question("lens", "choose", (Option("aggressive", "Aggressive"), Option("cautious", "Cautious")))
    assert q.resolve("aggressive") == "aggressive"
    assert q.resolve(" 2 ") == "cautious"
    assert q.resolve("Caut") == "cautious"
    with pytest.raises(QuestionError, match=r"1 \(Aggressive\)"):
        q.resolve("x")
    free = Question("name", "Your name?", default="Bot")
    assert free.resolve("  Ada ") == "Ada" and free.resolve("") == "Bot"


def test_a_wrong_answer_names_every_option_unless_the_cut_hides_two_or_more():
    """Before: a Lens menu of nine answered "1 (No Lens), … 7 (Quick), …, 9 (Surrender)": the "…" hid Flee alone."""
    def message(n: int) -> str:
        q = Question("choice", "pick", tuple(Option(f"k{i}", f"Option {i}") for i in range(1, n + 1)))
        with pytest.raises(QuestionError) as wrong:
            q.resolve("banana")
        return str(wrong.value)

    nine = message(decisions.MENU_SHOWN + 1)
    assert "…" not in nine and all(f"{i} (Option {i})" in nine for i in range(1, 10))
    # a new player's Willpower person: ten short answers, every one named (Ward and Neighbour had been the "…")
    twelve = message(12)
    assert "…" not in twelve and "8 (Option 8), 9 (Option 9), 10 (Option 10), 11 (Option 11)" in twelve
    many = message(40)  # names that do not fit a line or two are cut, the last still showing how far they go
    assert "7 (Option 7), …, 40 (Option 40)" in many and "8 (Option 8)" not in many


def test_an_answer_may_give_the_first_letters_of_each_word():
    """Issue 31, point 7: "som l" is Somewhat Likely, "s u" Somewhat Unlikely; a start that fits two still asks."""
    from solo.decisions import Option, Question, QuestionError

    q = Question("likelihood", "How likely?", tuple(Option(k, k.title()) for k in
                                                   ("unlikely", "somewhat unlikely", "somewhat likely", "likely")))
    assert q.resolve("som l") == "somewhat likely"
    assert q.resolve("s u") == "somewhat unlikely"
    assert q.resolve("somewhat li") == "somewhat likely"
    with pytest.raises(QuestionError, match="could be"):
        q.resolve("som")


def test_an_answer_may_be_a_word_of_one_options_label():
    """A new player typed "espen" at "1. Play Espen Lind" and was told it was no answer: a word of three letters or
    more that starts a word of one option's label picks it; one that fits two still asks, a letter or two never."""
    from solo.decisions import Option, Question, QuestionError

    q = Question("pc_source", "Who will you play?", (Option("pregen", "Play Espen Lind", number=1),
                                                     Option("new", "Make a new character", number=2),
                                                     Option("random", "A random character", number=3)))
    assert q.resolve("espen") == q.resolve("Lind") == "pregen"
    with pytest.raises(QuestionError, match="could be 2 .*, 3 "):
        q.resolve("character")
    with pytest.raises(QuestionError, match="is not an answer here"):
        q.resolve("li")
    # only where the options are people: at the push question "back" would have spent a Luck Point (the review)
    push = Question("push", "Your BODY is spent.", (Option("push_on", "Push on at -1", number=1),
                                                    Option("luck", "Spend a Luck Point: back to 1", number=2),
                                                    Option("out", "Go down", number=3)))
    with pytest.raises(QuestionError, match="is not an answer here"):
        push.resolve("back")
    # a player's run: with the ready-made Espen played before, "espen" began the roster copy's key (espen_lind) and
    # picked it without a word, though it names the ready-made one too; now it asks which
    again = Question("pc_source", "Who will you play?", (Option("pregen", "Play Espen Lind", number=1),
                                                         Option("new", "Make a new character", number=2),
                                                         Option("espen_lind", "Espen Lind (your roster)", number=4)))
    for typed in ("espen", "espen lind", "esp l", "lind"):  # (a name whole, too: the review)
        with pytest.raises(QuestionError, match=r"could be 1 \(Play Espen Lind\), 4 \(Espen Lind \(your roster\)\)"):
            again.resolve(typed)
    # a name is a capitalised word: "cha" is Charlotte's, and no word of "Make a new character" (the review)
    roster = Question("pc_source", "Who will you play?", (Option("new", "Make a new character", number=2),
                                                          Option("random", "A random character", number=3),
                                                          Option("charlotte", "Charlotte Dahl", number=4)))
    assert roster.resolve("cha") == roster.resolve("char") == "charlotte"
    assert again.resolve("espen_lind") == "espen_lind" and again.resolve("4") == "espen_lind"


def test_a_question_asked_quickly_is_the_question_made():
    """decisions.asked (the engine's way to make its questions, without the frozen dataclass's __init__) gives
    the question Question(...) gives: equal, the same fields in the same order; and Question has no
    __post_init__ for it to skip."""
    from solo.decisions import Option, Question, asked

    options = (Option("a", "A"), Option("b", "B", "detail"))
    context = {"conflict": None, "participant": None, "earlier": {}}
    made = Question("lens", "choose a Lens", options, actor="Tove", context=context, default="a")
    quick = asked("lens", "choose a Lens", options, "Tove", context, "a")
    assert quick == made and type(quick) is Question
    assert list(vars(quick).items()) == list(vars(made).items())
    assert asked("push", "now?", options, None, context) == Question("push", "now?", options, context=context)
    assert not hasattr(Question, "__post_init__")


@pytest.mark.parametrize("kind", ["name", "player"])
def test_a_name_needs_a_letter_other_free_text_does_not(kind):
    q = Question(kind, "What is your character's name?", limit=100)
    for typed in ("1", " 42 ", "2.", "-", "3)"):
        with pytest.raises(QuestionError, match="is not a name"):
            q.resolve(typed)
    for name in ("Asta", "Ragnhild 2", "Åsa", "O'Neill", "吉田"):
        assert q.resolve(name) == name
    assert Question("note_text", "A note?").resolve("1") == "1"  # a note, a stake or an oracle question may be a number


def test_the_first_letters_of_a_word_an_option_answers_to_pick_it_where_they_fit_one():
    """A player's Kaldskard: at "Improve Cunning", "cunning" was an answer and "cun" was not, though a menu takes
    the first letters of its words everywhere else."""
    from solo.story.play.epilogue import epilogue

    asked: list[Question] = []

    class Typist:  # a player typing the first letters, as at the keyboard: resolved by the real menu
        def __init__(self, typed):
            self.typed = list(typed)

        def decide(self, question):
            if question.kind == "improve":
                asked.append(question)
                return question.resolve(self.typed.pop(0)) if self.typed else "keep"
            return question.default if question.default in question.keys() else question.keys()[-1]

    from solo.rules.creation import pregenerated
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure
    from solo.story.play.engine import Game

    espen = pregenerated("espen")
    espen.improvement_rolls = 2
    game = Game(load_adventure(find_adventure("tutorial")), seed=1, decider=Typist(["cun", "comb"]), party=[espen])
    game.state.party = [espen]  # (as the game's start puts the party in)
    [pc] = game.state.pcs
    before = dict(pc.skills)
    epilogue(game)
    assert pc.skills["Cunning"] > before["Cunning"] and pc.skills["Combat"] > before["Combat"]
    with pytest.raises(QuestionError, match="is not an answer here"):
        asked[0].resolve("co")  # two letters are too few to be a word's beginning
