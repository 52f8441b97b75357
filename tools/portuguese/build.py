"""The Portuguese notebooks, written from the English and the PO files."""

import copy
import re
from pathlib import Path

import nbformat

from .. import project
from .catalog import CODE, po_path, translations
from .code_strings import translate_code
from .markdown_blocks import translate_markdown

# the Portuguese notebooks' first cell, {name} the English one's file name
FIRST_CELL = project.LOCALE / "first_cell.md"
# the set-up's choice of language, which the edition's language replaces
LANGUAGE_CALL = re.compile(r'\buse_language\("en"\)')
EDITION = 'use_language("pt_BR")'


def build(notebook):
    """Write the Portuguese notebook; return its path if it must be run
    again (a code cell whose source is unchanged keeps its outputs)."""
    notebook, stale = Path(notebook), False
    target = project.NOTEBOOKS_PT / notebook.name
    old = nbformat.read(target, as_version=4) if target.exists() else None
    english = nbformat.read(notebook, as_version=4)
    nb = translated(english, translations(notebook), notebook.name)
    was = {c.id: c for c in old.cells} if old else {}
    for cell in (c for c in nb.cells if c.cell_type == "code"):
        last = was.get(cell.id)
        if last is None or last.source != cell.source:
            stale = True
            continue
        cell.outputs, cell.execution_count = last.outputs, last.execution_count
        if "execution" in last.metadata:  # the timings of that run
            cell.metadata["execution"] = last.metadata["execution"]
    if "widgets" in (old.metadata if old else {}):  # the kept outputs'
        nb.metadata["widgets"] = old.metadata["widgets"]
    project.write_atomically(target, nbformat.writes(nb) + "\n")
    return target if stale else None


def translated(english, table, name):
    """Return the Portuguese notebook (outputs empty) of an English one."""
    nb = copy.deepcopy(english)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)  # the timings of the last run
        if cell.cell_type == "markdown":
            lookup = lambda key: table.get((None, key))  # noqa: E731
            cell.source = translate_markdown(cell.source, lookup)
        elif cell.cell_type == "code":
            lookup = lambda key: table.get((CODE, key))  # noqa: E731
            cell.source = translate_code(cell.source, lookup)
            cell.source = LANGUAGE_CALL.sub(EDITION, cell.source)
            cell.outputs, cell.execution_count = [], None
    first = FIRST_CELL.read_text(encoding="utf-8").strip().format(name=name)
    first = nbformat.v4.new_markdown_cell(first, id=project.FIRST_CELL_ID)
    nb.cells.insert(0, first)
    return nb


def translated_notebooks():
    """Return the English notebooks that have a PO file."""
    notebooks = sorted(project.NOTEBOOKS.glob("*.ipynb"))
    return [path for path in notebooks if po_path(path).exists()]
