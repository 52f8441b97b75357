"""Import d2l 0.17.6's PyTorch module, the reference for tests and benches.

d2l is installed with --no-deps: its pinned dependencies are too old for
this environment, and the module imports torchvision at import time for its
image data sets, which are never used here.
"""

import importlib
import sys
import types


def import_d2l():
    """Return the `d2l.torch` module."""
    try:
        import torchvision  # noqa: F401
    except Exception:
        # No torchvision that can load against this torch (there is no CPU
        # build of it): an empty stand-in module serves d2l's import only.
        stand_in = types.ModuleType("torchvision")
        stand_in.transforms = types.ModuleType("torchvision.transforms")
        sys.modules["torchvision"] = stand_in
        sys.modules["torchvision.transforms"] = stand_in.transforms
    return importlib.import_module("d2l.torch")
