"""In-game commands that show or change the state of the story (threads, NPCs, dice, tables, meaning).

Each is registered with :mod:`solo.ui.table_commands`.
"""

from __future__ import annotations
