"""The checks of the Portuguese edition's PO files, which
tests/test_translations.py runs: every English block and string has an
entry, translated (not fuzzy; left in English only with a 'stays English'
comment) and true to the English. A translation keeps its links and
{placeholders} (translate-toolkit's checks), its math, code spans and
numbers, a block's structure, the glossary's terms, and none of the
glossary's refused forms (the project's own checks). The catalog of the
package's messages (locale/pt_BR/d2l_attention.po) is held by the same
checks, each message a string of code."""

import re
import string
from pathlib import Path

import polib
from translate.filters import checks

from tools import project
from tools.portuguese.catalog import (
    CODE,
    PACKAGE_PO,
    extract,
    package_messages,
    po_path,
)
from tools.portuguese.markdown_blocks import (
    CODE_SPAN,
    ITEM,
    MATH,
    PLACEHOLDER,
    bare,
)

KEEP = "stays English"  # translator comment of a string kept as it is
GLOSSARY = project.LOCALE / "glossary.tsv"
CHECKER = checks.StandardChecker()
HEADING = re.compile(r"^(#{1,6} )")
NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*")
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
# the dimensions of a shape in the prose, written in Portuguese as the
# error messages write them: `(batch_size, nº de consultas)`
SHAPE_WORDS = {
    "consultas": "queries",
    "chaves": "keys",
    "passos": "steps",
    "itens": "items",
    "colunas": "columns",
    "linhas": "rows",
}
SHAPE_PT = re.compile(r"nº(\s+)de(\s+)(" + "|".join(SHAPE_WORDS) + r")\b")
SHAPE_EN = re.compile(r"\bno\.\s+of\b")
# translate-toolkit's tests: links everywhere, placeholders in code only
LINKS = {"links differ": "urls"}
PLACEHOLDERS = {"{placeholders} differ": "pythonbraceformat"}


def _kept(text, code):
    """Return, by message, what a translation of text keeps: its math, code
    spans and numbers (as digits: 5,000 is 5.000 and 0.5 is 0,5, which
    translate-toolkit's numbers check tells apart); a block's structure."""
    numbers = NUMBER.findall(bare(text))
    kept = {
        "math differ": sorted(" ".join(m.split()) for m in MATH.findall(text)),
        "code spans differ": sorted(CODE_SPAN.findall(text)),
        "numbers differ": sorted(re.sub("[.,]", "", n) for n in numbers),
    }
    if not code:  # a markdown block: its heading level, list marker, table
        heading, item = HEADING.match(text), ITEM.match(text)
        kept["heading level differs"] = heading and heading.group(1)
        kept["list marker differs"] = item and item.group(1).strip()
        table = [line for line in text.split("\n") if line[:1] == "|"]
        kept["table differs"] = [line.count("|") for line in table]
    return kept


def entry_problems(entry, glossary=None, code=None):
    """Return what is wrong with one PO entry (an empty list if nothing).

    code: whether it is a string of code, whose {placeholders} must match
    (by default, whether its msgctxt says so)."""
    english, portuguese = entry.msgid, entry.msgstr
    if not portuguese:
        return ["no translation"]
    if entry.fuzzy:
        old = (entry.previous_msgid or "").split("\n")[0][:60]
        return [
            f"fuzzy: the English changed (it was: '{old}...'); "
            "translate it again and remove the fuzzy flag"
        ]
    if portuguese == english:
        kept = KEEP in (entry.tcomment or "")
        return [] if kept else [f"left in English with no '{KEEP}' comment"]
    code = entry.msgctxt == CODE if code is None else code
    wanted, found = _kept(english, code), []
    if not code and any(
        SHAPE_EN.search(s) for s in CODE_SPAN.findall(portuguese)
    ):
        found.append(
            "a shape keeps 'no. of': write 'nº de consultas' as the error "
            "messages do"
        )
    # a shape's dimensions, in Portuguese, name the English ones
    as_english = SHAPE_PT.sub(
        lambda m: f"no.{m[1]}of{m[2]}{SHAPE_WORDS[m[3]]}", portuguese
    )
    for what, kept in _kept(as_english, code).items():
        if kept != wanted[what]:
            found.append(f"{what}: {wanted[what]!r} in English, {kept!r}")
    # translate-toolkit's tests; in a {placeholder}, a string's words are
    # the translator's ({'on' if x else 'off'})
    texts = [
        PLACEHOLDER.sub(lambda m: QUOTED.sub("''", m[0]), text)
        for text in (english, portuguese)
    ]
    for what, test in (LINKS | PLACEHOLDERS if code else LINKS).items():
        try:
            getattr(CHECKER, test)(*texts)
        except checks.FilterFailure as failure:
            found.append(f"{what}: {failure}")
    return found + glossary_problems(entry, glossary)


def read_glossary():
    """Return [(english forms, portuguese forms, forms to avoid, instead)]."""
    lines = GLOSSARY.read_text(encoding="utf-8").split("\n")
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
    english, portuguese = bare(entry.msgid), bare(entry.msgstr)
    found = []
    glossary = read_glossary() if glossary is None else glossary
    for terms, wanted, avoid, instead in glossary:
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
    glossary, found = read_glossary(), []
    for (context, msgid), cells in extract(notebook).items():
        entry = po.find(msgid, msgctxt=context)  # not an obsolete one
        problems = ["not in the PO file (run make po)"]
        if entry is not None:
            problems = entry_problems(entry, glossary)
        first = " ".join(msgid.split()[:6])
        where = f"{Path(notebook).name}, cell {cells[0]}: '{first}...'"
        found += [f"{where}: {problem}" for problem in problems]
    return found


def package_problems(package=None, path=None):
    """Return every problem of the catalog of the package's messages (at
    path; by default the project's), each named with the file that says
    it: the same checks as the notebooks' PO files."""
    po = polib.pofile(str(path or PACKAGE_PO))
    glossary, found = read_glossary(), []
    for (_, msgid), places in package_messages(package).items():
        entry = po.find(msgid)  # not an obsolete one
        problems = ["not in the catalog (run make po)"]
        if entry is not None:
            problems = entry_problems(entry, glossary, code=True)
            problems += field_problems(entry)
        first = " ".join(msgid.split()[:6])
        where = f"{Path(path or PACKAGE_PO).name}, {places[0]}: '{first}...'"
        found += [f"{where}: {problem}" for problem in problems]
    return found


def _fields(text):
    """Return the sorted {fields} (name, conversion, spec) str.format reads
    in text; raise ValueError for a stray brace."""
    parsed = string.Formatter().parse(text)
    return sorted((n, c or "", s) for _, n, s, c in parsed if n is not None)


def field_problems(entry):
    """Return a problem if a message's translation would not format as its
    English does: a stray brace, or other fields (tr fills them)."""
    try:
        wanted = _fields(entry.msgid)
        found = _fields(entry.msgstr)
    except ValueError as error:
        return [f"a brace str.format cannot read: {error}"]
    if found != wanted:
        return [f"fields differ: {wanted} in English, {found}"]
    return []
