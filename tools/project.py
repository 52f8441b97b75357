"""Where the project's files are, and what every tool knows of them."""

import json
import os
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"  # the English notebooks, the source
NOTEBOOKS_PT = NOTEBOOKS / "pt_BR"  # the Portuguese edition, generated
LOCALE = ROOT / "locale" / "pt_BR"  # its PO files, glossary, first cell
PACKAGE = ROOT / "d2l_attention"  # generated from the #@save cells
# the catalog of the package's messages in Portuguese, which it reads
PACKAGE_PO = LOCALE / "d2l_attention.po"
# the id of the first cell of every Portuguese notebook: a note saying
# where it comes from (locale/pt_BR/first_cell.md)
FIRST_CELL_ID = "pt-br-generated"
SOLUTION = "solution"  # the tag of a worked solution's cells


def language(notebook):
    """Return "pt_BR" for a notebook of the Portuguese edition, else "en".

    notebook: a notebook read with nbformat, or the path of one.
    """
    if isinstance(notebook, (str, os.PathLike)):
        notebook = json.loads(Path(notebook).read_text(encoding="utf-8"))
    cells = notebook.get("cells") or [{}]
    return "pt_BR" if cells[0].get("id") == FIRST_CELL_ID else "en"


def write_atomically(target, text):
    """Write text to target through a temporary file in the same folder,
    so that an interrupted write leaves the old file or the new one."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            file.write(text)
        # mkstemp's file is private (0600): give it the mode of the file it
        # replaces, or an ordinary file's
        os.chmod(
            temporary, target.stat().st_mode if target.exists() else 0o644
        )
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise
