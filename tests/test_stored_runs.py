"""Each stored notebook is the record of one run from top to bottom.

The prose quotes the outputs beside it, so a code cell edited after the
last run, whose output is gone, or a cell run out of order, would leave a
sentence about output the reader cannot see. A run from the top
(`make execute`, tools/execute.py) numbers the code cells 1, 2, 3, ... in
order; anything else fails here.
"""

import json

import pytest

from tools.project import ROOT, SOLUTION

NOTEBOOKS = sorted((ROOT / "notebooks").glob("**/*.ipynb"))


def execution_counts(path):
    """The execution count of each code cell of a notebook, in order."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [
        cell["execution_count"]
        for cell in cells
        if cell["cell_type"] == "code"
    ]


@pytest.mark.parametrize(
    "path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS]
)
def test_notebook_is_stored_as_one_run(path):
    counts = execution_counts(path)
    bad = [i for i, count in enumerate(counts) if count != i + 1]
    assert not bad, (
        f"{path.name}: code cells not run in one pass from "
        f"the top (first bad cell: #{bad[0]})"
    )


def test_a_cell_left_unrun_is_found(tmp_path):
    notebook = {
        "cells": [
            {"cell_type": "code", "execution_count": 1},
            {"cell_type": "markdown"},
            {"cell_type": "code", "execution_count": None},
        ]
    }
    path = tmp_path / "edited.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    assert execution_counts(path) == [1, None]
    with pytest.raises(AssertionError, match="first bad cell: #1"):
        test_notebook_is_stored_as_one_run(path)


def hidden_parts(cell):
    """What JupyterLab opens collapsed of a cell: 'source', 'outputs'."""
    folded = cell["metadata"].get("jupyter", {})
    return {
        part for part in ("source", "outputs") if folded.get(f"{part}_hidden")
    }


@pytest.mark.parametrize(
    "path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS]
)
def test_solutions_open_collapsed(path):
    # a worked solution shows neither its code nor what it prints until
    # the student opens it
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    shown = [
        cell.get("id")
        for cell in cells
        if SOLUTION in cell["metadata"].get("tags", [])
        and hidden_parts(cell)
        != (
            {"source", "outputs"}
            if cell["cell_type"] == "code"
            else {"source"}
        )
    ]
    assert not shown, f"{path.name}: solution cells not collapsed: {shown}"


PREDICT = "predict"  # the tag of a "predict, then run" question
BASICS = [p for p in NOTEBOOKS if p.name[:2] in {"01", "02", "03", "04"}]


def predict_moments(cells):
    """The ids of the predict questions that come before the exercises and
    whose answer, the next cell, is a code cell with outputs or text."""
    found = []
    for i, cell in enumerate(cells):
        if cell.get("id") == "exercises-intro":
            break
        if PREDICT in cell["metadata"].get("tags", []):
            answer = cells[i + 1] if i + 1 < len(cells) else None
            assert answer is not None and (
                answer["cell_type"] == "markdown" or answer.get("outputs")
            ), f"{cell.get('id')}: no answer in the next cell"
            found.append(cell.get("id"))
    return found


ACTIONS = {"answer", "quiz"}  # a fill-in with its check; a quiz widget


def actions(cells):
    """The ids of the cells before the exercises where the student acts:
    the predict questions (each with its answer) and the fill-ins and
    quizzes."""
    found = predict_moments(cells)
    for cell in cells:
        if cell.get("id") == "exercises-intro":
            break
        if ACTIONS & set(cell["metadata"].get("tags", [])):
            found.append(cell.get("id"))
    return found


@pytest.mark.parametrize(
    "path", BASICS, ids=[str(p.relative_to(ROOT)) for p in BASICS]
)
def test_the_student_acts_before_the_exercises(path):
    # the student has something to do on the main path, twice or more
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    moments = actions(cells)
    assert len(moments) >= 2, f"{path.name}: actions {moments}"


def test_a_predict_moment_without_its_answer_is_found():
    question = {
        "cell_type": "markdown",
        "id": "q",
        "metadata": {"tags": [PREDICT]},
    }
    unrun = {"cell_type": "code", "metadata": {}, "outputs": []}
    assert predict_moments([question, {**unrun, "outputs": ["x"]}]) == ["q"]
    with pytest.raises(AssertionError, match="q: no answer"):
        predict_moments([question, unrun])
    assert (
        predict_moments(
            [
                {
                    "cell_type": "markdown",
                    "id": "exercises-intro",
                    "metadata": {},
                },
                question,
            ]
        )
        == []
    )
