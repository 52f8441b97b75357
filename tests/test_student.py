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
from tools.project import ROOT
from tools.student import tags

ENGLISH = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
PORTUGUESE = sorted((ROOT / "notebooks" / "pt_BR").glob("[0-9]*.ipynb"))
QUESTION = re.compile(r"^\*\*(Exercise|Exercício) ([0-9]+|[A-Z])\b")
HEADING = re.compile(r"^#{1,3} ")


def student_id(cell):
    """Return the id that a cell kept in the student edition has there."""
    return f"{cell.id}-import" if student.CHECKS in tags(cell) else cell.id


def solution_runs(cells):
    """Return the runs of consecutive solution cells, as lists of ids."""
    runs, previous = [], False
    for cell in cells:
        if student.is_solution(cell):
            if not previous:
                runs.append([])
            runs[-1].append(cell.id)
        previous = student.is_solution(cell)
    return runs


@pytest.mark.parametrize(
    "path",
    ENGLISH + PORTUGUESE,
    ids=lambda p: str(p.relative_to(ROOT / "notebooks")),
)
def test_solutions_out_questions_and_the_rest_kept(path):
    full = nbformat.read(path, as_version=4)
    nb = student.student_notebook(path)
    assert not [cell.id for cell in nb.cells if student.is_solution(cell)]
    placeholders = [
        cell for cell in nb.cells if student.PLACEHOLDER in tags(cell)
    ]
    others = [
        cell for cell in nb.cells if student.PLACEHOLDER not in tags(cell)
    ]
    kept = [cell for cell in full.cells if not student.is_solution(cell)]
    assert [cell.id for cell in others] == [student_id(c) for c in kept]
    for mine, theirs in zip(others, kept):
        if student.CHECKS in tags(theirs):  # the checks hold the answers
            assert "from d2l_attention.exercises import" in mine.source
            assert "def " not in mine.source
        elif student.CHECK in tags(theirs):  # no verdict of the solution
            assert mine.source == theirs.source and mine.outputs == []
        else:  # every other cell, questions included, unchanged, in order
            assert mine == theirs
    # one line where each run of solution cells was, naming the notebook
    runs = solution_runs(full.cells)
    assert [cell.id for cell in placeholders] == [
        f"{run[0]}-left-out" for run in runs
    ]
    line = student.LINES[project.language(full)].format(name=path.name)
    assert all(cell.source == line for cell in placeholders)
    for cell in placeholders:
        before = full.cells.index(
            next(c for c in full.cells if c.id == cell.id[: -len("-left-out")])
        )
        at = nb.cells.index(cell)
        assert [
            c.id for c in nb.cells[:at] if student.PLACEHOLDER not in tags(c)
        ] == [
            student_id(c)
            for c in full.cells[:before]
            if not student.is_solution(c)
        ]


@pytest.mark.parametrize(
    "path",
    ENGLISH + PORTUGUESE,
    ids=lambda p: str(p.relative_to(ROOT / "notebooks")),
)
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
    english = student.student_notebook(ROOT / "notebooks" / path.name)
    portuguese = student.student_notebook(path)
    # the first Portuguese cell is the edition's note to the student
    assert [c.id for c in portuguese.cells[1:]] == [
        c.id for c in english.cells
    ]
    assert [c.cell_type for c in portuguese.cells[1:]] == [
        c.cell_type for c in english.cells
    ]


def test_build_writes_both_editions(tmp_path):
    paths = [ENGLISH[0], PORTUGUESE[0]]
    result = subprocess.run(
        [sys.executable, "-m", "tools.student", tmp_path, *paths],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    written = [
        tmp_path / ENGLISH[0].name,
        tmp_path / "pt_BR" / PORTUGUESE[0].name,
    ]
    assert result.stdout.split() == [str(p) for p in written]
    for target in written:
        assert not student.is_solution(nbformat.read(target, 4).cells[0])
    assert not list(tmp_path.rglob("*.tmp"))


def test_a_missing_notebook_is_named(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tools.student",
            tmp_path,
            "notebooks/99_none.ipynb",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode != 0
    assert result.stderr.strip() == (
        "student.py: no such notebook: notebooks/99_none.ipynb"
    )
    assert not list(tmp_path.iterdir())
