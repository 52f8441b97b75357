"""The student edition (tools/student.py): solutions out, questions in.

Every notebook of both editions is checked cell by cell against its full
version. The student notebooks of both editions run top to bottom from the
handouts (tests/test_handout.py): a cell that used a solution's result
would fail there, which is why such cells are part of the solution (tagged)
in the full notebooks.
"""

import re
import subprocess
import sys

import nbformat
import pytest

from tools import project, student
from tools.project import NOTEBOOKS, NOTEBOOKS_PT, ROOT
from tools.student import tags

ENGLISH = sorted(NOTEBOOKS.glob("[0-9]*.ipynb"))
PORTUGUESE = sorted(NOTEBOOKS_PT.glob("[0-9]*.ipynb"))
QUESTION = re.compile(r"^\*\*(Exercise|Exercício) ([0-9]+|[A-Z])\b")
HEADING = re.compile(r"^#{1,3} ")
EVERY_NOTEBOOK = pytest.mark.parametrize(
    "path", ENGLISH + PORTUGUESE, ids=lambda p: str(p.relative_to(NOTEBOOKS))
)


def run_student(*args):
    """Run `python -m tools.student args` in the project root."""
    command = [sys.executable, "-m", "tools.student", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT)


@EVERY_NOTEBOOK
def test_solutions_out_questions_and_the_rest_kept(path):
    full = nbformat.read(path, as_version=4)
    nb = student.student_notebook(path)
    assert not [cell.id for cell in nb.cells if student.is_solution(cell)]
    # each cell kept in its place, and a line where each run of solution
    # cells began: the (id, is a placeholder) of each cell, in order
    expected, previous = [], False
    for cell in full.cells:
        if not student.is_solution(cell):
            expected.append((cell.id, False))
        elif not previous:
            expected.append((f"{cell.id}-left-out", True))
        previous = student.is_solution(cell)
    layout = [(c.id, student.PLACEHOLDER in tags(c)) for c in nb.cells]
    assert layout == expected
    others = [c for c in nb.cells if student.PLACEHOLDER not in tags(c)]
    kept = [cell for cell in full.cells if not student.is_solution(cell)]
    for mine, theirs in zip(others, kept):
        if theirs.cell_type == "code":  # no output: no answer shown early
            assert mine.outputs == [] and mine.execution_count is None
            theirs.outputs, theirs.execution_count = [], None
        # every cell, questions included, its source unchanged, in order
        assert mine == theirs
    assert "widgets" not in nb.metadata  # the explorer shows no answer
    # the line names the notebook
    line = student.LINES[project.language(full)].format(name=path.name)
    placeholders = [c for c in nb.cells if student.PLACEHOLDER in tags(c)]
    assert all(cell.source == line for cell in placeholders)


@EVERY_NOTEBOOK
def test_every_question_has_a_tagged_worked_solution(path):
    cells = nbformat.read(path, as_version=4).cells
    starts = [
        i
        for i, cell in enumerate(cells)
        if cell.cell_type == "markdown" and QUESTION.match(cell.source)
    ]
    exercises = any(
        HEADING.match(cell.source)
        and ("Exercises" in cell.source or "Exercícios" in cell.source)
        for cell in cells
    )
    assert bool(starts) == exercises
    for start in starts:
        assert not student.is_solution(cells[start])
        rest = cells[start + 1 :]
        end = next(
            (
                i
                for i, cell in enumerate(rest)
                if cell.cell_type == "markdown"
                and (QUESTION.match(cell.source) or HEADING.match(cell.source))
            ),
            len(rest),
        )
        answer = rest[:end]
        # an answer cell and its check, or a cell that prints what bears
        # on the answer, and the worked solution and answer, collapsed
        shown = [
            tuple(sorted(set(tags(c)) & {"answer", "check", "quantity"}))
            for c in answer
            if not student.is_solution(c)
        ]
        assert shown in ([], [("quantity",)], [("answer",), ("check",)]), (
            cells[start].source[:60]
        )
        solved = [c for c in answer if student.is_solution(c)]
        assert solved, cells[start].source[:60]
        assert shown or any(c.cell_type == "code" for c in solved)
        if shown and shown[0] == ("answer",):  # stub, solution, check
            stub, check = (
                next(i for i, c in enumerate(answer) if tag in tags(c))
                for tag in ("answer", "check")
            )
            assert any(
                c.cell_type == "code" and student.is_solution(c)
                for c in answer[stub:check]
            )


@pytest.mark.parametrize("path", PORTUGUESE, ids=lambda p: p.name)
def test_portuguese_student_has_the_english_cells(path):
    english = student.student_notebook(NOTEBOOKS / path.name)
    portuguese = student.student_notebook(path)
    # the first Portuguese cell is the edition's note to the student
    assert [(c.id, c.cell_type) for c in portuguese.cells[1:]] == [
        (c.id, c.cell_type) for c in english.cells
    ]


def test_build_writes_both_editions(tmp_path):
    paths = [ENGLISH[0], PORTUGUESE[0]]
    result = run_student(tmp_path, *paths)
    assert result.returncode == 0, result.stderr
    written = [
        tmp_path / ENGLISH[0].name,
        tmp_path / "pt_BR" / PORTUGUESE[0].name,
    ]
    assert result.stdout.split() == [str(p) for p in written]
    for target in written:
        assert not student.is_solution(nbformat.read(target, 4).cells[0])
    assert not list(tmp_path.rglob("*.tmp"))


def test_a_missing_notebook_is_named(tmp_path):
    result = run_student(tmp_path, "notebooks/99_none.ipynb")
    assert result.returncode != 0
    assert result.stderr.strip() == (
        "student.py: no such notebook: notebooks/99_none.ipynb"
    )
    assert not list(tmp_path.iterdir())
