"""The human at the terminal as a Decider: numbered options, forgiving answers."""

from __future__ import annotations

from typing import Callable

from rich.console import Console
from rich.table import Table

from ..minds.base import Question, QuestionError

# A hook for commands typed at any prompt (sheet, help, save, ? oracle …).
# It returns True when it handled the line, so the question is asked again.
MetaHandler = Callable[[str, Question], bool]


class TerminalDecider:
    def __init__(self, console: Console, *, reader: Callable[[str], str] | None = None,
                 meta: MetaHandler | None = None):
        self.console = console
        self.reader = reader or (lambda prompt: console.input(prompt))
        self.meta = meta

    def show(self, question: Question) -> None:
        who = f"[bold cyan]{question.actor}[/] — " if question.actor else ""
        self.console.print(f"\n{who}[bold]{question.prompt}[/]")
        if question.options:
            table = Table.grid(padding=(0, 1))
            table.add_column(justify="right", style="bold yellow")
            table.add_column()
            table.add_column(style="dim")
            for i, option in enumerate(question.options, 1):
                table.add_row(f"{i}.", option.label, option.detail)
            self.console.print(table)

    def decide(self, question: Question) -> str:
        self.show(question)
        while True:
            hint = f" [{question.default}]" if question.default else ""
            line = self.reader(f"> {hint}".rstrip() + " ")  # EOFError / KeyboardInterrupt go up
            if self.meta and line.strip() and self.meta(line.strip(), question):
                self.show(question)
                continue
            try:
                return question.resolve(line)
            except QuestionError as exc:
                self.console.print(f"[red]{exc}[/]")
