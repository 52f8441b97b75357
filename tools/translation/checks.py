"""Checks of the translations (tests/test_translations.py runs them):
translate-toolkit's for links and {placeholders}, the project's own for
math, code spans, numbers, structure and the glossary."""

import re
from pathlib import Path

import polib
from translate.filters import checks

from .. import project
from .catalog import CODE, extract, po_path
from .markdown import CODE_SPAN, HEADING, ITEM, MATH, PLACEHOLDER, bare

KEEP = "stays English"  # translator comment of a string kept as it is
GLOSSARY = project.LOCALE / "glossary.tsv"
CHECKER = checks.StandardChecker()
NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*")
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def _numbers(text):
    """Return the numbers of text as digits, sorted: 5,000 and 5.000 read
    alike, as do 0.5 and 0,5 (each language groups and separates its way;
    translate-toolkit's numbers check takes 0,5 for another number)."""
    return sorted(re.sub(r"[.,]", "", n) for n in NUMBER.findall(bare(text)))


def _spans(pattern, text):
    """Return the spans of pattern in text, sorted."""
    return sorted(re.sub(r"\s+", " ", m) for m in pattern.findall(text))


def _structure(text):
    """Return the heading level, list marker and table shape of a block."""
    heading, item = HEADING.match(text), ITEM.match(text)
    table = [line.count("|") for line in text.split("\n") if line[:1] == "|"]
    return (heading.group(1) if heading else None,
            item.group(1).strip() if item else None, table)  # fmt: skip


def _failure(test, english, portuguese):
    """Return what translate-toolkit's test finds, or None. In a
    {placeholder}, a string's words are the translator's."""
    english, portuguese = (
        PLACEHOLDER.sub(lambda m: QUOTED.sub("''", m[0]), text)
        for text in (english, portuguese)
    )
    try:
        getattr(CHECKER, test)(english, portuguese)
    except checks.FilterFailure as failure:
        return str(failure)
    return None


def entry_problems(entry, glossary=None):
    """Return what is wrong with one PO entry (an empty list if nothing)."""
    if not entry.msgstr:
        return ["no translation"]
    if entry.fuzzy:
        old = (entry.previous_msgid or "").split("\n")[0][:60]
        return [f"fuzzy: the English changed (it was: '{old}...'); "
                "translate it again and remove the fuzzy flag"]  # fmt: skip
    english, portuguese = entry.msgid, entry.msgstr
    if portuguese == english:
        comment = entry.tcomment or ""
        return (
            []
            if KEEP in comment
            else [f"left in English with no '{KEEP}' comment"]
        )
    found, code = [], entry.msgctxt == CODE
    shapes = zip(("heading level", "list marker", "table"),
                 _structure(english), _structure(portuguese))  # fmt: skip
    found += [f"{what} differs: {a!r} in English, {b!r}"
              for what, a, b in shapes if a != b and not code]  # fmt: skip
    for what, pattern in (("math", MATH), ("code spans", CODE_SPAN)):
        a, b = _spans(pattern, english), _spans(pattern, portuguese)
        found += [f"{what} differ: {a} in English, {b}"] if a != b else []
    tests = [("links", "urls")] + [
        ("{placeholders}", "pythonbraceformat")
    ] * code
    for what, test in tests:
        if failure := _failure(test, english, portuguese):
            found.append(f"{what} differ: {failure}")
    a, b = _numbers(english), _numbers(portuguese)
    found += [f"numbers differ: {a} in English, {b}"] if a != b else []
    return found + glossary_problems(entry, glossary)


def read_glossary(path=GLOSSARY):
    """Return [(english forms, portuguese forms, forms to avoid, instead)]."""
    text = path.read_text(encoding="utf-8")
    lines = [line for line in text.split("\n")
             if line.strip() and not line.startswith("#")]  # fmt: skip
    rows = []
    for line in lines[1:]:  # the header
        columns = (line.split("\t") + ["", "", ""])[:4]
        rows.append(tuple([form.strip() for form in column.split("|")
                           if form.strip()] for column in columns))  # fmt: skip
    return rows


def _has(forms, text):
    """Return whether text has one of forms as a word."""
    return any(re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text, re.I)
               for form in forms)  # fmt: skip


def glossary_problems(entry, glossary=None):
    """Return the glossary terms an entry translates another way."""
    if KEEP in (entry.tcomment or ""):
        return []
    glossary = read_glossary() if glossary is None else glossary
    # a line break in a string of code, "\n", is a space to the terms
    english, portuguese = (bare(text.replace("\\n", " "))
                           for text in (entry.msgid, entry.msgstr))  # fmt: skip
    found = []
    for english_forms, portuguese_forms, avoid, instead in glossary:
        if (portuguese_forms and _has(english_forms, english)
                and not _has(portuguese_forms, portuguese)):  # fmt: skip
            found.append(f"glossary: '{english_forms[0]}' must be "
                         f"translated '{' | '.join(portuguese_forms)}'")  # fmt: skip
        refused = [form for form in avoid if _has([form], portuguese)]
        if refused:
            better = f" (write: {' | '.join(instead)})" if instead else ""
            found.append(f"glossary: avoid {', '.join(refused)}{better}")
    return found


def po_problems(notebook):
    """Return every problem of a notebook's PO file, each named."""
    po = polib.pofile(str(po_path(notebook)))
    entries = {(e.msgctxt, e.msgid): e for e in po if not e.obsolete}
    glossary, found = read_glossary(), []
    for key, cells in extract(notebook).items():
        entry = entries.get(key)
        problems = (["not in the PO file (run make po)"] if entry is None
                    else entry_problems(entry, glossary))  # fmt: skip
        first = " ".join(key[1].split()[:6])
        found += [f"{Path(notebook).name}, cell {cells[0]}: '{first}...': "
                  f"{problem}" for problem in problems]  # fmt: skip
    return found
