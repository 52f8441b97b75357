"""tools/fetch_data.py: local copy, checked download, safe extraction."""

import hashlib
import http.client
import importlib.util
import io
import stat
import struct
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


def files_outside(root, data):
    """Map every file under root but not under data to its bytes."""
    return {
        path: path.read_bytes()
        for path in root.rglob("*")
        if path.is_file() and not path.is_relative_to(data)
    }


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
    source = make_zip(tmp_path / "src.zip", {"fra-eng/other.txt": "x"})
    with pytest.raises(fetch_data.DataError, match="fra-eng/fra.txt"):
        fetch_data.fetch(data_dir=tmp_path / "data", local=source)
    assert not (tmp_path / "data" / "fra-eng.zip").exists()


NOT_ZIPS = {
    "text": (b"not a zip", "not a readable zip archive"),
    "empty file": (b"", "is empty, not a zip archive"),
    "HTML error page": (
        b"\n<!DOCTYPE html>\n<html><head><title>403 Forbidden</title>"
        b"</head><body>Access denied by proxy</body></html>\n",
        "is a web page, not a zip archive"),
}


@pytest.mark.parametrize("kind", sorted(NOT_ZIPS))
def test_local_file_that_is_not_a_zip_is_refused(tmp_path, kind,
                                                 monkeypatch, capsys):
    content, message = NOT_ZIPS[kind]
    source = tmp_path / "src.zip"
    source.write_bytes(content)
    data = tmp_path / "data"
    before = files_outside(tmp_path, data)
    with pytest.raises(fetch_data.DataError, match=message):
        fetch_data.fetch(data_dir=data, local=source)
    monkeypatch.setattr(fetch_data, "DATA_DIR", data)
    monkeypatch.setenv("FRA_ENG_ZIP", str(source))
    assert fetch_data.main() == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert str(source) in err and message in err
    assert "FRA_ENG_ZIP=/path/to/fra-eng.zip make data" in err
    assert files_outside(tmp_path, data) == before
    assert not data.exists() or list(data.iterdir()) == []


def test_missing_local_archive_is_refused(tmp_path):
    with pytest.raises(fetch_data.DataError, match="is not a file"):
        fetch_data.fetch(data_dir=tmp_path, local=tmp_path / "absent.zip")


@pytest.mark.parametrize(
    "name",
    [
        "../evil.txt",
        "fra-eng/../../evil.txt",
        "fra-eng/../README.md",
        "/tmp/evil-absolute.txt",
        "fra-eng.zip",
        "README.md",
        "fra-eng\\..\\evil.txt",
        "C:/evil.txt",
    ],
)
def test_members_outside_fra_eng_are_refused(tmp_path, name):
    source = make_zip(
        tmp_path / "src.zip", {"fra-eng/fra.txt": TEXT, name: "pwned"}
    )
    data = tmp_path / "data"
    data.mkdir()
    (data / "README.md").write_text("the project's data README")
    before = files_outside(tmp_path, data)
    with pytest.raises(fetch_data.DataError, match="refusing archive member"):
        fetch_data.fetch(data_dir=data, local=source)
    assert files_outside(tmp_path, data) == before
    assert not Path("/tmp/evil-absolute.txt").exists()
    # nothing extracted, not even copied; the README left alone
    assert sorted(p.name for p in data.iterdir()) == ["README.md"]
    assert (data / "README.md").read_text() == "the project's data README"


def symlink_zip(path, name, target):
    """Write an archive holding the corpus and a symbolic link name."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("fra-eng/fra.txt", TEXT)
        link = zipfile.ZipInfo(name)
        link.create_system = 3  # Unix, so external_attr holds the mode
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, target)
    return path


@pytest.mark.parametrize("target", ["../../README.md", "/etc/passwd"])
def test_symlink_member_is_refused(tmp_path, target, capsys, monkeypatch):
    source = symlink_zip(tmp_path / "src.zip", "fra-eng/link", target)
    data = tmp_path / "data"
    before = files_outside(tmp_path, data)
    with pytest.raises(fetch_data.DataError, match="symbolic link"):
        fetch_data.fetch(data_dir=data, local=source)
    assert files_outside(tmp_path, data) == before
    assert not data.exists() or list(data.iterdir()) == []
    monkeypatch.setattr(fetch_data, "DATA_DIR", data)
    monkeypatch.setenv("FRA_ENG_ZIP", str(source))
    assert fetch_data.main() == 1
    err = capsys.readouterr().err
    assert "refusing archive member 'fra-eng/link'" in err


def test_extract_refuses_a_bad_member_of_an_archive_in_place(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    make_zip(data / "fra-eng.zip", {"fra-eng/fra.txt": TEXT, "x/y": "z"})
    with pytest.raises(fetch_data.DataError, match="outside fra-eng/"):
        fetch_data.extract(data / "fra-eng.zip", data)
    assert sorted(p.name for p in data.iterdir()) == ["fra-eng.zip"]


def data_offset(raw, name):
    """Return where the compressed data of member name starts in raw."""
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        start = archive.getinfo(name).header_offset
    name_len, extra_len = struct.unpack("<HH", raw[start + 26:start + 30])
    return start + 30 + name_len + extra_len


def corrupt_deflate(raw):
    """Make the deflate stream invalid: block type 3 is reserved."""
    at = data_offset(raw, "fra-eng/fra.txt")
    return raw[:at] + b"\xff" + raw[at + 1:]


def flip_stored_byte(raw):
    """Change one stored byte, so the member fails its CRC check."""
    at = data_offset(raw, "fra-eng/fra.txt") + 3
    return raw[:at] + bytes([raw[at] ^ 0x01]) + raw[at + 1:]


def unknown_method(raw):
    """Record compression method 99 in the local and central headers."""
    raw = bytearray(raw)
    for signature, field in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
        at = raw.index(signature) + field
        raw[at:at + 2] = struct.pack("<H", 99)
    return bytes(raw)


def truncate(raw):
    """Keep the first half of the archive."""
    return raw[: len(raw) // 2]


DAMAGE = {
    "bad zlib stream": (corrupt_deflate, zipfile.ZIP_DEFLATED,
                        "compressed data of fra-eng/fra.txt is corrupt"),
    "CRC mismatch": (flip_stored_byte, zipfile.ZIP_STORED,
                     "fra-eng/fra.txt fails its CRC check"),
    "unknown method": (unknown_method, zipfile.ZIP_DEFLATED,
                       "compression method 99"),
    "truncated": (truncate, zipfile.ZIP_DEFLATED, "truncated or not a zip"),
}


def damaged_zip(path, kind):
    """Write an archive holding the corpus, damaged as DAMAGE[kind] says."""
    spoil, method, _ = DAMAGE[kind]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=method) as archive:
        archive.writestr("fra-eng/fra.txt", TEXT * 50)
    path.write_bytes(spoil(buffer.getvalue()))
    return path


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_damaged_local_archive_gives_one_message(tmp_path, kind, monkeypatch,
                                                 capsys):
    source = damaged_zip(tmp_path / "src.zip", kind)
    data = tmp_path / "data"
    before = files_outside(tmp_path, data)
    with pytest.raises(fetch_data.DataError, match=DAMAGE[kind][2]):
        fetch_data.fetch(data_dir=data, local=source)
    assert not data.exists() or list(data.iterdir()) == []
    assert files_outside(tmp_path, data) == before
    monkeypatch.setattr(fetch_data, "DATA_DIR", data)
    monkeypatch.setenv("FRA_ENG_ZIP", str(source))
    assert fetch_data.main() == 1
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.strip().splitlines()) == 1
    assert "Traceback" not in out.err and DAMAGE[kind][2] in out.err
    assert "src.zip" in out.err and "make data" in out.err


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_damaged_archive_in_data_is_downloaded_again(tmp_path, kind,
                                                     monkeypatch, capsys):
    data = tmp_path / "data"
    data.mkdir()
    damaged_zip(data / "fra-eng.zip", kind)
    payload = make_zip(tmp_path / "x.zip", {"fra-eng/fra.txt": TEXT})
    serve(monkeypatch, payload.read_bytes())
    sha1 = hashlib.sha1(payload.read_bytes()).hexdigest()
    before = files_outside(tmp_path, data)
    path = fetch_data.fetch(data_dir=data, url="https://x/y.zip", sha1=sha1)
    assert path.read_text() == TEXT
    assert (data / "fra-eng.zip").read_bytes() == payload.read_bytes()
    err = capsys.readouterr().err
    assert "replaced a damaged archive" in err and DAMAGE[kind][2] in err
    assert files_outside(tmp_path, data) == before
    assert sorted(p.name for p in data.iterdir()) == [
        "fra-eng", "fra-eng.zip"]


def test_damaged_archive_in_data_is_replaced_by_local_copy(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    damaged_zip(data / "fra-eng.zip", "CRC mismatch")
    source = make_zip(tmp_path / "src.zip", {"fra-eng/fra.txt": TEXT})
    path = fetch_data.fetch(data_dir=data, local=source)
    assert path.read_text() == TEXT
    assert (data / "fra-eng.zip").read_bytes() == source.read_bytes()


def test_damaged_archive_offline_says_both_problems(tmp_path, monkeypatch,
                                                    capsys):
    data = tmp_path / "data"
    data.mkdir()
    damaged_zip(data / "fra-eng.zip", "bad zlib stream")

    def fail(*args, **kwargs):
        raise OSError("no network")

    monkeypatch.setattr(fetch_data.urllib.request, "urlopen", fail)
    monkeypatch.setattr(fetch_data, "DATA_DIR", data)
    monkeypatch.delenv("FRA_ENG_ZIP", raising=False)
    assert fetch_data.main() == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "is damaged" in err and "could not be replaced" in err
    assert "no network" in err and "FRA_ENG_ZIP=" in err
    assert not (data / "fra-eng").exists()


def test_failed_extraction_leaves_the_old_folder_whole(tmp_path,
                                                       monkeypatch):
    data = tmp_path / "data"
    old = make_zip(tmp_path / "old.zip", {"fra-eng/fra.txt": TEXT})
    fetch_data.fetch(data_dir=data, local=old)
    new = make_zip(data / "fra-eng.zip", {
        "fra-eng/fra.txt": TEXT * 2, "fra-eng/z.txt": "later member"})

    def copy_half(source, out):
        out.write(source.read(5))
        raise OSError("disk full")

    monkeypatch.setattr(fetch_data.shutil, "copyfileobj", copy_half)
    with pytest.raises(OSError, match="disk full"):
        fetch_data.extract(new, data)
    assert (data / "fra-eng" / "fra.txt").read_text() == TEXT
    assert sorted(p.name for p in data.iterdir()) == [
        "fra-eng", "fra-eng.zip"]  # no temporary folder left


def test_new_archive_replaces_the_whole_folder(tmp_path):
    data = tmp_path / "data"
    old = make_zip(tmp_path / "old.zip", {
        "fra-eng/fra.txt": TEXT, "fra-eng/stale.txt": "x"})
    fetch_data.fetch(data_dir=data, local=old)
    new = make_zip(tmp_path / "new.zip", {"fra-eng/fra.txt": TEXT * 2})
    path = fetch_data.fetch(data_dir=data, local=new)
    assert path.read_text() == TEXT * 2
    assert sorted(p.name for p in (data / "fra-eng").iterdir()) == [
        "fra.txt"]
    assert sorted(p.name for p in data.iterdir()) == [
        "fra-eng", "fra-eng.zip"]


def serve(monkeypatch, payload, fail=None):
    """Make urllib.request.urlopen return payload in two halves, raising
    fail (an exception) instead of the second half when it is given."""

    class Response:
        def __init__(self):
            half = len(payload) // 2
            self.chunks = [payload[:half], fail or payload[half:], b""]

        def read(self, size=-1):
            chunk = self.chunks.pop(0)
            if isinstance(chunk, BaseException):
                raise chunk
            return chunk

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


@pytest.mark.parametrize("error", [
    ConnectionResetError("connection reset by peer"),
    http.client.IncompleteRead(b"", 1000),
    KeyboardInterrupt(),
], ids=["reset", "incomplete", "ctrl-c"])
def test_download_cut_half_way_leaves_nothing(tmp_path, monkeypatch, capsys,
                                              error):
    payload = make_zip(tmp_path / "x.zip", {"fra-eng/fra.txt": TEXT * 99})
    serve(monkeypatch, payload.read_bytes(), fail=error)
    data = tmp_path / "data"
    before = files_outside(tmp_path, data)
    with pytest.raises(type(error)
                       if isinstance(error, KeyboardInterrupt)
                       else fetch_data.DataError):
        fetch_data.fetch(data_dir=data, url="https://x/y.zip")
    assert list(data.iterdir()) == []  # no archive, no partial file
    monkeypatch.setattr(fetch_data, "DATA_DIR", data)
    monkeypatch.setattr(fetch_data, "URL", "https://x/y.zip")
    monkeypatch.delenv("FRA_ENG_ZIP", raising=False)
    assert fetch_data.main() in (1, 130)
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "nothing was kept" in err or "no half-written file" in err
    assert list(data.iterdir()) == []
    assert files_outside(tmp_path, data) == before


def test_download_of_a_web_page_is_named(tmp_path, monkeypatch):
    serve(monkeypatch, b"<!DOCTYPE html><html>Proxy login</html>")
    data = tmp_path / "data"
    with pytest.raises(fetch_data.DataError, match="gave a web page"):
        fetch_data.fetch(data_dir=data, url="https://x/y.zip")
    assert list(data.iterdir()) == []


def test_failed_download_says_how_to_get_the_archive(tmp_path, monkeypatch):
    def fail(*args, **kwargs):
        raise OSError("no network")

    monkeypatch.setattr(fetch_data.urllib.request, "urlopen", fail)
    data = tmp_path / "data"
    with pytest.raises(fetch_data.DataError, match="could not download"):
        fetch_data.fetch(data_dir=data, url="https://x/y.zip")
    assert list(data.iterdir()) == []


def test_plain_http_is_refused(tmp_path):
    with pytest.raises(fetch_data.DataError, match="HTTP"):
        fetch_data.fetch(data_dir=tmp_path, url="http://x/y.zip")


def test_main_prints_one_message_and_fails(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(fetch_data, "DATA_DIR", tmp_path)
    monkeypatch.setenv("FRA_ENG_ZIP", str(tmp_path / "absent.zip"))
    assert fetch_data.main() == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "absent.zip" in err
    assert "FRA_ENG_ZIP=/path/to/fra-eng.zip make data" in err


def test_main_reports_ready(tmp_path, monkeypatch, capsys):
    source = make_zip(tmp_path / "src.zip", {"fra-eng/fra.txt": TEXT})
    monkeypatch.setattr(fetch_data, "DATA_DIR", tmp_path / "data")
    monkeypatch.setenv("FRA_ENG_ZIP", str(source))
    assert fetch_data.main() == 0
    assert "is ready" in capsys.readouterr().out
