"""A menu laid out by hand (solo.ui.prompt.menu_lines) reads as rich's grid lays it out (menu_table).

The hand layout exists for speed (a grid measures every cell: about 3 ms a menu); it is only right if a
player cannot tell the two apart. Both are rendered at the same width, without colour and with it, and
compared character by character with the style each character is drawn in. Where the hand layout declines
(a row that must wrap, an empty column before the last) the grid is used and there is nothing to compare.
"""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text

from solo.ui.prompt import Joined, menu_lines, menu_table, unbroken

WORDS = ["Go", "left", "right", "along", "the", "quay", "Ask", "Marit", "about", "her", "brother", "41 %",
         "≈ 12", "± 6", "Gö", "漢字", "é\u0301", "naïve", "—", "(an hour)", "Combat", "+10", "🙂", "x"]


def _text(words: list[str], style: str | None) -> Text:
    return Text(" ".join(words), style=style or "")


cells = st.lists(st.sampled_from(WORDS), max_size=6)
chance = st.one_of(st.just(None), st.tuples(st.integers(0, 100), st.lists(st.sampled_from(WORDS), max_size=3)))


@st.composite
def menus(draw):
    count = draw(st.integers(1, 12))
    with_chances = draw(st.booleans())
    rows = []
    for i in range(1, count + 1):
        number = draw(st.integers(i, i + 12))
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


def _drawn(renderable, width: int, colour: bool) -> tuple[str, list[tuple[str, object]]]:
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=colour, color_system="truecolor" if colour else None,
                      legacy_windows=False)
    console.print(renderable)
    styled = [(ch, segment.style) for segment in console.render(renderable) for ch in segment.text]
    return out.getvalue(), styled


@settings(max_examples=300, deadline=None)
@given(menus(), st.integers(20, 140))
def test_the_hand_laid_menu_is_the_grid_character_for_character(rows, width):
    styles = ["bold yellow", *[None] * (len(rows[0]) - 2), "dim"]
    lines = menu_lines(rows, styles, width)
    if lines is None:
        return
    for colour in (False, True):
        grid_text, grid_styles = _drawn(menu_table(rows, styles), width, colour)
        hand_text, hand_styles = _drawn(lines, width, colour)
        if not colour:
            assert hand_text == grid_text
        assert [c for c, _ in hand_styles] == [c for c, _ in grid_styles]
        assert [s or None for _, s in hand_styles] == [s or None for _, s in grid_styles]


def test_the_hand_layout_declines_what_it_cannot_lay_out():
    rows = [[Text("1."), Text("Wade across the river where it is shallowest"), Joined("an hour")]]
    styles = ["bold yellow", None, "dim"]
    assert menu_lines(rows, styles, 30) is None  # it must wrap
    assert menu_lines(rows, styles, 60) is not None
    empty_label = [[Text("1."), Text(""), Joined("an hour")]]
    assert menu_lines(empty_label, styles, 60) is None
    wide = [[Text("1."), Text("Ask about 漢字"), Joined("")]]
    assert menu_lines(wide, styles, 60) is None  # a character two cells wide: the grid pads it


def test_most_menus_a_game_shows_are_laid_out_by_hand():
    """The speed is only had if the common menus take the hand layout: a scene's choices without details,
    and a Lens menu with its chances, at 80 columns."""
    from solo.decisions import Option, Question
    from solo.ui.prompt import TerminalDecider

    out = io.StringIO()
    decider = TerminalDecider(Console(file=out, width=80), reader=lambda prompt: "1")
    shown = []
    import solo.ui.prompt as prompt

    original = prompt.menu_table
    try:
        prompt.menu_table = lambda rows, styles: shown.append("grid") or original(rows, styles)
        decider.show(Question(kind="choice", prompt="What now?",
                              options=[Option(key=str(i), label=f"Take the {w} road") for i, w in
                                       enumerate(["north", "south", "old"], 1)]))
    finally:
        prompt.menu_table = original
    assert shown == [] and "1.  Take the north road" in out.getvalue()
