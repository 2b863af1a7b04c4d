"""The human at the terminal as a Decider: numbered options, forgiving answers."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.table import Table

from ..decisions import CLEVER_FOLLOW_UP, LENS, Question, QuestionError

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
                table.add_row(f"{i}.", option.label, option.detail)
            self.console.print(table)

    def decide(self, question: Question) -> str:
        self.show(question)
        if question.default:
            label = question.default
            if question.options:
                label = next((o.label for o in question.options if o.key == question.default), label)
            self.console.print(f"[dim](Enter for {label})[/]")
        while True:
            line = self.reader("> ")  # EOFError / KeyboardInterrupt go up
            if self.meta and line.strip() and self.meta(line.strip(), question):
                self.show(question)
                continue
            try:
                return question.resolve(line)
            except QuestionError as exc:
                self.console.print(f"[red]{exc}[/]")
