"""Build the student edition: every notebook without its worked solutions.

    python tools/student.py OUT_DIR NOTEBOOK...

Each run of consecutive cells tagged `solution` gives way to one line that
says the solution is in the full notebook; nbconvert's TagRemovePreprocessor
then takes the solution cells out. The questions and every other cell stay,
with their outputs. A notebook of notebooks/pt_BR/ (its first cell is the
"generated" note of tools/translate.py) gets the line in Portuguese and goes
to OUT_DIR/pt_BR/. Each file is written to a temporary name first, so an
interrupted build leaves no half-written notebook.
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path

import nbformat
from nbconvert.preprocessors import TagRemovePreprocessor

SOLUTION = "solution"
PLACEHOLDER = "solution-placeholder"  # the tag of the line left in its place
PORTUGUESE_FIRST_CELL = "pt-br-generated"  # tools/translate.py's first cell
LINES = {
    "en": ("*The worked solution is left out of this student edition: it is "
           "in the full notebook, `notebooks/{name}`.*"),
    "pt_BR": ("*A solução resolvida foi retirada desta edição do aluno: ela "
              "está no notebook completo, `notebooks/pt_BR/{name}`.*"),
}


def language(nb):
    """Return "pt_BR" for a notebook of the Portuguese edition, else "en"."""
    first = nb.cells[0].get("id") if nb.cells else None
    return "pt_BR" if first == PORTUGUESE_FIRST_CELL else "en"


def is_solution(cell):
    """Return whether a cell is tagged as a worked solution."""
    return SOLUTION in cell.get("metadata", {}).get("tags", [])


def add_placeholders(nb, name):
    """Put a placeholder line before each run of solution cells."""
    line = LINES[language(nb)].format(name=name)
    cells, previous = [], False
    for cell in nb.cells:
        if is_solution(cell) and not previous:
            placeholder = nbformat.v4.new_markdown_cell(line)
            placeholder.id = f"{cell.id}-left-out"
            placeholder.metadata["tags"] = [PLACEHOLDER]
            cells.append(placeholder)
        cells.append(cell)
        previous = is_solution(cell)
    nb.cells = cells


def student_notebook(path):
    """Return the student edition of the notebook at path."""
    nb = nbformat.read(path, as_version=4)
    add_placeholders(nb, Path(path).name)
    remove = TagRemovePreprocessor(remove_cell_tags={SOLUTION}, enabled=True)
    nb, _ = remove.preprocess(nb, {})
    nbformat.validate(nb)
    return nb


def write_atomically(nb, target):
    """Write nb to target through a temporary file in the same folder."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            nbformat.write(nb, file)
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise


def build(out_dir, paths):
    """Write the student edition of each notebook; return the targets."""
    targets = []
    for path in map(Path, paths):
        nb = student_notebook(path)
        folder = Path(out_dir) / ("pt_BR" if language(nb) == "pt_BR" else "")
        target = folder / path.name
        write_atomically(nb, target)
        targets.append(target)
    return targets


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("notebooks", nargs="+")
    args = parser.parse_args(argv)
    missing = [p for p in args.notebooks if not Path(p).is_file()]
    if missing:
        sys.exit(f"student.py: no such notebook: {', '.join(missing)}")
    for target in build(args.out_dir, args.notebooks):
        print(target)


if __name__ == "__main__":
    main()
