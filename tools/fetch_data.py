"""Put the English-French corpus in data/: data/fra-eng.zip, data/fra-eng/.

    python tools/fetch_data.py                        # download (sha1 checked)
    FRA_ENG_ZIP=/path/fra-eng.zip python tools/fetch_data.py   # local copy

The archive must hold fra-eng/fra.txt, and nothing but plain files and
folders inside fra-eng/ (no '..', absolute path or symbolic link). Every
archive is read in full before it is used, so a damaged one (corrupt or
truncated compressed data, a CRC mismatch, a compression method this Python
cannot read) is reported in one message, and a damaged data/fra-eng.zip
left by an earlier run is replaced, not reused. Nothing is left
half-written: the archive is written to a temporary name and renamed, and
data/fra-eng/ is extracted to a temporary folder and renamed into place.
A second run with the data in place does nothing.
"""

import hashlib
import http.client
import os
import shutil
import stat
import sys
import tempfile
import urllib.request
import zipfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "data"
ZIP_NAME = "fra-eng.zip"
FOLDER = "fra-eng"
MEMBER = f"{FOLDER}/fra.txt"
URL = "https://d2l-data.s3-accelerate.amazonaws.com/fra-eng.zip"
SHA1 = "94646ad1522d915e7b0f9296181140edcf86a4f5"
HOW_TO = (
    "To get the corpus, run `FRA_ENG_ZIP=/path/to/fra-eng.zip make data` "
    "with a good local copy of the archive, or `make data` with internet "
    "access."
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


def unsafe_name(name):
    """Return why an archive member may not be extracted, or None."""
    parts = name.split("/")
    if name.startswith("/") or "\\" in name or ":" in parts[0]:
        return "it is an absolute or Windows path"
    if ".." in parts or "." in parts:
        return "it holds a '..' or '.' component"
    if parts[0] != FOLDER or len(parts) < 2:
        return f"it is outside {FOLDER}/"
    return None


def is_link(info):
    """Return True if the archive member info is a symbolic link."""
    return stat.S_ISLNK(info.external_attr >> 16)


def check_members(path, infos):
    """Raise DataError unless every member is a plain file or folder
    inside fra-eng/."""
    if MEMBER not in [info.filename for info in infos]:
        raise DataError(f"{path} does not hold {MEMBER}")
    for info in infos:
        why = unsafe_name(info.filename)
        if why is None and is_link(info):
            why = "it is a symbolic link"
        if why:
            raise DataError(
                f"{path}: refusing archive member {info.filename!r}: {why}; "
                f"only plain files under {FOLDER}/ are extracted")


def damage(error, info):
    """Return what a read error of one archive member says is wrong."""
    name = info.filename
    if isinstance(error, NotImplementedError):
        return (f"member {name} uses compression method "
                f"{info.compress_type}, which this Python cannot read")
    if isinstance(error, zlib.error):
        return f"the compressed data of {name} is corrupt ({error})"
    if isinstance(error, EOFError):
        return f"the compressed data of {name} ends early (truncated)"
    if isinstance(error, RuntimeError):
        return f"member {name} cannot be read ({error})"
    if "CRC" in str(error):
        return f"member {name} fails its CRC check ({error})"
    return f"member {name} is damaged ({error})"  # e.g. a bad header


def read_all(archive, path):
    """Read every member in full; raise DataError naming the damage."""
    for info in archive.infolist():
        try:
            with archive.open(info) as member:
                while member.read(1 << 20):
                    pass
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError,
                NotImplementedError, RuntimeError) as error:
            message = f"{path} is damaged: {damage(error, info)}"
            raise DataError(message) from error


def not_a_zip(path, error):
    """Return what a file that zipfile cannot open most likely is."""
    with open(path, "rb") as f:
        head = f.read(1024).lstrip().lower()
    if not head:
        return f"{path} is empty, not a zip archive"
    if head.startswith((b"<!doctype html", b"<html", b"<?xml", b"<head")):
        return (f"{path} is a web page, not a zip archive: an error or "
                "login page of a server or proxy was saved in its place")
    return (f"{path} is not a readable zip archive: it is truncated or not "
            f"a zip file ({error})")


def check_archive(path):
    """Raise DataError unless path is a sound zip holding only fra-eng/."""
    try:
        with zipfile.ZipFile(path) as archive:
            check_members(path, archive.infolist())
            read_all(archive, path)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as error:
        raise DataError(not_a_zip(path, error)) from error


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


def replace_folder(new, target, trash):
    """Rename the folder new to target, moving an old target to trash."""
    if target.exists():
        os.rename(target, trash)
    os.rename(new, target)


def extract(zip_path, data_dir):
    """Extract fra-eng/ into data_dir, whole or not at all."""
    with zipfile.ZipFile(zip_path) as archive:
        check_members(zip_path, archive.infolist())
        files = [info for info in archive.infolist() if not info.is_dir()]
        if all(in_place(data_dir / info.filename, info) for info in files):
            return
        work = Path(tempfile.mkdtemp(dir=data_dir, prefix=".part-"))
        try:
            for info in files:
                target = work / info.filename  # fra-eng/..., names checked
                target.parent.mkdir(parents=True, exist_ok=True)
                with archive.open(info) as source, open(target, "wb") as out:
                    shutil.copyfileobj(source, out)
            replace_folder(work / FOLDER, data_dir / FOLDER, work / "old")
        finally:
            shutil.rmtree(work, ignore_errors=True)


def copy_local(source, target):
    """Copy a checked local archive to target unless it is already there."""
    source = Path(source).expanduser()
    if not source.is_file():
        raise DataError(f"FRA_ENG_ZIP={source} is not a file")
    try:
        check_archive(source)
    except DataError as error:
        raise DataError(f"FRA_ENG_ZIP names a bad archive: {error}") from error
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
        head = b""
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:
                for block in iter(lambda: response.read(1 << 20), b""):
                    head = head or block[:64]
                    digest.update(block)
                    out.write(block)
        except (OSError, http.client.HTTPException) as error:
            raise DataError(
                f"could not download {url} ({error}); nothing was kept"
            ) from error
        if digest.hexdigest() != sha1:
            what = ("a web page (an error or login page of a server or "
                    "proxy)" if head.lstrip().startswith(b"<") else
                    "a file that is not the expected archive")
            raise DataError(
                f"{url} gave {what}: sha1 {digest.hexdigest()}, expected "
                f"{sha1}; nothing was kept"
            )

    atomic_write(target, write_download)


def archive_problem(target):
    """Return why target is not a usable archive, or None if it is."""
    if not target.is_file():
        return "absent"
    try:
        check_archive(target)
    except DataError as error:
        return str(error)
    return None


def fetch(data_dir=None, local=None, url=URL, sha1=SHA1):
    """Place fra-eng.zip in data_dir and extract it; return the text path."""
    data_dir = Path(data_dir or DATA_DIR)
    target = data_dir / ZIP_NAME
    if local:
        copy_local(local, target)
    elif problem := archive_problem(target):
        try:
            download(url, target, sha1)
        except DataError as error:
            if problem == "absent":
                raise
            message = f"{problem}, and it could not be replaced: {error}"
            raise DataError(message) from error
        check_archive(target)
        if problem != "absent":
            print(f"fetch_data: replaced a damaged archive: {problem}",
                  file=sys.stderr)
    extract(target, data_dir)
    return data_dir / MEMBER


def main():
    """Run fetch() with FRA_ENG_ZIP from the environment; return exit code."""
    try:
        path = fetch(local=os.environ.get("FRA_ENG_ZIP") or None)
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
