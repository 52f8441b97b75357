"""Run the checks of a notebook's claims in nbval's kernel, after the cells
they name.

A claims file (tests/claims/NN_name.py, for notebooks/NN_name.ipynb and
notebooks/pt_BR/NN_name.ipynb) is a list of blocks, each opened by a line

    # %% after CELL-ID

then the sentence it backs, as comment lines, then the code. Under nbval
each block becomes a test item of the notebook that runs right after the
item of cell CELL-ID, in the same kernel and the same execution: the block
sees the notebook's variables, and nothing runs twice. A block that raises
fails, naming the notebook, the cell and the sentence. The blocks run in
the order of the cells they follow, those after one cell in file order.
"""

import ast
import re
from pathlib import Path
from queue import Empty

import pytest

CLAIMS = Path(__file__).resolve().parent
MARKER = re.compile(r"^# %% after (\S+)\s*$")
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # the colours of a traceback


class Claim:
    """One block of a claims file: the cell it follows, its sentence, its
    code, and where it starts (file, line)."""

    def __init__(self, cell_id, sentence, code, path, line):
        self.cell_id, self.sentence, self.code = cell_id, sentence, code
        self.path, self.line = path, line


def read_claims(path):
    """Return the Claims of a claims file, in file order; raise ValueError
    for code before the first marker or a block without a sentence."""
    path = Path(path)
    claims, head = [], []
    for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        if match := MARKER.match(line):
            claims.append([match[1], number, []])
        elif claims:
            claims[-1][2].append(line)
        else:
            head.append(line)
    body = ast.parse("\n".join(head)).body
    if body and not (len(body) == 1 and isinstance(body[0], ast.Expr)):
        raise ValueError("code before the first '# %% after'")
    found = []
    for cell_id, number, lines in claims:
        sentence = []
        while lines and lines[0].startswith("#"):
            sentence.append(lines.pop(0).lstrip("# ").strip())
        if not sentence:
            raise ValueError(
                f"line {number}: the block after {cell_id} "
                "must say, in comment lines, which sentence it checks"
            )
        code = "\n".join(lines).strip("\n")
        found.append(Claim(cell_id, " ".join(sentence), code, path, number))
    return found


def claims_file(notebook, folder=CLAIMS):
    """Return the claims file of a notebook (a copy whose name ends with the
    notebook's, like other-seeds' zz_seed1_01_name.ipynb, included), or
    None."""
    stem = Path(notebook).stem
    matches = [p for p in folder.glob("[0-9]*.py") if stem.endswith(p.stem)]
    return max(matches, key=lambda p: len(p.stem), default=None)


class ClaimError(Exception):
    """A claim's block raised in the kernel."""


class ClaimItem(pytest.Item):
    """A claim's block, run in the kernel of its notebook's nbval items."""

    def __init__(self, *, claim, **kwargs):
        super().__init__(**kwargs)
        self.claim = claim

    def where(self):
        """Return the notebook, the cell and the sentence, for a message."""
        return (
            f"{self.parent.path.name}, after cell {self.claim.cell_id}: "
            f'the claim "{self.claim.sentence}"'
        )

    def runtest(self):
        kernel = self.parent.kernel
        if kernel is None or not kernel.is_alive():
            raise ClaimError(f"{self.where()}: the kernel is not running")
        msg_id = kernel.execute_cell_input(self.claim.code, allow_stdin=False)
        timeout = self.config.option.nbval_cell_timeout
        try:
            kernel.await_reply(msg_id, timeout=timeout)
        except Empty:
            kernel.interrupt()
            raise ClaimError(
                f"{self.where()}: still running after {timeout} s"
            ) from None
        error = None
        while True:  # its messages, up to the kernel's idle
            msg = kernel.get_message("iopub", timeout=timeout)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "error":
                error = msg["content"]
            state = msg["content"].get("execution_state")
            if msg["msg_type"] == "status" and state == "idle":
                break
        if error:
            raise ClaimError(
                f"{self.where()} does not hold: {error['ename']}: "
                f"{error['evalue']}\n"
                + ANSI.sub("", "\n".join(error["traceback"]))
            )

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ClaimError):
            return f"{excinfo.value}\n\nthe check:\n{self.claim.code}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        where = f"claim after {self.claim.cell_id}"
        return self.claim.path, self.claim.line - 1, where


class ClaimsProblem(pytest.Item):
    """A claims file that cannot run (unreadable, or naming cells its
    notebook lacks): fails, saying why."""

    def __init__(self, *, problem, claims, **kwargs):
        super().__init__(**kwargs)
        self.problem, self.claims = problem, claims

    def runtest(self):
        raise ClaimError(self.problem)

    def repr_failure(self, excinfo):
        return str(excinfo.value)

    def reportinfo(self):
        return self.claims, 0, "claims that cannot run"


def notebook_claims(nbfile, folder):
    """Return (claims file, its Claims, what keeps them from running or
    None) for nbval's collector of one notebook; the file is None when the
    notebook has none."""
    path = claims_file(nbfile.path, folder)
    if path is None:
        return None, [], None
    try:
        claims = read_claims(path)
    except ValueError as error:
        return path, [], f"{path.name}: {error}"
    code = {c.get("id") for c in nbfile.nb.cells if c.cell_type == "code"}
    missing = sorted({claim.cell_id for claim in claims} - code)
    if missing:
        lacks = f"{nbfile.path.name} has no code cell {', '.join(missing)}"
        return path, claims, f"{path.name}: {lacks}"
    return path, claims, None


def with_claims(items, folder=CLAIMS):
    """Return items with each notebook's claims after the cells they name."""
    out, seen = [], {}
    for item in items:
        out.append(item)
        cell = getattr(item, "cell", None)
        if cell is None or item.path.suffix != ".ipynb":
            continue
        nbfile = item.parent
        if nbfile not in seen:  # the notebook's first cell: read once
            seen[nbfile] = notebook_claims(nbfile, folder)
            path, _, found = seen[nbfile]
            if found:
                out.append(
                    ClaimsProblem.from_parent(
                        nbfile,
                        name="claims that cannot run",
                        problem=found,
                        claims=path,
                    )
                )
        for index, claim in enumerate(seen[nbfile][1]):
            if claim.cell_id == cell.get("id"):
                out.append(
                    ClaimItem.from_parent(
                        nbfile,
                        name=f"claim {index + 1} after {claim.cell_id}",
                        claim=claim,
                    )
                )
    return out


def pytest_addoption(parser):
    parser.addoption(
        "--claims-dir",
        default=str(CLAIMS),
        help="the folder of the claims files (default: tests/claims)",
    )


def pytest_collection_modifyitems(session, config, items):
    items[:] = with_claims(items, Path(config.getoption("claims_dir")))
