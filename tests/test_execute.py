"""tools.execute: notebooks run top to bottom, every wait bounded."""

import re
import subprocess
import sys
import time

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from tools import execute
from tools.project import ROOT

# seconds a kernel takes to start and to be stopped, at most, here
START_AND_STOP = 30


def notebook(tmp_path, *sources, name="planted.ipynb"):
    """Write a notebook of code cells with the given sources."""
    nb = new_notebook(cells=[new_code_cell(s) for s in sources])
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3"}
    path = tmp_path / name
    nbformat.write(nb, path)
    return path, [cell.id for cell in nb.cells]


@pytest.mark.kernel
def test_a_cell_past_the_bound_fails_naming_notebook_and_cell(tmp_path):
    path, ids = notebook(
        tmp_path, "print('before')", "import time\ntime.sleep(120)", "1"
    )
    start = time.monotonic()
    with pytest.raises(execute.Stalled) as stalled:
        execute.run(path, timeout=5)
    took = time.monotonic() - start
    assert f"planted.ipynb, cell 1 (id {ids[1]}): import time" in str(
        stalled.value
    )
    assert took < 5 + START_AND_STOP, took


@pytest.mark.kernel
def test_a_reply_found_only_past_the_bound_fails_too(tmp_path, monkeypatch):
    # what a reply left unread looks like: nbclient goes on after the
    # wait's last look, and only the cell's time tells
    path, ids = notebook(tmp_path, "print('late')")
    times = iter([0.0, execute.CELL_TIMEOUT + 1.0])
    monkeypatch.setattr(execute, "_clock", lambda: next(times))
    with pytest.raises(execute.Stalled) as stalled:
        execute.run(path)
    assert f"cell 0 (id {ids[0]}): print('late'): ended after 301 s" in str(
        stalled.value
    )


@pytest.mark.kernel
def test_an_output_widget_keeps_its_outputs_from_the_kernel(tmp_path):
    # nbclient's own Output widget sends what it captured back on the
    # shell socket while the client waits there for the reply: the kernel
    # would then count 1 output
    path, _ = notebook(
        tmp_path,
        "import ipywidgets as w\nfrom IPython.display import display\n"
        "box = w.Output()\ndisplay(box)\nwith box:\n    print('caught')",
        "print(len(box.outputs))",
    )
    nb = execute.run(path)
    assert nb.cells[1].outputs[0].text == "0\n"
    # what the saved notebook shows: nbclient's record of the widget
    [state] = [
        model["state"]
        for model in nb.metadata.widgets[
            "application/vnd.jupyter.widget-state+json"
        ]["state"].values()
        if model["model_name"] == "OutputModel"
    ]
    assert state["outputs"][0]["text"] == "caught\n"


@pytest.mark.kernel
def test_the_command_writes_the_run_and_names_a_failing_notebook(tmp_path):
    good, _ = notebook(tmp_path, "print(6 * 7)", name="good.ipynb")
    bad, _ = notebook(tmp_path, "1 / 0", name="bad.ipynb")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "tools.execute", "--output-dir", out]
    done = subprocess.run(
        [*command, good, bad], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode != 0
    assert "tools.execute: bad.ipynb: " in done.stderr
    assert "ZeroDivisionError" in done.stderr
    ran = nbformat.read(out / "good.ipynb", as_version=4)
    assert ran.cells[0].outputs[0].text == "42\n"


def test_nbval_has_the_same_bound():
    makefile = (ROOT / "Makefile").read_text()
    [bound] = re.findall(r"^CELL_TIMEOUT := (\d+)$", makefile, re.M)
    assert int(bound) == execute.CELL_TIMEOUT
    [nbval] = re.findall(r"^NBVAL .*\n.*\n", makefile, re.M)
    assert "--nbval-cell-timeout=$(CELL_TIMEOUT)" in nbval


def test_a_bound_of_zero_is_refused(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "tools.execute", "--timeout", "0", "--inplace"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "0: not a positive number" in done.stderr
