"""The checks of the notebooks' claims (tests/claims/): each names cells the
notebooks have, and one that fails says where and what."""

import subprocess
import sys

import nbformat
import pytest

from tests.claims.plugin import CLAIMS, claims_file, read_claims
from tools.project import NOTEBOOKS, NOTEBOOKS_PT, ROOT

FILES = sorted(CLAIMS.glob("[0-9]*.py"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_claims_name_code_cells_of_both_editions(path):
    claims = read_claims(path)
    assert claims, f"{path.name} holds no claim"
    for folder in (NOTEBOOKS, NOTEBOOKS_PT):
        notebook = folder / f"{path.stem}.ipynb"
        cells = nbformat.read(notebook, as_version=4).cells
        code = {c.id for c in cells if c.cell_type == "code"}
        missing = {claim.cell_id for claim in claims} - code
        assert not missing, f"{notebook.name} has no code cell {missing}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_claim_is_checked_twice(path):
    blocks = [(claim.sentence, claim.code) for claim in read_claims(path)]
    twice = {block[0] for block in blocks if blocks.count(block) > 1}
    assert not twice, f"{path.name}: blocks written twice: {twice}"
    sentences = [sentence for sentence, _ in blocks]
    assert len(set(sentences)) == len(sentences), path.name


def test_a_copy_of_a_notebook_finds_its_claims():
    copy = NOTEBOOKS / "zz_seed12_01_masked_softmax.ipynb"
    assert claims_file(copy) == CLAIMS / "01_masked_softmax.py"
    assert claims_file(NOTEBOOKS_PT / "01_masked_softmax.ipynb").stem == (
        "01_masked_softmax"
    )
    assert claims_file(NOTEBOOKS / "99_none.ipynb") is None


def test_a_block_must_say_what_it_checks(tmp_path):
    path = tmp_path / "99_tiny.py"
    path.write_text("# %% after first\nassert x == 2\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 1: the block after first"):
        read_claims(path)


@pytest.mark.kernel
def test_a_failing_claim_names_notebook_cell_and_sentence(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("x = 2", id="first"),
        nbformat.v4.new_code_cell("y = x + 1", id="second"),
    ]
    nbformat.write(nb, tmp_path / "99_tiny.ipynb")
    claims = tmp_path / "claims"
    claims.mkdir()
    (claims / "99_tiny.py").write_text(
        "# %% after first\n# x is two\nassert x == 2\n\n"
        "# %% after second\n# y is four\nassert y == 4, f'y is {y}'\n",
        encoding="utf-8",
    )
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "tests.claims.plugin",
        "-p",
        "no:cacheprovider",
        "--nbval-lax",
        "--nbval-current-env",
        f"--claims-dir={claims}",
        "--rootdir",
        str(tmp_path),
        str(tmp_path / "99_tiny.ipynb"),
    ]
    result = subprocess.run(
        command, capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 failed, 3 passed" in result.stdout
    assert (
        '99_tiny.ipynb, after cell second: the claim "y is four" does not '
        "hold: AssertionError: y is 3"
    ) in result.stdout
