"""data/: the excerpt notebooks 05-07 read, its check, git's line endings."""

import shutil
import subprocess

import pytest

from d2l_attention import find_data_file, read_data_nmt
from tools.project import ROOT

EXCERPT = ROOT / "data" / "fra-eng-first-5000.txt"
RESTORE = "git checkout -- data/fra-eng-first-5000.txt"


def test_the_excerpt_ships_whole(monkeypatch):
    monkeypatch.chdir(ROOT / "notebooks")  # where a notebook runs
    assert find_data_file() == EXCERPT
    text = read_data_nmt()
    lines = text.split("\n")
    assert lines[-1] == "" and len(lines) - 1 == 5000  # 5,000 pairs
    assert all(line.count("\t") == 1 for line in lines[:-1])
    assert lines[0] == "Go.\tVa !" and "\r" not in text
    assert EXCERPT.stat().st_size < 1_000_000


def project_with(tmp_path, data):
    """Make tmp_path a project whose excerpt holds data; return notebooks/."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / EXCERPT.name).write_bytes(data)
    (tmp_path / "notebooks").mkdir()
    return tmp_path / "notebooks"


def test_the_excerpt_is_found_in_the_data_folder_above(tmp_path, monkeypatch):
    monkeypatch.chdir(project_with(tmp_path, EXCERPT.read_bytes()))
    assert find_data_file() == tmp_path.resolve() / "data" / EXCERPT.name
    assert read_data_nmt() == EXCERPT.read_text(encoding="utf-8")


def test_a_missing_excerpt_says_how_to_restore_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError) as error:
        read_data_nmt()
    assert str(tmp_path.resolve()) in str(error.value)
    assert RESTORE in str(error.value)


SPOILED = {
    "CRLF line endings": (
        lambda data: data.replace(b"\n", b"\r\n"),
        "has Windows line endings (CRLF)",
    ),
    "one word edited": (
        lambda data: data.replace(b"Va !", b"Vas !", 1),
        "was edited or damaged",
    ),
    "a pair added": (
        lambda data: data + b"Hi.\tSalut !\n",
        "was edited or damaged",
    ),
    "cut short": (
        lambda data: data[: len(data) // 2],
        "was edited or damaged",
    ),
    "not UTF-8": (lambda data: b"\xff" + data[1:], "was edited or damaged"),
    "empty": (lambda data: b"", "is empty"),
}


@pytest.mark.parametrize("kind", SPOILED)
def test_a_spoiled_excerpt_is_refused_in_one_line(tmp_path, monkeypatch, kind):
    spoil, problem = SPOILED[kind]
    monkeypatch.chdir(project_with(tmp_path, spoil(EXCERPT.read_bytes())))
    with pytest.raises(ValueError) as error:
        read_data_nmt()
    message = str(error.value)
    assert "\n" not in message
    assert f"{EXCERPT.name} {problem}:" in message and RESTORE in message


def test_the_data_messages_follow_the_language(
    tmp_path, monkeypatch, portuguese
):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError, match="não estão em") as missing:
        read_data_nmt()
    assert RESTORE in str(missing.value)
    monkeypatch.chdir(project_with(tmp_path, b""))
    with pytest.raises(ValueError, match="está vazio: não é o trecho"):
        read_data_nmt()


def checked_out(repo, attributes):
    """Commit the excerpt in a new repo, check it out as git for Windows
    does (core.autocrlf=true) and return the bytes it writes."""
    git = [
        "git",
        "-C",
        str(repo),
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "-c",
        "core.autocrlf=false",
    ]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "data").mkdir()
    shutil.copy(EXCERPT, repo / "data" / EXCERPT.name)
    if attributes is not None:
        (repo / ".gitattributes").write_text(attributes)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "excerpt"], check=True)
    (repo / "data" / EXCERPT.name).unlink()
    subprocess.run(
        [
            "git",
            "-C",
            str(repo),
            "-c",
            "core.autocrlf=true",
            "checkout",
            "--",
            f"data/{EXCERPT.name}",
        ],
        check=True,
    )
    return (repo / "data" / EXCERPT.name).read_bytes()


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_keeps_the_excerpt_bytes_under_windows_settings(tmp_path):
    rule = (ROOT / ".gitattributes").read_text()
    assert checked_out(tmp_path / "ours", rule) == EXCERPT.read_bytes()
    # without the rule, the same checkout writes CRLF
    assert b"\r\n" in checked_out(tmp_path / "bare", None)
