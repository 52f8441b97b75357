"""The Brazilian Portuguese edition: PO files from the English, notebooks
from the PO files.

    python tools/translate.py update [NOTEBOOK ...]  # refresh locale/pt_BR/
    python tools/translate.py build [NOTEBOOK ...]   # write notebooks/pt_BR/

The English notebooks are the source. `update` cuts their markdown into
blocks (a paragraph, a heading, a list item, a table) and collects the
strings of their code that a student sees (figure labels, widget
descriptions, printed sentences), and merges them into one PO file per
notebook, the way msgmerge does: an English text that changed keeps its
old translation, marked fuzzy, with the old English beside it (`#| msgid`).
With no notebook named it refreshes the notebooks that have a PO file;
naming a notebook starts its PO file.

`build` writes each translated notebook: the same cells and ids, the
markdown translated block by block (math, code and fences are left as they
are), the visible strings of the code replaced, and a first cell saying
where the file comes from. A code cell whose source did not change keeps
the outputs of the committed Portuguese notebook; the notebooks that need
running again are printed (`make pt` runs them).
"""

import argparse
import ast
import copy
import difflib
import io
import keyword as keyword_module
import re
import sys
import textwrap
import tokenize
from dataclasses import dataclass
from pathlib import Path

import nbformat
import polib

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LOCALE = ROOT / "locale" / "pt_BR"
OUT = NOTEBOOKS / "pt_BR"
GLOSSARY = LOCALE / "glossary.tsv"
CODE = "code"  # msgctxt of the strings of code cells
KEEP = "stays English"  # translator comment of a string kept as it is
FIRST_CELL_ID = "pt-br-generated"
WIDTH = 79
FUZZY_CUTOFF = 0.6  # msgmerge-like: a close old English keeps its text

# --------------------------------------------------------------------------
# Markdown: blocks


@dataclass
class Block:
    """Lines [start, end) of a markdown cell; key is what a PO entry holds."""

    start: int
    end: int
    kind: str  # heading, item, para, table or verbatim
    key: str
    marker: str = ""  # "## ", "1. ", "  - ": kept out of the wrapping


HEADING = re.compile(r"^(#{1,6} )")
ITEM = re.compile(r"^(\s*(?:[-*+]|\d+[.)]) )")
MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+\$", re.S)
CODE_SPAN = re.compile(r"`[^`]+`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
PLACEHOLDER = re.compile(r"(?<!\{)\{[^{}]*\}(?!\})")
LETTERS = re.compile(r"[A-Za-zÀ-ÿ]{2,}")


def _verbatim_end(lines, i):
    """Return the end of a fence or display-math block starting at line i."""
    line = lines[i].strip()
    fence = "```" if line.startswith("```") else "$$"
    if fence == "$$" and line.endswith("$$") and len(line) > 2:
        return i + 1
    for j in range(i + 1, len(lines)):
        if fence in lines[j]:
            return j + 1
    return len(lines)


def _is_start(line):
    stripped = line.strip()
    return (not stripped or HEADING.match(line) or ITEM.match(line)
            or stripped.startswith(("```", "$$", "|")))


def markdown_blocks(source):
    """Return the Blocks of a markdown source, in order."""
    lines = source.split("\n")
    blocks, i = [], 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            i += 1
        elif stripped.startswith(("```", "$$")):
            end = _verbatim_end(lines, i)
            blocks.append(Block(i, end, "verbatim", ""))
            i = end
        elif HEADING.match(line):
            marker = HEADING.match(line).group(1)
            blocks.append(Block(i, i + 1, "heading", line, marker))
            i += 1
        elif stripped.startswith("|"):
            end = i
            while end < len(lines) and lines[end].strip().startswith("|"):
                end += 1
            blocks.append(Block(i, end, "table", "\n".join(lines[i:end])))
            i = end
        else:
            marker = ITEM.match(line).group(1) if ITEM.match(line) else ""
            end = i + 1
            while end < len(lines) and lines[end].strip() and (
                    _open_math(lines[i:end]) or not _is_start(lines[end])):
                end += 1
            text = " ".join(part.strip() for part in lines[i:end])
            if marker:  # key: the marker without its indentation, the text
                rest = text[len(marker.strip()):].lstrip()
                text = marker.strip() + " " + rest
                blocks.append(Block(i, end, "item", text, marker))
            else:
                blocks.append(Block(i, end, "para", text))
            i = end
    for block in blocks:
        if block.kind != "verbatim" and not has_words(block.key):
            block.kind = "verbatim"  # nothing to translate
    return blocks


def _open_math(lines):
    """Whether inline math opened in lines is still open at their end."""
    text = re.sub(r"\\\$|\$\$", "", "\n".join(lines))
    return text.count("$") % 2 == 1


def has_words(text):
    """Whether text has words outside math, code spans and link targets."""
    return bool(LETTERS.search(_bare(text)))


# a space before what would start a list, a heading or a quote at the start
# of a line: wrapped text never breaks there
UNBREAKABLE = re.compile(r" (?=(?:[-+*>|]|#+|\d+[.)])(?: |$)|\$\$|```)")


def _wrap(text, first, rest, width=WIDTH):
    """Wrap text; no line starts with what markdown reads as structure."""
    lines = textwrap.wrap(UNBREAKABLE.sub("\0", text), width,
                          initial_indent=first, subsequent_indent=rest,
                          break_long_words=False, break_on_hyphens=False)
    return [line.replace("\0", " ") for line in lines]


def render_block(block, text):
    """Return the lines of a translated block."""
    if block.kind in ("heading", "table"):
        return text.split("\n")
    if block.kind == "item":
        indent = block.marker[:len(block.marker) - len(block.marker.lstrip())]
        marker = indent + text.split(" ", 1)[0] + " "
        body = text.split(" ", 1)[1] if " " in text else ""
        return _wrap(body, marker, " " * len(block.marker))
    return _wrap(text, "", "")


def translate_markdown(source, lookup):
    """Return source with every block replaced by lookup(key) (or kept)."""
    lines = source.split("\n")
    out, last = [], 0
    for block in markdown_blocks(source):
        out += lines[last:block.start]
        text = lookup(block.key) if block.kind != "verbatim" else None
        out += render_block(block, text) if text else lines[
            block.start:block.end]
        last = block.end
    return "\n".join(out + lines[last:])


# --------------------------------------------------------------------------
# Code: the strings a student sees

# keyword arguments whose strings are shown; and those that never are
VISIBLE_KEYWORDS = {"title", "titles", "xlabel", "ylabel", "label",
                    "description", "options", "placeholder", "tooltip",
                    "suptitle", "legend", "text", "value"}
HIDDEN_KEYWORDS = {"color", "cmap", "loc", "linestyle", "ls", "marker",
                   "dtype", "device", "mode", "reduction", "ha", "va",
                   "fontsize", "width", "layout", "style", "norm",
                   "interpolation", "aspect", "continuous_update", "xscale",
                   "yscale", "boxstyle", "indexing", "facecolor",
                   "edgecolor", "fc", "ec", "nonlinearity", "action",
                   "arrowstyle", "fmt", "weight", "family"}
# calls whose string arguments are shown
VISIBLE_CALLS = {"print", "set_title", "set_xlabel", "set_ylabel",
                 "title", "xlabel", "ylabel", "set_xticks", "set_yticks",
                 "set_xticklabels", "set_yticklabels", "bar", "barh",
                 "suptitle", "legend", "text", "annotate", "Label", "HTML",
                 "Markdown", "AssertionError", "ValueError", "TypeError"}
STRING = re.compile(r"^(?P<prefix>[A-Za-z]*)(?P<quote>'''|\"\"\"|'|\")"
                    r"(?P<body>.*)(?P=quote)$", re.S)


@dataclass
class CodeString:
    """One string literal, or several joined by implicit concatenation."""

    start: tuple  # (row, col) of its first token, rows from 1
    end: tuple
    key: str  # the text between the quotes, as written
    prefix: str
    quote: str
    pieces: int


def _literals(source, tokens):
    """Yield (start, end, text, tokens before it) of each string literal."""
    fstring_start = getattr(tokenize, "FSTRING_START", None)
    fstring_end = getattr(tokenize, "FSTRING_END", None)
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == tokenize.STRING:
            yield token.start, token.end, token.string, tokens[:i]
        elif fstring_start is not None and token.type == fstring_start:
            depth, j = 1, i + 1
            while depth:
                depth += {fstring_start: 1, fstring_end: -1}.get(
                    tokens[j].type, 0)
                j += 1
            yield token.start, tokens[j - 1].end, _span(
                source, token.start, tokens[j - 1].end), tokens[:i]
            i = j - 1
        i += 1


def _span(source, start, end):
    lines = source.split("\n")
    if start[0] == end[0]:
        return lines[start[0] - 1][start[1]:end[1]]
    return "\n".join([lines[start[0] - 1][start[1]:]]
                     + lines[start[0]:end[0] - 1]
                     + [lines[end[0] - 1][:end[1]]])


def _context(before, after):
    """Return (keyword, call, role) of a literal, from the tokens around it.

    keyword: the argument it is passed as, or that the bracket holding it
    is; call: the function whose brackets hold it; role: "key" for a
    dictionary key, "index" for a subscript, else None.
    """
    significant = [t for t in before if t.type not in (
        tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT,
        tokenize.DEDENT)]
    keyword = None
    if (len(significant) >= 2 and significant[-1].string == "="
            and significant[-2].type == tokenize.NAME):
        keyword = significant[-2].string
    stack = []  # (bracket, keyword before it, call name, token before it)
    for k, token in enumerate(significant):
        if token.string in "([{" and token.type == tokenize.OP:
            prev = significant[k - 1] if k else None
            kw = (significant[k - 2].string if k >= 2 and prev.string == "="
                  else None)
            call = (prev.string if prev is not None and token.string == "("
                    and prev.type == tokenize.NAME else None)
            stack.append((token.string, kw, call, prev))
        elif token.string in ")]}" and token.type == tokenize.OP and stack:
            stack.pop()
    role = None
    if stack:
        bracket, _, _, prev = stack[-1]
        if bracket == "{" and after is not None and after.string == ":":
            role = "key"
        elif bracket == "[" and prev is not None and (
                prev.string in ")]" or prev.type == tokenize.NAME
                and not keyword_module.iskeyword(prev.string)):
            role = "index"
    call = None
    for bracket, kw, name, _ in reversed(stack):
        keyword = keyword or kw
        if bracket == "(":
            call = name
            break
    return keyword, call, role


def _docstring_starts(tree):
    starts = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef,
                             ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr)
                    and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                starts.add((first.lineno, first.col_offset))
    return starts


def code_strings(source, every=False):
    """Return the CodeStrings of a code cell that a student may see.

    With every=True, all of its strings (but docstrings): a translated
    string is replaced everywhere in a cell, so that a dictionary key or a
    comparison keeps matching the label it names.
    """
    if source.startswith("#@save") or source.lstrip().startswith("%"):
        return []
    docstrings = _docstring_starts(ast.parse(source))
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    groups = []
    for start, end, text, before in _literals(source, tokens):
        parts = STRING.match(text)
        if parts is None or "b" in parts["prefix"].lower():
            continue
        previous = before[-1] if before else None
        joined = (groups and previous is not None
                  and groups[-1][-1]["end"] == _last_string_end(before))
        piece = {"start": start, "end": end, "prefix": parts["prefix"],
                 "quote": parts["quote"], "body": parts["body"],
                 "before": before}
        if joined:
            groups[-1].append(piece)
        else:
            groups.append([piece])
    found = []
    for group in groups:
        if group[0]["start"] in docstrings:
            continue
        item = _join(group)
        after = next((t for t in tokens if t.start >= item.end and t.type
                      not in (tokenize.NL, tokenize.COMMENT)), None)
        if every or _visible(item.key, *_context(group[0]["before"],
                                                  after)):
            found.append(item)
    return found


def _last_string_end(before):
    """End of the last token before, if only NL/comments follow a string."""
    for token in reversed(before):
        if token.type in (tokenize.NL, tokenize.COMMENT):
            continue
        if token.type == tokenize.STRING or token.type == getattr(
                tokenize, "FSTRING_END", -1):
            return token.end
        return None
    return None


def _join(group):
    raw = {"r" in piece["prefix"].lower() for piece in group}
    if len(raw) > 1:
        row = group[0]["start"][0]
        raise ValueError(f"line {row}: a string joins raw and plain pieces;"
                         " make them all raw or all plain")
    is_f = any("f" in piece["prefix"].lower() for piece in group)
    body = ""
    for piece in group:
        text = piece["body"]
        if is_f and "f" not in piece["prefix"].lower():
            text = text.replace("{", "{{").replace("}", "}}")
        body += text
    prefix = ("r" if raw.pop() else "") + ("f" if is_f else "")
    return CodeString(group[0]["start"], group[-1]["end"], body, prefix,
                      group[0]["quote"], len(group))


# strings that name code rather than say something: identifiers,
# attributes, calls, CSS sizes
CODE_LIKE = re.compile(r"^[\w.]*_[\w.]*$|\w\.\w|\w\(|^\d+(px|%)$")


def _visible(text, keyword, call, role):
    """Whether a student may see a string: any string with a word, but
    subscripts, styling arguments and names of code."""
    bare = PLACEHOLDER.sub(" ", MATH.sub(" ", text)).replace("\\n", " ")
    if (not LETTERS.search(bare) or keyword in HIDDEN_KEYWORDS
            or role == "index"):
        return False
    if keyword in VISIBLE_KEYWORDS or call in VISIBLE_CALLS:
        return True
    return not CODE_LIKE.search(bare.strip())


def translate_code(source, lookup):
    """Return source with each visible string replaced by lookup(key)."""
    lines = source.split("\n")
    for item in reversed(code_strings(source, every=True)):
        text = lookup(item.key)
        if not text or text == item.key:
            continue
        (row, col), (end_row, end_col) = item.start, item.end
        head, tail = lines[row - 1][:col], lines[end_row - 1][end_col:]
        if item.pieces == 1:
            new = [head + _literal(item, text) + tail]
        else:  # rewrap the pieces, one per line, where the first one was
            new = _pieces(item, text, col)
            new[0] = head + new[0].lstrip()
            new[-1] += tail
        lines[row - 1:end_row] = new
    return "\n".join(lines)


def _literal(item, text):
    return f"{item.prefix}{item.quote}{text}{item.quote}"


def _pieces(item, text, col):
    """Split text into literals of at most WIDTH columns, indented by col."""
    room = max(WIDTH - col - len(item.prefix) - 2, 20)
    # words, keeping a {placeholder} (one nested {} allowed, as in
    # {name:>{width}}) and the space after each word whole
    words = re.findall(r"(?:\{(?:[^{}]|\{[^{}]*\})*\}|[^\s{])+\s*|\s+",
                       text)
    if "".join(words) != text:
        raise ValueError(f"cannot cut into pieces: {text!r}")
    pieces, current = [], ""
    for word in words:
        if current and len(current) + len(word.rstrip()) > room:
            pieces.append(current)
            current = ""
        current += word
    pieces.append(current)
    return [" " * col + _literal(item, piece) for piece in pieces]


# --------------------------------------------------------------------------
# PO files


def po_path(notebook):
    return LOCALE / (Path(notebook).stem + ".po")


def extract(notebook):
    """Return {(msgctxt, msgid): [cell ids]} of an English notebook."""
    nb = nbformat.read(notebook, as_version=4)
    found = {}
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            keys = [(None, b.key) for b in markdown_blocks(cell.source)
                    if b.kind != "verbatim"]
        elif cell.cell_type == "code":
            keys = [(CODE, s.key) for s in code_strings(cell.source)]
        else:
            keys = []
        for key in keys:
            found.setdefault(key, [])
            if cell.id not in found[key]:
                found[key].append(cell.id)
    return found


def new_po():
    po = polib.POFile(wrapwidth=WIDTH)
    po.metadata = {
        "Project-Id-Version": "d2l-attention-notebooks",
        "Language": "pt_BR",
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": "nplurals=2; plural=(n > 1);",
    }
    return po


def update(notebook):
    """Merge the English of notebook into its PO file; return counts."""
    path = po_path(notebook)
    old = polib.pofile(str(path)) if path.exists() else new_po()
    old_entries = {(e.msgctxt, e.msgid): e for e in old}
    found = extract(notebook)
    unused = [key for key in old_entries if key not in found]
    po = new_po()
    po.metadata = old.metadata or po.metadata
    counts = {"kept": 0, "fuzzy": 0, "new": 0}
    name = Path(notebook).name
    for (ctxt, msgid), cells in found.items():
        entry = polib.POEntry(msgctxt=ctxt, msgid=msgid, msgstr="",
                              occurrences=[(name, cell) for cell in cells])
        previous = old_entries.get((ctxt, msgid))
        if previous is not None:
            entry.msgstr = previous.msgstr
            entry.tcomment = previous.tcomment
            entry.flags = list(previous.flags)
            entry.previous_msgid = previous.previous_msgid
            counts["fuzzy" if previous.fuzzy else "kept"] += 1
        else:
            close = _closest(ctxt, msgid, unused, old_entries)
            if close is not None and close.msgstr:
                entry.msgstr = close.msgstr
                entry.tcomment = close.tcomment
                entry.flags = ["fuzzy"]
                entry.previous_msgid = close.previous_msgid or close.msgid
                counts["fuzzy"] += 1
            else:
                counts["new"] += 1
        po.append(entry)
    for key in unused:  # kept at the end, as msgmerge does, in case the
        if old_entries[key].msgstr:  # English comes back
            gone = old_entries[key]
            po.append(polib.POEntry(msgctxt=gone.msgctxt, msgid=gone.msgid,
                                    msgstr=gone.msgstr, tcomment=gone.tcomment,
                                    obsolete=True))
    path.parent.mkdir(parents=True, exist_ok=True)
    text = str(po)
    tmp = path.with_suffix(".po.tmp")
    tmp.write_text(text + ("" if text.endswith("\n") else "\n"),
                   encoding="utf-8")
    tmp.replace(path)
    return counts


def _closest(ctxt, msgid, unused, old_entries):
    candidates = [key[1] for key in unused if key[0] == ctxt]
    match = difflib.get_close_matches(msgid, candidates, n=1,
                                      cutoff=FUZZY_CUTOFF)
    return old_entries[(ctxt, match[0])] if match else None


def translations(notebook):
    """Return {(msgctxt, msgid): msgstr} of the usable (not fuzzy) entries."""
    po = polib.pofile(str(po_path(notebook)))
    return {(e.msgctxt, e.msgid): e.msgstr for e in po
            if e.msgstr and not e.fuzzy and not e.obsolete}


# --------------------------------------------------------------------------
# Checks of the translations (tests/test_translations.py runs them)

NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*")


def _bare(text):
    """Text without math, code spans, link targets and {placeholders}."""
    for pattern in (MATH, CODE_SPAN, LINK, PLACEHOLDER):
        text = pattern.sub(" ", text)
    return text


def _numbers(text):
    """The numbers of text as digits, sorted: 5,000 and 5.000 read alike,
    as do 0.5 and 0,5 (each language groups and separates its own way)."""
    return sorted(re.sub(r"[.,]", "", number)
                  for number in NUMBER.findall(_bare(text)))


QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def _spans(pattern, text):
    """The spans of pattern in text; in a {placeholder}, a string's words
    are the translator's (`{'on' if x else 'off'}`)."""
    spans = (re.sub(r"\s+", " ", m) for m in pattern.findall(text))
    if pattern is PLACEHOLDER:
        spans = (QUOTED.sub("''", span) for span in spans)
    return sorted(spans)


def _structure(text):
    """Heading level or list marker, and the table's shape, of a block."""
    heading = HEADING.match(text)
    item = ITEM.match(text)
    table = [line.count("|") for line in text.split("\n")
             if line.startswith("|")]
    return (heading.group(1) if heading else None,
            item.group(1).strip() if item else None, table)


def entry_problems(entry, glossary=None):
    """Return what is wrong with one PO entry (an empty list if nothing)."""
    if not entry.msgstr:
        return ["no translation"]
    if entry.fuzzy:
        old = (entry.previous_msgid or "").split("\n")[0][:60]
        return [f"fuzzy: the English changed (it was: '{old}...'); "
                "translate it again and remove the fuzzy flag"]
    english, portuguese = entry.msgid, entry.msgstr
    if portuguese == english:
        return ([] if KEEP in (entry.tcomment or "") else
                [f"left in English with no '{KEEP}' comment"])
    found = []
    pairs = [("math", MATH), ("code spans", CODE_SPAN), ("links", LINK)]
    if entry.msgctxt == CODE:
        pairs.append(("{placeholders}", PLACEHOLDER))
    else:
        english_shape, portuguese_shape = (_structure(english),
                                           _structure(portuguese))
        for what, a, b in zip(("heading level", "list marker", "table"),
                              english_shape, portuguese_shape):
            if a != b:
                found.append(f"{what} differs: {a!r} in English, {b!r}")
    for what, pattern in pairs:
        if _spans(pattern, english) != _spans(pattern, portuguese):
            found.append(f"{what} differ: {_spans(pattern, english)} in "
                         f"English, {_spans(pattern, portuguese)}")
    numbers = (_numbers(english), _numbers(portuguese))
    if numbers[0] != numbers[1]:
        found.append(f"numbers differ: {numbers[0]} in English, "
                     f"{numbers[1]}")
    return found + glossary_problems(entry, glossary)


def read_glossary(path=GLOSSARY):
    """Return [(english forms, portuguese forms, forms to avoid, instead)]."""
    rows = []
    lines = [line for line in path.read_text(encoding="utf-8").split("\n")
             if line.strip() and not line.startswith("#")]
    for line in lines[1:]:  # the header
        columns = (line.split("\t") + ["", "", ""])[:4]
        rows.append(tuple([form.strip() for form in column.split("|")
                           if form.strip()] for column in columns))
    return rows


def _has(forms, text):
    return any(re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text,
                         re.I) for form in forms)


def glossary_problems(entry, glossary=None):
    """Return the glossary terms an entry translates another way."""
    if KEEP in (entry.tcomment or ""):
        return []
    glossary = read_glossary() if glossary is None else glossary
    # a line break in a string of code, "\n", is a space to the terms
    english, portuguese = (_bare(text.replace("\\n", " ")) for text in (
        entry.msgid, entry.msgstr))
    found = []
    for english_forms, portuguese_forms, avoid, instead in glossary:
        if (portuguese_forms and _has(english_forms, english)
                and not _has(portuguese_forms, portuguese)):
            found.append(f"glossary: '{english_forms[0]}' must be "
                         f"translated '{' | '.join(portuguese_forms)}'")
        refused = [form for form in avoid if _has([form], portuguese)]
        if refused:
            better = f" (write: {' | '.join(instead)})" if instead else ""
            found.append(f"glossary: avoid {', '.join(refused)}{better}")
    return found


def po_problems(notebook):
    """Return every problem of a notebook's PO file, each named."""
    po = polib.pofile(str(po_path(notebook)))
    entries = {(e.msgctxt, e.msgid): e for e in po if not e.obsolete}
    glossary = read_glossary()
    found = []
    for key, cells in extract(notebook).items():
        entry = entries.get(key)
        problems = (["not in the PO file (run make po)"] if entry is None
                    else entry_problems(entry, glossary))
        first = " ".join(key[1].split()[:6])
        found += [f"{Path(notebook).name}, cell {cells[0]}: '{first}...': "
                  f"{problem}" for problem in problems]
    return found


# --------------------------------------------------------------------------
# Notebooks

FIRST_CELL = """\
> **Edição em português do Brasil.** Este notebook foi escrito a partir do \
original em inglês, `notebooks/{name}`, e revisado para estudantes \
brasileiros. O código e os comentários ficam em inglês, como na edição em \
português do livro; figuras, controles e mensagens impressas estão em \
português. No texto, os números decimais levam vírgula (0,5); o código, o \
que ele imprime e os números das figuras seguem a notação do Python, com \
ponto (0.5)."""


def build(notebook):
    """Write the Portuguese notebook; return True if it must be run again."""
    notebook = Path(notebook)
    table = translations(notebook)
    english = nbformat.read(notebook, as_version=4)
    target = OUT / notebook.name
    old = (nbformat.read(target, as_version=4) if target.exists() else None)
    old_cells = {c.id: c for c in old.cells} if old else {}
    nb = translated(english, table, notebook.name)
    stale = False
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        previous = old_cells.get(cell.id)
        if previous is not None and previous.source == cell.source:
            cell.outputs = previous.outputs
            cell.execution_count = previous.execution_count
            if "execution" in previous.metadata:  # the timings of that run
                cell.metadata["execution"] = previous.metadata["execution"]
        else:
            stale = True
    if old is not None and "widgets" in old.metadata:  # the kept outputs'
        nb.metadata["widgets"] = old.metadata["widgets"]
    OUT.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".ipynb.tmp")
    nbformat.write(nb, tmp)
    tmp.replace(target)
    return stale


def translated(english, table, name):
    """Return the Portuguese notebook (outputs empty) of an English one."""
    nb = nbformat.v4.new_notebook(metadata=dict(english.metadata))
    nb.nbformat, nb.nbformat_minor = english.nbformat, english.nbformat_minor
    first = nbformat.v4.new_markdown_cell(
        FIRST_CELL.format(name=name))
    first.id = FIRST_CELL_ID
    nb.cells.append(first)
    for cell in english.cells:
        cell = copy.deepcopy(cell)
        cell.metadata = _metadata(cell)
        if cell.cell_type == "markdown":
            cell.source = translate_markdown(
                cell.source, lambda key: table.get((None, key)))
        elif cell.cell_type == "code":
            cell.source = translate_code(
                cell.source, lambda key: table.get((CODE, key)))
            cell.outputs = []
            cell.execution_count = None
        nb.cells.append(cell)
    return nb


def _metadata(cell):
    """A cell's metadata without the timings of its last run."""
    return {k: v for k, v in cell.metadata.items() if k != "execution"}


def stale_cells(committed, built):
    """Return the ids of the cells that differ, outputs aside."""
    def cells(nb):
        return {c.id: (c.cell_type, c.source, _metadata(c)) for c in nb.cells}
    old, new = cells(committed), cells(built)
    order = [c.id for c in committed.cells] == [c.id for c in built.cells]
    return [i for i in dict.fromkeys(list(new) + list(old))
            if old.get(i) != new.get(i)] or ([] if order else ["(order)"])


def translated_notebooks():
    """Return the English notebooks that have a PO file."""
    return [p for p in sorted(NOTEBOOKS.glob("*.ipynb"))
            if po_path(p).exists()]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["update", "build"])
    parser.add_argument("notebooks", nargs="*", type=Path)
    args = parser.parse_args(argv)
    notebooks = args.notebooks or translated_notebooks()
    stale = []
    for notebook in notebooks:
        if args.command == "update":
            counts = update(notebook)
            print(f"{po_path(notebook).relative_to(ROOT)}: "
                  + ", ".join(f"{n} {k}" for k, n in counts.items()))
        elif build(notebook):
            stale.append(str((OUT / notebook.name).relative_to(ROOT)))
    if args.command == "build":
        print("\n".join(stale))
    return 0


if __name__ == "__main__":
    sys.exit(main())
