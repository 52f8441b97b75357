"""The command line: python -m tools.portuguese update|build [NOTEBOOK ...]

update without notebooks also merges the package's messages into their
catalog, locale/pt_BR/d2l_attention.po."""

import argparse
from pathlib import Path

from .. import project
from .build import build, translated_notebooks
from .catalog import PACKAGE_PO, po_path, update, update_package


def counted(path, counts):
    """Return the line that gives a PO file's counts."""
    counts = ", ".join(f"{n} {k}" for k, n in counts.items())
    return f"{path.relative_to(project.ROOT)}: {counts}"


parser = argparse.ArgumentParser(prog="python -m tools.portuguese")
parser.add_argument("command", choices=["update", "build"])
parser.add_argument("notebooks", nargs="*", type=Path)
args = parser.parse_args()
for notebook in args.notebooks or translated_notebooks():
    if args.command == "update":  # each PO file's counts
        print(counted(po_path(notebook), update(notebook)))
    elif stale := build(notebook):  # each notebook to run again
        print(stale.relative_to(project.ROOT))
if args.command == "update" and not args.notebooks:
    print(counted(PACKAGE_PO, update_package()))
