"""The handouts (tools/handout.py): what a teacher gives the students.

Each edition's zip is unpacked into an empty folder outside the project and
every student notebook runs there top to bottom (tools.execute), in the
project's environment but importing the handout's own helper package and
reading its own corpus excerpt: nothing new is installed.
"""

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

from tools import execute, handout, student
from tools.project import ROOT

EDITIONS = list(handout.EDITIONS)
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9]*.ipynb"))
# what a handout must not point to: the full notebooks and the repository
POINTERS = (
    "full notebook",
    "notebook completo",
    "notebooks/pt_BR",
    "`notebooks/0",
)


@pytest.fixture(scope="module")
def zips(tmp_path_factory):
    """Build both handouts once; return each edition's zip."""
    out = tmp_path_factory.mktemp("handouts")
    done = subprocess.run(
        [sys.executable, "-m", "tools.handout", out],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    paths = [Path(line) for line in done.stdout.split()]
    assert [p.name for p in paths] == [
        f"{handout.EDITIONS[e][0]}.zip" for e in EDITIONS
    ]
    assert not list(out.glob("tmp*"))  # the temporary folder is gone
    return dict(zip(EDITIONS, paths))


@pytest.fixture(scope="module")
def unpacked(zips, tmp_path_factory):
    """Each zip unpacked into an empty folder outside the project."""
    folders = {}
    for edition, path in zips.items():
        target = tmp_path_factory.mktemp(f"class-{edition}")
        assert ROOT not in target.parents
        with zipfile.ZipFile(path) as archive:
            archive.extractall(target)
        [folders[edition]] = target.iterdir()  # one folder, the handout's
    return folders


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_handout_holds_what_a_student_needs(unpacked, edition):
    folder = unpacked[edition]
    names = {
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file()
    }
    assert {f"notebooks/{name}" for name in NOTEBOOKS} <= names
    assert {
        "README.md",
        "LICENSE",
        "Makefile",
        "pyproject.toml",
        "requirements.txt",
        "data/README.md",
        "data/fra-eng-first-5000.txt",
        "d2l_attention/__init__.py",
        "d2l_attention/exercises/__init__.py",
        "d2l_attention/exercises/kit.py",
        "locale/pt_BR/d2l_attention.po",
    } <= names
    # no Portuguese notebook folder: the catalog of the package's messages
    # is the one pt_BR/ path
    assert not [
        n
        for n in names
        if "__pycache__" in n
        or ("pt_BR/" in n and n != "locale/pt_BR/d2l_attention.po")
    ]
    wanted = {
        line
        for line in (ROOT / "requirements.txt").read_text().splitlines()
        if line and not line.startswith("#")
    }
    given = (folder / "requirements.txt").read_text().splitlines()
    assert {line for line in given if not line.startswith("#")} == wanted
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert ("Como conferir as respostas" in readme) == (edition == "pt_BR")
    assert (
        "jupyterlab-settings/@jupyterlab/translation-extension/"
        "plugin.jupyterlab-settings" in names
    ) == (edition == "pt_BR")


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_full_notebook_and_no_pointer_to_one(unpacked, edition):
    line = student.HANDOUT_LINES[edition]
    for path in sorted((unpacked[edition] / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        cells = nb.cells
        assert not [c.id for c in cells if student.is_solution(c)]
        # no answer before its question: no output, no explorer's state
        assert not [c.id for c in cells if c.get("outputs")], path.name
        assert "widgets" not in nb.metadata, path.name
        placeholders = [
            c for c in cells if student.PLACEHOLDER in student.tags(c)
        ]
        assert placeholders and all(c.source == line for c in placeholders)
        text = json.dumps([c.source for c in cells], ensure_ascii=False)
        assert not [p for p in POINTERS if p in text], path.name


def run_notebook(folder, name, out):
    """Run the handout's notebook name in its notebooks/ folder, with the
    handout's package (tools.execute: every wait bounded)."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "tools.execute",
            "--output-dir",
            out,
            folder / "notebooks" / name,
        ],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(folder)),
        capture_output=True,
        text=True,
        # the whole notebook's bound, beyond each wait's in tools.execute
        timeout=2 * execute.CELL_TIMEOUT,
    )


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_notebooks_use_the_handouts_own_package_and_data(
    unpacked, edition
):
    folder = unpacked[edition]
    code = (
        "import d2l_attention, d2l_attention.nmt_data as d; "
        "print(d2l_attention.__file__); print(d.find_data_file())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=folder / "notebooks",
        env=dict(os.environ, PYTHONPATH=str(folder)),
        capture_output=True,
        text=True,
        check=True,
    )
    package, data = map(Path, done.stdout.split())
    assert folder in package.parents and folder in data.parents


@pytest.mark.kernel
@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_student_notebook_runs_top_to_bottom(
    unpacked, edition, name, tmp_path
):
    done = run_notebook(unpacked[edition], name, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    nb = nbformat.read(tmp_path / name, as_version=4)
    errors = [
        out
        for cell in nb.cells
        for out in cell.get("outputs", [])
        if out.output_type == "error"
    ]
    assert not errors
    # each unanswered exercise gets its hint, in the edition's language
    hint = {"en": "✘ Not yet: ", "pt_BR": "✘ Ainda não: "}[edition]
    for cell in nb.cells:
        if student.CHECK in student.tags(cell):
            [out] = cell.outputs
            assert out.data["text/plain"].startswith(hint), cell.source
