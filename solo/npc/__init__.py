"""NPCs: Code Blocks, stats by level and a generator (docs/rules.md §7).

Pure game data: every roll takes the caller's ``random.Random``, nothing
prints, and the only I/O is reading the bundled tables. The NPC *minds* that
turn a Code Block into choices build on :func:`leanings`.
"""

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
from .leanings import Leanings, leanings
from .levels import LEVELS, TIER_ALIASES, Level, NPCError, level_named, level_pools, level_skills
from .model import NPC
from .roles import Role, load_roles, role_named, roles
from .tables import LEAN_LENS, LEANS, LENS_LEANS, CodeBlockTables, codeblocks, load_codeblocks

__all__ = [
    "CodeBlock", "CodeBlockTables", "LEANS", "LENS_LEANS", "LEAN_LENS", "LEVELS", "Leanings", "Level",
    "NPC", "NPCError", "RecentEvent", "Role", "TIER_ALIASES", "Trait", "codeblocks", "colder",
    "disposition_modifier", "disposition_names", "disposition_step", "generate_npc", "leanings",
    "level_named", "level_pools", "level_problems", "level_skills", "load_codeblocks", "load_roles",
    "normalise_disposition", "role_named", "roles", "roll_code_block", "roll_event", "roll_motivation",
    "roll_trait", "shift_disposition", "warmer",
]
