"""NPCs: Code Blocks, stats by level and a generator (docs/rules.md §7).

Pure game data: every roll takes the caller's ``random.Random``, nothing
prints, and the only I/O is reading the bundled tables. The NPC *minds* that
turn a Code Block into choices build on :func:`solo.npc.leanings.leanings`
(imported from its module: a name that is also a submodule is not re-exported here).
"""

from typing import TYPE_CHECKING

from solo.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from .codeblock import CodeBlock, RecentEvent, Trait, roll_code_block, roll_event, roll_motivation, roll_trait
    from .disposition import (
        colder,
        disposition_modifier,
        disposition_names,
        disposition_step,
        normalise_disposition,
        shift_disposition,
        warmer,
    )
    from .generate import generate_npc, level_problems
    from .leanings import Leanings
    from .levels import LEVELS, TIER_ALIASES, Level, NPCError, level_named, level_pools, level_skills
    from .model import NPC
    from .roles import Role, load_roles, role_named
    from .tables import LEAN_LENS, LEANS, LENS_LEANS, CodeBlockTables, codeblocks, load_codeblocks

# Each public name and the submodule that holds it: imported on first use, so that
# importing one submodule does not load the whole package (start-up time, issue 17).
_EXPORTS = {
    "CodeBlock": "codeblock",
    "RecentEvent": "codeblock",
    "Trait": "codeblock",
    "roll_code_block": "codeblock",
    "roll_event": "codeblock",
    "roll_motivation": "codeblock",
    "roll_trait": "codeblock",
    "colder": "disposition",
    "disposition_modifier": "disposition",
    "disposition_names": "disposition",
    "disposition_step": "disposition",
    "normalise_disposition": "disposition",
    "shift_disposition": "disposition",
    "warmer": "disposition",
    "generate_npc": "generate",
    "level_problems": "generate",
    "Leanings": "leanings",
    "LEVELS": "levels",
    "TIER_ALIASES": "levels",
    "Level": "levels",
    "NPCError": "levels",
    "level_named": "levels",
    "level_pools": "levels",
    "level_skills": "levels",
    "NPC": "model",
    "Role": "roles",
    "load_roles": "roles",
    "role_named": "roles",
    "LEAN_LENS": "tables",
    "LEANS": "tables",
    "LENS_LEANS": "tables",
    "CodeBlockTables": "tables",
    "codeblocks": "tables",
    "load_codeblocks": "tables",
}

__getattr__ = lazy_exports(__name__, _EXPORTS)

__all__ = [
    "CodeBlock",
    "CodeBlockTables",
    "LEANS",
    "LEAN_LENS",
    "LENS_LEANS",
    "LEVELS",
    "Leanings",
    "Level",
    "NPC",
    "NPCError",
    "RecentEvent",
    "Role",
    "TIER_ALIASES",
    "Trait",
    "codeblocks",
    "colder",
    "disposition_modifier",
    "disposition_names",
    "disposition_step",
    "generate_npc",
    "level_named",
    "level_pools",
    "level_problems",
    "level_skills",
    "load_codeblocks",
    "load_roles",
    "normalise_disposition",
    "role_named",
    "roll_code_block",
    "roll_event",
    "roll_motivation",
    "roll_trait",
    "shift_disposition",
    "warmer",
]
