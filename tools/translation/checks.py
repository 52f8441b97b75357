"""Checks of the translations: translate-toolkit's for links and
{placeholders}; the project's for math, code spans, numbers, a block's
structure and the glossary."""

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
# what must be the same in both languages: numbers as digits, as 5,000 is
# 5.000 and 0.5 is 0,5 (translate-toolkit's numbers check tells them apart)
SAME = {
    "math differ": lambda text: sorted(
        " ".join(m.split()) for m in MATH.findall(text)
    ),
    "code spans differ": lambda text: sorted(CODE_SPAN.findall(text)),
    "numbers differ": lambda text: sorted(
        re.sub("[.,]", "", n) for n in NUMBER.findall(bare(text))
    ),
}
STRUCTURE = {  # of a markdown block
    "heading level differs": lambda text: (HEADING.findall(text) or [None])[0],
    "list marker differs": lambda text: (
        (ITEM.findall(text) or [" "])[0].strip() or None
    ),
    "table differs": lambda text: [
        line.count("|") for line in text.split("\n") if line[:1] == "|"
    ],
}
TESTS = {"links differ": "urls", "{placeholders} differ": "pythonbraceformat"}


def entry_problems(entry, glossary=None):
    """Return what is wrong with one PO entry (an empty list if nothing)."""
    english, portuguese = entry.msgid, entry.msgstr
    if not portuguese:
        return ["no translation"]
    if entry.fuzzy:
        old = (entry.previous_msgid or "").split("\n")[0][:60]
        return [
            f"fuzzy: the English changed (it was: '{old}...'); "
            "translate it again and remove the fuzzy flag"
        ]
    if portuguese == english and KEEP not in (entry.tcomment or ""):
        return [f"left in English with no '{KEEP}' comment"]
    if portuguese == english:
        return []
    code = entry.msgctxt == CODE
    found = [
        f"{what}: {a!r} in English, {b!r}"
        for what, same in ({**SAME} if code else {**STRUCTURE, **SAME}).items()
        if (a := same(english)) != (b := same(portuguese))
    ]
    # translate-toolkit's; in a {placeholder}, a string's words are the
    # translator's ({'on' if x else 'off'})
    texts = [
        PLACEHOLDER.sub(lambda m: QUOTED.sub("''", m[0]), text)
        for text in (english, portuguese)
    ]
    for what, test in list(TESTS.items())[: 1 + code]:
        try:
            getattr(CHECKER, test)(*texts)
        except checks.FilterFailure as failure:
            found.append(f"{what}: {failure}")
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
            wanted = " | ".join(wanted)
            found.append(
                f"glossary: '{terms[0]}' must be translated '{wanted}'"
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
        where = f"{Path(notebook).name}, cell {cells[0]}: '{first}...'"
        found += [f"{where}: {problem}" for problem in problems]
    return found
