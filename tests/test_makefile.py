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
# what the set-up targets install from: older than .venv's stamps in a test
INPUTS = ("requirements.txt", "requirements-dev.txt", "pyproject.toml")

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


def fake_python(path, when, then):
    """A python that runs the shell command `then` if the shell test `when`
    holds, and the real interpreter otherwise."""
    body = f'if {when}; then {then}; fi\nexec "{REAL_PYTHON}" "$@"\n'
    return script(path, body)


def fake_venv_python(venv, log, pip_works=True):
    """A .venv/bin/python that logs pip calls and runs everything else."""
    pip = f'echo "pip $*" >> "{log}"; exit 0' if pip_works else "exit 1"
    pip_call = '[ "$1" = -m ] && [ "$2" = pip ]'
    return fake_python(venv / "bin" / "python", pip_call, f"shift 2; {pip}")


def fake_python3(tmp_path, pip_works=True):
    """A python3 whose `-m venv DIR` makes a stand-in venv in DIR."""
    log = tmp_path / "calls.log"
    made = fake_venv_python(tmp_path / "template", log, pip_works)
    return fake_python(
        tmp_path / "bin" / "python3",
        '[ "$1" = -m ] && [ "$2" = venv ]',
        f'mkdir -p "$3/bin"; exec cp "{made}" "$3/bin/python"',
    )


def copy(proj, *names):
    """Copy the project's files and folders named into proj."""
    for name in names:
        (proj / name).parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / name).is_dir():
            ignore = shutil.ignore_patterns("__pycache__")
            shutil.copytree(ROOT / name, proj / name, ignore=ignore)
        else:
            shutil.copy(ROOT / name, proj / name)


@pytest.fixture
def project(tmp_path):
    """A copy of the project's set-up files, with a working stand-in .venv."""
    proj = tmp_path / "project"
    copy(proj, "Makefile", *INPUTS, *[f"notebooks/{n}" for n in NOTEBOOKS])
    copy(proj, "tools/__init__.py", "tools/project.py", "tools/student.py")
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
    for name in INPUTS:
        earlier = (proj / name).stat().st_mtime - 60
        os.utime(proj / name, (earlier, earlier))
    return proj


def make(proj, *args, fails=False):
    """Run make offline in proj, check that it succeeded (failed, with
    fails); return the completed process."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key.lower() not in ("no_proxy", "makeflags", "makelevel", "mflags")
    }
    closed = "http://127.0.0.1:9"  # discard port: nothing listens
    for key in ("https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"):
        env[key] = closed
    env["JUPYTER_DATA_DIR"] = str(proj.parent / "jupyter-data")
    done = subprocess.run(
        ["make", *args],
        cwd=proj,
        env=env,
        text=True,
        capture_output=True,
        timeout=300,
    )
    assert (done.returncode != 0) == fails, done.stderr
    return done


def calls(proj):
    """The stand-in pip and jupyter calls logged so far."""
    log = proj.parent / "calls.log"
    return log.read_text().splitlines() if log.exists() else []


def pip_installs(proj):
    """What the stand-in pip was asked to install, in order."""
    return [
        line.split("--quiet ", 1)[1]
        for line in calls(proj)
        if line.startswith("pip install")
    ]


def pinned(proj, *names):
    """requirements.txt's lines that pin the packages named."""
    prefixes = tuple(f"{name}==" for name in names)
    lines = (proj / "requirements.txt").read_text().splitlines()
    return [line for line in lines if line.startswith(prefixes)]


def trusted(proj, name):
    """Return True if jupyter trusts notebooks/name in this test's set-up."""
    notary = NotebookNotary(data_dir=str(proj.parent / "jupyter-data"))
    nb = nbformat.read(proj / "notebooks" / name, as_version=4)
    return notary.check_signature(nb)


def test_lab_opens_offline_quietly_with_trusted_notebooks(project):
    assert not any(trusted(project, name) for name in NOTEBOOKS)
    done = make(project, "lab")
    assert done.stderr == ""  # no step that needs the network
    assert [line.split()[:2] for line in calls(project)] == [
        ["jupyter", "trust"],
        ["jupyter", "lab"],
    ]
    # trusted, so JupyterLab shows the saved explorer widgets
    assert all(trusted(project, name) for name in NOTEBOOKS)


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
    python3 = f"PYTHON={fake_python3(tmp_path)}"
    assert "creating a fresh .venv" in make(project, "setup", python3).stdout
    assert not (venv / "left-over").exists()
    assert (venv / ".installed").exists()
    assert pip_installs(project) == ["--upgrade pip", "-r requirements.txt"]
    assert "creating" not in make(project, "setup", python3).stdout


def test_an_install_cut_short_installs_again_in_the_same_venv(project):
    (project / ".venv" / ".installed").unlink()
    (project / ".venv" / "left-over").touch()
    assert "creating" not in make(project, "setup").stdout
    assert (project / ".venv" / "left-over").exists()
    assert pip_installs(project) == ["-r requirements.txt"]


def test_setup_dev_adds_the_tools_and_the_reference(project):
    make(project, "setup-dev")
    assert pip_installs(project) == [
        "-r requirements-dev.txt",
        "--no-deps d2l==0.17.6",
    ]
    lines = (project / "requirements-dev.txt").read_text().splitlines()
    assert "-r requirements.txt" in lines  # the student's set, and more


def make_with_nbtools_only(proj, tmp_path, *args):
    """Run make with no .venv; check that it installed the pinned nbformat
    and nbconvert, and nothing else."""
    shutil.rmtree(proj / ".venv")
    make(proj, *args, f"PYTHON={fake_python3(tmp_path)}")
    pins = pinned(proj, "nbformat", "nbconvert")
    assert len(pins) == 2
    assert pip_installs(proj) == ["--upgrade pip", " ".join(pins)]


def test_student_installs_nbformat_and_nbconvert_only(project, tmp_path):
    make_with_nbtools_only(project, tmp_path, "student")
    assert (project / "build" / "student" / NOTEBOOKS[0]).exists()


def test_handout_writes_one_edition_with_nbformat_and_nbconvert(
    project, tmp_path
):
    copy(project, "tools/handout.py", "tools/handout_files", "d2l_attention")
    copy(project, "LICENSE", "data/README.md", "data/fra-eng-first-5000.txt")
    copy(project, "locale/pt_BR/d2l_attention.po")
    make_with_nbtools_only(project, tmp_path, "handout", "EDITION=en")
    handout = project / "build" / "handout"
    assert sorted(p.name for p in handout.iterdir()) == [
        "attention-notebooks",
        "attention-notebooks.zip",
    ]
    notebooks = handout / "attention-notebooks" / "notebooks"
    assert sorted(p.name for p in notebooks.iterdir()) == list(NOTEBOOKS)


def test_torch_index_installs_the_pinned_torch_from_it_first(project):
    (project / ".venv" / ".installed").unlink()
    index = "https://download.pytorch.org/whl/cpu"
    make(project, "setup", f"TORCH_INDEX={index}")
    [pin] = pinned(project, "torch")
    assert pip_installs(project) == [
        f"{pin} --index-url {index}",
        "-r requirements.txt",
    ]


def test_venv_without_pip_says_what_to_install(project, tmp_path):
    (project / ".venv" / ".made").unlink()
    python3 = fake_python3(tmp_path, pip_works=False)
    done = make(project, "lab", f"PYTHON={python3}", fails=True)
    assert "made no working pip" in done.stderr
    assert "sudo apt install python3-venv" in done.stderr
    assert not (project / ".venv").exists()  # the next make starts afresh
    assert not any(line.startswith("jupyter") for line in calls(project))


def test_a_python_outside_the_pins_range_is_named(project, tmp_path):
    (project / ".venv" / ".made").unlink()
    python315 = fake_python(
        tmp_path / "bin" / "python3.15",
        '[ "$1" = -c ]',
        f'exec "{REAL_PYTHON}" -c '
        '"import sys; sys.version_info = (3, 15, 0); $2"',
    )
    done = make(project, "lab", f"PYTHON={python315}", fails=True)
    assert "needs Python 3.11 to 3.14" in done.stderr
    assert calls(project) == []  # nothing made, nothing installed
