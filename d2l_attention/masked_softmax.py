# generated from notebooks/01_masked_softmax.ipynb, do not edit

import matplotlib.pyplot as plt
import torch
from matplotlib.ticker import MaxNLocator
from torch import nn

__all__ = [
    "try_gpu",
    "valid_lens_to_mask",
    "masked_softmax",
    "check_valid_lens",
    "check_valid_lens_shape",
    "show_heatmaps",
    "sequence_mask",
]


def try_gpu(i=0):
    """Return the i-th GPU if it exists, else the CPU.

    Defined in notebook 01.
    """
    if torch.cuda.device_count() > i:
        return torch.device(f"cuda:{i}")
    return torch.device("cpu")


def valid_lens_to_mask(valid_lens, num_keys):
    """Return a boolean mask, True where a key is within the valid length.

    Shape (batch_size, 1, no. of keys) for 1-D valid lengths, which
    broadcasts over the queries, or (batch_size, no. of queries, no. of
    keys) for 2-D ones. Defined in notebook 01.
    """
    if valid_lens.dim() == 1:
        valid_lens = valid_lens[:, None]  # (batch_size, 1): every query
    positions = torch.arange(num_keys, device=valid_lens.device)
    # (keys,) < (batch_size, 1 or queries, 1)
    # -> (batch_size, 1 or no. of queries, no. of keys)
    return positions < valid_lens[..., None]


def masked_softmax(X, valid_lens):
    """Return the softmax of X over its last axis, masking past valid_lens.

    X: (batch_size, no. of queries, no. of keys); valid_lens: None,
    (batch_size,) or (batch_size, no. of queries). Keys past a valid
    length get weight 0, and a row with no valid key (length 0) comes
    back as all zeros. Defined in notebook 01.
    """
    check_valid_lens(X, valid_lens)
    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    # (batch_size, 1 or no. of queries, no. of keys), True = keep
    keep = valid_lens_to_mask(valid_lens.to(X.device), X.shape[-1])
    # most negative finite number of X's dtype: its exp is 0, and unlike
    # -1e6 it exists in float16 (see the optional part)
    lowest = torch.finfo(X.dtype).min
    weights = nn.functional.softmax(torch.where(keep, X, lowest), dim=-1)
    # a row with no valid key came out uniform: make it zeros
    return torch.where(keep, weights, 0.0)


def check_valid_lens(X, valid_lens):
    """Raise ValueError/TypeError unless valid_lens suits the scores X.

    Defined in notebook 01.
    """
    if not torch.is_tensor(X) or X.dim() != 3:
        shape = tuple(X.shape) if torch.is_tensor(X) else type(X).__name__
        raise ValueError("X must be a 3-D tensor (batch_size, no. of "
                         f"queries, no. of keys), got {shape}")
    if not X.is_floating_point():
        raise TypeError(f"X must hold floating-point scores, got {X.dtype}")
    if valid_lens is not None:
        check_valid_lens_shape(valid_lens, X.shape[0], X.shape[1])


def check_valid_lens_shape(valid_lens, batch_size, num_queries):
    """Raise ValueError/TypeError unless valid_lens suits such a batch.

    valid_lens: whole numbers >= 0, one per example, (batch_size,), or
    one per query, (batch_size, num_queries). Defined in notebook 01.
    """
    if not torch.is_tensor(valid_lens):
        raise TypeError("valid_lens must be a tensor or None, got "
                        f"{type(valid_lens).__name__}")
    if valid_lens.shape not in [(batch_size,), (batch_size, num_queries)]:
        raise ValueError(
            f"valid_lens must have shape ({batch_size},) or ({batch_size}, "
            f"{num_queries}), one length per example or per query, got "
            f"{tuple(valid_lens.shape)}")
    if valid_lens.is_floating_point():
        if not torch.equal(valid_lens, valid_lens.round()):
            raise ValueError("valid_lens must hold whole numbers, got "
                             f"{valid_lens.tolist()}")
    elif valid_lens.dtype == torch.bool or valid_lens.is_complex():
        raise TypeError(f"valid_lens must be integers, got {valid_lens.dtype}")
    if (valid_lens < 0).any():
        raise ValueError(f"valid_lens must be >= 0, got {valid_lens.tolist()}")


def show_heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5),
                  cmap="Reds"):
    """Return a figure with one heatmap per matrix of a 4-D tensor.

    matrices has shape (no. of rows, no. of columns, no. of queries,
    no. of keys); the colour scale is fixed to 0..1, the range of
    attention weights. Defined in notebook 01.
    """
    matrices = torch.as_tensor(matrices).detach().float().cpu()
    if matrices.dim() != 4:
        raise ValueError("matrices must be 4-D (rows, columns, queries, "
                         f"keys), got shape {tuple(matrices.shape)}")
    num_rows, num_cols, num_queries, num_keys = matrices.shape
    fig, axes = plt.subplots(num_rows, num_cols, figsize=figsize,
                             sharex=True, sharey=True, squeeze=False)
    for i in range(num_rows):
        for j in range(num_cols):
            ax = axes[i, j]
            image = ax.imshow(matrices[i, j].numpy(), cmap=cmap, vmin=0,
                              vmax=1)
            # a tick at every index up to 16, else a few whole numbers
            for axis, size in [(ax.xaxis, num_keys), (ax.yaxis, num_queries)]:
                axis.set_major_locator(MaxNLocator(
                    min(size, 16), integer=True, min_n_ticks=1))
            if i == num_rows - 1:
                ax.set_xlabel(xlabel)
            if j == 0:
                ax.set_ylabel(ylabel)
            if titles:
                ax.set_title(titles[j])
    fig.colorbar(image, ax=axes, shrink=0.6)
    return fig


def sequence_mask(X, valid_len, value=0):
    """Return a copy of X with entries past valid_len on axis 1 set to value.

    Defined in notebook 01.
    """
    # (batch_size, 1, no. of steps) -> (batch_size, no. of steps)
    keep = valid_lens_to_mask(valid_len.to(X.device), X.shape[1])[:, 0]
    # one trailing axis of size 1 per feature axis of X, for broadcasting
    keep = keep.reshape(keep.shape + (1,) * (X.dim() - 2))
    return X.masked_fill(~keep, value)
