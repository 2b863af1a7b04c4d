"""Testing adventures before anyone plays them: ``check`` (lint), ``simulate`` (auto-play), ``graph`` (maps).

Nothing here prints: the commands in :mod:`solo.cli` render what these
modules return.
"""
