"""Deciders: everything that answers the engine's questions.

The human at the terminal, a script file, a bot and an NPC mind all implement
:class:`~solo.decisions.Decider`, so play, tests and auto-play run the same
engine code.
"""

from ..decisions import Decider, Option, Question, QuestionError  # noqa: F401
