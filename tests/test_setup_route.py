"""The README's set-up without make, run as written (`make test-setup`).

The test reads the POSIX commands of README.md's "Set-up without make"
from the blocks marked `<!-- make test-setup: ... -->`, runs them in bash
in a fresh copy of the project, with a new virtual environment, and then
runs notebooks 01 and 05 top to bottom in that environment with nbclient
(tools.execute). A command that does not end by itself, `jupyter lab`,
is noted with the `jupyter` the shell finds at that point; afterwards that
`jupyter lab` is started with the README's arguments plus a port, a token
and no browser, asked over HTTP what it serves and in which language, and
stopped. Several minutes: pip installs requirements.txt (from its cache
when it is warm).
"""

import json
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tools import execute
from tools.project import ROOT

SECTION = "## Set-up without make"
MARK = re.compile(r"<!-- make test-setup: (\w+) -->\n```bash\n(.*?)```", re.S)
NOTEBOOKS = ("01_masked_softmax.ipynb", "05_seq2seq.ipynb")
# what the tools and tests need and a student does not
DEV_ONLY = (
    "pytest",
    "nbval",
    "ruff",
    "translate-toolkit",
    "playwright",
    "pytest-playwright",
    "d2l",
    "pandas",
)

# run by make test-setup only (several minutes)
SETUP_ROUTE = pytest.mark.setup_route


def readme_blocks(readme="README.md", section=SECTION):
    """The marked bash blocks of the README's section: {name: commands}."""
    text = (ROOT / readme).read_text(encoding="utf-8")
    assert section in text, f"{readme} has no section {section!r}"
    part = text.split(section, 1)[1].split("\n## ", 1)[0]
    blocks = dict(MARK.findall(part))
    assert set(blocks) == {"route", "portuguese"}, (
        f"{readme}'s {section!r} marks the blocks {sorted(blocks)}, "
        "not 'route' and 'portuguese'"
    )
    return blocks


def test_portuguese_readme_gives_the_same_commands():
    assert (
        readme_blocks("README.pt-BR.md", "## Instalação sem make")
        == readme_blocks()
    )


def as_script(commands):
    """The commands as bash lines; a `jupyter lab` line notes its jupyter."""
    lines = ["set -e"]
    for line in commands.splitlines():
        if line.lstrip().startswith("jupyter lab"):
            line = 'echo "@@jupyter $(command -v jupyter)"'
        lines.append(line)
    return "\n".join(lines) + "\n"


def lab_args(commands):
    """The arguments of the block's `jupyter lab` line."""
    line = next(
        line
        for line in commands.splitlines()
        if line.lstrip().startswith("jupyter lab")
    )
    return shlex.split(line)[2:]


def ask_lab(jupyter, args, cwd, env):
    """Start `jupyter lab ARGS` on a free port; return (served, locale)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    token = secrets.token_hex(16)
    extra = [f"--port={port}", f"--ServerApp.token={token}", "--no-browser"]
    if os.geteuid() == 0:  # CI runs as root
        extra.append("--allow-root")
    server = subprocess.Popen(
        [jupyter, "lab", *args, *extra],
        cwd=cwd,
        env=env,
        text=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )

    def get(path):
        url = f"http://127.0.0.1:{port}{path}?token={token}"
        with urllib.request.urlopen(url, timeout=10) as answer:
            return json.load(answer)

    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, (
                "jupyter lab stopped: " + server.stderr.read()[-2000:]
            )
            try:
                files = get("/api/contents/")["content"]
                break
            except OSError:
                assert time.monotonic() < deadline, "no answer in 120 s"
                time.sleep(0.5)
        plugin = get(
            "/lab/api/settings/@jupyterlab/translation-extension:plugin"
        )
        return (
            sorted(f["name"] for f in files),
            plugin["settings"].get("locale", "default"),
        )
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)


def copy_project(target):
    """The project's files as a fresh clone would have them."""
    listed = subprocess.run(
        [
            "git",
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    for name in listed.stdout.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)


@pytest.fixture(scope="module")
def route(tmp_path_factory):
    """Run the README's route in a fresh copy: (project, env, answers)."""
    base = tmp_path_factory.mktemp("route")
    project = base / "attention-notebooks"
    copy_project(project)
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("VIRTUAL_ENV", "PYTHON", "JUPYTER"))
    }
    # the project's own .venv off the PATH; Jupyter's and IPython's
    # per-user folders fresh, as on a new machine
    env["PATH"] = os.pathsep.join(
        part
        for part in env["PATH"].split(os.pathsep)
        if Path(sys.executable).parent != Path(part)
    )
    for name in (
        "JUPYTER_CONFIG_DIR",
        "JUPYTER_DATA_DIR",
        "JUPYTER_RUNTIME_DIR",
        "IPYTHONDIR",
    ):
        env[name] = str(base / name.lower())
    blocks = readme_blocks()
    # the Portuguese line replaces the route's last one, in the same shell
    script = as_script(blocks["route"]) + as_script(blocks["portuguese"])
    done = subprocess.run(
        ["bash", "-c", script],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    print(script, done.stdout[-3000:], sep="\n")
    assert done.returncode == 0, (
        f"the README's commands failed:\n{done.stderr[-3000:]}"
    )
    jupyters = re.findall(r"^@@jupyter (.*)$", done.stdout, re.M)
    assert len(jupyters) == 2, "a `jupyter lab` line found no jupyter"
    answers = {
        name: ask_lab(jupyter, lab_args(blocks[name]), project, env)
        for name, jupyter in zip(("route", "portuguese"), jupyters)
    }
    for name, (served, locale) in answers.items():
        print(f"{name}: serves {served}, locale {locale}")
    return project, env, answers


@SETUP_ROUTE
def test_route_opens_the_english_notebooks(route):
    served, locale = route[2]["route"]
    assert set(NOTEBOOKS) <= set(served)
    assert "pt_BR" in served  # the notebook folder itself
    assert locale in ("default", "en")


@SETUP_ROUTE
def test_portuguese_command_opens_them_in_portuguese(route):
    served, locale = route[2]["portuguese"]
    assert set(NOTEBOOKS) <= set(served)
    assert "pt_BR" not in served
    assert locale == "pt_BR"


@SETUP_ROUTE
def test_route_installs_what_a_student_needs_only(route):
    project, env, _ = route
    python = project / ".venv" / "bin" / "python"
    assert python.exists(), "the route made no .venv in the project folder"
    listed = subprocess.run(
        [python, "-m", "pip", "list", "--format=freeze"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.lower()
    names = {
        re.sub(r"[-_.]+", "-", line.split("==")[0]) for line in listed.split()
    }
    assert "torch" in names and "d2l-attention" in names
    assert not names & set(DEV_ONLY), sorted(names & set(DEV_ONLY))


@SETUP_ROUTE
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs_in_the_route_environment(route, name, tmp_path):
    project, env, _ = route
    python = project / ".venv" / "bin" / "python"
    done = subprocess.run(
        [
            python,
            "-m",
            "tools.execute",
            "--output-dir",
            tmp_path,
            f"notebooks/{name}",
        ],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=2 * execute.CELL_TIMEOUT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
