"""Build the student edition: every notebook without its worked solutions.

    python -m tools.student OUT_DIR NOTEBOOK...

Each run of consecutive cells tagged `solution` gives way to one line that
says the solution is in the full notebook; nbconvert's TagRemovePreprocessor
then takes the solution cells out. No answer shows before its question:
every code cell loses its outputs (a prediction's answer, a quantity the
student is asked for, a check's verdict on the worked solution, and any
later figure that would give them away), and the notebook its saved widget
state (the explorer's last figure); the student runs each cell in turn.
The questions and every other cell stay, their sources unchanged. A
notebook of notebooks/pt_BR/ gets the line in Portuguese and goes to
OUT_DIR/pt_BR/.
Each file is written to a temporary name first, so an interrupted build
leaves no half-written notebook.
"""

import argparse
import sys
from pathlib import Path

import nbformat
from nbconvert.preprocessors import TagRemovePreprocessor

from tools.project import SOLUTION, language, write_atomically

CHECK = "check"  # a cell that runs an exercise's check on the answer
PLACEHOLDER = "solution-placeholder"  # the tag of the line left in its place
LINES = {
    "en": (
        "*The worked solution is left out of this student edition: it is "
        "in the full notebook, `notebooks/{name}`.*"
    ),
    "pt_BR": (
        "*A solução foi retirada desta edição do aluno: ela "
        "está no notebook completo, `notebooks/pt_BR/{name}`.*"
    ),
}
# the line of a handout (tools/handout.py), which holds no full notebook
HANDOUT_LINES = {
    "en": (
        "*The worked solution is left out of this student edition: "
        "your teacher has it.*"
    ),
    "pt_BR": (
        "*A solução foi retirada desta edição do aluno: "
        "ela fica com o professor.*"
    ),
}


def tags(cell):
    """Return the tags of a cell."""
    return cell.get("metadata", {}).get("tags", [])


def is_solution(cell):
    """Return whether a cell is tagged as a worked solution."""
    return SOLUTION in tags(cell)


def student_notebook(path, lines=LINES):
    """Return the student edition of the notebook at path."""
    nb = nbformat.read(path, as_version=4)
    line = lines[language(nb)].format(name=Path(path).name)
    cells, previous = [], False
    for cell in nb.cells:
        if is_solution(cell) and not previous:  # a run begins: one line
            placeholder = nbformat.v4.new_markdown_cell(line)
            placeholder.id = f"{cell.id}-left-out"
            placeholder.metadata["tags"] = [PLACEHOLDER]
            cells.append(placeholder)
        previous = is_solution(cell)
        if cell.cell_type == "code":  # no answer before its question
            cell.outputs, cell.execution_count = [], None
        cells.append(cell)
    nb.cells = cells
    nb.metadata.pop("widgets", None)  # the explorers' saved state
    remove = TagRemovePreprocessor(remove_cell_tags={SOLUTION}, enabled=True)
    nb, _ = remove.preprocess(nb, {})
    nbformat.validate(nb)
    return nb


def build(out_dir, paths):
    """Write the student edition of each notebook; return the targets."""
    targets = []
    for path in map(Path, paths):
        nb = student_notebook(path)
        folder = Path(out_dir) / ("pt_BR" if language(nb) == "pt_BR" else "")
        target = folder / path.name
        write_atomically(target, nbformat.writes(nb) + "\n")
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
