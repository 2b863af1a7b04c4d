"""``solo prove``: every state an adventure can reach, searched, and what that proves.

Beside ``check``, ``simulate`` and ``map``, this is testing an adventure before anyone plays it:
the search (:mod:`.search`) over compact states (:mod:`.reads`), each choice's outcomes with
their chances (:mod:`.chances`) played on a probe game (:mod:`.probe`), the findings
(:mod:`.judge`), the report and its exit codes (:mod:`.report`) and the walkthroughs that replay
them (:mod:`.walkthrough`). :mod:`.limits` holds the defaults ``--help`` names without importing
the search.
"""
