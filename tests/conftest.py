"""Shared fixtures: the d2l 0.17.6 reference, a five-pair corpus."""

import pytest

from tools.d2l_reference import import_d2l


@pytest.fixture(scope="session")
def d2l():
    """The d2l 0.17.6 `torch` module, for cross-checks."""
    return import_d2l()


# five English-French pairs in the layout of fra-eng/fra.txt
CORPUS = (
    "Go.\tVa !\n"
    "Hi.\tSalut !\n"
    "Go now!\tVas-y maintenant !\n"
    "I lost.\tJ'ai perdu.\n"
    "Go.\tBouge !\n"
)


@pytest.fixture(scope="session")
def corpus():
    """The text of a five-pair corpus."""
    return CORPUS


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    """A data folder holding the five-pair corpus."""
    folder = tmp_path_factory.mktemp("data")
    (folder / "fra-eng").mkdir()
    (folder / "fra-eng" / "fra.txt").write_text(CORPUS, encoding="utf-8")
    return folder
