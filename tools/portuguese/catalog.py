"""PO files: a notebook's English merged into its PO file the way msgmerge
does (translate-toolkit's pot2po), written with polib's layout; and read.
The package's messages (the literal first argument of its tr() calls, and
of the exercises' right() and not_yet()) are merged the same way into
their own catalog, which the package reads (d2l_attention/language.py)."""

import ast
from pathlib import Path

import nbformat
import polib
from translate.convert import pot2po
from translate.storage import po as ttk_po

from .. import project
from .code_strings import code_strings
from .markdown_blocks import WIDTH, markdown_blocks

CODE = "code"  # msgctxt of the strings of code cells
PACKAGE_PO = project.PACKAGE_PO  # the catalog of the package's messages
# the calls that take a message first
KEYWORDS = {"tr", "right", "not_yet"}
METADATA = {  # of a new PO file
    "Project-Id-Version": "d2l-attention-notebooks",
    "Language": "pt_BR",
    "MIME-Version": "1.0",
    "Content-Type": "text/plain; charset=UTF-8",
    "Content-Transfer-Encoding": "8bit",
    "Plural-Forms": "nplurals=2; plural=(n > 1);",
}


def po_path(notebook):
    """Return the path of a notebook's PO file."""
    return project.LOCALE / (Path(notebook).stem + ".po")


def extract(notebook):
    """Return {(msgctxt, msgid): [cell ids]} of an English notebook."""
    found = {}
    for cell in nbformat.read(notebook, as_version=4).cells:
        keys = []
        if cell.cell_type == "markdown":
            keys = [(None, b.key) for b in markdown_blocks(cell.source)]
        elif cell.cell_type == "code":
            keys = [(CODE, s.key) for s in code_strings(cell.source)]
        for key in keys:
            if cell.id not in found.setdefault(key, []):
                found[key].append(cell.id)
    return found


def package_messages(package=None):
    """Return {(None, msgid): [files]} of the package's messages; raise
    ValueError for a message that is not a literal string."""
    package, found = Path(package or project.PACKAGE), {}
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # the keywords' own definitions pass a message on: not one
        passing = {
            id(node)
            for function in ast.walk(tree)
            if isinstance(function, ast.FunctionDef)
            and function.name in KEYWORDS
            for node in ast.walk(function)
        }
        for node in ast.walk(tree):
            func = getattr(node, "func", None)  # tr(...) or language.tr(...)
            name = getattr(func, "id", getattr(func, "attr", None))
            if name not in KEYWORDS or id(node) in passing:
                continue
            place = f"{path.relative_to(package.parent)}:{node.lineno}"
            where = place.rsplit(":", 1)[0]  # no line: none to keep up
            first = node.args[0] if node.args else None
            if not isinstance(getattr(first, "value", None), str):
                raise ValueError(
                    f"{place}: {name}() takes a literal string first, the "
                    "English message (an f-string cannot be looked up: "
                    "write {fields} and pass their values by keyword)"
                )
            places = found.setdefault((None, first.value), [])
            places += [where] if where not in places else []
    return found


def update(notebook):
    """Merge the English of notebook into its PO file; return the counts of
    entries kept, fuzzy (the English changed: its old translation, and the
    old English as `#| msgid`) and new. Translations of English that went
    away stay at the end, obsolete (`#~`)."""
    name, found = Path(notebook).name, extract(notebook)
    places = {
        key: [f"{name}:{cell}" for cell in cells]
        for key, cells in found.items()
    }
    return merge(places, po_path(notebook))


def update_package():
    """Merge the package's messages into their catalog; return the counts,
    as update() does."""
    return merge(package_messages(), PACKAGE_PO)


def merge(found, path):
    """Merge found, {(msgctxt, msgid): [places]}, into the PO file at path;
    return the counts of entries kept, fuzzy and new."""
    pot = ttk_po.pofile()
    old = polib.pofile(str(path)) if path.exists() else None
    for (context, msgid), places in found.items():
        unit = pot.addsourceunit(msgid)
        unit.setcontext(context or "")
        for place in places:
            unit.addlocation(place)
    template = ttk_po.pofile.parsefile(str(path)) if old else None
    merged = pot2po.convert_stores(pot, template, min_similarity=60)  # %
    # written by polib: translate-toolkit wraps long lines another way
    po = polib.pofile(bytes(merged).decode("utf-8"), wrapwidth=WIDTH)
    po.metadata = old.metadata if old else dict(METADATA)
    known = {(e.msgctxt, e.msgid) for e in old or []}
    counts = {"kept": 0, "fuzzy": 0, "new": 0}
    for e in (e for e in po if not e.obsolete):
        kept = (e.msgctxt, e.msgid) in known
        counts["fuzzy" if e.fuzzy else "kept" if kept else "new"] += 1
    project.write_atomically(path, str(po).rstrip("\n") + "\n")
    return counts


def translations(notebook):
    """Return {(msgctxt, msgid): msgstr} of the usable (not fuzzy) entries."""
    usable = polib.pofile(str(po_path(notebook))).translated_entries()
    return {(e.msgctxt, e.msgid): e.msgstr for e in usable}
