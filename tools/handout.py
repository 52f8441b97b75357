"""Build the handouts: what a teacher gives the students, one per edition.

    python -m tools.handout OUT_DIR [EDITION ...]   # en, pt_BR; both if none

For each edition, OUT_DIR/NAME/ holds the student notebooks (tools/student.py,
each left-out solution replaced by a line saying the teacher has it), the
helper package, the corpus excerpt, the packages to install, a README and a
Makefile (`make lab`), and the licence; OUT_DIR/NAME.zip holds that folder.
No full notebook goes in. The files a handout adds to the project's own are
in tools/handout_files/. Each folder and zip is built under a temporary name
and then put in place, so an interrupted build leaves no half-made handout.
"""

import argparse
import os
import re
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

import nbformat

from tools import student
from tools.project import (
    LOCALE,
    NOTEBOOKS,
    NOTEBOOKS_PT,
    PACKAGE,
    PACKAGE_PO,
    ROOT,
)

FILES = ROOT / "tools" / "handout_files"
# edition: (folder and zip name, its notebooks, its README, its extras)
EDITIONS = {
    "en": ("attention-notebooks", NOTEBOOKS, "README.md", {}),
    "pt_BR": (
        "notebooks-de-atencao",
        NOTEBOOKS_PT,
        "README.pt-BR.md",
        {"jupyterlab-settings": LOCALE / "jupyterlab-settings"},
    ),
}
# heads the handout's requirements.txt: the project's pins, no comments
REQUIREMENTS_HEADER = {
    "en": "# What the notebooks need, pinned: `make lab` installs it "
    "(README)\n",
    "pt_BR": "# O que os notebooks usam, com as versões fixadas: `make lab` "
    "instala (README)\n",
}


def fill(folder, edition):
    """Write the handout of edition into the empty folder."""
    _, notebooks, readme, extras = EDITIONS[edition]
    (folder / "notebooks").mkdir()
    for path in sorted(notebooks.glob("[0-9][0-9]_*.ipynb")):
        nb = student.student_notebook(path, student.HANDOUT_LINES)
        if edition == "pt_BR":
            # "escrito a partir do original em inglês, `notebooks/...`, e":
            # the handout holds no English original
            nb.cells[0].source = re.sub(
                r", `notebooks/[^`]+`,", "", nb.cells[0].source
            )
        nbformat.write(nb, folder / "notebooks" / path.name)
    # the package, its exercises' checks, and the catalog of its messages
    shutil.copytree(
        PACKAGE,
        folder / "d2l_attention",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    catalog = folder / "locale" / "pt_BR"
    catalog.mkdir(parents=True)
    shutil.copy2(PACKAGE_PO, catalog / PACKAGE_PO.name)
    (folder / "data").mkdir()
    for name in ("README.md", "fra-eng-first-5000.txt"):
        shutil.copy2(ROOT / "data" / name, folder / "data" / name)
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy2(FILES / name, folder / name)
    shutil.copy2(FILES / readme, folder / "README.md")
    shutil.copy2(ROOT / "LICENSE", folder / "LICENSE")
    pins = [
        line
        for line in (ROOT / "requirements.txt").read_text("utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    (folder / "requirements.txt").write_text(
        REQUIREMENTS_HEADER[edition] + "\n".join(pins) + "\n", encoding="utf-8"
    )
    for name, source in extras.items():
        shutil.copytree(source, folder / name)


def build(out_dir, edition):
    """Write OUT_DIR/NAME/ and OUT_DIR/NAME.zip; return the zip's path."""
    name = EDITIONS[edition][0]
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out_dir) as temporary:
        folder = Path(temporary, name)
        folder.mkdir()
        fill(folder, edition)
        # the zip holds the folder's files under the folder's own name
        with zipfile.ZipFile(f"{folder}.zip", "w", zipfile.ZIP_DEFLATED) as zf:
            for path in sorted(folder.rglob("*")):
                if path.is_file():
                    zf.write(path, path.relative_to(temporary).as_posix())
        shutil.rmtree(out_dir / name, ignore_errors=True)
        os.replace(folder, out_dir / name)
        os.replace(f"{folder}.zip", out_dir / f"{name}.zip")
    return out_dir / f"{name}.zip"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("editions", nargs="*", metavar="edition")
    args = parser.parse_args(argv)
    unknown = [e for e in args.editions if e not in EDITIONS]
    if unknown:
        sys.exit(
            f"handout.py: no such edition: {', '.join(unknown)} "
            f"(the editions are {', '.join(EDITIONS)})"
        )
    for edition in args.editions or EDITIONS:
        print(build(args.out_dir, edition))


if __name__ == "__main__":
    main()
