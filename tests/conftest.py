"""Shared fixtures: the d2l 0.17.6 reference implementation."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from d2l_reference import import_d2l  # noqa: E402


@pytest.fixture(scope="session")
def d2l():
    """The d2l 0.17.6 `torch` module, for cross-checks."""
    return import_d2l()
