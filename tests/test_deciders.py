"""The decision interface (Question), scripted and bot deciders, and creation by questions."""

from __future__ import annotations

import pytest

from solo.decisions import Option, Question, QuestionError
from solo.errors import SoloError
from solo.minds.bots import FirstDecider, RandomDecider
from solo.minds.scripted import ScriptedDecider, ScriptError, ScriptExhausted
from solo.rules.creation import creation_problems
from solo.rules.dice import new_rng
from solo.rules.rulebook import POOLS, rules
from solo.story.play.creation import create_character

LENS = Question(
    "lens", "Which Lens?",
    (Option("aggressive", "Aggressive", "-20 %, damage twice"), Option("cautious", "Cautious"),
     Option("clever", "Clever"), Option("covert", "Covert"), Option("quick", "Quick, but careless")),
)


# -- Question.resolve ----------------------------------------------------------

@pytest.mark.parametrize(
    "answer, key",
    [("aggressive", "aggressive"), ("AGGRESSIVE", "aggressive"), ("  cautious  ", "cautious"),
     ("1", "aggressive"), ("5", "quick"), ("3", "clever"), ("ag", "aggressive"), ("caut", "cautious"),
     ("cle", "clever"), ("cov", "covert"), ("q", "quick"), ("Quick, but careless", "quick"),
     ("quick, but", "quick")],
)
def test_resolve_key_number_label_prefix(answer, key):
    assert LENS.resolve(answer) == key


@pytest.mark.parametrize("answer, words", [
    ("c", ["could be", "2 (Cautious)", "3 (Clever)", "4 (Covert)"]),
    ("0", ["not an answer"]),
    ("6", ["not an answer"]),
    ("-1", ["not an answer"]),
    ("berserk", ["not an answer"]),
    ("", ["Enter alone is not an answer here. Answer with one of"]),
    ("   ", ["Enter alone is not an answer here. Answer with one of"]),
])
def test_resolve_errors_list_the_valid_answers(answer, words):
    with pytest.raises(QuestionError) as info:
        LENS.resolve(answer)
    text = str(info.value)
    for word in words:
        assert word in text
    assert "1 (Aggressive)" in text and "5 (Quick, but careless)" in text  # the labels the player sees
    assert isinstance(info.value, ValueError)


def test_a_longer_prefix_settles_an_ambiguous_one():
    assert LENS.resolve("co") == "covert"
    assert LENS.resolve("ca") == "cautious"
    assert LENS.resolve("cl") == "clever"


def test_resolve_default_on_empty_answer():
    q = Question("lens", "Which Lens?", LENS.options, default="clever")
    assert q.resolve("") == "clever"
    assert q.resolve("   ") == "clever"
    assert q.resolve(None) == "clever"
    assert q.resolve("1") == "aggressive"


def test_numbers_come_before_prefixes_and_keys_before_numbers():
    q = Question("n", "?", (Option("10", "ten"), Option("1", "one"), Option("2", "two")))
    assert q.resolve("1") == "1"  # the key wins over the option numbered 1
    assert q.resolve("3") == "2"  # the third option
    assert q.resolve("ten") == "10"


def test_label_and_key_prefixes_of_one_option_are_not_ambiguous():
    q = Question("x", "?", (Option("north", "North gate"), Option("south", "South gate")))
    assert q.resolve("n") == "north"
    assert q.resolve("north g") == "north"


def test_free_text_questions():
    q = Question("name", "Name?")
    assert q.free_text and q.keys() == []
    assert q.resolve("  Nora Berg ") == "Nora Berg"
    with pytest.raises(QuestionError, match="type an answer"):
        q.resolve("   ")
    assert Question("name", "Name?", default="Nobody").resolve("") == "Nobody"


def test_question_helpers():
    assert LENS.keys() == ["aggressive", "cautious", "clever", "covert", "quick"]
    assert LENS.option("clever").label == "Clever"
    assert LENS.option("aggressive").detail == "-20 %, damage twice"
    with pytest.raises(KeyError):
        LENS.option("berserk")
    assert not LENS.free_text


# -- ScriptedDecider ----------------------------------------------------------------

def test_script_answers_in_order_skipping_comments_and_blanks():
    script = ScriptedDecider(["# a comment", "", "2", "   ", "  # indented comment", "quick"])
    assert script.remaining == 2
    assert script.decide(LENS) == "cautious"
    assert script.remaining == 1
    assert script.decide(LENS) == "quick"
    assert script.remaining == 0


def test_script_error_names_the_line():
    script = ScriptedDecider(["1", "# two", "", "berserk"], name="game.txt")
    script.decide(LENS)
    with pytest.raises(ScriptError) as info:
        script.decide(LENS)
    text = str(info.value)
    assert text.startswith("game.txt:4: ")
    assert "berserk" in text and "Which Lens?" in text
    assert isinstance(info.value, SoloError)


def test_script_exhausted():
    script = ScriptedDecider(["1", "# nothing more"])
    script.decide(LENS)
    with pytest.raises(ScriptExhausted) as info:
        script.decide(LENS)
    assert "Which Lens?" in str(info.value)
    assert isinstance(info.value, ScriptError)


def test_a_script_names_its_file_and_line(tmp_path):
    script = ScriptedDecider("# lens\nclever\nnope\n".splitlines(), name="answers.txt")
    assert script.decide(LENS) == "clever"
    with pytest.raises(ScriptError, match=r"answers\.txt:3:"):
        script.decide(LENS)


def test_script_keeps_free_text():
    assert ScriptedDecider(["  Nora Berg  "]).decide(Question("name", "Name?")) == "Nora Berg"


# -- bots ------------------------------------------------------------------------------

def test_random_decider_picks_every_option_and_only_options():
    bot = RandomDecider(new_rng(1))
    picks = {bot.decide(LENS) for _ in range(300)}
    assert picks == set(LENS.keys())
    assert bot.decide(Question("name", "Name?")) == "Bot"
    assert bot.decide(Question("name", "Name?", default="Ola")) == "Ola"


def test_first_decider():
    bot = FirstDecider()
    assert bot.decide(LENS) == "aggressive"
    assert bot.decide(Question("lens", "?", LENS.options, default="quick")) == "quick"
    assert bot.decide(Question("name", "Name?")) == "Bot"


# -- creation by questions ------------------------------------------------------------------

class Recorder:
    """Wraps a decider and keeps every question asked."""

    def __init__(self, inner):
        self.inner = inner
        self.questions: list[Question] = []
        self.answers: list[str] = []

    def decide(self, question):
        self.questions.append(question)
        answer = self.inner.decide(question)
        self.answers.append(answer)
        if not question.free_text:
            assert answer in question.keys(), (question.prompt, answer)
        return answer


PYRAMID_SCRIPT = """
# name, pronoun, method
Nora Berg
she
pyramid
# seven skills, top first
Awareness
Combat
cunning
Knowledge
1
Social
Willpower
# Focuses of the three top skills
Perception
Melee
stealth
# Tags
Contact
Pass
# Pools: assign 16, 14, 12; POW gets 10
assign
INT
CHA
BODY
# Willpower
choose
Sibling
Protect
University
Be Loyal to
""".splitlines()


def test_scripted_pyramid_character():
    script = ScriptedDecider(PYRAMID_SCRIPT)
    char = create_character(script, new_rng(1), player="Kari")
    assert script.remaining == 0
    assert char.name == "Nora Berg" and char.pronoun == "she" and char.player == "Kari"
    assert char.skills == {"Awareness": 50, "Combat": 30, "Cunning": 30, "Knowledge": 30, "Move": 30,
                           "Science": 5, "Social": 30, "Tech": 5, "Willpower": 30}
    assert char.focuses == {"Awareness//Perception": 20, "Combat//Melee": 20, "Cunning//Stealth": 20,
                            "Willpower//Person": 20, "Willpower//Circle": 20}
    assert char.tags == ["Contact", "Pass"]
    assert {p: char.pools[p].maximum for p in POOLS} == {"BODY": 12, "INT": 16, "POW": 10, "CHA": 14}
    assert char.willpower == {"person": {"who": "Sibling", "verb": "Protect"},
                              "circle": {"who": "University", "verb": "Be Loyal to"}}
    assert char.luck == 2
    assert creation_problems(char) == []


def test_scripted_pyramid_with_willpower_on_top_asks_for_a_spare_focus():
    lines = ["Ivar Holm", "he", "pyramid",
             "Willpower", "Social", "Combat", "Move", "Tech", "Science", "Awareness",
             "Influence", "Unarmed",
             "Social//Deceit",  # Willpower's Focus goes to another top skill
             "roll", "roll",
             "roll",  # Pools rolled 2d6+6
             "roll"]  # Willpower rolled
    recorder = Recorder(ScriptedDecider(lines))
    char = create_character(recorder, new_rng(7))
    assert char.skills["Willpower"] == 50
    assert {k for k in char.focuses if not k.startswith("Willpower//")} == {
        "Social//Influence", "Combat//Unarmed", "Social//Deceit"}
    spare = [q for q in recorder.questions if q.kind == "focus"][-1]
    assert "Social//Influence" not in spare.keys()  # already taken
    assert all(not k.startswith("Willpower//") for k in spare.keys())
    assert all(k.split("//")[0] in ("Social", "Combat") for k in spare.keys())
    assert all(8 <= char.pools[p].maximum <= 18 for p in POOLS)
    assert len(set(char.tags)) == 2
    assert creation_problems(char) == []


def test_scripted_career_character_pilot():
    lines = ["Runa Vik", "they", "career", "Pilot",
             "Move", "Social", "Awareness", "Combat",  # the four skills after the career's three
             "Tech//Mechanics",  # the spare Focus: Willpower has none to give
             "High Society",
             "assign", "BODY", "POW", "INT",
             "roll"]
    recorder = Recorder(ScriptedDecider(lines))
    char = create_character(recorder, new_rng(2))
    assert char.career == "Pilot"
    assert [char.skills[s] for s in ("Tech", "Willpower", "Science")] == [50, 30, 30]
    assert {k for k in char.focuses if not k.startswith("Willpower//")} == {
        "Tech//Pilot", "Science//Navigation", "Tech//Mechanics"}
    assert char.tags == ["Auspicious", "High Society"] and char.luck == 3
    assert {p: char.pools[p].maximum for p in POOLS} == {"BODY": 16, "INT": 12, "POW": 14, "CHA": 10}
    assert creation_problems(char) == []
    # no question ever offered an empty list of Focuses (which would become free text)
    assert all(q.options for q in recorder.questions if q.kind == "focus")


def test_scripted_career_character_detective():
    lines = ["Olav Dahl", "he", "career", "detective",
             "Cunning", "Move", "Knowledge", "Tech",
             "Melee",  # Combat's Focus
             "roll", "roll"]
    char = create_character(ScriptedDecider(lines), new_rng(3))
    assert char.career == "Detective"
    assert [char.skills[s] for s in ("Awareness", "Combat", "Social")] == [50, 30, 30]
    assert {k for k in char.focuses if not k.startswith("Willpower//")} == {
        "Awareness//Perception", "Combat//Melee", "Social//Influence"}
    assert char.tags == ["Secret Identity", "Headquarters"]
    assert creation_problems(char) == []


def test_scripted_random_method():
    char = create_character(ScriptedDecider(["Liv Lie", "she", "random"]), new_rng(4), player="P1")
    assert char.name == "Liv Lie" and char.pronoun == "she" and char.player == "P1"
    assert creation_problems(char) == []


def test_a_bad_script_line_stops_creation_with_its_number():
    lines = ["Nora", "she", "pyramid", "Awareness", "Awareness"]  # a skill cannot be ranked twice
    with pytest.raises(ScriptError, match=r"<script>:5: 'Awareness' is not an answer"):
        create_character(ScriptedDecider(lines), new_rng(1))


def test_a_short_script_is_exhausted():
    with pytest.raises(ScriptExhausted):
        create_character(ScriptedDecider(["Nora", "she", "pyramid", "Awareness"]), new_rng(1))


def test_scripted_creation_is_reproducible():
    a = create_character(ScriptedDecider(PYRAMID_SCRIPT), new_rng(1))
    b = create_character(ScriptedDecider(PYRAMID_SCRIPT), new_rng(1))
    assert a == b


@pytest.mark.parametrize("seed", range(1, 301))
def test_random_decider_always_makes_a_valid_character(seed):
    recorder = Recorder(RandomDecider(new_rng(seed)))
    char = create_character(recorder, new_rng(seed + 10_000))
    assert creation_problems(char) == []
    assert char.name == "Bot"
    for q in recorder.questions:
        assert q.kind == "name" or q.options, q.prompt  # only the name is free text
    if char.career:
        assert char.career in rules().careers


def test_random_decider_reaches_every_method_and_career():
    methods, careers = set(), set()
    for seed in range(1, 301):
        recorder = Recorder(RandomDecider(new_rng(seed)))
        char = create_character(recorder, new_rng(seed))
        methods.update(a for q, a in zip(recorder.questions, recorder.answers) if q.kind == "method")
        if char.career:
            careers.add(char.career)
    assert methods == {"career", "pyramid", "random"}
    assert careers == set(rules().careers)


def test_first_decider_makes_a_valid_character():
    char = create_character(FirstDecider(), new_rng(1))
    assert creation_problems(char) == []
    assert char.career == "Detective"


# -- what creation shows: the ranks so far, the chosen pronoun; a random character's pronoun ---------------

def test_each_skill_question_says_which_skills_already_took_the_higher_ranks():
    recorder = Recorder(ScriptedDecider(PYRAMID_SCRIPT))
    create_character(recorder, new_rng(1))
    asked = [q.prompt for q in recorder.questions if q.kind == "skill"]
    assert asked[0] == "Which skill gets 50 %? (1 of 7)"
    assert asked[1] == "Which skill gets 30 %? (2 of 7) So far: Awareness 50 %."
    assert asked[2] == "Which skill gets 30 %? (3 of 7) So far: Awareness 50 %, Combat 30 %."
    assert asked[6].endswith("So far: Awareness 50 %, Combat 30 %, Cunning 30 %, Knowledge 30 %, Move 30 %, "
                             "Social 30 %.")


def test_the_career_path_lists_the_careers_ranks_before_the_player_s_own():
    lines = ["Olav Dahl", "he", "career", "detective", "Cunning", "Move", "Knowledge", "Tech", "Melee", "roll", "roll"]
    recorder = Recorder(ScriptedDecider(lines))
    create_character(recorder, new_rng(3))
    first = next(q.prompt for q in recorder.questions if q.kind == "skill")
    assert first == "Which skill gets 30 %? (4 of 7) So far: Awareness 50 %, Combat 30 %, Social 30 %."


@pytest.mark.parametrize(("pronoun", "their"), [("she", "her"), ("he", "his"), ("they", "their")])
def test_the_willpower_questions_speak_of_the_character_by_the_pronoun_chosen(pronoun, their):
    lines = [line if line != "she" else pronoun for line in PYRAMID_SCRIPT]
    recorder = Recorder(ScriptedDecider(lines))
    create_character(recorder, new_rng(1))
    verbs = [q.prompt for q in recorder.questions if q.kind == "verb"]
    assert verbs == [f"What does Nora Berg do about {their} Sibling?",
                     f"What does Nora Berg do about {their} University?"]


class _Seat:
    """Answers "Who will you play?" with a random character and the pronoun question with ``pronoun`` (None:
    Enter, the drawn one); keeps every question."""

    def __init__(self, pronoun):
        self.pronoun = pronoun
        self.questions = []

    def decide(self, q):
        self.questions.append(q)
        if q.kind == "pc_source":
            return "random"
        if q.kind == "pronoun":
            return self.pronoun or q.default
        return q.default or q.keys()[0]


@pytest.mark.parametrize("pronoun", [None, "she", "he", "they"])
def test_a_random_character_s_player_is_asked_the_pronoun_with_the_drawn_one_kept_by_enter(pronoun):
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure
    from solo.story.play.engine import Game
    from solo.story.play.party import make_pc

    seat, events = _Seat(pronoun), []
    game = Game(load_adventure(find_adventure("kaldskard")), seed=4, decider=seat, sink=events.append)
    pc = make_pc(game)
    [asked] = [q for q in seat.questions if q.kind == "pronoun"]
    assert asked.prompt == f"How should the story refer to {pc.name}?"
    assert asked.default in ("she", "he", "they") and set(asked.keys()) == {"she", "he", "they"}
    assert pc.pronoun == (pronoun or asked.default)
    [card] = [e for e in events if e.kind == "new_character"]
    assert card.data["character"]["pronoun"] == pc.pronoun  # the card shown is the character as it plays


@pytest.mark.parametrize(("pronoun", "words"), [("she", "she/her"), ("he", "he/him"), ("they", "they/them")])
def test_the_sheet_and_the_creation_card_show_the_pronoun(pronoun, words):
    import io

    from rich.console import Console

    from solo.rules.creation import pregenerated
    from solo.ui.sheet import character_card

    char = pregenerated("espen")
    char.pronoun = pronoun
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(character_card(char))
    assert f"Espen Lind, Journalist \u00b7 {words}" in out.getvalue()


def test_solo_new_random_takes_a_pronoun_and_its_card_shows_it(tmp_path):
    from click.testing import CliRunner

    from solo.characters import load_character
    from solo.cli import cli

    out = tmp_path / "c.toml"
    result = CliRunner().invoke(cli, ["new", "--random", "--seed", "3", "--pronoun", "she", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert load_character(out).pronoun == "she" and "\u00b7 she/her" in result.output
    refused = CliRunner().invoke(cli, ["new", "--pronoun", "she"])
    assert refused.exit_code == 2 and "--pronoun" in refused.output


def test_an_old_save_without_the_random_character_s_pronoun_replays_with_the_drawn_one():
    from solo.saves import Replayer

    replay = Replayer([["a", "pc_source", "random"], ["a", "choice", "c1"]], live=None, on_meta=lambda e: None)
    assert replay.decide(Question("pc_source", "Who?", (Option("random", "A random character"),))) == "random"
    pronoun = Question("pronoun", "How?", (Option("she", "she/her"), Option("they", "they/them")), default="they")
    assert replay.decide(pronoun) == "they"
    assert replay.decide(Question("choice", "What?", (Option("c1", "Go"),))) == "c1"


def test_a_tag_the_dice_gave_is_said_in_the_question_that_follows():
    """A GM-less table's run: "Roll 1d12" went on to "Tag 2 of 2:" with no word of the Tag rolled; one saw it only as
    it left the list. The next question says what the dice gave: the second Tag's, or the Pools' after it."""
    lines = [line for line in PYRAMID_SCRIPT if line and not line.startswith("#")]
    at = lines.index("Contact")
    recorder = Recorder(ScriptedDecider(lines[:at] + ["roll", "roll"] + lines[at + 2:]))
    char = create_character(recorder, new_rng(1), player="Kari")
    first, second = char.tags
    prompts = [q.prompt for q in recorder.questions]
    assert f"The dice gave the Tag {first}. Tag 2 of 2:" in prompts
    assert any(p.startswith(f"The dice gave the Tag {second}. Conflict Pools:") for p in prompts), prompts
    assert creation_problems(char) == []
