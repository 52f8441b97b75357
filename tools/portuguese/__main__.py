"""The command line: python -m tools.portuguese update|build [NOTEBOOK ...]"""

import argparse
from pathlib import Path

from .. import project
from .build import build, translated_notebooks
from .catalog import po_path, update

parser = argparse.ArgumentParser(prog="python -m tools.portuguese")
parser.add_argument("command", choices=["update", "build"])
parser.add_argument("notebooks", nargs="*", type=Path)
args = parser.parse_args()
for notebook in args.notebooks or translated_notebooks():
    if args.command == "update":  # each PO file's counts
        counts = ", ".join(f"{n} {k}" for k, n in update(notebook).items())
        print(f"{po_path(notebook).relative_to(project.ROOT)}: {counts}")
    elif stale := build(notebook):  # each notebook to run again
        print(stale.relative_to(project.ROOT))
