"""Shared fixtures: the d2l 0.17.6 reference implementation."""

import importlib
import sys
import types

import pytest


def _import_d2l_torch():
    """Import d2l's PyTorch module, the tests' reference implementation."""
    try:
        import torchvision  # noqa: F401
    except Exception:
        # d2l.torch imports torchvision at import time for its image data
        # sets, which these tests never use. With no torchvision that can
        # load against this torch (there is no CPU build of it), an empty
        # stand-in module serves that import only.
        stand_in = types.ModuleType("torchvision")
        stand_in.transforms = types.ModuleType("torchvision.transforms")
        sys.modules["torchvision"] = stand_in
        sys.modules["torchvision.transforms"] = stand_in.transforms
    return importlib.import_module("d2l.torch")


@pytest.fixture(scope="session")
def d2l():
    """The d2l 0.17.6 `torch` module, for cross-checks."""
    return _import_d2l_torch()
