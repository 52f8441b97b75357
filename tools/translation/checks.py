"""Checks of the translations: translate-toolkit's for links and
{placeholders}; the project's for math, code spans, numbers, structure,
the glossary."""

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
TESTS = {"links": "urls", "{placeholders}": "pythonbraceformat"}
NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*")
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def _numbers(text):
    """Return the numbers of text as digits, sorted: 5,000 reads as 5.000
    and 0.5 as 0,5 (translate-toolkit's check tells them apart)."""
    return sorted(re.sub(r"[.,]", "", n) for n in NUMBER.findall(bare(text)))


def _spans(text):
    """Return the math and code spans of text, the heading level, list
    marker and table shape of a block."""
    heading, item = HEADING.match(text), ITEM.match(text)
    return {
        "math": sorted(re.sub(r"\s+", " ", m) for m in MATH.findall(text)),
        "code spans": sorted(CODE_SPAN.findall(text)),
        "heading level": heading and heading.group(1),
        "list marker": item and item.group(1).strip(),
        "table": [
            line.count("|") for line in text.split("\n") if line[:1] == "|"
        ],
    }


def _failure(test, english, portuguese):
    """Return what translate-toolkit's test finds, or None. In a
    {placeholder}, a string's words are the translator's."""
    texts = (
        PLACEHOLDER.sub(lambda m: QUOTED.sub("''", m[0]), text)
        for text in (english, portuguese)
    )
    try:
        return getattr(CHECKER, test)(*texts) and None
    except checks.FilterFailure as failure:
        return str(failure)


def entry_problems(entry, glossary=None):
    """Return what is wrong with one PO entry (an empty list if nothing)."""
    english, portuguese, code = (
        entry.msgid,
        entry.msgstr,
        entry.msgctxt == CODE,
    )
    if not portuguese:
        return ["no translation"]
    if entry.fuzzy:
        old = (entry.previous_msgid or "").split("\n")[0][:60]
        return [
            f"fuzzy: the English changed (it was: '{old}...'); "
            "translate it again and remove the fuzzy flag"
        ]
    if portuguese == english:
        if KEEP in (entry.tcomment or ""):
            return []
        return [f"left in English with no '{KEEP}' comment"]
    found, spans = (
        [],
        zip(_spans(english).items(), _spans(portuguese).values()),
    )
    for (what, a), b in spans:
        spans = what in ("math", "code spans")  # else the block's structure
        if a != b and (spans or not code):
            found.append(
                f"{what} differ{'' if spans else 's'}: {a!r} in English, {b!r}"
            )
    for what, test in list(TESTS.items())[: 1 + code]:
        if failure := _failure(test, english, portuguese):
            found.append(f"{what} differ: {failure}")
    if (a := _numbers(english)) != (b := _numbers(portuguese)):
        found.append(f"numbers differ: {a} in English, {b}")
    return found + glossary_problems(entry, glossary)


def read_glossary(path=GLOSSARY):
    """Return [(english forms, portuguese forms, forms to avoid, instead)]."""
    lines = path.read_text(encoding="utf-8").split("\n")
    lines = [line for line in lines if line.strip() and line[0] != "#"]
    return [  # the first line: the header
        tuple(
            [f.strip() for f in column.split("|") if f.strip()]
            for column in (line.split("\t") + ["", "", ""])[:4]
        )
        for line in lines[1:]
    ]


def _has(forms, text):
    """Return whether text has one of forms as a word."""
    words = (rf"(?<![\w-]){re.escape(form)}(?![\w-])" for form in forms)
    return any(re.search(word, text, re.I) for word in words)


def glossary_problems(entry, glossary=None):
    """Return the glossary terms an entry translates another way."""
    if KEEP in (entry.tcomment or ""):
        return []
    # a line break in a string of code, "\n", is a space to the terms
    english, portuguese = (
        bare(text.replace("\\n", " ")) for text in (entry.msgid, entry.msgstr)
    )
    found = []
    for terms, wanted, avoid, instead in glossary or read_glossary():
        if wanted and _has(terms, english) and not _has(wanted, portuguese):
            found.append(
                f"glossary: '{terms[0]}' must be translated "
                f"'{' | '.join(wanted)}'"
            )
        if refused := [form for form in avoid if _has([form], portuguese)]:
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
        problems = (
            ["not in the PO file (run make po)"]
            if entry is None
            else entry_problems(entry, glossary)
        )
        first = " ".join(key[1].split()[:6])
        found += [
            f"{Path(notebook).name}, cell {cells[0]}: '{first}...': {problem}"
            for problem in problems
        ]
    return found
