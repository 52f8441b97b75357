"""Shared fixtures: the d2l 0.17.6 reference, a five-pair corpus, the
package speaking Portuguese."""

import pytest

import d2l_attention.nmt_data
from d2l_attention import use_language
from tests.d2l_reference import import_d2l


@pytest.fixture(scope="session")
def d2l():
    """The d2l 0.17.6 `torch` module, for cross-checks."""
    return import_d2l()


# five English-French pairs in the layout of data/fra-eng-first-5000.txt
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
def five_pairs():
    """load_data_nmt reads the five-pair corpus instead of the excerpt."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(d2l_attention.nmt_data, "read_data_nmt", lambda: CORPUS)
        yield CORPUS


@pytest.fixture
def portuguese():
    """The package's messages and numbers in Portuguese, for one test."""
    use_language("pt_BR")
    yield
    use_language("en")
