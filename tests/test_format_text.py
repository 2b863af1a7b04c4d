"""Conditional text, {if COND}…{else}…{end}: parsed once, picked by the game's state, bounded, checked."""

from __future__ import annotations

import pytest

from solo.story.format.expressions import Context
from solo.story.format.text import MAX_TEXT_DEPTH, TextError, blocks_of, fill, parse_text, pick


def ctx(**names):
    return Context(names=lambda n: names.get(n, False))


def test_if_else_picks_by_the_condition():
    text = "You {if cloak}wear the cloak{else}are cold{end}."
    assert pick(text, ctx(cloak=True)) == "You wear the cloak."
    assert pick(text, ctx(cloak=False)) == "You are cold."


def test_without_else_a_false_block_says_nothing():
    assert pick("A{if lamp} lit{end} room.", ctx()) == "A room."
    assert pick("A{if lamp} lit{end} room.", ctx(lamp=True)) == "A lit room."


def test_blocks_nest_and_read_the_condition_language():
    text = "{if score >= 2}{if not lost}best{else}good{end}{else}poor{end}"
    assert pick(text, ctx(score=3)) == "best"
    assert pick(text, ctx(score=3, lost=True)) == "good"
    assert pick(text, ctx(score=1)) == "poor"


def test_a_condition_may_hold_quotes_and_braces_in_strings():
    seen = []
    context = Context(functions={"has": lambda item: seen.append(item) or item == "a}b"})
    assert pick('{if has("a}b")}yes{else}no{end}', context) == "yes"
    assert seen == ["a}b"]


def test_slots_stay_for_fill_and_fill_picks_when_given_a_context():
    text = "{if cloak}{pc} wears it{else}{pc} shivers{end}, score {counter.score}."
    assert pick(text, ctx(cloak=True)) == "{pc} wears it, score {counter.score}."
    assert fill(text, {"pc": "Ada", "counter.score": 2}, ctx()) == "Ada shivers, score 2."


def test_an_unset_counter_slot_prints_zero():
    # the docs say so (docs/adventures.md, text slots): a counter never set reads 0, in text as in conditions
    assert fill("Score: {counter.never_set}.", {}) == "Score: 0."


def test_literal_braces_are_not_blocks():
    assert pick("{{if x}} stays", ctx(x=True)) == "{{if x}} stays"
    assert fill("{{if x}}", {}, ctx(x=True)) == "{if x}"


def test_a_tag_alone_on_its_line_takes_its_line_with_it():
    text = "First.\n{if cloak}\nDark.\n{else}\nLight.\n{end}\nLast."
    assert pick(text, ctx(cloak=True)) == "First.\nDark.\nLast."
    assert pick(text, ctx()) == "First.\nLight.\nLast."


def test_a_tag_sharing_its_line_keeps_the_line_break():
    assert pick("a {if x}b{end}\nc", ctx(x=True)) == "a b\nc"


@pytest.mark.parametrize("text, fragment, code", [
    ("{if x}open", "never closed with {end}", "E008"),
    ("text{end}", "{end} without an {if}", "E008"),
    ("{else}", "{else} without an {if}", "E008"),
    ("{if x}a{else}b{else}c{end}", "a second {else}", "E008"),
    ("{if x and}a{end}", "bad condition", "E004"),
    ("{if nope(1)}a{end}", "unknown function", "E004"),
    ("a { b", "never closed", "E008"),
    ("a } b", "without '{'", "E008"),
])
def test_broken_blocks_are_errors_that_say_what_and_where(text, fragment, code):
    with pytest.raises(TextError) as info:
        parse_text(text)
    assert fragment in info.value.message
    assert info.value.code == code
    assert 0 <= info.value.offset < len(text)


def test_nesting_is_bounded():
    fine = "{if a}" * MAX_TEXT_DEPTH + "x" + "{end}" * MAX_TEXT_DEPTH
    assert len(list(blocks_of(parse_text(fine)))) == MAX_TEXT_DEPTH
    deep = "{if a}" * (MAX_TEXT_DEPTH + 1) + "x" + "{end}" * (MAX_TEXT_DEPTH + 1)
    with pytest.raises(TextError, match="nest deeper"):
        parse_text(deep)


def test_a_broken_text_shows_as_written_rather_than_crash():
    assert pick("{if x}never closed", ctx(x=True)) == "{if x}never closed"


def test_a_long_hostile_text_parses_in_bounded_time():
    text = "{{" * 50_000 + "{if a}" + "x" * 100_000 + "{end}"
    assert pick(text, ctx(a=True)).endswith("x" * 10)


def test_a_backslash_in_a_condition_string_is_read_as_the_condition_reads_it():
    # has("a\\") is the string a\ ; the scanner must skip the escaped backslash, not the quote after it
    seen = []
    context = Context(functions={"has": lambda item: seen.append(item) or True})
    assert pick('{if has("a\\\\")}ok{end}', context) == "ok"
    assert seen == ["a\\"]
    assert pick('{if has("\\"}")}ok{end}', context) == "ok" and seen[-1] == '"}'


@pytest.mark.parametrize("text", ["{if}x{end}", "{if }x{end}", "{ if}x{end}"])
def test_an_if_without_a_condition_is_reported_at_the_if(text):
    with pytest.raises(TextError) as info:
        parse_text(text)
    assert info.value.message.startswith("{if} needs a condition")
    assert info.value.offset == 0


def test_spaces_inside_the_if_tag_are_allowed_as_for_end():
    assert pick("{ if lamp}lit{ else }dark{ end }", ctx(lamp=True)) == "lit"
    assert pick("{ifx} stays a slot", ctx()) == "{ifx} stays a slot"


def test_shown_without_a_game_reads_the_if_side_of_every_block():
    from solo.story.format.text import shown

    text = "{if lamp}The lit hall{else}The dark hall{end}{if a}{if b}!{else}?{end}{end}"
    assert shown(text) == "The lit hall!"
    assert shown(text, ctx()) == "The dark hall"
    assert shown("{if x}broken") == "{if x}broken"


def test_a_counter_in_words_for_prose():
    """Issue 31, point 7: "two pieces of proof", not "2 pieces of proof"."""
    from solo.story.format.text import fill, number_words

    assert fill("{words.evidence} pieces of proof", {"counter.evidence": 2}) == "two pieces of proof"
    assert fill("{words.clues} of them", {}) == "zero of them"
    assert [number_words(n) for n in (0, 1, 12, 20, 21, -1)] == ["zero", "one", "twelve", "twenty", "21", "-1"]
