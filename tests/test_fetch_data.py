"""tools/fetch_data.py: local copy, checked download, safe extraction."""

import hashlib
import importlib.util
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEXT = "Go.\tVa !\nI lost.\tJ'ai perdu.\n"


def load_fetch_data():
    """Import tools/fetch_data.py as a module."""
    spec = importlib.util.spec_from_file_location(
        "fetch_data", ROOT / "tools" / "fetch_data.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fetch_data = load_fetch_data()


def make_zip(path, members):
    """Write a zip archive holding {name: text}; return its path."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return path


def test_local_archive_is_copied_and_extracted(tmp_path):
    source = make_zip(tmp_path / "src.zip", {"fra-eng/fra.txt": TEXT})
    data = tmp_path / "data"
    path = fetch_data.fetch(data_dir=data, local=source)
    assert path == data / "fra-eng" / "fra.txt"
    assert path.read_text() == TEXT
    assert (data / "fra-eng.zip").read_bytes() == source.read_bytes()
    # a second run leaves the files alone
    before = path.stat().st_mtime_ns
    fetch_data.fetch(data_dir=data, local=source)
    assert path.stat().st_mtime_ns == before
    assert not list(data.glob(".part-*"))


def test_local_archive_without_corpus_is_refused(tmp_path):
    source = make_zip(tmp_path / "src.zip", {"other.txt": "x"})
    with pytest.raises(fetch_data.DataError, match="fra-eng/fra.txt"):
        fetch_data.fetch(data_dir=tmp_path / "data", local=source)
    assert not (tmp_path / "data" / "fra-eng.zip").exists()


def test_local_file_that_is_not_a_zip_is_refused(tmp_path):
    source = tmp_path / "src.zip"
    source.write_text("not a zip")
    with pytest.raises(fetch_data.DataError, match="not a readable zip"):
        fetch_data.fetch(data_dir=tmp_path / "data", local=source)


def test_missing_local_archive_is_refused(tmp_path):
    with pytest.raises(fetch_data.DataError, match="is not a file"):
        fetch_data.fetch(data_dir=tmp_path, local=tmp_path / "absent.zip")


@pytest.mark.parametrize(
    "name",
    [
        "../evil.txt",
        "fra-eng/../../evil.txt",
        "/tmp/evil-absolute.txt",
        "fra-eng.zip",
    ],
)
def test_members_outside_data_are_refused(tmp_path, name):
    source = make_zip(
        tmp_path / "src.zip", {"fra-eng/fra.txt": TEXT, name: "pwned"}
    )
    data = tmp_path / "data"
    with pytest.raises(fetch_data.DataError, match="refusing"):
        fetch_data.fetch(data_dir=data, local=source)
    assert not (tmp_path / "evil.txt").exists()
    assert not (data / "fra-eng" / "fra.txt").exists()  # nothing extracted


def serve(monkeypatch, payload):
    """Make urllib.request.urlopen return payload."""

    class Response:
        def __init__(self):
            self.chunks = [payload, b""]

        def read(self, size=-1):
            return self.chunks.pop(0)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(
        fetch_data.urllib.request, "urlopen", lambda *a, **k: Response()
    )


def test_download_with_right_checksum_is_kept(tmp_path, monkeypatch):
    payload = make_zip(
        tmp_path / "x.zip", {"fra-eng/fra.txt": TEXT}
    ).read_bytes()
    serve(monkeypatch, payload)
    sha1 = hashlib.sha1(payload).hexdigest()
    data = tmp_path / "data"
    path = fetch_data.fetch(data_dir=data, url="https://x/y.zip", sha1=sha1)
    assert path.read_text() == TEXT


def test_download_with_wrong_checksum_leaves_nothing(tmp_path, monkeypatch):
    payload = make_zip(
        tmp_path / "x.zip", {"fra-eng/fra.txt": TEXT}
    ).read_bytes()
    serve(monkeypatch, payload)
    data = tmp_path / "data"
    with pytest.raises(fetch_data.DataError, match="sha1"):
        fetch_data.fetch(data_dir=data, url="https://x/y.zip", sha1="0" * 40)
    assert list(data.iterdir()) == []  # no archive, no partial file


def test_failed_download_says_how_to_get_the_archive(tmp_path, monkeypatch):
    def fail(*args, **kwargs):
        raise OSError("no network")

    monkeypatch.setattr(fetch_data.urllib.request, "urlopen", fail)
    data = tmp_path / "data"
    with pytest.raises(fetch_data.DataError, match="FRA_ENG_ZIP="):
        fetch_data.fetch(data_dir=data, url="https://x/y.zip")
    assert list(data.iterdir()) == []


def test_plain_http_is_refused(tmp_path):
    with pytest.raises(fetch_data.DataError, match="HTTP"):
        fetch_data.fetch(data_dir=tmp_path, url="http://x/y.zip")


def test_main_prints_one_message_and_fails(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(fetch_data, "DATA_DIR", tmp_path)
    monkeypatch.setenv("FRA_ENG_ZIP", str(tmp_path / "absent.zip"))
    fetch = fetch_data.fetch
    monkeypatch.setattr(
        fetch_data, "fetch", lambda local: fetch(tmp_path, local=local)
    )
    assert fetch_data.main() == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "absent.zip" in err
