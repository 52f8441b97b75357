"""Put the English-French corpus in data/: data/fra-eng.zip, data/fra-eng/.

    python tools/fetch_data.py                        # download (sha1 checked)
    FRA_ENG_ZIP=/path/fra-eng.zip python tools/fetch_data.py   # local copy

The archive must hold fra-eng/fra.txt. Nothing is left half-written: every
file is written to a temporary name in its folder and then renamed. Archive
members that would land outside data/ are refused. A second run with the
data in place does nothing.
"""

import hashlib
import http.client
import os
import shutil
import sys
import tempfile
import urllib.request
import zipfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "data"
ZIP_NAME = "fra-eng.zip"
MEMBER = "fra-eng/fra.txt"
URL = "https://d2l-data.s3-accelerate.amazonaws.com/fra-eng.zip"
SHA1 = "94646ad1522d915e7b0f9296181140edcf86a4f5"
HOW_TO = (
    "set FRA_ENG_ZIP=/path/to/fra-eng.zip (a local copy of the archive) "
    "or run this with internet access"
)


class DataError(Exception):
    """A problem with the archive, reported as one message."""


def sha1_of(path):
    """Return the hex SHA-1 of a file."""
    digest = hashlib.sha1()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def atomic_write(target, write):
    """Call write(file) on a temporary file, then rename it to target."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".part-")
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.chmod(tmp, 0o644)  # mkstemp creates it private (0o600)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def check_archive(path):
    """Raise DataError unless path is a readable zip holding MEMBER."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            bad = archive.testzip()
    except (OSError, zipfile.BadZipFile) as error:
        message = f"{path} is not a readable zip archive ({error})"
        raise DataError(message) from error
    if MEMBER not in names:
        raise DataError(f"{path} does not hold {MEMBER}")
    if bad is not None:
        raise DataError(f"{path} is damaged: member {bad} fails its CRC")


def safe_members(archive, dest):
    """Return (member, target path) pairs; raise if one leaves dest."""
    root = dest.resolve()
    pairs = []
    for info in archive.infolist():
        target = (root / info.filename).resolve()
        inside = target.is_relative_to(root) and target != root
        if not inside or target == root / ZIP_NAME:
            raise DataError(
                f"refusing archive member {info.filename!r}: it would be "
                f"written outside {dest}"
            )
        pairs.append((info, target))
    return pairs


def crc_of(path):
    """Return the CRC-32 of a file, as zip archives record it."""
    crc = 0
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            crc = zlib.crc32(block, crc)
    return crc


def in_place(target, info):
    """Return True if target already holds the archive member info."""
    if not target.is_file() or target.stat().st_size != info.file_size:
        return False
    return crc_of(target) == info.CRC


def extract(zip_path, dest):
    """Extract the archive into dest, skipping files already in place."""
    with zipfile.ZipFile(zip_path) as archive:
        for info, target in safe_members(archive, dest):
            if info.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            if in_place(target, info):
                continue
            with archive.open(info) as source:
                atomic_write(target, lambda f: shutil.copyfileobj(source, f))


def copy_local(source, target):
    """Copy a checked local archive to target unless it is already there."""
    source = Path(source).expanduser()
    if not source.is_file():
        raise DataError(f"FRA_ENG_ZIP={source} is not a file")
    check_archive(source)
    same = target.is_file() and target.stat().st_size == source.stat().st_size
    if same and sha1_of(target) == sha1_of(source):
        return
    with open(source, "rb") as f:
        atomic_write(target, lambda out: shutil.copyfileobj(f, out))


def download(url, target, sha1, timeout=30):
    """Download url to target over HTTPS, keeping it only if sha1 matches."""
    if not url.startswith("https://"):
        raise DataError(f"refusing to download over plain HTTP: {url}")

    def write_download(out):
        digest = hashlib.sha1()
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:
                for block in iter(lambda: response.read(1 << 20), b""):
                    digest.update(block)
                    out.write(block)
        except (OSError, http.client.HTTPException) as error:
            message = f"could not download {url} ({error}); {HOW_TO}"
            raise DataError(message) from error
        if digest.hexdigest() != sha1:
            raise DataError(
                f"{url} has sha1 {digest.hexdigest()}, expected {sha1}; "
                f"nothing was kept; {HOW_TO}"
            )

    atomic_write(target, write_download)


def archive_in_place(target):
    """Return True if target is already a usable archive."""
    if not target.is_file():
        return False
    try:
        check_archive(target)
    except DataError:
        return False
    return True


def fetch(data_dir=DATA_DIR, local=None, url=URL, sha1=SHA1):
    """Place fra-eng.zip in data_dir and extract it; return the text path."""
    data_dir = Path(data_dir)
    target = data_dir / ZIP_NAME
    if local:
        copy_local(local, target)
    elif not archive_in_place(target):
        download(url, target, sha1)
        check_archive(target)
    extract(target, data_dir)
    return data_dir / MEMBER


def main():
    """Run fetch() with FRA_ENG_ZIP from the environment; return exit code."""
    try:
        path = fetch(local=os.environ.get("FRA_ENG_ZIP") or None)
    except DataError as error:
        print(f"fetch_data: {error}", file=sys.stderr)
        return 1
    print(f"fetch_data: {path.relative_to(ROOT)} is ready")
    return 0


if __name__ == "__main__":
    sys.exit(main())
