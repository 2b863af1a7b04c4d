"""A menu laid out by hand (solo.ui.prompt.menu_lines) reads as rich's grid lays it out (menu_table).

The hand layout exists for speed (a grid measures every cell: about 3 ms a menu); it is only right if a
player cannot tell the two apart. Both are rendered at the same width, without colour and with it, and
compared character by character with the style each character is drawn in, and byte for byte in colour.
Where the hand layout declines (a column narrowed to nothing, a wide character, a cell justified its own way)
the grid is used and there is nothing to compare. A Lens menu's details, wrapped below each other, are laid out by hand,
and so is a menu whose labels must wrap too.
"""

from __future__ import annotations

import io

from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from solo.ui.prompt import Joined, grid_lines, menu_lines, menu_table, unbroken

WORDS = ["Go", "left", "right", "along", "the", "quay", "Ask", "Marit", "about", "her", "brother", "41 %",
         "≈ 12", "± 6", "Gö", "漢字", "é\u0301", "naïve", "—", "(an hour)", "Combat", "+10", "🙂", "x"]


def _text(words: list[str], style: str | None) -> Text:
    return Text(" ".join(words), style=style or "")


cells = st.lists(st.sampled_from(WORDS), max_size=6)
chance = st.one_of(st.just(None), st.tuples(st.integers(0, 100), st.lists(st.sampled_from(WORDS), max_size=3)))


# The strategies the composites below draw from, made once: a strategy built inside a draw is built (and
# validated) again at every draw, which cost about as much as rendering the menus. The same strategies, so the
# same menus are drawn.
_counts = st.integers(1, 12)
_numbers = {i: st.integers(i, i + 12) for i in range(1, 13)}


@st.composite
def menus(draw):
    count = draw(_counts)
    with_chances = draw(st.booleans())
    rows = []
    for i in range(1, count + 1):
        number = draw(_numbers[i])
        row = [Text(f"{number}."), _text(draw(cells), None)]
        if with_chances:
            c = draw(chance)
            cell = Text("")
            if c is not None:
                cell = Text(f"{c[0]} %", style="bold")
                if c[1]:
                    cell += Text(" = " + " ".join(c[1]), style="dim")
            row.append(cell)
        row.append(Joined(unbroken(" ".join(draw(cells)))))
        rows.append(row)
    return rows


@st.composite
def lens_menus(draw):
    """Menus shaped like a Lens menu: short labels and chances, long details that must wrap at most widths."""
    rows = []
    with_chances = draw(st.booleans())
    for i in range(1, draw(_lens_counts) + 1):
        row = [Text(f"{i}."), Text(" ".join(draw(_lens_labels)))]
        if with_chances:
            c = draw(chance)
            row.append(Text("") if c is None else Text(f"{c[0]} %", style="bold") + Text(" = 30", style="dim"))
        row.append(Joined(unbroken(" ".join(draw(_lens_details)))))
        rows.append(row)
    return rows


#: A word no column of a narrow menu holds: the grid cuts it with an ellipsis, and so must the hand layout.
LONG = "Unbrokenwordlongerthanthecolumn"
_narrow_words = [w for w in WORDS if cell_len(w) == len(w)]
_lens_counts = st.integers(1, 9)
_lens_labels = st.lists(st.sampled_from(_narrow_words), min_size=1, max_size=2)
_lens_details = st.lists(st.sampled_from([*_narrow_words, LONG]), max_size=25)


def _drawn(renderable, width: int, colour: bool, **options) -> tuple[str | None, list[tuple[str, object]]]:
    """The text the console prints, and each character the renderable is drawn as with its style. The text is
    compared without colour only, so it is printed only then (printed in colour, it was thrown away).
    ``options``: the print's (the hand layout is printed with ``no_wrap``, as TerminalDecider.show prints it)."""
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=colour, color_system="truecolor" if colour else None,
                      legacy_windows=False)
    if not colour:
        console.print(renderable, **options)
    styled = [(ch, segment.style) for segment in console.render(renderable, console.options.update(**options))
              for ch in segment.text]
    return None if colour else out.getvalue(), styled


def _in_colour(renderable, width: int, **options) -> str:
    """What the console sends a terminal in colour for ``renderable``, escape codes and all."""
    out = io.StringIO()
    Console(file=out, width=width, force_terminal=True, color_system="truecolor",
            legacy_windows=False).print(renderable, **options)
    return out.getvalue()


@settings(max_examples=300, deadline=None)
@given(menus(), st.integers(20, 140))
# a combining accent (no cell) and an emoji (two) in one cell: its length is its width, yet it is not plain
@example([[Text("1."), Text(""), Text(""), Text("")],
          [Text("2."), Text("the"), Text("0 %", style="bold"), Text("Go \u00e9\u0301 \U0001f642")]], 20)
def test_the_hand_laid_menu_is_the_grid_character_for_character(rows, width):
    styles = ["bold yellow", *[None] * (len(rows[0]) - 2), "dim"]
    lines = menu_lines(rows, styles, width)
    if lines is None:
        return
    for colour in (False, True):
        grid_text, grid_styles = _drawn(menu_table(rows, styles), width, colour)
        hand_text, hand_styles = _drawn(lines, width, colour, no_wrap=True)
        if not colour:
            assert hand_text == grid_text
        assert [c for c, _ in hand_styles] == [c for c, _ in grid_styles]
        assert [s or None for _, s in hand_styles] == [s or None for _, s in grid_styles]
    # laid out as the grid draws it, segment for segment: the same bytes in colour too (a cell and its gutter are
    # two segments, each with its own escape codes)
    assert _in_colour(lines, width, no_wrap=True) == _in_colour(menu_table(rows, styles), width)


@settings(max_examples=200, deadline=None)
@given(lens_menus(), st.integers(8, 140))
def test_a_menu_whose_details_wrap_is_the_grid_character_for_character(rows, width):
    test_the_hand_laid_menu_is_the_grid_character_for_character.hypothesis.inner_test(rows, width)


def test_the_hand_layout_declines_what_it_cannot_lay_out():  # and lays out the rest as the grid does
    rows = [[Text("1."), Text("Wade across the river where it is shallowest"), Joined("an hour")]]
    styles = ["bold yellow", None, "dim"]
    assert menu_lines(rows, styles, 60) is not None
    assert menu_lines(rows, styles, 30).plain.splitlines() == [  # the label wraps, and the details beside it
        "1.  Wade across the    an hour",
        "    river where it is         ",
        "    shallowest                ",
    ]
    assert menu_lines(rows, styles, 5) is None  # no room left for the numbers
    empty_label = [[Text("1."), Text(""), Joined("an hour")]]  # a column of nothing: the grid's width for it
    assert _in_colour(menu_lines(empty_label, styles, 60), 60, no_wrap=True) == _in_colour(
        menu_table(empty_label, styles), 60)
    wide = [[Text("1."), Text("Ask about 漢字"), Joined("")]]
    assert menu_lines(wide, styles, 60) is None  # a character two cells wide: the grid pads it
    assert menu_lines([[Text("1. "), Text("Go"), Joined("")]], styles, 60) is None  # the grid strips it
    assert menu_lines([[Text("1."), Text("Go", justify="center"), Joined("")]], styles, 60) is None
    lens = [[Text("1."), Text("Cautious"), Joined(unbroken("+20 %, your blows halved · 44 % to win, 48 % undecided"))]]
    wrapped = menu_lines(lens, styles, 40)
    assert wrapped is not None
    lines = [line.rstrip() for line in wrapped.plain.splitlines()]
    assert [line.replace("\u00a0", " ") for line in lines] == [
        "1.  Cautious  +20 %, your blows halved ·",  # only the details wrap, under themselves
        "              44 % to win, 48 %",
        "              undecided",
    ]
    assert lines[1].endswith("48\u00a0%")  # a chance and its sign kept together


def test_most_menus_a_game_shows_are_laid_out_by_hand(monkeypatch):
    """The speed is only had if the common menus take the hand layout: a scene's choices without details,
    and a Lens menu with its chances and the odds that wrap below each other, at 80 columns."""
    import solo.ui.prompt as prompt
    from solo.decisions import Option, Question
    from solo.events import Chance
    from solo.ui.prompt import TerminalDecider

    out = io.StringIO()
    decider = TerminalDecider(Console(file=out, width=80), reader=lambda prompt: "1")
    shown = []
    original = prompt.menu_table
    monkeypatch.setattr(prompt, "menu_table", lambda rows, styles: shown.append("grid") or original(rows, styles))
    decider.show(Question(kind="choice", prompt="What now?",
                          options=[Option(key=str(i), label=f"Take the {w} road") for i, w in
                                   enumerate(["north", "south", "old"], 1)]))
    assert shown == [] and "1.  Take the north road" in out.getvalue()
    lenses = [("none", "No Lens", 30, "a plain roll · 30 % to win if kept every round, 54 % undecided after round 12"),
              ("cautious", "Cautious", 50, "+20 %, your blows halved · 44 % to win, 48 % undecided"),
              ("quick", "Quick", 10, "-20 %, plus one extra action · 1 % to win, 73 % undecided")]
    options = [Option(key=k, label=label, detail=detail, chance=Chance.of(i, "Espen", "Combat", target, []))
               for i, (k, label, target, detail) in enumerate(lenses, 1)]
    decider.show(Question(kind="lens", prompt="choose a Lens", actor="Espen", options=options))
    assert shown == [] and "undecided after round 12" in " ".join(out.getvalue().split())


#: A round table's cells: names, Lenses (often none), rolls, verdicts, blows, and the target's parts, which are
#: long and fold.
_round_cells = [st.sampled_from(["Espen", "Signe Hald", "the old lock", "Åsa", "a very long name for a bandit"]),
                st.sampled_from(["", "Cautious", "Aggressive", "Flamboyant"]),
                st.sampled_from(["07 / 45", "98 / 30", "45→12 / 45"]),
                st.sampled_from(["success", "failure", "exceptional success", "success (Luck)"]),
                st.sampled_from(["", "sword 1d8+1", "fists 1d3", "a long and heavy two-handed axe 2d6"]),
                st.lists(st.sampled_from([*_narrow_words, LONG, "Combat 45", "-20 Cautious", "+10"]), max_size=12)]


@st.composite
def round_rows(draw):
    rows = []
    for _ in range(draw(st.integers(1, 5))):
        name, lens, roll, verdict, blow, parts = (draw(s) for s in _round_cells)
        rows.append([Text(name), Text(lens), Text(roll), Text(verdict, style=draw(st.sampled_from(["green", "red"]))),
                     Text(blow), Text(" ".join(parts), style="dim")])
    return rows


@settings(max_examples=300, deadline=None)
@given(round_rows(), st.integers(10, 160))
def test_a_round_table_laid_out_by_hand_is_the_table_byte_for_byte(rows, width):
    """The view prints a round's rolls as grid_lines lays them out; where it does, the bytes are the table's,
    without colour and in colour."""
    from solo.ui.view import ROUND_COLUMNS, round_table

    laid = grid_lines(rows, ROUND_COLUMNS, width)
    if laid is None:
        return
    for colour in (False, True):
        out = io.StringIO()
        console = Console(file=out, width=width, force_terminal=colour, color_system="truecolor" if colour else None,
                          legacy_windows=False)
        console.print(round_table(rows))
        table = out.getvalue()
        out.seek(0)
        out.truncate()
        console.print(laid, no_wrap=True)
        assert out.getvalue() == table
