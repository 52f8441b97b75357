"""tools/fetch_data.py: only a known archive is used, in one line if not."""

import hashlib
import http.server
import io
import stat
import struct
import threading
import zipfile

import pytest
import requests

from tools import fetch_data

TEXT = "Go.\tVa !\nI lost.\tJ'ai perdu.\n" * 50


def zip_bytes(members, method=zipfile.ZIP_DEFLATED):
    """Return a zip archive holding {name: text or ZipInfo: text}."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=method) as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return buffer.getvalue()


GOOD = zip_bytes({"fra-eng/fra.txt": TEXT, "fra-eng/_about.txt": "x"})
KNOWN = ("sha1:" + hashlib.sha1(GOOD).hexdigest(),)


LINK = zipfile.ZipInfo("fra-eng/link")  # a symbolic link: Unix mode bits
LINK.create_system, LINK.external_attr = 3, (stat.S_IFLNK | 0o777) << 16


def damage(raw, offset, value):
    """raw with a byte of its first member's data set to value."""
    name_len, extra_len = struct.unpack("<HH", raw[26:30])
    at = 30 + name_len + extra_len + offset
    return raw[:at] + bytes([value]) + raw[at + 1:]


STORED = zip_bytes({"fra-eng/fra.txt": TEXT}, zipfile.ZIP_STORED)
# every archive refused by an earlier fetcher that checked members one by
# one, and what the one line says of it now
BAD = {
    "text": (b"not a zip", "is truncated or not a zip archive"),
    "empty": (b"", "is empty"),
    "web page": (b"\n<!DOCTYPE html><html><title>403 Forbidden</title>",
                 "is a web page"),
    "truncated": (GOOD[:len(GOOD) // 2], "is truncated"),
    "no fra.txt": (zip_bytes({"fra-eng/other.txt": "x"}), "another one"),
    "bad zlib": (damage(GOOD, 0, 0xFF), "damaged"),
    "CRC": (damage(STORED, 3, 0), "damaged"),
    "method 99": (GOOD.replace(b"PK\x03\x04\x14\x00\x00\x00\x08",
                               b"PK\x03\x04\x14\x00\x00\x00\x63"), "damaged"),
    "symlink": (zip_bytes({"fra-eng/fra.txt": TEXT, LINK: "/etc/passwd"}),
                "damaged"),
    **{f"member {name}": (zip_bytes({"fra-eng/fra.txt": TEXT, name: "x"}),
                          "another one")
       for name in ("../evil.txt", "fra-eng/../../evil.txt", "/tmp/evil",
                    "README.md", "fra-eng\\..\\evil.txt", "C:/evil.txt")},
}


def snapshot(root):
    """Map every file under root to its bytes."""
    return {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.fixture
def data(tmp_path, monkeypatch):
    """An empty data folder beside a project README, with main() aimed at
    it and the test archive the only known one."""
    (tmp_path / "README.md").write_text("the project's README")
    monkeypatch.setattr(fetch_data, "DATA_DIR", tmp_path / "data")
    monkeypatch.setattr(fetch_data, "KNOWN", KNOWN)
    monkeypatch.delenv("FRA_ENG_ZIP", raising=False)
    return tmp_path / "data"


def fails_in_one_line(capsys, *words):
    """Run main(); it must fail with one line on stderr holding words."""
    assert fetch_data.main() == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    for word in (*words, "FRA_ENG_ZIP=/path/to/fra-eng.zip make data"):
        assert word in err


def test_a_local_copy_is_copied_extracted_and_kept(data, tmp_path, capsys,
                                                   monkeypatch):
    (tmp_path / "src.zip").write_bytes(GOOD)
    monkeypatch.setenv("FRA_ENG_ZIP", str(tmp_path / "src.zip"))
    assert fetch_data.main() == 0
    assert "is ready" in capsys.readouterr().out
    assert (data / "fra-eng" / "fra.txt").read_text() == TEXT
    assert (data / "fra-eng.zip").read_bytes() == GOOD
    times = {p: p.stat().st_mtime_ns for p in data.rglob("*")}
    assert fetch_data.main() == 0 and times == {  # a second does nothing
        p: p.stat().st_mtime_ns for p in data.rglob("*")}


@pytest.mark.parametrize("kind", list(BAD))
def test_a_bad_local_copy_is_refused_in_one_line(data, tmp_path, capsys,
                                                 monkeypatch, kind):
    content, says = BAD[kind]
    (tmp_path / "src.zip").write_bytes(content)
    data.mkdir()
    (data / "README.md").write_text("data README")
    before = snapshot(tmp_path)
    monkeypatch.setenv("FRA_ENG_ZIP", str(tmp_path / "src.zip"))
    fails_in_one_line(capsys, says, "src.zip")
    assert snapshot(tmp_path) == before  # nothing written, anywhere


def test_a_missing_local_copy_is_named(data, capsys, monkeypatch):
    monkeypatch.setenv("FRA_ENG_ZIP", "/absent/fra-eng.zip")
    fails_in_one_line(capsys, "FRA_ENG_ZIP=/absent/fra-eng.zip is not a file")


def test_a_new_archive_replaces_the_whole_folder(data, tmp_path):
    old = zip_bytes({"fra-eng/fra.txt": "old", "fra-eng/stale.txt": "x"})
    for content in (old, GOOD):
        (tmp_path / "src.zip").write_bytes(content)
        known = ("sha1:" + hashlib.sha1(content).hexdigest(),)
        fetch_data.fetch(data, local=tmp_path / "src.zip", known=known)
    assert sorted(p.name for p in (data / "fra-eng").iterdir()) == [
        "_about.txt", "fra.txt"]
    assert sorted(p.name for p in data.iterdir()) == ["fra-eng",
                                                      "fra-eng.zip"]


def test_a_failed_extraction_leaves_the_old_folder_whole(data, tmp_path,
                                                         monkeypatch):
    (tmp_path / "src.zip").write_bytes(GOOD)
    fetch_data.fetch(data, local=tmp_path / "src.zip", known=KNOWN)
    (data / "fra-eng" / "fra.txt").write_text("edited")

    monkeypatch.setattr(zipfile.ZipFile, "extractall", None)  # fails
    with pytest.raises(TypeError):
        fetch_data.fetch(data, local=tmp_path / "src.zip", known=KNOWN)
    assert (data / "fra-eng" / "fra.txt").read_text() == "edited"
    assert sorted(p.name for p in data.iterdir()) == ["fra-eng",
                                                      "fra-eng.zip"]


class Server(http.server.ThreadingHTTPServer):
    """Serves `payload` at every path; with `cut`, announces all of it but
    closes the connection half way."""

    payload, cut = GOOD, False

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = self.server.payload
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[:len(body) // 2] if self.server.cut
                             else body)

        def log_message(self, *args):
            pass


@pytest.fixture
def server(data, monkeypatch):
    """A local HTTP server that main() downloads from."""
    with Server(("127.0.0.1", 0), Server.Handler) as httpd:
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        monkeypatch.setattr(fetch_data, "URL",
                            f"http://127.0.0.1:{httpd.server_port}/f.zip")
        yield httpd
        httpd.shutdown()


@pytest.mark.parametrize("kind", ["absent", "damaged"])
def test_a_download_is_checked_and_replaces_a_damaged_archive(
        server, data, capsys, kind):
    if kind == "damaged":
        data.mkdir()
        (data / "fra-eng.zip").write_bytes(BAD["CRC"][0])
    assert fetch_data.main() == 0
    assert "downloading" in capsys.readouterr().out
    assert (data / "fra-eng.zip").read_bytes() == GOOD
    assert (data / "fra-eng" / "fra.txt").read_text() == TEXT


def test_ctrl_c_during_a_download_keeps_nothing(server, data, tmp_path,
                                                capsys, monkeypatch):
    def chunk_then_ctrl_c(response, **kwargs):
        yield response.raw.read(100)
        raise KeyboardInterrupt

    monkeypatch.setattr(requests.Response, "iter_content", chunk_then_ctrl_c)
    before = snapshot(tmp_path)
    assert fetch_data.main() == 130 and snapshot(tmp_path) == before
    assert capsys.readouterr().err == (
        "fetch_data: interrupted; no half-written file was kept\n")


@pytest.mark.parametrize("kind", ["web page", "cut short", "offline"])
def test_a_failed_download_keeps_nothing(server, data, tmp_path, capsys,
                                         monkeypatch, kind):
    server.payload = BAD["web page"][0] if kind == "web page" else GOOD
    server.cut = kind == "cut short"
    if kind == "offline":
        monkeypatch.setattr(fetch_data, "URL", "http://127.0.0.1:9/f.zip")
    before = snapshot(tmp_path)
    says = "a login page?" if kind == "web page" else "could not"
    fails_in_one_line(capsys, says, "nothing was kept")
    assert snapshot(tmp_path) == before
    assert not data.exists() or list(data.iterdir()) == []
