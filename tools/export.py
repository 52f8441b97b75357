"""Write the helper package d2l_attention from the notebooks' #@save cells.

A code cell whose first line is exactly ``#@save`` belongs to the package;
``#@save module`` names the module it goes to (nbdev's ``#| export mod``),
else it goes to the module named after its notebook (``NN_name.ipynb`` ->
``name``). Modules are written in notebook order. A module's code may use
what any saved cell of its notebooks imports, and any name the package
saves: the module gets those imports as written, with
``from d2l_attention import name`` made ``from .module import name``, and
each name saved in another module so imported; ruff then drops the unused
ones, sorts the rest and formats the module. ``__all__`` lists each
module's public functions and classes; ``d2l_attention/__init__.py``
re-exports them all, each imported from its module on first use. A name,
private or public, is saved once in the package: any module may import it.

Nothing is skipped or overridden silently: a marker written another way
(``# @save``, ``#@Save``, after a blank first line, at the end of a line of
code), a name saved twice, a saved cell that imports the package itself
other than by ``from d2l_attention import name`` or imports a name no
notebook saves, a module named like a saved name, and modules that import
each other are errors that name the cells or modules.

    python tools/export.py          # write the package
    python tools/export.py --check  # exit 1 if the package is out of date
"""

import argparse
import ast
import graphlib
import json
import re
import subprocess
import sys
from pathlib import Path

try:
    from tools.project import NOTEBOOKS, PACKAGE, ROOT, write_atomically
except ImportError:  # run as `python tools/export.py`
    from project import NOTEBOOKS, PACKAGE, ROOT, write_atomically

MARKER = "#@save"
SAVE_LINE = re.compile(r"^#@save(?: ([a-z][a-z0-9_]*))?$")
NOTEBOOK_NAME = re.compile(r"^\d\d_(\w+)\.ipynb$")
# what a reader would take for the marker: any case, spaces inside, alone on
# a line or closing a line of code (the book's `def f():  #@save` style)
LOOKS_LIKE_MARKER = re.compile(r"^\s*#\s*@\s*save\b|#\s*@\s*save\s*$", re.I)
# ruff next to this Python, else run as a module
RUFF = Path(sys.executable).with_name("ruff")
RUFF = [str(RUFF)] if RUFF.exists() else [sys.executable, "-m", "ruff"]
RUFF_STEPS = [
    ["check", "--select", "F", "--fix"],  # unused and repeated imports
    ["check", "--select", "I", "--fix"],  # sorted, in sections
    ["format"],
]
INIT = '''# generated from the notebooks' #@save cells, do not edit
"""Helpers saved from the attention notebooks.

Each name is imported from its module when first used: importing
the models does not import the plotting and progress-bar modules.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach(
    __name__, submod_attrs={%s},
)
'''


class ExportError(Exception):
    """A problem in the notebooks' #@save cells, reported as one message."""


class Saved:
    """One #@save cell: where it is, its target module, its imports as
    (node, source text), its code blocks and the names they define."""

    def __init__(self, place, module, source, notebook):
        self.place, self.module, self.notebook = place, module, notebook
        try:
            tree = ast.parse(source, filename=place)
        except SyntaxError as error:
            raise ExportError(f"{place}: {error}") from error
        lines = source.splitlines()
        self.imports, self.blocks, self.names = [], [], []
        for node in tree.body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                check_not_self_import(node, place)
                text = ast.get_source_segment(source, node)
                self.imports.append((node, text))
            elif isinstance(node, ast.FunctionDef | ast.ClassDef):
                first = (node.decorator_list or [node])[0].lineno - 1
                self.blocks.append("\n".join(lines[first : node.end_lineno]))
                self.names.append(node.name)
            else:
                raise ExportError(
                    f"{place}: a #@save cell may hold only imports, "
                    f"functions and classes; found {type(node).__name__} "
                    f"on line {node.lineno}"
                )


def saved_cells(notebook, default_module):
    """Return the Saved cells of a notebook, in order; raise ExportError
    for a cell with a near-miss marker."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    saved = []
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        first, _, rest = source.partition("\n")
        cell_id = f", id {cell['id']}" if cell.get("id") else ""
        place = f"{notebook.parent.name}/{notebook.name}, cell {index + 1}"
        if match := SAVE_LINE.match(first):
            module = match.group(1) or default_module
            saved.append(Saved(place + cell_id, module, rest, notebook))
            continue
        for number, line in enumerate(source.splitlines(), start=1):
            if LOOKS_LIKE_MARKER.search(line):
                raise ExportError(
                    f"{place}{cell_id}: line {number} is {line.strip()!r}, "
                    "which looks like a save marker but is not one: a saved "
                    f"cell starts with exactly {MARKER!r} or '{MARKER} "
                    "module_name' alone on its first line (lower case, one "
                    "space before the module). Fix the marker, or remove it "
                    "if the cell does not belong to the package."
                )
    return saved


def package_names(node):
    """Return the aliases of `from d2l_attention import ...`, else []."""
    is_package = isinstance(node, ast.ImportFrom) and node.level == 0
    return node.names if is_package and node.module == PACKAGE.name else []


def check_not_self_import(node, where):
    """Raise ExportError for an import of the package other than
    `from d2l_attention import name`, which the exporter rewrites."""
    if package_names(node):
        return
    if isinstance(node, ast.Import):
        modules = [alias.name for alias in node.names]
    else:
        modules = [node.module or ""] if node.level == 0 else ["."]
    for module in modules:
        if module == "." or module.split(".")[0] == PACKAGE.name:
            raise ExportError(
                f"{where}: `{ast.unparse(node)}`: the package must not "
                f"import itself; import names with `from {PACKAGE.name} "
                "import name` (rewritten to the module that defines it), and "
                "find files without the package's own path"
            )


def check_names(saved):
    """Return {saved name: module}; raise ExportError if a name is saved
    twice or a cell imports from the package a name no notebook saves."""
    saved_at, defined_in = {}, {}
    for cell in saved:
        for name in cell.names:
            if cell.names.count(name) > 1:
                raise ExportError(
                    f"{cell.place}: {name} is defined twice in this #@save "
                    "cell; keep one definition"
                )
            if name in saved_at:
                raise ExportError(
                    f"{name} is saved twice: in {saved_at[name]} and in "
                    f"{cell.place}; keep one #@save definition and import "
                    f"it from {PACKAGE.name} in the other notebook"
                )
            saved_at[name], defined_in[name] = cell.place, cell.module
    for cell in saved:
        for node, _ in cell.imports:
            for alias in package_names(node):
                if alias.name not in defined_in:
                    raise ExportError(
                        f"{cell.place}: imports {alias.name} from "
                        f"{PACKAGE.name}, but no notebook saves it"
                    )
    return defined_in


def module_imports(module, cells, saved, defined_in):
    """Return the imports of a module made of cells, before ruff drops the
    unused ones: those of the saved cells of their notebooks, as written
    (the package's own made relative), and every name saved elsewhere."""
    notebooks = {cell.notebook for cell in cells}
    lines, names = [], [ast.alias(name) for name in defined_in]
    for cell in saved:
        if cell.notebook in notebooks:
            for node, text in cell.imports:
                if package_names(node):
                    names += package_names(node)
                else:
                    lines.append(text)
    for alias in names:
        if defined_in[alias.name] != module:
            other = defined_in[alias.name]
            lines.append(f"from .{other} import {ast.unparse(alias)}")
    return lines


def module_text(cells, imports):
    """Return the source of one module made of cells, before ruff."""
    notebooks = dict.fromkeys(cell.notebook for cell in cells)
    head = ["# generated, do not edit: the #@save cells of"]
    head += [f"# {nb.parent.name}/{nb.name}" for nb in notebooks]
    public = quoted(name for name in names_of(cells) if name[0] != "_")
    blocks = [block for cell in cells for block in cell.blocks]
    parts = ["\n".join(head), "\n".join(imports), f"__all__ = [{public}]"]
    return "\n\n".join([part for part in parts if part] + blocks) + "\n"


def names_of(cells):
    """Return the names the cells define, in order."""
    return [name for cell in cells for name in cell.names]


def quoted(names):
    """Return the names as the items of a Python list, each with a comma."""
    return "".join(f'"{name}",' for name in names)


def tidy(text, module):
    """Return a module's text as ruff leaves it, with the project's
    settings: unused imports dropped, imports sorted, code formatted."""
    for step in RUFF_STEPS:
        result = subprocess.run(
            [*RUFF, *step, "--output-format=concise", "--stdin-filename"]
            + [f"{PACKAGE.name}/{module}.py", "-"],
            input=text,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        if result.returncode:
            raise ExportError(
                f"module {module}: `ruff {' '.join(step)}` failed:\n"
                + result.stderr.strip()
            )
        text = result.stdout
    return text


def read_notebooks(notebooks):
    """Return every Saved cell, in notebook order; raise ExportError
    naming every notebook problem found."""
    saved, errors = [], []
    for notebook in sorted(Path(notebooks).glob("*.ipynb")):
        match = NOTEBOOK_NAME.match(notebook.name)
        try:
            cells = saved_cells(notebook, match and match.group(1))
            if cells and not match:
                raise ExportError(
                    f"{notebook.parent.name}/{notebook.name} has "
                    "#@save cells but its name is not NN_name.ipynb"
                )
        except ExportError as error:
            errors.append(str(error))
            continue
        saved += cells
    if errors:
        raise ExportError("\n".join(errors))
    return saved


def package_files(notebooks=None, package=None):
    """Return {path: text} for every file the exporter writes; raise
    ExportError naming the problems found."""
    package = Path(package or PACKAGE)
    saved = read_notebooks(notebooks or NOTEBOOKS)
    defined_in = check_names(saved)
    modules = {}
    for cell in saved:
        if cell.blocks:
            modules.setdefault(cell.module, []).append(cell)
    files, imports_of, public_of = {}, {}, {}
    for module, cells in modules.items():
        if module in defined_in:
            raise ExportError(
                f"{cells[0].place}: saves to module {module}, the name of "
                f"{module} (saved in module {defined_in[module]}): save the "
                "cell to another module with '#@save module_name'"
            )
        imports = module_imports(module, cells, saved, defined_in)
        text = files[package / f"{module}.py"] = tidy(
            module_text(cells, imports), module
        )
        # the modules it imports, once ruff has dropped the unused ones
        imports_of[module] = [
            node.module
            for node in ast.parse(text).body
            if isinstance(node, ast.ImportFrom) and node.level == 1
        ]
        public_of[module] = [n for n in names_of(cells) if n[0] != "_"]
    try:
        graphlib.TopologicalSorter(imports_of).prepare()
    except graphlib.CycleError as error:
        loop = " -> ".join(reversed(error.args[1]))
        raise ExportError(
            f"modules import each other: {loop}; move a definition with "
            "'#@save module_name'"
        ) from None
    attrs = "".join(f'"{m}": [{quoted(n)}],' for m, n in public_of.items())
    files[package / "__init__.py"] = tidy(INIT % attrs, "__init__")
    return files


def stale_files(files, package=None):
    """Return the paths whose content differs from what would be written."""
    stale = [
        path
        for path, text in files.items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]
    package = Path(package or PACKAGE)
    extra = [path for path in package.glob("*.py") if path not in files]
    return sorted(stale + extra)


def write_package(files, package=None):
    """Write files into package, removing modules no notebook saves."""
    for path in Path(package or PACKAGE).glob("*.py"):
        if path not in files:
            path.unlink()
    for path, text in files.items():
        write_atomically(path, text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check",
        action="store_true",
        help="only report whether the package is up to date",
    )
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
