"""The oracle: a GM emulator for questions nobody wrote an answer to.

Everything here takes the game's ``random.Random``, performs no I/O (except
:func:`load_tables`, which reads table files) and returns dataclasses with
``to_dict()``. See docs/oracle.md for the maths and docs/tables.md for the
table format.
"""

from .answer import GRADES, NEAR_MISS, OracleAnswer, OracleOdds, ask, grade, oracle_odds
from .likelihood import (
    COMAE_WORDS,
    LADDER,
    TENSION_MAX,
    TENSION_MIN,
    TENSION_NEUTRAL,
    Likelihood,
    OracleError,
    chance_of_yes,
    check_tension,
    likelihood,
)
from .loader import load_tables, table_folders
from .random_events import Meaning, RandomEvent, event_triggered, meaning, random_event
from .reactions import DISPOSITIONS, Reaction, npc_reaction, reaction_odds
from .scenes import SceneSetup, scene_odds, set_up_scene
from .state import OracleState, lower_tension, raise_tension, tension_after_scene
from .tables import Row, Table, TableResult, TableSet, UnknownTable

__all__ = [
    "GRADES", "NEAR_MISS", "OracleAnswer", "OracleOdds", "ask", "grade", "oracle_odds",
    "COMAE_WORDS", "LADDER", "TENSION_MAX", "TENSION_MIN", "TENSION_NEUTRAL", "Likelihood",
    "OracleError", "chance_of_yes", "check_tension", "likelihood",
    "load_tables", "table_folders",
    "Meaning", "RandomEvent", "event_triggered", "meaning", "random_event",
    "DISPOSITIONS", "Reaction", "npc_reaction", "reaction_odds",
    "SceneSetup", "scene_odds", "set_up_scene",
    "OracleState", "lower_tension", "raise_tension", "tension_after_scene",
    "Row", "Table", "TableResult", "TableSet", "UnknownTable",
]
