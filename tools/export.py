"""Write the helper package d2l_attention from the notebooks' #@save cells.

A code cell whose first line is ``#@save`` belongs to the package. The cells
of ``notebooks/NN_name.ipynb`` become ``d2l_attention/name.py``, in notebook
order: their imports are gathered at the top of the module, the rest is
copied as written, and ``__all__`` lists the public functions and classes.
``d2l_attention/__init__.py`` re-exports every public name.

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


def saved_cells(notebook):
    """Return the source of each #@save code cell, marker line removed."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    sources = []
    for cell in cells:
        source = "".join(cell["source"])
        first, _, rest = source.partition("\n")
        if cell["cell_type"] == "code" and first.strip() == MARKER:
            sources.append(rest.strip("\n"))
    return sources


def split_cell(source, where):
    """Return (import lines, other code, public names) of one cell."""
    tree = ast.parse(source, filename=where)
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
            raise SystemExit(
                f"{where}: a #@save cell may hold only imports, functions "
                f"and classes; found {type(node).__name__} on line "
                f"{node.lineno}")
        body.append(text)
        if not node.name.startswith("_"):
            names.append(node.name)
    return imports, body, names


def relative_imports(line, defined_in):
    """Rewrite `from d2l_attention import a, b` as imports from the modules
    that define a and b, so the package never imports itself."""
    node = ast.parse(line).body[0]
    if not (isinstance(node, ast.ImportFrom) and node.module == PACKAGE.name):
        return [line]
    by_module = {}
    for alias in node.names:
        if alias.name not in defined_in:
            raise SystemExit(f"{line!r}: {alias.name} is not saved by an "
                             "earlier notebook")
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


def module_text(notebook, defined_in):
    """Return (module source, public names) for one notebook."""
    imports, blocks, names = [], [], []
    for i, source in enumerate(saved_cells(notebook)):
        where = f"{notebook.name}, #@save cell {i + 1}"
        cell_imports, cell_body, cell_names = split_cell(source, where)
        cell_imports = [new for line in cell_imports
                        for new in relative_imports(line, defined_in)]
        imports += [line for line in cell_imports if line not in imports]
        blocks += cell_body
        names += cell_names
    rel = notebook.relative_to(ROOT).as_posix()
    head = [f"# generated from {rel}, do not edit"]
    if imports:
        head.append("\n".join(imports))
    head.append("__all__ = [\n" +
                "".join(f'    "{name}",\n' for name in names) + "]")
    return "\n\n".join(head) + "\n\n\n" + "\n\n\n".join(blocks) + "\n", names


def package_files():
    """Return {path: text} for every file the exporter writes."""
    files, init, defined_in = {}, [], {}
    for notebook in sorted(NOTEBOOKS.glob("*.ipynb")):
        match = NOTEBOOK_NAME.match(notebook.name)
        if not match:
            continue
        module = match.group(1)
        text, names = module_text(notebook, defined_in)
        if not names:
            continue
        defined_in.update(dict.fromkeys(names, module))
        files[PACKAGE / f"{module}.py"] = text
        init.append((module, names))
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
    files[PACKAGE / "__init__.py"] = "\n".join(lines) + "\n"
    return files


def stale_files(files):
    """Return the paths whose content differs from what would be written."""
    stale = [path for path, text in files.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    extra = [path for path in PACKAGE.glob("*.py") if path not in files]
    return sorted(stale + extra)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only report whether the package is up to date")
    args = parser.parse_args()
    files = package_files()
    if args.check:
        stale = stale_files(files)
        for path in stale:
            print(f"out of date: {path.relative_to(ROOT)}", file=sys.stderr)
        if stale:
            print("run `make lib` and commit d2l_attention/", file=sys.stderr)
        return 1 if stale else 0
    PACKAGE.mkdir(exist_ok=True)
    for path in PACKAGE.glob("*.py"):
        if path not in files:
            path.unlink()
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
