"""Fixtures of the browser test: the system Chromium, JupyterLab servers."""

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.browser import lab_driver
from tools import project

BROWSERS = ("chromium", "chromium-browser")


def pytest_addoption(parser):
    parser.addoption(
        "--notebook",
        action="append",
        default=[],
        metavar="PATH",
        help="test this notebook (repeatable; default: both editions); one "
        "from outside notebooks/ replaces its namesake",
    )


def pytest_generate_tests(metafunc):
    if "notebook" in metafunc.fixturenames:
        paths = [Path(p) for p in metafunc.config.getoption("notebook")] or (
            sorted(lab_driver.NOTEBOOKS.glob("*.ipynb"))
            + sorted(project.NOTEBOOKS_PT.glob("*.ipynb"))
        )
        metafunc.parametrize(
            "notebook", paths, ids=map(lab_driver.served_name, paths)
        )


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """pytest-playwright launches the system Chromium: none is downloaded."""
    chromium = next(filter(None, map(shutil.which, BROWSERS)), None)
    if chromium is None:
        pytest.exit(
            "Chromium is not installed (looked for "
            f"{' and '.join(BROWSERS)}); install it with: sudo "
            "apt-get install chromium",
            returncode=2,
        )
    root = os.geteuid() == 0  # containers and CI: no sandbox as root
    return {
        **browser_type_launch_args,
        "executable_path": chromium,
        "args": ["--no-sandbox"] if root else [],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """A laptop-sized window."""
    return {**browser_context_args, "viewport": {"width": 1280, "height": 900}}


def digests(paths):
    """The SHA-256 of each file."""
    return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


@pytest.fixture(scope="session")
def lab(request):
    """Returns the JupyterLab server for an interface language, started on
    first use, serving a trusted copy of notebooks/ (as `make lab` trusts
    them, so that saved widgets show). At the end the servers stop, and
    the notebooks tested must be unchanged."""
    paths = [Path(p) for p in request.config.getoption("notebook")]
    tested = paths or sorted(lab_driver.NOTEBOOKS.rglob("*.ipynb"))
    before = digests(tested)
    servers = {}
    with tempfile.TemporaryDirectory(prefix="browser-test-") as tmp:
        served = lab_driver.copy_notebooks(paths, Path(tmp))
        subprocess.run(
            [
                str(lab_driver.JUPYTER),
                "trust",
                *map(str, served.rglob("*.ipynb")),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        log_dir = Path(request.config.getoption("--output"))

        def server(locale):
            if locale not in servers:
                log_dir.mkdir(parents=True, exist_ok=True)
                servers[locale] = lab_driver.LabServer(
                    served,
                    Path(tmp),
                    log_dir / f"jupyterlab-{locale}.log",
                    locale,
                )
                servers[locale].wait_ready()
            return servers[locale]

        try:
            yield server
        finally:
            for running in servers.values():
                running.stop()
    changed = [p.name for p in tested if digests([p])[p] != before[p]]
    assert not changed, f"notebook files changed by the test: {changed}"
