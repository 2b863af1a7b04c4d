"""The ``solo`` command line: a thin, lazily loaded click group.

Each command lives in its own module and is imported only when it runs, so
``solo --help`` pays for click alone. Errors the user caused are printed as
one line with exit status 2, never as a traceback.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import click

from .. import __version__
from ..errors import OutputGone
from ..terminal_text import one_line

if TYPE_CHECKING:
    from ..rules.conflict_types import ConflictType

# name -> (module, one-line help shown by `solo --help` without importing the module)
COMMANDS: dict[str, tuple[str, str]] = {
    "characters": ("solo.cli.characters",
                   "List your roster of characters: career, best skills, Luck, scenarios played."),
    "check": ("solo.cli.check", "Check adventures for every problem at once, compiler-style."),
    "duel": ("solo.cli.duel", "Pit an NPC's mind against a PC many times: the Lenses it picks, how it ends."),
    "journal": ("solo.cli.journal", "Show or export the journal of a saved game (Markdown, kept beside its save)."),
    "map": ("solo.cli.map", "Draw an adventure's scene graph (Mermaid or DOT), with visit rates from a simulation."),
    "new": ("solo.cli.new", "Create a character: interactive, by career, or at random."),
    "npc": ("solo.cli.npc", "Roll an NPC: stats by level, gear and a Code Block (personality, motivation …)."),
    "odds": ("solo.cli.odds", "Exact chances of a one-against-one Extended Conflict."),
    "oracle": ("solo.cli.oracle", "Ask the oracle a yes/no question; shows the exact odds first."),
    "prove": ("solo.cli.prove", "Search every state of an adventure: each ending reachable, with a walkthrough."),
    "play": ("solo.cli.play", "Play an adventure: the bundled tutorial, or your own."),
    "simulate": ("solo.cli.simulate", "Auto-play an adventure many times with bots: endings, rolls, fights, errors."),
    "roll": ("solo.cli.roll", "Roll dice (3d6+2, d100) and check a d100 against a skill."),
    "saves": ("solo.cli.saves", "List saved games and how to resume them."),
    "scene": ("solo.cli.scene", "Check how the next scene starts (expected, altered, interrupted), or close one."),
    "session": ("solo.cli.session", "Show or change an oracle session: tension, threads, NPCs kept between commands."),
    "table": ("solo.cli.table", "Roll on a random table, or list them: solo table list."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module = importlib.import_module(COMMANDS[name][0])
        return module.command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][1]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else None
        if name and name not in COMMANDS and not name.startswith("-"):
            from ..errors import did_you_mean

            raise click.UsageError(f"no such command {name!r}{did_you_mean(name, COMMANDS)}; see 'solo --help'")
        return super().resolve_command(ctx, args)

    def main(
        self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
        standalone_mode: bool = True, **extra: Any,
    ) -> NoReturn:
        """Always as ``solo`` and never standalone: errors are reported here, in one line, whatever is asked."""
        try:
            rv = super().main(args=args, prog_name="solo", complete_var=complete_var, standalone_mode=False, **extra)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.UsageError as exc:
            if type(exc).__name__ == "NoArgsIsHelpError" and exc.ctx is not None:  # bare `solo`: just the help
                click.echo(exc.ctx.get_help())
                sys.exit(0)
            where = exc.ctx.command_path if exc.ctx else "solo"
            click.echo(f"{where}: error: {one_line(exc.format_message())}", err=True)
            sys.exit(2)
        except click.ClickException as exc:
            where = getattr(exc, "command_path", "solo")
            said = getattr(exc, "severity_said", False)  # "goto.toml:115: error[E003]: …" says "error" itself
            click.echo(f"{where}: {'' if said else 'error: '}{one_line(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("\nsolo: stopped.", err=True)
            sys.exit(130)
        except KeyboardInterrupt:
            click.echo("\nsolo: stopped.", err=True)
            sys.exit(130)
        except OutputGone as exc:  # a closed pipe (solo play … | head), a full disk: not a bug
            from .output import CLOSED_PIPE_STATUS, closed_pipe, silence_stdout

            silence_stdout()
            if closed_pipe(exc):
                sys.exit(CLOSED_PIPE_STATUS)
            note = f"; {exc.note}" if exc.note else ""
            click.echo(f"solo: stopped: the output cannot be written ({exc.strerror}){note}", err=True)
            sys.exit(2)
        except OSError as exc:  # the system refused something no command foresaw: its reason, in one line
            where = f"{exc.filename}: " if exc.filename else ""
            click.echo(f"solo: {where}{exc.strerror or exc}", err=True)
            sys.exit(2)
        except UnicodeError as exc:  # bytes that are not the text they claim to be
            click.echo(f"solo: {exc.reason if hasattr(exc, 'reason') else exc}: text that is not valid "
                       f"{getattr(exc, 'encoding', 'UTF-8')}", err=True)
            sys.exit(2)
        except Exception as exc:  # a bug in solo: one line for the user, the traceback on request
            if os.environ.get("SOLO_DEBUG"):
                raise
            click.echo(f"solo: internal error: {type(exc).__name__}: {exc} "
                       "(please report it; SOLO_DEBUG=1 shows the details)", err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)


class UserError(click.ClickException):
    """A mistake in what the user asked for: one line on stderr, exit status 2."""

    exit_code = 2
    severity_said = False  # the message opens with its own "error[E003]" (a problem of an adventure)

    def __init__(self, message: str) -> None:
        super().__init__(message)
        ctx = click.get_current_context(silent=True)
        self.command_path = ctx.command_path if ctx else "solo"


def broken_adventure(exc: Exception, adventure: str) -> UserError:
    """An adventure that does not load, said the same by every command that reads one: the first problem, how
    many errors more, and the command that lists them all (play, prove, simulate and map said it three ways).

    Once: "solo play: error: goto.toml:115: error[E003]: … (and 3 more problems; run 'solo check') (every
    problem: solo check goto.toml)" said "error" twice and "solo check" twice, and its "3 more problems" counted
    only the errors of the thirteen check lists (a new GM's run)."""
    import shlex

    from ..story.format.problems import AdventureError

    check = f"solo check {shlex.quote(adventure)}"
    if not isinstance(exc, AdventureError):
        return UserError(f"{exc} (every problem: {check})")
    errors = [p for p in exc.problems if p.severity == "error"]
    if not errors:
        return UserError(f"{exc} (every problem: {check})")
    listed = exc.problems
    try:  # counted as solo check counts them: it reads the narration files too (the review)
        from ..sim.lint import check_adventures

        listed = check_adventures([adventure])[0].problems or listed
    except Exception:  # noqa: BLE001 - a count is no reason to hide the error itself
        pass
    everything = [p for p in listed if p.severity == "error"]
    rest, warned = max(len(everything), len(errors)) - 1, len(listed) - len(everything)
    counted = ([f"{rest} more error{'s' if rest > 1 else ''}"] if rest else []) + (
        [f"{warned} warning{'s' if warned > 1 else ''}"] if warned else [])
    more = f"{' and '.join(counted)}; " if counted else ""
    error = UserError(f"{errors[0]} ({more}every problem: {check})")
    error.severity_said = True
    return error


def opposed_type(name: str) -> ConflictType:
    """The conflict type ``--type NAME`` names, refused unless two people can fight it (odds, duel)."""
    from ..rules.conflict_types import conflict_type

    try:
        ctype = conflict_type(name)
    except KeyError as exc:
        raise UserError(exc.args[0]) from None
    if ctype.static:
        raise UserError(f"--type {ctype.key}: {ctype.name} is against an obstacle, not a person; "
                        "pick an opposed type (combat, social, foot_chase …)")
    return ctype


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="solo")
def cli() -> None:
    """solo — a Game Master in your terminal for the Comae Engine.

    Play an adventure alone or with friends around one keyboard, ask the
    oracle, roll dice for your own table, and test adventures before you run
    them. Every command takes --help.
    """


def main(argv: Sequence[str] | None = None) -> None:
    from ..collector import tune
    from .output import prepare

    tune()
    prepare()  # plain text on a terminal that is not UTF-8; a closed or full output ends quietly
    cli.main(args=argv)
