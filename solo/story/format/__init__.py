"""An adventure as a file: reading its TOML, checking every field, the typed objects, the scene graph.

What an author writes and ``solo check`` judges. The verbs' fields and checks live with their play
(:mod:`solo.story.play.actions`, :mod:`solo.story.play.effects`, issue 29 point 8: a verb owns its
check, its resolve and its chances in one class), so :mod:`.schema` and :mod:`.graph` read the
verb registries there, and the few constants a field's check compares with (knowledge facets, NPC
recovery, Luck commands); nothing else here imports play (a test holds it).
"""
