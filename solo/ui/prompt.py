"""The human at the terminal as a Decider: numbered options, forgiving answers."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from rich.cells import get_character_cell_size
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..decisions import CLEVER_FOLLOW_UP, LENS, Option, Question, QuestionError, too_long
from ..events import Chance
from .describe import clamped, declared_before, extra_mods, formula, percent_of

# A hook for commands typed at any prompt (sheet, help, save, ? oracle …).
# It returns True when it handled the line, so the question is asked again.
MetaHandler = Callable[[str, Question], bool]


DECLARATIONS = (LENS, CLEVER_FOLLOW_UP)
#: Lines of input that is not a terminal read at one question without an answer to it (refused answers,
#: table-side commands) before the input counts as ended: ``yes banana | solo play`` stops, it never spins.
PIPED_TRIES = 100


class TerminalDecider:
    """Asks at the terminal. ``player_of`` maps a character to its player's name (hot-seat)."""

    def __init__(self, console: Console, *, reader: Callable[[str], str] | None = None,
                 meta: MetaHandler | None = None, player_of: Callable[[str], str | None] | None = None,
                 before: Callable[[], None] | None = None,
                 refused: Callable[[str], None] | None = None, tries: int | None = None) -> None:
        self.console = console
        self.refused = refused  # told why each refused answer fits no option; a script stops there
        self.before = before  # shows what the screen still owes the player (a round's rolls) before asking
        self.reader = reader or default_reader(console)
        # lines read at one question before the input counts as ended: none at a terminal, where a person types
        self.tries = tries if tries is not None or reader is not None else (None if _tty() else PIPED_TRIES)
        self.meta = meta
        self.player_of = player_of or (lambda name: None)
        self._headers: dict[str, Text] = {}  # each header's markup as the console renders it (see show)

    def header(self, question: Question) -> str:
        from rich.markup import escape

        prompt = escape(question.prompt)
        if not question.actor:
            return f"[bold]{prompt}[/]"
        actor = escape(question.actor)
        player = self.player_of(question.actor)
        turn = f"[reverse bold] {escape(player)} [/] " if player and player != question.actor else ""
        if question.kind in DECLARATIONS:
            return f"{turn}[bold cyan]{actor}[/] declares: [bold]{prompt}[/]"
        return f"{turn}[bold cyan]{actor}[/] — [bold]{prompt}[/]"

    def _header_text(self, question: Question) -> Text:
        """The question's header as ``console.print`` makes it of :meth:`header`'s markup (``render_str``, with
        the console's own markup and highlighting, never emoji codes), made once a header: a game asks the same few
        questions again and again, and reading the markup was more than a quarter of printing it. Printing
        the Text it made leaves it as it was, so it is printed again as it stands."""
        markup = "\n" + self.header(question)
        text = self._headers.get(markup)
        if text is None:
            if len(self._headers) >= HEADERS_KEPT:  # open play's prompts keep changing: a bounded few are kept
                self._headers.clear()
            # no emoji codes: a name ":skull: Bob" is shown as typed, as every other line shows it (an audit)
            text = self._headers[markup] = self.console.render_str(markup, emoji=False)
        return text

    def show(self, question: Question) -> None:
        self.console.print(self._header_text(question))
        before = declared_before(question) if question.kind == LENS else ""
        if before:  # what the menu's odds already rest on
            self.console.print(Text("  " + before, style="dim"))
        if question.options:
            common = common_chance(question)
            if common is not None:
                target = common.target
                parts = formula(common.skill, common.base, common.modifiers)
                self.console.print(Text("  your roll: ", style="dim") + Text(percent_of(target), style="bold")
                                   + Text(f" ({parts} = {target})" if clamped(target) else f" = {parts}",
                                          style="dim"))
            chances = any(o.chance is not None for o in question.options)
            rows = []
            for i, option in question.numbered():
                # content: never markup, and one line each however the author broke it
                # an author's "Awareness //Perception" wraps as one word (unbroken), never as "(Awareness" and
                # "//Perception)" on the next line
                row = [Text(f"{i}."), Joined(unbroken(one_line(option.label)))]
                if chances:
                    row.append(joined(chance_cell(option, common)))
                rows.append([*row, Joined(unbroken(one_line(option.detail)))])
            styles = ["bold yellow", *[None] * (len(rows[0]) - 2), "dim"]
            menu = menu_lines(rows, styles, self.console.width, self.console)
            if menu is None:
                self.console.print(menu_table(rows, styles))
            else:  # print joins the Text anew, without its no_wrap: said again, its lines are not divided again
                self.console.print(menu, no_wrap=True)

    def _ask(self, question: Question) -> None:
        """The question, its menu and what Enter takes."""
        self.show(question)
        takes = question.enter_takes()
        if takes:
            label = next((o.label for o in question.options if o.key == takes), takes)
            self.console.print(Text(f"(Enter for {one_line(label)})", style="dim"))

    def decide(self, question: Question) -> str:
        if self.before is not None:
            self.before()
        self._ask(question)
        tried, hinted = 0, False
        while True:
            if self.tries is not None and tried >= self.tries:
                self.console.print(Text(f"{tried} lines of input in a row answer nothing here; the input is "
                                        "taken as ended.", style="red"))
                raise EOFError
            tried += 1
            line = self.reader("> ")  # EOFError / KeyboardInterrupt go up
            problem = too_long(line)
            if problem:  # refused before a table-side command or the answer's matching sees it
                if self.refused is not None:
                    self.refused(problem)
                self.console.print(Text(problem, style="red"))
                continue
            if self.meta and line.strip() and self.meta(line.strip(), question):
                if self.before is not None:  # the status line again, when it is on: the command may have hidden it
                    self.before()
                self._ask(question)  # asked again whole, the Enter hint too (after help, a sheet …)
                continue
            try:
                return question.resolve(line)
            except QuestionError as exc:
                if self.refused is not None:  # it may stop here (a script); else the question is asked again
                    self.refused(str(exc))
                self.console.print(Text(str(exc), style="red"))
                meant = GUESSED_COMMANDS.get(line.strip().lower()) if self.meta is not None else None
                if meant:  # a command a player guesses ("inventory"), answered with the one there is
                    self.console.print(Text(meant, style="dim"))
                elif self.meta is not None and not hinted:  # once a question: the commands are not answers
                    hinted = True
                    self.console.print(Text(HELP_HINT, style="dim"))


#: Said under the first answer a question refuses, where commands may be typed at the prompt.
HELP_HINT = "Type 'help' to see the commands you can type at any prompt."
#: Commands a new player guesses at a prompt, and what to type instead (a new player's run: "inventory", "journal"
#: and "load" each got only "is not an answer here").
GUESSED_COMMANDS = {
    **dict.fromkeys(("inventory", "inv", "gear", "bag"), "To see what the party carries, type 'items'."),
    **dict.fromkeys(("journal", "log", "story", "history"),
                    "To see the story so far, type 'recap' (the whole journal: solo journal, once you quit)."),
    **dict.fromkeys(("load", "restore", "resume"),
                    "To load another game, type 'quit' (this one is saved), then: solo play --load SAVE "
                    "(solo saves lists them)."),
    **dict.fromkeys(("exit", "stop", "bye"), "To stop, type 'quit': the game is saved first."),
    **dict.fromkeys(("commands", "menu", "?"), "Type 'help' to see the commands you can type at any prompt."),
    **dict.fromkeys(("character", "char", "stats", "me"), "To see your character, type 'sheet'."),
}
LABEL_LIMIT = 300  # characters of one option shown in a menu
#: Headers whose rendered markup a decider keeps (TerminalDecider._header_text).
HEADERS_KEPT = 256
#: Spaces between two columns of a menu.
GUTTER = 2


def menu_table(rows: list[list[Text]], styles: list[str | None]) -> Table:
    """A menu as a grid: the numbers right-aligned, a gutter between columns, each column's style."""
    table = Table.grid(padding=(0, GUTTER))
    for i, style in enumerate(styles):
        table.add_column(justify="right" if i == 0 else "left", style=style)
    for row in rows:
        table.add_row(*row)
    return table


def _one_cell_each(text: str) -> bool:
    """Whether every character of ``text`` takes one cell, so that its length is its width. Counting the whole
    text's cells is not enough: a combining accent (no cell) and an emoji (two) add up to their length."""
    if text.isascii() and text.isprintable():
        return True
    return all(get_character_cell_size(ch) == 1 for ch in text)


@dataclass(frozen=True)
class GridColumn:
    """A column of a rich Table without lines, as :func:`grid_lines` lays it out: the spaces before and after
    each cell (the table's padding where it falls on this column), how a cell is justified and cut, and the
    column's style under all of it."""

    left: int = 0
    right: int = 0
    justify: Literal["left", "right"] = "left"
    overflow: Literal["ellipsis", "fold"] = "ellipsis"
    style: str | None = None


def _grid_widths(natural: list[int], columns: list[GridColumn], width: int) -> list[int] | None:
    """The columns' widths (without their padding) as the table lays out cells as wide as ``natural`` at
    ``width``, by rich's own reckoning: when they do not fit, ``Table._collapse_widths`` (the widest narrowed
    first, then the widest two …), then ``ratio_reduce`` on every column, and each measured again. None where
    that leaves a narrowed column without a cell, or still does not fit."""
    pads = [column.left + column.right for column in columns]
    # as the table measures them: each column with its padding, none wider than the whole, an empty one a cell wide
    padded = [min(w + pad, width) or 1 for w, pad in zip(natural, pads)]
    if sum(padded) <= width:
        return [w - pad for w, pad in zip(padded, pads)]
    try:  # rich's own reckoning, which it keeps private: a rich without it lays the table out itself
        from rich._ratio import ratio_reduce

        collapse = Table._collapse_widths
    except (ImportError, AttributeError):
        return None
    padded = collapse(padded, [True] * len(padded), width)
    if sum(padded) > width:  # the table's last resort: every column narrowed alike
        padded = ratio_reduce(sum(padded) - width, [1] * len(padded), padded, padded)
    # measured again at those widths: a column is as wide as its widest cell, so an empty column keeps none
    narrowed = [min(w - pad, n) for w, pad, n in zip(padded, pads, natural)]
    if any(w < 1 and n for w, n in zip(narrowed, natural)) or sum(narrowed) + sum(pads) > width:
        return None
    return narrowed


def _put(out: Text, piece: Text | str, style: str | None) -> None:
    """``piece`` added to a hand-laid menu or table, with its column's style under it (padding or blank
    included)."""
    start = len(out)
    if isinstance(piece, Text):
        out.append_text(piece)
    else:
        out.append(piece)
    if style:
        out.stylize_before(style, start, len(out))


def menu_lines(rows: list[list[Text]], styles: list[str | None], width: int,
               console: Console | None = None) -> Text | None:
    """The menu as :func:`menu_table` lays it out at ``width``, segment for segment (:func:`grid_lines`), or None
    where the table must lay it out itself.

    A rich Table measures and wraps every cell: about 3 ms a menu, most of the time a scripted game or a test
    spends showing questions. The menu's columns: the numbers right-aligned, a gutter after every column but the
    last, each column's style under all of it. tests/test_prompt_menu.py holds the two to the same bytes.
    """
    last = len(styles) - 1
    return grid_lines(rows, [GridColumn(right=GUTTER if c < last else 0, justify="right" if c == 0 else "left",
                                        style=style) for c, style in enumerate(styles)], width, console)


def _wrapped(cell: Text, console: Console, width: int, justify: Literal["left", "right"],
             overflow: Literal["ellipsis", "fold"] = "ellipsis") -> list[Text]:
    """``cell``'s lines as its own ``wrap`` makes them at ``width``. A cell that fits is the wrap's one line
    without the wrap: its copy padded with spaces in its own style on the side ``justify`` leaves (most cells
    fit, and the wrap looks for breaks in each)."""
    if len(cell.plain) > width:
        return list(cell.wrap(console, width, justify=justify, overflow=overflow))
    line = cell.copy()
    if justify == "right":
        line.pad_left(width - len(line.plain))
    else:
        line.pad_right(width - len(line.plain))
    return [line]


def grid_lines(rows: list[list[Text]], columns: list[GridColumn], width: int,
               console: Console | None = None) -> Text | None:
    """``rows`` as a rich Table without lines (a grid, or a table with ``box=None`` and no header) lays them out
    at ``width``, segment for segment, or None where the table must lay them out itself: a character that is
    not one cell wide, a cell with a justification, overflow or no_wrap of its own, a right-justified cell with
    spaces at its end (the table strips them), a column narrowed to nothing (:func:`_grid_widths`).

    A table measures and wraps every cell through rich's general machinery, a few milliseconds a table. Here
    each cell is wrapped at its column's width as the table wraps it (:func:`_wrapped`), and its padding on
    either side is a piece of its own: the table draws a cell's lines and its padding as separate segments, and
    a terminal is sent each styled segment with its own escape codes, so the bytes in colour are the table's
    too. A row is as tall as its tallest cell; below a shorter cell, the table's blank, the column's whole
    width in its style. tests/test_prompt_menu.py holds the two to the same bytes.
    """
    if any(not _one_cell_each(cell.plain) or cell.justify or cell.overflow or cell.no_wrap
           for row in rows for cell in row):
        return None
    if any(column.justify == "right" and row[c].plain != row[c].plain.rstrip()
           for row in rows for c, column in enumerate(columns)):
        return None
    widths = _grid_widths([max((len(row[c].plain) for row in rows), default=0) for c in range(len(columns))],
                          columns, width)
    if widths is None:
        return None
    console = console or Console(width=width)
    out = Text(no_wrap=True)  # every line fits (no wider than ``width``): dividing them again would find no break
    for r, row in enumerate(rows):
        # a column with no width renders no line at all (rich renders nothing at a width under one cell)
        cells = [_wrapped(cell, console, widths[c], column.justify, column.overflow) if widths[c] else []
                 for c, (cell, column) in enumerate(zip(row, columns))]
        for k in range(max(1, *(len(lines) for lines in cells))):
            if r or k:
                out.append("\n")
            for lines, column, w in zip(cells, columns, widths):
                if k < len(lines):
                    for piece in (" " * column.left, lines[k], " " * column.right):
                        if piece:
                            _put(out, piece, column.style)
                else:
                    _put(out, " " * (column.left + w + column.right), column.style)
    return out


def _tty() -> bool:
    import sys

    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (OSError, ValueError):
        return False


def default_reader(console: Console) -> Callable[[str], str]:
    """How a prompt reads a line: rich's input at a terminal; else the prompt shown and one bounded line
    read (:func:`solo.ui.line_input.piped_line`), so no input, however long, is kept whole."""
    if _tty():
        return lambda prompt: console.input(prompt)
    from .line_input import piped_line

    def piped(prompt: str) -> str:
        console.print(prompt, end="", markup=False, highlight=False)
        return piped_line()

    return piped


def common_chance(question: Question) -> Chance | None:
    """The roll a menu's options share (the Lens menu: one roll, each Lens changing it), or None.

    It is the first option's chance when at least two others are that chance plus
    modifiers of their own; the menu then shows it once, and each option only what it adds.
    """
    chances = [o.chance for o in question.options if o.chance is not None]
    if len(chances) < 3:
        return None
    first = chances[0]
    alike = sum(1 for c in chances[1:] if extra_mods(c, first) is not None)
    return first if alike >= 2 else None


def chance_cell(option: Option, common: Chance | None) -> Text:
    """An option's chance: "30 %" and its parts, or only what it adds to the menu's common roll."""
    c = option.chance
    if c is None:
        return Text("")
    cell = Text(percent_of(c.target), style="bold")
    if c.outcome:  # the oracle's chance of a yes, which may be the bad outcome: said what it is of
        cell += Text(f" {c.outcome}", style="bold")
    extra = extra_mods(c, common) if common is not None else None
    if extra is None:
        if not c.modifiers and option.label == c.skill and not clamped(c.target):  # "Awareness  50 %": no sum
            return cell
        parts = formula(c.skill, c.base, c.modifiers)
        return cell + Text(f" ({parts} = {c.target})" if clamped(c.target) else f" = {parts}", style="dim")
    shown = [f"{n} {v:+d}" for n, v in extra if n != option.label]  # Aggressive's -20 is the Lens itself
    if clamped(c.target):  # "Aggressive 0 %" alone hid that the sum went below the dice: say where it went
        # "Cautious 99 % (comes to 110)"; a bare "(= 110)" read as a typo, and "(sum 110)" as a debug log
        shown.append(f"comes to {c.target}")
    if shown:
        cell += Text(" (" + ", ".join(shown) + ")", style="dim")
    return cell


_KEPT_TOGETHER = re.compile(r"(?<=\d) (?=%)|(?<=[\u2248\u00b1]) (?=\d)|(?<=\w) (?=//\w)"
                            r"|(?<=\d) (?=of \d)|(?<=\d of) (?=\d)|(?<==) (?=[-+]?\d)|(?<=[\w)]) (?=[-+]\d)"
                            r"|(?<=\w) (?=-?\d+/\d)|(?<=\bLuck) (?=-?\d)")


def unbroken(text: str) -> str:
    """``text`` with a number and its % ("41 %"), "≈ 41", "± 6", a skill and its Focus ("Awareness
    //Perception"), a tension's "6 of 9", a sum and what it comes to ("= -10") and a modifier and its value
    ("hurt -20"), and the status line's "POW 10/10", "day 1/3" and "Luck 2" joined by a no-break space: a
    menu's column and the status line (:class:`Joined`) wrap between words, never
    between a chance and its sign, nor between a skill and its Focus, nor inside a term of a sum ("(6 of ⏎ 9)",
    "= ⏎ -10": a player's run)."""
    return _KEPT_TOGETHER.sub("\u00a0", text)


def joined(text: Text, *, shown: str = "\u00a0") -> Joined:
    """``text`` (its styles too) as :class:`Joined`, a chance and its % joined (:func:`unbroken`); ``shown``: what
    the joins are printed as (:attr:`Joined.shown`)."""
    out = Joined(unbroken(text.plain), style=text.style)  # the same length: the styles stay in place
    out._spans[:] = text._spans
    out.shown = shown
    return out


_STAND_IN = "\ue000"  # a character of one cell that is no space: rich breaks lines at any space, U+00A0 too


class Joined(Text):
    """Text that rich wraps between words but never at a no-break space (which rich takes for a space)."""

    #: What a no-break space is printed as, once the lines are made (the status line: a plain space, for a line
    #: read, copied and searched as words; a menu's cells keep theirs, laid out again in their grid).
    shown = "\u00a0"

    def wrap(self, console, width, **options):
        held = self.copy()
        held.plain = self.plain.replace("\u00a0", _STAND_IN)  # the same length: the styles stay in place
        lines = Text.wrap(held, console, width, **options)
        for line in lines:
            line.plain = line.plain.replace(_STAND_IN, self.shown)
        return lines

    def __rich_measure__(self, console, options):
        held = self.copy()
        held.plain = self.plain.replace("\u00a0", _STAND_IN)
        return held.__rich_measure__(console, options)


def one_line(text: str, limit: int = LABEL_LIMIT) -> str:
    """An option as one line of a menu: its whitespace runs made single spaces, cut at ``limit``."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
