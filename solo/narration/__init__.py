"""Narration: engine events told as prose from templates (docs/narration.md).

Nothing here prints or rolls the game's dice: templates are data, a
:class:`Narrator` picks lines with the generator it is handed, and renderers
decide when (and whether) to ask for text.
"""

from typing import TYPE_CHECKING

from solo.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from .cast import Cast, Person, spoken_name
    from .lint import check_templates, required_keys
    from .narrator import FORMAT_VERSION, Narrator, narration_rng
    from .templates import (
        ANY,
        EVENTS,
        GENERIC,
        LENSES,
        MIN_LINES,
        SLOTS,
        TRAITS,
        EventSpec,
        Problem,
        Template,
        Templates,
        load_templates,
        parse_template,
        trait_key,
    )
    from .text import article_for, capitalise, fill, fix_articles
    from .transcript import Passage, narrate_events

# Each public name and the submodule that holds it: imported on first use, so that
# importing one submodule does not load the whole package (start-up time, issue 17).
_EXPORTS = {
    "Cast": "cast",
    "Person": "cast",
    "spoken_name": "cast",
    "check_templates": "lint",
    "required_keys": "lint",
    "FORMAT_VERSION": "narrator",
    "Narrator": "narrator",
    "narration_rng": "narrator",
    "ANY": "templates",
    "EVENTS": "templates",
    "GENERIC": "templates",
    "LENSES": "templates",
    "MIN_LINES": "templates",
    "SLOTS": "templates",
    "TRAITS": "templates",
    "EventSpec": "templates",
    "Problem": "templates",
    "Template": "templates",
    "Templates": "templates",
    "load_templates": "templates",
    "parse_template": "templates",
    "trait_key": "templates",
    "article_for": "text",
    "capitalise": "text",
    "fill": "text",
    "fix_articles": "text",
    "Passage": "transcript",
    "narrate_events": "transcript",
}

__getattr__ = lazy_exports(__name__, _EXPORTS)

__all__ = [
    "ANY",
    "Cast",
    "EVENTS",
    "EventSpec",
    "FORMAT_VERSION",
    "GENERIC",
    "LENSES",
    "MIN_LINES",
    "Narrator",
    "Passage",
    "Person",
    "Problem",
    "SLOTS",
    "TRAITS",
    "Template",
    "Templates",
    "article_for",
    "capitalise",
    "check_templates",
    "fill",
    "fix_articles",
    "load_templates",
    "narrate_events",
    "narration_rng",
    "parse_template",
    "required_keys",
    "spoken_name",
    "trait_key",
]
