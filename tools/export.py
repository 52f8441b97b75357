"""Write the helper package d2l_attention from the notebooks' #@save cells.

A code cell whose first line is exactly ``#@save`` belongs to the package.
The cells of ``notebooks/NN_name.ipynb`` become ``d2l_attention/name.py``, in
notebook order: their imports are gathered at the top of the module, the
rest is copied as written, and ``__all__`` lists the public functions and
classes. ``d2l_attention/__init__.py`` re-exports every public name.

Nothing is skipped or overridden silently: a marker written another way
(``# @save``, ``#@Save``, after a blank first line, at the end of a line of
code) and a name saved twice are errors that name the cells.

    python tools/export.py          # write the package
    python tools/export.py --check  # exit 1 if the package is out of date
"""

import argparse
import ast
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
PACKAGE = ROOT / "d2l_attention"
MARKER = "#@save"
NOTEBOOK_NAME = re.compile(r"^\d\d_(\w+)\.ipynb$")
# what a reader would take for the marker: any case, spaces inside, alone on
# a line or closing a line of code (the book's `def f():  #@save` style)
LOOKS_LIKE_MARKER = re.compile(
    r"^\s*#\s*@\s*save\b|#\s*@\s*save\s*$", re.IGNORECASE)


class ExportError(Exception):
    """A problem in the notebooks' #@save cells, reported as one message."""


def cell_place(notebook, index, cell):
    """Return where a cell is, for messages: file, number and id."""
    rel = f"{notebook.parent.name}/{notebook.name}"
    cell_id = f", id {cell['id']}" if cell.get("id") else ""
    return f"{rel}, cell {index + 1}{cell_id}"


def check_marker(source, place):
    """Raise ExportError if an unsaved cell carries a near-miss marker."""
    for number, line in enumerate(source.splitlines(), start=1):
        if LOOKS_LIKE_MARKER.search(line):
            raise ExportError(
                f"{place}: line {number} is {line.strip()!r}, which looks "
                f"like a save marker but is not one: a saved cell starts "
                f"with exactly {MARKER!r} alone on its first line (no "
                f"spaces, lower case). Fix the marker, or remove it if the "
                f"cell does not belong to the package.")


def saved_cells(notebook):
    """Return (place, source) of each #@save code cell, marker removed."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    saved = []
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        first, _, rest = source.partition("\n")
        place = cell_place(notebook, index, cell)
        if first == MARKER:
            saved.append((place, rest.strip("\n")))
        else:
            check_marker(source, place)
    return saved


def split_cell(source, where):
    """Return (import lines, other code, defined names) of one cell."""
    try:
        tree = ast.parse(source, filename=where)
    except SyntaxError as error:
        raise ExportError(f"{where}: {error}") from error
    lines = source.splitlines()
    imports, body, names = [], [], []
    for node in tree.body:
        start = node.lineno - 1
        if getattr(node, "decorator_list", None):
            start = node.decorator_list[0].lineno - 1
        text = "\n".join(lines[start:node.end_lineno])
        if isinstance(node, ast.Import | ast.ImportFrom):
            imports.append(text)
            continue
        if not isinstance(node, ast.FunctionDef | ast.ClassDef):
            raise ExportError(
                f"{where}: a #@save cell may hold only imports, functions "
                f"and classes; found {type(node).__name__} on line "
                f"{node.lineno}")
        body.append(text)
        names.append(node.name)
    return imports, body, names


def relative_imports(line, defined_in, where):
    """Rewrite `from d2l_attention import a, b` as imports from the modules
    that define a and b, so the package never imports itself."""
    node = ast.parse(line).body[0]
    if not (isinstance(node, ast.ImportFrom) and node.module == PACKAGE.name):
        return [line]
    by_module = {}
    for alias in node.names:
        if alias.name not in defined_in:
            raise ExportError(
                f"{where}: imports {alias.name} from {PACKAGE.name}, but no "
                "earlier notebook saves it")
        text = alias.name + (f" as {alias.asname}" if alias.asname else "")
        by_module.setdefault(defined_in[alias.name], []).append(text)
    lines = []
    for module, names in by_module.items():
        line = f"from .{module} import {', '.join(names)}"
        if len(line) > 79:  # one name a line, as ruff would wrap it
            line = (f"from .{module} import (\n" +
                    "".join(f"    {name},\n" for name in names) + ")")
        lines.append(line)
    return lines


def check_unique(names, place, saved_at):
    """Record where each name is saved; raise if one was saved before."""
    for name in names:
        if saved_at.get(name) == place:
            raise ExportError(f"{place}: {name} is defined twice in this "
                              "#@save cell; keep one definition")
        if name in saved_at:
            raise ExportError(
                f"{name} is saved twice: in {saved_at[name]} and in "
                f"{place}; keep one #@save definition and import it from "
                "d2l_attention in the other notebook")
        saved_at[name] = place


def module_text(notebook, defined_in, saved_at):
    """Return (module source, {public name: place}) for one notebook."""
    imports, blocks, public, in_module = [], [], {}, {}
    for place, source in saved_cells(notebook):
        cell_imports, cell_body, cell_names = split_cell(source, place)
        check_unique(cell_names, place, in_module)
        cell_imports = [new for line in cell_imports
                        for new in relative_imports(line, defined_in, place)]
        imports += [line for line in cell_imports if line not in imports]
        blocks += cell_body
        public.update((name, place) for name in cell_names
                      if not name.startswith("_"))
    for name, place in public.items():
        check_unique([name], place, saved_at)
    head = [f"# generated from {notebook.parent.name}/{notebook.name}, "
            "do not edit"]
    if imports:
        head.append("\n".join(imports))
    head.append("__all__ = [\n" +
                "".join(f'    "{name}",\n' for name in public) + "]")
    return ("\n\n".join(head) + "\n\n\n" + "\n\n\n".join(blocks) + "\n",
            list(public))


def init_text(init):
    """Return d2l_attention/__init__.py for [(module, public names)]."""
    lines = ["# generated from the notebooks' #@save cells, do not edit",
             '"""Helpers saved from the attention notebooks."""', ""]
    for module, names in init:
        lines.append(f"from .{module} import (")
        lines += [f"    {name}," for name in names]
        lines.append(")")
    every = [name for _, names in init for name in names]
    lines.append("")
    lines.append("__all__ = [")
    lines += [f'    "{name}",' for name in every]
    lines.append("]")
    return "\n".join(lines) + "\n"


def package_files(notebooks=None, package=None):
    """Return {path: text} for every file the exporter writes; raise
    ExportError naming every notebook problem found."""
    notebooks, package = Path(notebooks or NOTEBOOKS), Path(package or PACKAGE)
    files, init, defined_in, saved_at, errors = {}, [], {}, {}, []
    for notebook in sorted(notebooks.glob("*.ipynb")):
        match = NOTEBOOK_NAME.match(notebook.name)
        try:
            if not match:
                if saved_cells(notebook):
                    raise ExportError(
                        f"{notebook.parent.name}/{notebook.name} has "
                        "#@save cells but its name is not NN_name.ipynb")
                continue
            text, names = module_text(notebook, defined_in, saved_at)
        except ExportError as error:
            errors.append(str(error))
            continue
        if names:
            defined_in.update(dict.fromkeys(names, match.group(1)))
            files[package / f"{match.group(1)}.py"] = text
            init.append((match.group(1), names))
    if errors:
        raise ExportError("\n".join(errors))
    files[package / "__init__.py"] = init_text(init)
    return files


def stale_files(files, package=None):
    """Return the paths whose content differs from what would be written."""
    stale = [path for path, text in files.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    package = Path(package or PACKAGE)
    extra = [path for path in package.glob("*.py") if path not in files]
    return sorted(stale + extra)


def write_package(files, package=None):
    """Write files into package, removing modules no notebook saves."""
    package = Path(package or PACKAGE)
    package.mkdir(exist_ok=True)
    for path in package.glob("*.py"):
        if path not in files:
            path.unlink()
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only report whether the package is up to date")
    args = parser.parse_args()
    try:
        files = package_files()
    except ExportError as error:
        for line in str(error).splitlines():
            print(f"export: {line}", file=sys.stderr)
        return 1
    if args.check:
        stale = stale_files(files)
        for path in stale:
            print(f"out of date: {path.relative_to(ROOT)}", file=sys.stderr)
        if stale:
            print("run `make lib` and commit d2l_attention/", file=sys.stderr)
        return 1 if stale else 0
    write_package(files)
    return 0


if __name__ == "__main__":
    sys.exit(main())
