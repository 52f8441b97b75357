"""Put the English-French corpus in data/: data/fra-eng.zip, data/fra-eng/.

    python tools/fetch_data.py                                # download
    FRA_ENG_ZIP=/path/fra-eng.zip python tools/fetch_data.py  # local copy

An archive is used only if its hash is one of KNOWN, checked before
anything is read from it: a damaged, truncated or foreign one is refused
in one line. Nothing is left half-written (pooch downloads to a temporary
file; the copy and the extracted folder are renamed into place), and a
second run with the data in place does nothing.
"""

import filecmp
import os
import shutil
import sys
import tempfile
import zipfile
import zlib
from pathlib import Path

import pooch
import requests

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "data"
URL = "https://d2l-data.s3-accelerate.amazonaws.com/fra-eng.zip"
KNOWN = (
    # the book's archive, which URL serves
    "sha1:94646ad1522d915e7b0f9296181140edcf86a4f5",
    # the copy for machines without internet (another cut of the corpus)
    "sha256:9729d61b31551e0c5417f119b606bca9b416c93f69de370dfb398ff99f6039dc",
)
HOW_TO = (
    "To get the corpus, run `FRA_ENG_ZIP=/path/to/fra-eng.zip make data` "
    "with a good local copy of the archive, or `make data` with internet "
    "access."
)


class DataError(Exception):
    """A problem with the archive, reported as one message."""


def is_known(path, known):
    """Return True if the file's hash is one of known."""
    return any(pooch.file_hash(path, alg=alg) == digest
               for alg, digest in (h.split(":") for h in known))


def what_it_is(path):
    """Say what a file whose hash is not a known one most likely is."""
    with open(path, "rb") as f:
        head = f.read(512).lstrip()
    if not head:
        return "is empty"
    if head.startswith(b"<"):
        return ("is a web page (an error or login page of a server or proxy "
                "saved in the archive's place)")
    if not zipfile.is_zipfile(path):
        return "is truncated or not a zip archive"
    return "is a damaged archive or another one than fra-eng.zip"


def copy_local(source, target, known):
    """Copy a known local archive to target unless it is already there."""
    if not source.is_file():
        raise DataError(f"FRA_ENG_ZIP={source} is not a file")
    if not is_known(source, known):
        raise DataError(f"FRA_ENG_ZIP={source} {what_it_is(source)}: its "
                        "hash is not that of a known fra-eng.zip")
    if target.is_file() and filecmp.cmp(source, target, shallow=False):
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, part = tempfile.mkstemp(dir=target.parent, prefix=".part-")
    os.close(fd)
    try:
        shutil.copyfile(source, part)
        os.chmod(part, 0o644)  # mkstemp makes it private
        os.replace(part, target)
    finally:
        Path(part).unlink(missing_ok=True)


def download(url, target, known_hash):
    """Download url to target through pooch, kept only if its hash matches."""
    print(f"fetch_data: downloading {url}")
    pooch.get_logger().setLevel("WARNING")  # the line above says it once
    try:
        pooch.retrieve(url, known_hash, fname=target.name, path=target.parent,
                       progressbar=sys.stderr.isatty())
    except requests.RequestException as error:
        raise DataError(f"could not download {url} ({error}); nothing was "
                        "kept") from error
    except ValueError as error:
        raise DataError(f"{url} gave another file than the book's archive "
                        "(a login page?); nothing was kept") from error


def in_place(path, info):
    """Return True if path already holds the archive member info."""
    return (path.is_file() and path.stat().st_size == info.file_size
            and zlib.crc32(path.read_bytes()) == info.CRC)


def extract(archive, data_dir):
    """Extract the archive's fra-eng/ into data_dir, whole or not at all."""
    with zipfile.ZipFile(archive) as zipped:
        members = [i for i in zipped.infolist() if not i.is_dir()]
        if all(in_place(data_dir / i.filename, i) for i in members):
            return
        work = Path(tempfile.mkdtemp(dir=data_dir, prefix=".part-"))
        try:
            zipped.extractall(work)
            if (data_dir / "fra-eng").exists():
                os.rename(data_dir / "fra-eng", work / "old")
            os.rename(work / "fra-eng", data_dir / "fra-eng")
        finally:
            shutil.rmtree(work, ignore_errors=True)


def fetch(data_dir, local=None, known=KNOWN, url=URL):
    """Place fra-eng.zip in data_dir and extract it; return the text path."""
    data_dir = Path(data_dir)
    target = data_dir / "fra-eng.zip"
    if local:
        copy_local(Path(local).expanduser(), target, known)
    elif not (target.is_file() and is_known(target, known)):
        download(url, target, known[0])  # replaces a damaged one
    extract(target, data_dir)
    return data_dir / "fra-eng" / "fra.txt"


def main():
    """Run fetch() with FRA_ENG_ZIP from the environment; return exit code."""
    try:
        path = fetch(DATA_DIR, os.environ.get("FRA_ENG_ZIP"), KNOWN, URL)
    except DataError as error:
        print(f"fetch_data: {error}. {HOW_TO}", file=sys.stderr)
        return 1
    except OSError as error:  # disk full, no permission: no traceback
        print(f"fetch_data: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("fetch_data: interrupted; no half-written file was kept",
              file=sys.stderr)
        return 130
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    print(f"fetch_data: {shown} is ready")
    return 0


if __name__ == "__main__":
    sys.exit(main())
