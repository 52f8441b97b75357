"""Nothing in the notebooks or the package assumes a POSIX system.

Students run the notebooks on Windows and macOS too. So no notebook cell
runs a shell command (`!ls`, `%%bash`, `%sx`), no code builds paths with
`os.path`, and every text file is opened with an explicit encoding (the
default is the locale's, cp1252 on many Windows machines).
"""

import ast
import json

import pytest
from IPython.core.inputtransformer2 import TransformerManager

from tools.project import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("**/*.ipynb"))
MODULES = sorted((ROOT / "d2l_attention").glob("*.py"))
SHELL = {"system", "getoutput"}  # what IPython makes of `!cmd`, `x = !cmd`
SHELL_MAGICS = {"bash", "sh", "script", "system", "sx", "sc"}
TEXT_IO = {"open", "read_text", "write_text"}


def problems(source):
    """What in this Python source would not work the same on Windows."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "path"
            and (isinstance(node.value, ast.Name) and node.value.id == "os")
        ):
            found.append("os.path (use pathlib)")
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = getattr(func, "attr", getattr(func, "id", None))
        args = [
            arg.value for arg in node.args if isinstance(arg, ast.Constant)
        ]
        if name in SHELL and "get_ipython" in ast.unparse(func):
            found.append(f"a shell command: {ast.unparse(node)}")
        elif (
            name in ("run_cell_magic", "run_line_magic")
            and args
            and (args[0] in SHELL_MAGICS)
        ):
            found.append(f"a shell magic: %{args[0]}")
        elif name in TEXT_IO:
            keywords = {keyword.arg for keyword in node.keywords}
            modes = [arg for arg in args if isinstance(arg, str)]
            binary = any("b" in mode for mode in modes[-1:]) or any(
                keyword.arg == "mode" and "b" in ast.unparse(keyword.value)
                for keyword in node.keywords
            )
            if name == "open" and binary:
                continue
            if "encoding" not in keywords:
                found.append(f"{ast.unparse(node)} without encoding=")
    return found


def notebook_code(path):
    """Each code cell's id and its source as Python, magics transformed."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    transform = TransformerManager().transform_cell
    return [
        (cell.get("id"), transform("".join(cell["source"])))
        for cell in cells
        if cell["cell_type"] == "code"
    ]


@pytest.mark.parametrize(
    "path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS]
)
def test_notebook_code_is_portable(path):
    found = [
        f"cell {cell_id}: {problem}"
        for cell_id, source in notebook_code(path)
        for problem in problems(source)
    ]
    assert not found, "\n".join(found)


def test_package_is_portable():
    found = [
        f"{path.name}: {problem}"
        for path in MODULES
        for problem in problems(path.read_text(encoding="utf-8"))
    ]
    assert MODULES and not found, "\n".join(found)


@pytest.mark.parametrize(
    "cell, expected",
    [
        ("!ls data", "a shell command"),
        ("files = !dir", "a shell command"),
        ("%%bash\nls\n", "a shell magic: %bash"),
        ("%sx ls", "a shell magic: %sx"),
        ("text = open('a.txt').read()", "without encoding="),
        ("f = open('a.txt', 'w')", "without encoding="),
        (
            "from pathlib import Path\nPath('a').read_text()",
            "without encoding=",
        ),
        ("Path('a').write_text('x')", "without encoding="),
        ("import os\nos.path.join('data', 'a.txt')", "os.path"),
    ],
)
def test_checker_finds(cell, expected):
    found = problems(TransformerManager().transform_cell(cell))
    assert any(expected in problem for problem in found), found


@pytest.mark.parametrize(
    "cell",
    [
        "text = open('a.txt', encoding='utf-8').read()",
        "data = open('a.bin', 'rb').read()",
        "data = Path('a.bin').read_bytes()",
        "Path('a').write_text('x', encoding='utf-8')",
        "%matplotlib inline",
        "print('!ls')",
    ],
)
def test_checker_passes(cell):
    assert problems(TransformerManager().transform_cell(cell)) == []
