"""The language of what the package says: messages and numbers.

Written by hand, like the exercises' checks: it teaches nothing about
attention. Each notebook's set-up calls ``use_language`` once with its
edition's language. A message is written in English in the code, inside
``tr(...)``; its translations are gettext catalogs,
``locale/LANGUAGE/d2l_attention.po`` (``make po`` adds new messages to
them). Numbers are written the way the language writes them: ``0.35`` and
``2,097,152`` in English, ``0,35`` and ``2.097.152`` in Portuguese.
"""

import gettext
import io
import numbers
import string
from pathlib import Path

import polib

__all__ = ["use_language", "tr", "number", "written"]

LANGUAGES = ("en", "pt_BR")  # English is the language of the code
DOMAIN = "d2l_attention"  # the catalogs' name
# the project's locale/ folder, beside the package (installed as the
# project installs it, editable: pip install -e .)
LOCALE = Path(__file__).resolve().parent.parent / "locale"
# a decimal point and thousands separator, each language's way
SEPARATORS = {"en": ".,", "pt_BR": ",."}
LIST_SEPARATORS = {"en": ", ", "pt_BR": "; "}  # between a list's numbers
# what pyplot calls on each new figure in another language than English:
# tick labels written the language's way
FIGURE_HOOK = "d2l_attention.plotting:localize_figure"


class _Language:
    """The language in use and its catalog (one per process)."""

    name = "en"
    catalog = gettext.NullTranslations()


def catalog_path(language):
    """Return the path of a language's catalog of messages."""
    return LOCALE / language / f"{DOMAIN}.po"


def use_language(language):
    """Write the package's messages and numbers in language from now on,
    and the tick labels of the figures pyplot makes.

    language: "en" (English) or "pt_BR" (Brazilian Portuguese).
    """
    if language not in LANGUAGES:
        raise ValueError(
            f"language must be one of {', '.join(map(repr, LANGUAGES))}, "
            f"got {language!r}"
        )
    catalog = gettext.NullTranslations()
    if language != "en":
        path = catalog_path(language)
        if not path.is_file():
            raise FileNotFoundError(
                f"the catalog of {language} messages is missing: {path}"
            )
        # the PO file as gettext reads it: its usable entries (translated,
        # not fuzzy) compiled to the MO format in memory
        binary = polib.pofile(str(path)).to_binary()
        catalog = gettext.GNUTranslations(io.BytesIO(binary))
    _Language.name, _Language.catalog = language, catalog
    import matplotlib  # here: importing the models imports no matplotlib

    hooks = [
        h for h in matplotlib.rcParams["figure.hooks"] if h != FIGURE_HOOK
    ]
    matplotlib.rcParams["figure.hooks"] = hooks + [FIGURE_HOOK] * (
        language != "en"
    )


def number(value, spec=""):
    """Return value formatted by spec (Python's format mini-language),
    with the decimal point and thousands separator of the language.

    A list or tuple gives each of its numbers so, in brackets, separated as
    the language separates them: [0.5, 1.5] in English, [0,5; 1,5] in
    Portuguese, where a comma is the decimal point.
    """
    if isinstance(value, (list, tuple)):
        between = LIST_SEPARATORS[_Language.name]
        return "[" + between.join(number(v, spec) for v in value) + "]"
    return written(format(value, spec))


class _Formatter(string.Formatter):
    """str.format that writes numbers the language's way."""

    def format_field(self, value, format_spec):
        if isinstance(value, numbers.Real) and not isinstance(value, bool):
            return number(value, format_spec)
        return super().format_field(value, format_spec)


def tr(message, /, **values):
    """Return message in the language in use, values in its {fields}.

    message: the English, a literal string (``make po`` finds it in the
    code); its {fields} are filled as str.format fills them, numbers
    written the language's way, so a literal brace is written twice.
    """
    return _Formatter().format(_Language.catalog.gettext(message), **values)


def written(text):
    """Return text, numbers as Python writes them, the language's way."""
    if _Language.name == "en":
        return text
    point, thousands = SEPARATORS[_Language.name]
    return text.translate(str.maketrans(".,", point + thousands))
