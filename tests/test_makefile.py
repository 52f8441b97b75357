"""The Makefile as a new user meets it: offline, with a half-made .venv,
installing what each target needs and no more.

Each test runs `make` on a copy of the project's Makefile and two
notebooks in a temporary folder. Stand-in scripts play the interpreter and
pip, so nothing is installed; `jupyter trust` is the real one, with its
secret and database in the temporary folder. "Offline" is an HTTP(S) proxy
on a closed local port, so anything that tried the network would fail.
"""

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.sign import NotebookNotary

from tools.project import ROOT

REAL_PYTHON = sys.executable  # the project's .venv, where nbformat lives
REAL_JUPYTER = Path(sys.executable).parent / "jupyter"
NOTEBOOKS = ("01_masked_softmax.ipynb", "05_seq2seq.ipynb")

pytestmark = pytest.mark.skipif(
    shutil.which("make") is None or not REAL_JUPYTER.exists(),
    reason="needs make and the project's .venv",
)


def script(path, body):
    """Write an executable shell script."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def fake_venv_python(venv, log, pip_works=True):
    """A .venv/bin/python that logs pip calls and runs everything else."""
    pip = 'echo "pip $*" >> "%s"; exit 0' % log if pip_works else "exit 1"
    return script(
        venv / "bin" / "python",
        f"""\
if [ "$1" = -m ] && [ "$2" = pip ]; then shift 2; {pip}; fi
exec "{REAL_PYTHON}" "$@"
""",
    )


@pytest.fixture
def project(tmp_path):
    """A copy of the project's set-up files, with a working stand-in .venv."""
    proj = tmp_path / "project"
    for name in (
        "Makefile",
        "requirements.txt",
        "requirements-dev.txt",
        "pyproject.toml",
        "tools/__init__.py",
        "tools/project.py",
        "tools/student.py",
    ):
        (proj / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, proj / name)
    for name in NOTEBOOKS:
        (proj / "notebooks").mkdir(exist_ok=True)
        shutil.copy(ROOT / "notebooks" / name, proj / "notebooks" / name)
    (proj / "data").mkdir()
    (tmp_path / "jupyter-data").mkdir()
    log = tmp_path / "calls.log"
    fake_venv_python(proj / ".venv", log)
    script(
        proj / ".venv" / "bin" / "jupyter",
        f"""\
echo "jupyter $*" >> "{log}"
if [ "$1" = trust ]; then exec "{REAL_JUPYTER}" "$@"; fi
""",
    )
    for stamp in (".made", ".installed"):  # what make lab made
        (proj / ".venv" / stamp).touch()
    for name in (
        "requirements.txt",
        "requirements-dev.txt",
        "pyproject.toml",
    ):  # older than the stamp
        earlier = (proj / name).stat().st_mtime - 60
        os.utime(proj / name, (earlier, earlier))
    return proj


def make(proj, *args):
    """Run make offline in proj; return the completed process."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key.lower() not in ("no_proxy", "makeflags", "makelevel", "mflags")
    }
    closed = "http://127.0.0.1:9"  # discard port: nothing listens
    env.update(
        https_proxy=closed,
        HTTPS_PROXY=closed,
        http_proxy=closed,
        HTTP_PROXY=closed,
        JUPYTER_DATA_DIR=str(proj.parent / "jupyter-data"),
    )
    return subprocess.run(
        ["make", *args],
        cwd=proj,
        env=env,
        text=True,
        capture_output=True,
        timeout=300,
    )


def calls(proj):
    """The stand-in pip and jupyter calls logged so far."""
    log = proj.parent / "calls.log"
    return log.read_text().splitlines() if log.exists() else []


def trusted(proj, name):
    """Return True if jupyter trusts notebooks/name in this test's set-up."""
    notary = NotebookNotary(data_dir=str(proj.parent / "jupyter-data"))
    nb = nbformat.read(proj / "notebooks" / name, as_version=4)
    return notary.check_signature(nb)


def test_lab_opens_offline_quietly_with_trusted_notebooks(project):
    assert not any(trusted(project, name) for name in NOTEBOOKS)
    done = make(project, "lab")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no step that needs the network
    assert [line.split()[:2] for line in calls(project)] == [
        ["jupyter", "trust"],
        ["jupyter", "lab"],
    ]
    # trusted, so JupyterLab shows the saved explorer widgets
    assert all(trusted(project, name) for name in NOTEBOOKS)


def fake_python3(tmp_path, pip_works=True):
    """A python3 whose `-m venv DIR` makes a stand-in venv in DIR."""
    log = tmp_path / "calls.log"
    maker = script(tmp_path / "maker.py", "")
    maker.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from pathlib import Path\n"
        "from test_makefile import fake_venv_python\n"
        f"fake_venv_python(Path(sys.argv[1]), {str(log)!r}, {pip_works})\n"
    )
    return script(
        tmp_path / "bin" / "python3",
        f"""\
if [ "$1" = -m ] && [ "$2" = venv ]; then
    exec "{REAL_PYTHON}" "{maker}" "$3"
fi
exec "{REAL_PYTHON}" "$@"
""",
    )


HALF_MADE = {
    # python3-venv was missing: the interpreter is there, pip is not
    "no pip, no stamp": lambda venv: (
        fake_venv_python(venv, "/dev/null", pip_works=False),
        (venv / ".made").unlink(),
    ),
    # python -m venv cut short: no stamp
    "no stamp": lambda venv: (venv / ".made").unlink(),
    # the Python it was made from is gone
    "dangling interpreter": lambda venv: (
        (venv / "bin" / "python").unlink(),
        (venv / "bin" / "python").symlink_to(venv / "gone" / "python3"),
    ),
}


@pytest.mark.parametrize("kind", sorted(HALF_MADE))
def test_half_made_venv_is_rebuilt(project, tmp_path, kind):
    venv = project / ".venv"
    HALF_MADE[kind](venv)
    (venv / "left-over").touch()
    python3 = fake_python3(tmp_path)
    done = make(project, "setup", f"PYTHON={python3}")
    assert done.returncode == 0, done.stderr
    assert "creating a fresh .venv" in done.stdout
    assert not (venv / "left-over").exists()
    assert (venv / ".installed").exists()
    assert pip_installs(project) == ["--upgrade pip", "-r requirements.txt"]
    again = make(project, "setup", f"PYTHON={python3}")
    assert again.returncode == 0 and "creating" not in again.stdout


def pip_installs(proj):
    """What the stand-in pip was asked to install, in order."""
    return [
        line.split("--quiet ", 1)[1]
        for line in calls(proj)
        if line.startswith("pip install")
    ]


def pinned(proj, *names):
    """requirements.txt's lines that pin the packages named."""
    lines = (proj / "requirements.txt").read_text().splitlines()
    return [
        line
        for line in lines
        if line.startswith(tuple(f"{name}==" for name in names))
    ]


def test_an_install_cut_short_installs_again_in_the_same_venv(project):
    (project / ".venv" / ".installed").unlink()
    (project / ".venv" / "left-over").touch()
    done = make(project, "setup")
    assert done.returncode == 0, done.stderr
    assert "creating" not in done.stdout
    assert (project / ".venv" / "left-over").exists()
    assert pip_installs(project) == ["-r requirements.txt"]


def test_setup_dev_adds_the_tools_and_the_reference(project):
    done = make(project, "setup-dev")
    assert done.returncode == 0, done.stderr
    assert pip_installs(project) == [
        "-r requirements-dev.txt",
        "--no-deps d2l==0.17.6",
    ]
    lines = (project / "requirements-dev.txt").read_text().splitlines()
    assert "-r requirements.txt" in lines  # the student's set, and more


def test_student_installs_nbformat_and_nbconvert_only(project, tmp_path):
    shutil.rmtree(project / ".venv")
    python3 = fake_python3(tmp_path)
    done = make(project, "student", f"PYTHON={python3}")
    assert done.returncode == 0, done.stderr
    pins = pinned(project, "nbformat", "nbconvert")
    assert len(pins) == 2
    assert pip_installs(project) == ["--upgrade pip", " ".join(pins)]
    assert (project / "build" / "student" / NOTEBOOKS[0]).exists()


def test_handout_writes_one_edition_with_nbformat_and_nbconvert(
    project, tmp_path
):
    for name in (
        "tools/handout.py",
        "LICENSE",
        "data/README.md",
        "data/fra-eng-first-5000.txt",
    ):
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, project / name)
    for name in ("tools/handout_files", "d2l_attention"):
        shutil.copytree(
            ROOT / name,
            project / name,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    shutil.rmtree(project / ".venv")
    python3 = fake_python3(tmp_path)
    done = make(project, "handout", "EDITION=en", f"PYTHON={python3}")
    assert done.returncode == 0, done.stderr
    pins = pinned(project, "nbformat", "nbconvert")
    assert pip_installs(project) == ["--upgrade pip", " ".join(pins)]
    handout = project / "build" / "handout"
    assert sorted(p.name for p in handout.iterdir()) == [
        "attention-notebooks",
        "attention-notebooks.zip",
    ]
    assert sorted(
        p.name
        for p in (handout / "attention-notebooks" / "notebooks").iterdir()
    ) == list(NOTEBOOKS)


def test_torch_index_installs_the_pinned_torch_from_it_first(project):
    (project / ".venv" / ".installed").unlink()
    index = "https://download.pytorch.org/whl/cpu"
    done = make(project, "setup", f"TORCH_INDEX={index}")
    assert done.returncode == 0, done.stderr
    [pin] = pinned(project, "torch")
    assert pip_installs(project) == [
        f"{pin} --index-url {index}",
        "-r requirements.txt",
    ]


def test_venv_without_pip_says_what_to_install(project, tmp_path):
    (project / ".venv" / ".made").unlink()
    python3 = fake_python3(tmp_path, pip_works=False)
    done = make(project, "lab", f"PYTHON={python3}")
    assert done.returncode != 0
    assert "made no working pip" in done.stderr
    assert "sudo apt install python3-venv" in done.stderr
    assert not (project / ".venv").exists()  # the next make starts afresh
    assert not any(line.startswith("jupyter") for line in calls(project))


def test_a_python_outside_the_pins_range_is_named(project, tmp_path):
    (project / ".venv" / ".made").unlink()
    python315 = script(
        tmp_path / "bin" / "python3.15",
        f"""\
if [ "$1" = -c ]; then
    exec "{REAL_PYTHON}" -c "import sys; sys.version_info = (3, 15, 0); $2"
fi
exec "{REAL_PYTHON}" "$@"
""",
    )
    done = make(project, "lab", f"PYTHON={python315}")
    assert done.returncode != 0
    assert "needs Python 3.11 to 3.14" in done.stderr
    assert calls(project) == []  # nothing made, nothing installed
