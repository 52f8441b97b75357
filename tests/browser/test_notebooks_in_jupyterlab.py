"""Each notebook in JupyterLab in Chromium, as a person would use it.

    make test-browser
    .venv/bin/python -m pytest -m browser tests/browser \
        --notebook notebooks/01_masked_softmax.ipynb

Runs all cells from the menus, then works the explorer (lab_driver.py says
what is checked). Screenshots of each notebook's explorer and figures,
and of the page of a failed test, go to build/browser/<test name>/.
"""

from pathlib import Path

import pytest

from tests.browser import lab_driver
from tools import project

pytestmark = pytest.mark.browser


def test_notebook(page, notebook, lab, output_path):
    server = lab(project.language(notebook))
    out_dir = Path(output_path)
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        notes = lab_driver.check_notebook(
            page, server.url(lab_driver.served_name(notebook)), out_dir
        )
    finally:
        server.shutdown_kernels()  # frees the CPU for the next notebook
    print("\n".join(notes))
