"""Dice (docs/rules.md §1): notation, d100, exceptional, flip, seeded generator, keep-higher."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from fractions import Fraction

import pytest

from solo.rules.dice import (
    DiceError,
    DiceExpr,
    DiceRoll,
    d,
    d100,
    flip,
    is_exceptional,
    keep_higher_distribution,
    new_rng,
    parse,
    rng_from_state,
    rng_state,
    roll_keep_higher,
    two_digits,
)

FACES = range(1, 101)


# -- notation ---------------------------------------------------------------

@pytest.mark.parametrize(
    "text, terms, shown",
    [
        ("d100", [(1, 100, 1)], "1d100"),
        ("1d100", [(1, 100, 1)], "1d100"),
        ("d%", [(1, 100, 1)], "1d100"),
        ("D6", [(1, 6, 1)], "1d6"),
        ("3d6", [(3, 6, 1)], "3d6"),
        ("3d6+2", [(3, 6, 1), (2, 0, 1)], "3d6+2"),
        ("1d8-1", [(1, 8, 1), (1, 0, -1)], "1d8-1"),
        ("2d6 + 1d4 - 3", [(2, 6, 1), (1, 4, 1), (3, 0, -1)], "2d6+1d4-3"),
        ("  2d10  ", [(2, 10, 1)], "2d10"),
        ("-1d4+10", [(1, 4, -1), (10, 0, 1)], "-1d4+10"),
        ("5+1d6", [(5, 0, 1), (1, 6, 1)], "5+1d6"),
    ],
)
def test_parse_reads_terms_and_prints_canonically(text, terms, shown):
    expr = parse(text)
    assert [(t.count, t.sides, t.sign) for t in expr.terms] == terms
    assert str(expr) == shown
    assert parse(str(expr)) == expr  # the canonical text parses back to the same thing


@pytest.mark.parametrize(
    "text",
    ["", "   ", "3x6", "abc", "d", "3d", "d6+", "3d6+2x", "2d6 3", "3d6++2", "0d6", "1d0",
     "5", "5+3", "1001d6", "1d10001", "d6 d6", "3d6*2", "1.5d6"],
)
def test_parse_rejects_bad_expressions_with_dice_error(text):
    with pytest.raises(DiceError) as info:
        parse(text)
    assert isinstance(info.value, ValueError)  # callers may catch ValueError
    assert str(info.value)  # a message fit to show a user


def test_a_text_read_again_is_the_same_expression_and_a_bad_one_is_refused_again():
    """parse keeps what it read by text (solo/rules/dice.py): the kept expression is the one a fresh reading gives;
    a refused text is not kept, and anything but a text is read as before, unkept."""
    from solo.rules.dice import _parse

    for text in ("1d6", "3d6+2", "  2d10  ", "2d6 + 1d4 - 3", "d%", "1d6"):
        kept = parse(text)
        assert kept == _parse(text) and parse(text) is kept
        assert kept.total(random.Random(3)) == _parse(text).total(random.Random(3))
    for _ in range(2):
        with pytest.raises(DiceError, match="3x6"):
            parse("3x6")
    with pytest.raises(DiceError, match=r"^'7' has no dice"):
        parse("7")
    with pytest.raises(DiceError, match=r"^7 has no dice"):
        parse(7)  # type: ignore[arg-type]  # as before: the message quotes what it was given


def test_dice_error_messages_quote_the_input():
    with pytest.raises(DiceError, match="3x6"):
        parse("3x6")
    with pytest.raises(DiceError, match="no dice"):
        parse("7")


def test_is_d100_only_for_a_single_percentile_die():
    assert parse("d100").is_d100
    assert parse("d%").is_d100
    assert not parse("2d100").is_d100
    assert not parse("d100+1").is_d100
    assert not parse("d10").is_d100


# -- rolling ----------------------------------------------------------------

def test_roll_records_every_die_and_modifier():
    rng = new_rng(1)
    for _ in range(200):
        r = parse("3d6+2").roll(rng)
        assert isinstance(r, DiceRoll)
        assert len(r.dice) == 3
        assert all(1 <= x <= 6 for x in r.dice)
        assert r.modifier == 2
        assert r.total == sum(r.dice) + 2
        assert r.expression == "3d6+2"


def test_roll_applies_negative_terms():
    rng = new_rng(2)
    expr = parse("1d6-1d4-1")
    seen = set()
    for _ in range(500):
        r = expr.roll(rng)
        assert r.total == r.dice[0] - r.dice[1] - 1
        assert r.modifier == -1
        seen.add(r.total)
    assert seen == set(range(1 - 4 - 1, 6 - 1 - 1 + 1))


def test_roll_to_dict_is_json():
    r = parse("2d6+1").roll(new_rng(3))
    data = json.loads(json.dumps(r.to_dict()))
    assert data == {"expression": "2d6+1", "dice": list(r.dice), "signed": list(r.dice), "modifier": 1,
                    "total": r.total}
    taken = parse("1d6-1d4").roll(new_rng(3))  # a die taken away counts negative in "signed", as a face in "dice"
    assert taken.to_dict()["signed"] == [taken.dice[0], -taken.dice[1]] and sum(taken.signed()) == taken.total


def test_total_consumes_the_generator_like_roll():
    expr = parse("4d6-1d3+2")
    a, b = new_rng(9), new_rng(9)
    for _ in range(100):
        assert expr.total(a) == expr.roll(b).total
    assert a.random() == b.random()


def test_every_face_of_a_die_turns_up():
    rng = new_rng(4)
    assert {d(rng, 6) for _ in range(600)} == set(range(1, 7))
    assert {d100(rng) for _ in range(5000)} == set(FACES)


def test_d100_is_1_to_100():
    rng = new_rng(5)
    assert all(1 <= d100(rng) <= 100 for _ in range(2000))


# -- distributions (exact) -------------------------------------------------

def _brute_force(expr: DiceExpr) -> dict[int, Fraction]:
    ranges = []
    constant = 0
    for t in expr.terms:
        if t.sides:
            ranges += [[t.sign * f for f in range(1, t.sides + 1)]] * t.count
        else:
            constant += t.sign * t.count
    counts = Counter(sum(c) + constant for c in itertools.product(*ranges))
    n = sum(counts.values())
    return {k: Fraction(v, n) for k, v in counts.items()}


@pytest.mark.parametrize("text", ["1d6", "2d6", "3d6+2", "1d8-1", "2d4-1d6", "1d3+1d4+1d5", "-1d6+3", "d10"])
def test_distribution_is_exact(text):
    expr = parse(text)
    dist = expr.distribution()
    exact = _brute_force(expr)
    assert set(dist) == set(exact)
    for k, p in exact.items():
        assert dist[k] == pytest.approx(float(p), abs=1e-12)
    assert sum(dist.values()) == pytest.approx(1.0)


def test_2d6_plus_6_pool_distribution():
    dist = parse("2d6+6").distribution()
    assert min(dist) == 8 and max(dist) == 18
    assert dist[13] == pytest.approx(6 / 36)
    assert dist[8] == pytest.approx(1 / 36)


def test_d100_distribution_is_uniform():
    dist = parse("d100").distribution()
    assert sorted(dist) == list(FACES)
    assert all(p == pytest.approx(0.01) for p in dist.values())


def test_keep_higher_distribution_is_exact():
    for text in ("1d6", "1d8", "2d4", "1d3+1"):
        dist = parse(text).distribution()
        kept = keep_higher_distribution(dist)
        exact: dict[int, float] = {}
        for (a, pa), (b, pb) in itertools.product(dist.items(), repeat=2):
            exact[max(a, b)] = exact.get(max(a, b), 0.0) + pa * pb
        assert set(kept) == set(exact)
        for k in exact:
            assert kept[k] == pytest.approx(exact[k], abs=1e-12)
    # 1d6 keep higher: P(6) = 11/36, P(1) = 1/36
    kept = keep_higher_distribution(parse("1d6").distribution())
    assert kept[6] == pytest.approx(11 / 36)
    assert kept[1] == pytest.approx(1 / 36)


def test_roll_keep_higher_keeps_the_higher_and_shows_both(loaded):
    expr = parse("1d6")
    # every pair of faces once: the kept totals fall exactly as the distribution says
    kept_counts = Counter()
    for x, y in itertools.product(range(1, 7), repeat=2):
        kept, first, second = roll_keep_higher(expr, loaded([x, y]))
        assert (first.total, second.total) == (x, y)
        assert kept.total == max(x, y) and kept in (first, second)
        kept_counts[kept.total] += 1
    exact = keep_higher_distribution(expr.distribution())
    assert {k: Fraction(n, 36) for k, n in kept_counts.items()} == {6: Fraction(11, 36), 5: Fraction(9, 36),
                                                                   4: Fraction(7, 36), 3: Fraction(5, 36),
                                                                   2: Fraction(3, 36), 1: Fraction(1, 36)}
    assert all(exact[k] == pytest.approx(n / 36, abs=1e-12) for k, n in kept_counts.items())
    # and the seeded generator agrees, within four standard errors
    rng = new_rng(6)
    n = 3000
    sampled = Counter()
    for _ in range(n):
        kept, first, second = roll_keep_higher(expr, rng)
        assert kept.total == max(first.total, second.total)
        sampled[kept.total] += 1
    for face in (6, 1):
        p = kept_counts[face] / 36
        assert abs(sampled[face] / n - p) <= 4 * (p * (1 - p) / n) ** 0.5, face


def test_roll_keep_higher_draws_two_rolls_in_order():
    expr = parse("2d6")
    a, b = new_rng(11), new_rng(11)
    _, first, second = roll_keep_higher(expr, a)
    assert first == expr.roll(b)
    assert second == expr.roll(b)


# -- exceptional, flip, two digits (all 100 faces) ------------------------

def test_exceptional_faces_are_the_doubles_and_00():
    exceptional = [f for f in FACES if is_exceptional(f)]
    assert exceptional == [11, 22, 33, 44, 55, 66, 77, 88, 99, 100]
    assert len(exceptional) == 10  # exactly 10 % of all rolls


def test_exceptional_is_read_off_the_two_digits():
    for face in FACES:
        shown = two_digits(face)
        assert is_exceptional(face) == (shown[0] == shown[1])


def test_two_digits():
    assert two_digits(7) == "07"
    assert two_digits(42) == "42"
    assert two_digits(100) == "00"
    assert two_digits(10) == "10"
    assert two_digits(1) == "01"
    assert len({two_digits(f) for f in FACES}) == 100
    assert all(len(two_digits(f)) == 2 and two_digits(f).isdigit() for f in FACES)


@pytest.mark.parametrize("face, flipped", [(73, 37), (40, 4), (4, 40), (5, 50), (50, 5), (100, 100),
                                           (10, 1), (1, 10), (11, 11), (99, 99), (12, 21), (90, 9)])
def test_flip_examples(face, flipped):
    assert flip(face) == flipped


def test_flip_swaps_the_displayed_digits_for_all_faces():
    for face in FACES:
        shown = two_digits(face)
        swapped = shown[1] + shown[0]
        assert two_digits(flip(face)) == swapped
        assert 1 <= flip(face) <= 100


def test_flip_is_an_involution_on_all_100_faces():
    # No face is an exception: 00 flips to itself, X0 <-> 0X, doubles are fixed points.
    assert all(flip(flip(f)) == f for f in FACES)
    assert sorted(flip(f) for f in FACES) == list(FACES)  # a permutation
    fixed = [f for f in FACES if flip(f) == f]
    assert fixed == [f for f in FACES if is_exceptional(f)]


def test_flip_keeps_exceptional_status():
    assert all(is_exceptional(flip(f)) == is_exceptional(f) for f in FACES)


# -- the generator and its state ------------------------------------------

def test_same_seed_same_rolls():
    a, b = new_rng(123), new_rng(123)
    assert [d100(a) for _ in range(50)] == [d100(b) for _ in range(50)]
    assert [d100(new_rng(123)) for _ in range(50)] != [d100(new_rng(124)) for _ in range(50)]


def test_new_rng_without_seed_is_a_random():
    rng = new_rng()
    assert isinstance(rng, random.Random)
    assert 1 <= d100(rng) <= 100


def test_rng_state_round_trips_through_json():
    rng = new_rng(77)
    for _ in range(37):
        d100(rng)
    rng.gauss(0, 1)  # puts a value into the gauss slot too
    text = json.dumps(rng_state(rng))
    restored = rng_from_state(json.loads(text))
    assert [d100(restored) for _ in range(100)] == [d100(rng) for _ in range(100)]
    assert restored.gauss(0, 1) == rng.gauss(0, 1)
    assert json.loads(json.dumps(rng_state(restored))) == json.loads(json.dumps(rng_state(rng)))


def test_rng_state_is_plain_json_data():
    state = rng_state(new_rng(1))
    assert json.loads(json.dumps(state)) == state
    assert isinstance(state, list) and len(state) == 3


@pytest.mark.parametrize("bad", [None, 5, "state", [], [3], [3, "x", None], [3, [1, 2], None], {"a": 1}])
def test_rng_from_state_rejects_garbage_with_value_error(bad):
    with pytest.raises(ValueError, match="not a generator state"):
        rng_from_state(bad)


def test_words_between_counts_the_dice_drawn_and_spend_words_draws_them_again():
    import random

    from solo.rules.dice import spend_words, words_between

    for draws in (0, 1, 7, 623, 624, 625, 3000):
        rng = random.Random(11)
        rng.random()
        before = rng.getstate()
        for i in range(draws):  # a mix of the draws a game makes: one word, two words, a choice
            if i % 3 == 0:
                rng.random()
            elif i % 3 == 1:
                rng.randint(1, 100)
            else:
                rng.choice("abc")
        spent = words_between(before, rng.getstate())
        again = random.Random()
        again.setstate(before)
        spend_words(again, spent)
        assert again.getstate() == rng.getstate() and again.random() == rng.random()
    far = random.Random(3)
    start = far.getstate()
    spend_words(far, 5000)
    assert words_between(start, far.getstate(), limit=1000) is None
    assert words_between(start, far.getstate()) == 5000


@pytest.mark.parametrize("text", ["1d6", "2d6+1d4-1", "-1d4+3", "d%", "1d8+2", "3d6-2"])
def test_an_expressions_text_is_made_once_and_stays_what_it_reads(text):
    """DiceExpr keeps its text once made (the minds and the odds key tables by it): the same as made afresh."""
    expr = parse(text)
    first = str(expr)
    assert str(expr) is first
    fresh = DiceExpr(expr.terms)
    assert str(fresh) == first and fresh == expr and hash(fresh) == hash(expr)
    assert parse(first) == expr
