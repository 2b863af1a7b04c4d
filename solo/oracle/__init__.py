"""The oracle: a GM emulator for questions nobody wrote an answer to.

Everything here takes the game's ``random.Random``, performs no I/O (except
:func:`load_tables`, which reads table files) and returns dataclasses with
``to_dict()``. See docs/oracle.md for the maths and docs/tables.md for the
table format.
"""

from typing import TYPE_CHECKING

from solo.lazy_exports import lazy_exports

from .likelihood import likelihood  # eager: the function shares its module's name

if TYPE_CHECKING:
    from .answer import GRADES, NEAR_MISS, OracleAnswer, OracleOdds, Reading, ask, grade, oracle_odds, reading
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
    )
    from .loader import load_tables, table_folders
    from .random_events import Meaning, RandomEvent, event_triggered, meaning, random_event
    from .reactions import DISPOSITIONS, Reaction, npc_reaction, reaction_odds
    from .scenes import SceneSetup, scene_odds, set_up_scene
    from .state import (
        FLASHPOINTS,
        MAX_WEIGHT,
        TRACK,
        OracleState,
        ProgressStep,
        lower_tension,
        raise_tension,
        tension_after_scene,
    )
    from .tables import Row, Table, TableResult, TableSet, UnknownTable
    from .threads import Discovery, discover, discovery_chance, discovery_odds

# Each public name and the submodule that holds it: imported on first use, so that
# importing one submodule does not load the whole package (start-up time, issue 17).
_EXPORTS = {
    "GRADES": "answer",
    "NEAR_MISS": "answer",
    "OracleAnswer": "answer",
    "OracleOdds": "answer",
    "ask": "answer",
    "grade": "answer",
    "oracle_odds": "answer",
    "Reading": "answer",
    "reading": "answer",
    "COMAE_WORDS": "likelihood",
    "LADDER": "likelihood",
    "TENSION_MAX": "likelihood",
    "TENSION_MIN": "likelihood",
    "TENSION_NEUTRAL": "likelihood",
    "Likelihood": "likelihood",
    "OracleError": "likelihood",
    "chance_of_yes": "likelihood",
    "check_tension": "likelihood",
    "load_tables": "loader",
    "table_folders": "loader",
    "Meaning": "random_events",
    "RandomEvent": "random_events",
    "event_triggered": "random_events",
    "meaning": "random_events",
    "random_event": "random_events",
    "DISPOSITIONS": "reactions",
    "Reaction": "reactions",
    "npc_reaction": "reactions",
    "reaction_odds": "reactions",
    "SceneSetup": "scenes",
    "scene_odds": "scenes",
    "set_up_scene": "scenes",
    "OracleState": "state",
    "lower_tension": "state",
    "raise_tension": "state",
    "tension_after_scene": "state",
    "FLASHPOINTS": "state",
    "MAX_WEIGHT": "state",
    "TRACK": "state",
    "ProgressStep": "state",
    "Discovery": "threads",
    "discover": "threads",
    "discovery_chance": "threads",
    "discovery_odds": "threads",
    "Row": "tables",
    "Table": "tables",
    "TableResult": "tables",
    "TableSet": "tables",
    "UnknownTable": "tables",
}

__getattr__ = lazy_exports(__name__, _EXPORTS)

__all__ = [
    "COMAE_WORDS",
    "DISPOSITIONS",
    "Discovery",
    "FLASHPOINTS",
    "GRADES",
    "LADDER",
    "Likelihood",
    "MAX_WEIGHT",
    "Meaning",
    "NEAR_MISS",
    "OracleAnswer",
    "OracleError",
    "OracleOdds",
    "OracleState",
    "ProgressStep",
    "RandomEvent",
    "Reaction",
    "Reading",
    "Row",
    "SceneSetup",
    "TENSION_MAX",
    "TENSION_MIN",
    "TENSION_NEUTRAL",
    "TRACK",
    "Table",
    "TableResult",
    "TableSet",
    "UnknownTable",
    "ask",
    "chance_of_yes",
    "check_tension",
    "discover",
    "discovery_chance",
    "discovery_odds",
    "event_triggered",
    "grade",
    "likelihood",
    "load_tables",
    "lower_tension",
    "meaning",
    "npc_reaction",
    "oracle_odds",
    "raise_tension",
    "random_event",
    "reaction_odds",
    "reading",
    "scene_odds",
    "set_up_scene",
    "table_folders",
    "tension_after_scene",
]
