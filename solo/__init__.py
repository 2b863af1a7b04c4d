"""solo: a terminal Game Master for the Comae Engine.

Kept empty on purpose: ``solo --help`` must start fast, so nothing heavy is
imported until a command needs it.
"""

__version__ = "0.1.0"
