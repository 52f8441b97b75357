"""Write the helper package d2l_attention from the notebooks' #@save cells.

A code cell whose first line is exactly ``#@save`` belongs to the package;
``#@save module`` names the module it goes to (nbdev's ``#| export mod``),
else it goes to the module named after its notebook (``NN_name.ipynb`` ->
``name``), in notebook order. A module gets the imports of the saved cells
of its notebooks as written, ``from d2l_attention import name`` made
``from .module import name``, and such an import of each name saved in
another module; ruff drops the unused and repeated ones (F401, F811),
sorts the rest and formats the module. The modules written by hand
(``language``, ``checks``; the ``exercises`` subpackage) are left as they
are, and a saved cell imports their names as it imports saved ones.
A name, private or public, is saved once in the package. ``__all__``
lists the public ones; ``__init__.py`` imports each name, private ones
too, from its module on first use.

Errors, naming the cells or modules: a marker written another way
(``# @save``, ``#@Save``, after a blank first line, closing a line of code),
a name saved twice, a saved cell importing the package other than by
``from d2l_attention import name`` or a name no notebook saves, code other
than definitions, a module named like a saved name, modules that import
each other, saved cells in a notebook not named ``NN_name.ipynb``.

    python -m tools.export          # write the package
    python -m tools.export --check  # exit 1 if the package is out of date
"""

import argparse
import ast
import graphlib
import json
import re
import subprocess
import sys
from pathlib import Path

from tools.project import NOTEBOOKS, PACKAGE, ROOT, write_atomically

SAVE_LINE = re.compile(r"^#@save(?: ([a-z][a-z0-9_]*))?$")
NOTEBOOK_NAME = re.compile(r"^\d\d_(\w+)\.ipynb$")
# what a reader would take for the marker: any case, spaces inside, alone on
# a line or closing a line of code (the book's `def f():  #@save` style)
LOOKS_LIKE_MARKER = re.compile(r"^\s*#\s*@\s*save\b|#\s*@\s*save\s*$", re.I)
# the package's modules written by hand, which the notebooks' cells may
# import from: their public names are their __all__, their private ones
# their top-level _functions (language: the edition's words and numbers;
# checks: the input checks); and its subpackage written by hand, the
# exercises' checks, reached as d2l_attention.exercises
HAND_WRITTEN = ("language", "checks")
SUBPACKAGES = ("exercises",)
RUFF = [sys.executable, "-m", "ruff"]  # the project's pinned ruff
RUFF_STEPS = ["check --select F401,F811 --fix"]  # unused, repeated imports
RUFF_STEPS += ["check --select I --fix", "format"]  # sorted; formatted
INIT = '''# generated from the notebooks' #@save cells, do not edit
"""Helpers saved from the attention notebooks.

Each name is imported from its module when first used: importing
the models does not import the plotting and progress-bar modules.
"""

import lazy_loader

# the subpackages, written by hand: the exercises' checks
SUBPACKAGES = [%s]
__getattr__, __dir__, __all__ = lazy_loader.attach(
    __name__, submodules=SUBPACKAGES, submod_attrs={%s}
)
# a private helper and a subpackage import on first use too, not listed
__all__ = [n for n in __all__ if n[0] != "_" and n not in SUBPACKAGES]
'''


class ExportError(Exception):
    """A problem in the notebooks' #@save cells, reported as one message."""


class Saved:
    """One #@save cell: place, module, imports, code blocks, names."""

    def __init__(self, place, module, code, notebook):
        self.place, self.module, self.notebook = place, module, notebook
        try:
            tree = ast.parse(code, filename=place)
        except SyntaxError as error:
            raise ExportError(f"{place}: {error}") from error
        lines = code.splitlines()
        self.imports, self.blocks, self.names = [], [], []
        for node in tree.body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                check_not_self_import(node, place)
                segment = ast.get_source_segment(code, node)
                self.imports.append((node, segment))  # as written
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
        self.public = [name for name in self.names if name[0] != "_"]


def saved_cells(notebook):
    """Return the Saved cells of a notebook, in order; raise ExportError
    for a near-miss marker or saved cells in a misnamed notebook."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    path = f"{notebook.parent.name}/{notebook.name}"
    named = NOTEBOOK_NAME.match(notebook.name)
    saved = []
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        first, _, rest = source.partition("\n")
        cell_id = f", id {cell['id']}" if cell.get("id") else ""
        place = f"{path}, cell {index + 1}{cell_id}"
        if match := SAVE_LINE.match(first):
            module = match.group(1) or (named and named.group(1))
            saved.append(Saved(place, module, rest, notebook))
            continue
        for number, line in enumerate(source.splitlines(), start=1):
            if LOOKS_LIKE_MARKER.search(line):
                raise ExportError(
                    f"{place}: line {number} is {line.strip()!r}, which looks "
                    "like a save marker but is not one: a saved cell starts "
                    "with exactly '#@save' or '#@save module_name' alone "
                    "on its first line (lower case, one space before the "
                    "module). Fix the marker, or remove it if the cell does "
                    "not belong to the package."
                )
    if saved and not named:
        raise ExportError(f"{path} has #@save cells, but is not NN_name.ipynb")
    return saved


def package_names(node):
    """Return the aliases of `from d2l_attention import ...`, else []."""
    is_package = isinstance(node, ast.ImportFrom) and node.level == 0
    return node.names if is_package and node.module == PACKAGE.name else []


def check_not_self_import(node, where):
    """Raise ExportError for an import of the package other than
    `from d2l_attention import name`, which the exporter rewrites."""
    modules = [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        modules = ["." * node.level + (node.module or "")]
    if not package_names(node) and any(
        module[0] == "." or module.split(".")[0] == PACKAGE.name
        for module in modules
    ):
        raise ExportError(
            f"{where}: `{ast.unparse(node)}`: the package must not import "
            f"itself; import names with `from {PACKAGE.name} import name` "
            "(rewritten to the module that defines it), and find files "
            "without the package's own path"
        )


def hand_written_names(package=None):
    """Return {name: module} of the names of the hand-written modules there
    are: their __all__, and their top-level functions named _name."""
    found = {}
    for module in HAND_WRITTEN:
        path = Path(package or PACKAGE) / f"{module}.py"
        if not path.is_file():
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = getattr(node, "targets", [])
            if any(getattr(t, "id", "") == "__all__" for t in targets):
                found |= dict.fromkeys(ast.literal_eval(node.value), module)
            name = getattr(node, "name", "")
            if isinstance(node, ast.FunctionDef) and name[:1] == "_":
                found[name] = module
    return found


def check_names(saved, written=None):
    """Return {name: module} of the names saved and of those written by
    hand (written, {name: module}); raise ExportError if a name is saved
    twice or a cell imports from the package a name no module defines."""
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
            if name in (written or {}):
                raise ExportError(
                    f"{cell.place}: {name} is also defined in the module "
                    f"written by hand, {written[name]}; rename one"
                )
            saved_at[name], defined_in[name] = cell.place, cell.module
    defined_in |= written or {}
    for cell in saved:
        for node, _ in cell.imports:
            for alias in package_names(node):
                if alias.name not in defined_in:
                    raise ExportError(
                        f"{cell.place}: imports {alias.name} from "
                        f"{PACKAGE.name}, but no notebook saves it"
                    )
    return defined_in


def module_text(module, cells, saved, defined_in):
    """Return a module's source before ruff: its cells, the imports of their
    notebooks' saved cells (made relative) and of each name saved elsewhere."""
    notebooks = dict.fromkeys(cell.notebook for cell in cells)
    head = ["# generated, do not edit: the #@save cells of"]
    head += [f"# {nb.parent.name}/{nb.name}" for nb in notebooks]
    lines, names = [], [ast.alias(name) for name in defined_in]
    for cell in saved:
        for node, text in cell.imports if cell.notebook in notebooks else []:
            if package_names(node):
                names += package_names(node)
            else:
                lines.append(text)
    for alias in names:
        if (other := defined_in[alias.name]) != module:
            lines.append(f"from .{other} import {ast.unparse(alias)}")
    public = quoted(name for cell in cells for name in cell.public)
    blocks = [block for cell in cells for block in cell.blocks]
    parts = ["\n".join(head), "\n".join(lines), f"__all__ = [{public}]"]
    return "\n\n".join([part for part in parts if part] + blocks)


def quoted(names):
    """Return the names as the items of a Python list, each with a comma."""
    return "".join(f'"{name}",' for name in names)


def tidy(text, module):
    """Return a module's text as ruff's steps leave it (project settings)."""
    for step in RUFF_STEPS:
        command = [*RUFF, *step.split(), "--output-format=concise"]
        command += ["--stdin-filename", f"{PACKAGE.name}/{module}.py", "-"]
        result = subprocess.run(
            command, input=text, capture_output=True, text=True, cwd=ROOT
        )
        if result.returncode:
            problems = result.stderr.strip()
            raise ExportError(f"module {module}, ruff {step}:\n{problems}")
        text = result.stdout
    return text


def package_files(notebooks=None, package=None):
    """Return {path: text} of the package's files; raise ExportError."""
    package, saved, errors = Path(package or PACKAGE), [], []
    for notebook in sorted(Path(notebooks or NOTEBOOKS).glob("*.ipynb")):
        try:
            saved += saved_cells(notebook)
        except ExportError as error:
            errors.append(str(error))  # every notebook's problem at once
    if errors:
        raise ExportError("\n".join(errors))
    written = hand_written_names(package)
    defined_in = check_names(saved, written)
    modules = {}
    for cell in saved:
        if cell.blocks:
            modules.setdefault(cell.module, []).append(cell)
    files, imports_of, names_of = {}, {}, {}
    for module, cells in modules.items():
        if module in HAND_WRITTEN + SUBPACKAGES:
            raise ExportError(
                f"{cells[0].place}: saves to module {module}, which is "
                "written by hand; save the cell to another module"
            )
        if module in defined_in:
            raise ExportError(
                f"{cells[0].place}: saves to module {module}, also a name "
                f"saved in module {defined_in[module]}: the package cannot "
                "hold both; save the cell to another with '#@save module'"
            )
        text = module_text(module, cells, saved, defined_in)
        text = files[package / f"{module}.py"] = tidy(text, module)
        # the modules it imports, once ruff has dropped the unused imports
        body = ast.parse(text).body
        imports_of[module] = [n.module for n in body if getattr(n, "level", 0)]
        names_of[module] = [name for cell in cells for name in cell.names]
    try:
        graphlib.TopologicalSorter(imports_of).prepare()
    except graphlib.CycleError as error:
        loop = " -> ".join(reversed(error.args[1]))
        raise ExportError(
            f"modules import each other: {loop}; move a definition with "
            "'#@save module_name'"
        ) from None
    for name, module in written.items():
        names_of.setdefault(module, []).append(name)
    attrs = "".join(f'"{m}": [{quoted(n)}],' for m, n in names_of.items())
    subpackages = quoted(SUBPACKAGES)
    files[package / "__init__.py"] = tidy(
        INIT % (subpackages, attrs), "__init__"
    )
    return files


def stale_files(files, package=None):
    """Return the paths whose content differs from what would be written."""
    package = Path(package or PACKAGE)
    old = {
        p: p.read_text(encoding="utf-8")
        for p in package.glob("*.py")
        if p.stem not in HAND_WRITTEN
    }
    return sorted(p for p in old | files if old.get(p) != files.get(p))


def write_package(files, package=None):
    """Write files into package, removing modules no notebook saves."""
    for path in set(Path(package or PACKAGE).glob("*.py")) - files.keys():
        if path.stem not in HAND_WRITTEN:
            path.unlink()
    for path, text in files.items():
        write_atomically(path, text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if stale")
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
