# generated, do not edit: the #@save cells of
# notebooks/01_masked_softmax.ipynb

import torch

__all__ = [
    "try_gpu",
]


def try_gpu(i=0):
    """Return the i-th GPU if it exists, else the CPU.

    Defined in notebook 01.
    """
    if torch.cuda.device_count() > i:
        return torch.device(f"cuda:{i}")
    return torch.device("cpu")
