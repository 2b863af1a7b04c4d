"""The human at the terminal as a Decider: numbered options, forgiving answers."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..decisions import CLEVER_FOLLOW_UP, LENS, Question, QuestionError, too_long

# A hook for commands typed at any prompt (sheet, help, save, ? oracle …).
# It returns True when it handled the line, so the question is asked again.
MetaHandler = Callable[[str, Question], bool]


DECLARATIONS = (LENS, CLEVER_FOLLOW_UP)


class TerminalDecider:
    """Asks at the terminal. ``player_of`` maps a character to its player's name (hot-seat)."""

    def __init__(self, console: Console, *, reader: Callable[[str], str] | None = None,
                 meta: MetaHandler | None = None, player_of: Callable[[str], str | None] | None = None) -> None:
        self.console = console
        self.reader = reader or (lambda prompt: console.input(prompt))
        self.meta = meta
        self.player_of = player_of or (lambda name: None)

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

    def show(self, question: Question) -> None:
        self.console.print("\n" + self.header(question))
        if question.options:
            table = Table.grid(padding=(0, 2))
            table.add_column(justify="right", style="bold yellow")
            table.add_column()
            table.add_column(style="dim")
            for i, option in enumerate(question.options, 1):
                # content: never markup, and one line each however the author broke it
                table.add_row(f"{i}.", Text(one_line(option.label)), Text(one_line(option.detail)))
            self.console.print(table)

    def decide(self, question: Question) -> str:
        self.show(question)
        if question.default:
            label = question.default
            if question.options:
                label = next((o.label for o in question.options if o.key == question.default), label)
            self.console.print(Text(f"(Enter for {one_line(label)})", style="dim"))
        while True:
            line = self.reader("> ")  # EOFError / KeyboardInterrupt go up
            problem = too_long(line)
            if problem:  # refused before a table-side command or the answer's matching sees it
                self.console.print(Text(problem, style="red"))
                continue
            if self.meta and line.strip() and self.meta(line.strip(), question):
                self.show(question)
                continue
            try:
                return question.resolve(line)
            except QuestionError as exc:
                self.console.print(Text(str(exc), style="red"))


LABEL_LIMIT = 300  # characters of one option shown in a menu


def one_line(text: str, limit: int = LABEL_LIMIT) -> str:
    """An option as one line of a menu: its whitespace runs made single spaces, cut at ``limit``."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
