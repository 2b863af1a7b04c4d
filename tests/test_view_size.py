"""The view's console keeps its size only where its width was given (solo.ui.view.steady_size)."""

from __future__ import annotations

import io

from rich.console import Console

from solo.ui.view import TerminalView, steady_size


def test_a_console_of_fixed_width_keeps_its_height_and_prints_the_same():
    fixed = Console(file=io.StringIO(), width=72, color_system=None)
    before = fixed.size
    TerminalView(fixed)
    assert fixed.size == before and fixed._height == before.height  # given now: no lookup at each print
    fixed.print("x" * 100)
    assert fixed.file.getvalue().splitlines() == ["x" * 72, "x" * 28]


def test_a_console_that_follows_the_terminal_is_left_to_follow_it(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)  # a width in the environment is a width given
    monkeypatch.delenv("LINES", raising=False)
    free = Console(file=io.StringIO(), color_system=None)
    steady_size(free)
    assert free._height is None  # nothing was fixed


def test_a_rich_without_the_private_fields_leaves_the_console_as_it_is():
    """steady_size reads rich's private _width and _height: a rich that renamed them must not fail the game."""
    class Renamed:  # a console as a later rich might make it: the public face, other private names
        legacy_windows = is_dumb_terminal = False

        @property
        def size(self):
            raise AssertionError("the size was read or set")

    steady_size(Renamed())  # type: ignore[arg-type]


def test_a_rich_without_its_private_width_reckoning_lays_the_table_out_itself(monkeypatch):
    """The hand-laid grids narrow their columns by rich's private Table._collapse_widths: a rich without it gets
    None from them (so the view prints rich's own table), never an error in the middle of a game."""
    from rich.table import Table

    from solo.ui.prompt import GridColumn, _grid_widths

    columns = [GridColumn(right=2), GridColumn()]
    assert _grid_widths([30, 30], columns, 40) is not None  # too wide: narrowed by rich's reckoning
    monkeypatch.delattr(Table, "_collapse_widths")
    assert _grid_widths([30, 30], columns, 40) is None
    assert _grid_widths([10, 10], columns, 40) == [10, 10]  # what fits needs no reckoning
