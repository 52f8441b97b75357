"""Write the helper package d2l_attention from the notebooks' #@save cells.

A code cell whose first line is exactly ``#@save`` belongs to the package;
``#@save module`` names the module it goes to (nbdev's ``#| export mod``),
else it goes to the module named after its notebook (``NN_name.ipynb`` ->
``name``). Modules are written in notebook order, with the imports their
code uses: those of the notebook's saved cells, and for a name another
module defines, ``from .module import name``. ``__all__`` lists each
module's public functions and classes; ``d2l_attention/__init__.py``
re-exports them all, each imported from its module on first use.

Nothing is skipped or overridden silently: a marker written another way
(``# @save``, ``#@Save``, after a blank first line, at the end of a line of
code), a name saved twice, a saved cell that imports the package itself
other than by ``from d2l_attention import name``, a module named like a
public name, and modules that import each other are errors that name the
cells or modules.

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
SAVE_LINE = re.compile(r"^#@save(?: ([a-z][a-z0-9_]*))?$")
NOTEBOOK_NAME = re.compile(r"^\d\d_(\w+)\.ipynb$")
# what a reader would take for the marker: any case, spaces inside, alone on
# a line or closing a line of code (the book's `def f():  #@save` style)
LOOKS_LIKE_MARKER = re.compile(
    r"^\s*#\s*@\s*save\b|#\s*@\s*save\s*$", re.IGNORECASE)


class ExportError(Exception):
    """A problem in the notebooks' #@save cells, reported as one message."""


class Saved:
    """One #@save cell: where it is, its target module and its code."""

    def __init__(self, place, module, source, notebook):
        self.place, self.module, self.notebook = place, module, notebook
        self.imports, self.blocks, self.names = split_cell(source, place)


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
                f"with exactly {MARKER!r} or '{MARKER} module_name' alone on "
                f"its first line (lower case, one space before the module). "
                f"Fix the marker, or remove it if the cell does not belong "
                f"to the package.")


def saved_cells(notebook, default_module):
    """Return the Saved cells of a notebook, in order."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    saved = []
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        first, _, rest = source.partition("\n")
        place = cell_place(notebook, index, cell)
        match = SAVE_LINE.match(first)
        if match:
            saved.append(Saved(place, match.group(1) or default_module,
                               rest.strip("\n"), notebook))
        else:
            check_marker(source, place)
    return saved


def split_cell(source, where):
    """Return (import nodes, code blocks, defined names) of one cell."""
    try:
        tree = ast.parse(source, filename=where)
    except SyntaxError as error:
        raise ExportError(f"{where}: {error}") from error
    lines = source.splitlines()
    imports, blocks, names = [], [], []
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            check_not_self_import(node, where)
            imports.append(node)
            continue
        if not isinstance(node, ast.FunctionDef | ast.ClassDef):
            raise ExportError(
                f"{where}: a #@save cell may hold only imports, functions "
                f"and classes; found {type(node).__name__} on line "
                f"{node.lineno}")
        start = node.lineno - 1
        if node.decorator_list:
            start = node.decorator_list[0].lineno - 1
        blocks.append("\n".join(lines[start:node.end_lineno]))
        names.append(node.name)
    return imports, blocks, names


def check_not_self_import(node, where):
    """Raise ExportError for an import of the package other than
    `from d2l_attention import name`, which the exporter rewrites."""
    package = PACKAGE.name
    if isinstance(node, ast.Import):
        modules = [alias.name for alias in node.names]
    else:
        modules = [node.module or ""] if node.level == 0 else ["."]
        if node.module == package:
            return
    for module in modules:
        if module == "." or module.split(".")[0] == package:
            raise ExportError(
                f"{where}: `{ast.unparse(node)}`: the package must not "
                f"import itself; import names with `from {package} import "
                "name` (rewritten to the module that defines it), and find "
                "files without the package's own path")


def bound_name(alias):
    """Return the name an import alias binds."""
    return alias.asname or alias.name.split(".")[0]


def used_names(blocks):
    """Return the names the code blocks read, in order of first use."""
    used = {}
    for block in blocks:
        for node in ast.walk(ast.parse(block)):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                used.setdefault(node.id)
    return list(used)


def import_line(node, aliases):
    """Return an import statement for some aliases of node, wrapped as ruff
    would at 79 characters."""
    names = [ast.unparse(alias) for alias in aliases]
    if isinstance(node, ast.Import):
        return "\n".join(f"import {name}" for name in names)
    module = "." * node.level + (node.module or "")
    line = f"from {module} import {', '.join(names)}"
    if len(line) > 79:
        line = (f"from {module} import (\n" +
                "".join(f"    {name},\n" for name in names) + ")")
    return line


def module_imports(cells, notebook_imports, defined_in):
    """Return (import lines, package modules imported) for a module's cells.

    Its code may use what any saved cell of its notebooks imports, and any
    name another module of the package defines.
    """
    blocks = [block for cell in cells for block in cell.blocks]
    own = {name for cell in cells for name in cell.names}
    used = [name for name in used_names(blocks) if name not in own]
    lines, bound = [], set()
    for notebook in dict.fromkeys(cell.notebook for cell in cells):
        for node in notebook_imports[notebook]:
            if isinstance(node, ast.ImportFrom) and (
                    node.module == PACKAGE.name):
                continue  # imported below, from the module that defines it
            aliases = [alias for alias in node.names
                       if bound_name(alias) in used
                       and bound_name(alias) not in bound]
            if aliases:
                bound.update(bound_name(alias) for alias in aliases)
                lines.append(import_line(node, aliases))
    by_module = {}
    for name in used:
        if name in defined_in and name not in bound:
            by_module.setdefault(defined_in[name], []).append(name)
    for module, names in by_module.items():
        node = ast.ImportFrom(module=module, names=[], level=1)
        lines.append(import_line(node, [ast.alias(name) for name in names]))
    return lines, list(by_module)


def check_package_imports(saved, defined_in):
    """Raise ExportError for `from d2l_attention import name` of a name
    that no saved cell defines."""
    for cell in saved:
        for node in cell.imports:
            if isinstance(node, ast.ImportFrom) and (
                    node.module == PACKAGE.name):
                for alias in node.names:
                    if alias.name not in defined_in:
                        raise ExportError(
                            f"{cell.place}: imports {alias.name} from "
                            f"{PACKAGE.name}, but no notebook saves it")


def check_unique(saved):
    """Return {public name: module}; raise if a name is saved twice.

    A private name (leading underscore) may repeat in another module.
    """
    saved_at, defined_in = {}, {}
    for cell in saved:
        if len(set(cell.names)) < len(cell.names):
            name = next(n for n in cell.names if cell.names.count(n) > 1)
            raise ExportError(f"{cell.place}: {name} is defined twice in "
                              "this #@save cell; keep one definition")
        for name in cell.names:
            key = (cell.module, name) if name.startswith("_") else name
            if key in saved_at:
                raise ExportError(
                    f"{name} is saved twice: in {saved_at[key]} and in "
                    f"{cell.place}; keep one #@save definition and import it "
                    f"from {PACKAGE.name} in the other notebook")
            saved_at[key] = cell.place
            if not name.startswith("_"):
                defined_in[name] = cell.module
    return defined_in


def check_module_names(modules, public):
    """Raise ExportError for a module named like a public name: importing
    the module would make the package's attribute the module."""
    for module, cells in modules.items():
        if module in public:
            raise ExportError(
                f"{cells[0].place}: saves to module {module}, the name of "
                f"the public {module} (saved in module {public[module]}): "
                "save the cell to another module with '#@save module_name'")


def check_no_cycle(imports_of):
    """Raise ExportError if modules import each other, naming the loop."""
    done, path = set(), []

    def visit(module):
        if module in path:
            loop = path[path.index(module):] + [module]
            raise ExportError("modules import each other: " +
                              " -> ".join(loop) + "; move a definition "
                              "with '#@save module_name'")
        if module in done:
            return
        path.append(module)
        for other in imports_of.get(module, []):
            visit(other)
        path.pop()
        done.add(module)

    for module in imports_of:
        visit(module)


def module_text(cells, imports):
    """Return the source of one module made of cells."""
    notebooks = dict.fromkeys(cell.notebook for cell in cells)
    head = ["# generated, do not edit: the #@save cells of\n" +
            "\n".join(f"# {nb.parent.name}/{nb.name}" for nb in notebooks)]
    if imports:
        head.append("\n".join(imports))
    public = [name for cell in cells for name in cell.names
              if not name.startswith("_")]
    head.append("__all__ = [\n" +
                "".join(f'    "{name}",\n' for name in public) + "]")
    blocks = [block for cell in cells for block in cell.blocks]
    return "\n\n".join(head) + "\n\n\n" + "\n\n\n".join(blocks) + "\n"


def init_text(public_of):
    """Return d2l_attention/__init__.py for {module: public names}."""
    lines = [
        "# generated from the notebooks' #@save cells, do not edit",
        '"""Helpers saved from the attention notebooks.',
        "",
        "Each name is imported from its module when first used: importing",
        "the models does not import the plotting and progress-bar modules.",
        '"""',
        "",
        "import lazy_loader",
        "",
        "__getattr__, __dir__, __all__ = lazy_loader.attach(",
        "    __name__,",
        "    submod_attrs={",
    ]
    for module, names in public_of.items():
        lines.append(f'        "{module}": [')
        lines += [f'            "{name}",' for name in names]
        lines.append("        ],")
    lines += ["    },", ")"]
    return "\n".join(lines) + "\n"


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
                    "#@save cells but its name is not NN_name.ipynb")
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
    defined_in = check_unique(saved)
    check_package_imports(saved, defined_in)
    modules, notebook_imports = {}, {}
    for cell in saved:
        if cell.blocks:
            modules.setdefault(cell.module, []).append(cell)
        notebook_imports.setdefault(cell.notebook, []).extend(cell.imports)
    check_module_names(modules, defined_in)
    files, imports_of, public_of = {}, {}, {}
    for module, cells in modules.items():
        imports, imports_of[module] = module_imports(
            cells, notebook_imports, defined_in)
        files[package / f"{module}.py"] = module_text(cells, imports)
        public_of[module] = [name for cell in cells for name in cell.names
                             if not name.startswith("_")]
    check_no_cycle(imports_of)
    files[package / "__init__.py"] = init_text(public_of)
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
