"""PO files: a notebook's English merged into its PO file the way msgmerge
does (translate-toolkit's pot2po), written with polib's layout; and read."""

from pathlib import Path

import nbformat
import polib
from translate.convert import pot2po
from translate.storage import po as ttk_po

from .. import project
from .code_strings import code_strings
from .markdown_blocks import WIDTH, markdown_blocks

CODE = "code"  # msgctxt of the strings of code cells
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


def update(notebook):
    """Merge the English of notebook into its PO file; return the counts of
    entries kept, fuzzy (the English changed: its old translation, and the
    old English as `#| msgid`) and new. Translations of English that went
    away stay at the end, obsolete (`#~`)."""
    path, pot = po_path(notebook), ttk_po.pofile()
    old = polib.pofile(str(path)) if path.exists() else None
    for (context, msgid), cells in extract(notebook).items():
        unit = pot.addsourceunit(msgid)
        unit.setcontext(context or "")
        for cell in cells:
            unit.addlocation(f"{Path(notebook).name}:{cell}")
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
